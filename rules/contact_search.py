"""As many models as possible into base contact: the search behind an assault's end spots.

40k 3rd (seed "Who Can Fight"): "the assaulting player must move as many models into contact as
possible". Each moving model may end anywhere on the **contact ring** of a target model (its
centre at exactly the sum of the two radii from the target's centre) that is *legal* (wholly on
the table, overlapping no base or impassable terrain, not touching an enemy it may not touch)
and *reachable* (its own path there is within its allowance, :class:`Mover`). Models of the
moving unit block each other's end spots but not their paths (a unit passes through its own
models).

**Candidate spots.** On one ring the feasible spots form arcs. In an optimal placement every
model can be slid along its ring until it meets a constraint — an end of its feasible arc, or
another model — without losing a contact; so the search needs only those spots:

1. the ring is sampled every 10° and at every angle where an analytic boundary crosses it (the
   circle the model reaches in a straight line; the circles no base may enter — other models,
   round terrain; the table edge) ± 1e-7 rad, and each sample is tested;
2. each run of feasible samples is one arc; an end not on an analytic boundary (a terrain
   corner, a path that bends round an obstacle) is found by bisection on the angle to 1e-9 rad;
3. at each step of the search the arcs lose the angles the models already placed cover (exact
   circle–circle intervals): the ends of what is left are the model's candidates, with the spot
   of each arc nearest the model (its straight route's end), tried first when nearest.

**Search.** Depth-first over the moving models, each taking one candidate or none; a branch is
cut when its contacts plus the models left that have any candidate at all cannot beat the best
found, and the search stops once it has placed as many models as can reach contact or as fit
round the targets (:func:`_capacity`). The candidates of a model depend on the models placed
*before* it — a model whose whole ring is free only tries its nearest spot — so a model placed
early can take the one spot a later model needed (a near model on a free ring, a far one that
reaches only a narrow arc of the same ring: the near one must stand aside, tangent to the far
one). Hence three passes, the best kept:

1. the models in a fixed order, shortest route to contact first;
2. the same, the most constrained first (the narrowest feasible arcs; free rings last);
3. if neither placed every model it could, **chains**: in an optimal placement every model can
   be slid round its ring, angles decreasing, until it meets the start of its arc or another
   model, so every model stands at the start of an arc left by the others and the models form
   chains, each starting at an arc's start and going on by models tangent to one placed before;
   this pass builds them in any order of the models (only the starts of the arcs left, a free
   ring's nearest spot), each placement searched once.

Exhaustive over the candidates up to :data:`NODE_BUDGET` search nodes for the fixed orders and a
quarter as many for the chains (their nodes cost more), then the best found so far (stated in
the answer). An arc narrower than
the 10° sampling whose ends are not analytic can be missed (a documented limit: in open ground
every boundary is analytic).

>>> import shapely
>>> from tapeline.board.bases import RoundBase
>>> from tapeline.board.table import Figure
>>> foe = Figure("t", "foe", "b", RoundBase(25.4), 10, 10)
>>> movers = [Mover(Figure(f"m{i}", "u", "a", RoundBase(25.4), 10 + 3 * math.cos(a), 10 + 3 * math.sin(a)), 6.0)
...           for i, a in enumerate([k * math.pi / 3.5 for k in range(7)])]
>>> res = most_contacts(movers, [foe], [], (0, 0, 20, 20))
>>> len(res.spots)                       # seven 1" bases around one 1" base: six fit
6
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Literal, Optional, Sequence, Union

from tapeline.board.table import Figure

from .charge_geometry import radius

#: Search nodes before the best placement found so far is returned.
NODE_BUDGET = 20_000
#: The chains pass searches at most this fraction (1 / n) of :data:`NODE_BUDGET` nodes more.
CHAINS_SHARE = 4
#: Ring sampling step (degrees) between analytic boundary angles.
SAMPLE_DEG = 10.0
#: Contact rings sit this far outside touching (far below the 1e-6" "touching" tolerance).
RING_SLACK = 1e-7
_EPS_ANGLE = 1e-7
_TAU = 2 * math.pi

#: The table ``(x0, y0, x1, y1)``.
Box = tuple[float, float, float, float]
#: An end spot: the centre ``(x, y)`` and the target model it contacts.
Spot = tuple[float, float, str]
#: An arc of a contact ring: ``(start angle, width)`` (radians, counter-clockwise).
Arc = tuple[float, float]
#: Where a ring is blocked: an open arc, or ``"all"`` of it.
Cut = Union[Arc, Literal["all"]]
#: A base placed: its centre and radius ``(x, y, r)``.
Disc = tuple[float, float, float]


@dataclass
class Mover:
    """One moving model: ``allowance`` is how far it may move in a straight line (the analytic
    reach circle); ``reach(x, y)`` says whether the point is reachable within its allowance by
    its own legal path (default: a straight line no longer than the allowance)."""

    fig: Figure
    allowance: float
    reach: Optional[Callable[[float, float], bool]] = None

    def reachable(self, x: float, y: float) -> bool:
        if self.reach is not None:
            return bool(self.reach(x, y))
        return math.hypot(x - self.fig.x, y - self.fig.y) <= self.allowance + 1e-9


@dataclass(frozen=True)
class Blocker:
    """A disc no moving base may overlap (``contact_ok``: touching is allowed; else the
    moving base must stay strictly clear, e.g. an enemy it may not touch)."""

    x: float
    y: float
    r: float
    contact_ok: bool = True


@dataclass
class SearchResult:
    spots: dict[str, Spot]      # model id -> (x, y, target id)
    nodes: int
    exhaustive: bool
    candidates: dict[str, int] = field(default_factory=dict)   # model id -> number of static arcs


def _norm(a: float) -> float:
    return a % _TAU


def _ring_circle_angles(cx: float, cy: float, R: float, ox: float, oy: float, s: float) -> Optional[tuple[float, float]]:
    """Angles on the ring (centre c, radius R) where it meets the circle (o, s); ``None``: no
    crossing."""
    d = math.hypot(ox - cx, oy - cy)
    if d < 1e-12 or d > R + s or d < abs(R - s):
        return None
    base = math.atan2(oy - cy, ox - cx)
    half = math.acos(max(-1.0, min(1.0, (R * R + d * d - s * s) / (2 * R * d))))
    return base - half, base + half


def _blocked_interval(cx: float, cy: float, R: float, ox: float, oy: float, s: float) -> Optional[Cut]:
    """The open angular interval of the ring within ``s`` of ``o`` (``(a, width)``), ``"all"``
    when the whole ring is, ``None`` when none is."""
    d = math.hypot(ox - cx, oy - cy)
    if d >= R + s:
        return None
    if d <= s - R:
        return "all"
    if d <= R - s:
        return None
    base = math.atan2(oy - cy, ox - cx)
    half = math.acos(max(-1.0, min(1.0, (R * R + d * d - s * s) / (2 * R * d))))
    return (base - half, 2 * half)


class _Ring:
    """One mover's contact ring around one target, with its static feasible arcs."""

    def __init__(self, mover: Mover, target: Figure, legal: Callable[[Mover, float, float], bool], box: Box,
                 blockers: Sequence[Blocker]) -> None:
        self.mover, self.target = mover, target
        self.r = radius(mover.fig)
        self.R = self.r + radius(target) + RING_SLACK
        cx, cy = target.x, target.y
        # analytic boundary angles
        special: list[float] = []
        hit = _ring_circle_angles(cx, cy, self.R, mover.fig.x, mover.fig.y, mover.allowance)
        if hit:
            special += list(hit)
        for b in blockers:
            hit = _ring_circle_angles(cx, cy, self.R, b.x, b.y, b.r + self.r)
            if hit:
                special += list(hit)
        x0, y0, x1, y1 = box
        for axis, bound in ((0, x0 + self.r), (0, x1 - self.r), (1, y0 + self.r), (1, y1 - self.r)):
            c = cx if axis == 0 else cy
            if abs(bound - c) <= self.R:
                a = math.acos((bound - c) / self.R) if axis == 0 else math.asin((bound - c) / self.R)
                special += [a, -a] if axis == 0 else [a, math.pi - a]
        grid = [math.radians(k * SAMPLE_DEG) for k in range(int(round(360 / SAMPLE_DEG)))]
        angs = sorted({round(_norm(a), 12) for a in grid + [s + e for s in special for e in (-_EPS_ANGLE, _EPS_ANGLE)]})
        self._legal = legal
        ok = [self.feasible(a) for a in angs]
        self.arcs = self._arcs(angs, ok, {round(_norm(s), 12) for s in special})

    def point(self, a: float) -> tuple[float, float]:
        return (self.target.x + self.R * math.cos(a), self.target.y + self.R * math.sin(a))

    def feasible(self, a: float) -> bool:
        x, y = self.point(a)
        return self._legal(self.mover, x, y) and self.mover.reachable(x, y)

    def _arcs(self, angs: list[float], ok: list[bool], special: set[float]) -> list[Arc]:
        n = len(angs)
        if all(ok):
            return [(0.0, _TAU)]
        if not any(ok):
            return []
        start = next(i for i in range(n) if ok[i] and not ok[i - 1])
        arcs: list[Arc] = []
        i = start
        seen = 0
        while seen < n:
            if ok[i % n] and not ok[(i - 1) % n]:
                j = i
                while ok[(j + 1) % n]:
                    j += 1
                lo = self._edge(angs[(i - 1) % n], angs[i % n], special)
                hi = self._edge(angs[(j + 1) % n], angs[j % n], special)
                width = (hi - lo) % _TAU
                arcs.append((lo, width))
                seen += j - i + 1
                i = j + 1
            else:
                i += 1
                seen += 1
        return arcs

    def _edge(self, bad: float, good: float, special: set[float]) -> float:
        """The feasible end between an infeasible and a feasible sample angle."""
        if any(abs(((good - s + math.pi) % _TAU) - math.pi) <= 2 * _EPS_ANGLE for s in special):
            return good
        lo, hi = bad, good
        if (hi - lo) % _TAU > math.pi:   # walk the short way round
            lo = hi - ((hi - lo) % _TAU - _TAU)
        else:
            lo = hi - ((hi - lo) % _TAU)
        for _ in range(40):
            mid = (lo + hi) / 2
            if self.feasible(mid):
                hi = mid
            else:
                lo = mid
            if abs(hi - lo) < 1e-9:
                break
        return _norm(hi)


def _subtract(arcs: list[Arc], cuts: Sequence[Cut]) -> list[Arc]:
    """Arcs ``(start, width)`` minus open intervals ``(start, width)`` (angles mod 2π)."""
    out = list(arcs)
    for c in cuts:
        if c == "all":
            return []
        cs, cw = c
        nxt = []
        for s, w in out:
            if w >= _TAU - 1e-15:  # a full ring: cut it open
                rest_start = _norm(cs + cw)
                nxt.append((rest_start, _TAU - cw))
                continue
            # positions relative to the arc start
            a = (cs - s) % _TAU
            b = a + cw
            if a >= w and b <= _TAU:       # the cut lies outside the arc
                nxt.append((s, w))
                continue
            pieces = []
            if a < w:                      # the cut starts inside the arc
                pieces.append((0.0, a))
                if b < w:
                    pieces.append((b, w))
            if b > _TAU:                   # the cut wraps over the arc's start
                lo = b - _TAU
                pieces = [(max(p0, lo), p1) for p0, p1 in (pieces or [(0.0, w)]) if p1 > lo]
            for p0, p1 in pieces:
                if p1 - p0 >= 0:
                    nxt.append((_norm(s + p0), p1 - p0))
        out = nxt
    return out


def _capacity(movers: Sequence[Mover], targets: Sequence[Figure], rings: dict[str, list[_Ring]]) -> int:
    """An upper bound of the models in base contact: round each target, the most bases of the
    smallest mover that can reach it fit side by side on its contact ring (each covers an angle
    ``2·asin(r / R)`` of it, none overlapping)."""
    total = 0
    for t in targets:
        rs = [radius(m.fig) for m in movers if any(rg.target.id == t.id for rg in rings[m.fig.id])]
        if not rs:
            continue
        r = min(rs)
        R = r + radius(t) + RING_SLACK
        total += min(len(rs), int(math.floor(math.pi / math.asin(min(1.0, r / R)) + 1e-9)))
    return total


def most_contacts(movers: Sequence[Mover], targets: Sequence[Figure], blockers: Sequence[Blocker], box: Box,
                  legal: Optional[Callable[[Mover, float, float], bool]] = None, budget: int = NODE_BUDGET) -> SearchResult:
    """The most movers into base contact with ``targets`` (see the module notes).

    ``blockers``: discs every moving base must keep clear of (other models, round pieces);
    ``box``: the table ``(x0, y0, x1, y1)``; ``legal(mover, x, y)``: further end-spot rules
    (terrain polygons, ovals) — the analytic ones (blockers, table) are applied here too.
    """
    def is_legal(m: Mover, x: float, y: float) -> bool:
        r = radius(m.fig)
        if x - r < box[0] - 1e-9 or y - r < box[1] - 1e-9 or x + r > box[2] + 1e-9 or y + r > box[3] + 1e-9:
            return False
        for b in blockers:
            d = math.hypot(x - b.x, y - b.y) - b.r - r
            if d < (-1e-9 if b.contact_ok else 1e-9):
                return False
        return legal(m, x, y) if legal is not None else True

    rings = {m.fig.id: [_Ring(m, t, is_legal, box, blockers) for t in targets] for m in movers}
    rings = {k: [rg for rg in v if rg.arcs] for k, v in rings.items()}

    def route_key(m: Mover) -> float:
        return min((math.hypot(t.x - m.fig.x, t.y - m.fig.y) - radius(t) - radius(m.fig) for t in targets), default=math.inf)

    def width(m: Mover) -> float:
        return sum(w for rg in rings[m.fig.id] for _s, w in rg.arcs)

    # the orders the depth-first search tries (see the module notes): nearest first, then the
    # most constrained first (the narrowest arcs), each with the models that have no arc last
    orders: list[list[Mover]] = []
    for key in (lambda m: (route_key(m), m.fig.id), lambda m: (width(m), route_key(m), m.fig.id)):
        o = sorted(movers, key=lambda m: (not rings[m.fig.id], key(m)))
        if [m.fig.id for m in o] not in [[m.fig.id for m in p] for p in orders]:
            orders.append(o)
    able_count = sum(1 for m in movers if rings[m.fig.id])

    best: dict[str, Spot] = {}
    best_n = -1
    nodes = 0
    exhausted = True

    def candidates(m: Mover, placed: list[Disc], starts_only: bool = False) -> list[tuple[float, float, float, str]]:
        """The model's candidate spots: both ends of each arc left (and the spot nearest the
        model); ``starts_only``: the start of each arc left (the spot a model slid round its
        ring, angles decreasing, stops at), the nearest spot for a free ring."""
        out = []
        r = radius(m.fig)
        for rg in rings[m.fig.id]:
            cx, cy = rg.target.x, rg.target.y
            cuts: list[Cut] = []
            for (px, py, pr) in placed:
                c = _blocked_interval(cx, cy, rg.R, px, py, pr + r + 1e-9)
                if c is not None:
                    cuts.append(c)
            near = math.atan2(m.fig.y - cy, m.fig.x - cx)
            for s, w in _subtract(rg.arcs, cuts):
                if w >= _TAU - 1e-15:
                    pts = [near]
                elif starts_only:
                    pts = [s]
                else:
                    pts = [s] if w < 1e-12 else [s, s + w]
                    if 0 < (near - s) % _TAU < w:   # the spot nearest the model, inside the arc
                        pts.append(near)
                for a in pts:
                    x, y = rg.point(a)
                    out.append((math.hypot(x - m.fig.x, y - m.fig.y), x, y, rg.target.id))
        out.sort()
        return out

    def dfs(order: list[Mover], suffix: list[int], i: int, placed: list[Disc], spots: dict[str, Spot]) -> None:
        nonlocal best, best_n, nodes, exhausted
        nodes += 1
        if len(spots) > best_n:
            best, best_n = dict(spots), len(spots)
        if i == len(order) or len(spots) + suffix[i] <= best_n or best_n >= bound:
            return
        if nodes > budget:
            exhausted = False
            return
        m = order[i]
        if rings[m.fig.id]:
            for _, x, y, tid in candidates(m, placed):
                spots[m.fig.id] = (x, y, tid)
                dfs(order, suffix, i + 1, placed + [(x, y, radius(m.fig))], spots)
                del spots[m.fig.id]
                if nodes > budget:
                    exhausted = False
                    return
        dfs(order, suffix, i + 1, placed, spots)

    def run(order: list[Mover]) -> None:
        suffix = [0] * (len(order) + 1)
        for i in range(len(order) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + int(bool(rings[order[i].fig.id]))
        dfs(order, suffix, 0, [], {})

    seen: set[frozenset[tuple[str, float, float]]] = set()

    def chains(free: list[Mover], placed: list[Disc], spots: dict[str, Spot], root: int) -> None:
        """Placements built chain by chain in any order of the models, every model at the
        start of an arc left (slid round its ring, angles decreasing, until it meets an arc end
        or a model): a model either starts a chain (its spot touches no model placed: the
        models starting chains come in the order of ``free``, ``root`` the last one's index) or
        takes a spot tangent to a model placed, tried first; a placement reached before by
        another order is not searched again."""
        nonlocal best, best_n, nodes, exhausted
        key = frozenset((mid, round(x, 6), round(y, 6)) for mid, (x, y, _t) in spots.items())
        if key in seen:
            return
        seen.add(key)
        nodes += 1
        if len(spots) > best_n:
            best, best_n = dict(spots), len(spots)
        left = [k for k, m in enumerate(free) if m.fig.id not in spots]
        if len(spots) + min(len(left), bound - len(spots)) <= best_n:
            return
        if nodes > budget:
            exhausted = False
            return
        options = []
        for k in left:
            m = free[k]
            r = radius(m.fig)
            for _, x, y, tid in candidates(m, placed, starts_only=True):
                tangent = any(abs(math.hypot(x - px, y - py) - pr - r) <= 1e-6 for px, py, pr in placed)
                if tangent or k > root:
                    options.append((not tangent, k, x, y, tid, r))
        options.sort(key=lambda o: (o[0], o[1]))
        for not_tangent, k, x, y, tid, r in options:
            spots[free[k].fig.id] = (x, y, tid)
            chains(free, placed + [(x, y, r)], spots, k if not_tangent else root)
            del spots[free[k].fig.id]
            if nodes > budget or best_n >= bound:
                if nodes > budget:
                    exhausted = False
                return

    bound = min(able_count, _capacity(movers, targets, rings))
    for order in orders:
        run(order)
        if best_n >= bound:
            break
    if best_n < bound:
        # the chains pass has a budget of its own: a quarter of the fixed orders'
        budget = nodes + max(1, budget // CHAINS_SHARE)
        chains([m for m in orders[-1] if rings[m.fig.id]], [], {}, -1)
    return SearchResult(best, nodes, exhausted, {k: sum(len(rg.arcs) for rg in v) for k, v in rings.items()})
