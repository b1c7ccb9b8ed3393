"""Shadows of convex obstacles lit by a disc: where a disc is wholly hidden from another.

The *umbra* of a convex obstacle ``W`` lit by a disc ``L`` is the set of points ``x`` such that
every segment from ``x`` to a point of ``L`` meets ``W``. It is convex (if ``[x1, y]`` and
``[x2, y]`` both meet ``W``, every segment from their convex combination to ``y`` crosses the
piece of ``W`` between the two hits) and, for ``W`` disjoint from ``L``, bounded by the lit
side of ``W`` and the two *external* common tangent lines of ``L`` and ``W`` (the lines that
touch both with both on the same side), running away from ``L``; they meet at an apex when
``W`` is narrower than ``L``.

A disc of radius ``r`` centred at ``p`` is wholly in the umbra exactly when ``p`` lies in the
umbra shrunk by ``r`` (its erosion, a convex polygon bounded by the tangent lines moved inwards
by ``r``): :func:`hidden_centres`. Two discs are then separated by ``W`` in the strongest sense
— every segment from one to the other meets ``W`` — which, for a convex ``W`` touching neither
disc, is the same as ``W`` cutting the convex hull of the two discs in two (both hull sides
cross ``W``).

Only the tangent lines need to be exact: the lit side of ``W`` is replaced by the chord between
the two tangent points, which lies inside ``W`` (a centre that close to it puts its disc
overlapping ``W`` anyway).

A long wall above a disc: the shadow widens past the wall's ends. Its right side is the
tangent line from the light disc ``((0, 0), 0.5)`` through the wall's corner ``(5, 1)``, the line
``n·p = 0.5`` with ``n = (cos a, sin a)``, ``5 cos a + sin a = 0.5`` (``a ≈ −73.06°``). A disc of
radius 0.5 is wholly hidden when its centre keeps 0.5 inside it, ``n·p ≤ 0``: at ``y = 2``, for
``x ≤ −2 sin a / cos a ≈ 6.567``. So a centre at ``x = 5.5``, beyond the wall's end, is hidden,
and one at ``x = 7`` is not:

>>> import shapely
>>> S = hidden_centres(shapely.box(-5, 1, 5, 1.2), (0, 0), 0.5, 0.5)
>>> [S.contains(shapely.Point(x, 2.0)) for x in (0.0, 5.5, 7.0)]
[True, True, False]
"""

from __future__ import annotations

import math
from typing import Optional, Sequence, Union, cast

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from .arrays import Floats

#: How far (inches) an unbounded umbra is followed along its tangent lines.
FAR = 1000.0


def _tangent_lines_polygon(ring: Floats, q: Floats, rt: float) -> list[tuple[Floats, Floats]]:
    """The external common tangents of the disc ``(q, rt)`` and the convex polygon ``ring``:
    ``(contact points on the polygon, direction away from the disc)`` per line."""
    out: dict[tuple[float, float], tuple[list[Floats], Floats]] = {}
    for v in ring:
        dv = v - q
        D = math.hypot(*dv)
        if D <= rt + 1e-12:
            return []
        th, al = math.atan2(dv[1], dv[0]), math.acos(rt / D)
        for s in (1.0, -1.0):
            n = np.array([math.cos(th + s * al), math.sin(th + s * al)])
            t = q + rt * n
            c = float(n @ t)
            if np.all(ring @ n <= c + 1e-9):          # the polygon on the disc's side: external
                d = v - t
                d = d / math.hypot(*d)
                key = (round(float(n[0]), 7), round(float(n[1]), 7))
                pts, _ = out.setdefault(key, ([], d))
                pts.append(v)
    return [(np.array(p), d) for p, d in out.values()]


def _tangent_lines_circle(c: Floats, rw: float, q: Floats, rt: float) -> list[tuple[Floats, Floats]]:
    dv = c - q
    D = math.hypot(*dv)
    if D <= rt + rw + 1e-12 or D <= abs(rt - rw):
        return []
    th, be = math.atan2(dv[1], dv[0]), math.acos((rt - rw) / D)
    out = []
    for s in (1.0, -1.0):
        n = np.array([math.cos(th + s * be), math.sin(th + s * be)])
        tq, tw = q + rt * n, c + rw * n
        d = tw - tq
        out.append((tw[None, :], d / math.hypot(*d)))
    return out


def umbra(obstacle: Union[shapely.Polygon, tuple[float, float, float]], light: Sequence[float], light_r: float) -> Optional[BaseGeometry]:
    """The umbra of a convex obstacle lit by the disc ``(light, light_r)``, as a convex polygon
    followed :data:`FAR` inches along unbounded sides (the lit side replaced by a chord inside
    the obstacle; the hull of its points, which is a segment, of no area, where they are in
    line). ``obstacle`` is a convex shapely polygon or a circle ``(x, y, r)``.
    ``None`` when the obstacle meets the disc (no umbra worth the name)."""
    q = np.asarray(light, dtype=float)
    if isinstance(obstacle, tuple):
        lines = _tangent_lines_circle(np.array(obstacle[:2], dtype=float), float(obstacle[2]), q, light_r)
    else:
        ring = np.asarray(obstacle.exterior.coords)[:-1]
        lines = _tangent_lines_polygon(ring, q, light_r)
    if len(lines) != 2:
        return None
    (pa, da), (pb, db) = lines
    # the two tangent lines' contact points farthest along each: do they meet beyond them?
    va = pa[np.argmax(pa @ da)]
    vb = pb[np.argmax(pb @ db)]
    M = np.column_stack([da, -db])
    pts = [*pa, *pb]
    if abs(np.linalg.det(M)) > 1e-12:
        s, t = np.linalg.solve(M, vb - va)
        if s > 0 and t > 0:
            pts.append(va + s * da)
            return cast(BaseGeometry, shapely.convex_hull(shapely.multipoints(np.array(pts))))
    pts += [va + FAR * da, vb + FAR * db]
    return cast(BaseGeometry, shapely.convex_hull(shapely.multipoints(np.array(pts))))


def hidden_centres(obstacle: Union[shapely.Polygon, tuple[float, float, float]], light: Sequence[float], light_r: float,
                   r: float) -> Optional[shapely.Polygon]:
    """Centres ``p`` at which a disc of radius ``r`` is wholly in the umbra of the convex
    ``obstacle`` lit by the disc ``(light, light_r)``: every segment between the two discs
    meets the obstacle. A convex polygon (the umbra eroded by ``r``; exact: the erosion of a
    convex polygon is bounded by its edge lines moved inwards), or ``None`` when empty."""
    U = umbra(obstacle, light, light_r)
    if U is None or U.is_empty or U.area <= 0:
        return None
    S = shapely.buffer(U, -r, join_style="mitre")
    if S.is_empty or S.area <= 0:
        return None
    if S.geom_type != "Polygon":  # a convex polygon's erosion is convex: one part
        S = max(shapely.get_parts(S), key=lambda g: g.area)
    return S
