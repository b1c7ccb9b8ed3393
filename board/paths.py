"""Exact shortest paths for a moving model's centre: tangent graph + Dijkstra (networkx).

In configuration space (:mod:`board.space`) every obstacle is a union of discs (round bases,
round pieces, and the corners of grown footprints) and straight strips. A shortest path is
made of straight segments tangent to those circles and pieces of arc along them
(notes/exact-geometry.md §2). :class:`Reach` builds, once per start point:

* every common tangent of two circles (two outer, two inner) and every tangent from the start,
  kept when it is clear of every grown obstacle and the table edge (one vectorised shapely
  distance query), and when its ends lie in their corner's normal cone;
* an arc edge between consecutive tangent points on each circle, kept when the arc is clear
  (:meth:`board.space.Space.arc_clear`);

then Dijkstra gives lengths exact to floating point. A goal point adds its own tangents; a goal
*region* (:class:`board.regions.Region`) adds the tangent points its outline calls for and is
reached from every graph node by a straight leg to the nearest candidate point of the region.

>>> import math, shapely
>>> from board.space import Space, Obstacle
>>> s = Space(20, 20, 0.5, [Obstacle("rock", "terrain", shapely.Point(10, 10), 1.0)])
>>> p = shortest_path(s, (6, 10), (14, 10))          # tangent, arc, tangent
>>> round(p.length, 9) == round(2 * math.sqrt(15) + math.pi - 2 * math.acos(0.25), 9)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

import networkx as nx
import numpy as np

from .errors import GeometryError
from .regions import Region
from .space import TOL, Space

#: Largest outward bulge (inches) of the polyline standing in for an arc in :meth:`Path.points`.
#: The polyline circumscribes the arc (its corners lie outside the circle), so it stays clear
#: of the obstacle the arc wraps; its length exceeds the arc's by about ``2/3 · bulge`` per
#: radian.
ARC_BULGE = 1e-4


@dataclass(frozen=True)
class Leg:
    """A straight piece ``a → b`` or an arc around ``centre`` of radius ``r`` from angle
    ``a0`` through ``sweep`` radians (positive: counter-clockwise)."""

    kind: str
    a: tuple
    b: tuple
    centre: tuple = (0.0, 0.0)
    r: float = 0.0
    a0: float = 0.0
    sweep: float = 0.0

    @property
    def length(self) -> float:
        if self.kind == "line":
            return math.dist(self.a, self.b)
        return abs(self.sweep) * self.r

    def reversed(self) -> "Leg":
        if self.kind == "line":
            return Leg("line", self.b, self.a)
        return Leg("arc", self.b, self.a, self.centre, self.r, self.a0 + self.sweep, -self.sweep)

    def points(self, bulge: float = ARC_BULGE) -> list[tuple]:
        """The leg as polyline vertices after ``a`` (a circumscribed polyline for an arc)."""
        if self.kind == "line" or abs(self.sweep) < 1e-12:
            return [self.b]
        ratio = 1.0 / (1.0 + bulge / self.r)
        step = 2 * math.acos(ratio)
        n = max(1, math.ceil(abs(self.sweep) / step - 1e-12))
        d = self.sweep / n
        R = self.r / math.cos(d / 2)
        cx, cy = self.centre
        mids = [(cx + R * math.cos(self.a0 + (i + 0.5) * d), cy + R * math.sin(self.a0 + (i + 0.5) * d)) for i in range(n)]
        return mids + [self.b]


@dataclass(frozen=True)
class Path:
    """A path for the moving centre: its legs, exact length, and ends."""

    start: tuple
    legs: tuple
    length: float

    @property
    def end(self) -> tuple:
        return self.legs[-1].b if self.legs else self.start

    def points(self, bulge: float = ARC_BULGE) -> list[tuple]:
        """Polyline vertices from start to end (arcs circumscribed, see :data:`ARC_BULGE`)."""
        out = [tuple(self.start)]
        for leg in self.legs:
            out.extend(leg.points(bulge))
        return [(float(x), float(y)) for x, y in out]

    def reversed(self) -> "Path":
        return Path(self.end, tuple(l.reversed() for l in reversed(self.legs)), self.length)


def _unit(a):
    return np.cos(a), np.sin(a)


class Reach:
    """Shortest paths from ``start`` through ``space`` (graph built once, reused per goal)."""

    def __init__(self, space: Space, start: Sequence[float]):
        self.space = space
        self.start = (float(start[0]), float(start[1]))
        m, w = space.point_margin([self.start])
        if m[0] < -TOL:
            kind, ident = space.describe(int(w[0]))
            raise GeometryError(f"the start ({self.start[0]:g}, {self.start[1]:g}) lies within the clearance of {kind} {ident} by {-m[0]:.6g}\"")
        self._segs = self._bitangents() + self._point_tangents(self.start, "S")
        self._arc_cache: dict = {}

    # --- candidate edges -------------------------------------------------------------------

    def _bitangents(self) -> list:
        C = self.space.circles
        n = len(C)
        if n < 2:
            return []
        i, j = np.triu_indices(n, 1)
        dx, dy = C.x[j] - C.x[i], C.y[j] - C.y[i]
        D = np.hypot(dx, dy)
        th = np.arctan2(dy, dx)
        ri, rj = C.r[i], C.r[j]
        rows = []
        for inner in (False, True):
            need = (ri + rj) if inner else np.abs(ri - rj)
            ok = D > need + 1e-12
            with np.errstate(invalid="ignore", divide="ignore"):
                alpha = np.arccos(np.clip(((ri + rj) if inner else (ri - rj)) / np.where(D > 0, D, 1), -1, 1))
            for s in (1.0, -1.0):
                ai = th + s * alpha
                aj = ai + (math.pi if inner else 0.0)
                good = ok & C.in_cone(i, ai) & C.in_cone(j, aj)
                rows.append((i[good], ai[good], j[good], aj[good]))
        ki = np.concatenate([r[0] for r in rows])
        ai = np.concatenate([r[1] for r in rows])
        kj = np.concatenate([r[2] for r in rows])
        aj = np.concatenate([r[3] for r in rows])
        if not len(ki):
            return []
        pa = np.column_stack([C.x[ki] + C.r[ki] * np.cos(ai), C.y[ki] + C.r[ki] * np.sin(ai)])
        pb = np.column_stack([C.x[kj] + C.r[kj] * np.cos(aj), C.y[kj] + C.r[kj] * np.sin(aj)])
        clear = self.space.clear_segments(pa, pb)
        return [(("c", int(a), float(b)), ("c", int(c), float(d)), tuple(p), tuple(q)) for a, b, c, d, p, q in zip(ki[clear], ai[clear], kj[clear], aj[clear], pa[clear], pb[clear])]

    def _tangent_angles(self, p) -> tuple[np.ndarray, np.ndarray]:
        """(circle index, angle) of the tangent points from point ``p`` to every circle."""
        C = self.space.circles
        if not len(C):
            return np.zeros(0, dtype=int), np.zeros(0)
        dx, dy = p[0] - C.x, p[1] - C.y
        D = np.hypot(dx, dy)
        ok = D > C.r + 1e-12
        th = np.arctan2(dy, dx)
        alpha = np.arccos(np.clip(C.r / np.where(ok, D, 1), -1, 1))
        k = np.arange(len(C))
        ks, angs = [], []
        for s in (1.0, -1.0):
            a = th + s * alpha
            good = ok & C.in_cone(k, a)
            ks.append(k[good]), angs.append(a[good])
        return np.concatenate(ks), np.concatenate(angs)

    def _point_tangents(self, p, label) -> list:
        C = self.space.circles
        k, a = self._tangent_angles(p)
        if not len(k):
            return []
        q = np.column_stack([C.x[k] + C.r[k] * np.cos(a), C.y[k] + C.r[k] * np.sin(a)])
        clear = self.space.clear_segments(np.repeat([p], len(q), axis=0), q)
        return [((label,), ("c", int(kk), float(aa)), tuple(p), tuple(qq)) for kk, aa, qq in zip(k[clear], a[clear], q[clear])]

    # --- the graph ---------------------------------------------------------------------------

    def _graph(self, extra_segs: list, anchors: list) -> nx.Graph:
        """Graph of the tangent segments plus arcs; ``anchors`` are extra (circle, angle)
        points joined by arcs only."""
        C = self.space.circles
        G = nx.Graph()
        G.add_node(("S",), pos=self.start)
        on_circle: dict[int, dict] = {}

        def node(key):
            if key[0] != "c":
                return key
            k, a = key[1], key[2]
            a = math.remainder(a, 2 * math.pi)
            rel = (a - C.lo[k]) % (2 * math.pi)
            if C.span[k] < 2 * math.pi - 1e-12 and rel > C.span[k] + 1e-9:
                rel = 0.0 if rel > math.pi + C.span[k] / 2 else C.span[k]
            slot = on_circle.setdefault(k, {})
            r = round(rel, 11)
            if r not in slot:
                slot[r] = ("c", k, r)
                G.add_node(slot[r], pos=(C.x[k] + C.r[k] * math.cos(C.lo[k] + rel), C.y[k] + C.r[k] * math.sin(C.lo[k] + rel)))
            return slot[r]

        for ka, kb, p, q in self._segs + extra_segs:
            u, v = node(ka), node(kb)
            if u not in G:
                G.add_node(u, pos=p)
            if v not in G:
                G.add_node(v, pos=q)
            G.add_edge(u, v, weight=math.dist(p, q), leg=(u, Leg("line", tuple(p), tuple(q))))
        for k, a in anchors:
            node(("c", int(k), float(a)))
        arcs = []
        for k, slot in on_circle.items():
            rels = sorted(slot)
            full = C.span[k] >= 2 * math.pi - 1e-12
            pairs = [(r0, r1, slot[r0], slot[r1]) for r0, r1 in zip(rels, rels[1:])]
            if full and len(rels) > 1:
                pairs.append((rels[-1], rels[0] + 2 * math.pi, slot[rels[-1]], slot[rels[0]]))
            arcs += [(k, r0, r1, u, v) for r0, r1, u, v in pairs if r1 - r0 >= 1e-12]
        todo = [(k, r0, r1) for k, r0, r1, _, _ in arcs if (k, r0, r1) not in self._arc_cache]
        if todo:
            ok = self.space.arcs_clear([t[0] for t in todo], [C.lo[t[0]] + t[1] for t in todo], [t[2] - t[1] for t in todo])
            self._arc_cache.update(zip(todo, ok.tolist()))
        for k, r0, r1, u, v in arcs:
            if not self._arc_cache[(k, r0, r1)]:
                continue
            a0, sweep = C.lo[k] + r0, r1 - r0
            pu, pv = G.nodes[u]["pos"], G.nodes[v]["pos"]
            leg = Leg("arc", pu, pv, (C.x[k], C.y[k]), C.r[k], a0, sweep)
            w = sweep * C.r[k]
            if not G.has_edge(u, v) or G[u][v]["weight"] > w:
                G.add_edge(u, v, weight=w, leg=(u, leg))
        return G

    @staticmethod
    def _legs(G: nx.Graph, route: list) -> list[Leg]:
        legs = []
        for u, v in zip(route, route[1:]):
            frm, leg = G[u][v]["leg"]
            legs.append(leg if frm == u else leg.reversed())
        return legs

    # --- queries -----------------------------------------------------------------------------

    def to_point(self, goal: Sequence[float]) -> Optional[Path]:
        """The shortest path to ``goal``, or ``None`` when no path exists."""
        g = (float(goal[0]), float(goal[1]))
        m, _ = self.space.point_margin([g])
        if m[0] < -TOL:
            return None
        if self.space.clear_segments([self.start], [g])[0]:
            return Path(self.start, (Leg("line", self.start, g),), math.dist(self.start, g))
        segs = self._point_tangents(g, "T")
        G = self._graph(segs, [])
        if ("T",) not in G:
            return None
        try:
            length, route = nx.single_source_dijkstra(G, ("S",), ("T",))
        except nx.NetworkXNoPath:
            return None
        return Path(self.start, tuple(self._legs(G, route)), float(length))

    def to_region(self, region: Region) -> Optional[Path]:
        """The shortest path to any point of ``region`` (``None`` if none is reachable).

        The end point is the nearest point of the region (less the grown obstacles) to the
        last graph node on the way: among that node's projections on every piece of the
        outline and the outline's vertices (notes/exact-geometry.md §2).
        """
        if region.contains([self.start])[0]:
            return Path(self.start, (), 0.0)
        # The region as far as the centre can be there at all: minus the grown obstacles, inside
        # the space's box. Their outlines join the candidate set (an end spot pressed against
        # an obstacle lies on one).
        x0, y0, x1, y1 = region.box
        bx0, by0, bx1, by1 = self.space.box
        region = Region(region.near, tuple(region.far) + tuple((o.core, o.grow) for o in self.space.obstacles),
                        (max(x0, bx0), max(y0, by0), min(x1, bx1), min(y1, by1)))
        pts, dirs = region.anchors()
        anchors = []
        for p in pts:
            k, a = self._tangent_angles(p)
            anchors.extend(zip(k.tolist(), a.tolist()))
        C = self.space.circles
        verts = region.vertices
        if len(C) and len(verts):
            # A region vertex on a grown obstacle's circle: a path may end there along the arc.
            d = np.hypot(verts[:, None, 0] - C.x[None, :], verts[:, None, 1] - C.y[None, :])
            vi, ki = np.nonzero(np.abs(d - C.r[None, :]) <= 1e-9)
            ang = np.arctan2(verts[vi, 1] - C.y[ki], verts[vi, 0] - C.x[ki])
            good = C.in_cone(ki, ang)
            anchors.extend(zip(ki[good].tolist(), ang[good].tolist()))
        for n_ in dirs:
            base = math.atan2(n_[1], n_[0])
            for k in range(len(C)):
                for a in (base + math.pi / 2, base - math.pi / 2):
                    if C.in_cone(np.array([k]), np.array([a]))[0]:
                        anchors.append((k, a))
        G = self._graph([], anchors)
        dist, routes = nx.single_source_dijkstra(G, ("S",))
        bx0, by0, bx1, by1 = region.bounds
        best, best_end, best_node = math.inf, None, None
        order = sorted(dist, key=dist.get)
        # Nodes in order of distance, a chunk at a time: every candidate end of a chunk is
        # tested in one vectorised call; stop once a chunk's nearest node cannot beat the best.
        for lo in range(0, len(order), _CHUNK):
            chunk = order[lo:lo + _CHUNK]
            if dist[chunk[0]] >= best - 1e-12:
                break
            froms, cands, costs, nodes, must_test = [], [], [], [], []
            for nd in chunk:
                d = dist[nd]
                v = np.array(G.nodes[nd]["pos"], dtype=float)
                lb = math.hypot(max(bx0 - v[0], 0, v[0] - bx1), max(by0 - v[1], 0, v[1] - by1))
                if d + lb >= best - 1e-12:
                    continue
                proj = region.projections(v)
                c = np.concatenate([v[None, :], verts, proj]) if len(verts) or len(proj) else v[None, :]
                test = np.zeros(len(c), dtype=bool)
                test[0] = True  # the node itself must lie in the region
                test[1 + len(verts):] = True  # projections too; outline vertices already do
                cost = d + np.hypot(*(c - v).T)
                keep = cost < best - 1e-12
                froms.append(np.repeat(v[None, :], keep.sum(), axis=0))
                cands.append(c[keep]), costs.append(cost[keep]), must_test.append(test[keep])
                nodes.extend([nd] * int(keep.sum()))
            if not nodes:
                continue
            froms, cands, costs, must_test = map(np.concatenate, (froms, cands, costs, must_test))
            inside = np.ones(len(cands), dtype=bool)
            if must_test.any():
                inside[must_test] = region.contains(cands[must_test])
            idx = np.nonzero(inside)[0]
            idx = idx[np.argsort(costs[idx], kind="stable")]
            if not len(idx):
                continue
            clear = self.space.clear_segments(froms[idx], cands[idx])
            hit = np.nonzero(clear)[0]
            if len(hit) and costs[idx[hit[0]]] < best - 1e-12:
                j = idx[hit[0]]
                best, best_end, best_node = float(costs[j]), tuple(map(float, cands[j])), nodes[j]
        if best_node is None:
            return None
        legs = self._legs(G, routes[best_node])
        last = legs[-1].b if legs else self.start
        if math.dist(last, best_end) > 0:
            legs.append(Leg("line", tuple(last), best_end))
        return Path(self.start, tuple(legs), best)


#: Graph nodes whose candidate end spots are tested together in :meth:`Reach.to_region`.
_CHUNK = 64


def shortest_path(space: Space, a: Sequence[float], b: Sequence[float]) -> Optional[Path]:
    """Shortest path for the centre from ``a`` to ``b`` (``None`` if there is none)."""
    return Reach(space, a).to_point(b)


def shortest_to_region(space: Space, a: Sequence[float], region: Region) -> Optional[Path]:
    """Shortest path for the centre from ``a`` to any point of ``region``."""
    return Reach(space, a).to_region(region)
