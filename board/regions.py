"""Goal regions for a moving centre: intersections of "within R of" and "at least R from".

A charge ends anywhere in a region (docs/geometry.md §4, "Goal regions"): within 1" of
every declared target, not overlapping any base or impassable terrain, wholly on the table, not
within 1" of an undeclared enemy. For the centre ``p`` of a round base of radius ``r`` each of
these is a distance constraint to a *core* (a base's centre point or a footprint polygon):

* ``near``: groups; in each group ``dist(p, core) ≤ R`` for at least one member (within 1" of a
  target *unit*: one member per model of radius ``rt``, ``R = r + rt + 1``). A member may carry
  further conditions of its own, ``(core, R, ((core2, R2, inside), ...))``: ``dist(p, core2) ≤
  R2`` when ``inside``, else ``p`` at least ``R2`` outside ``core2`` (signed: a point inside a
  polygon ``core2`` is outside the member) — e.g. "within 1" of this model *and* not in the
  shadow of a wall"
* ``far``:  ``dist(p, core) ≥ R``  (no overlap with a base: ``R = r + ro``; terrain: ``R = r``)
* ``box``: ``x0 ≤ x ≤ x1, y0 ≤ y ≤ y1`` (wholly on the table: the table shrunk by ``r``)
* ``inside``: ``p`` inside a polygon, at least ``R`` from its outline (the base wholly on one
  level: its cell, :mod:`board.levels`, with ``R = r``)

A core may also be a line (a wall between two levels): ``dist(p, line)`` is measured to it
from either side.

The region's outline is made of circle arcs (around point cores and around polygon corners)
and straight pieces (offset polygon edges, the box): :meth:`Region.primitives`. The points of
the region nearest to any outside point ``v`` lie among finitely many candidates: ``v``'s
projections on every primitive and the outline's vertices (pairwise intersections), so
:func:`board.paths.Reach.to_region` is exact.

>>> import shapely
>>> g = Region(near=(((shapely.Point(5, 5), 2.0),),), box=(0, 0, 10, 10))
>>> bool(g.contains([[6, 5]])[0]), bool(g.contains([[8, 5]])[0])
(True, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely

from .errors import GeometryError
from .plane import ccw_rings, circle_intersections

#: The outline's vertices are pairwise intersections of its pieces: refuse (an error, never a
#: hang or an exhausted memory) beyond this many pairs.
MAX_PRIMITIVE_PAIRS = 1_000_000

#: A crossing point counts as on the outline within this (far above the crossings' float error).
OUTLINE_SLACK = 1e-8

#: Membership slack: candidates computed on the outline land there up to float noise.
SLACK = 1e-9


@dataclass(frozen=True)
class Region:
    near: tuple = ()   # (((core, R), ...), ...): within R of some core of every group
    far: tuple = ()    # ((core, R), ...): at least R from every core
    box: tuple = (-math.inf, -math.inf, math.inf, math.inf)
    inside: tuple = ()  # ((polygon, R), ...): inside each polygon, at least R from its outline

    # --- membership -------------------------------------------------------------------------

    @cached_property
    def _far_arrays(self):
        if not self.far:
            return None, None, None
        cores = np.array([c for c, _ in self.far], dtype=object)
        R = np.array([r for _, r in self.far], dtype=float)
        return cores, R, shapely.STRtree(cores)

    def slack(self, pts) -> np.ndarray:
        """How far inside the region each point is (negative: outside, by that much)."""
        pts = np.asarray(pts, dtype=float).reshape(-1, 2)
        geoms = shapely.points(pts)
        x0, y0, x1, y1 = self.box
        s = np.minimum.reduce([pts[:, 0] - x0, pts[:, 1] - y0, x1 - pts[:, 0], y1 - pts[:, 1]])
        for group in self.near:
            s = np.minimum(s, np.max([_member_slack(geoms, m) for m in group], axis=0))
        for poly, R, edge in self._inside_arrays:
            d = shapely.distance(geoms, edge)
            s = np.minimum(s, np.where(shapely.intersects(poly, geoms), d - R, -d - R))
        cores, R, tree = self._far_arrays
        if cores is not None and len(pts):
            gi, ci = tree.query(geoms, predicate="dwithin", distance=float(R.max()) + 1e-9)
            if len(gi):
                d = shapely.distance(geoms[gi], cores[ci]) - R[ci]
                np.minimum.at(s, gi, d)
        return s

    @cached_property
    def _inside_arrays(self):
        return [(poly, R, shapely.boundary(poly)) for poly, R in self.inside]

    def contains(self, pts) -> np.ndarray:
        return self.slack(pts) >= -SLACK

    # --- outline ----------------------------------------------------------------------------

    @cached_property
    def bounds(self) -> tuple:
        """A box holding the region (the near constraints' boxes and the table box)."""
        x0, y0, x1, y1 = self.box
        for group in self.near:
            bb = np.array([shapely.bounds(m[0]) + np.array([-m[1], -m[1], m[1], m[1]]) for m in group])
            a, b = bb[:, 0].min(), bb[:, 1].min()
            c, d = bb[:, 2].max(), bb[:, 3].max()
            x0, y0, x1, y1 = max(x0, a), max(y0, b), min(x1, c), min(y1, d)
        for poly, R in self.inside:
            a, b, c, d = shapely.bounds(poly)
            x0, y0, x1, y1 = max(x0, a + R), max(y0, b + R), min(x1, c - R), min(y1, d - R)
        return (x0, y0, x1, y1)

    @cached_property
    def primitives(self) -> tuple[np.ndarray, np.ndarray]:
        """``(circles, lines)``: circles as rows ``(cx, cy, R)``, lines as rows
        ``(nx, ny, c)`` for the line ``n·p = c`` (``n`` a unit vector)."""
        circles, lines = [], []
        x0, y0, x1, y1 = self.bounds
        if not (x0 <= x1 and y0 <= y1):
            return np.zeros((0, 3)), np.zeros((0, 3))
        hull = shapely.box(x0, y0, x1, y1)
        relevant = [(m[0], m[1]) for group in self.near for m in group]
        relevant += [(c, R) for group in self.near for m in group for c, R, _ in (m[2] if len(m) > 2 else ())]
        relevant += [(c, R) for c, R in self.far if shapely.dwithin(c, hull, R + 1e-9)]
        for core, R in relevant:
            kind = shapely.get_type_id(core)
            if kind == 0:
                x, y = shapely.get_coordinates(core)[0]
                circles.append((x, y, R))
            elif kind in (3, 6):
                for ring in ccw_rings(core):
                    _ring_pieces(ring, R, circles, lines, outward=True)
            else:  # a line: both sides, a circle at every vertex
                for part in shapely.get_parts(core):
                    xy = shapely.get_coordinates(part)
                    circles.extend((x, y, R) for x, y in xy)
                    for v, w in zip(xy[:-1], xy[1:]):
                        L = math.hypot(*(w - v))
                        if L > 0:
                            nx_, ny_ = (w[1] - v[1]) / L, -(w[0] - v[0]) / L
                            lines.append((nx_, ny_, nx_ * v[0] + ny_ * v[1] + R))
                            lines.append((-nx_, -ny_, -(nx_ * v[0] + ny_ * v[1]) + R))
        for poly, R in self.inside:
            for ring in _interior_left_rings(poly):
                _ring_pieces(ring, R, circles, lines, outward=False)
        bx0, by0, bx1, by1 = self.box
        for n_, c in (((1, 0), bx0), ((0, 1), by0), ((1, 0), bx1), ((0, 1), by1)):
            if math.isfinite(c):
                lines.append((n_[0], n_[1], c))
        return np.array(circles, dtype=float).reshape(-1, 3), np.array(lines, dtype=float).reshape(-1, 3)

    @cached_property
    def vertices(self) -> np.ndarray:
        """Pairwise intersections of the outline's primitives that lie in the region."""
        C, L = self.primitives
        n = len(C) + len(L)
        if n * (n - 1) // 2 > MAX_PRIMITIVE_PAIRS:
            raise GeometryError(
                f"goal region too complex to search exactly ({len(C)} arcs and {len(L)} straight pieces "
                f"in its outline; the limit is {MAX_PRIMITIVE_PAIRS} pairs): typically many oval bases "
                "crowd the target"
            )
        pts = [circle_intersections(C, 1e-12), _circle_line(C, L), _line_line(L)]
        allp = np.concatenate([p for p in pts if len(p)] or [np.zeros((0, 2))])
        if not len(allp):
            return allp
        # Only points on the outline are vertices: a crossing of two pieces strictly inside the
        # region (adjacent corner arcs of one polygon cross inside it) is no candidate end spot.
        s = self.slack(allp)
        return allp[(s >= -SLACK) & (s <= OUTLINE_SLACK)]

    def projections(self, v) -> np.ndarray:
        """The foot of ``v`` on every primitive (nearest point of each circle and line)."""
        v = np.asarray(v, dtype=float)
        C, L = self.primitives
        out = []
        if len(C):
            d = v - C[:, :2]
            n = np.hypot(d[:, 0], d[:, 1])
            ok = n > 1e-15
            u = d[ok] / n[ok, None]
            out.append(C[ok, :2] + C[ok, 2:3] * u)
        if len(L):
            t = L[:, 2] - L[:, :2] @ v
            out.append(v + t[:, None] * L[:, :2])
        return np.concatenate(out) if out else np.zeros((0, 2))

    def anchors(self) -> tuple[np.ndarray, np.ndarray]:
        """Where a shortest path's last straight leg can come from: points (outline vertices
        and circle centres: the last leg lies on a line through one of them) and directions
        (line normals: the last leg meets a straight piece square-on)."""
        C, L = self.primitives
        pts = np.concatenate([self.vertices, C[:, :2]]) if len(C) else self.vertices
        return pts, L[:, :2].copy()


def _member_slack(geoms, member) -> np.ndarray:
    """How far inside one near-group member each point is: ``R − dist(p, core)``, and each of
    the member's own conditions (signed distance to a polygon for "outside")."""
    core, R = member[0], member[1]
    s = R - shapely.distance(geoms, core)
    for c2, R2, inside in (member[2] if len(member) > 2 else ()):
        d = shapely.distance(geoms, c2)
        if inside:
            s = np.minimum(s, R2 - d)
        else:
            if shapely.get_type_id(c2) != 0:  # inside a polygon: minus the depth
                d = np.where(d > 0, d, -shapely.distance(geoms, shapely.boundary(c2)))
            s = np.minimum(s, d - R2)
    return s


def _interior_left_rings(geom):
    """Every ring of a polygon's outline (holes too), oriented with the interior on the left."""
    for poly in shapely.get_parts(geom):
        ext = np.asarray(poly.exterior.coords)[:-1]
        yield ext if poly.exterior.is_ccw else ext[::-1]
        for hole in poly.interiors:
            h = np.asarray(hole.coords)[:-1]
            yield h[::-1] if hole.is_ccw else h


def _ring_pieces(ring, R, circles, lines, outward: bool) -> None:
    """The outline pieces of "at least R outside" (``outward``) or "at least R inside" a ring
    with its interior on the left: its edges offset by R, and circles round the corners that
    bulge that way (convex corners outside, reflex corners inside)."""
    n = len(ring)
    sign = 1.0 if outward else -1.0
    for i in range(n):
        p, v, q = ring[i - 1], ring[i], ring[(i + 1) % n]
        e1, e2 = v - p, q - v
        cross = e1[0] * e2[1] - e1[1] * e2[0]
        if sign * cross > 1e-15:
            circles.append((v[0], v[1], R))
        L = math.hypot(*e2)
        if L > 0:
            nx_, ny_ = e2[1] / L, -e2[0] / L  # outward normal (interior on the left)
            lines.append((nx_, ny_, nx_ * v[0] + ny_ * v[1] + sign * R))


def _circle_line(C: np.ndarray, L: np.ndarray) -> np.ndarray:
    if not len(C) or not len(L):
        return np.zeros((0, 2))
    i, j = np.meshgrid(np.arange(len(C)), np.arange(len(L)), indexing="ij")
    i, j = i.ravel(), j.ravel()
    c, r, n, k = C[i, :2], C[i, 2], L[j, :2], L[j, 2]
    s = k - np.einsum("ij,ij->i", n, c)  # signed distance centre → line
    ok = np.abs(s) <= r + 1e-12
    c, r, n, s = c[ok], r[ok], n[ok], s[ok]
    foot = c + s[:, None] * n
    h = np.sqrt(np.clip(r**2 - s**2, 0, None))
    t = np.column_stack([-n[:, 1], n[:, 0]])
    return np.concatenate([foot + h[:, None] * t, foot - h[:, None] * t])


def _line_line(L: np.ndarray) -> np.ndarray:
    if len(L) < 2:
        return np.zeros((0, 2))
    i, j = np.triu_indices(len(L), 1)
    a1, b1, c1 = L[i].T
    a2, b2, c2 = L[j].T
    det = a1 * b2 - a2 * b1
    ok = np.abs(det) > 1e-12
    x = (c1[ok] * b2[ok] - c2[ok] * b1[ok]) / det[ok]
    y = (a1[ok] * c2[ok] - a2[ok] * c1[ok]) / det[ok]
    return np.column_stack([x, y])
