"""Small planar primitives shared by the movement-space modules."""

from __future__ import annotations

import math
from typing import Iterator

import numpy as np
import shapely

from .arrays import Floats, Ints

#: Where a corner lies on its outline (:func:`corner_arcs`): the outline's vertices, the
#: corner's index among them, and whether the outline is closed.
Rest = tuple[Floats, int, bool]


def ccw_rings(geom: shapely.Geometry) -> Iterator[Floats]:
    """The exterior ring of each polygon of ``geom``, counter-clockwise, without the repeated
    closing vertex."""
    for poly in shapely.get_parts(geom):
        ring = np.asarray(poly.exterior.coords)[:-1]
        yield ring if poly.exterior.is_ccw else ring[::-1]


def corner_arcs(geom: shapely.Geometry) -> Iterator[tuple[Floats, float, float, Rest]]:
    """The corners of ``geom`` a grown copy of it rounds with an arc: ``(vertex, lo, span,
    rest)`` for each, the arc's outward normals running counter-clockwise from angle ``lo``
    through ``span``, and ``rest = (coords, i, closed)`` locating the vertex on its outline.

    A polygon (filled) has an arc at each convex corner of its exterior. A line (a wall, seen
    from both sides) has one at each bend, on the outer side of the turn, and a half turn
    round each end of an open line.
    """
    if shapely.get_type_id(geom) in (3, 6):
        for ring in ccw_rings(geom):
            xy = ring.tolist()  # (Python floats: the same arithmetic, vertex by vertex, faster)
            n = len(xy)
            for i in range(n):
                (px, py), (vx, vy), (qx, qy) = xy[i - 1], xy[i], xy[(i + 1) % n]
                e1x, e1y, e2x, e2y = vx - px, vy - py, qx - vx, qy - vy
                if e1x * e2y - e1y * e2x <= 1e-15:
                    continue  # concave or flat: a shortest path never wraps it
                a1 = math.atan2(-e1x, e1y)  # outward normal of p→v (CCW ring)
                a2 = math.atan2(-e2x, e2y)
                yield ring[i], a1, (a2 - a1) % (2 * math.pi), (ring, i, True)
        return
    for line in shapely.get_parts(geom):
        xy = np.asarray(shapely.get_coordinates(line))
        closed = len(xy) > 3 and bool(np.all(xy[0] == xy[-1]))
        if closed:
            xy = xy[:-1]
        n = len(xy)
        if n < 2:
            continue
        for i in range(n):
            v = xy[i]
            if not closed and i in (0, n - 1):
                d = xy[1] - xy[0] if i == 0 else xy[-1] - xy[-2]
                a = math.atan2(d[1], d[0])
                yield v, (a + math.pi / 2) if i == 0 else (a - math.pi / 2), math.pi, (xy, i, closed)
                continue
            e1, e2 = v - xy[i - 1], xy[(i + 1) % n] - v
            cross, dot = e1[0] * e2[1] - e1[1] * e2[0], e1 @ e2
            turn = math.atan2(cross, dot)
            if abs(cross) <= 1e-15 and dot > 0:
                continue  # straight on: no corner
            if turn >= 0:  # a left turn (or a U-turn): the right side is the outer one
                yield v, math.atan2(e1[1], e1[0]) - math.pi / 2, turn, (xy, i, closed)
            else:
                yield v, math.atan2(e2[1], e2[0]) + math.pi / 2, -turn, (xy, i, closed)


def outline_edges(coords: Floats, i: int, closed: bool) -> Floats:
    """The edges of an outline (``(m, 2, 2)``: start and end points) other than the one or two
    meeting at vertex ``i``."""
    n = len(coords)
    if closed:
        edges = np.stack([coords, np.roll(coords, -1, axis=0)], axis=1)
        drop = [(i - 1) % n, i]
    else:
        edges = np.stack([coords[:-1], coords[1:]], axis=1)
        drop = [j for j in (i - 1, i) if 0 <= j < n - 1]
    keep = np.ones(len(edges), dtype=bool)
    keep[drop] = False
    return edges[keep]


def circle_intersections(C: Floats, tol: float = 0.0) -> Floats:
    """The crossing points of every pair of circles ``C[i] = (x, y, R)`` (an ``(n, 2)`` array).

    ``tol`` admits pairs that are tangent or nested up to that slack (their crossing then
    collapses to the tangent point).
    """
    if len(C) < 2:
        return np.zeros((0, 2))
    i, j = np.triu_indices(len(C), 1)
    return circle_pair_intersections(C, i, j, tol)


def circle_pair_intersections(C: Floats, i: Ints, j: Ints, tol: float = 0.0) -> Floats:
    """The crossing points of the circle pairs ``(C[i[k]], C[j[k]])`` (see
    :func:`circle_intersections`)."""
    if not len(i):
        return np.zeros((0, 2))
    p, q, r1, r2 = C[i, :2], C[j, :2], C[i, 2], C[j, 2]
    d = np.hypot(*(q - p).T)
    ok = (d > 1e-15) & (d <= r1 + r2 + tol) & (d >= np.abs(r1 - r2) - tol)
    p, q, r1, r2, d = p[ok], q[ok], r1[ok], r2[ok], d[ok]
    a = (d**2 + r1**2 - r2**2) / (2 * d)
    h = np.sqrt(np.clip(r1**2 - a**2, 0, None))
    u = (q - p) / d[:, None]
    w = np.column_stack([-u[:, 1], u[:, 0]])
    m = p + a[:, None] * u
    return np.concatenate([m + h[:, None] * w, m - h[:, None] * w])
