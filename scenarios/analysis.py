"""Table analysis: exposure, hidden spots, open lanes, charge reach and balance of a layout
(``tapeline analyse``, :meth:`tapeline.Game.analyse`; docs/analysis.md).

A **probe** model (the system's :attr:`~tapeline.rules.systems.RuleSystem.probe_defaults`,
overridable) is stood on every position of a grid (:class:`board.grid.Grid`) of the table with
its units taken off: the layout alone is analysed. A position is ``null`` where the probe cannot
stand (its base off the table or overlapping impassable terrain, other than the stack it stands
on). Where the table has levels the probe stands on the surface under its centre. A side's
**zone positions** are the positions whose centre lies in one of the side's zones.

* **exposure** of side S at a position: the fraction of the *other* side's zone positions whose
  probe sees a probe there — exactly as ``los`` decides for those two models
  (:meth:`~tapeline.rules.systems.RuleSystem.sight_pairs`: the same rules, one batched search);
  ``seen_from`` counts them;
* **hidden** for S: the positions no zone position of the other side sees;
* **open_lanes**: the fraction of zone-to-zone position pairs that see each other, and the
  **longest_lane**, the longest centre-to-centre distance among them;
* **reach** of S at a position: the shortest legal path length for the probe's centre from the
  nearest of S's zone positions (the movement space and clearance a charge uses; one
  multi-source search, :func:`board.reachmap.reach_lengths`); ``reach_within``: the share of the
  other side's zone positions within each of the system's charge distances;
* **balance**: each side's mean exposure over every position of the table and its mean reach to
  the other side's zone positions, and their differences (first side minus second); the layout
  ``favours`` the side less exposed.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Optional, Sequence

import numpy as np
import shapely

from tapeline.board.arrays import Bools, Floats, Ints
from tapeline.board.bases import RoundBase
from tapeline.board.grid import Grid, covered, overlapping, within_table
from tapeline.board.reachmap import reach_lengths
from tapeline.board.table import Figure
from tapeline.rules.charge_geometry import space_for
from tapeline.rules.state import GameState, UnitState, frozen_map
from tapeline.rules.systems import Probe, RuleSystem

from . import answers as A
from .errors import ArgumentError, ScenarioError
from .zones import Zone

if TYPE_CHECKING:
    from .game import Game

#: The most positions a map may have (a 54" x 36" table at 0.25" has 31,104).
MAX_POSITIONS = 40_000
#: The smallest and largest step (inches).
MIN_STEP, MAX_STEP = 0.1, 12.0
#: The probe's unit and side (the layout's own units are taken off the table).
PROBE = "probe"


def probe_for(rules: RuleSystem, base: Optional[float] = None, size: Optional[int] = None,
              height: Optional[float] = None, speed: Optional[int] = None, flying: bool = False) -> Probe:
    """The system's probe, with the values given in place of its own (``flying``: a Flying
    probe, where the system has Flying models)."""
    if flying and not rules.probe_may_fly:
        raise ArgumentError("probe_flying", f"{rules.title} has no Flying models: a Flying probe is StarCraft's (§7.1.4)")
    d = rules.probe_defaults
    return Probe(d.base if base is None else float(base), d.size if size is None else int(size),
                 d.height if height is None else float(height), d.speed if speed is None else int(speed), bool(flying))


def sides_of(file: str, zones: Sequence[Zone]) -> list[str]:
    """The zones' sides in the order the file first names them; exactly two are needed (a
    :class:`ScenarioError` of ``file`` otherwise)."""
    sides: list[str] = []
    for z in zones:
        if z.side not in sides:
            sides.append(z.side)
    if len(sides) != 2:
        said = f"zones of {len(sides)} side{'s' if len(sides) != 1 else ''}" + (f" ({', '.join(sides)})" if sides else "")
        raise ScenarioError(file, [("zones", f"{said}: a table analysis needs the zones of two sides (docs/scenario-format.md, Zones)")])
    return sides


class _Probes:
    """The probe on every position where it can stand, as models of one unit of a state that
    holds the layout and nothing else."""

    def __init__(self, state: GameState, rules: RuleSystem, probe: Probe, grid: Grid):
        self.grid, self.probe, self.rules = grid, probe, rules
        centres = grid.centres()
        base = RoundBase(probe.base)
        r = base.radius
        info = rules.unit_info(rules.probe_unit(probe))
        lone = Figure(f"{PROBE}-0", PROBE, PROBE, base, float(centres[0, 0]), float(centres[0, 1]), None, probe.height)
        unit = UnitState(id=PROBE, side=PROBE, models=(lone.id,), profile=info.profile, size=info.size, tags=frozenset(info.tags),
                         stats=frozen_map(info.stats), started_with=1)
        self.empty = replace(state, units=(unit,), figures=frozen_map({lone.id: lone}))
        self.moves = rules.move_rules(self.empty, lone, True)
        t = state.table
        # a Flying probe is on no elevation level (StarCraft §8.5.3); another on the surface under it
        on: list[Optional[str]] = self.moves.levels.surface_at([tuple(c) for c in centres.tolist()]) \
            if self.moves.levels is not None and not probe.flying else [None] * len(centres)
        ok = within_table(centres, r, t.width, t.height)
        blocking = [p for p in t.pieces if rules.impassable(p)]
        hit = overlapping(centres, r, blocking)
        for j, p in enumerate(blocking):
            stands = np.array([lv is not None and p.id in {q.id for q in t.stack(lv)} for lv in on], bool)
            ok &= ~(hit[:, j] & ~stands)
        self.cells: Ints = np.flatnonzero(ok)
        self.centres: Floats = centres[self.cells]
        self.figures = [Figure(f"{PROBE}-{k}", PROBE, PROBE, base, float(x), float(y), on[k], probe.height)
                        for k, (x, y) in zip(self.cells.tolist(), self.centres.tolist())]
        unit = replace(unit, models=tuple(f.id for f in self.figures), started_with=len(self.figures))
        self.state = replace(state, units=(unit,), figures=frozen_map({f.id: f for f in self.figures}))

    def in_zones(self, zones: Sequence[Zone]) -> Ints:
        """The probes (indices) whose centre lies in one of ``zones``."""
        area = shapely.union_all([z.shape.footprint for z in zones])
        return np.flatnonzero(covered(self.centres, area))

    def sight(self, cols: Ints) -> Bools:
        """``[i, j]``: probe ``i`` and probe ``cols[j]`` see each other. Visibility is
        reciprocal, so each pair of the columns is searched once; a probe sees itself."""
        n, m = len(self.figures), len(cols)
        where = np.full(n, -1)
        where[cols] = np.arange(m)
        rows_out = np.flatnonzero(where < 0)
        ia_out, jb_out = np.repeat(rows_out, m), np.tile(np.arange(m), len(rows_out))
        ja, jb = np.triu_indices(m, 1)
        ia = np.concatenate([ia_out, cols[ja]])
        ib = np.concatenate([cols[jb_out], cols[jb]])
        seen = self.rules.sight_pairs(self.state, self.figures, self.figures, ia, ib)
        out = np.zeros((n, m), bool)
        k = len(ia_out)
        out[ia_out, jb_out] = seen[:k]
        out[cols[ja], jb] = seen[k:]
        out[cols[jb], ja] = seen[k:]
        out[cols, np.arange(m)] = True
        return out

    def reach(self, sources: Ints) -> Floats:
        """The shortest legal path length for the probe's centre from the nearest of the
        ``sources`` probes to every probe (``inf``: none)."""
        return reach_lengths(space_for(self.empty, self.moves), self.centres[sources], self.centres)


def analyse(game: "Game", step: float = 1.0, probe: Optional[Probe] = None) -> A.Analysis:
    """The table analysis of ``game``'s layout (its current state) for ``probe`` (the system's
    own by default) on a grid of ``step`` inches."""
    if isinstance(step, bool) or not isinstance(step, (int, float)) or not MIN_STEP <= step <= MAX_STEP:
        raise ArgumentError("step", f"a step from {MIN_STEP:g} to {MAX_STEP:g} inches, not {step!r}")
    rules = game.rules
    probe = probe or rules.probe_defaults
    zones = game.zones
    sides = sides_of(game.file, zones)
    t = game.state.table
    grid = Grid(t.width, t.height, float(step))
    if grid.columns * grid.rows > MAX_POSITIONS:
        raise ArgumentError("step", f"a {step:g}\" step gives {grid.columns * grid.rows:,} positions; the limit is {MAX_POSITIONS:,}")
    if grid.columns * grid.rows == 0:
        raise ArgumentError("step", f"a {step:g}\" step leaves no whole cell on the {t.width:g}\" x {t.height:g}\" table")
    P = _Probes(game.state, rules, probe, grid)
    own = {s: P.in_zones([z for z in zones if z.side == s]) for s in sides}
    for s in sides:
        if not len(own[s]):
            i = next(k for k, z in enumerate(zones) if z.side == s)
            raise ScenarioError(game.file, [(f"zones[{i}]", f"the zones of {s} hold no position where the probe can stand "
                                                            f"at a {step:g}\" step (no cell centre inside, off the table or on impassable terrain)")])
    cols = np.union1d(own[sides[0]], own[sides[1]])
    sees = P.sight(cols) if len(cols) and len(P.figures) else np.zeros((len(P.figures), len(cols)), bool)
    col_of = {int(c): j for j, c in enumerate(cols.tolist())}
    n_cells = grid.columns * grid.rows
    out: dict[str, Any] = {
        "file": game.file, "name": game.name, "system": game.system, "step": float(step), "origin": list(grid.origin),
        "shape": list(grid.shape), "probe": probe.as_json(), "sides": sides,
        "zones": [z.as_json() for z in zones], "positions": {s: int(len(own[s])) for s in sides},
        "standable": int(len(P.cells)), "exposure": {}, "seen_from": {}, "hidden": {}}
    counts: dict[str, Floats] = {}
    for s, other in ((sides[0], sides[1]), (sides[1], sides[0])):
        theirs = [col_of[int(c)] for c in own[other].tolist()]
        c = sees[:, theirs].sum(axis=1).astype(float)
        counts[s] = c
        frac = c / len(theirs) if theirs else np.full(len(c), math.nan)
        out["exposure"][s] = grid.rows_of(_spread(frac, P.cells, n_cells))
        out["seen_from"][s] = grid.rows_of(_spread(c, P.cells, n_cells), 0)
        out["hidden"][s] = int((c == 0).sum()) if theirs else None
    a, b = own[sides[0]], own[sides[1]]
    b_cols = np.array([col_of[int(c)] for c in b.tolist()], dtype=np.intp)
    lanes = sees[np.ix_(a, b_cols)] if len(a) and len(b) else np.zeros((0, 0), bool)
    out["open_lanes"] = round(float(lanes.mean()), 6) if lanes.size else None
    out["longest_lane"] = _longest(P.centres, a, b, lanes)
    distances = rules.charge_distances(probe)
    out["charge_distances"] = list(distances)
    out["reach"], out["reach_within"] = {}, {}
    reach: dict[str, Floats] = {}
    for s, other in ((sides[0], sides[1]), (sides[1], sides[0])):
        r = P.reach(own[s]) if len(own[s]) else np.full(len(P.cells), math.inf)
        reach[s] = r
        out["reach"][s] = grid.rows_of(_spread(r, P.cells, n_cells))
        to = r[own[other]]
        out["reach_within"][s] = {f"{d:g}": round(float((to <= d + 1e-9).mean()), 6) if len(to) else None for d in distances}
    out["balance"] = _balance(sides, counts, own, reach)
    return A.Analysis.from_json(out)


def _spread(values: Floats, cells: Ints, n: int) -> Floats:
    """Values of the standable cells spread over the whole grid (``nan`` elsewhere)."""
    out = np.full(n, math.nan)
    out[cells] = values
    return out


def _longest(centres: Floats, a: Ints, b: Ints, lanes: Bools) -> Optional[dict[str, Any]]:
    """The longest open sight line between the two zones, centre to centre."""
    if not lanes.any():
        return None
    d = np.hypot(*(centres[a][:, None, :] - centres[b][None, :, :]).transpose(2, 0, 1))
    d = np.where(lanes, d, -1.0)
    i, j = np.unravel_index(int(np.argmax(d)), d.shape)
    return {"length": round(float(d[i, j]), 6), "from": [round(v, 6) for v in centres[a[i]].tolist()],
            "to": [round(v, 6) for v in centres[b[j]].tolist()]}


def _balance(sides: list[str], counts: dict[str, Floats], own: dict[str, Ints], reach: dict[str, Floats]) -> dict[str, Any]:
    """Each side's mean exposure over the table's positions and mean reach to the other side's
    zone positions (the reachable ones), and the differences (first side minus second)."""
    exposure, mean_reach = {}, {}
    for s, other in ((sides[0], sides[1]), (sides[1], sides[0])):
        n = len(own[other])
        exposure[s] = round(float(counts[s].mean()) / n, 6) if n and len(counts[s]) else None
        r = reach[s][own[other]]
        r = r[np.isfinite(r)]
        mean_reach[s] = round(float(r.mean()), 6) if len(r) else None
    e0, e1 = exposure[sides[0]], exposure[sides[1]]
    r0, r1 = mean_reach[sides[0]], mean_reach[sides[1]]
    de = round(e0 - e1, 6) if e0 is not None and e1 is not None else None
    dr = round(r0 - r1, 6) if r0 is not None and r1 is not None else None
    favours = None if not de else (sides[1] if de > 0 else sides[0])
    return {"exposure": exposure, "reach": mean_reach, "exposure_difference": de, "reach_difference": dr, "favours": favours}
