"""Configuration space of a moving round model: obstacles grown by its clearance radius.

Shrink the moving model to its centre and grow every obstacle by the clearance radius ρ
(docs/geometry.md §2). An :class:`Obstacle` is a *core* (a terrain footprint polygon, or
a point: the centre of a round base or of a round piece) and a *grow* distance: the centre may
not come closer than ``grow`` to the core (ρ for a footprint, ``r + ρ`` for a round base of
radius ``r``). The table edge is a box the centre must stay inside.

Everything is measured exactly with shapely distances (segments and points to polygons and
points); nothing is sampled except the arc test, which is certified by a Lipschitz bound.

>>> import shapely
>>> s = Space(10, 10, 0.5, [Obstacle("wall", "terrain", shapely.box(4, 0, 6, 6), 0.5)])
>>> round(float(s.point_margin([[3.0, 3.0]])[0][0]), 6)
0.5
>>> bool(s.segment_margin([[3, 8]], [[7, 8]])[0][0] >= 0)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterable, Optional, Sequence, Union, cast

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray
from shapely.geometry.base import BaseGeometry

from .arrays import Bools, Floats, Geoms, Ints
from .bases import RoundBase
from .plane import Rest, ccw_rings, corner_arcs, outline_edges
from .regions import Region
from .table import Figure
from .terrain import Piece

if TYPE_CHECKING:  # (board/paths.py imports this module: the names for annotations only)
    from .paths import ArcKey, BiTangent, RegionAnchors, _Graph

#: Slack for tangency: a segment tangent to a grown obstacle touches it (margin 0 up to float
#: noise); margins down to ``-TOL`` count as clear. Ten times finer than :data:`board.units.TOUCH`.
TOL = 1e-7
#: Sentinel "which obstacle" for the table edge.
EDGE = -1
#: Obstacles farther than their grow + PAD are not looked at; a margin reported as PAD means
#: "at least PAD" (a true lower bound, which is all the arc test needs).
PAD = 1.0
#: A geometry a margin query adds to the obstacles, and how far to keep from it: one
#: geometry (or ``None``) for every query point, or one geometry (or ``None``) for them all.
Extra = Union[tuple[Geoms, Floats], tuple[Optional[BaseGeometry], float]]
#: Bounds of :class:`SearchMemo`: the arc verdicts, the goal regions and the shared graphs it
#: keeps.
MEMO_ARCS = 1 << 16
MEMO_REGIONS = 64
SHARED_GRAPHS = 4


@dataclass(frozen=True)
class Obstacle:
    """A core geometry the moving centre must keep ``grow`` inches away from."""

    id: str
    kind: str  # "terrain" or "model" (what the validator reports)
    core: BaseGeometry
    grow: float

    @property
    def is_point(self) -> bool:
        return bool(shapely.get_type_id(self.core) == 0)


@dataclass(eq=False)
class SearchMemo:
    """What the shortest-path searches on one :class:`Space` share (every
    :class:`board.paths.Reach` built on it, whatever its start and goal), made by the first
    search that needs it. For a space of ``n`` circles (:attr:`Space.circles`), at most:

    * ``bitangents``: the clear circle-to-circle tangents, four per pair of circles;
    * ``tangent_verdicts``: the verdicts of a bounded search's candidate tangents, one byte
      per candidate (four per pair of circles: ``2n(n − 1)`` bytes; 0: not asked, 1: clear,
      2: blocked);
    * ``arcs``: the verdicts of the arcs tested, keyed ``(circle, slot0, slot1)``:
      :data:`MEMO_ARCS` of them, or one graph's arcs if that is more (all forgotten when full);
    * ``prepared`` and ``anchors``: goal regions less the grown obstacles, and the regions'
      anchors (:meth:`board.paths.Reach._region_anchors`): :data:`MEMO_REGIONS` regions, or
      one search's if that is more (forgotten, with the graphs, when full);
    * ``graphs``: the start-independent part of the tangent graph (every clear
      circle-to-circle tangent and the arcs between them), per set of regions' anchors — the
      one without anchors, ``graphs[()]``, is what every point query (:meth:`board.paths.Reach.to_point`)
      joins its start's and goal's tangents to: :data:`SHARED_GRAPHS` (the oldest dropped
      first). Each is the size of the space's tangent graph: about 3 kB per clear tangent with
      its arcs and nodes (8 MB for the 100 obstacles of ``benchmarks/bench_paths_warm.py``,
      35 MB for its 300); a query adds only its own tangents to a copy of the graph's
      top-level dicts, and never changes the kept graph.

    Forgetting changes no answer: what was kept is worked out again, the same way. Not safe
    for several threads at once (the searches share it without a lock): give each thread a
    :class:`Space` of its own.
    """

    bitangents: Optional[list[BiTangent]] = None
    tangent_verdicts: Optional[NDArray[np.int8]] = None
    arcs: dict[ArcKey, bool] = field(default_factory=dict)
    prepared: list[tuple[Region, Region]] = field(default_factory=list)
    anchors: list[tuple[Region, RegionAnchors]] = field(default_factory=list)
    graphs: dict[tuple[int, ...], _Graph] = field(default_factory=dict)

    def arc_verdicts(self, which: list[ArcKey], test: Callable[[list[ArcKey]], list[bool]]) -> list[bool]:
        """The verdict of each arc of ``which``: kept, or given by ``test`` (for every arc
        not kept, in order) and kept from then on."""
        todo = [t for t in which if t not in self.arcs]
        if len(self.arcs) + len(todo) > MEMO_ARCS:
            self.arcs.clear()
            todo = list(which)
        if todo:
            self.arcs.update(zip(todo, test(todo)))
        return [self.arcs[t] for t in which]

    def room_for_regions(self, n: int) -> None:
        """Forget the regions if ``n`` more would pass :data:`MEMO_REGIONS`, and with them the
        graphs made from their anchors (which are keyed by the anchors' ids)."""
        if max(len(self.prepared), len(self.anchors)) + n > MEMO_REGIONS:
            self.prepared.clear()
            self.anchors.clear()
            self.graphs.clear()

    def room_for_graph(self) -> None:
        """Drop the oldest shared graphs until one more fits in :data:`SHARED_GRAPHS`."""
        while len(self.graphs) >= SHARED_GRAPHS:
            del self.graphs[next(iter(self.graphs))]


class Space:
    """Free space for the centre of a model of clearance ``rho`` on a ``width × height`` table.

    ``edge`` is how far the centre keeps from the table edge (default ``rho``).
    """

    def __init__(self, width: float, height: float, rho: float, obstacles: Sequence[Obstacle] = (), edge: Optional[float] = None):
        self.width, self.height, self.rho = float(width), float(height), float(rho)
        self.edge = self.rho if edge is None else float(edge)
        self.box = (self.edge, self.edge, self.width - self.edge, self.height - self.edge)
        self.obstacles = tuple(obstacles)
        self.cores = np.array([o.core for o in self.obstacles], dtype=object)
        self.grow = np.array([o.grow for o in self.obstacles], dtype=float)
        self.maxgrow = float(self.grow.max()) if len(self.grow) else 0.0
        self.tree = shapely.STRtree(self.cores) if len(self.cores) else None
        # for clear_segments: point cores (round bases and pieces) are tested with numpy, the
        # others with GEOS; both after a numpy box test (boxes grown by the clearance)
        is_pt = np.array([o.is_point for o in self.obstacles], dtype=bool)
        self._pt = np.nonzero(is_pt)[0]
        self._pt_xy = shapely.get_coordinates(self.cores[self._pt]).reshape(-1, 2)
        self._poly = np.nonzero(~is_pt)[0]
        self._poly_box = shapely.bounds(self.cores[self._poly]).reshape(-1, 4) + self.grow[self._poly, None] * np.array([-1, -1, 1, 1])
        #: What depends on the space alone, computed on first use and shared by every
        #: :class:`board.paths.Reach` built on it (its bounds: :class:`SearchMemo`).
        self.memo = SearchMemo()

    # --- margins ----------------------------------------------------------------------------

    def _box_margin_pts(self, pts: Floats) -> Floats:
        x0, y0, x1, y1 = self.box
        return cast(Floats, np.minimum.reduce([pts[:, 0] - x0, pts[:, 1] - y0, x1 - pts[:, 0], y1 - pts[:, 1]]))

    def _margins(self, geoms: Geoms, exclude: Optional[Ints] = None, extra: Optional[Extra] = None) -> tuple[Floats, Ints]:
        """Smallest ``distance(geom, core) - grow`` over obstacles near each geometry."""
        n = len(geoms)
        best = np.full(n, PAD)
        which = np.full(n, -2, dtype=int)
        if self.tree is not None and n:
            # bounding boxes grown by the largest clearance: a cheap superset of "dwithin"
            # (the exact distance is taken once, below)
            r = self.maxgrow + PAD
            b = shapely.bounds(geoms)
            gi, oi = self.tree.query(shapely.box(b[:, 0] - r, b[:, 1] - r, b[:, 2] + r, b[:, 3] + r))
            if exclude is not None and len(gi):
                keep = oi != exclude[gi]
                gi, oi = gi[keep], oi[keep]
            if len(gi):
                d = shapely.distance(geoms[gi], self.cores[oi]) - self.grow[oi]
                order = np.lexsort((d, gi))
                gi, oi, d = gi[order], oi[order], d[order]
                first = np.ones(len(gi), dtype=bool)
                first[1:] = gi[1:] != gi[:-1]
                best[gi[first]] = np.minimum(d[first], PAD)
                which[gi[first]] = oi[first]
        if extra is not None:
            geom, grow = extra
            if isinstance(geom, np.ndarray):  # one (geometry or None, grow) per query geometry
                has = ~shapely.is_missing(geom)
                d = np.full(n, np.inf)
                if has.any():
                    d[has] = shapely.distance(geoms[has], geom[has]) - np.asarray(grow)[has]
                lower = d < best
                best[lower], which[lower] = d[lower], -3
            elif geom is not None:
                d = shapely.distance(geoms, geom) - grow
                lower = d < best
                best[lower], which[lower] = d[lower], -3
        return best, which

    def point_margin(self, pts: ArrayLike, exclude: Optional[Ints] = None, extra: Optional[Extra] = None) -> tuple[Floats, Ints]:
        """For each point: how far it is inside free space (negative: inside an obstacle's
        clearance, or beyond the edge) and which obstacle decides (``EDGE`` for the edge)."""
        pts = np.asarray(pts, dtype=float).reshape(-1, 2)
        m, w = self._margins(cast(Geoms, shapely.points(pts)), exclude, extra)
        e = self._box_margin_pts(pts)
        edge = e < m
        m[edge], w[edge] = e[edge], EDGE
        return m, w

    def segment_margin(self, a: ArrayLike, b: ArrayLike) -> tuple[Floats, Ints]:
        """The same for segments ``a[i] → b[i]`` (the box is convex: its ends decide)."""
        a, b, segs = _segments(a, b)
        if not len(a):
            return np.zeros(0), np.zeros(0, dtype=int)
        m, w = self._margins(segs)
        e = np.minimum(self._box_margin_pts(a), self._box_margin_pts(b))
        edge = e < m
        m[edge], w[edge] = e[edge], EDGE
        return m, w

    def clear_points(self, pts: ArrayLike) -> Bools:
        return self.point_margin(pts)[0] >= -TOL

    def clear_segments(self, a: ArrayLike, b: ArrayLike, on: Optional[tuple[ArrayLike, ArrayLike]] = None) -> Bools:
        """Whether each segment ``a[i] → b[i]`` stays in free space (the same verdict as
        ``segment_margin(a, b)[0] >= -TOL``, decided with ``dwithin`` instead of distances;
        against point cores, numpy decides whatever is not within :data:`_UNSURE` of the limit).
        ``on``: the :attr:`circles` the ends lie on (two index arrays; −1: none), which speeds
        the test up and changes no verdict.
        """
        a = np.asarray(a, dtype=float).reshape(-1, 2)
        b = np.asarray(b, dtype=float).reshape(-1, 2)
        if on is None:
            on = (np.full(len(a), -1), np.full(len(a), -1))
        ka, kb = (np.asarray(k, dtype=int).reshape(-1) for k in on)
        ok = np.minimum(self._box_margin_pts(a), self._box_margin_pts(b)) >= -TOL
        # segments x obstacles box tests, a bounded block at a time (memory stays small on a
        # crowded table: ~ _BLOCK booleans per test, whatever the number of segments)
        step = max(1, _BLOCK // max(1, len(self.obstacles)))
        for lo_ in range(0, len(a), step):
            sl = slice(lo_, lo_ + step)
            ok[sl] = self._clear_block(a[sl], b[sl], ok[sl], ka[sl], kb[sl])
        return ok

    def _clear_block(self, a: Floats, b: Floats, ok: Bools, ka: Ints, kb: Ints) -> Bools:
        ok = ok.copy()
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        # candidate pairs: the segment's box meets the obstacle's box grown by its clearance
        # (a superset of "within the clearance"; the verdict is taken below)
        if len(self._pt) and ok.any():
            px, py, g = self._pt_xy[:, 0], self._pt_xy[:, 1], self.grow[self._pt]
            # An end well inside a disc (by more than twice the margin the test below leaves
            # to GEOS): that test would find the segment within reach too. Tangents between
            # circles often start inside a neighbour's disc; they are dropped here, cheaply.
            for P, K in ((a, ka), (b, kb)):
                idx = np.nonzero(ok)[0]
                pi, dj = self._ends_in_discs(P[idx], K[idx])
                ok[idx[pi]] = False
            idx = np.nonzero(ok)[0]
            near = ((px[None, :] + g >= lo[idx, 0, None]) & (px[None, :] - g <= hi[idx, 0, None])
                    & (py[None, :] + g >= lo[idx, 1, None]) & (py[None, :] - g <= hi[idx, 1, None]))
            gi, oi = np.nonzero(near)
            if len(gi):
                hit = _segments_near_points(a[idx[gi]], b[idx[gi]], self._pt_xy[oi], lambda sel: self.cores[self._pt[oi[sel]]], g[oi] - TOL)
                ok[idx[gi[hit]]] = False
        if len(self._poly) and ok.any():
            idx = np.nonzero(ok)[0]
            B = self._poly_box
            near = ((B[None, :, 2] >= lo[idx, 0, None]) & (B[None, :, 0] <= hi[idx, 0, None])
                    & (B[None, :, 3] >= lo[idx, 1, None]) & (B[None, :, 1] <= hi[idx, 1, None]))
            gi, oi = np.nonzero(near)
            if len(gi):
                ug, inv = np.unique(gi, return_inverse=True)
                segs = _segments(a[idx[ug]], b[idx[ug]])[2][inv]
                oi = self._poly[oi]
                hit = shapely.dwithin(segs, self.cores[oi], self.grow[oi] - TOL)  # type: ignore[call-overload]  # (stub: distance may be an array)
                ok[idx[gi[hit]]] = False
        return ok

    @cached_property
    def _pt_lim2(self) -> Floats:
        """Each round obstacle's squared "well inside" radius (:meth:`_ends_in_discs`)."""
        return np.maximum(self.grow[self._pt] - TOL - 2 * _UNSURE, 0.0) ** 2

    @cached_property
    def _pt_by_x(self) -> list[tuple[Ints, Floats, Floats, Floats, float]]:
        """The round obstacles for :meth:`_ends_in_discs`, in groups of like size (the "well
        inside" radius within a factor of two): each group's obstacle indices, x, y and squared
        radius sorted by x, and its widest radius (padded)."""
        lim = np.maximum(self.grow[self._pt] - TOL - 2 * _UNSURE, 0.0)
        cls = np.floor(np.log2(np.maximum(lim, 1e-3)))
        out = []
        # (the classes in order: what np.unique gives, without its import of numpy.ma, ~7 ms
        # of a command's start-up)
        for c in sorted(set(cls[lim > 0].tolist())):
            idx = np.nonzero((cls == c) & (lim > 0))[0]
            idx = idx[np.argsort(self._pt_xy[idx, 0], kind="stable")]
            out.append((idx, self._pt_xy[idx, 0], self._pt_xy[idx, 1], lim[idx] ** 2, float(lim[idx].max()) + 1e-6))
        return out

    def _ends_in_discs(self, P: Floats, K: Ints) -> tuple[Ints, Ints]:
        """Pairs ``(point, round obstacle)`` where point ``P[i]`` lies well inside the disc (by
        more than twice :data:`_UNSURE` within grow − TOL). A point on circle ``K[i]`` can only
        be inside a disc that circle meets (:attr:`_disc_hits`; the margin dwarfs the rounding
        of the point); for the others (``K[i] < 0``), only the discs whose x lies within their
        group's widest such radius of the point's are looked at (no other can hold it)."""
        pis: list[Ints] = [np.zeros(0, dtype=int)]
        js: list[Ints] = [np.zeros(0, dtype=int)]
        on = K >= 0
        if on.any():
            hk, hj = self._disc_hits
            i = np.nonzero(on)[0]
            first = np.searchsorted(hk, K[i])
            n = np.searchsorted(hk, K[i], side="right") - first
            pi = np.repeat(i, n)
            j = hj[np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n) + np.repeat(first, n)]
            dx, dy = P[pi, 0] - self._pt_xy[j, 0], P[pi, 1] - self._pt_xy[j, 1]
            inside = dx * dx + dy * dy < self._pt_lim2[j]
            pis.append(pi[inside])
            js.append(j[inside])
            if on.all():
                return np.concatenate(pis), np.concatenate(js)
            free = np.nonzero(~on)[0]
            P = P[free]
        else:
            free = None
        for idx, xs, ys, lim2, R in self._pt_by_x if len(P) else ():
            lo = np.searchsorted(xs, P[:, 0] - R, side="left")
            n = np.searchsorted(xs, P[:, 0] + R, side="right") - lo
            pi = np.repeat(np.arange(len(P)), n)
            j = np.arange(len(pi)) - np.repeat(np.cumsum(n) - n, n) + np.repeat(lo, n)
            dx, dy = P[pi, 0] - xs[j], P[pi, 1] - ys[j]
            inside = dx * dx + dy * dy < lim2[j]
            pis.append(pi[inside] if free is None else free[pi[inside]])
            js.append(idx[j[inside]])
        return np.concatenate(pis), np.concatenate(js)

    def describe(self, which: int) -> tuple[str, str]:
        """(kind, id) of an obstacle index from a margin query."""
        if which == EDGE:
            return "edge", "table edge"
        if which < 0:
            return "none", ""
        o = self.obstacles[which]
        return o.kind, o.id

    # --- tangent circles --------------------------------------------------------------------

    @cached_property
    def circles(self) -> "Circles":
        """Every circle a shortest path may wrap around (see :class:`Circles`)."""
        cx: list[float] = []
        cy: list[float] = []
        R: list[float] = []
        own: list[int] = []
        lo: list[float] = []
        span: list[float] = []
        rest: list[Optional[Rest]] = []
        row = dict(zip(self._pt.tolist(), self._pt_xy))  # (a round obstacle's centre, read once)
        for k, o in enumerate(self.obstacles):
            if k in row:
                x, y = row[k]
                cx.append(x)
                cy.append(y)
                R.append(o.grow)
                own.append(k)
                lo.append(0.0)
                span.append(2 * math.pi)
                rest.append(None)
                continue
            # A convex footprint needs no rest: from a point of a corner's arc (in the
            # corner's normal cone) the nearest point of a convex polygon is that corner.
            convex = _convex_polygon(o.core)
            for v, a, span_, where in corner_arcs(o.core):
                cx.append(v[0])
                cy.append(v[1])
                R.append(o.grow)
                own.append(k)
                lo.append(a)
                span.append(span_)
                rest.append(None if convex else where)
        return Circles(np.array(cx), np.array(cy), np.array(R), np.array(own, dtype=int), np.array(lo), np.array(span), rest)

    def arcs_clear(self, ks: ArrayLike, a0s: ArrayLike, sweeps: ArrayLike) -> Bools:
        """:meth:`arc_clear` for many arcs. Round obstacles and the table edge are decided
        exactly (where a circle meets a disc is a closed-form interval of angles; an arc's
        extreme coordinates are at its ends or at a quarter turn); footprints (and, for a
        polygon corner, the rest of its own outline) by :meth:`arc_clear`'s certified sampling,
        all arcs at once."""
        ks = np.asarray(ks, dtype=int)
        if not len(ks):
            return np.zeros(0, dtype=bool)
        a0s, sweeps = np.asarray(a0s, dtype=float), np.asarray(sweeps, dtype=float)
        lo = np.where(sweeps >= 0, a0s, a0s + sweeps)
        w = np.abs(sweeps)
        ok = self._arcs_on_table(ks, lo, w) & self._arcs_off_discs(ks, lo, w)
        c = self.circles
        # (a corner's circle belongs to a footprint: without footprints, nothing is left)
        idx = np.nonzero(ok)[0] if len(self._poly) else np.zeros(0, dtype=int)
        if len(idx):
            ok[idx] = self._arcs_clear_sampled(ks[idx], a0s[idx], sweeps[idx])
        return ok

    def _arcs_on_table(self, ks: Ints, lo: Floats, w: Floats) -> Bools:
        """Whether each arc (circle ``ks``, counter-clockwise from ``lo`` through ``w``) stays
        inside the box (margin ≥ −TOL): its extreme x and y are at its ends or at the quarter
        turns it passes."""
        c = self.circles
        x0, y0, x1, y1 = self.box
        out = np.ones(len(ks), dtype=bool)
        # only a circle that comes near the edge can leave the box (on the others the test
        # below would find every arc inside)
        cx, cy, R = c.x[ks], c.y[ks], c.r[ks]
        idx = np.nonzero(~((cx - R - x0 > 1e-9) & (cy - R - y0 > 1e-9) & (x1 - cx - R > 1e-9) & (y1 - cy - R > 1e-9)))[0]
        if not len(idx):
            return out
        lo, w, cx, cy, R = lo[idx], w[idx], cx[idx], cy[idx], R[idx]
        ang = np.column_stack([lo, lo + w] + [np.full(len(lo), q * math.pi / 2) for q in range(4)])
        inside = np.ones(ang.shape, dtype=bool)
        inside[:, 2:] = np.mod(ang[:, 2:] - lo[:, None], 2 * math.pi) <= w[:, None]
        cs, sn = np.cos(ang), np.sin(ang)
        big = np.inf
        xmin = cx + R * np.where(inside, cs, big).min(1)
        xmax = cx + R * np.where(inside, cs, -big).max(1)
        ymin = cy + R * np.where(inside, sn, big).min(1)
        ymax = cy + R * np.where(inside, sn, -big).max(1)
        out[idx] = (xmin - x0 >= -TOL) & (ymin - y0 >= -TOL) & (x1 - xmax >= -TOL) & (y1 - ymax >= -TOL)
        return out

    @cached_property
    def _disc_hits(self) -> tuple[Ints, Ints]:
        """``(circle, obstacle)`` pairs, sorted by circle, where a round obstacle (not the
        circle's own) comes nearer than its grow − TOL to some point of the circle."""
        c = self.circles
        if not len(self._pt) or not len(c):
            return np.zeros(0, dtype=int), np.zeros(0, dtype=int)
        px, py = self._pt_xy[:, 0], self._pt_xy[:, 1]
        g = self.grow[self._pt] - TOL
        ks: list[Ints] = []
        js: list[Ints] = []
        step = max(1, _BLOCK // len(self._pt))
        for lo_ in range(0, len(c), step):
            k = np.arange(lo_, min(len(c), lo_ + step))
            D = np.hypot(px[None, :] - c.x[k, None], py[None, :] - c.y[k, None])
            R = c.r[k, None]
            meet = (D < R + g[None, :]) & (R < D + g[None, :]) & (g[None, :] > 0) & (self._pt[None, :] != c.own[k, None])
            kk, jj = np.nonzero(meet)
            ks.append(k[kk])
            js.append(jj)
        return np.concatenate(ks), np.concatenate(js)

    def _arcs_off_discs(self, ks: Ints, lo: Floats, w: Floats) -> Bools:
        """Whether each arc keeps grow − TOL from every round obstacle but its own: the angles
        of a circle (centre c, radius R) within r of a point p at distance D are those within
        ``acos((R² + D² − r²) / (2RD))`` of the direction of p (all of them when the circle lies
        inside the disc)."""
        hk, hj = self._disc_hits
        ok = np.ones(len(ks), dtype=bool)
        if not len(hk):
            return ok
        c = self.circles
        first = np.searchsorted(hk, np.arange(len(c)))
        count = np.searchsorted(hk, np.arange(len(c)), side="right") - first
        n = count[ks]
        arc = np.repeat(np.arange(len(ks)), n)
        if not len(arc):
            return ok
        offs = np.arange(len(arc)) - np.repeat(np.cumsum(n) - n, n)
        pair = first[ks][arc] + offs
        k, j = hk[pair], hj[pair]
        px, py = self._pt_xy[j, 0] - c.x[k], self._pt_xy[j, 1] - c.y[k]
        D = np.hypot(px, py)
        R = c.r[k]
        r = self.grow[self._pt[j]] - TOL
        whole = D + R < r
        with np.errstate(invalid="ignore", divide="ignore"):
            q = (R * R + D * D - r * r) / (2 * R * D)
        beta = np.arccos(np.clip(np.where(whole, -1.0, q), -1, 1))
        phi = np.arctan2(py, px)
        start = np.mod(phi - beta - lo[arc], 2 * math.pi)   # the blocked interval's start, seen from the arc's
        back = np.mod(lo[arc] - (phi - beta), 2 * math.pi)  # the arc's start, seen from the blocked interval's
        hit = whole | ((beta > 0) & ((start < w[arc]) | (back < 2 * beta)))  # an open interval: empty at β = 0
        ok[arc[hit]] = False
        return ok

    @cached_property
    def _poly_bounds(self) -> Floats:
        """The footprints' bounding boxes (not grown)."""
        return shapely.bounds(self.cores[self._poly]).reshape(-1, 4)

    def _poly_margin(self, pts: Floats, exclude: Ints, extra: tuple[Geoms, Floats]) -> Floats:
        """:meth:`point_margin` against the footprints alone (not round obstacles, not the
        edge), leaving out obstacle ``exclude[i]`` for point ``i`` and adding ``extra``: one
        geometry or ``None`` per point and its grow."""
        geoms = cast(Geoms, shapely.points(pts))
        best = np.full(len(pts), PAD)
        if len(self._poly) and len(pts):
            # the footprints whose boxes meet each point's box grown by r (what a tree query
            # would give; a footprint farther than r leaves the margin at PAD anyway)
            r = float(self.grow[self._poly].max()) + PAD
            B = self._poly_bounds
            gi, oi = np.nonzero((B[None, :, 0] <= pts[:, 0, None] + r) & (B[None, :, 2] >= pts[:, 0, None] - r)
                                & (B[None, :, 1] <= pts[:, 1, None] + r) & (B[None, :, 3] >= pts[:, 1, None] - r))
            oi = self._poly[oi]
            keep = oi != exclude[gi]
            gi, oi = gi[keep], oi[keep]
            if len(gi):
                np.minimum.at(best, gi, shapely.distance(geoms[gi], self.cores[oi]) - self.grow[oi])
        geom, grow = extra
        has = ~shapely.is_missing(geom)
        if has.any():
            best[has] = np.minimum(best[has], shapely.distance(geoms[has], geom[has]) - np.asarray(grow)[has])
        return best

    def _arcs_clear_sampled(self, ks: Ints, a0s: Floats, sweeps: Floats) -> Bools:
        """The certified sampling of :meth:`arc_clear` against footprints (and a corner's own
        rest of outline) alone, every arc at once: one query settles most of them (clear at
        the first sampling, or blocked); the unsettled pieces of the rest are bisected
        together."""
        out = np.zeros(len(ks), dtype=bool)
        c = self.circles
        R = c.r[ks]
        n = np.maximum(2, (np.abs(sweeps) * R / _ARC_STEP).astype(int) + 2)
        owner = np.repeat(np.arange(len(ks)), n)
        starts = np.concatenate([[0], np.cumsum(n)[:-1]])
        # np.linspace(0, 1, m) for every arc at once (the same floats: i·(1/(m−1)), last 1.0)
        frac = (np.arange(len(owner)) - starts[owner]) * (1.0 / (n - 1))[owner] + 0.0
        frac[starts + n - 1] = 1.0
        t = a0s[owner] + frac * sweeps[owner]
        kk = ks[owner]
        pts = np.column_stack([c.x[kk] + c.r[kk] * np.cos(t), c.y[kk] + c.r[kk] * np.sin(t)])
        rest = c.rest_array(kk)
        grow = self.grow[c.own[kk]] if len(self.grow) else np.zeros(len(kk))
        m = self._poly_margin(pts, c.own[kk], (rest, grow))
        kappa = 1.0 / R + 1.0 / max(self.rho, 1e-12)
        blocked = np.logical_or.reduceat(m < -TOL, starts)
        s = R * np.abs(sweeps) / (n - 1)
        sp, kp = s[owner[:-1]], kappa[owner[:-1]]
        settled = ((m[:-1] + m[1:] - sp) / 2 >= -TOL) | (sp * sp * kp / 8 <= TOL)
        pair_bad = ~settled & (owner[:-1] == owner[1:])
        unsettled = np.zeros(len(ks), dtype=bool)
        unsettled[owner[:-1][pair_bad]] = True
        out = ~blocked & ~unsettled
        # The rest, all at once: bisect every unsettled piece of every arc still open (the
        # same certificates and limits as :meth:`arc_clear`, arc by arc).
        pend = ~blocked & unsettled
        # An arc whose margin provably stays above −TOL by more than any sample's rounding
        # (:meth:`_arcs_floor`) ends clear whatever the bisection samples: it is skipped.
        cand = np.nonzero(pend)[0]
        if len(cand):
            lo_ = np.where(sweeps[cand] >= 0, a0s[cand], a0s[cand] + sweeps[cand])
            sure = cand[self._arcs_floor(ks[cand], lo_, np.abs(sweeps[cand])) >= -TOL + _FLOOR_SLACK]
            out[sure] = True
            pend[sure] = False
        garc = self.grow[c.own[ks]] if len(self.grow) else np.zeros(len(ks))
        sel = np.nonzero(pair_bad & pend[owner[:-1]])[0]
        o = owner[sel]
        ta, tb, ma, mb = t[sel], t[sel + 1], m[sel], m[sel + 1]
        for _ in range(60):
            if not len(o):
                break
            bad_pt = (ma < -TOL) | (mb < -TOL)
            if bad_pt.any():
                hit = o[bad_pt]
                pend[hit] = False  # blocked: out stays False
            s = R[o] * np.abs(tb - ta)
            bad = ((ma + mb - s) / 2 < -TOL) & (s * s * kappa[o] / 8 > TOL) & pend[o]
            live = np.zeros(len(ks), dtype=bool)
            live[o[bad]] = True
            done = pend & ~live          # every piece certified: clear
            out[done] = True
            pend &= live
            smax = np.zeros(len(ks))
            np.maximum.at(smax, o[bad], s[bad])
            cnt = np.bincount(o[bad], minlength=len(ks))
            give = pend & ((smax < 1e-9) | (cnt > 100_000))
            out[give] = True             # every sample clear far below the tolerance
            pend &= ~give
            keep = bad & pend[o]
            o, ta, tb, ma, mb = o[keep], ta[keep], tb[keep], ma[keep], mb[keep]
            if not len(o):
                break
            tm = (ta + tb) / 2
            kk = ks[o]
            pts = np.column_stack([c.x[kk] + c.r[kk] * np.cos(tm), c.y[kk] + c.r[kk] * np.sin(tm)])
            mm = self._poly_margin(pts, c.own[kk], (c.rest_array(kk), garc[o]))
            o = np.concatenate([o, o])
            ta, tb = np.concatenate([ta, tm]), np.concatenate([tm, tb])
            ma, mb = np.concatenate([ma, mm]), np.concatenate([mm, mb])
        out[pend] = True
        return out

    @cached_property
    def _poly_segments(self) -> Optional[tuple[Floats, Ints]]:
        """The straight pieces of every footprint's outline (holes too) and of every wall, as
        ``(n, 2, 2)`` segments, with the obstacle each belongs to (``None`` for a core of
        another kind). A point outside a footprint is as far from it as from these."""
        segs: list[Floats] = [np.zeros((0, 2, 2))]
        own: list[Ints] = [np.zeros(0, dtype=int)]
        for o in self._poly.tolist():
            for part in shapely.get_parts(self.cores[o]):
                kind = shapely.get_type_id(part)
                if kind == 3:
                    rings = [part.exterior, *part.interiors]
                elif kind in (1, 2):
                    rings = [part]
                else:
                    return None
                for ring in rings:
                    xy = shapely.get_coordinates(ring)
                    xy = np.concatenate([xy, xy]) if len(xy) == 1 else xy
                    segs.append(np.stack([xy[:-1], xy[1:]], axis=1))
                    own.append(np.full(len(xy) - 1, o))
        return np.concatenate(segs), np.concatenate(own)

    def _arcs_floor(self, ks: Ints, lo: Floats, w: Floats) -> Floats:
        """A lower bound of each arc's margin (circle ``ks``, counter-clockwise from ``lo``
        through ``w``) against what :meth:`_arcs_clear_sampled` samples: every footprint but
        the circle's own, and the rest of its own outline. Exact up to float rounding (far
        below :data:`_FLOOR_SLACK`): the least distance from the arc to any of their straight
        pieces (:func:`_arc_segment_distance`) less that obstacle's grow. Only arcs whose every
        sample is outside every footprint are asked (a footprint an arc enters, its outline
        crosses: distance 0); ``-inf`` where the outlines are not straight pieces."""
        c = self.circles
        ks = np.asarray(ks, dtype=int)
        floor = np.full(len(ks), np.inf)
        ps = self._poly_segments
        if ps is None:
            return np.full(len(ks), -np.inf)
        segs, sown = ps
        lo, w = np.asarray(lo, dtype=float) - _FLOOR_EPS, np.asarray(w, dtype=float) + 2 * _FLOOR_EPS
        cx, cy, R, own = c.x[ks], c.y[ks], c.r[ks], c.own[ks]
        if len(segs):
            # pairs whose boxes come within the segment's grow (+ a little): a farther piece
            # leaves a positive margin, which decides nothing
            g = self.grow[sown] + 1e-3
            sb = np.column_stack([segs[:, :, 0].min(1) - g, segs[:, :, 1].min(1) - g, segs[:, :, 0].max(1) + g, segs[:, :, 1].max(1) + g])
            step = max(1, _BLOCK // max(1, len(segs)))
            for a_ in range(0, len(ks), step):
                sl = slice(a_, a_ + step)
                near = ((sb[None, :, 0] <= (cx[sl] + R[sl])[:, None]) & (sb[None, :, 2] >= (cx[sl] - R[sl])[:, None])
                        & (sb[None, :, 1] <= (cy[sl] + R[sl])[:, None]) & (sb[None, :, 3] >= (cy[sl] - R[sl])[:, None])
                        & (sown[None, :] != own[sl, None]))
                ai, si = np.nonzero(near)
                ai = ai + a_
                if len(ai):
                    d = _arc_segment_distance(cx[ai], cy[ai], R[ai], lo[ai], w[ai], segs[si, 0], segs[si, 1])
                    np.minimum.at(floor, ai, d - self.grow[sown[si]])
        # the rest of each corner's own outline: every (arc, edge) pair at once
        edges = [c.rest_edges(k) for k in ks.tolist()]
        n = np.array([len(e) for e in edges], dtype=int)
        if n.sum():
            ai = np.repeat(np.arange(len(ks)), n)
            e = np.concatenate([x for x in edges if len(x)])
            d = _arc_segment_distance(cx[ai], cy[ai], R[ai], lo[ai], w[ai], e[:, 0], e[:, 1])
            np.minimum.at(floor, ai, d - self.grow[own[ai]])
        return floor

    def arc_clear(self, k: int, a0: float, sweep: float) -> bool:
        """Is the arc of circle ``k`` from angle ``a0`` through ``sweep`` (signed) clear?

        The circle's own obstacle is left out (the arc lies exactly on its boundary; for a
        polygon corner, the arc stays in the corner's normal cone, and the rest of that
        polygon's outline is still checked). A piece of arc of length ``s`` between two samples
        is certified clear when (a) distances being 1-Lipschitz, ``(m1 + m2 − s)/2 ≥ −TOL``, or
        (b) both samples are clear and ``s²·κ/8 ≤ TOL``, κ = 1/R + 1/ρ bounding the curvature
        of the arc and of every grown outline (circles of radius ≥ ρ and straight pieces), so
        nothing can poke deeper than TOL between the samples. Unsettled pieces are bisected.
        """
        c = self.circles
        x, y, R = c.x[k], c.y[k], c.r[k]
        if abs(sweep) * R < 1e-12:
            return True
        exclude_k = c.own[k]
        rest = c.rest_of(k)
        extra = (rest, self.grow[exclude_k]) if rest is not None else None
        kappa = 1.0 / R + 1.0 / max(self.rho, 1e-12)
        def margins(t: Floats) -> Floats:
            pts = np.column_stack([x + R * np.cos(t), y + R * np.sin(t)])
            return self.point_margin(pts, exclude=np.full(len(t), exclude_k), extra=extra)[0]

        t = np.linspace(a0, a0 + sweep, max(2, int(abs(sweep) * R / 0.05) + 2))
        m = margins(t)
        ta, tb, ma, mb = t[:-1], t[1:], m[:-1], m[1:]
        for _ in range(60):
            if (ma < -TOL).any() or (mb < -TOL).any():
                return False
            s = R * np.abs(tb - ta)
            bad = ((ma + mb - s) / 2 < -TOL) & (s * s * kappa / 8 > TOL)
            if not bad.any():
                return True
            ta, tb, ma, mb, s = ta[bad], tb[bad], ma[bad], mb[bad], s[bad]
            if s.max() < 1e-9 or len(ta) > 100_000:
                return True  # every sample clear at a spacing far below the tolerance
            tm = (ta + tb) / 2
            mm = margins(tm)
            ta, tb = np.concatenate([ta, tm]), np.concatenate([tm, tb])
            ma, mb = np.concatenate([ma, mm]), np.concatenate([mm, mb])
        return True


@dataclass(frozen=True, eq=False)
class Circles:
    """Circles a path may wrap: centre, radius, owning obstacle, normal cone ``[lo, lo+span]``
    (a full turn for round obstacles) and, for polygon corners, the rest of the outline. Made
    by :attr:`Space.circles` and never changed (compared by identity: arrays have no single
    truth value)."""

    x: Floats
    y: Floats
    r: Floats
    own: Ints
    lo: Floats
    span: Floats
    rest: list[Optional[Rest]]  # per circle: None (round obstacle) or (outline, corner index, closed)
    # each corner's rest of outline, made on first use (:meth:`rest_of`, :meth:`rest_edges`):
    # at most one entry per circle; safe from several threads (two racing make the same entry)
    _rest_geoms: dict[int, Optional[BaseGeometry]] = field(default_factory=dict, init=False, repr=False)
    _rest_edges: dict[int, Floats] = field(default_factory=dict, init=False, repr=False)

    def rest_of(self, k: int) -> Optional[BaseGeometry]:
        """The rest of a corner's outline (every edge but the one or two at the corner), as
        one MultiLineString built on first use; ``None`` for a round obstacle."""
        k = int(k)
        where = self.rest[k]
        if where is None:
            return None
        if k not in self._rest_geoms:
            edges = outline_edges(*where)
            self._rest_geoms[k] = cast(BaseGeometry, shapely.multilinestrings(cast(Geoms, shapely.linestrings(edges)))) if len(edges) else None
        return self._rest_geoms[k]

    def rest_edges(self, k: int) -> Floats:
        """The edges of :meth:`rest_of` as an ``(m, 2, 2)`` array (none for a round obstacle)."""
        k = int(k)
        where = self.rest[k]
        if where is None:
            return _NO_EDGES
        if k not in self._rest_edges:
            self._rest_edges[k] = outline_edges(*where).reshape(-1, 2, 2)
        return self._rest_edges[k]

    def rest_array(self, ks: ArrayLike) -> Geoms:
        """:meth:`rest_of` for each index of ``ks`` (an object array, ``None`` for round ones)."""
        ks = np.asarray(ks, dtype=int)
        uk, inv = np.unique(ks, return_inverse=True)
        geoms = np.empty(len(uk), dtype=object)
        for i, k in enumerate(uk.tolist()):
            geoms[i] = self.rest_of(k)
        return geoms[inv]

    def __len__(self) -> int:
        return len(self.x)

    @cached_property
    def floats(self) -> tuple[list[float], list[float], list[float], list[float]]:
        """``x``, ``y``, ``r`` and ``lo`` as lists of Python floats (the same values: for
        arithmetic one point at a time, faster than numpy's scalars)."""
        return self.x.tolist(), self.y.tolist(), self.r.tolist(), self.lo.tolist()

    def in_cone(self, k: Ints, ang: Floats) -> Bools:
        rel = np.mod(ang - self.lo[k], 2 * math.pi)
        full = self.span[k] >= 2 * math.pi - 1e-12
        return full | (rel <= self.span[k] + 1e-9) | (rel >= 2 * math.pi - 1e-9)


_NO_EDGES = np.zeros((0, 2, 2))


def _convex_polygon(core: BaseGeometry) -> bool:
    """Whether ``core`` is one polygon whose exterior turns left at every corner."""
    if shapely.get_type_id(core) != 3:
        return False
    rings = list(ccw_rings(core))
    if len(rings) != 1:
        return False
    v = np.asarray(rings[0], dtype=float)
    e = np.roll(v, -1, axis=0) - v
    f = np.roll(e, -1, axis=0)
    return bool(np.all(e[:, 0] * f[:, 1] - e[:, 1] * f[:, 0] >= -1e-15))


def _segments(a: ArrayLike, b: ArrayLike) -> tuple[Floats, Floats, Geoms]:
    """Arrays of start and end points and the shapely segments (a point where they coincide)."""
    a = np.asarray(a, dtype=float).reshape(-1, 2)
    b = np.asarray(b, dtype=float).reshape(-1, 2)
    segs = cast(Geoms, shapely.linestrings(np.stack([a, b], axis=1))) if len(a) else np.zeros(0, dtype=object)
    same = np.all(np.abs(a - b) < 1e-15, axis=1)
    if same.any():
        segs[same] = shapely.points(a[same])
    return a, b, segs


#: First sampling step (inches) along an arc in :meth:`Space.arcs_clear`; pieces the samples
#: do not certify are bisected.
_ARC_STEP = 0.2

#: How far (in the margin) an arc's proven lower bound must clear −TOL for the sampling to be
#: skipped (:meth:`Space._arcs_floor`): far above the rounding of a sample's margin (~1e-14").
_FLOOR_SLACK = 1e-9

#: The arcs :meth:`Space._arcs_floor` bounds are widened by this (radians) at each end.
_FLOOR_EPS = 1e-9

#: Segment x obstacle pairs box-tested at once by :meth:`Space.clear_segments`.
_BLOCK = 1 << 21

#: Distances of a segment to a point within this of the threshold go to GEOS (numpy's own
#: rounding error is below 1e-13 on a table-sized board): the verdict is GEOS's.
_UNSURE = 1e-9


def _segments_near_points(a: Floats, b: Floats, xy: Floats, cores: Callable[[Ints], Geoms], limit: Floats) -> Bools:
    """For pairs ``i``: does segment ``a[i] → b[i]`` come within ``limit[i]`` of point
    ``xy[i]``? The same verdict as ``shapely.dwithin(segment, core_i, limit[i])``: computed
    with numpy, handed to GEOS only where the distance lies within :data:`_UNSURE` of the limit
    (``cores(sel)``: the point geometries of pairs ``sel``, asked for those alone)."""
    d = b - a
    L2 = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]  # (what .sum(1) gives, bit for bit, and faster)
    w = xy - a
    t = np.clip(np.where(L2 > 0, (w[:, 0] * d[:, 0] + w[:, 1] * d[:, 1]) / np.where(L2 > 0, L2, 1), 0.0), 0.0, 1.0)
    e = w - t[:, None] * d
    dist = np.hypot(e[:, 0], e[:, 1])
    hit = dist < limit - _UNSURE
    unsure = np.nonzero(np.abs(dist - limit) <= _UNSURE)[0]
    if len(unsure):
        hit[unsure] = shapely.dwithin(_segments(a[unsure], b[unsure])[2], cores(unsure), limit[unsure])  # type: ignore[call-overload]  # (stub: distance may be an array)
    return hit


def _point_segment_distance(px: Floats, py: Floats, ax: Floats, ay: Floats, bx: Floats, by: Floats) -> Floats:
    """Distance from each point ``(px, py)`` to segment ``a → b`` (a point where they meet)."""
    ux, uy = bx - ax, by - ay
    L2 = ux * ux + uy * uy
    t = np.clip(((px - ax) * ux + (py - ay) * uy) / np.where(L2 > 0, L2, 1.0), 0.0, 1.0)
    return np.hypot(px - (ax + t * ux), py - (ay + t * uy))


def _arc_segment_distance(cx: Floats, cy: Floats, R: Floats, lo: Floats, w: Floats, A: Floats, B: Floats) -> Floats:
    """The least distance between each arc (centre ``(cx, cy)``, radius ``R``, directions
    counter-clockwise from ``lo`` through ``w``) and segment ``A → B``, up to float rounding.

    It is reached at an end of one of them, or inside both: where they cross (0), or along
    the radius through the foot ``F`` of the centre on the segment's line when that line
    misses the circle (``|F − c| − R``). Every candidate whose direction is within the arc
    (with a little slack: an extra candidate can only lower the answer) is taken."""
    TAU = 2 * math.pi
    full = w >= TAU - 1e-9

    def on_arc(px: Floats, py: Floats) -> Bools:
        rel = np.mod(np.arctan2(py - cy, px - cx) - lo, TAU)
        return full | (rel <= w + 1e-9) | (rel >= TAU - 1e-9)

    ax, ay, bx, by = A[:, 0], A[:, 1], B[:, 0], B[:, 1]
    d = np.minimum(_point_segment_distance(cx + R * np.cos(lo), cy + R * np.sin(lo), ax, ay, bx, by),
                   _point_segment_distance(cx + R * np.cos(lo + w), cy + R * np.sin(lo + w), ax, ay, bx, by))
    for qx, qy in ((ax, ay), (bx, by)):
        d = np.where(on_arc(qx, qy), np.minimum(d, np.abs(np.hypot(qx - cx, qy - cy) - R)), d)
    ux, uy = bx - ax, by - ay
    L2 = ux * ux + uy * uy
    seg = L2 > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(seg, ((cx - ax) * ux + (cy - ay) * uy) / np.where(seg, L2, 1.0), -1.0)
        fx, fy = ax + t * ux, ay + t * uy
        h = np.hypot(fx - cx, fy - cy)
        foot = seg & (t >= -1e-12) & (t <= 1 + 1e-12)
        d = np.where(foot & (h >= R) & on_arc(fx, fy), np.minimum(d, h - R), d)
        off = np.sqrt(np.maximum(R * R - h * h, 0.0)) / np.sqrt(np.where(seg, L2, 1.0))
        for sgn in (1.0, -1.0):
            tc = t + sgn * off
            xx, yy = ax + tc * ux, ay + tc * uy
            cross = seg & (h < R) & (tc >= -1e-12) & (tc <= 1 + 1e-12) & on_arc(xx, yy)
            d = np.where(cross, 0.0, d)
    return d


def disc_obstacle(id: str, kind: str, x: float, y: float, r: float, rho: float) -> Obstacle:
    """A round base (or round piece) of radius ``r``: the centre keeps ``r + ρ`` away."""
    return Obstacle(id, kind, shapely.Point(float(x), float(y)), float(r) + float(rho))


def polygon_obstacle(id: str, kind: str, poly: BaseGeometry, rho: float) -> Obstacle:
    """A footprint (filled: holes are ignored), kept ``ρ`` away."""
    parts = [shapely.Polygon(p.exterior) for p in shapely.get_parts(poly)]
    core = parts[0] if len(parts) == 1 else shapely.MultiPolygon(parts)
    return Obstacle(id, kind, core, float(rho))


#: Vertices of the circumscribed polygon standing in for an oval base as an obstacle.
OVAL_OBSTACLE_VERTICES = 128


def oval_polygon_outside(x: float, y: float, a: float, b: float, phi: float, n: int = OVAL_OBSTACLE_VERTICES) -> shapely.Polygon:
    """A polygon *containing* the ellipse: the affine image of a regular polygon circumscribing
    the unit circle (an affine map keeps tangency, so every edge touches the ellipse)."""
    t = (np.arange(n) + 0.5) * 2 * math.pi / n
    g = 1.0 / math.cos(math.pi / n)
    u, v = a * g * np.cos(t), b * g * np.sin(t)
    cp, sp = math.cos(phi), math.sin(phi)
    return shapely.Polygon(np.column_stack([x + u * cp - v * sp, y + u * sp + v * cp]))


def figure_obstacle(fig: Figure, rho: float, kind: str = "model") -> Obstacle:
    """A model's base as an obstacle: exact for round bases, a circumscribed polygon (so
    conservative) for ovals."""
    if isinstance(fig.base, RoundBase):
        return disc_obstacle(fig.id, kind, fig.x, fig.y, fig.base.radius, rho)
    b = fig.base
    return Obstacle(fig.id, kind, oval_polygon_outside(fig.x, fig.y, b.a, b.b, b.phi), float(rho))


def figure_obstacles(figs: Iterable[Figure], rho: float, kind: str = "model") -> list[Obstacle]:
    """:func:`figure_obstacle` for each of ``figs``, in order (the round bases' centres made in
    one shapely call: the same points)."""
    figs = list(figs)
    xy = [(float(f.x), float(f.y)) for f in figs if f.is_round]
    centres = iter(cast(Geoms, shapely.points(np.array(xy, dtype=float))) if xy else ())
    return [Obstacle(f.id, kind, next(centres), float(f.base.radius) + float(rho)) if isinstance(f.base, RoundBase)
            else figure_obstacle(f, rho, kind) for f in figs]


def piece_obstacle(piece: Piece, rho: float) -> Obstacle:
    """A terrain piece: round pieces exactly (their ``circle``), others by their footprint."""
    if piece.circle is not None:
        x, y, r = piece.circle
        return disc_obstacle(piece.id, "terrain", x, y, r, rho)
    return polygon_obstacle(piece.id, "terrain", piece.footprint, rho)
