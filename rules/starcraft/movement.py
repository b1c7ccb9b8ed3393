"""StarCraft TMG movement geometry: Gap Clearance, what blocks a path, what an end spot avoids,
coherency (§4.3–4.6, §8.5.2–8.5.3).

* **Gap Clearance** (§4.6): the Leading Model passes gaps ≥ 1" (unit Size ≤ 2) or ≥ 3" (Size ≥ 3);
  LARGE (X) makes it X". In configuration space the obstacles grow by half of it (the
  clearance radius ρ); the end spot is still checked with the whole base.
* **Path** (§8.5.2): not through Size 2+ (impassable) terrain, enemy models or models of other
  friendly units; through its own unit's models freely; Ground passes through Flying bases and
  vice versa. The table edge: the centre keeps ρ from it (setting ``edge_clearance: base``
  keeps the whole base on the table instead).
* **End spot** (§8.5.3, §7.1 table): no overlap with any base, with impassable terrain, or with
  Size 0/1 footprints (Grass excepted: ending on it removes it); wholly on the table; not within
  1" of an enemy Ground unit (Move, Run; a Charge only of undeclared ones).
* **Levels** (§8.5.3): elevation changes only through an Access Point. The path runs in the
  layered space of :mod:`board.levels` — the table's surfaces (Size 1+ pieces that are
  standable, Access Points, joined by one, or that the mover stands on) are levels whose
  edges are walls except where an Access Point joins two of them — so it climbs and descends
  through Access Points only. An end spot on a level may overlap the pieces it stands on
  and any lower piece (a base may hang over a drop), never a piece reaching as high or
  higher (Effective Size), Grass excepted.
* **Move / Run** (§8.5.2, §8.7.1; :func:`run`): an Unengaged unit with a Speed; the Leading
  Model's path is checked against its Speed; the rest are set in coherency, at spots given or
  as close to the Leading Model as they legally can (:func:`tapeline.board.placement.place_around`);
  one with no legal linked spot is removed (§4.4); Grass crossed or ended on is removed.
* **Coherency** (§4.4): wholly within 3" (Squadron: 4") of the Leading Model, linked through
  the unit's own models; a link crosses no terrain (setting ``coherency_link_terrain``:
  ``impassable`` by default, or ``all``), no other unit's model (enemies being charged or
  engaged excepted) and no gap the Leading Model could not pass; per-link length unlimited
  unless ``coherency_link_max`` is set (UNCERTAIN in the rulebook).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Mapping, Optional, Sequence

import shapely
from shapely.geometry.base import BaseGeometry

from tapeline.board.coherency import Coherency, leader_coherency
from tapeline.board.levels import Levels, levels_of
from tapeline.board.measure import region_gap
from tapeline.board.pathcheck import check_end, check_path
from tapeline.board.placement import place_around
from tapeline.board.space import Space, figure_obstacle, piece_obstacle
from tapeline.board.table import Figure, Table
from tapeline.board.terrain import Piece

from .. import choices
from ..charge_geometry import MoveRules, radius, space_for
from ..errors import IllegalAction
from ..state import GameState, UnitState
from .catalogue import make_profile
from .engagement import units_engaged
from .terrain import impassable

RUN = "§8.5.2 Move / §8.7.1 Run"

ENGAGEMENT_RANGE = 1.0
_LARGE = re.compile(r"^large[-_ (]*([0-9]+(?:\.[0-9]+)?)\)?$")


def gap_clearance(unit: UnitState) -> float:
    """The narrowest gap the unit's Leading Model may pass (§4.6), in inches."""
    for ab in unit.stats.get("abilities") or ():
        m = _LARGE.match(str(ab).lower())
        if m:
            return float(m.group(1))
    large = unit.stats.get("large")
    if large:
        return float(large)
    return 3.0 if (unit.size or 0) >= 3 else 1.0


def clearance(unit: UnitState) -> float:
    """Clearance radius ρ: half the Gap Clearance."""
    return gap_clearance(unit) / 2


def coherency_radius(unit: UnitState) -> float:
    """3", or 4" for a Squadron unit (§4.4; the Squadron ability)."""
    return 4.0 if "squadron" in (unit.stats.get("abilities") or ()) else 3.0


def _ground(u: UnitState) -> bool:
    return not u.flying


def levels_for(state: GameState, fig: Optional[Figure] = None) -> Levels:
    """The table's levels (§8.5.3; :mod:`board.levels`) as ``fig`` moving sees them: the
    pieces it stands on are levels too (it leaves them only through an Access Point)."""
    own = [p.id for p in state.table.stack(fig.on) if p.size >= 1] if fig is not None else []
    return levels_of(state.table, own)


def end_pieces_on(table: Table, level: Optional[str], keep: frozenset[str] = frozenset()) -> tuple[Piece, ...]:
    """Footprints a base ending on ``level`` may not overlap (§8.5.3, §7.1 table): every piece
    as high as that level or higher (Effective Size) that it does not stand on, Grass
    excepted (ending on Grass removes it); ``keep``: more pieces it may overlap."""
    own = {p.id for p in table.stack(level)} | keep
    h = table.stack_size(level)
    return tuple(p for p in table.pieces if p.id not in own and not p.has("grass") and table.stack_size(p.id) >= h)


def move_rules(state: GameState, unit_id: str, fig: Figure, keep_away_from: Optional[Sequence[str]] = None) -> MoveRules:
    """The path and end-spot rules for ``fig`` of ``unit_id`` moving (§8.5.2–8.5.3).

    ``keep_away_from``: enemy unit ids it may not end within 1" of (default: every enemy Ground
    unit, as for a Move or Run; a Charge passes its undeclared enemies).
    """
    unit = state.unit(unit_id)
    rho = clearance(unit)
    table = state.table
    own = frozenset(p.id for p in table.stack(fig.on))
    lv = levels_for(state, fig)
    here = lv.surface_at([fig.at])[0]
    path_pieces = tuple(p for p in table.pieces if p.id not in own and p.id not in lv.cells and impassable(p))
    by_level = tuple((level, end_pieces_on(table, level, own if level == here else frozenset())) for level in lv.cells)
    end_pieces = dict(by_level)[here]
    others = [u for u in state.units if u.id != unit_id and u.models]
    path_figs = tuple(f for u in others if (_ground(u) == _ground(unit)) for f in state.figures_of(u.id))
    end_figs = tuple(f for u in others for f in state.figures_of(u.id))
    if keep_away_from is None:
        keep_away_from = [u.id for u in state.enemies_of(unit_id) if _ground(u)]
    keep = tuple((f, ENGAGEMENT_RANGE) for uid in keep_away_from for f in state.figures_of(uid))
    edge = radius(fig) if state.settings.get("edge_clearance", "clearance") == "base" else rho
    return MoveRules(rho, edge, path_pieces, path_figs, end_pieces, end_figs, keep, levels=lv, end_pieces_by_level=by_level)


def grass_crossed(state: GameState, points: Sequence[Sequence[float]]) -> list[str]:
    """Grass pieces whose footprint the Leading Model's centre path enters (§7.1: they are
    removed); running along an edge does not count."""
    line: BaseGeometry
    if len(points) < 2:
        line = shapely.Point(points[0])
    else:
        line = shapely.LineString(points)
    return [p.id for p in state.table.pieces if p.has("grass") and shapely.relate_pattern(line, p.footprint, "T********")]


def link_space(state: GameState, unit_id: str, passable_units: Sequence[str] = ()) -> Space:
    """The space a Coherency Link must be clear in (§4.4): the Leading Model's clearance, the
    terrain a link may not cross (and the edges between levels away from Access Points),
    other units' models except ``passable_units`` (enemies the unit is charging or engaged
    with)."""
    unit = state.unit(unit_id)
    rho = clearance(unit)
    table = state.table
    if unit.flying:
        return Space(table.width, table.height, 0.0, [], edge=0.0)
    mode = state.settings.get("coherency_link_terrain", "impassable")
    lv = levels_for(state)
    pieces = [p for p in table.pieces if p.id not in lv.cells and (impassable(p) if mode == "impassable" else True)]
    obs = [piece_obstacle(p, rho) for p in pieces] + lv.obstacles(rho)
    obs += [figure_obstacle(f, rho) for u in state.units if u.id != unit_id and u.id not in passable_units and u.models for f in state.figures_of(u.id)]
    return Space(table.width, table.height, rho, obs, edge=0.0)


def coherency(state: GameState, unit_id: str, leader: Optional[str] = None, passable_units: Sequence[str] = ()) -> Coherency:
    """Is the unit in coherency (§4.4)? ``leader`` defaults to the unit's Leading Model, else
    its first model. Returns :class:`board.coherency.Coherency`."""
    unit = state.unit(unit_id)
    figs = state.figures_of(unit_id)
    lead = leader or (unit.leader if unit.leader in unit.models else unit.models[0])
    engaged_with = set(passable_units)
    for e in state.enemies_of(unit_id):
        if units_engaged(state, unit_id, e.id):
            engaged_with.add(e.id)
    space = link_space(state, unit_id, tuple(engaged_with))
    return leader_coherency(figs, lead, coherency_radius(unit), space.clear_segments, state.settings.get("coherency_link_max"))


def without_grass(state: GameState, ids: Sequence[str]) -> GameState:
    """The state with Grass pieces ``ids`` removed (§7.1 table: a Ground move whose Leading
    Model's path crosses Grass, or a model ending on it, removes it permanently)."""
    if not ids:
        return state
    table = replace(state.table, pieces=tuple(p for p in state.table.pieces if p.id not in set(ids)))
    return replace(state, table=table)


def grass_ended_on(state: GameState, figs: Sequence[Figure]) -> list[str]:
    """Grass pieces some base in ``figs`` ends overlapping."""
    out = []
    for p in state.table.pieces:
        if p.has("grass") and any(region_gap(f, p.footprint) < -1e-6 for f in figs):
            out.append(p.id)
    return out


def speed(state: GameState, unit_id: str) -> Optional[int]:
    """The unit's Speed as it stands (split Speed: the second value for a unit of one model,
    §5.1); ``None`` for Null Speed."""
    u = state.unit(unit_id)
    prof = make_profile(u.profile or u.id, u.stats)
    return prof.speed_for(len(u.models), u.started_with)


def run(state: GameState, unit_id: str, leader: str, path: Sequence[tuple[float, float]],
        spots: Mapping[str, tuple[float, float]]) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    """Move / Run (§8.5.2, §8.7.1): the Leading Model ``leader`` along ``path`` (the points
    after where it stands; a Flying unit goes point to point), checked against the unit's
    Speed; the rest at ``spots`` (each checked) or by default as close to it as they legally
    can, in coherency (a reading, ``run=default:<models>``; in strict mode an error). Returns the new state, the events and what the move did (``length``,
    ``coherency``, ``grass_removed``)."""
    u = state.unit(unit_id)
    if leader not in u.models:
        raise IllegalAction(RUN, f"{leader} is not a model of {unit_id}")
    for m in spots:
        if m not in u.models or m == leader:
            raise IllegalAction(RUN, f"set: {m} is not another model of {unit_id}")
    for e in state.enemies_of(unit_id):
        if units_engaged(state, unit_id, e.id):
            raise IllegalAction(RUN, f"{unit_id} is Engaged with {e.id}: only an Unengaged unit may Move or Run")
    sp = speed(state, unit_id)
    if sp is None:
        raise IllegalAction(RUN, f"{unit_id} has Null Speed")
    lead = state.figure(leader)
    rules = move_rules(state, unit_id, lead)
    pts = [lead.at] + [tuple(p) for p in path]
    if u.flying:
        pts = [pts[0], pts[-1]]  # point to point, ignoring what lies between (§8.5.3)
        rules = MoveRules(0.0, 0.0, (), (), rules.end_pieces, rules.end_figures, ())
    res = check_path(space_for(state, rules), pts, float(sp), rules.end_check(state.table, lead))
    if not res.legal:
        v = res.violation
        assert v is not None  # an illegal path names its violation
        raise IllegalAction(RUN, f"{leader}'s path: {v.kind} at ({v.at[0]:.6g}, {v.at[1]:.6g}): {v.detail}")
    moved = lead.moved(pts[-1][0], pts[-1][1], rules.level_at(*pts[-1]))
    new = state.with_figures([moved])
    rest = [f for f in state.figures_of(unit_id) if f.id != leader]
    others = [f for f in state.all_figures() if f.unit != unit_id]
    pieces = [p for p in state.table.pieces if not p.has("grass")]
    keep = [(f, 1.0) for e in state.enemies_of(unit_id) if not e.flying for f in state.figures_of(e.id)]
    given = [f for f in rest if f.id in spots]
    free = [f for f in rest if f.id not in spots]
    events: list[dict[str, Any]] = [{"type": "run", "unit": unit_id, "leader": leader, "length": round(res.length, 9), "speed": sp,
                                     "path": [[round(float(x), 6), round(float(y), 6)] for x, y in pts]}]
    if given:
        placed = [f.moved(*spots[f.id], rules.level_at(*spots[f.id])) for f in given]
        for f in placed:
            v = check_end(state.table, f, others + [moved] + [g for g in placed if g.id != f.id], end_pieces_on(state.table, f.on), keep)
            if v is not None:
                raise IllegalAction(RUN, f"set {f.id}: {v.kind}: {v.detail}")
        new = new.with_figures(placed)
    if free:
        blockers = others + [new.figure(f.id) for f in given]
        pl = place_around(moved, free, state.table, blockers, pieces, (), keep, coherency_radius(u),
                          link_space(state, unit_id).clear_segments, levels=rules.levels,
                          pieces_on=lambda lv: end_pieces_on(state.table, lv))
        new = new.with_figures([f.moved(*pl.positions[f.id], pl.on.get(f.id)) for f in free if f.id in pl.positions])
        if pl.unplaced:
            new = new.without_models(unit_id, list(pl.unplaced))
            events.append({"type": "removed", "unit": unit_id, "models": list(pl.unplaced), "why": "no legal linked spot (§4.4)"})
        choices.placement(state.settings, "run", RUN, f"the spots of the rest of {unit_id} (set)", pl.positions)
    grass = [] if u.flying else grass_crossed(state, pts)
    grass = sorted(set(grass) | set(grass_ended_on(new, new.figures_of(unit_id))))
    if grass:
        new = without_grass(new, grass)
        events.append({"type": "grass_removed", "pieces": grass})
    c = coherency(new, unit_id, leader)
    events[0]["coherency"] = c.ok
    if not c.ok:
        events[0]["out_of_coherency"] = c.explain()
    return new, events, {"length": res.length, "coherency": c.ok, "grass_removed": grass}
