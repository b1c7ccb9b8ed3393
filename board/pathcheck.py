"""Validating a proposed path: a polyline for the moving centre, checked along its whole length.

Margins down to −1e-6" (:data:`board.units.TOUCH`) count as touching, not crossing, so a path
given to six decimals that hugs a corner passes. Walk the polyline segment by segment against the grown obstacles of a :class:`board.space.Space`
(docs/geometry.md §5, "Validating a proposed path"). The first violation along the path
is reported with where it happens and what causes it:

* ``off_table``: the centre comes closer to the table edge than the space allows;
* ``crosses_terrain``: the path runs into a terrain obstacle's footprint;
* ``changes_level``: the path crosses the edge between two levels away from an Access Point
  (a wall of :mod:`board.levels`), located where it crosses;
* ``through_model``: the centre passes through another model's base;
* ``gap``: the path squeezes past an obstacle closer than the clearance (through a gap
  narrower than the Gap Clearance, or too close to a base);
* ``too_long``: the path is longer than allowed (reported where the allowance runs out);
* end checks supplied by the caller (:func:`check_end`): ``end_overlap``, ``end_near_enemy``,
  ``end_off_table``.

>>> import shapely
>>> from tapeline.board.space import Space, polygon_obstacle
>>> s = Space(20, 20, 0.5, [polygon_obstacle("wall", "terrain", shapely.box(9, 0, 11, 12), 0.5)])
>>> c = check_path(s, [(5, 5), (15, 5)])
>>> c.legal, c.violation.kind, c.violation.obstacle, c.violation.at
(False, 'crosses_terrain', 'wall', (9.0, 5.0))
>>> check_path(s, [(5, 5), (5, 13), (15, 13), (15, 5)]).legal
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import numpy as np
import shapely
from numpy.typing import ArrayLike
from shapely.geometry.base import BaseGeometry

from .arrays import Floats
from .measure import gap, region_gap
from .space import EDGE, TOL, Space  # noqa: F401  (TOL: tangency slack of the path search)
from .table import Figure, Table
from .terrain import Piece
from .units import TOUCH


@dataclass(frozen=True)
class Violation:
    kind: str
    at: tuple[float, float]
    detail: str
    obstacle: Optional[str] = None
    along: float = 0.0  # path length from the start to ``at``

    def as_json(self) -> dict[str, object]:
        return {"kind": self.kind, "at": [round(self.at[0], 6), round(self.at[1], 6)], "detail": self.detail, "obstacle": self.obstacle}


@dataclass(frozen=True)
class PathCheck:
    legal: bool
    length: float
    violation: Optional[Violation] = None


def _enter_disc(a: Floats, b: Floats, c: Floats, R: float) -> Optional[float]:
    """Smallest t in [0, 1] with |a + t(b − a) − c| < R (entering the open disc)."""
    d = b - a
    f = a - c
    A = float(d @ d)
    B = 2 * float(f @ d)
    Cc = float(f @ f) - R * R
    if Cc < 0:
        return 0.0
    if A == 0:
        return None
    disc = B * B - 4 * A * Cc
    if disc <= 0:
        return None
    t = (-B - math.sqrt(disc)) / (2 * A)
    return t if 0 <= t <= 1 else None


def _enter_region(a: Floats, b: Floats, region: BaseGeometry) -> Optional[float]:
    seg = shapely.LineString([a, b])
    inter = shapely.intersection(seg, region)
    if inter.is_empty:
        return None
    pts = shapely.get_coordinates(inter)
    L = math.dist(a, b)
    if L == 0:
        return 0.0
    return float(min(np.hypot(*(pts - a).T)) / L)


def _enter_box(a: Floats, b: Floats, box: tuple[float, float, float, float], slack: float) -> Optional[float]:
    x0, y0, x1, y1 = box
    best = None
    for i, lo, hi in ((0, x0, x1), (1, y0, y1)):
        for bound, sign in ((lo, -1), (hi, 1)):
            pa, pb = sign * (a[i] - bound), sign * (b[i] - bound)
            if pa > slack:
                t = 0.0
            elif pb > slack:
                t = (slack - pa) / (pb - pa)
            else:
                continue
            best = t if best is None else min(best, t)
    return best


def check_path(space: Space, points: ArrayLike, max_length: Optional[float] = None,
               end_check: Optional[Callable[[float, float], Optional[Violation]]] = None) -> PathCheck:
    """Check the polyline ``points`` for the centre; ``end_check(x, y)`` may add end rules."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    if len(pts) < 1:
        raise ValueError("a path needs at least one point")
    seglen = np.hypot(*(pts[1:] - pts[:-1]).T) if len(pts) > 1 else np.zeros(0)
    total = float(seglen.sum())
    cum = np.concatenate([[0.0], np.cumsum(seglen)])
    found: list[Violation] = []
    if len(pts) > 1:
        m, _ = space.segment_margin(pts[:-1], pts[1:])
        bad = np.nonzero(m < -TOUCH)[0]
        if len(bad):
            found.append(_first_on_segment(space, int(bad[0]), pts, cum))
    else:
        m, w = space.point_margin(pts)
        if m[0] < -TOUCH:
            found.append(_first_on_segment(space, 0, np.concatenate([pts, pts]), np.zeros(2)))
    if max_length is not None and total > max_length + TOUCH:
        i = int(np.searchsorted(cum, max_length, side="right")) - 1
        i = min(max(i, 0), len(seglen) - 1)
        t = (max_length - cum[i]) / seglen[i] if seglen[i] else 0.0
        at = pts[i] + t * (pts[i + 1] - pts[i])
        found.append(Violation("too_long", (float(at[0]), float(at[1])), f"the path is {total:.6g}\", longer than the {max_length:g}\" allowed by {total - max_length:.6g}\"", None, float(max_length)))
    if not found and end_check is not None:
        v = end_check(float(pts[-1, 0]), float(pts[-1, 1]))
        if v is not None:
            found.append(Violation(v.kind, v.at, v.detail, v.obstacle, total))
    if not found:
        return PathCheck(True, total)
    return PathCheck(False, total, min(found, key=lambda v: v.along))


def _first_on_segment(space: Space, i: int, pts: Floats, cum: Floats) -> Violation:
    """The earliest violation on segment ``i``, located and classified."""
    a, b = pts[i], pts[i + 1]
    seg = shapely.LineString([a, b]) if math.dist(a, b) > 0 else shapely.Point(a)
    L = math.dist(a, b)
    cands: list[tuple[float, str, str, Optional[str]]] = []  # (where along, kind, detail, what)
    if space.tree is not None:
        idx = space.tree.query(seg, predicate="dwithin", distance=space.maxgrow)
        for k in idx:
            o = space.obstacles[int(k)]
            d = float(shapely.distance(seg, o.core))
            if d - o.grow >= -TOUCH:
                continue
            inner = o.grow - space.rho  # the obstacle itself: footprint (0) or base radius
            hits_core = d < inner - TOL if o.is_point else d <= TOL
            if o.is_point:
                c = shapely.get_coordinates(o.core)[0]
                t = _enter_disc(a, b, c, inner if hits_core else o.grow)
            else:
                t = _enter_region(a, b, o.core if hits_core else shapely.buffer(o.core, o.grow, quad_segs=64))
            t = 0.0 if t is None else t
            kind = {"model": "through_model", "level": "changes_level"}.get(o.kind, "crosses_terrain") if hits_core else "gap"
            what = f"the edge of {o.id}" if o.kind == "level" else f"{o.kind} {o.id}"
            if hits_core and o.kind == "level":
                detail = f"changes level across the edge of {o.id} away from any Access Point"
            elif hits_core:
                detail = f"{'passes through' if o.kind == 'model' else 'crosses'} {what}"
            else:
                detail = f"passes {d - inner:.6g}\" from {what}: closer than the clearance {space.rho:g}\" (a gap narrower than the Gap Clearance)"
            cands.append((t, kind, detail, o.id))
    te = _enter_box(a, b, space.box, TOL)
    if te is not None:
        cands.append((te, "off_table", f"comes within {space.edge:g}\" of the table edge", "table edge"))
    if not cands:  # numerically marginal: report the segment start
        cands.append((0.0, "gap", "too close to an obstacle", None))
    t, kind, detail, ident = min(cands, key=lambda c: c[0])
    at = a + t * (b - a)
    return Violation(kind, (float(at[0]), float(at[1])), detail, ident, float(cum[i] + t * L))


def check_end(table: Table, fig: Figure, others: Sequence[Figure] = (), pieces: Sequence[Piece] = (),
              keep_away: Sequence[tuple[Figure, float]] = ()) -> Optional[Violation]:
    """End-spot rules for a model ``fig`` set at its end point: wholly on the table, no overlap
    with ``others`` (figures) or ``pieces`` (impassable footprints), and not within the given
    distance of any figure in ``keep_away`` (``[(figure, distance), ...]``)."""
    at = (fig.x, fig.y)
    if not table.on_table(fig):
        return Violation("end_off_table", at, f"the base ends {-table.edge_margin(fig):.6g}\" off the table", "table edge")
    for o in others:
        g = gap(fig, o)
        if g < -TOUCH:
            return Violation("end_overlap", at, f"the base ends overlapping {o.id} by {-g:.6g}\"", o.id)
    for p in pieces:
        g = region_gap(fig, p.footprint)
        if g < -TOUCH:
            return Violation("end_overlap", at, f"the base ends overlapping terrain {p.id} by {-g:.6g}\"", p.id)
    for o, dist in keep_away:
        g = gap(fig, o)
        if g <= dist + TOUCH:
            return Violation("end_near_enemy", at, f"the base ends {g:.6g}\" from enemy {o.id}: within {dist:g}\"", o.id)
    return None


__all__ = ["Violation", "PathCheck", "check_path", "check_end", "EDGE"]
