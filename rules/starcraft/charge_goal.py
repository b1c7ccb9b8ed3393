"""Where a StarCraft TMG charge may end: Engaged with every declared target (§8.7.7, §7.2).

A charge succeeds only if the Leading Model can end within 1" of every declared target unit —
and "within 1"" of a target is not enough when the two would not be Engaged: §7.2's exceptions
apply to the end spot as to any other pair of models. For the Leading Model (a disc of radius
``r``) and one target model, the legal end spots are those within 1" of it and:

* **no Size 2+ terrain between them**: the centre lies outside every piece's *hidden centres*
  (:func:`board.shadow.hidden_centres`: the spots from which every segment to the target's
  base meets the piece — exactly when the piece cuts the hull of the two bases in two, the
  reading of :func:`rules.starcraft.engagement.separating_terrain`). Convex pieces and round
  ones are exact; a non-convex piece counts as its convex hull when the hull keeps clear of the
  target's base, else as its triangles;
* **levels**: High Ground and Ground Level never engage (such target models offer no spot); a
  Mid Ground model and one on another level engage only if both are within 1" of the same
  Access Point: the centre must then also be within ``r + 1`` of such a piece's footprint that
  the target is within 1" of (one member per piece). The charger's level is the one it ends
  on (``on``: a charge climbs and descends through Access Points, so the goal is built for
  each level it may end on, its whole base on it); by default the one it stands on.

These are per-model conditions of the goal region (:class:`board.regions.Region` members with
conditions of their own), so the shortest-path search stays exact. What the per-piece shadows
cannot see — several pieces that separate the two bases only together — is caught by checking
the end spot found with the full §7.2 rule (:func:`verify`); the touching group of pieces that
cuts the bases apart is then added as one more obstacle for that target model, as its convex
hull (when that keeps clear of the target's base: exact for a wall of abutting sections) or
else as its part inside the hull of the two bases, made convex (seen from outside its hull that
convex part hides exactly what the pieces hide; only a spot inside its hull is refused where
the pieces alone might not), and the search repeated. When that part would touch the target's own base (a model tucked into a corner
formed by several pieces) the charge query stops with a GeometryError rather than guess. Oval bases count as the disc of their longest semi-axis in
the shadow construction (the end spot is still checked with the full rule).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal, Optional, Sequence, Union, cast

import shapely
from shapely.geometry.base import BaseGeometry

from tapeline.board.bases import RoundBase
from tapeline.board.errors import GeometryError
from tapeline.board.measure import within
from tapeline.board.regions import Condition
from tapeline.board.shadow import hidden_centres
from tapeline.board.table import Figure
from tapeline.board.terrain import Piece

from ..charge_geometry import Group, near_group, radius
from ..state import GameState
from .elevation import Level, level, level_of_surface
from .engagement import ENGAGEMENT_RANGE, engaged, separates, separating_terrain


class _Here(Enum):
    """``on`` left out: the level the mover stands on now."""

    HERE = "here"


HERE = _Here.HERE
#: The level an end spot is on: a piece id, ``None`` the ground, or :data:`HERE`.
On = Union[Optional[str], Literal[_Here.HERE]]
#: A convex obstacle standing for terrain in the shadow construction: a polygon, or a circle
#: ``(x, y, r)`` (:func:`board.shadow.hidden_centres`).
Obstacle = Union[shapely.Polygon, tuple[float, float, float]]
#: Extra shadows per target model id, added by :func:`verify`.
Extra = dict[str, list[shapely.Polygon]]
#: A goal member with conditions of its own: ``(core, R, conditions)`` (:mod:`board.regions`).
Conditioned = tuple[BaseGeometry, float, tuple[Condition, ...]]


@dataclass
class GoalMemo:
    """What one charge question remembers while it builds its goals (the levels often see the
    same pieces round a target): the Size 2+ pieces near each target model, and the shadows of
    each set of pieces. It lives as long as the question."""

    near: dict[tuple[str, float], list[Piece]] = field(default_factory=dict)
    shadows: dict[tuple[float, str, tuple[str, ...], tuple[int, ...]], tuple[Condition, ...]] = field(default_factory=dict)


def _standing(state: GameState, mover: Figure, on: On) -> tuple[Level, set[str]]:
    """(the mover's level, the ids of the pieces it stands on) when it ends on ``on``."""
    if on is HERE:
        return level(state.table, mover), {p.id for p in state.table.stack(mover.on)}
    return level_of_surface(state.table, on), {p.id for p in state.table.stack(on)}


def _light(f: Figure) -> tuple[tuple[float, float], float]:
    return (f.x, f.y), (f.base.radius if isinstance(f.base, RoundBase) else f.base.reach)


def _convex_parts(piece: Piece, fig: Figure) -> list[Obstacle]:
    """The convex obstacles standing for ``piece`` when seen from ``fig``'s base."""
    if piece.circle is not None:
        return [piece.circle]
    fp = piece.footprint
    hull = cast(shapely.Polygon, shapely.convex_hull(fp))  # the hull of a polygon is a polygon
    if hull.area - fp.area <= 1e-9 * max(1.0, hull.area):
        return [fp]
    (x, y), rt = _light(fig)
    if shapely.distance(hull, shapely.Point(x, y)) > rt:
        return [hull]
    return list(shapely.get_parts(shapely.constrained_delaunay_triangles(fp)))


def _walls_near(state: GameState, mover: Figure, target: Figure, r: float, on: On = HERE,
                memo: Optional[GoalMemo] = None) -> list[Piece]:
    """Size 2+ pieces that could stand between the two bases at any end spot within 1"
    (``memo``: see :func:`shadows`)."""
    (x, y), rt = _light(target)
    own = _standing(state, mover, on)[1] | {p.id for p in state.table.stack(target.on)}
    key = (target.id, r)
    near = None if memo is None else memo.near.get(key)
    if near is None:
        zone = shapely.Point(x, y).buffer(rt + ENGAGEMENT_RANGE + 2 * r + 1e-6)
        near = [p for p in state.table.pieces_hit(zone) if p.size >= 2]
        if memo is not None:
            memo.near[key] = near
    return [p for p in near if p.id not in own]


#: How far (inches) the goal region keeps off the knife edge where a piece just touches the
#: hull of the two bases: :func:`rules.starcraft.engagement.separating_terrain` (and so
#: ``measure``) decides separation on 1024-gon bases, up to 7.5e-6" inside the true circles, so
#: an end spot this far from the edge gets the same verdict from both. Charge distances can be
#: long by at most this much where the shortest spot is on such an edge.
KNIFE_EDGE = 2e-5


def shadows(state: GameState, mover: Figure, target: Figure, extra: Sequence[shapely.Polygon] = (), on: On = HERE,
            memo: Optional[GoalMemo] = None) -> tuple[Condition, ...]:
    """The polygons the mover's centre must stay out of to engage ``target`` across no Size 2+
    terrain; ``extra``: more convex obstacles (from :func:`verify`). ``memo``: a dict kept by
    the caller for one question, where the answer for the same pieces is remembered (the
    levels a goal is built for often see the same ones)."""
    r = radius(mover)
    (x, y), rt = _light(target)
    walls = _walls_near(state, mover, target, r, on, memo)
    key = (r, target.id, tuple(p.id for p in walls), tuple(map(id, extra)))
    if memo is not None and key in memo.shadows:
        return memo.shadows[key]
    out: list[Condition] = []
    obstacles: list[Obstacle] = [part for p in walls for part in _convex_parts(p, target)] + list(extra)
    # the disc of centres within 1" of the target, as a circumscribed 64-gon (never smaller)
    reach = shapely.Point(x, y).buffer((r + rt + ENGAGEMENT_RANGE + 1e-6) / math.cos(math.pi / 64), quad_segs=16)
    for ob in obstacles:
        S = hidden_centres(ob, (x, y), rt, r - KNIFE_EDGE)
        if S is not None and shapely.intersects(S, reach):   # a shadow beyond 1" changes nothing
            out.append((S, 0.0, False))
    if memo is not None:
        memo.shadows[key] = tuple(out)
    return tuple(out)


def members(state: GameState, mover: Figure, target: Figure, reach: float = ENGAGEMENT_RANGE,
            extra: Sequence[shapely.Polygon] = (), on: On = HERE, memo: Optional[GoalMemo] = None) -> list[Conditioned]:
    """The goal-region members for "within ``reach`` of ``target`` and Engaged with it" (§7.2)
    for the mover ending on level ``on`` (default: the level it stands on): none when the
    levels never engage. ``memo``: see :func:`shadows`."""
    lm, lt = _standing(state, mover, on)[0], level(state.table, target)
    if {lm, lt} == {Level.HIGH, Level.GROUND}:
        return []
    r = radius(mover)
    (core, R), = near_group(r, [target], reach)
    cond = shadows(state, mover, target, extra, on, memo)
    if lm == lt or Level.MID not in (lm, lt):
        return [(core, R, cond)]
    aps = [p for p in state.table.pieces if p.has("access_point") and within(target, p.footprint, ENGAGEMENT_RANGE).ok]
    return [(core, R, cond + ((p.footprint, r + ENGAGEMENT_RANGE, True),)) for p in aps]


def engageable(state: GameState, mover: Figure, target_unit: str, on: On = HERE) -> list[Figure]:
    """The target unit's models the mover could engage from level ``on`` (§7.2)."""
    return [f for f in state.figures_of(target_unit) if members(state, mover, f, on=on)]


def group(state: GameState, mover: Figure, target_unit: str, extra: Optional[Extra] = None, on: On = HERE,
          memo: Optional[GoalMemo] = None) -> Group:
    """One near group of the goal region: Engaged with some model of ``target_unit`` from
    level ``on`` (``memo``: see :func:`shadows`)."""
    extra = extra or {}
    return tuple(m for f in state.figures_of(target_unit) for m in members(state, mover, f, extra=extra.get(f.id, ()), on=on, memo=memo))


def verify(state: GameState, mover: Figure, end: Sequence[float], targets: Sequence[str], extra: Extra,
           on: Optional[str] = None) -> bool:
    """Check an end spot (the mover standing there on ``on``) with the full §7.2 rule; when a
    target unit is engaged by no model only because several pieces separate them together, add
    a convex shadow standing for them (:func:`_joint_shadows`) to ``extra`` (per target model)
    and answer ``False`` (search again). Raises :class:`GeometryError` when a failure cannot be
    turned into a shadow."""
    moved = mover.moved(end[0], end[1], on)
    st = state.with_figures([moved])
    ok = True
    for t in targets:
        tfigs = st.figures_of(t)
        if any(engaged(st, moved.id, f.id).engaged for f in tfigs):
            continue
        ok = False
        added = False
        for f in tfigs:
            if not within(moved, f, ENGAGEMENT_RANGE).ok:
                continue
            walls = separating_terrain(st, moved, f)
            if not walls:
                continue
            have = extra.setdefault(f.id, [])
            for hull in _joint_shadows(st, moved, f, walls):
                if not any(shapely.equals(hull, h) for h in have):
                    have.append(hull)
                    added = True
                    break
        if not added:
            raise GeometryError(
                f"the end spot ({end[0]:.6g}, {end[1]:.6g}) is within 1\" of {t} but not Engaged with it, and the "
                "pieces between cannot be turned into one convex shadow (several pieces round the target together)"
            )
    return ok


def _joint_shadows(state: GameState, moved: Figure, target: Figure, walls: Sequence[str]) -> list[shapely.Polygon]:
    """Convex obstacles standing for pieces that separate the two bases only together, best
    first (each kept clear of the target's base). Such pieces touch one another (between
    pieces that do not, a free corridor joins the bases), so the connected group that cuts the
    bases apart acts as one piece and, like a non-convex piece, counts as its convex hull when
    that keeps clear of the target's base — exact for a wall built of abutting sections.
    Otherwise: their part inside the hull of the two bases, made convex (it separates the bases
    too, and seen from outside its hull it hides no more than the pieces)."""
    union = shapely.union_all([state.table.by_id[w].footprint for w in walls])
    between = shapely.convex_hull(shapely.union(moved.polygon, target.polygon))
    joined = [g for g in shapely.get_parts(union) if separates(between, g, moved.polygon, target.polygon)]
    (x, y), rt = _light(target)
    centre = shapely.Point(x, y)
    out: list[shapely.Polygon] = []
    # (each a hull of polygons with area: the parts that separate the bases, and their part
    # inside the hull of the two bases)
    hulls = [shapely.convex_hull(g) for g in joined] + [shapely.convex_hull(shapely.intersection(union, between))]
    for hull in hulls:
        if shapely.distance(hull, centre) > rt:
            out.append(cast(shapely.Polygon, hull))
    return out
