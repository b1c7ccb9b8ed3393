"""Overlays for ``tapeline render``: each module of this package adds pictures on top of the board.

An overlay module has two functions:

* ``add_arguments(parser)`` — its own command-line flags on the ``render`` sub-command;
* ``layers(args, loaded) -> list[board.render.Layer]`` — the layers to draw (``[]`` when its
  flags are not given), in board coordinates (inches, y up), made with the snippet helpers of
  :mod:`board.render` and its CSS classes (``witness``, ``blocker``, ``path``, ``goal``,
  ``end-base``, ``template``, ``violation``).

A module may also define ``step_layers(before, after, events) -> list[board.render.Layer]``:
what one replayed action looks like on the board (``before`` and ``after`` are the states around
it, ``events`` its events) — the HTML replay viewer draws these on each step. A module that only
draws steps defines ``add_arguments`` and ``layers`` as no-ops.

Modules are discovered in name order: adding an overlay is adding a module; nothing else
changes. :func:`render_state` draws a game state (the scenarios-level wrapper over the
board-level :func:`board.render.render_svg`).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Optional, Sequence

from tapeline.board.render import Layer, render_svg


def modules() -> list[ModuleType]:
    """The overlay modules, in name order."""
    return [importlib.import_module(f"{__name__}.{m.name}")
            for m in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name)]


def add_arguments(parser) -> None:
    """Let every overlay add its flags to the ``render`` parser."""
    for m in modules():
        m.add_arguments(parser)


def layers(args, loaded) -> list[Layer]:
    """Every overlay's layers for these arguments, in module order."""
    out: list[Layer] = []
    for m in modules():
        out.extend(m.layers(args, loaded))
    return out


def step_layers(before, after, events: Sequence[dict]) -> list[Layer]:
    """Every overlay's picture of one replayed action (modules with ``step_layers``)."""
    out: list[Layer] = []
    for m in modules():
        if hasattr(m, "step_layers"):
            out.extend(m.step_layers(before, after, events))
    return out


def render_state(state, layers: Sequence[Layer] = (), *, title: Optional[str] = None,
                 fill_by: str = "size", side_colours=None) -> str:
    """The SVG picture of a :class:`rules.state.GameState`: its table, every model on the
    table, each unit's Leading Model marked (§4.3), and the given overlay layers."""
    leaders = [u.leader for u in state.units if u.leader and u.leader in u.models]
    return render_svg(state.table, state.all_figures(), layers, title=title, leaders=leaders,
                      fill_by=fill_by, side_colours=side_colours)
