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


def contact_bound(r, free_starts, pinned, enemies, blockers=(), keep_away=(), walls=(), table=(24.0, 24.0),
                  coherency=4.0, move=3.0, step_deg=1.0) -> int:
    """An upper bound on how many models of a unit can end in base contact with ``enemies``
    (``(x, y, R)``) after Close Ranks: ``pinned`` of them already are; each of the others
    (``free_starts``, bases of radius ``r``) may end on a contact ring. Relaxed, so that it is
    a true bound: the Leading Model within ``move`` of its start in a straight line, the rest
    wholly within ``coherency`` of it, coherency links and "ends closer" ignored; the rings are
    sampled every ``step_deg`` and every test is loosened by the sampling error (a sampled spot
    lies within ``delta`` of any true spot, so no true configuration is lost). ``blockers``:
    bases nothing may overlap (pinned models, other units); ``keep_away``: bases nothing may
    end within 1" of; ``walls``: footprints nothing may overlap."""
    delta = max(R + r for _, _, R in enemies) * math.radians(step_deg) / 2
    C = np.array([(x + (R + r) * math.cos(a), y + (R + r) * math.sin(a))
                  for x, y, R in enemies for a in np.radians(np.arange(0, 360, step_deg))])
    ok = (C[:, 0] >= r - delta) & (C[:, 1] >= r - delta) & (C[:, 0] <= table[0] - r + delta) & (C[:, 1] <= table[1] - r + delta)
    for x, y, R in list(enemies) + list(blockers):
        ok &= np.hypot(C[:, 0] - x, C[:, 1] - y) >= R + r - 1e-6 - delta
    for x, y, R in keep_away:
        ok &= np.hypot(C[:, 0] - x, C[:, 1] - y) > R + r + 1.0 - delta
    for w in walls:
        ok &= shapely.distance(w, shapely.points(C)) >= r - 1e-6 - delta
    C = C[ok]
    D = np.hypot(C[:, None, 0] - C[None, :, 0], C[:, None, 1] - C[None, :, 1])
    fits = D >= 2 * r - 1e-6 - 2 * delta
    np.fill_diagonal(fits, False)
    masks = [sum(1 << int(j) for j in np.nonzero(row)[0]) for row in fits]

    def packs(allowed: int, k: int) -> bool:          # k pairwise compatible spots in ``allowed``?
        if k <= 0:
            return True
        if bin(allowed).count("1") < k:
            return False
        while allowed:
            i = allowed.bit_length() - 1
            allowed &= ~(1 << i)
            if packs(allowed & masks[i], k - 1):
                return True
        return False

    starts = np.array(free_starts, dtype=float).reshape(-1, 2)
    n = len(starts)
    for want in range(n, 0, -1):                       # the Leading Model in contact, want − 1 more
        for s in starts:
            for i in np.nonzero(np.hypot(*(C - s).T) <= move + delta)[0]:
                near = fits[i] & (D[i] <= coherency + 2 * delta)
                if packs(sum(1 << int(j) for j in np.nonzero(near)[0]), want - 1):
                    return pinned + want
        # the Leading Model not in contact: want others (at most n − 1) round some spot
        if want <= n - 1 and any(packs(sum(1 << int(j) for j in np.nonzero(np.hypot(*(C - s).T) <= move + coherency + 2 * delta)[0]), want)
                                 for s in starts):
            return pinned + want
    return pinned
