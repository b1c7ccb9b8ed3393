"""Independent brute-force helpers for the StarCraft audit tests (tests/audit/test_sc_*.py).

Nothing here imports tapeline: shortest paths are worked out on a visibility graph over
polygons that *circumscribe* the true grown obstacles (so every length is an upper bound on the
true shortest path to that spot, within about 1e-3" of it), and "Size 2+ terrain between two
bases" is decided exactly for a convex piece touching neither base: the piece cuts the convex
hull of the two discs in two iff it meets both of the hull's straight sides (the external
common tangent segments)."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import shapely

R32, R40, R50 = 32 / 25.4 / 2, 40 / 25.4 / 2, 50 / 25.4 / 2


def rounded_rect(x0, y0, x1, y1, rho, n=16):
    """The rectangle grown by ``rho``; each quarter arc replaced by a circumscribed polyline."""
    k = 1 / math.cos(math.pi / (4 * n))
    pts = []
    for cx, cy, a0 in ((x1, y0, -90), (x1, y1, 0), (x0, y1, 90), (x0, y0, 180)):
        for i in range(n + 1):
            a = math.radians(a0 + 90 * i / n)
            pts.append((cx + rho * k * math.cos(a), cy + rho * k * math.sin(a)))
    return shapely.Polygon(pts)


def disc(c, r, n=64):
    """A circumscribed ``n``-gon of the disc (never smaller than it)."""
    k = 1 / math.cos(math.pi / n)
    return shapely.Polygon([(c[0] + r * k * math.cos(2 * math.pi * i / n), c[1] + r * k * math.sin(2 * math.pi * i / n))
                            for i in range(n)])


class Paths:
    """Shortest path lengths from ``start`` round polygonal obstacles (visibility graph)."""

    def __init__(self, start, obstacles):
        self.inner = shapely.buffer(shapely.union_all(obstacles), -1e-7)
        shapely.prepare(self.inner)
        nodes = np.array([tuple(start)] + [tuple(c) for ob in obstacles for c in np.asarray(ob.exterior.coords)[:-1]])
        I, J = np.triu_indices(len(nodes), 1)
        ok = self._clear(nodes[I], nodes[J])
        G = nx.Graph()
        for i, j in zip(I[ok], J[ok]):
            G.add_edge(int(i), int(j), weight=float(np.hypot(*(nodes[i] - nodes[j]))))
        D = nx.single_source_dijkstra_path_length(G, 0)
        idx = np.array(sorted(D))
        self.nodes, self.dist = nodes[idx], np.array([D[i] for i in idx])

    def _clear(self, a, b):
        return ~shapely.intersects(shapely.linestrings(np.stack([a, b], axis=1)), self.inner)

    def to(self, ends):
        ends = np.asarray(ends, float).reshape(-1, 2)
        out = np.full(len(ends), np.inf)
        k = len(self.nodes)
        step = max(1, 40000 // k)
        for lo in range(0, len(ends), step):
            E = ends[lo:lo + step]
            a, b = np.tile(self.nodes, (len(E), 1)), np.repeat(E, k, axis=0)
            ok = self._clear(a, b).reshape(len(E), k)
            L = self.dist[None, :] + np.hypot(*(a - b).T).reshape(len(E), k)
            out[lo:lo + step] = np.where(ok, L, np.inf).min(axis=1)
        return out


def separated(P, r1, c2, r2, piece):
    """For every centre in ``P``: does the convex ``piece`` cut the hull of the disc (P, r1) and
    the disc (c2, r2) in two (both external tangent segments meet it)?"""
    P = np.asarray(P, float).reshape(-1, 2)
    c2 = np.asarray(c2, float)
    d = c2[None, :] - P
    D = np.hypot(d[:, 0], d[:, 1])
    th, be = np.arctan2(d[:, 1], d[:, 0]), np.arccos((r1 - r2) / D)
    hit = np.ones(len(P), dtype=bool)
    for s in (1, -1):
        n = np.column_stack([np.cos(th + s * be), np.sin(th + s * be)])
        seg = shapely.linestrings(np.stack([P + r1 * n, c2[None, :] + r2 * n], axis=1))
        hit &= shapely.intersects(seg, piece)
    return hit


def grid(x0, x1, y0, y1, h):
    X, Y = np.meshgrid(np.arange(x0, x1 + h / 2, h), np.arange(y0, y1 + h / 2, h))
    return np.column_stack([X.ravel(), Y.ravel()])


def binomial(n: int, p: float) -> list[float]:
    return [math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def convolve(a, b) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out
