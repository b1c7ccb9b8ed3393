"""The reference for the path benchmark: shortest paths among convex polygons, and the polygons.

Independent of tapeline's own path code (no tangent circles, no arcs): each grown obstacle is
replaced by a convex polygon lying *inside* it or *containing* it within a stated Hausdorff
distance δ (:func:`grown_polygons`), and the exact shortest path among those polygons is found
on a reduced visibility graph (:func:`polygon_shortest`). Shrinking every obstacle can only
shorten the shortest path and growing every obstacle can only lengthen it, so the two lengths
bracket the true length: ``L(inside) ≤ L* ≤ L(containing)``.

The visibility graph is reduced with the one fact that makes it cheap at a million vertices: a
shortest path among convex obstacles bends only at obstacle vertices and each of its segments
either runs along an obstacle's edge or lies on a line supporting both obstacles it joins (a
common tangent) or on a tangent from the start or goal. So its edges are the polygons' own edges,
the four common tangents of every pair of polygons (roots of a support-function equation,
bracketed on a grid and bisected; the touching vertex and its neighbours on each side are all
kept, so a tangent lying along an edge is not lost), the tangents from the two end points and the
straight start–goal segment — each kept only when it enters no polygon's interior. Extra clear
edges never spoil Dijkstra; only a missing one could, and :mod:`benchmarks.bench_paths` checks
this solver against pyvisgraph and extremitypathfinder on the peers' own polygons.
"""

from __future__ import annotations

import math
from typing import Sequence

import networkx as nx
import numpy as np
import shapely

#: Interior test slack: a polygon is shrunk by this much before "does the segment enter it"
#: (a tangent computed in floating point must count as clear). It changes lengths by far less
#: than the δ of any bracket used here.
SLACK = 1e-10
_GRID = 4096


def segments_for(radius: float, delta: float, outside: bool) -> int:
    """The number of sides (a multiple of 4) of a regular polygon within ``delta`` of a circle
    of ``radius``: circumscribed, ``r(1/cos(π/n) − 1) ≤ δ``; inscribed, ``r(1 − cos(π/n)) ≤ δ``."""
    a = math.acos(radius / (radius + delta)) if outside else math.acos(1.0 - delta / radius)
    return 4 * math.ceil(math.pi / a / 4)


def _ngon(radius: float, n: int, outside: bool) -> np.ndarray:
    t = (np.arange(n) + 0.5) * 2 * math.pi / n
    g = radius / math.cos(math.pi / n) if outside else radius
    return np.column_stack([g * np.cos(t), g * np.sin(t)])


def grown_polygons(rects: Sequence, discs: Sequence, disc_r: float, rho: float, delta: float,
                   outside: bool) -> list:
    """Every obstacle grown by ``rho`` as a convex polygon within ``delta`` of the true grown
    outline: containing it (``outside``) or inside it. A footprint ``P`` grown by ρ is the
    Minkowski sum ``P ⊕ disc(ρ)``; ``P ⊕ n-gon`` (the convex hull of every corner plus the
    n-gon) is within the n-gon's distance of it. A base of radius ``r`` grows to a disc of
    radius ``r + ρ``."""
    out = []
    for r in rects:
        q = _ngon(rho, segments_for(rho, delta, outside), outside)
        v = shapely.get_coordinates(r)[:-1]
        out.append(shapely.convex_hull(shapely.multipoints((v[:, None, :] + q[None]).reshape(-1, 2))))
    big = disc_r + rho
    for d in discs:
        q = _ngon(big, segments_for(big, delta, outside), outside)
        out.append(shapely.Polygon(q + [d.x, d.y]))
    return out


class _Convex:
    """A convex polygon's vertices (counter-clockwise) and its support function."""

    def __init__(self, poly):
        v = shapely.get_coordinates(shapely.geometry.polygon.orient(poly, 1).exterior)[:-1]
        e = np.roll(v, -1, axis=0) - v
        phi = np.arctan2(e[:, 1], e[:, 0]) - math.pi / 2  # outward normal of edge i (v[i] → v[i+1])
        k = int(np.argmin(np.mod(phi, 2 * math.pi)))
        self.v = np.roll(v, -k, axis=0)
        self.phi = np.unwrap(np.roll(np.mod(phi, 2 * math.pi), -k))  # ascending from [0, 2π)

    def support(self, th: np.ndarray) -> np.ndarray:
        """Index of the vertex touching the supporting line of outward normal angle ``th``."""
        t = np.mod(th - self.phi[0], 2 * math.pi) + self.phi[0]
        return (np.searchsorted(self.phi, t) % len(self.v)).astype(np.int64)

    def h(self, th: np.ndarray) -> np.ndarray:
        i = self.support(th)
        return self.v[i, 0] * np.cos(th) + self.v[i, 1] * np.sin(th)


def _roots(f, n: int = _GRID) -> np.ndarray:
    th = np.linspace(0, 2 * math.pi, n, endpoint=False)
    y = f(th)
    chg = np.nonzero(np.sign(y) != np.sign(np.roll(y, -1)))[0]
    lo, hi = th[chg], th[chg] + 2 * math.pi / n
    flo = y[chg]
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        fm = f(mid)
        same = np.sign(fm) == np.sign(flo)
        lo, flo, hi = np.where(same, mid, lo), np.where(same, fm, flo), np.where(same, hi, mid)
    return 0.5 * (lo + hi)


class PolygonMap:
    """Convex polygonal obstacles with their reduced visibility graph (built once)."""

    def __init__(self, polys: Sequence):
        self.polys = [_Convex(p) for p in polys]
        self.off = np.cumsum([0] + [len(p.v) for p in self.polys])
        self.xy = np.vstack([p.v for p in self.polys])
        shrunk = shapely.buffer(np.array(list(polys), dtype=object), -SLACK, join_style="mitre")
        shapely.prepare(shrunk)
        self.shrunk = shrunk
        self.tree = shapely.STRtree(shrunk)
        # vertices strictly inside another polygon are no graph nodes
        self.owner = np.repeat(np.arange(len(self.polys)), np.diff(self.off))
        pi, qi = self.tree.query(shapely.points(self.xy), predicate="within")
        self.inside = np.zeros(len(self.xy), bool)
        self.inside[pi[self.owner[pi] != qi]] = True
        i0, i1 = [], []
        for k, p in enumerate(self.polys):  # the polygons' own edges
            idx = np.arange(self.off[k], self.off[k + 1])
            i0.append(idx)
            i1.append(np.roll(idx, -1))
        for a in range(len(self.polys)):  # common tangents of every pair
            for b in range(a + 1, len(self.polys)):
                A, B = self.polys[a], self.polys[b]
                outer = _roots(lambda t: A.h(t) - B.h(t))  # both on one side of the line
                inner = _roots(lambda t: A.h(t) + B.h(t + math.pi))  # the line between them
                ia = A.support(np.concatenate([outer, inner]))
                ib = B.support(np.concatenate([outer, inner + math.pi]))
                for da in (-1, 0, 1):
                    for db in (-1, 0, 1):
                        i0.append(self.off[a] + (ia + da) % len(A.v))
                        i1.append(self.off[b] + (ib + db) % len(B.v))
        i0, i1 = np.concatenate(i0), np.concatenate(i1)
        ok = self._clear(self.xy[i0], self.xy[i1]) & ~self.inside[i0] & ~self.inside[i1]
        self.graph = nx.Graph()
        w = np.hypot(*(self.xy[i1] - self.xy[i0]).T)
        self.graph.add_weighted_edges_from(zip(i0[ok].tolist(), i1[ok].tolist(), w[ok].tolist()))

    def _clear(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        segs = shapely.linestrings(np.stack([a, b], axis=1))
        si, _ = self.tree.query(segs, predicate="intersects")
        ok = np.ones(len(a), bool)
        ok[si] = False
        return ok

    def _tangents(self, p) -> tuple[np.ndarray, np.ndarray]:
        """Vertices ``v`` where the segment ``p → v`` is locally tangent (both neighbours of
        ``v`` on one side of it, or on it), among vertices outside other polygons."""
        v = self.xy
        idx = np.arange(len(v))
        owner = self.owner
        nxt = np.where(idx + 1 == self.off[owner + 1], self.off[owner], idx + 1)
        prv = np.where(idx == self.off[owner], self.off[owner + 1] - 1, idx - 1)
        d = v - np.asarray(p, float)
        c1 = d[:, 0] * (v[nxt, 1] - v[:, 1]) - d[:, 1] * (v[nxt, 0] - v[:, 0])
        c2 = d[:, 0] * (v[prv, 1] - v[:, 1]) - d[:, 1] * (v[prv, 0] - v[:, 0])
        tan = (c1 * c2 >= 0) & ~self.inside
        k = np.nonzero(tan)[0]
        ok = self._clear(np.repeat(np.asarray(p, float)[None], len(k), axis=0), v[k])
        return k[ok], np.hypot(*d[k[ok]].T)

    def shortest(self, a, b) -> tuple[float, list]:
        """Length and vertices of the shortest path from ``a`` to ``b`` (``inf`` if none)."""
        a, b = (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))
        if self._clear(np.array([a]), np.array([b]))[0]:
            return math.dist(a, b), [a, b]
        G = self.graph
        ka, wa = self._tangents(a)
        kb, wb = self._tangents(b)
        G.add_weighted_edges_from([("S", int(k), float(w)) for k, w in zip(ka, wa)])
        G.add_weighted_edges_from([("T", int(k), float(w)) for k, w in zip(kb, wb)])
        try:
            length, route = nx.single_source_dijkstra(G, "S", "T")
        except nx.NetworkXNoPath:
            length, route = math.inf, []
        finally:
            G.remove_nodes_from(["S", "T"])
        pts = [a] + [tuple(self.xy[n]) for n in route[1:-1]] + [b] if route else []
        return float(length), pts


def polygon_shortest(polys: Sequence, pairs: Sequence) -> list[float]:
    """Shortest path lengths among convex ``polys`` for each ``(start, goal)``."""
    m = PolygonMap(polys)
    return [m.shortest(a, b)[0] for a, b in pairs]
