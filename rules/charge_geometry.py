"""Charge and move geometry shared by every system: the moving model's configuration space,
the goal region of legal end spots, the best Leading Model and the end spot for a rolled
distance.

A system decides *what* counts (clearance, which pieces and models block the path, what the end
spot must avoid, how near the targets it must end) in a :class:`MoveRules`; this module turns
that into a :class:`board.space.Space` and a :class:`board.regions.Region` and asks
:mod:`board.paths` for exact shortest paths (docs/geometry.md §3).

**Levels.** When the rules give :attr:`MoveRules.levels` (:mod:`board.levels`), the space is
layered: the edges between levels are walls, the Access Points doors, so the same search
climbs and descends. An end spot's rules then depend on the level it is on
(:meth:`MoveRules.end_pieces_on`), and a goal is one region per level
(:func:`end_regions`; :func:`plan` and :func:`best_plan` take several regions and report the
level reached, :attr:`Plan.level`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Iterable, Literal, Optional, Sequence, Union

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from tapeline.board.bases import RoundBase
from tapeline.board.errors import GeometryError
from tapeline.board.levels import Levels
from tapeline.board.pathcheck import Violation, check_end
from tapeline.board.paths import Path, Reach
from tapeline.board.regions import Region
from tapeline.board.space import Space, figure_obstacles, oval_polygon_outside, piece_obstacle
from tapeline.board.table import Figure, Table
from tapeline.board.terrain import Piece
from tapeline.board.units import TOUCH

from .state import GameState

#: "Within (or beyond) ``R`` of ``core``" (a point, a polygon or a line): one constraint of a
#: goal region (:class:`board.regions.Region`).
Core = tuple[BaseGeometry, float]
#: A near group's member: a core, or a core with conditions of its own ``((core2, R2, inside),
#: ...)`` (:mod:`board.regions`).
Member = Union[Core, tuple[BaseGeometry, float, tuple[tuple[BaseGeometry, float, bool], ...]]]
#: A near group: within reach of at least one of its members.
Group = tuple[Member, ...]


@dataclass(frozen=True)
class MoveRules:
    """One model's move under a system's rules."""

    rho: float                                  # clearance radius for the path
    edge: float                                 # how far the centre keeps from the table edge en route
    path_pieces: tuple[Piece, ...] = ()         # pieces the path may not cross
    path_figures: tuple[Figure, ...] = ()       # models the path may not pass through
    end_pieces: tuple[Piece, ...] = ()          # footprints the base may not end overlapping
    end_figures: tuple[Figure, ...] = ()        # bases the base may not end overlapping
    keep_away: tuple[tuple[Figure, float], ...] = ()   # ((figure, distance), ...): may not end within distance
    notes: tuple[str, ...] = field(default_factory=tuple)
    levels: Optional[Levels] = None             # the levels and their Access Points (None: one plane)
    # ((level, pieces), ...): end_pieces for an end on that level
    end_pieces_by_level: tuple[tuple[Optional[str], tuple[Piece, ...]], ...] = ()

    def end_pieces_on(self, level: Optional[str]) -> tuple[Piece, ...]:
        """The footprints a base ending on ``level`` (a piece id; ``None`` the ground) may not
        overlap (:attr:`end_pieces` where the rules name no level)."""
        for lv, pieces in self.end_pieces_by_level:
            if lv == level:
                return pieces
        return self.end_pieces

    def level_at(self, x: float, y: float) -> Optional[str]:
        """The level a centre at ``(x, y)`` stands on (``None``: the ground, or no levels)."""
        return None if self.levels is None else self.levels.surface_at([(x, y)])[0]

    def end_check(self, table: Table, fig: Figure) -> Callable[[float, float], Optional[Violation]]:
        """``end_check(x, y)`` for :func:`board.pathcheck.check_path`: the end rules for
        ``fig`` set at ``(x, y)`` on the level there."""
        def check(x: float, y: float) -> Optional[Violation]:
            lv = self.level_at(x, y)
            return check_end(table, fig.moved(x, y, lv), self.end_figures, self.end_pieces_on(lv), self.keep_away)

        return check


def radius(fig: Figure) -> float:
    """The disc standing in for a base (an oval: its longest semi-axis, conservative)."""
    return fig.base.radius if isinstance(fig.base, RoundBase) else fig.base.reach


def space_for(state: GameState, rules: MoveRules) -> Space:
    """The moving centre's configuration space: path pieces, path figures and (with levels)
    the walls between levels, grown by the clearance."""
    obs = [piece_obstacle(p, rules.rho) for p in rules.path_pieces]
    obs += figure_obstacles(rules.path_figures, rules.rho)
    if rules.levels is not None:
        obs += rules.levels.obstacles(rules.rho)
    return Space(state.table.width, state.table.height, rules.rho, obs, edge=rules.edge)


def _base_core(f: Figure, extra: float) -> Core:
    """(core, R) for "the centre within / beyond ``extra`` of this base's edge"."""
    if isinstance(f.base, RoundBase):
        return shapely.Point(f.x, f.y), f.base.radius + extra
    b = f.base
    return oval_polygon_outside(f.x, f.y, b.a, b.b, b.phi), extra


#: Vertices of the inscribed polygon standing in for an oval target in a goal region. The chord
#: error is at most ``a·(2π/n)²/8``: 6.6e-5" for the 100 mm Hydralisk oval at n = 384 — within
#: the stated 1e-4" for ovals, and inscribed, so an end spot found is truly within reach. (The
#: 2048-vertex outline used for measuring made the region's outline too complex to search.)
OVAL_TARGET_VERTICES = 384


def _inner_core(f: Figure, extra: float) -> Core:
    """Like :func:`_base_core` but an oval is an *inscribed* polygon (for "within": safe)."""
    if isinstance(f.base, RoundBase):
        return shapely.Point(f.x, f.y), f.base.radius + extra
    return shapely.Polygon(f.base.outline(f.x, f.y, OVAL_TARGET_VERTICES)), extra


def near_group(mover_r: float, figs: Sequence[Figure], reach: float) -> tuple[Core, ...]:
    """"Within ``reach`` of some model of ``figs``" for a base of radius ``mover_r``."""
    out = []
    for f in figs:
        core, R = _inner_core(f, reach)
        out.append((core, R + mover_r))
    return tuple(out)


class _Here(Enum):
    """:func:`end_region`'s default level: the one the mover stands on now."""

    HERE = "here"


_HERE = _Here.HERE


def _far_figures(mover: Figure, rules: MoveRules) -> tuple[list[Core], list[Core]]:
    """The bases ``mover`` may not end overlapping, then those it may not end near (keep-away),
    as ``(core, R)`` far constraints: the same on every level."""
    r = radius(mover)
    figs = list(rules.end_figures) + [f for f, _ in rules.keep_away]
    extra = [0.0] * len(rules.end_figures) + [dist + 2 * TOUCH for _, dist in rules.keep_away]
    # (:func:`_base_core` of each, the round bases' centres made in one shapely call)
    xy = [(f.x, f.y) for f in figs if isinstance(f.base, RoundBase)]
    points = shapely.points(np.array(xy, dtype=float).reshape(-1, 2))
    assert isinstance(points, np.ndarray)  # (n, 2) coordinates: n points (the stubs cannot tell one point)
    centres = iter(points)
    out: list[Core] = []
    for f, e in zip(figs, extra):
        if isinstance(f.base, RoundBase):
            out.append((next(centres), f.base.radius + e + r))
        else:
            core, R = _base_core(f, e)
            out.append((core, R + r))
    n = len(rules.end_figures)
    return out[:n], out[n:]


def end_region(state: GameState, mover: Figure, rules: MoveRules, groups: Sequence[Group],
               level: Union[Optional[str], Literal[_Here.HERE]] = _HERE, wholly: bool = False,
               figures: Optional[tuple[list[Core], list[Core]]] = None) -> Region:
    """Legal end spots for ``mover``'s centre: ``groups`` (near constraints) plus no overlap,
    keep-away and wholly on the table.

    With levels: on ``level`` (default: the level the mover stands on now), its centre in
    that level's cell — and with ``wholly`` its whole base on it (§8.5.3: a base straddling
    two levels counts as the lower one). ``figures``: :func:`_far_figures`, when already made
    (for the other levels of one goal)."""
    r = radius(mover)
    if level is _HERE:
        level = rules.level_at(mover.x, mover.y)
    far_figs, keep = _far_figures(mover, rules) if figures is None else figures
    far = list(far_figs)
    for p in rules.end_pieces_on(level):
        if p.circle is not None:
            x, y, pr = p.circle
            far.append((shapely.Point(x, y), pr + r))
        else:
            far.append((p.footprint, r))
    far += keep
    W, H = state.table.width, state.table.height
    inside: tuple[Core, ...] = ()
    if rules.levels is not None and level is not None:
        inside = ((rules.levels.cells[level], r if wholly else 0.0),)
    return Region(near=tuple(groups), far=tuple(far), box=(r, r, W - r, H - r), inside=inside)


def end_regions(state: GameState, mover: Figure, rules: MoveRules, goals: Callable[[Optional[str]], Iterable[Sequence[Group]]],
                wholly: bool = True) -> list[tuple[Optional[str], Region]]:
    """``(level, region)`` for every level (the ground first, then each surface) and every way
    ``goals(level)`` offers of ending there: a list of near-constraint lists (empty: no end
    spot on that level)."""
    levels: list[Optional[str]] = [None] + (list(rules.levels.surfaces) if rules.levels is not None else [])
    figures = _far_figures(mover, rules)
    return [(lv, end_region(state, mover, rules, groups, lv, wholly, figures)) for lv in levels for groups in goals(lv)]


@dataclass(frozen=True)
class Plan:
    """The best way for ``leader`` to reach a region: the path (``None``: unreachable)."""

    leader: str
    path: Optional[Path]
    reach: Optional[Reach] = None
    space: Optional[Space] = None
    level: Optional[str] = None  # the level the path ends on (a piece id; None the ground)

    @property
    def distance(self) -> Optional[float]:
        return None if self.path is None else self.path.length


Regions = Union[Region, Sequence[Region]]


def plan(state: GameState, mover: Figure, rules: MoveRules, groups: Sequence[Group], space: Optional[Space] = None,
         region: Optional[Regions] = None, shorter_than: float = math.inf) -> Plan:
    """``mover``'s shortest path to its end region (``space`` / ``region``: already built for
    these rules, e.g. shared by a unit's models; ``region`` may be several regions — one per
    level — the path ending in the nearest); no path when none is shorter than
    ``shorter_than`` (by more than 1e-12)."""
    space = space_for(state, rules) if space is None else space
    try:
        reach = Reach(space, mover.at)
    except GeometryError:
        return Plan(mover.id, None, None, space)
    region = end_region(state, mover, rules, groups) if region is None else region
    regions = [region] if isinstance(region, Region) else list(region)
    path, _ = reach.to_regions(regions, shorter_than)
    level = None if path is None else rules.level_at(*path.end)
    return Plan(mover.id, path, reach, space, level)


#: What a configuration space is made of (:func:`_space_key`).
SpaceKey = tuple[float, float, tuple[Piece, ...], tuple[Figure, ...], Optional[Levels]]


def _space_key(rules: MoveRules) -> SpaceKey:
    """What :func:`space_for` reads from the rules: equal keys, identical spaces."""
    return (rules.rho, rules.edge, rules.path_pieces, rules.path_figures, rules.levels)


def best_plan(state: GameState, movers: Sequence[Figure], rules_of: Callable[[Figure], MoveRules],
              groups_of: Optional[Callable[[Figure], Sequence[Group]]],
              regions_of: Optional[Callable[[Figure], Iterable[Region]]] = None) -> Optional[Plan]:
    """The model with the shortest path (ties: file order; ``None``: no movers). Models are
    tried nearest first and skipped once their straight-line lower bound cannot beat the best;
    a later model's search looks only below the best length found so far. Models whose rules
    give the same configuration space share it (and so its tangent graph and arc verdicts).

    ``regions_of(f)``, when given, replaces ``end_region(..., groups_of(f))``: the regions
    (e.g. one per level) ``f`` may end in; else ``groups_of`` is needed."""
    best: Optional[Plan] = None
    scored = []
    for f in movers:
        rules = rules_of(f)
        if regions_of is not None:
            regs = list(regions_of(f))
        elif groups_of is not None:
            regs = [end_region(state, f, rules, groups_of(f))]
        else:
            raise TypeError("best_plan needs groups_of or regions_of")
        lbs = [float(-min(reg.slack([f.at])[0], 0.0)) if reg.near else 0.0 for reg in regs]
        scored.append((min(lbs) if lbs else 0.0, f, rules, regs))
    spaces: list[tuple[SpaceKey, Space]] = []
    for lb, f, rules, reg in sorted(scored, key=lambda t: t[0]):
        if best is not None and best.path is not None and lb >= best.path.length - 1e-12:
            continue
        key = _space_key(rules)
        space = next((sp for k, sp in spaces if k == key), None)
        if space is None:
            space = space_for(state, rules)
            spaces.append((key, space))
        if not reg:
            p = Plan(f.id, None, None, space)
        else:
            # only a strictly shorter path can replace the best: nothing longer is searched
            p = plan(state, f, rules, (), space, reg, best.path.length if best is not None and best.path is not None else math.inf)
        if p.path is not None and (best is None or best.path is None or p.path.length < best.path.length - 1e-12):
            best = p
        elif best is None:
            best = p
    return best


def closest_within(reach: Reach, state: GameState, mover: Figure, rules: MoveRules, groups: Sequence[Group],
                   nominated: Figure | Sequence[Figure] | Callable[[float], Sequence[Group]], budget: float, band: float,
                   steps: int = 24, any_of: bool = False,
                   goal_at: Optional[Callable[[float], Iterable[Region]]] = None) -> tuple[Path, float]:
    """The end spot nearest the ``nominated`` model(s) (base contact with every one when the
    budget allows, else as close as possible within ``band``: the largest gap to them as small
    as possible; with ``any_of``, the gap to the nearest of them) reachable within ``budget``
    inches: bisection on the allowed gap ``k ∈ [0, band]`` (to ``band / 2**steps``), each step
    an exact region search. ``nominated`` may instead be a function ``k -> groups`` giving the
    near groups for gap ``k`` (a system's own conditions, e.g. StarCraft's §7.2 shadows);
    ``goal_at``, a function ``k -> regions``, replaces the whole goal (e.g. one region per
    level: :func:`end_regions`).

    Returns the path and the gap ``k`` achieved; raises :class:`GeometryError` when no spot
    within ``band`` can be reached at all.
    """
    r = radius(mover)
    if callable(nominated):
        near_at = nominated
    else:
        noms = [nominated] if isinstance(nominated, Figure) else list(nominated)

        def near_at(k: float) -> Sequence[Group]:
            cores = [(core, R + r + 1e-9) for core, R in (_inner_core(nf, k) for nf in noms)]
            return (tuple(cores),) if any_of else tuple((c,) for c in cores)

    def path_at(k: float) -> Optional[Path]:
        if goal_at is not None:
            return reach.to_regions(list(goal_at(k)))[0]
        reg = end_region(state, mover, rules, tuple(groups) + tuple(near_at(k)))
        return reach.to_region(reg)

    p0 = path_at(0.0)
    if p0 is not None and p0.length <= budget + TOUCH:
        return p0, 0.0
    lo, hi = 0.0, band
    best = path_at(band)
    if best is None:
        raise GeometryError("no end spot within reach")
    for _ in range(steps):
        mid = (lo + hi) / 2
        p = path_at(mid)
        if p is not None and p.length <= budget + TOUCH:
            hi, best = mid, p
        else:
            lo = mid
    return best, hi
