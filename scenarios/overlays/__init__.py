"""Overlays: answers drawn on the board (``tapeline render``, :meth:`tapeline.Game.svg`, the
replay viewer).

Each module of this package draws one kind of answer and has:

* ``OPTIONS`` — its options and their defaults, named as :meth:`~tapeline.Game.svg`'s keyword
  arguments and ``tapeline render``'s flags (``los``: the two models; ``charge`` and
  ``target``; ``template`` with ``at``, ``toward``, ``model``, ``on``; ``ranks``,
  ``close_ranks``);
* ``layers(game, opts) -> list[board.render.Layer]`` — what to draw for those options (``[]``
  when its options are not given), asking the :class:`~tapeline.Game` the question and drawing
  the answer in board coordinates (inches, y up) with the snippet helpers of
  :mod:`board.render` and its CSS classes (``witness``, ``blocker``, ``path``, ``goal``,
  ``end-base``, ``template``, ``violation``);
* optionally ``step_layers(before, after, events)`` — what one replayed action looks like
  (``before`` and ``after`` are the states around it, ``events`` its events): the replay viewer
  draws these on each step.

:data:`MODULES` lists them, in drawing order; :func:`render` draws a game with the overlays asked
for, :func:`render_state` any state.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Optional

from tapeline.board.render import Layer, render_svg
from tapeline.rules.state import GameState

from ..errors import ArgumentError

if TYPE_CHECKING:
    from ..game import Game

#: The overlay modules, in drawing order.
MODULES = ("zones", "charge", "los", "ranks", "steps", "template")


def modules() -> list[ModuleType]:
    """The overlay modules, in drawing order."""
    return [importlib.import_module(f"{__name__}.{name}") for name in MODULES]


def defaults() -> dict[str, Any]:
    """Every overlay option with its default (nothing drawn)."""
    out: dict[str, Any] = {}
    for m in modules():
        out.update(m.OPTIONS)
    return out


def options(given: Mapping[str, Any]) -> dict[str, Any]:
    """The overlay options ``given``, with the defaults of the rest; an unknown name is an
    :class:`ArgumentError` listing the known ones."""
    known = defaults()
    bad = sorted(set(given) - set(known))
    if bad:
        raise ArgumentError(bad[0], f"no overlay option {bad[0]!r}; the options: {', '.join(sorted(known))}")
    return known | dict(given)


def layers(game: Game, opts: Mapping[str, Any]) -> list[Layer]:
    """Every overlay's layers for ``opts``, in drawing order."""
    out: list[Layer] = []
    for m in modules():
        out.extend(m.layers(game, opts))
    return out


def step_layers(before: GameState, after: GameState, events: Sequence[Mapping[str, Any]]) -> list[Layer]:
    """Every overlay's picture of one replayed action (modules with ``step_layers``)."""
    out: list[Layer] = []
    for m in modules():
        if hasattr(m, "step_layers"):
            out.extend(m.step_layers(before, after, events))
    return out


def render(game: Game, opts: Mapping[str, Any], *, title: Optional[str] = None, fill_by: str = "size") -> str:
    """The SVG picture of the game's board with the overlays ``opts`` asks for."""
    return render_state(game.state, layers(game, opts), title=title, fill_by=fill_by)


def render_state(state: GameState, layers: Sequence[Layer] = (), *, title: Optional[str] = None,
                 fill_by: str = "size", side_colours: Optional[Mapping[str, str]] = None) -> str:
    """The SVG picture of a :class:`rules.state.GameState`: its table, every model on the
    table, each unit's Leading Model marked (§4.3), and the given overlay layers."""
    leaders = [u.leader for u in state.units if u.leader and u.leader in u.models]
    return render_svg(state.table, state.all_figures(), layers, title=title, leaders=leaders,
                      fill_by=fill_by, side_colours=side_colours)
