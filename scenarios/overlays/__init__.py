"""Overlays: answers drawn on the board (``tapeline render``, :meth:`tapeline.Game.svg`, the
replay viewer).

Each module of this package draws one kind of answer and has:

* ``OPTIONS`` — its options and their defaults, named as :meth:`~tapeline.Game.svg`'s keyword
  arguments and ``tapeline render``'s flags (``los``, ``measure``: the two models; ``charge``
  and ``target``; ``path`` with ``via`` and ``max``; ``template`` with ``at``, ``toward``, ``model``, ``on``; ``ranks``,
  ``close_ranks``);
* ``layers(game, opts) -> list[board.render.Layer]`` — what to draw for those options (``[]``
  when its options are not given), asking the :class:`~tapeline.Game` the question and drawing
  the answer in board coordinates (inches, y up) with the snippet helpers of
  :mod:`board.render` and its CSS classes (``witness``, ``blocker``, ``path``, ``goal``,
  ``end-base``, ``template``, ``violation``); each layer's ``focus`` is the box of the models
  (and path, template) it is about, what a cropped picture shows (:func:`crop_box`);
* optionally ``step_layers(before, after, events)`` — what one replayed action looks like
  (``before`` and ``after`` are the states around it, ``events`` its events): the replay viewer
  draws these on each step.

:data:`MODULES` lists them, in drawing order; :func:`render` draws a game with the overlays asked
for, :func:`render_state` any state.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Optional, Union

from tapeline.board.render import Box, Layer, Svg, focus_box, render_svg, union_box
from tapeline.rules.state import GameState
from tapeline.rules.systems import rules_for

from ..errors import ArgumentError

if TYPE_CHECKING:
    from ..game import Game

#: The overlay modules, in drawing order.
MODULES = ("zones", "charge", "los", "measure", "path", "ranks", "steps", "template")
#: A cropped picture shows this much of the table around what it is about (inches).
CROP_MARGIN = 1.5
#: What :func:`crop_box` takes: ``None``/``False`` (the whole table), ``True`` (what the
#: overlays are about), a model id or several, or a box ``(x0, y0, x1, y1)``.
Crop = Union[None, bool, str, Sequence[Any]]


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


def render(game: Game, opts: Mapping[str, Any], *, title: Optional[str] = None, fill_by: Optional[str] = None,
           crop: Crop = None) -> Svg:
    """The SVG picture of the game's board with the overlays ``opts`` asks for (``crop``: see
    :func:`crop_box`)."""
    drawn = layers(game, opts)
    return render_state(game.state, drawn, title=title, fill_by=fill_by, crop=crop_box(game, drawn, crop))


def crop_box(game: Game, drawn: Sequence[Layer], crop: Crop) -> Optional[Box]:
    """The box a picture is cropped to: ``True`` — what the overlays ``drawn`` are about (their
    ``focus``), a model id or a list of them — those models' bases, each with
    :data:`CROP_MARGIN` around; a box ``(x0, y0, x1, y1)`` as given; ``None`` or ``False`` — no
    crop. :class:`ArgumentError` (argument ``crop``) for anything else."""
    if crop is None or crop is False:
        return None
    if crop is True:
        box = union_box(layer.focus for layer in drawn)
        if box is None:
            raise ArgumentError("crop", "crop to what? ask for an overlay (los=, measure=, charge=, path=, template=, ranks=) "
                                        "or name the models: crop=['m1', 'z1']")
    elif isinstance(crop, str) or (isinstance(crop, Sequence) and crop and all(isinstance(c, str) for c in crop)):
        ids = [crop] if isinstance(crop, str) else list(crop)
        box = focus_box([game.state.figure(game._model(m, "crop")) for m in ids])
    elif (isinstance(crop, Sequence) and len(crop) == 4
          and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in crop)):
        x0, y0, x1, y1 = (float(v) for v in crop)
        if x1 <= x0 or y1 <= y0:
            raise ArgumentError("crop", f"a box (x0, y0, x1, y1) with x0 < x1 and y0 < y1, not {tuple(crop)!r}")
        return x0, y0, x1, y1
    else:
        raise ArgumentError("crop", f"True, a model id, a list of model ids or a box (x0, y0, x1, y1), not {crop!r}"[:160])
    assert box is not None  # (models on the table have bases)
    m = CROP_MARGIN
    return box[0] - m, box[1] - m, box[2] + m, box[3] + m


def render_state(state: GameState, layers: Sequence[Layer] = (), *, title: Optional[str] = None,
                 fill_by: Optional[str] = None, side_colours: Optional[Mapping[str, str]] = None,
                 crop: Optional[Box] = None) -> Svg:
    """The SVG picture of a :class:`rules.state.GameState`: its table, every model on the
    table, each unit's Leading Model marked (§4.3), and the given overlay layers. Terrain is
    shaded as the system decides sight (``fill_by`` default: its ``terrain_shading``)."""
    leaders = [u.leader for u in state.units if u.leader and u.leader in u.models]
    fill = rules_for(state.system).terrain_shading if fill_by is None else fill_by
    return render_svg(state.table, state.all_figures(), layers, title=title, leaders=leaders,
                      fill_by=fill, side_colours=side_colours, crop=crop)
