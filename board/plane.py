"""Small planar primitives shared by the movement-space modules."""

from __future__ import annotations

from typing import Iterator

import numpy as np
import shapely


def ccw_rings(geom: shapely.Geometry) -> Iterator[np.ndarray]:
    """The exterior ring of each polygon of ``geom``, counter-clockwise, without the repeated
    closing vertex."""
    for poly in shapely.get_parts(geom):
        ring = np.asarray(poly.exterior.coords)[:-1]
        yield ring if poly.exterior.is_ccw else ring[::-1]


def circle_intersections(C: np.ndarray, tol: float = 0.0) -> np.ndarray:
    """The crossing points of every pair of circles ``C[i] = (x, y, R)`` (an ``(n, 2)`` array).

    ``tol`` admits pairs that are tangent or nested up to that slack (their crossing then
    collapses to the tangent point).
    """
    if len(C) < 2:
        return np.zeros((0, 2))
    i, j = np.triu_indices(len(C), 1)
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
