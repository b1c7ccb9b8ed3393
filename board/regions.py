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
from typing import Iterator, Optional, Union, cast

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray
from shapely.geometry.base import BaseGeometry

from .arrays import Bools, Floats, Geoms, Ints
from .errors import GeometryError
from .plane import ccw_rings, circle_pair_intersections

#: The outline's vertices are pairwise intersections of its pieces: refuse (an error, never a
#: hang or an exhausted memory) beyond this many pairs.
MAX_PRIMITIVE_PAIRS = 1_000_000

#: A crossing point counts as on the outline within this (far above the crossings' float error).
OUTLINE_SLACK = 1e-8

#: Membership slack: candidates computed on the outline land there up to float noise.
SLACK = 1e-9

#: A near member's own condition: ``(core2, R2, inside)`` (see the module notes).
Condition = tuple[BaseGeometry, float, bool]
#: A near member: ``(core, R)``, or ``(core, R, conditions)``.
Member = Union[tuple[BaseGeometry, float], tuple[BaseGeometry, float, tuple[Condition, ...]]]
#: One outline's pieces (:func:`_ring_pieces`, :func:`_line_pieces`): circles, their boxes,
#: lines, their boxes, and the circles' and lines' slots along it.
Pieces = tuple[Floats, Floats, Floats, Floats, Ints, Ints]


@dataclass(frozen=True)
class Region:
    near: tuple[tuple[Member, ...], ...] = ()  # within R of some core of every group
    far: tuple[tuple[BaseGeometry, float], ...] = ()  # at least R from every core
    box: tuple[float, float, float, float] = (-math.inf, -math.inf, math.inf, math.inf)
    inside: tuple[tuple[BaseGeometry, float], ...] = ()  # inside each polygon, at least R from its outline

    # --- membership -------------------------------------------------------------------------

    @cached_property
    def _far_arrays(self) -> Optional[tuple[Geoms, Floats, shapely.STRtree]]:
        """The far constraints' cores and distances, and a tree over the cores (``None``:
        there are none)."""
        if not self.far:
            return None
        cores = np.array([c for c, _ in self.far], dtype=object)
        R = np.array([r for _, r in self.far], dtype=float)
        return cores, R, shapely.STRtree(cores)

    def slack(self, pts: ArrayLike) -> Floats:
        """How far inside the region each point is (negative: outside, by that much)."""
        pts = np.asarray(pts, dtype=float).reshape(-1, 2)
        geoms = cast(Geoms, shapely.points(pts))
        x0, y0, x1, y1 = self.box
        s: Floats = np.minimum.reduce([pts[:, 0] - x0, pts[:, 1] - y0, x1 - pts[:, 0], y1 - pts[:, 1]])
        for group in self.near:
            s = np.minimum(s, np.max([_member_slack(geoms, m) for m in group], axis=0))
        for poly, R, edge in self._inside_arrays:
            d = shapely.distance(geoms, edge)
            s = np.minimum(s, np.where(shapely.intersects(poly, geoms), d - R, -d - R))
        far = self._far_arrays
        if far is not None and len(pts):
            cores, far_r, tree = far
            gi, ci = tree.query(geoms, predicate="dwithin", distance=float(far_r.max()) + 1e-9)
            if len(gi):
                d = shapely.distance(geoms[gi], cores[ci]) - far_r[ci]
                np.minimum.at(s, gi, d)
        return s

    def probe_slack(self, verts: ArrayLike, vi: ArrayLike, probes: ArrayLike, reach: float) -> Floats:
        """:meth:`slack` at ``probes``, each within ``reach`` of its point ``verts[vi]``, where
        it is at most ``reach``: a constraint whose slack at the point is above ``2·reach`` is
        skipped (slacks are 1-Lipschitz: it stays positive at the probe, and a probe's slack
        only matters up to ``reach``). Every near member and far core is measured only at the
        probes of the points where it is nearly active, so many probes round few points cost
        few distances."""
        verts = np.asarray(verts, dtype=float).reshape(-1, 2)
        probes = np.asarray(probes, dtype=float).reshape(-1, 2)
        vi = np.asarray(vi, dtype=int)
        gv, gp = cast(Geoms, shapely.points(verts)), cast(Geoms, shapely.points(probes))
        act = 2 * reach + 1e-9
        x0, y0, x1, y1 = self.box
        s: Floats = np.minimum.reduce([probes[:, 0] - x0, probes[:, 1] - y0, x1 - probes[:, 0], y1 - probes[:, 1]])
        s = np.minimum(s, act)
        for group in self.near:
            ms = np.array([_member_slack(gv, m) for m in group]).reshape(len(group), len(verts))
            need = ms.max(axis=0)[vi] <= act
            if not need.any():
                continue
            val = np.full(len(probes), -np.inf)
            for mi, m in enumerate(group):
                sel = need & (ms[mi, vi] >= -act)
                if sel.any():
                    val[sel] = np.maximum(val[sel], _member_slack(gp[sel], m))
            s[need] = np.minimum(s[need], val[need])
        for poly, R, edge in self._inside_arrays:
            d = shapely.distance(gp, edge)
            s = np.minimum(s, np.where(shapely.intersects(poly, gp), d - R, -d - R))
        far = self._far_arrays
        if far is not None and len(probes):
            cores, far_r, tree = far
            gi, ci = tree.query(gv, predicate="dwithin", distance=float(far_r.max()) + act)
            if len(gi):
                keep = shapely.distance(gv[gi], cores[ci]) - far_r[ci] <= act
                gi, ci = gi[keep], ci[keep]
                order = np.argsort(gi, kind="stable")
                gi, ci = gi[order], ci[order]
                first = np.searchsorted(gi, vi)
                n = np.searchsorted(gi, vi, side="right") - first
                pi = np.repeat(np.arange(len(probes)), n)
                if len(pi):
                    pair = np.repeat(first, n) + (np.arange(len(pi)) - np.repeat(np.cumsum(n) - n, n))
                    c = ci[pair]
                    np.minimum.at(s, pi, shapely.distance(gp[pi], cores[c]) - far_r[c])
        return s

    @cached_property
    def _inside_arrays(self) -> list[tuple[BaseGeometry, float, BaseGeometry]]:
        return [(poly, R, shapely.boundary(poly)) for poly, R in self.inside]

    def contains(self, pts: ArrayLike) -> Bools:
        return self.slack(pts) >= -SLACK

    # --- outline ----------------------------------------------------------------------------

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
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
    def primitives(self) -> tuple[Floats, Floats]:
        """``(circles, lines)``: circles as rows ``(cx, cy, R)``, lines as rows
        ``(nx, ny, c)`` for the line ``n·p = c`` (``n`` a unit vector) — those whose outline
        piece (:attr:`_pieces`) reaches the region's :attr:`bounds`."""
        C, L, _, _ = self._pieces
        return C, L

    @cached_property
    def _junctions(self) -> tuple[Ints, Ints]:
        """``(circle ids, line ids)``: ``(chain, index)`` per piece, where consecutive pieces
        of one offset outline meet (a corner's arc and the offset edges on either side of
        it): such a meeting is smooth and is no vertex. ``(-1, -1)`` for the rest."""
        _, _, _, _, Ci, Li = self._outline
        return Ci, Li

    @cached_property
    def _pieces(self) -> tuple[Floats, Floats, Floats, Floats]:
        """The primitives and a bounding box ``(x0, y0, x1, y1)`` of each one's *piece* of the
        outline: an offset edge is a segment, a corner's circle an arc (boxed with its chord
        and sagitta), a round core's a whole circle; the table box's lines are unbounded.
        Every vertex of the region's outline lies on two pieces, so inside both boxes."""
        C, L, CB, LB, _, _ = self._outline
        return C, L, CB, LB

    @cached_property
    def _outline(self) -> tuple[Floats, Floats, Floats, Floats, Ints, Ints]:
        """:attr:`_pieces` and :attr:`_junctions`, worked out together."""
        x0, y0, x1, y1 = self.bounds
        empty = (np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 4)), np.zeros((0, 4)),
                 np.zeros((0, 3), dtype=int), np.zeros((0, 2), dtype=int))
        if not (x0 <= x1 and y0 <= y1):
            return empty
        hull = shapely.box(x0, y0, x1, y1)
        relevant = [(m[0], m[1]) for group in self.near for m in group]
        relevant += [(c, R) for group in self.near for m in group for c, R, _ in (m[2] if len(m) > 2 else ())]
        far = self._far_arrays
        if far is not None:  # (one vectorised call: the same verdicts as one call per core)
            cores, far_r, _ = far
            near = shapely.dwithin(cores, hull, far_r + 1e-9).tolist()  # type: ignore[call-overload]  # (stub: distance may be an array)
            relevant += [cr for cr, k in zip(self.far, near) if k]
        # (circles, circle boxes, lines, line boxes[, circle ids, line ids])
        parts: list[tuple[Optional[NDArray[np.float64 | np.intp]], ...]] = []
        pts = [(shapely.get_coordinates(c)[0], R) for c, R in relevant if shapely.get_type_id(c) == 0]
        if pts:
            xy = np.array([p for p, _ in pts], dtype=float)
            Rs = np.array([r for _, r in pts], dtype=float)
            parts.append((np.column_stack([xy, Rs]), np.column_stack([xy - Rs[:, None], xy + Rs[:, None]]), None, None))
        for core, R in relevant:
            kind = shapely.get_type_id(core)
            if kind in (3, 6):
                parts += [_ring_pieces(ring, R, outward=True) for ring in ccw_rings(core)]
            elif kind != 0:  # a line: both sides, a circle at every vertex
                parts += [_line_pieces(shapely.get_coordinates(part), R) for part in shapely.get_parts(core)]
        for poly, R in self.inside:
            parts += [_ring_pieces(ring, R, outward=False) for ring in _interior_left_rings(poly)]
        bx0, by0, bx1, by1 = self.box
        big = np.array([-np.inf, -np.inf, np.inf, np.inf])
        for n_, c in (((1, 0), bx0), ((0, 1), by0), ((1, 0), bx1), ((0, 1), by1)):
            if math.isfinite(c):
                parts.append((None, None, np.array([[n_[0], n_[1], c]], dtype=float), big[None, :]))

        def cat(k: int, w: int) -> Floats:
            got = [a for a in (p[k] for p in parts) if a is not None and len(a)]
            return np.concatenate(got) if got else np.zeros((0, w))

        def ids(k: int, n_of: int, w: int) -> Ints:  # (chain, edge slots...) per piece; chain -1: in no chain
            out = []
            for chain, p in enumerate(parts):
                a = p[n_of]
                n = len(a) if a is not None else 0
                if len(p) > 4:
                    out.append(np.column_stack([np.full(n, chain), np.asarray(p[k]).reshape(n, w - 1)]))
                else:
                    out.append(np.full((n, w), -1))
            return np.concatenate(out).astype(int) if out else np.zeros((0, w), dtype=int)

        C, CB, L, LB = cat(0, 3), cat(1, 4), cat(2, 3), cat(3, 4)
        Ci, Li = ids(4, 0, 3), ids(5, 2, 2)
        e = 1e-6  # keep what touches the bounds
        def meets(B: Floats) -> Bools:
            return (B[:, 0] <= x1 + e) & (B[:, 2] >= x0 - e) & (B[:, 1] <= y1 + e) & (B[:, 3] >= y0 - e)
        kc, kl = meets(CB), meets(LB)
        return C[kc], L[kl], CB[kc], LB[kl], Ci[kc], Li[kl]

    @cached_property
    def vertices(self) -> Floats:
        """Crossings of the outline's pieces that lie on the outline. Only pieces whose boxes
        meet can cross (an STRtree over the boxes finds those pairs: for crowded oval bases, a
        few thousand pieces with mostly their neighbours)."""
        C, L, CB, LB = self._pieces
        nc = len(C)
        B = np.concatenate([CB, LB])
        if len(B) < 2:
            return np.zeros((0, 2))
        x0, y0, x1, y1 = self.bounds
        Bc = np.column_stack([np.maximum(B[:, 0], x0 - 1), np.maximum(B[:, 1], y0 - 1),
                              np.minimum(B[:, 2], x1 + 1), np.minimum(B[:, 3], y1 + 1)]) + np.array([-1e-9, -1e-9, 1e-9, 1e-9])
        boxes = shapely.box(Bc[:, 0], Bc[:, 1], Bc[:, 2], Bc[:, 3])
        i, j = shapely.STRtree(boxes).query(boxes, predicate="intersects")
        keep = i < j
        i, j = i[keep], j[keep]
        if len(i) > MAX_PRIMITIVE_PAIRS:
            raise GeometryError(
                f"goal region too complex to search exactly ({len(C)} arcs and {len(L)} straight pieces "
                f"in its outline crossing in {len(i)} places; the limit is {MAX_PRIMITIVE_PAIRS})"
            )
        cc = (i < nc) & (j < nc)
        cl = (i < nc) & (j >= nc)
        ll = i >= nc
        # an arc and the offset edges it joins meet smoothly: no vertex there
        Ci, Li = self._junctions
        a, b = Ci[i[cl]], Li[j[cl] - nc]
        smooth = (a[:, 0] >= 0) & (a[:, 0] == b[:, 0]) & ((b[:, 1] == a[:, 1]) | (b[:, 1] == a[:, 2]))
        cl[np.nonzero(cl)[0][smooth]] = False
        pts = [circle_pair_intersections(C, i[cc], j[cc], 1e-12), _circle_line(C, L, i[cl], j[cl] - nc),
               _line_line(L, i[ll] - nc, j[ll] - nc)]
        allp = np.concatenate([p for p in pts if len(p)] or [np.zeros((0, 2))])
        if not len(allp):
            return allp
        # Only points on the outline are vertices: a crossing of two pieces strictly inside the
        # region (adjacent corner arcs of one polygon cross inside it) is no candidate end spot.
        s = self.slack(allp)
        return allp[(s >= -SLACK) & (s <= OUTLINE_SLACK)]

    def projections(self, v: ArrayLike) -> Floats:
        """The foot of ``v`` on every primitive (nearest point of each circle and line) that
        lies on that primitive's piece of the outline (within its box): a foot off its piece
        is never the region's nearest point to ``v`` — that is then a piece's end, a vertex."""
        v = np.asarray(v, dtype=float)
        C, L, CB, LB = self._pieces
        out = []
        e = 1e-9
        if len(C):
            d = v - C[:, :2]
            n = np.hypot(d[:, 0], d[:, 1])
            ok = n > 1e-15
            u = d[ok] / n[ok, None]
            f = C[ok, :2] + C[ok, 2:3] * u
            B = CB[ok]
            out.append(f[(f[:, 0] >= B[:, 0] - e) & (f[:, 0] <= B[:, 2] + e) & (f[:, 1] >= B[:, 1] - e) & (f[:, 1] <= B[:, 3] + e)])
        if len(L):
            t = L[:, 2] - L[:, :2] @ v
            f = v + t[:, None] * L[:, :2]
            out.append(f[(f[:, 0] >= LB[:, 0] - e) & (f[:, 0] <= LB[:, 2] + e) & (f[:, 1] >= LB[:, 1] - e) & (f[:, 1] <= LB[:, 3] + e)])
        return np.concatenate(out) if out else np.zeros((0, 2))


def _member_slack(geoms: Geoms, member: Member) -> Floats:
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


def _interior_left_rings(geom: BaseGeometry) -> Iterator[Floats]:
    """Every ring of a polygon's outline (holes too), oriented with the interior on the left."""
    for poly in shapely.get_parts(geom):
        ext = np.asarray(poly.exterior.coords)[:-1]
        yield ext if poly.exterior.is_ccw else ext[::-1]
        for hole in poly.interiors:
            h = np.asarray(hole.coords)[:-1]
            yield h[::-1] if hole.is_ccw else h


def _ring_pieces(ring: ArrayLike, R: float, outward: bool) -> Pieces:
    """The outline pieces of "at least R outside" (``outward``) or "at least R inside" a ring
    with its interior on the left: its edges offset by R (segments), and arcs round the corners
    that bulge that way (convex corners outside, reflex corners inside). Returns ``(circles,
    circle boxes, lines, line boxes, circle slots, line slots)``: an arc at vertex ``i`` joins
    edges ``i`` and ``i − 1``, edge ``i`` runs from vertex ``i`` to ``i + 1``."""
    v = np.asarray(ring, dtype=float)
    sign = 1.0 if outward else -1.0
    q = np.roll(v, -1, axis=0)
    e2 = q - v                          # edge i: v[i] -> v[i+1]
    e1 = np.roll(e2, 1, axis=0)         # the edge into v[i]
    Ln = np.hypot(e2[:, 0], e2[:, 1])
    n2 = np.column_stack([e2[:, 1], -e2[:, 0]]) / np.where(Ln > 0, Ln, 1)[:, None]   # outward normals
    n1 = np.roll(n2, 1, axis=0)
    cross = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]
    arc = sign * cross > 1e-15
    a, b = v[arc] + sign * R * n1[arc], v[arc] + sign * R * n2[arc]
    half = np.arccos(np.clip(np.einsum("ij,ij->i", n1[arc], n2[arc]), -1, 1)) / 2
    sag = R * (1 - np.cos(half))
    C = np.column_stack([v[arc], np.full(int(arc.sum()), R)])
    CB = np.column_stack([np.minimum(a, b) - sag[:, None], np.maximum(a, b) + sag[:, None]])
    seg = Ln > 0
    p0, p1 = v[seg] + sign * R * n2[seg], q[seg] + sign * R * n2[seg]
    L = np.column_stack([n2[seg], np.einsum("ij,ij->i", n2[seg], v[seg]) + sign * R])
    LB = np.column_stack([np.minimum(p0, p1), np.maximum(p0, p1)])
    k = np.arange(len(v))
    return C, CB, L, LB, np.column_stack([k[arc], (k[arc] - 1) % len(v)]), k[seg]


def _line_pieces(xy: ArrayLike, R: float) -> Pieces:
    """The outline pieces of "at least R from a line" (a wall): each segment offset by R on
    both sides, a circle round every vertex."""
    xy = np.asarray(xy, dtype=float)
    C = np.column_stack([xy, np.full(len(xy), R)])
    CB = np.column_stack([xy - R, xy + R])
    v, w = xy[:-1], xy[1:]
    d = w - v
    Ln = np.hypot(d[:, 0], d[:, 1])
    ok = Ln > 0
    v, w, d, Ln = v[ok], w[ok], d[ok], Ln[ok]
    n = np.column_stack([d[:, 1], -d[:, 0]]) / Ln[:, None]
    c = np.einsum("ij,ij->i", n, v)
    L = np.concatenate([np.column_stack([n, c + R]), np.column_stack([-n, -c + R])])
    boxes = []
    for s_ in (1.0, -1.0):
        p0, p1 = v + s_ * R * n, w + s_ * R * n
        boxes.append(np.column_stack([np.minimum(p0, p1), np.maximum(p0, p1)]))
    k = np.arange(len(xy))
    segs = np.nonzero(ok)[0]
    return C, CB, L, np.concatenate(boxes), np.column_stack([k, k - 1]), np.concatenate([segs, segs])


def _circle_line(C: Floats, L: Floats, i: Ints, j: Ints) -> Floats:
    """Crossings of circles ``C[i]`` with lines ``L[j]`` (pairwise)."""
    if not len(i):
        return np.zeros((0, 2))
    c, r, n, k = C[i, :2], C[i, 2], L[j, :2], L[j, 2]
    s = k - np.einsum("ij,ij->i", n, c)  # signed distance centre → line
    ok = np.abs(s) <= r + 1e-12
    c, r, n, s = c[ok], r[ok], n[ok], s[ok]
    foot = c + s[:, None] * n
    h = np.sqrt(np.clip(r**2 - s**2, 0, None))
    t = np.column_stack([-n[:, 1], n[:, 0]])
    return np.concatenate([foot + h[:, None] * t, foot - h[:, None] * t])


def _line_line(L: Floats, i: Ints, j: Ints) -> Floats:
    """Crossings of lines ``L[i]`` with lines ``L[j]`` (pairwise)."""
    if not len(i):
        return np.zeros((0, 2))
    a1, b1, c1 = L[i].T
    a2, b2, c2 = L[j].T
    det = a1 * b2 - a2 * b1
    ok = np.abs(det) > 1e-12
    x = (c1[ok] * b2[ok] - c2[ok] * b1[ok]) / det[ok]
    y = (a1[ok] * c2[ok] - a2[ok] * c1[ok]) / det[ok]
    return np.column_stack([x, y])
