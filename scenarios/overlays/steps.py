"""What one replayed action did, drawn on the board (the HTML replay viewer's overlays).

* every move along the path the rules used, as its event gives it (class ``path``): the
  charge's real path (a StarCraft charge's, run's or Close Ranks' Leading Model, round a wall
  if it went round), each
  model's own path of a Set-up Move, charge move, pile-in, consolidation, fall back or pursuit;
  where it started, a dashed outline of its base (class ``moved``);
* a model set somewhere without a path (placed by a StarCraft charge's step 4, ``place``,
  ``move``), or moved by an event that does not say how: a dashed line from where it stood to
  where it stands (class ``moved``);
* every casualty: a cross where it fell — its last position in the step's events (after a
  fall back, where it fled to), not where it started (class ``casualty``);
* a Batch of a Ranged Attack: the firing models ringed (``firing``) and the target models that
  may be removed ringed (``target``); a charge: the declared targets ringed (``target``).

:func:`track` follows the models through a step's events (the viewer draws a part of an
action with it: the Set-up Move before the charge move). No command-line flags: ``tapeline
render`` draws states, the viewer draws steps.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tapeline.board.render import Layer, svg_circle, svg_polyline
from tapeline.board.table import Figure
from tapeline.rules.state import GameState

from ..answers import inches

if TYPE_CHECKING:
    from ..game import Game

#: No options: this overlay draws only the replay's steps.
OPTIONS: dict[str, Any] = {}

XY = tuple[float, float]


def layers(game: Game, opts: Mapping[str, Any]) -> list[Layer]:
    return []


@dataclass
class Tracked:
    """The models through a step's events: where each stands (``at``), the moves the events
    give (model, points, ``True`` when the points are the rules' path), and the models the
    events remove (by unit)."""

    at: dict[str, XY]
    moves: list[tuple[str, list[XY], bool]] = field(default_factory=list)
    removed: dict[str, list[str]] = field(default_factory=dict)

    def move(self, model: str, points: Sequence[Sequence[float]], real: bool) -> None:
        pts = [(float(x), float(y)) for x, y in points]
        if model not in self.at or len(pts) < 1:
            return
        if not real:
            pts = [self.at[model], pts[-1]]
        if len(pts) > 1 and pts[0] != pts[-1]:
            self.moves.append((model, pts, real))
        self.at[model] = pts[-1]


def track(before: GameState, events: Sequence[Mapping[str, Any]]) -> Tracked:
    """Follow the models of ``before`` through ``events``: each move event's paths (``moves``
    entries with their ``path``; the ``path`` of an event's ``leader`` — a charge, a run, Close
    Ranks — and its ``placed`` spots; a ``placed`` event)."""
    t = Tracked({f.id: f.at for f in before.all_figures()})
    for ev in events:
        for m in ev.get("moves", ()) or ():
            if isinstance(m, Mapping) and m.get("how") != "stayed" and "to" in m:
                path = m.get("path")
                t.move(str(m["model"]), path if path and len(path) > 1 else [m["to"]], bool(path and len(path) > 1))
        if ev.get("leader") in t.at:  # a charge, a run, Close Ranks: the Leading Model's path
            path = ev.get("path")
            if isinstance(path, list) and len(path) > 1:
                t.move(str(ev["leader"]), path, True)
            elif ev.get("type") == "charge" and ev.get("end"):
                t.move(str(ev["leader"]), [ev["end"]], False)
        if isinstance(ev.get("placed"), Mapping):  # and the models set after it (no path)
            for m, xy in ev["placed"].items():
                t.move(m, [xy], False)
        if ev.get("type") == "placed" and "to" in ev:
            t.move(str(ev["model"]), [ev["to"]], False)
        if ev.get("type") == "casualties":
            t.removed.setdefault(str(ev.get("unit")), []).extend(str(m) for m in ev.get("models", ()))
    return t


def state_after(before: GameState, events: Sequence[Mapping[str, Any]]) -> GameState:
    """``before`` with the models where ``events`` leave them and their casualties removed
    (a part of an action, drawn as the action's own state is not yet there)."""
    t = track(before, events)
    figs = [dataclasses.replace(f, x=t.at[f.id][0], y=t.at[f.id][1]) for f in before.all_figures() if t.at[f.id] != f.at]
    st = before.with_figures(figs) if figs else before
    for unit, models in t.removed.items():
        if st.has_unit(unit):
            gone = [m for m in models if m in st.unit(unit).models]
            if gone:
                st = st.without_models(unit, gone)
    return st


def _ring(fig: Figure, cls: str) -> str:
    return svg_circle(fig.x, fig.y, fig.base.reach + 0.2, cls)


def step_layers(before: GameState, after: GameState, events: Sequence[Mapping[str, Any]]) -> list[Layer]:
    paths: list[str] = []
    moved: list[str] = []
    gone: list[str] = []
    rings: list[str] = []
    legend: dict[str, str] = {}
    t = track(before, events)
    drawn = set()
    for model, pts, real in t.moves:
        f0 = before.figure(model)
        if model not in drawn:
            moved.append(svg_circle(pts[0][0], pts[0][1], f0.base.reach, "moved", data_model_from=model))
            drawn.add(model)
        paths.append(svg_polyline(pts, "path" if real else "moved", data_path=model))
    for u in before.units:
        still = set(after.unit(u.id).models) if after.has_unit(u.id) else set()
        for m in u.models:
            f0 = before.figure(m)
            if m not in still:
                x, y = t.at.get(m, f0.at)
                r = f0.base.reach * 0.8
                gone.append(svg_polyline([(x - r, y - r), (x + r, y + r)], "casualty", data_casualty=m))
                gone.append(svg_polyline([(x - r, y + r), (x + r, y - r)], "casualty", data_casualty=m))
                continue
            f1 = after.figure(m)
            if m not in drawn and (f1.x, f1.y) != (f0.x, f0.y):  # moved, the events not saying how
                moved.append(svg_circle(f0.x, f0.y, f0.base.reach, "moved", data_model_from=m))
                moved.append(svg_polyline([f0.at, f1.at], "moved", data_path=m))
    for ev in events:
        if ev.get("type") == "batch":
            rings += [_ring(before.figure(m), "firing") for m in ev.get("firing", []) + ev.get("long_range", [])]
            rings += [_ring(before.figure(m), "target") for m in ev.get("removable", [])]
            legend["firing"] = f"firing: {ev.get('unit')} ({ev.get('weapon')})"
            legend["target"] = f"may be removed: {ev.get('target')}"
        elif ev.get("type") == "charge":
            for tg in ev.get("targets", []):
                if before.has_unit(tg):
                    rings += [_ring(f, "target") for f in before.figures_of(tg)]
            d = ev.get("distance")
            legend["target"] = f"charge target(s): {', '.join(ev.get('targets', []))}" + (
                f" — {inches(d)}\" needed" if d is not None else "")
    if gone:
        legend["casualty"] = f"removed as a casualty ({len(gone) // 2}), where it fell"
    out = [Layer("moved", moved, {"moved": "where a model stood (→ where it was set)"}),
           Layer("paths", paths, {"path": "each model's path, as the rules moved it"}),
           Layer("casualties", gone), Layer("verdicts", rings, legend)]
    return [layer for layer in out if layer.elements]
