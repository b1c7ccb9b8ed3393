"""Moving a unit model by model along real paths, each path checked by the validator.

Horus Heresy 3rd's Set-up Move and charge move (§A.3), and the moves built like them (pile-in,
consolidation), move a unit one model at a time: the first ("initial") model by its shortest
route towards the nearest model of the goal figures, the others "as close as possible and in
coherency with a model that has already moved". This module does that in the configuration
space of :mod:`rules.charge_geometry` (obstacles grown by the moving base; a unit's own models
are passed through but never ended on):

1. **initial model**: its shortest route to base contact with a goal figure, cut short after
   ``budget`` inches (:func:`board.pathcut.truncate`); with no route to contact, the end spot
   nearest the goal figures reachable within the budget;
2. **each other model**, in the order given:

   a. the spot its own shortest route reaches after ``budget`` inches (or base contact, if
      nearer), when that spot is legal and within ``link`` (2") of a model already moved;
   b. else the legal spot nearest the goal figures among those within ``link`` of a model
      already moved and reachable by a path of at most ``budget`` (bisection on the gap, each
      step an exact region search: :func:`rules.charge_geometry.closest_within`);
   c. else (coherency cannot be reached) the spot nearest a model already moved;
   d. else it stays where it is;

3. every path found is handed to the path validator (:func:`board.pathcheck.check_path`,
   with the budget and the end-spot rules) and a move is made only if the validator passes
   it; its verdict is reported with the move.

"As close as possible" is measured along the model's own route in (a) — in open ground that
is also the straight-line gap — and as the straight-line gap to the nearest goal figure in (b).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping, Optional, Sequence, Union

from shapely.geometry.base import BaseGeometry

from tapeline.board.errors import GeometryError
from tapeline.board.measure import gap, region_gap
from tapeline.board.pathcheck import PathCheck, check_end, check_path
from tapeline.board.pathcut import truncate
from tapeline.board.paths import Path, Reach
from tapeline.board.space import Space
from tapeline.board.table import Figure
from tapeline.board.units import TOUCH

from .charge_geometry import (Core, Group, MoveRules, SpaceKey, _inner_core, _space_key, closest_within, end_region, radius,
                             space_for)
from .errors import IllegalAction
from .state import GameState

#: "Base contact" goal: the centre within this of touching (far below TOUCH).
CONTACT_SLACK = 1e-7
#: Horus Heresy 3rd / 40k 3rd unit coherency: 2" between models.
CHAIN_LINK = 2.0
#: Bisection steps when a spot "as close as possible" is searched (band / 2**20).
STEPS = 20


@dataclass(frozen=True)
class ModelMove:
    """One model's move: where from and to, the path (polyline for the centre), its exact
    length, how the end spot was chosen (``route``, ``closest``, ``toward_unit``, ``stayed``),
    the validator's verdict, the gap left to the nearest goal figure and whether the model
    ended in coherency with a model already moved."""

    model: str
    start: tuple[float, float]
    end: tuple[float, float]
    path: tuple[tuple[float, float], ...]
    length: float
    how: str
    check: Optional[PathCheck]
    gap: float
    linked: bool

    @property
    def contact(self) -> bool:
        return self.gap <= 10 * TOUCH

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"model": self.model, "from": _xy(self.start), "to": _xy(self.end), "length": round(self.length, 9),
               "how": self.how, "gap": round(self.gap, 9), "contact": self.contact, "linked": self.linked,
               "path": [_xy(p) for p in self.path]}
        if self.check is not None:
            if self.check.legal:
                out["path_check"] = "legal"
            else:
                assert self.check.violation is not None  # an illegal path names its violation
                out["path_check"] = self.check.violation.as_json()
        return out


@dataclass(frozen=True)
class Goal:
    """What a move closes on: within ``standoff`` inches of a model of ``figures`` (0: base
    contact), or touching a shape of ``shapes`` (shapely geometries: a table edge, a point).
    An empty goal asks only for a legal end spot (the nearest one: a move *out of* somewhere,
    the end rules saying where it may not end)."""

    figures: tuple[Figure, ...] = ()
    shapes: tuple[BaseGeometry, ...] = ()
    standoff: float = 0.0

    @property
    def empty(self) -> bool:
        return not self.figures and not self.shapes

    def group(self, r: float, k: float) -> tuple[Core, ...]:
        """"Within ``k`` of the goal" for a base of radius ``r`` (one near group)."""
        out: list[Core] = []
        for f in self.figures:
            core, R = _inner_core(f, self.standoff + k)
            out.append((core, R + r + (CONTACT_SLACK if k == 0 else 1e-9)))
        out += [(g, self.standoff + k + r + CONTACT_SLACK) for g in self.shapes]
        return tuple(out)

    def gap(self, fig: Figure) -> float:
        """How far ``fig`` is from reaching the goal (0: reached)."""
        gs = [gap(fig, f) - self.standoff for f in self.figures] + [region_gap(fig, g) - self.standoff for g in self.shapes]
        return max(0.0, min(gs)) if gs else 0.0


def as_goal(goal: Union[Goal, Iterable[Figure]]) -> Goal:
    return goal if isinstance(goal, Goal) else Goal(tuple(goal))


def _xy(p: Sequence[float]) -> list[float]:
    return [round(float(p[0]), 6), round(float(p[1]), 6)]


def _budget(budget: Union[float, Callable[[Figure], float]], fig: Figure) -> float:
    return float(budget(fig)) if callable(budget) else float(budget)


def move_models(
    state: GameState,
    unit_id: str,
    order: Sequence[str],
    budget: Union[float, Callable[[Figure], float]],
    rules_of: Callable[[GameState, Figure], MoveRules],
    goal: Union[Goal, Iterable[Figure]],
    anchors: Sequence[str] = (),
    link: Optional[float] = CHAIN_LINK,
) -> tuple[GameState, list[ModelMove]]:
    """Move the models ``order`` of ``unit_id`` one at a time (see the module notes).

    ``budget``: inches each model may move (a number, or a function of the model);
    ``rules_of(state, fig)``: the system's path and end rules for one model (this function adds
    "no overlap with the unit's own models" to the end rules); ``goal``: the figures to close
    on (a :class:`Goal`, or figures: base contact ends a model's move); ``anchors``: models of
    the unit that count as already moved (for coherency) before the first one moves — none: the
    first model in ``order`` is the initial model and moves freely; ``link``: the coherency
    distance (``None``: every model moves on its own, as the initial one).
    """
    goal = as_goal(goal)
    moved: list[str] = list(anchors)
    out: list[ModelMove] = []
    spaces: list[tuple[SpaceKey, Space]] = []
    for mid in order:
        fig = state.figure(mid)
        b = max(0.0, _budget(budget, fig))
        own = tuple(f for f in state.figures_of(unit_id) if f.id != mid)
        base_rules = rules_of(state, fig)
        rules = replace(base_rules, end_figures=tuple(base_rules.end_figures) + own)
        key = _space_key(rules)
        space = next((sp for k, sp in spaces if k == key), None)
        if space is None:
            space = space_for(state, rules)
            spaces.append((key, space))
        links = [state.figure(m) for m in moved] if link is not None else []
        mv = _move_one(state, fig, rules, space, b, goal, links, link)
        if mv.end != fig.at:
            state = state.with_figures([fig.moved(mv.end[0], mv.end[1], None)])
        out.append(mv)
        moved.append(mid)
    return state, out


def _move_one(state: GameState, fig: Figure, rules: MoveRules, space: Space, b: float, goal: Goal, links: list[Figure],
              link: Optional[float]) -> ModelMove:
    r = radius(fig)
    g0 = goal.gap(fig)
    try:
        reach = Reach(space, fig.at)
    except GeometryError:
        return _stay(fig, g0, links, link)

    def accept(path: Path, how: str, need_link: bool = True) -> Optional[ModelMove]:
        end = path.end
        moved = fig.moved(end[0], end[1], None)
        linked = not links or _within_link(moved, links, link)
        if need_link and not linked:
            return None
        pts = path.points()
        poly_len = sum(((pts[i + 1][0] - pts[i][0]) ** 2 + (pts[i + 1][1] - pts[i][1]) ** 2) ** 0.5 for i in range(len(pts) - 1))
        chk = check_path(space, pts, b + max(0.0, poly_len - path.length),
                         lambda x, y: check_end(state.table, fig.moved(x, y, None), rules.end_figures, rules.end_pieces, rules.keep_away))
        if not chk.legal or path.length > b + TOUCH:
            return None
        return ModelMove(fig.id, fig.at, (end[0], end[1]), tuple(pts), path.length, how, chk, goal.gap(moved), linked)

    # (a) / the initial model: along its own shortest route to the goal, cut at the budget
    route = reach.to_region(end_region(state, fig, rules, [goal.group(r, 0.0)] if not goal.empty else []))
    if route is not None:
        mv = accept(truncate(route, b), "route")
        if mv is not None:
            return mv
    coh: list[Group] = [_link_group(r, links, link)] if links else []
    # (b) the nearest spot to the goal, in coherency, within the budget
    if not goal.empty:
        mv = _closest(reach, state, fig, rules, coh, lambda k: (goal.group(r, k),), b, g0, accept, "closest")
        if mv is not None:
            return mv
    # (c) coherency cannot be reached: as close as possible to a model already moved
    if links:
        to_links = Goal(tuple(links))
        mv = _closest(reach, state, fig, rules, [], lambda k: (to_links.group(r, k),), b, to_links.gap(fig),
                      lambda p, how: accept(p, how, False), "toward_unit")
        if mv is not None:
            return mv
    return _stay(fig, g0, links, link)


def _within_link(fig: Figure, links: Sequence[Figure], link: Optional[float]) -> bool:
    """``fig`` within ``link`` of some model of ``links`` (there are ``links`` only where the
    move keeps coherency: :func:`move_models` gives ``link`` then)."""
    assert link is not None
    return min(gap(fig, m) for m in links) <= link + TOUCH


def _link_group(r: float, links: Sequence[Figure], link: Optional[float]) -> tuple[Core, ...]:
    assert link is not None  # (as in :func:`_within_link`)
    return Goal(tuple(links), standoff=link).group(r, 0.0)


def _closest(reach: Reach, state: GameState, fig: Figure, rules: MoveRules, groups: Sequence[Group],
             extra_at: Callable[[float], Sequence[Group]], b: float, g0: float,
             accept: Callable[[Path, str], Optional[ModelMove]], how: str) -> Optional[ModelMove]:
    try:
        path, _k = closest_within(reach, state, fig, rules, groups, extra_at, b, g0 + b + 1e-6, STEPS)
    except GeometryError:
        return None
    return accept(path, how)


def _stay(fig: Figure, g0: float, links: Sequence[Figure], link: Optional[float]) -> ModelMove:
    linked = bool(links) and _within_link(fig, links, link)
    return ModelMove(fig.id, fig.at, fig.at, (fig.at,), 0.0, "stayed", None, max(0.0, g0), linked)


# --- moves the file gives, checked -----------------------------------------------------------


def explicit_moves(state: GameState, unit_id: str, moves: Mapping[str, Sequence[float]], budget_of: Callable[[Figure], float],
                   rules_of: Callable[[GameState, Figure], MoveRules], rule: str, what: str) -> tuple[GameState, list[ModelMove]]:
    """Move the models to the spots the file gives (``{model: (x, y)}``, in order), each by its
    shortest legal path: refused (naming ``rule``) when a model has no path there, the path is
    longer than ``budget_of(fig)``, or the end spot breaks the end rules."""
    out = []
    for m, xy in moves.items():
        if m not in state.unit(unit_id).models:
            raise IllegalAction(rule, f"{m} is not a model of {unit_id} on the table")
        fig = state.figure(m)
        own = tuple(f for f in state.figures_of(unit_id) if f.id != m)
        r = rules_of(state, fig)
        r = replace(r, end_figures=tuple(r.end_figures) + own)
        budget = float(budget_of(fig))
        try:
            path = Reach(space_for(state, r), fig.at).to_point(xy)
        except GeometryError as e:
            raise IllegalAction(rule, f"{m} cannot move: {e}") from None
        if path is None:
            raise IllegalAction(rule, f"{what}: {m} has no legal path to ({xy[0]:g}, {xy[1]:g})")
        if path.length > budget + TOUCH:
            raise IllegalAction(rule, f"{what}: {m}'s move to ({xy[0]:g}, {xy[1]:g}) is {path.length:.6g}\" by its shortest legal path, "
                                      f"{path.length - budget:.6g}\" more than the {budget:g}\" allowed")
        moved = fig.moved(xy[0], xy[1], None)
        v = check_end(state.table, moved, r.end_figures, r.end_pieces, r.keep_away)
        if v is not None:
            raise IllegalAction(rule, f"{what}: {m} may not end at ({xy[0]:g}, {xy[1]:g}): {v.detail}")
        pts = path.points()
        chk = check_path(space_for(state, r), pts, None)
        state = state.with_figures([moved])
        foes = [f for f in state.all_figures() if f.side != fig.side]
        g = min((gap(moved, f) for f in foes), default=0.0)
        linked = not own or min(gap(moved, f) for f in own) <= CHAIN_LINK + TOUCH
        out.append(ModelMove(m, fig.at, (float(xy[0]), float(xy[1])), tuple(pts), path.length, "chosen", chk, max(0.0, g), linked))
    return state, out
