"""Exact shortest paths for a moving model's centre: tangent graph, A* and Dijkstra.

In configuration space (:mod:`board.space`) every obstacle is a union of discs (round bases,
round pieces, and the corners of grown footprints) and straight strips. A shortest path is
made of straight segments tangent to those circles and pieces of arc along them
(docs/geometry.md §3). The tangent graph is:

* every common tangent of two circles (two outer, two inner) and every tangent from the start
  (and from a goal point), kept when it is clear of every grown obstacle and the table edge
  (one vectorised distance query), and when its ends lie in their corner's normal cone;
* an arc edge between consecutive tangent points on each circle, kept when the arc is clear
  (:meth:`board.space.Space.arcs_clear`);

and a search of it gives lengths exact to floating point. What does not depend on the start
(the circle-to-circle tangents, arc verdicts, a goal region's anchors, and the graph they make:
:meth:`Reach._start_graph`) is kept in the space (:class:`board.space.SearchMemo`, bounded)
and shared, made by the first search that needs it (:meth:`Reach.prepare` makes it ahead).

A goal *point* (:meth:`Reach.to_point`) joins the start's and its own tangents to the kept
graph and is found by A* with the straight distance as its bound (:func:`_astar`): a warm
query on a prepared space tests only those tangents and the arcs they split. A goal *region*
(:class:`board.regions.Region`) adds the tangent points its outline calls for and is reached
from every graph node by a straight leg to the nearest candidate point of the region, after
Dijkstra (networkx's algorithm, on a plain adjacency dict) from the start. A region search
first tries the part of the graph a path of bounded length can use (:meth:`Reach._bounded`:
the same answer, bit for bit, when it settles it).

>>> import math, shapely
>>> from tapeline.board.space import Space, Obstacle
>>> s = Space(20, 20, 0.5, [Obstacle("rock", "terrain", shapely.Point(10, 10), 1.0)])
>>> p = shortest_path(s, (6, 10), (14, 10))          # tangent, arc, tangent
>>> round(p.length, 9) == round(2 * math.sqrt(15) + math.pi - 2 * math.acos(0.25), 9)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from bisect import insort
from heapq import heappop, heappush
from itertools import count
from typing import Callable, Literal, Optional, Sequence, Union, cast

import numpy as np
from numpy.typing import ArrayLike

from .arrays import Bools, Floats, Ints
from .errors import GeometryError
from .regions import Region
from .space import TOL, Circles, Space

#: A point ``(x, y)``.
Pt = tuple[float, float]
#: A graph node as a candidate tangent names it: ``("S",)`` the start, ``("T",)`` the target
#: (:data:`LabelKey`), ``("c", circle, angle)`` a point of a circle (:data:`CircleKey`).
LabelKey = tuple[Literal["S", "T"]]
CircleKey = tuple[Literal["c"], int, float]
Key = Union[LabelKey, CircleKey]
#: A candidate tangent: the keys and the points of its two ends, from the start or the target
#: to a circle, or from circle to circle.
PointTangent = tuple[LabelKey, CircleKey, Pt, Pt]
BiTangent = tuple[CircleKey, CircleKey, Pt, Pt]
Tangent = Union[PointTangent, BiTangent]
#: An arc between two nodes of a circle: ``(circle, slot0, slot1)`` (:meth:`Reach._slots`).
ArcKey = tuple[int, float, float]
#: A goal region's anchors (:meth:`Reach._region_anchors`): the circles and angles, the ends
#: their last legs head for, whether an end must be tested for membership, each node's run of
#: anchors ``(circle, slot) -> (a, b)`` and the order the runs index.
Anchors = tuple[Ints, Floats, Floats, Bools, dict[tuple[int, float], tuple[int, int]], Ints]
#: A goal region less the grown obstacles, and its anchors (``None``: none).
RegionAnchors = tuple[Region, Optional[Anchors]]
#: ``near(points)``: which of the ``(n, 2)`` points a bounded search keeps (:meth:`Reach._bounded`).
Near = Callable[[Floats], Bools]
#: How to rebuild an edge's :class:`Leg`: ``("line", p, q)`` or ``("arc", circle, slot0, slot1)``.
LegSpec = Union[tuple[Literal["line"], Pt, Pt], tuple[Literal["arc"], int, float, float]]
#: A graph's weighted adjacency: node -> {neighbour: weight}, in insertion order.
Adjacency = dict[int, dict[int, float]]
#: Each edge, both ways: ``(u, v) -> (the node it was made from, its spec)``.
Edges = dict[tuple[int, int], tuple[int, LegSpec]]
#: An arc to test between two nodes of a circle: ``(circle, slot0, slot1, u, v)``.
Arc = tuple[int, float, float, int, int]
#: A shared graph's extra facts (:meth:`Reach._start_graph`): each node's straight neighbours,
#: the slots of the nodes an anchor placed, each circle's nodes, and the node of each
#: ``(circle, slot)``.
Shared = tuple[Adjacency, dict[int, float], dict[int, range], dict[tuple[int, float], int]]
#: The end search's answer (:meth:`Reach._end_search`): ``(length, end, last node, region
#: index)``, ``None`` s where there is none.
EndSpot = tuple[float, Optional[Pt], Optional[int], Optional[int]]
#: A search's graph, Dijkstra's predecessors and the end search's answer.
Found = tuple["_Graph", dict[int, int], EndSpot]

#: Largest outward bulge (inches) of the polyline standing in for an arc in :meth:`Path.points`.
#: The polyline circumscribes the arc (its corners lie outside the circle), so it stays clear
#: of the obstacle the arc wraps; its length exceeds the arc's by about ``2/3 · bulge`` per
#: radian.
ARC_BULGE = 1e-4


@dataclass(frozen=True)
class Leg:
    """A straight piece ``a → b`` or an arc around ``centre`` of radius ``r`` from angle
    ``a0`` through ``sweep`` radians (positive: counter-clockwise)."""

    kind: Literal["line", "arc"]
    a: Pt
    b: Pt
    centre: Pt = (0.0, 0.0)
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

    def points(self, bulge: float = ARC_BULGE) -> list[Pt]:
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

    start: Pt
    legs: tuple[Leg, ...]
    length: float

    @property
    def end(self) -> Pt:
        return self.legs[-1].b if self.legs else self.start

    def points(self, bulge: float = ARC_BULGE) -> list[Pt]:
        """Polyline vertices from start to end (arcs circumscribed, see :data:`ARC_BULGE`)."""
        out = [tuple(self.start)]
        for leg in self.legs:
            out.extend(leg.points(bulge))
        return [(float(x), float(y)) for x, y in out]

    def reversed(self) -> "Path":
        return Path(self.end, tuple(l.reversed() for l in reversed(self.legs)), self.length)


def _unit(a: Floats) -> tuple[Floats, Floats]:
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

    def prepare(self) -> "Reach":
        """Work out now what every full search on this space shares: the circle-to-circle
        tangents and the graph they make with their arcs, kept in the space's memo (otherwise
        the first search that needs them makes them; a region search bounded by a short length
        never does). A point query (:meth:`to_point`) on the space is then warm. Returns
        ``self``."""
        self._base_graph(None, ())
        return self

    @property
    def _shared(self) -> list[BiTangent]:
        """The clear circle-to-circle tangents: they do not depend on the start, one set per
        space (made on first use)."""
        memo = self.space.memo
        if memo.bitangents is None:
            memo.bitangents = self._bitangents()
        return memo.bitangents

    @property
    def _segs(self) -> list[Tangent]:
        """Every candidate tangent: the circle-to-circle ones and the start's own."""
        return [*self._shared, *self._own]

    @cached_property
    def _own(self) -> list[PointTangent]:
        """The clear tangents from the start to every circle."""
        return self._point_tangents(self.start, "S")

    # --- candidate edges -------------------------------------------------------------------

    def _bitangents(self, live: Optional[Bools] = None, near: Optional[Near] = None) -> list[BiTangent]:
        """The clear common tangents of every pair of circles. ``live`` (a mask of circles) and
        ``near`` (a mask of points) given: only those with an end ``near`` on a ``live`` circle
        (:meth:`_bounded`), in the same order, with the same ends and verdicts."""
        C = self.space.circles
        n = len(C)
        if n < 2:
            return []
        npairs, at = n * (n - 1) // 2, None
        if live is None:
            i, j = np.triu_indices(n, 1)
        else:  # the pairs with a live circle, in the same order, and their places among all pairs
            M = np.zeros((n, n), dtype=bool)
            M[live, :] = M[:, live] = True
            i, j = np.nonzero(np.triu(M, 1))
            at = i * n - i * (i + 1) // 2 + (j - i - 1)
        dx, dy = C.x[j] - C.x[i], C.y[j] - C.y[i]
        D = np.hypot(dx, dy)
        th = np.arctan2(dy, dx)
        ri, rj = C.r[i], C.r[j]
        # Circles.in_cone at the first end, its circle's cone read once for the four tangents
        lo_i, span_i = C.lo[i], C.span[i]
        full_i = span_i >= _TAU - 1e-12
        rows: list[tuple[Ints, Floats, Ints, Floats, Ints]] = []  # (circle, angle) of each end, place among all
        for inner in (False, True):
            need = (ri + rj) if inner else np.abs(ri - rj)
            ok = D > need + 1e-12
            with np.errstate(invalid="ignore", divide="ignore"):
                alpha = np.arccos(np.clip(((ri + rj) if inner else (ri - rj)) / np.where(D > 0, D, 1), -1, 1))
            for s in (1.0, -1.0):
                ai = th + s * alpha
                rel = np.mod(ai - lo_i, _TAU)
                g = np.nonzero(ok & (full_i | (rel <= span_i + 1e-9) | (rel >= _TAU - 1e-9)))[0]
                # the second end's cone on the first's survivors only (the same verdicts)
                aj = ai[g] + (math.pi if inner else 0.0)
                keep = C.in_cone(j[g], aj)
                g, aj = g[keep], aj[keep]
                rows.append((i[g], ai[g], j[g], aj, len(rows) * npairs + (g if at is None else at[g])))
        ki = np.concatenate([r[0] for r in rows])
        ai = np.concatenate([r[1] for r in rows])
        kj = np.concatenate([r[2] for r in rows])
        aj = np.concatenate([r[3] for r in rows])
        if not len(ki):
            return []
        pa = np.column_stack([C.x[ki] + C.r[ki] * np.cos(ai), C.y[ki] + C.r[ki] * np.sin(ai)])
        pb = np.column_stack([C.x[kj] + C.r[kj] * np.cos(aj), C.y[kj] + C.r[kj] * np.sin(aj)])
        if near is None:
            clear = self.space.clear_segments(pa, pb, (ki, kj))
        else:
            m = near(pa) | near(pb)
            ki, ai, kj, aj, pa, pb = ki[m], ai[m], kj[m], aj[m], pa[m], pb[m]
            # each candidate's verdict, kept for the space (several starts ask about many alike)
            code = np.concatenate([r[4] for r in rows])[m]
            memo = self.space.memo
            if memo.tangent_verdicts is None:
                memo.tangent_verdicts = np.zeros(4 * npairs, dtype=np.int8)
            seen = memo.tangent_verdicts
            ask = np.nonzero(seen[code] == 0)[0]
            if len(ask):
                seen[code[ask]] = np.where(self.space.clear_segments(pa[ask], pb[ask], (ki[ask], kj[ask])), 1, 2)
            clear = seen[code] == 1
        pa, pb = pa[clear], pb[clear]
        # (the ends as tuples of numpy floats, as ever)
        ends = zip(ki[clear].tolist(), ai[clear].tolist(), kj[clear].tolist(), aj[clear].tolist(), zip(pa[:, 0], pa[:, 1]), zip(pb[:, 0], pb[:, 1]))
        return [(("c", a, b), ("c", c, d), p, q) for a, b, c, d, p, q in ends]

    def _tangent_angles(self, p: Pt) -> tuple[Ints, Floats]:
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
        ks: list[Ints] = []
        angs: list[Floats] = []
        for s in (1.0, -1.0):
            a = th + s * alpha
            good = ok & C.in_cone(k, a)
            ks.append(k[good])
            angs.append(a[good])
        return np.concatenate(ks), np.concatenate(angs)

    def _point_tangents(self, p: Pt, label: Literal["S", "T"], near: Optional[Near] = None) -> list[PointTangent]:
        """The clear tangents from point ``p`` to every circle (``near`` given, a mask of
        points: those whose tangent point is ``near``, in the same order)."""
        C = self.space.circles
        k, a = self._tangent_angles(p)
        if not len(k):
            return []
        q = np.column_stack([C.x[k] + C.r[k] * np.cos(a), C.y[k] + C.r[k] * np.sin(a)])
        if near is not None:
            m = near(q)
            k, a, q = k[m], a[m], q[m]
        clear = self.space.clear_segments(np.repeat([p], len(q), axis=0), q)
        return [((label,), ("c", int(kk), float(aa)), p, tuple(qq)) for kk, aa, qq in zip(k[clear], a[clear], q[clear])]

    # --- the graph ---------------------------------------------------------------------------

    def _slots(self, k: Ints, a: Floats) -> tuple[Floats, Floats]:
        """Graph-node slots of circle points ``(k, a)``: the angle from the cone's start
        (clamped into the cone), rounded to 1e-11 so equal points share one node, and the
        unrounded value (where a new node is placed). On a full circle a point a hair before
        the cone's start (``rel`` within 5e-12 of 2π, which would round to 6.28318530718 > 2π)
        is the point at its start: slot 0 (and ``rel`` less 2π, exactly), so it shares the node
        there and its arc round the back is never of negative length."""
        C = self.space.circles
        a = _remainder_tau(a)
        rel = np.mod(a - C.lo[k], _TAU)
        span = C.span[k]
        full = span >= _TAU - 1e-12
        out = ~full & (rel > span + 1e-9)
        rel = np.where(out, np.where(rel > math.pi + span / 2, 0.0, span), rel)
        slot = _round11(rel)
        back = full & (slot >= _TAU)
        if back.any():
            slot = np.where(back, 0.0, slot)
            rel = np.where(back, rel - _TAU, rel)
        return slot, rel

    def _graph(self, extra_segs: Sequence[Tangent], anchors: Optional[tuple[Ints, Floats]], segs: Optional[Sequence[Tangent]] = None,
               near: Optional[Near] = None) -> _Graph:
        """Graph of the tangent segments plus arcs; ``anchors`` (arrays ``(circle, angle)``)
        are extra circle points joined by arcs only. ``segs`` given (the start-independent
        tangents alone): the shared part of every start's graph, for :meth:`_start_graph`.
        ``near`` given (with ``segs``: a bounded search's tangents, :meth:`_bounded`): only the
        arcs with an end ``near`` (a mask of points), and no shared part."""
        C = self.space.circles
        base = segs is not None and near is None
        segs = [*self._segs, *extra_segs] if segs is None else segs
        # every circle point, in order: both ends of each segment, then the anchors
        ends: list[Key] = [key for ka, kb, _, _ in segs for key in (ka, kb)]
        circ = [i for i, key in enumerate(ends) if key[0] == "c"]
        ak, aa = (np.asarray(anchors[0], dtype=int), np.asarray(anchors[1], dtype=float)) if anchors is not None else (np.zeros(0, dtype=int), np.zeros(0))
        ks = np.concatenate([np.array([key[1] for key in ends if key[0] == "c"], dtype=int), ak])
        angs = np.concatenate([np.array([key[2] for key in ends if key[0] == "c"], dtype=float), aa])
        rk, rels = self._slots(ks, angs) if len(ks) else (np.zeros(0), np.zeros(0))
        # one node per (circle, slot), placed where it first occurs; nodes sorted by circle, slot
        n = len(ks)
        order = np.lexsort((np.arange(n), rk, ks))
        ks_s, rk_s = ks[order], rk[order]
        new = np.ones(n, dtype=bool)
        new[1:] = (ks_s[1:] != ks_s[:-1]) | (rk_s[1:] != rk_s[:-1])
        first = order[new]
        node_of = np.empty(n, dtype=int)
        node_of[order] = np.cumsum(new) - 1
        nk, nr = ks[first].tolist(), rk[first].tolist()
        keys = range(len(nk))  # node ids: the nodes in order of circle and slot
        pos: dict[int, Pt] = {START: self.start}
        pos.update(zip(keys, _on_circles(C, ks[first], rels[first])))
        key_of = [_LABEL.get(key) for key in ends]  # the start, the target, or (below) a circle's node
        for i, nd in zip(circ, node_of[:len(circ)].tolist()):
            key_of[i] = nd
        node_at = cast(list[int], key_of)  # (every end has its node now)
        adj: Adjacency = {START: {}}  # node -> {neighbour: weight}, in insertion order
        legs: Edges = {}              # (u, v) and (v, u) -> (from, spec)
        for n, (ka, kb, p, q) in enumerate(segs):
            u = node_at[2 * n]
            v = node_at[2 * n + 1]
            if u not in pos:
                pos[u] = p
            if v not in pos:
                pos[v] = q
            w = math.dist(p, q)
            adj.setdefault(u, {})[v] = w
            adj.setdefault(v, {})[u] = w
            legs[(u, v)] = legs[(v, u)] = (u, ("line", p, q))
        if base:  # each node's straight neighbours, and whether an anchor placed it
            line_adj = {u: dict(d) for u, d in adj.items()}
            placed = np.nonzero(first >= len(circ))[0]
            by_anchor = dict(zip(placed.tolist(), rels[first[placed]].tolist()))
        # arcs between consecutive nodes of a circle (and round the back of a full circle);
        # a node's arcs all lie on its own circle, so the order of circles does not matter
        nk_a, nr_a = np.asarray(nk, dtype=int), np.asarray(nr, dtype=float)
        m = len(nk)
        same = nk_a[1:] == nk_a[:-1] if m else np.zeros(0, dtype=bool)
        last = np.ones(m, dtype=bool)
        last[:-1] = ~same
        firsts = np.concatenate([[0], np.nonzero(last)[0][:-1] + 1]) if m else np.zeros(0, dtype=int)
        lasts = np.nonzero(last)[0]
        wrap = (C.span[nk_a[firsts]] >= 2 * math.pi - 1e-12) & (lasts > firsts) if m else np.zeros(0, dtype=bool)
        # per circle: consecutive pairs, then the wrap-around pair
        pu = np.concatenate([np.nonzero(same)[0], lasts[wrap]])
        pv = np.concatenate([np.nonzero(same)[0] + 1, firsts[wrap]])
        grp = np.concatenate([np.cumsum(np.concatenate([[0], last[:-1]]))[np.nonzero(same)[0]] if m else np.zeros(0, dtype=int),
                              np.nonzero(wrap)[0]])
        sub = np.concatenate([np.nonzero(same)[0], np.full(int(wrap.sum()), m)])
        o = np.lexsort((sub, grp))
        pu, pv = pu[o], pv[o]
        r0, r1 = nr_a[pu], np.where(pv > pu, nr_a[pv], nr_a[pv] + 2 * math.pi)
        keep = r1 - r0 >= 1e-12
        pu, pv = pu[keep].tolist(), pv[keep].tolist()
        arcs = list(zip(nk_a[pu].tolist(), r0[keep].tolist(), r1[keep].tolist(), pu, pv))
        if near is not None and arcs:
            at = near(np.array([pos[k] for k in keys], dtype=float).reshape(-1, 2)).tolist()
            arcs = [a for a in arcs if at[a[3]] or at[a[4]]]
        self._add_arcs(arcs, adj, legs)
        shared: Optional[Shared] = None
        if base:  # each circle's nodes (a run of the sorted nodes)
            on_circle = {k: range(a_, b_ + 1) for k, a_, b_ in zip(nk_a[firsts].tolist(), firsts.tolist(), lasts.tolist())}
            shared = (line_adj, by_anchor, on_circle, dict(zip(zip(nk, nr), keys)))
        return _Graph(adj, pos, legs, nk, nr, shared)

    def _add_arcs(self, arcs: list[Arc], adj: Adjacency, legs: Edges, mine: Optional[set[int]] = None) -> None:
        """Join the nodes of ``arcs`` (``(circle, slot0, slot1, u, v)``, in order) by those that
        are clear (verdicts kept in the space's memo). ``mine`` given: only those nodes' own
        neighbours are written (another end's are a shared graph's, which has the arc already)."""
        _, _, cr, clo = self.space.circles.floats

        def test(todo: list[ArcKey]) -> list[bool]:
            verdicts: list[bool] = self.space.arcs_clear([t[0] for t in todo], [clo[t[0]] + t[1] for t in todo], [t[2] - t[1] for t in todo]).tolist()
            return verdicts

        for (k, r0, r1, u, v), clear in zip(arcs, self.space.memo.arc_verdicts([a[:3] for a in arcs], test)):
            if not clear:
                continue
            w = (r1 - r0) * cr[k]
            for a, b in ((u, v), (v, u)):
                if mine is None or a in mine:
                    d = adj.setdefault(a, {})
                    if b not in d or d[b] > w:  # two arcs join the only two nodes of a circle: the shorter
                        d[b] = w
                        legs[(u, v)] = legs[(v, u)] = (u, ("arc", k, r0, r1))

    def _base_graph(self, anchors: Optional[tuple[Ints, Floats]], tag: tuple[int, ...]) -> _Graph:
        """The part of the graph every start on this space shares: the start-independent
        tangents, their arcs and ``anchors``, kept in the space's memo under ``tag`` (``()``:
        no anchors, what a point query joins its ends to)."""
        graphs = self.space.memo.graphs
        if tag not in graphs:
            self.space.memo.room_for_graph()  # (a bisection asks about many regions once each)
            graphs[tag] = self._graph([], anchors, segs=self._shared)
        return graphs[tag]

    def _start_graph(self, anchors: Optional[tuple[Ints, Floats]], tag: tuple[int, ...], goal: Sequence[PointTangent] = ()) -> _Graph:
        """The same graph as ``_graph(goal, anchors)``, node for node and in the same order of
        neighbours (so Dijkstra settles ties alike), built from the part every start on this
        space shares (the start-independent tangents and ``anchors``, kept in the space's memo
        under ``tag``): only the start's own tangents and the goal point's (``goal``) are
        added, and the arcs beside the points they add (the arcs those points split). The nodes
        that change get neighbour dicts of their own: the kept graph is never written."""
        C = self.space.circles
        B = self._base_graph(anchors, tag)
        line_adj, by_anchor, on_circle, index = cast(Shared, B.shared)  # (a shared graph has them)
        own = [*self._own, *goal]
        adj, pos, legs = dict(B.adj), dict(B.pos), dict(B.legs)
        adj[START] = {}
        pos[START] = self.start
        if goal:
            adj[TARGET] = {}
            pos[TARGET] = goal[0][2]
        if not own:
            return _Graph(adj, pos, legs, B.circle, B.slot)
        ks = np.array([kb[1] for _, kb, _, _ in own], dtype=int)
        rk, rels = self._slots(ks, np.array([kb[2] for _, kb, _, _ in own], dtype=float))
        cx, cy, cr, clo = C.floats
        circle, slot = list(B.circle), list(B.slot)
        added: dict[tuple[int, float], int] = {}  # this start's own nodes: new ids
        touched: dict[int, set[int]] = {}  # circle -> the nodes the start's and goal's tangents end at on it
        fresh: dict[int, dict[int, float]] = {}  # node -> a dict of its own (copied from the shared one once)
        for k, r, rel in zip(ks.tolist(), rk.tolist(), rels.tolist()):
            key = index.get((k, r))
            if key is None:
                key = added.get((k, r))
            if key is None:
                key = added[(k, r)] = len(circle)
                circle.append(k)
                slot.append(r)
            if key not in pos or (key in by_anchor and key not in fresh):
                # placed by its first occurrence: a start's tangent comes before any anchor
                pos[key] = (cx[k] + cr[k] * math.cos(clo[k] + rel), cy[k] + cr[k] * math.sin(clo[k] + rel))
            if key not in fresh:
                fresh[key] = adj[key] = dict(line_adj.get(key, {}))
            touched.setdefault(k, set()).add(key)
        for (ka, _, p, q), k, r in zip(own, ks.tolist(), rk.tolist()):
            v = index.get((k, r))
            v = added[(k, r)] if v is None else v
            u = _LABEL[ka]
            w = math.dist(p, q)
            adj[u][v] = w
            adj[v][u] = w
            legs[(u, v)] = legs[(v, u)] = (u, ("line", p, q))
        # The arcs that change: those of the nodes added, and of the nodes on either side of
        # them along their circle (an arc between two shared nodes with none added between them
        # is the shared graph's, and stays), and those of the nodes given a tangent (their
        # neighbours are written afresh, the tangent before the arcs, as ``_graph`` orders them).
        nb = len(B.circle)
        arcs: list[Arc] = []
        for k, mine in touched.items():
            nodes = list(on_circle.get(k, ()))  # (in order of slot)
            for x in mine:
                if x >= nb:
                    insort(nodes, x, key=slot.__getitem__)
            m = len(nodes)
            wrap = m > 1 and C.span[k] >= 2 * math.pi - 1e-12
            near: set[int] = set()  # the places whose arcs are written
            for x in mine:
                i = nodes.index(x)
                near.add(i)
                if x >= nb:  # added: its neighbours' arcs change too
                    if i > 0 or wrap:
                        near.add((i - 1) % m)
                    if i < m - 1 or wrap:
                        near.add((i + 1) % m)
            pairs: set[int] = set()  # pair j joins places j and j + 1 (j = m − 1: round the back)
            for i in near:
                key = nodes[i]
                if key not in fresh:
                    fresh[key] = adj[key] = dict(line_adj.get(key, {}))
                if i > 0:
                    pairs.add(i - 1)
                if i < m - 1:
                    pairs.add(i)
                if wrap and i in (0, m - 1):
                    pairs.add(m - 1)
            for j in sorted(pairs):
                a_, b_ = nodes[j], nodes[(j + 1) % m]
                r0 = slot[a_]
                r1 = slot[b_] if j < m - 1 else slot[b_] + 2 * math.pi
                if r1 - r0 >= 1e-12:
                    arcs.append((k, r0, r1, a_, b_))
        self._add_arcs(arcs, adj, legs, set(fresh))
        return _Graph(adj, pos, legs, circle, slot)

    def _legs(self, G: _Graph, route: list[int]) -> list[Leg]:
        """The legs along ``route`` (edges stored as ``("line", p, q)`` or ``("arc", k, r0, r1)``)."""
        C = self.space.circles
        legs = []
        for u, v in zip(route, route[1:]):
            frm, spec = G.legs[(u, v)]
            to = v if frm == u else u
            if spec[0] == "line":
                leg = Leg("line", spec[1], spec[2])
            else:
                _, k, r0, r1 = spec
                # (node positions are Python floats; a leg's ends numpy's, as they always were)
                a, b = G.pos[frm], G.pos[to]
                leg = Leg("arc", (np.float64(a[0]), np.float64(a[1])), (np.float64(b[0]), np.float64(b[1])), (C.x[k], C.y[k]),
                          C.r[k], C.lo[k] + r0, r1 - r0)
            legs.append(leg if frm == u else leg.reversed())
        return legs

    # --- queries -----------------------------------------------------------------------------

    def to_point(self, goal: Sequence[float]) -> Optional[Path]:
        """The shortest path to ``goal``, or ``None`` when no path exists.

        The space's kept graph (:meth:`_base_graph`) joined to the start's and the goal's
        tangents and the arcs they split (:meth:`_start_graph`: the graph built for this start
        and goal alone, node for node), searched by A* (:func:`_astar`): the length Dijkstra
        finds on that graph, bit for bit (``tests/board/test_paths_warm.py``)."""
        g = (float(goal[0]), float(goal[1]))
        m, _ = self.space.point_margin([g])
        if m[0] < -TOL:
            return None
        if self.space.clear_segments([self.start], [g])[0]:
            return Path(self.start, (Leg("line", self.start, g),), math.dist(self.start, g))
        segs = self._point_tangents(g, "T")
        if not segs:
            return None
        G = self._start_graph(None, (), segs)
        length, prev = _astar(G.adj, G.pos, START, TARGET)
        if length is None:
            return None
        return Path(self.start, tuple(self._legs(G, _route(prev, TARGET))), length)

    def _prepared(self, region: Region) -> Region:
        """The region as far as the centre can be there at all: minus the grown obstacles,
        inside the space's box (one object per region and space: what it works out is kept)."""
        done = self.space.memo.prepared
        hit = next((v for r, v in done if r == region), None)
        if hit is None:
            x0, y0, x1, y1 = region.box
            bx0, by0, bx1, by1 = self.space.box
            hit = Region(region.near, tuple(region.far) + tuple((o.core, o.grow) for o in self.space.obstacles),
                         (max(x0, bx0), max(y0, by0), min(x1, bx1), min(y1, by1)), region.inside)
            done.append((region, hit))
        return hit

    def _region_anchors(self, region: Region, circles: Optional[ArrayLike] = None) -> RegionAnchors:
        """The region less the grown obstacles (:meth:`_prepared`), and the circle points
        (arrays ``(circle, angle)``) a path may leave a circle from towards it (on the
        ``circles`` given, else on every circle: the same points on those, in the same order).

        The last leg of a shortest path ends at the region point nearest its start (any point
        of the leg nearer the start is outside the region). That end is a foot on one piece of
        the outline — the leg then lies on a line through a circle piece's centre, or meets a
        straight piece square-on — or an outline vertex. Only the circle points whose last leg
        can really end so are anchors (exact filters, never a guess):

        * towards a piece's centre or square-on to it: the foot lies on the piece (within its
          box; a foot off its piece is never the nearest point);
        * towards a vertex ``w``: the leg's last stretch before ``w`` is outside the region
          (the point :data:`_PROBE` short of ``w`` has no positive slack).

        Pieces of the grown obstacles need no anchors of their own: a node lies outside every
        obstacle, and a last leg square-on to (or towards the centre of) an obstacle's piece
        would come from inside it, or through it."""
        own = region
        region = self._prepared(region)
        C = self.space.circles
        verts = region.vertices
        if not len(C):
            return region, None
        oC, oL, oCB, oLB = own._pieces
        k = np.arange(len(C)) if circles is None else np.asarray(circles, dtype=int)
        cx, cy, cr = C.x[k], C.y[k], C.r[k]
        got: list[tuple[Ints, Floats, Floats, Bools]] = []  # circle, angle, the end its last leg heads for, test it?

        def tangents(pts: Floats) -> tuple[Ints, Ints, Floats, Floats]:
            """(point index, circle, angle, tangent point) of the tangents from ``pts``."""
            dx, dy = pts[:, 0, None] - cx[None, :], pts[:, 1, None] - cy[None, :]
            D = np.hypot(dx, dy)
            ok = D > cr + 1e-12
            th = np.arctan2(dy, dx)
            alpha = np.arccos(np.clip(cr / np.where(ok, D, 1), -1, 1))
            A = np.stack([th + alpha, th - alpha], axis=1)        # (point, ±, circle)
            good = ok[:, None, :] & C.in_cone(k, A)
            pi, _, ki = np.nonzero(good)
            ki = k[ki]
            a = A[good]
            q = np.column_stack([C.x[ki] + C.r[ki] * np.cos(a), C.y[ki] + C.r[ki] * np.sin(a)])
            return pi, ki, a, q

        def on_piece(f: Floats, B: Floats, e: float = 1e-9) -> Bools:
            return (f[:, 0] >= B[:, 0] - e) & (f[:, 0] <= B[:, 2] + e) & (f[:, 1] >= B[:, 1] - e) & (f[:, 1] <= B[:, 3] + e)

        if len(verts):
            pi, ki, a, q = tangents(verts)
            d = q - verts[pi]
            n = np.hypot(d[:, 0], d[:, 1])
            good = n > 1e-9
            probe = verts[pi[good]] + _PROBE * d[good] / n[good, None]
            keep = np.zeros(len(pi), dtype=bool)
            keep[np.nonzero(good)[0]] = region.probe_slack(verts, pi[good], probe, _PROBE) <= 1e-9
            got.append((ki[keep], a[keep], verts[pi[keep]], np.zeros(int(keep.sum()), dtype=bool)))
        if len(oC):
            pi, ki, a, q = tangents(oC[:, :2])
            d = q - oC[pi, :2]
            n = np.hypot(d[:, 0], d[:, 1])
            good = n > 1e-15
            f = oC[pi, :2] + oC[pi, 2:3] * d / np.where(good, n, 1)[:, None]
            keep = good & on_piece(f, oCB[pi])
            got.append((ki[keep], a[keep], f[keep], np.ones(int(keep.sum()), dtype=bool)))
        if len(oL):
            # a last leg square-on to a straight piece leaves a circle at a right angle to it
            base = np.arctan2(oL[:, 1], oL[:, 0])
            A = np.stack([base + math.pi / 2, base - math.pi / 2], axis=1)[:, :, None] + np.zeros(len(k))
            li, _, ki = np.nonzero(C.in_cone(k, A))
            ki = k[ki]
            a = A[C.in_cone(k, A)]
            q = np.column_stack([C.x[ki] + C.r[ki] * np.cos(a), C.y[ki] + C.r[ki] * np.sin(a)])
            t = oL[li, 2] - np.einsum("ij,ij->i", oL[li, :2], q)
            f = q + t[:, None] * oL[li, :2]
            keep = on_piece(f, oLB[li])
            got.append((ki[keep], a[keep], f[keep], np.ones(int(keep.sum()), dtype=bool)))
        if len(verts):
            # A region vertex on a grown obstacle's circle: a path may end there along the arc.
            d = np.hypot(verts[:, None, 0] - cx[None, :], verts[:, None, 1] - cy[None, :])
            vi, ki = np.nonzero(np.abs(d - cr[None, :]) <= 1e-9)
            ki = k[ki]
            ang = np.arctan2(verts[vi, 1] - C.y[ki], verts[vi, 0] - C.x[ki])
            good = C.in_cone(ki, ang)
            got.append((ki[good], ang[good], verts[vi[good]], np.zeros(int(good.sum()), dtype=bool)))
        if not got:
            return region, None
        ak, aa = np.concatenate([g[0] for g in got]), np.concatenate([g[1] for g in got])
        ends, test = np.concatenate([g[2] for g in got]), np.concatenate([g[3] for g in got])
        # the graph node each anchor becomes (the same slots as :meth:`_graph`'s): its ends
        rk, _ = self._slots(ak, aa) if len(ak) else (np.zeros(0), None)
        # each node's anchors, in order: runs of one (circle, slot) after a stable sort
        o = np.lexsort((rk, ak))
        ko, ro = ak[o], rk[o]
        new = np.ones(len(o), dtype=bool)
        new[1:] = (ko[1:] != ko[:-1]) | (ro[1:] != ro[:-1])
        lo = np.nonzero(new)[0]
        hi = np.append(lo[1:], len(o))
        at = dict(zip(zip(ko[lo].tolist(), ro[lo].tolist()), zip(lo.tolist(), hi.tolist())))  # (circle, slot) -> o[a:b]
        return region, (ak, aa, ends, test, at, o)

    def to_region(self, region: Region) -> Optional[Path]:
        """The shortest path to any point of ``region`` (``None`` if none is reachable).

        The end point is the nearest point of the region (less the grown obstacles) to the
        last graph node on the way: among that node's projections on every piece of the
        outline and the outline's vertices (docs/geometry.md §4).
        """
        return self.to_regions([region])[0]

    def to_regions(self, regions: Sequence[Region], shorter_than: float = math.inf) -> tuple[Optional[Path], Optional[int]]:
        """The shortest path to any point of any of ``regions`` and the index of the region it
        ends in (ties: the first); ``(None, None)`` if none is reachable — or none is shorter
        than ``shorter_than`` by more than 1e-12 (a bound another start has already achieved:
        nothing beyond it is searched). One graph and one Dijkstra serve them all (a goal on
        several levels: one region per level)."""
        for i, region in enumerate(regions):
            if region.contains([self.start])[0]:
                return Path(self.start, (), 0.0), i
        # Each region as far as the centre can be there at all: minus the grown obstacles,
        # inside the space's box. Their outlines join the candidate set (an end spot pressed
        # against an obstacle lies on one). Several starts on one space often share a region
        # (a unit's candidate Leading Models): what depends on the region and the space alone
        # is worked out once.
        self.space.memo.room_for_regions(len(regions))
        prepared = [self._prepared(r) for r in regions]
        boxes = np.array([r.bounds for r in prepared], dtype=float).reshape(-1, 4)
        done = self.space.memo.anchors
        hits = [next((v for r, v in done if r == region), None) for region in regions]
        shared = None not in hits and tuple(id(h[1]) for h in hits if h is not None and h[1] is not None) in self.space.memo.graphs
        found: Optional[Found] = None
        if not shared and len(boxes) and len(self.space.circles) >= _BOUND_MIN_CIRCLES:
            if math.isfinite(shorter_than):
                found, _ = self._bounded(regions, prepared, boxes, shorter_than, shorter_than)
            else:
                # a tight guess first; then the length it found (a real path: the answer is no
                # longer), or a looser guess
                b0 = float(_box_distance(boxes, np.array([self.start[0]]), np.array([self.start[1]]))[0])
                found, length = self._bounded(regions, prepared, boxes, shorter_than, _BOUND_GUESS[0] * b0 + _BOUND_GUESS[1])
                if found is None and length is not False:
                    bound = length * (1 + 1e-12) + 1e-9 if length is not None else _BOUND_RETRY[0] * b0 + _BOUND_RETRY[1]
                    found, _ = self._bounded(regions, prepared, boxes, shorter_than, bound)
        if found is None:
            amap: list[Optional[Anchors]] = []
            anchors: list[Anchors] = []
            for region, hit in zip(regions, hits):
                if hit is None:
                    hit = next((v for r, v in done if r == region), None)  # (a region named twice)
                if hit is None:
                    hit = self._region_anchors(region)
                    done.append((region, hit))
                amap.append(hit[1])
                if hit[1] is not None:
                    anchors.append(hit[1])
            anchor = (np.concatenate([a[0] for a in anchors]), np.concatenate([a[1] for a in anchors])) if anchors else None
            tag = tuple(id(a) for a in anchors)
            G = self._start_graph(anchor, tag)
            dist, prev = _dijkstra(G.adj, START, limit=shorter_than)
            found = G, prev, self._end_search(G, dist, prepared, amap, boxes, shorter_than)
        G, prev, (best, best_end, best_node, best_region) = found
        if best_node is None:
            return None, None
        legs = self._legs(G, _route(prev, best_node))
        last = legs[-1].b if legs else self.start
        end = cast(Pt, best_end)  # (found with its node)
        if math.dist(last, end) > 0:
            legs.append(Leg("line", last, end))
        return Path(self.start, tuple(legs), best), best_region

    def _bounded(self, regions: Sequence[Region], prepared: list[Region], boxes: Floats, shorter_than: float,
                 bound: float) -> tuple[Optional[Found], Union[float, bool, None]]:
        """The search of :meth:`to_regions` on the part of the graph a path of length at most
        ``U = bound`` can use (the bound ``shorter_than``; without one, a guess), when that part
        is small: ``(graph, predecessors, the end search's answer)``, or ``None`` when it
        cannot settle the answer; and the length it found (``None``: no path; ``False``: not
        searched, the part being most of the table). A found length is that of a real path:
        :meth:`to_regions` may search again within it.

        Every node ``v`` has the lower bound ``key(v) = dist(v) + b(v)`` of the end search
        (``b``: the straight distance to the nearest region's box, 1-Lipschitz). Call a point
        ``p`` *near* when ``|start − p| + b(p) ≤ U`` (plus :data:`_BOUND_SLACK`): every point of
        a route to a node whose key is at most ``U`` is near, and any route through a point
        that is not is longer, by at least the slack. So the graph keeps only the tangents and
        arcs with a near end (a circle whose disc holds no near point, ``|start − c| + b(c) −
        2r`` above the bound, is not even looked at), the start's tangents and the anchors
        that end near. Every node at a near point is there (its tangent or anchor is kept),
        with the same slot, so the arcs between near nodes are the full graph's; an arc that
        now runs past a left-out node passes a point that is not near. Each node whose key is
        at most ``U`` thus gets the same distance, predecessor and place in Dijkstra's order
        (its neighbours are in the same order; no route the full graph has and this one lacks
        is as short); the end search takes those nodes first, in the same chunks, and a valid
        end within ``U`` comes from one of them (an end costs at least its node's key). A
        winner within ``U`` (or, with the bound ``shorter_than``, none at all) is therefore the
        full search's answer, bit for bit (``tests/board/test_paths_bounded.py``)."""
        C = self.space.circles
        sx, sy = self.start
        limit = bound + _BOUND_SLACK
        live = np.hypot(C.x - sx, C.y - sy) + _box_distance(boxes, C.x, C.y) - 2 * C.r <= limit
        if live.sum() > _BOUND_SHARE * len(C):
            return None, False  # most of the table: the full graph, shared with later searches, is cheaper

        def near(p: Floats) -> Bools:
            return np.hypot(p[:, 0] - sx, p[:, 1] - sy) + _box_distance(boxes, p[:, 0], p[:, 1]) <= limit

        own = self._point_tangents(self.start, "S", near)
        # each region's anchors on the live circles (a node on another is never within U)
        amap = [self._region_anchors(r, np.nonzero(live)[0])[1] for r in regions]
        anchors = [a for a in amap if a is not None]
        anchor: Optional[tuple[Ints, Floats]] = None
        if anchors:
            k, a = np.concatenate([x[0] for x in anchors]), np.concatenate([x[1] for x in anchors])
            on = near(np.column_stack([C.x[k] + C.r[k] * np.cos(a), C.y[k] + C.r[k] * np.sin(a)]))
            anchor = (k[on], a[on])
        G = self._graph([], anchor, segs=[*self._bitangents(live, near), *own], near=near)
        dist, prev = _dijkstra(G.adj, START, limit=min(shorter_than, bound + _BOUND_SLACK))
        res = self._end_search(G, dist, prepared, amap, boxes, shorter_than)
        if res[2] is None and bound == shorter_than:
            return (G, prev, res), None  # nothing shorter than the bound: none in the full graph either
        if res[2] is None or res[0] > bound:
            return None, res[0] if res[2] is not None else None
        return (G, prev, res), res[0]

    def _end_search(self, G: _Graph, dist: dict[int, float], prepared: list[Region], amap: list[Optional[Anchors]], boxes: Floats,
                    shorter_than: float) -> EndSpot:
        """The best end spot from the nodes Dijkstra reached: ``(length, end, last node,
        region index)`` (``None``s where there is none shorter than ``shorter_than``)."""
        C = self.space.circles
        best, best_rank = float(shorter_than), math.inf
        best_end: Optional[Pt] = None
        best_node: Optional[int] = None
        best_region: Optional[int] = None
        order = sorted(dist, key=dist.__getitem__)
        # Every node's lower bound: its distance plus the straight distance to the nearest
        # region's box. Nodes are taken in order of that bound (nearest the goal first, ties in
        # Dijkstra order), a chunk at a time; every candidate end of a chunk is tested in one
        # vectorised call; stop once a chunk's bound cannot beat the best.
        P = np.array([G.pos[nd] for nd in order], dtype=float).reshape(-1, 2)
        D = np.array([dist[nd] for nd in order], dtype=float)
        # each node's circle (-1: the start, or a circle of no radius: no tangent to keep to)
        cr, circle, slot = C.floats[2], G.circle, G.slot
        ck_l = [circle[nd] if nd >= 0 and cr[circle[nd]] > 1e-9 else -1 for nd in order]
        if len(boxes):
            dx = np.maximum(np.maximum(boxes[None, :, 0] - P[:, 0, None], 0), P[:, 0, None] - boxes[None, :, 2])
            dy = np.maximum(np.maximum(boxes[None, :, 1] - P[:, 1, None], 0), P[:, 1, None] - boxes[None, :, 3])
            LB = D[:, None] + np.hypot(dx, dy)  # (node, region)
        else:
            LB = np.zeros((len(order), 0))
        key = LB.min(axis=1) if LB.shape[1] else D
        by_bound = np.lexsort((np.arange(len(order)), key))
        for lo in range(0, len(by_bound), _CHUNK):
            chunk = by_bound[lo:lo + _CHUNK]
            if key[chunk[0]] >= best - 1e-12:
                break
            # each region's candidates: where from, the end, its cost, the node, test membership?
            got_from: list[Floats] = []
            got_cand: list[Floats] = []
            got_cost: list[Floats] = []
            got_node: list[Ints] = []
            got_test: list[Bools] = []
            got_owner: list[Ints] = []
            # A taut path leaves a circle along its tangent: from a circle's node only the ends
            # its anchors head for (an anchor is put wherever a last leg can leave a circle,
            # with the end it heads for) and the node itself; from the start (or a corner of
            # no radius), every candidate: the node, the outline's vertices, its projections.
            for ri, region in enumerate(prepared):
                rows = chunk[LB[chunk, ri] < best - 1e-12]
                if not len(rows):
                    continue
                A = amap[ri]
                rr: list[Ints] = [rows]
                cc: list[Floats] = [P[rows]]
                tt: list[Bools] = [np.ones(len(rows), dtype=bool)]
                run: list[tuple[int, int, int]] = []  # (node, a, b): consecutive nodes' anchors A[5][a:b], added together

                def flush(run: list[tuple[int, int, int]] = run, rr: list[Ints] = rr, cc: list[Floats] = cc, tt: list[Bools] = tt,
                          A: Optional[Anchors] = A) -> None:
                    if run:
                        got = cast(Anchors, A)  # (the runs are of its anchors)
                        ni_, a_, b_ = np.array(run, dtype=int).T
                        n_ = b_ - a_
                        ix = got[5][np.arange(int(n_.sum())) - np.repeat(np.cumsum(n_) - n_, n_) + np.repeat(a_, n_)]
                        rr.append(np.repeat(ni_, n_))
                        cc.append(got[2][ix])
                        tt.append(got[3][ix])
                        run.clear()

                for ni in rows.tolist():
                    if ck_l[ni] >= 0:
                        nd = order[ni]
                        ab = A[4].get((circle[nd], slot[nd])) if A is not None else None
                        if ab is not None:
                            run.append((ni,) + ab)
                    else:
                        flush()
                        verts = region.vertices
                        proj = region.projections(P[ni])
                        rr.append(np.full(len(verts) + len(proj), ni))
                        cc.append(verts)
                        cc.append(proj)
                        tt.append(np.zeros(len(verts), dtype=bool))
                        tt.append(np.ones(len(proj), dtype=bool))
                flush()
                rix = np.concatenate(rr)
                c = np.concatenate([x.reshape(-1, 2) for x in cc])
                t = np.concatenate(tt)
                V = P[rix]
                cost = D[rix] + np.hypot(c[:, 0] - V[:, 0], c[:, 1] - V[:, 1])
                keep = cost < best - 1e-12
                got_from.append(V[keep])
                got_cand.append(c[keep])
                got_cost.append(cost[keep])
                got_test.append(t[keep])
                got_node.append(rix[keep])
                got_owner.append(np.full(int(keep.sum()), ri))
            if not sum(len(x) for x in got_node):
                continue
            froms, cands, costs = np.concatenate(got_from), np.concatenate(got_cand), np.concatenate(got_cost)
            must_test, owner, nodes = np.concatenate(got_test), np.concatenate(got_owner), np.concatenate(got_node)
            ranks = nodes  # a node's rank is its place in Dijkstra order
            order_ = np.lexsort((ranks, owner, costs))
            # The cheapest candidate inside its region with a clear leg wins: test in cost
            # order, a growing batch at a time (membership, then the leg), up to the first.
            lo_, size = 0, 64
            while lo_ < len(order_):
                part = order_[lo_:lo_ + size]
                lo_, size = lo_ + size, size * 4
                inside = np.ones(len(part), dtype=bool)
                for ri in sorted(set(owner[part].tolist())):
                    sel = must_test[part] & (owner[part] == ri)
                    if sel.any():
                        inside[sel] = prepared[ri].contains(cands[part][sel])
                part = part[inside]
                if not len(part):
                    continue
                hit = np.nonzero(self.space.clear_segments(froms[part], cands[part]))[0]
                if len(hit):
                    j = part[hit[0]]
                    c_j = float(costs[j])
                    if c_j < best - 1e-12 or (best_node is not None and c_j <= best + 1e-12 and ranks[j] < best_rank):
                        best, best_end, best_node, best_region = c_j, (float(cands[j][0]), float(cands[j][1])), order[int(nodes[j])], int(owner[j])
                        best_rank = ranks[j]
                    break
        return best, best_end, best_node, best_region


@dataclass(frozen=True, eq=False)
class _Graph:
    """The tangent graph: weighted adjacency (in insertion order), node positions, and how to
    rebuild each edge's :class:`Leg`. Nodes are ints: :data:`START`, :data:`TARGET`, and a
    point of a circle, ``circle[node]`` at ``slot[node]`` (:meth:`Reach._slots`). Made once and
    never changed (compared by identity: two graphs are never compared by value)."""

    adj: Adjacency
    pos: dict[int, Pt]
    legs: Edges
    circle: list[int]
    slot: list[float]
    shared: Optional[Shared] = None  # a shared part's extra facts (:meth:`Reach._start_graph`)

    def key(self, node: int) -> Key:
        """What a node stands for: ``("S",)``, ``("T",)`` or ``("c", circle, slot)``."""
        named: dict[int, LabelKey] = {START: ("S",), TARGET: ("T",)}
        return named.get(node) or ("c", self.circle[node], self.slot[node])


#: The graph's start and target nodes (a circle's points are numbered from 0).
START, TARGET = -1, -2
_LABEL: dict[Key, int] = {("S",): START, ("T",): TARGET}


def _dijkstra(adj: Adjacency, source: int, target: Optional[int] = None, limit: float = math.inf) -> tuple[dict[int, float], dict[int, int]]:
    """Distances from ``source`` (in the order settled) and each node's predecessor: the same
    algorithm, visiting order and tie-breaking as networkx's ``single_source_dijkstra`` (a
    heap keyed by distance then push count), on a plain adjacency dict; nodes at ``limit`` or
    beyond are left out."""
    dist: dict[int, float] = {}
    seen: dict[int, float] = {source: 0}
    prev: dict[int, int] = {}
    c = count()
    fringe: list[tuple[float, int, int]] = [(0, next(c), source)]
    while fringe:
        d, _, v = heappop(fringe)
        if d >= limit:
            break
        if v in dist:
            continue
        dist[v] = d
        if v == target:
            break
        for u, w in adj[v].items():
            du = d + w
            if u in dist:
                continue
            if u not in seen or du < seen[u]:
                seen[u] = du
                heappush(fringe, (du, next(c), u))
                prev[u] = v
    return dist, prev


def _astar(adj: Adjacency, pos: dict[int, Pt], source: int, target: int) -> tuple[Optional[float], dict[int, int]]:
    """The length of a shortest route from ``source`` to ``target`` (``None``: there is none)
    and each reached node's predecessor: A* with the straight distance to the target as its
    lower bound, less :data:`_ASTAR_SLACK`.

    Every edge is at least as long as the straight line between its ends (a tangent is that
    line; an arc is longer than its chord), so the bound never overestimates what is left, up
    to how far a node's position may lie from the tangent points merged into it (far below the
    slack). A node may be settled again when a shorter way to it turns up (the bound is not
    trusted to be consistent to the last bit), so the length is the one Dijkstra finds: the
    least sum of weights from ``source``, added in route order. Only where two routes have
    exactly that length may the route differ from Dijkstra's."""
    tx, ty = pos[target]
    hyp = math.hypot
    g: dict[int, float] = {source: 0.0}
    prev: dict[int, int] = {}
    c = count()
    sx, sy = pos[source]
    fringe: list[tuple[float, int, float, int]] = [(max(hyp(sx - tx, sy - ty) - _ASTAR_SLACK, 0.0), next(c), 0.0, source)]
    bound: dict[int, float] = {}
    while fringe:
        _, _, d, v = heappop(fringe)
        if v == target:
            return d, prev
        if d > g[v]:
            continue  # a shorter way to v was found since this entry was pushed
        for u, w in adj[v].items():
            du = d + w
            if u not in g or du < g[u]:
                g[u] = du
                prev[u] = v
                h = bound.get(u)
                if h is None:
                    x, y = pos[u]
                    h = bound[u] = max(hyp(x - tx, y - ty) - _ASTAR_SLACK, 0.0)
                heappush(fringe, (du + h, next(c), du, u))
    return None, prev


def _route(prev: dict[int, int], node: int) -> list[int]:
    route = [node]
    while route[-1] in prev:
        route.append(prev[route[-1]])
    return route[::-1]


#: How far short of an outline vertex its last leg is probed (inches): a leg whose probe lies
#: inside the goal region cannot end at that vertex.
_PROBE = 1e-6

#: What :func:`_astar` takes off its straight-line bound (inches): far more than a route can
#: fall short of the straight distance between its ends' node positions through rounding
#: (about 1e-11" per edge: tangent points merged into one node lie that close), far less than
#: any length a user reads.
_ASTAR_SLACK = 1e-6

#: Graph nodes whose candidate end spots are tested together in :meth:`Reach.to_region`.
_CHUNK = 64

_TAU = 2 * math.pi

#: :meth:`Reach._bounded`: without a bound, the guess ``a·b + c`` (inches; ``b`` the straight
#: distance from the start to the nearest region's box), then the length that search found or,
#: where it found none, the looser guess; the search is bounded only where at most this share
#: of the circles is kept, and the space has at least this many circles; a circle is kept
#: within this slack of the bound (far above float rounding).
_BOUND_GUESS = (1.1, 0.5)
_BOUND_RETRY = (1.5, 2.0)
_BOUND_SHARE = 0.5
_BOUND_MIN_CIRCLES = 32
_BOUND_SLACK = 1e-6


def _box_distance(boxes: Floats, x: Floats, y: Floats) -> Floats:
    """The straight distance from each point ``(x, y)`` to the nearest of ``boxes``."""
    dx = np.maximum(np.maximum(boxes[None, :, 0] - x[:, None], 0), x[:, None] - boxes[None, :, 2])
    dy = np.maximum(np.maximum(boxes[None, :, 1] - y[:, None], 0), y[:, None] - boxes[None, :, 3])
    return cast(Floats, np.hypot(dx, dy).min(axis=1))


def _on_circles(C: Circles, k: Ints, rel: Floats) -> list[Pt]:
    """The points ``(x, y)`` of circles ``k`` at ``rel`` from their cones' starts, as Python
    floats: ``x + r·cos(lo + rel)`` with the math module's cosine and sine (numpy's may differ
    in the last bit), the rest in numpy (the same roundings)."""
    a = (C.lo[k] + rel).tolist()
    cos, sin = np.array(list(map(math.cos, a))), np.array(list(map(math.sin, a)))
    R = C.r[k]
    return list(zip((C.x[k] + R * cos).tolist(), (C.y[k] + R * sin).tolist()))


def _remainder_tau(a: ArrayLike) -> Floats:
    """``math.remainder(v, 2π)`` for every ``v``, bit for bit: ``fmod`` is exact, and so is the
    step of ±2π that brings its result into [−π, π] (Sterbenz's lemma); an exact half turn
    (where the quotient is rounded half to even) is left to ``math.remainder``."""
    a = np.asarray(a, dtype=float)
    r = np.fmod(a, _TAU)
    half = _TAU / 2
    out: Floats = np.where(r > half, r - _TAU, np.where(r < -half, r + _TAU, r))
    tie = np.abs(r) == half
    if tie.any():
        out[tie] = [math.remainder(v, _TAU) for v in a[tie].tolist()]
    return out


def _round11(x: ArrayLike) -> Floats:
    """``round(v, 11)`` for every ``v`` (numpy's multiply-round-divide, and Python's correctly
    rounded ``round`` wherever the two could differ: a product within 1e-3 of a half)."""
    x = np.asarray(x, dtype=float)
    out = np.round(x, 11)
    y = x * 1e11
    near = np.abs(y - np.floor(y) - 0.5) < 1e-3
    if near.any():
        out[near] = [round(v, 11) for v in x[near].tolist()]
    return out


def shortest_path(space: Space, a: Sequence[float], b: Sequence[float]) -> Optional[Path]:
    """Shortest path for the centre from ``a`` to ``b`` (``None`` if there is none)."""
    return Reach(space, a).to_point(b)


def shortest_to_region(space: Space, a: Sequence[float], region: Region) -> Optional[Path]:
    """Shortest path for the centre from ``a`` to any point of ``region``."""
    return Reach(space, a).to_region(region)
