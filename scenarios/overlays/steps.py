"""What one replayed action did, drawn on the board (the HTML replay viewer's overlays).

* every model that changed place: a dashed line from where it stood to where it stands, and a
  dashed outline of its old base (class ``moved``);
* every casualty: a cross where it stood (class ``casualty``) — the model itself is gone from
  the picture;
* a Batch of a Ranged Attack: the firing models ringed (``firing``) and the target models that
  may be removed ringed (``target``);
* a charge: the declared targets ringed (``target``).

No command-line flags: ``tapeline render`` draws states, the viewer draws steps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tapeline.board.render import Layer, svg_circle, svg_polyline
from tapeline.board.table import Figure
from tapeline.rules.state import GameState

from ..answers import inches

if TYPE_CHECKING:
    from ..game import Game

#: No options: this overlay draws only the replay's steps.
OPTIONS: dict[str, Any] = {}


def layers(game: Game, opts: Mapping[str, Any]) -> list[Layer]:
    return []


def _ring(fig: Figure, cls: str) -> str:
    return svg_circle(fig.x, fig.y, fig.base.reach + 0.2, cls)


def step_layers(before: GameState, after: GameState, events: Sequence[Mapping[str, Any]]) -> list[Layer]:
    moved: list[str] = []
    gone: list[str] = []
    rings: list[str] = []
    legend: dict[str, str] = {}
    for u in before.units:
        still = set(after.unit(u.id).models) if after.has_unit(u.id) else set()
        for m in u.models:
            f0 = before.figure(m)
            if m not in still:
                r = f0.base.reach * 0.8
                gone.append(svg_polyline([(f0.x - r, f0.y - r), (f0.x + r, f0.y + r)], "casualty"))
                gone.append(svg_polyline([(f0.x - r, f0.y + r), (f0.x + r, f0.y - r)], "casualty"))
                continue
            f1 = after.figure(m)
            if (f1.x, f1.y) != (f0.x, f0.y):
                moved.append(svg_circle(f0.x, f0.y, f0.base.reach, "moved"))
                moved.append(svg_polyline([f0.at, f1.at], "moved"))
    for ev in events:
        if ev.get("type") == "batch":
            rings += [_ring(before.figure(m), "firing") for m in ev.get("firing", []) + ev.get("long_range", [])]
            rings += [_ring(before.figure(m), "target") for m in ev.get("removable", [])]
            legend["firing"] = f"firing: {ev.get('unit')} ({ev.get('weapon')})"
            legend["target"] = f"may be removed: {ev.get('target')}"
        elif ev.get("type") == "charge":
            for t in ev.get("targets", []):
                if before.has_unit(t):
                    rings += [_ring(f, "target") for f in before.figures_of(t)]
            d = ev.get("distance")
            legend["target"] = f"charge target(s): {', '.join(ev.get('targets', []))}" + (
                f" — {inches(d)}\" needed" if d is not None else "")
    if gone:
        legend["casualty"] = f"removed as a casualty ({len(gone) // 2})"
    out = [Layer("moved", moved), Layer("casualties", gone), Layer("verdicts", rings, legend)]
    return [layer for layer in out if layer.elements]
