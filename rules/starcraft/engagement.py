"""Engagement in StarCraft TMG (§7.2; glossary ENGAGED).

Engagement Range is 1" horizontally, base to base. Two enemy models within it engage each other,
except:

* Flying models never engage nor are engaged (Ground engages only Ground);
* Size 2+ terrain **between** them prevents it. "Between" is decided exactly: the piece (with
  any other Size 2+ pieces) cuts every path from one base to the other inside the convex hull
  of the two bases — a wall across the gap separates them, a wall off to one side does not;
* HIGH GROUND and GROUND LEVEL models never engage each other;
* a MID GROUND model engages a model on another level only if both are within 1" of the same
  Access Point piece.
"""

from __future__ import annotations

import shapely
from shapely.geometry.base import BaseGeometry

from tapeline.board.measure import gap_matrix, within
from tapeline.board.table import Figure
from tapeline.board.units import TOUCH

from ..engagement import Engagement
from ..state import GameState
from .elevation import Level, level

ENGAGEMENT_RANGE = 1.0


def separating_terrain(state: GameState, fa: Figure, fb: Figure) -> list[str]:
    """Ids of Size 2+ pieces that together separate the two bases (empty if none do)."""
    own = {p.id for p in state.table.stack(fa.on)} | {p.id for p in state.table.stack(fb.on)}
    ra, rb = fa.base.reach, fb.base.reach
    box = shapely.box(min(fa.x - ra, fb.x - rb), min(fa.y - ra, fb.y - rb), max(fa.x + ra, fb.x + rb), max(fa.y + ra, fb.y + rb))
    if not any(state.table.pieces[i].size >= 2 and state.table.pieces[i].id not in own for i in state.table.tree.query(box)):
        return []  # no such piece comes near the two bases: the hull below lies inside ``box``
    pa, pb = fa.polygon, fb.polygon
    hull = shapely.convex_hull(shapely.union(pa, pb))
    walls = [p for p in state.table.pieces_hit(hull) if p.size >= 2 and p.id not in own]
    if not walls:
        return []
    return [p.id for p in walls] if separates(hull, shapely.union_all([p.footprint for p in walls]), pa, pb) else []


def separates(hull: BaseGeometry, cut: BaseGeometry, pa: BaseGeometry, pb: BaseGeometry) -> bool:
    """Does ``cut`` leave no part of ``hull`` (the convex hull of bases ``pa`` and ``pb``)
    that meets both bases?"""
    free = shapely.difference(hull, cut)
    return not any(shapely.intersects(part, pa) and shapely.intersects(part, pb) for part in shapely.get_parts(free))


def level_block(state: GameState, fa: Figure, fb: Figure) -> str | None:
    """Why the two models' elevation levels keep them from engaging (§7.2), or ``None``:
    High Ground and Ground Level never engage; Mid Ground engages another level only when
    both models are within 1" of the same Access Point piece."""
    la, lb = level(state.table, fa), level(state.table, fb)
    if {la, lb} == {Level.HIGH, Level.GROUND}:
        return f"{la.label} cannot engage {lb.label} (§7.2)"
    if la != lb and Level.MID in (la, lb) and not shared_access_points(state, fa, fb):
        return f"{la.label} and {lb.label} engage only beside a shared Access Point (§7.2)"
    return None


def shared_access_points(state: GameState, fa: Figure, fb: Figure) -> list[str]:
    """Access Point pieces both models are within 1" of."""
    return [p.id for p in state.table.pieces
            if p.has("access_point") and within(fa, p.footprint, ENGAGEMENT_RANGE).ok and within(fb, p.footprint, ENGAGEMENT_RANGE).ok]


def engaged(state: GameState, a: str, b: str) -> Engagement:
    """Do models ``a`` and ``b`` engage each other (§7.2)?"""
    fa, fb = state.figure(a), state.figure(b)
    ua, ub = state.unit(fa.unit), state.unit(fb.unit)
    in_range = within(fa, fb, ENGAGEMENT_RANGE)
    if ua.side == ub.side:
        return Engagement(False, in_range, "same_side", "models of the same side never engage")
    if not in_range.ok:
        return Engagement(False, in_range, None, in_range.explain('within 1"'))
    if ua.flying or ub.flying:
        return Engagement(False, in_range, "flying", "Flying models never engage (§7.2)")
    why = level_block(state, fa, fb)
    if why is not None:
        return Engagement(False, in_range, "elevation", why)
    walls = separating_terrain(state, fa, fb)
    if walls:
        return Engagement(False, in_range, "terrain", f"Size 2+ terrain between them: {', '.join(walls)} (§7.2)")
    return Engagement(True, in_range, None, in_range.explain('within 1"'))


def units_engaged(state: GameState, unit_a: str, unit_b: str) -> bool:
    """Two units are Engaged with each other if any pair of their models engage."""
    fa, fb = state.figures_of(unit_a), state.figures_of(unit_b)
    if not fa or not fb:
        return False
    close = gap_matrix(fa, fb, upto=ENGAGEMENT_RANGE + TOUCH) <= ENGAGEMENT_RANGE + TOUCH
    return any(engaged(state, fa[i].id, fb[j].id).engaged for i, j in zip(*close.nonzero()))
