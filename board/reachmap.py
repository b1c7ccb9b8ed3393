"""Shortest-path lengths from many starts to many goals at once: one multi-source search.

A reach map asks, for every goal point ``t`` of a grid, the length of the shortest path from the
nearest of many start points ``S`` (a deployment zone's positions) through the same
configuration space a single path uses (:mod:`board.space`, :mod:`board.paths`). Doing one
search per goal, or per start, would repeat the same graph work thousands of times; instead:

* every start's clear tangents to the circles are joined to **one** source node (the graph of
  :meth:`board.paths.Reach._start_graph` with many starts: an edge from the source to each
  tangent point, weighted by the length of the tangent from its start; where several starts'
  tangents end at the same point, the shortest);
* every goal's tangent points are **anchors** of the same graph (points of the circles joined by
  arcs to their neighbours), so one Dijkstra from the source settles the length to each of them;
* a goal's length is then the least of ``dist(anchor) + |anchor − t|`` over its clear tangents,
  and of the straight segment from a start it sees (tried nearest start first, only while it can
  still beat the graph's answer).

A shortest path from a start to a goal is straight, or a tangent from the start, then arcs and
common tangents, then a tangent to the goal (docs/geometry.md §3): every such path is in this
graph, so each length is the least over the starts of what :func:`board.paths.shortest_path`
finds (``tests/board/test_reachmap.py`` checks it start by start).
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike

from .arrays import Floats
from .paths import START, PointTangent, Reach, _dijkstra
from .space import TOL, Space

#: The graph memo's key for a reach map's anchors (one map per space).
_TAG = (-1,)
#: Starts tried per goal per round of the straight-segment test (nearest first).
_ROUND = 8


class _Starts(Reach):
    """A :class:`Reach` whose start node stands for every one of ``starts``: its tangents are
    each start's, the shortest kept where two end at the same point of a circle."""

    def __init__(self, space: Space, starts: Floats):
        super().__init__(space, starts[0])
        self.starts = starts

    @cached_property
    def _own(self) -> list[PointTangent]:
        best: dict[tuple[int, float], tuple[float, PointTangent]] = {}
        for p in self.starts.tolist():
            tangents = self._point_tangents((p[0], p[1]), "S")
            if not tangents:
                continue
            ks = np.array([t[1][1] for t in tangents], dtype=int)
            slots, _ = self._slots(ks, np.array([t[1][2] for t in tangents], dtype=float))
            for t, k, s in zip(tangents, ks.tolist(), slots.tolist()):
                w = math.dist(t[2], t[3])
                if (k, s) not in best or w < best[(k, s)][0]:
                    best[(k, s)] = (w, t)
        return [t for _, t in best.values()]


def reach_lengths(space: Space, starts: ArrayLike, goals: ArrayLike) -> Floats:
    """For each goal point, the length of the shortest path for the centre from the nearest of
    ``starts`` (``inf`` where none reaches it, or where the goal itself is not free). Starts that
    are not free space are left out.

    >>> import shapely
    >>> from tapeline.board.space import Obstacle
    >>> s = Space(20, 20, 0.5, [Obstacle("rock", "terrain", shapely.Point(10, 10), 1.0)])
    >>> from tapeline.board.paths import shortest_path
    >>> got = reach_lengths(s, [(2, 10), (6, 10)], [(14, 10), (6, 12), (10, 10)])
    >>> want = shortest_path(s, (6, 10), (14, 10)).length
    >>> bool(abs(got[0] - want) < 1e-9), float(got[1]), float(got[2])
    (True, 2.0, inf)
    """
    S = np.asarray(starts, dtype=float).reshape(-1, 2)
    T = np.asarray(goals, dtype=float).reshape(-1, 2)
    out = np.full(len(T), math.inf)
    if not len(S) or not len(T):
        return out
    S = S[space.point_margin(S)[0] >= -TOL]
    free = space.point_margin(T)[0] >= -TOL
    if not len(S) or not free.any():
        return out
    goal_idx = np.flatnonzero(free)
    R = _Starts(space, S)
    # each goal's clear tangents: the anchors of the graph
    tangents = [R._point_tangents((float(x), float(y)), "T") for x, y in T[goal_idx].tolist()]
    ks = np.array([t[1][1] for ts in tangents for t in ts], dtype=int)
    angles = np.array([t[1][2] for ts in tangents for t in ts], dtype=float)
    via = np.full(len(goal_idx), math.inf)
    if len(ks):
        G = R._start_graph((ks, angles), _TAG)
        dist, _ = _dijkstra(G.adj, START)
        node = {(k, s): n for n, (k, s) in enumerate(zip(G.circle, G.slot))}
        slots, _ = R._slots(ks, angles)
        i = 0
        for g, ts in enumerate(tangents):
            best = math.inf
            for t in ts:
                d = dist.get(node.get((int(ks[i]), float(slots[i])), -3), math.inf)
                best = min(best, d + math.dist(t[2], t[3]))
                i += 1
            via[g] = best
    out[goal_idx] = np.minimum(via, _straight(space, S, T[goal_idx], via))
    return out


def _straight(space: Space, S: Floats, T: Floats, bound: Floats) -> Floats:
    """For each goal, the distance to the nearest start whose straight segment to it is clear,
    when shorter than ``bound`` (``inf`` otherwise): starts are tried nearest first, a few per
    goal per round, until one is clear or the next is no nearer than ``bound``."""
    d = np.hypot(T[:, None, 0] - S[None, :, 0], T[:, None, 1] - S[None, :, 1])
    order = np.argsort(d, axis=1, kind="stable")
    out = np.full(len(T), math.inf)
    live = np.arange(len(T))
    for lo in range(0, len(S), _ROUND):
        if not len(live):
            break
        cols = order[live, lo:lo + _ROUND]
        dd = d[live[:, None], cols]
        want = dd < bound[live, None]
        rows, which = np.nonzero(want)
        clear = np.zeros(want.shape, dtype=bool)
        if len(rows):
            clear[rows, which] = space.clear_segments(S[cols[rows, which]], T[live[rows]])
        hit = clear.any(axis=1)
        first = np.argmax(clear, axis=1)
        out[live[hit]] = dd[hit, first[hit]]
        # a goal stays while no start was clear and the round's farthest start was still wanted
        live = live[~hit & want[:, -1]]
    return out

