"""Choosing the spots that set the rest of a unit with the best score, not one model at a time.

:func:`board.placement.place_around` sets models one after another, each at its own best spot
(greedy). A rule often wants more: *the most* models in base contact with its targets, then the
most within 1" of them. This module knows no rule: the caller passes the score as data, a list
of :class:`Near` criteria compared in order (lexicographically), each counting the models whose
base ends within ``within`` of one of its ``figures`` (``within=0``: base contact).

:func:`best_placement`:

1. The greedy placement is made and scored. When every model meets every criterion it is kept
   (nothing can beat it).
2. A **pool** of candidate spots per base size, by place_around's own candidate generation
   round the Leading Model and the models that stay (rings of contact spots every 5° round them
   and round each target, rings within the contact range, the spots touching two bases at once),
   plus **packing chains**: on each target's contact ring, from every spot where a base touches
   that target and something else (another base, or the end of a free stretch of the ring —
   terrain, the table edge, a keep-away distance — found by bisection to 1e-9 of a turn), the spots
   of bases packed edge to edge along the ring, one per model. A pool spot is legal (on the
   table, overlapping nothing that does not move, no footprint of its level, no keep-away) and
   wholly within ``radius`` of the Leading Model.
3. **Branch and bound** over one pool spot per model, no two overlapping: models in the order
   given, each trying its spots best-scored first, then nearest the Leading Model; models with
   the same base take spots in that order (a set of spots is tried once, not in every
   permutation). At each node an upper bound on what the models left can still add, per
   criterion in order: the fewer of the models left and how many of them the spots left that
   meet it can hold at once — along a contact ring of the first base-contact criterion, the most
   bases whose angles round the figure keep the least angle apart (the interval packing, exact
   on a line and so a bound on the ring; each spot counted on one ring); elsewhere one per cell
   of a grid fine enough that any two spots of a cell overlap. A criterion bounded below the
   best found cuts the node; bounded equal to it, a better completion must reach it exactly,
   and when that takes every model left meeting it, only spots that meet it are searched
   further. A node whose spots left cannot hold the models left is cut too. A complete choice
   counts only when every model is linked to the Leading Model through models of the unit
   (``link_clear``, ``link_max``); the last model stops at its first spot that completes.
4. The search's best replaces the greedy placement only when its score is strictly higher (a
   placement already the best is kept as it was); it never leaves a model out of coherency or
   unplaced, so a greedy placement that does is beaten by any complete one. The search is
   **exact** — the best over the pool — when it ends within its node budget: ``exact_nodes``
   for up to ``exact_up_to`` models, ``heuristic_nodes`` beyond (then the best found so far is
   kept: deterministic, counted in nodes, never in time). :attr:`Best.exact` says which.

The pool misses spots that touch a target *and* a model set by the search itself, off the
packing chains; the greedy placement (which makes such spots) is the floor, so the answer is
never worse than either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from .arrays import Floats
from .coherency import LinkTest
from .levels import Levels
from .placement import _EPS, PiecesOn, Placement, Surroundings, _radius, place_around
from .plane import circle_intersections
from .table import Figure, Table
from .terrain import Piece
from .units import TOUCH

#: Up to this many models the search is meant to be exact (it runs up to EXACT_NODES nodes).
EXACT_UP_TO = 6
EXACT_NODES = 200_000
#: Beyond EXACT_UP_TO models: the best found within this many nodes (a heuristic).
HEURISTIC_NODES = 20_000
#: How finely a contact ring is sampled for the ends of its free stretches (degrees).
_STRETCH_STEP = 1.0

XY = tuple[float, float]


@dataclass(frozen=True)
class Near:
    """A criterion of the score: a model counts when its base ends within ``within`` of one of
    ``figures`` (edge to edge; ``0``: base contact, to 1e-5")."""

    figures: tuple[Figure, ...]
    within: float = 0.0

    @property
    def slack(self) -> float:
        return 10 * TOUCH if self.within <= 0 else TOUCH

    def met(self, P: Floats, r: float) -> np.ndarray:
        """Which centres of ``P`` (bases of radius ``r``) meet the criterion."""
        if not self.figures or not len(P):
            return np.zeros(len(P), dtype=bool)
        c = np.array([f.at for f in self.figures], dtype=float)
        rr = np.array([_radius(f) for f in self.figures])
        g = np.linalg.norm(P[:, None, :] - c[None, :, :], axis=2) - rr[None, :] - r
        return np.asarray(g.min(axis=1) <= self.within + self.slack)


@dataclass(frozen=True)
class Best:
    """The placement kept, its score (per criterion, the models that meet it), the greedy
    placement's score, whether the search replaced it (``searched``: a search ran at all), and
    whether the answer is the best over the pool (``exact``)."""

    placement: Placement
    score: tuple[int, ...]
    greedy_score: tuple[int, ...]
    from_search: bool
    searched: bool
    exact: bool
    nodes: int = 0


def score_of(placement: Placement, movers: Sequence[Figure], score: Sequence[Near]) -> tuple[int, ...]:
    """Per criterion, how many of ``movers`` set by ``placement`` meet it."""
    out = []
    for c in score:
        n = 0
        for m in movers:
            if m.id in placement.positions:
                n += int(c.met(np.array([placement.positions[m.id]], dtype=float), _radius(m))[0])
        out.append(n)
    return tuple(out)


def _key(placement: Placement, counts: tuple[int, ...]) -> tuple[int, ...]:
    return (-len(placement.unplaced), -len(placement.out_of_coherency)) + counts


def best_placement(
    leader: Figure,
    movers: Sequence[Figure],
    table: Table,
    blockers: Sequence[Figure] = (),
    pieces: Sequence[Piece] = (),
    targets: Sequence[Figure] = (),
    keep_away: Sequence[tuple[Figure, float]] = (),
    radius: float = 3.0,
    link_clear: Optional[LinkTest] = None,
    contact_range: float = 1.0,
    score: Sequence[Near] = (),
    link_max: Optional[float] = None,
    stay: Sequence[Figure] = (),
    levels: Optional[Levels] = None,
    pieces_on: Optional[PiecesOn] = None,
    exact_up_to: int = EXACT_UP_TO,
    exact_nodes: int = EXACT_NODES,
    heuristic_nodes: int = HEURISTIC_NODES,
) -> Best:
    """Set ``movers`` round ``leader`` as :func:`board.placement.place_around` does, then
    search for a placement with a strictly higher ``score`` (see the module notes). The
    arguments are place_around's; ``score`` the criteria, most important first."""
    greedy = place_around(leader, movers, table, blockers, pieces, targets, keep_away, radius, link_clear, contact_range,
                          link_max, stay=stay, levels=levels, pieces_on=pieces_on)
    gscore = score_of(greedy, movers, score)
    n = len(movers)
    complete = not greedy.unplaced and not greedy.out_of_coherency
    if not movers or not score or (complete and all(s == n for s in gscore)):
        return Best(greedy, gscore, gscore, False, False, True)
    ground = Surroundings(leader, table, blockers, pieces, targets, keep_away, radius, contact_range, stay, levels, pieces_on)
    pool = _Pool(ground, movers, score, n)
    budget = exact_nodes if n <= exact_up_to else heuristic_nodes
    search = _Search(pool, movers, score, link_clear, link_max, [leader] + list(stay), budget,
                     gscore if complete else None)
    found = search.run()
    exact = search.nodes < budget
    if found is None:
        return Best(greedy, gscore, gscore, False, True, exact, search.nodes)
    spots, counts = found
    pl = pool.placement(movers, spots)
    if _key(pl, counts) <= _key(greedy, gscore):  # (the search only keeps what beats the greedy's score)
        return Best(greedy, gscore, gscore, False, True, exact, search.nodes)
    return Best(pl, counts, gscore, True, True, exact, search.nodes)


def candidate_pool(ground: Surroundings, radii: Sequence[float], n: int) -> tuple[Floats, Floats, list[Optional[str]]]:
    """The search's pool (module notes, step 2) for bases of the given radii, ``n`` models to
    set: the centres, each spot's base radius and the level it stands on."""
    fixed = [(ground.leader.at, ground.lr)] + [(f.at, _radius(f)) for f in ground.stay]
    pts: list[Floats] = []
    rads: list[float] = []
    lvs: list[Optional[str]] = []
    for r in sorted(set(radii)):
        P = ground.candidates(r, fixed, [_chains(ground, r, fixed, n)])
        P, lv = ground.legal(P, r)
        keep = ground.wholly(P, r)
        pts.append(P[keep])
        lvs += [x if isinstance(x, str) else None for x in lv[keep].tolist()]
        rads += [r] * int(keep.sum())
    return (np.concatenate(pts) if pts else np.zeros((0, 2))), np.array(rads, dtype=float), lvs


class _Pool:
    """The candidate spots of every base size: what each scores, which overlap, and the
    contact rings. Bit ``i`` of a mask stands for spot ``i``; the spots touching the first
    base-contact criterion's figures come first, ring by ring in order of angle (so a ring's
    packing bound reads a run of bits), the others after; :attr:`rank` lists the spots
    best-scored first (criteria in order), then nearest the Leading Model."""

    def __init__(self, ground: Surroundings, movers: Sequence[Figure], score: Sequence[Near], n: int):
        self.ground = ground
        P, R, lvs = candidate_pool(ground, [_radius(m) for m in movers], n)
        bits = np.zeros((len(P), len(score)), dtype=bool)
        for r in set(R.tolist()):
            sel = R == r
            for k, c in enumerate(score):
                bits[sel, k] = c.met(P[sel], r)
        first = next((k for k, c in enumerate(score) if c.within <= 0), None)
        rings = _ring_parts(P, R, score[first]) if first is not None else None
        layout = [i for idx, _, _ in rings or () for i in idx]
        on = set(layout)
        layout += [i for i in range(len(P)) if i not in on]
        where = {old: new for new, old in enumerate(layout)}
        self.P, self.R, self.bits = P[layout], R[layout], bits[layout]
        self.lv = [lvs[i] for i in layout]
        # the rings as runs of bits: (first bit, angles, least angle apart, next[j]: the first
        # position on the ring at least that angle after position j)
        self.runs: list[tuple[int, int, list[int]]] = []
        for idx, ang, theta in rings or ():
            lo = where[idx[0]]
            nxt = [int(np.searchsorted(ang, a + theta, side="left")) for a in ang]
            self.runs.append((lo, len(idx), nxt))
        self.on_rings = (1 << len(on)) - 1  # (the first bits)
        # the other spots by cells of a grid fine enough that two spots of a cell overlap
        side = (2 * float(R.min()) - 2 * TOUCH) / math.sqrt(2) if len(R) else 1.0
        cells: dict[tuple[int, int], int] = {}
        for i in range(len(on), len(self.P)):
            key = (int(math.floor(self.P[i, 0] / side)), int(math.floor(self.P[i, 1] / side)))
            cells[key] = cells.get(key, 0) | (1 << i)
        self.cells = list(cells.values())
        dl = np.hypot(*(self.P - np.array(ground.leader.at)).T) if len(self.P) else np.zeros(0)
        k = len(score)
        self.rank = [int(i) for i in np.lexsort(tuple([dl] + [~self.bits[:, c] for c in reversed(range(k))]))] if len(self.P) else []
        pos = {s: j for j, s in enumerate(self.rank)}
        later = 0
        self.after = [0] * len(self.P)  # spots ranked after each spot
        for s in reversed(self.rank):
            self.after[s] = later
            later |= 1 << s
        self.rank_of = pos
        m = len(self.P)
        d = np.linalg.norm(self.P[:, None, :] - self.P[None, :, :], axis=2) if m else np.zeros((0, 0))
        clash = d < self.R[:, None] + self.R[None, :] - TOUCH
        np.fill_diagonal(clash, True)
        self.clash = [_mask(row) for row in clash]
        self.has = [_mask(self.bits[:, c]) for c in range(k)]
        self.of_radius = {r: _mask(self.R == r) for r in set(self.R.tolist())}

    def cap(self, mine: int) -> int:
        """An upper bound on how many bases can take spots of ``mine`` at once: on the contact
        rings, per ring, the interval packing along its line of angles (exact on a line, so a
        bound on the ring); elsewhere, one per grid cell (two spots of a cell overlap); summed."""
        total = 0
        rest = mine & ~self.on_rings
        for cell in self.cells:
            if rest & cell:
                total += 1
        for lo, n, nxt in self.runs:
            seg = (mine >> lo) & ((1 << n) - 1)
            off = 0
            while seg:
                j = off + ((seg & -seg).bit_length() - 1)
                total += 1
                k = nxt[j]
                seg >>= k - off
                off = k
        return total

    def placement(self, movers: Sequence[Figure], spots: Sequence[int]) -> Placement:
        """The placement setting ``movers[k]`` at pool spot ``spots[k]``, with its tiers (A base
        contact with a target, B within the contact range, C neither)."""
        g = self.ground
        pos: dict[str, XY] = {}
        tiers: dict[str, str] = {}
        on: dict[str, Optional[str]] = {}
        for m, i in zip(movers, spots):
            x, y = float(self.P[i, 0]), float(self.P[i, 1])
            gt = float(g.target_gaps(self.P[i:i + 1], float(self.R[i]))[0])
            pos[m.id] = (x, y)
            tiers[m.id] = "A" if gt <= 10 * TOUCH else "B" if gt <= g.contact_range + TOUCH else "C"
            on[m.id] = self.lv[i]
        return Placement(pos, tiers, (), {}, on)


def _ring_parts(P: Floats, R: Floats, c: Near) -> Optional[list[tuple[list[int], list[float], float]]]:
    """The spots of a base-contact criterion split by the figure they touch (each spot counted
    once, with the first figure it touches) and base size: per part, the spots sorted by angle
    round the figure, cut where they leave the widest gap, and the least angle between two that
    do not overlap (bases on one ring at least that far apart do not overlap). ``None`` when a
    spot meeting the criterion is on no ring (it overlaps the figure: then no packing bound)."""
    out = []
    taken = np.zeros(len(P), dtype=bool)
    for f in c.figures:
        g = np.hypot(*(P - np.array(f.at)).T) - _radius(f) - R
        for r in sorted(set(R.tolist())):
            Rc = r + _radius(f) + c.slack
            sel = np.nonzero((R == r) & (g <= c.slack) & (g >= -TOUCH) & ~taken)[0]
            if not len(sel):
                continue
            taken[sel] = True
            ang = np.arctan2(P[sel, 1] - f.y, P[sel, 0] - f.x)
            a = np.sort(ang)
            gaps = np.diff(np.concatenate([a, a[:1] + 2 * math.pi]))
            cut = a[(int(np.argmax(gaps)) + 1) % len(a)]
            ang = np.mod(ang - cut, 2 * math.pi)
            order = np.argsort(ang, kind="stable")
            theta = 2 * math.asin(min(1.0, (2 * r - TOUCH) / (2 * Rc))) - 1e-9
            out.append(([int(i) for i in sel[order]], ang[order].tolist(), theta))
    met = np.zeros(len(P), dtype=bool)
    for r in set(R.tolist()):
        met[R == r] = c.met(P[R == r], r)
    return out if not (met & ~taken).any() else None


def _mask(row: np.ndarray) -> int:
    """A boolean row as the bits of a Python int (bit i: row[i])."""
    return int.from_bytes(np.packbits(np.asarray(row, dtype=bool), bitorder="little").tobytes(), "little")


def _bits(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def _chains(ground: Surroundings, r: float, fixed: Sequence[tuple[XY, float]], n: int) -> Floats:
    """Packing chains on every target's contact ring for bases of radius ``r`` (module notes):
    from each spot touching the target and another base, and from each end of a free stretch of
    the ring, ``n`` spots either way, each base touching the one before."""
    out: list[Floats] = []
    circles = ground.contact_circles(r, fixed) + ground.near_fixed(r)
    C = np.array(circles, dtype=float).reshape(-1, 3)
    X = circle_intersections(C)
    for c, rt in zip(ground.tc, ground.tr):
        Rc = r + rt + _EPS
        theta = 2 * math.asin(min(1.0, (2 * r + _EPS) / (2 * Rc)))
        on_ring = X[np.abs(np.hypot(*(X - c).T) - Rc) <= 1e-6] if len(X) else X
        starts = np.arctan2(on_ring[:, 1] - c[1], on_ring[:, 0] - c[0]).tolist() if len(on_ring) else []
        starts += _stretch_ends(ground, c, Rc, r)
        if not starts:
            continue
        k = np.arange(1, n + 1)
        a = np.concatenate([np.asarray(starts)] + [np.asarray(starts) + s * kk * theta for kk in k for s in (1, -1)])
        out.append(np.column_stack([c[0] + Rc * np.cos(a), c[1] + Rc * np.sin(a)]))
    return np.concatenate(out) if out else np.zeros((0, 2))


def _stretch_ends(ground: Surroundings, c: Floats, Rc: float, r: float) -> list[float]:
    """The angles (to ~1e-9 of a turn) where a base of radius ``r`` touching the target at
    ``c`` stops being legal round its contact ring (terrain, the table edge, a keep-away
    distance, a base that does not move, the coherency radius)."""
    n = int(round(360 / _STRETCH_STEP))
    t = np.radians(np.arange(n) * _STRETCH_STEP)

    def ok(a: Floats) -> np.ndarray:
        P = np.column_stack([c[0] + Rc * np.cos(a), c[1] + Rc * np.sin(a)])
        m, _ = ground.legal_mask(P, r)
        return m & ground.wholly(P, r)

    legal = ok(t)
    if legal.all() or not legal.any():
        return []
    flip = np.nonzero(legal != np.roll(legal, -1))[0]
    good = np.where(legal[flip], t[flip], t[flip] + math.radians(_STRETCH_STEP))
    bad = np.where(legal[flip], t[flip] + math.radians(_STRETCH_STEP), t[flip])
    for _ in range(40):
        mid = (good + bad) / 2
        m = ok(mid)
        good, bad = np.where(m, mid, good), np.where(m, bad, mid)
    return [float(a) for a in good]


class _Search:
    """Branch and bound over one pool spot per model (module notes, step 3)."""

    def __init__(self, pool: _Pool, movers: Sequence[Figure], score: Sequence[Near], link_clear: Optional[LinkTest],
                 link_max: Optional[float], anchors: Sequence[Figure], budget: int, beat: Optional[tuple[int, ...]]):
        self.pool, self.movers, self.k = pool, list(movers), len(score)
        self.radii = [_radius(m) for m in movers]
        self.link_clear, self.link_max = link_clear, link_max
        self.budget, self.nodes = budget, 0
        self.best: Optional[tuple[int, ...]] = beat
        self.found: Optional[tuple[list[int], tuple[int, ...]]] = None
        self._pair: dict[tuple[int, int], bool] = {}
        P = pool.P
        self.to_anchor: np.ndarray = np.zeros(len(P), dtype=bool)
        if len(P):
            ac = np.array([a.at for a in anchors], dtype=float)
            ar = np.array([_radius(a) for a in anchors])
            ok = np.ones((len(P), len(ac)), dtype=bool)
            if link_max is not None:
                ok &= np.linalg.norm(P[:, None, :] - ac[None, :, :], axis=2) - ar[None, :] - pool.R[:, None] <= link_max + TOUCH
            if link_clear is not None:
                a = np.repeat(P, len(ac), axis=0)
                b = np.tile(ac, (len(P), 1))
                ok &= np.asarray(link_clear(a, b), dtype=bool).reshape(len(P), len(ac))
            self.to_anchor = np.asarray(ok.any(axis=1), dtype=bool)
        # same_tail[i]: every model from i on has the base of model i - 1
        self.same_tail = [i > 0 and all(r == self.radii[i - 1] for r in self.radii[i:]) for i in range(len(movers) + 1)]
        self.everyone = 0
        for r in set(self.radii):
            self.everyone |= pool.of_radius.get(r, 0)

    def run(self) -> Optional[tuple[list[int], tuple[int, ...]]]:
        if self.pool.P.shape[0]:
            self._dfs(0, self.everyone, [0] * self.k, [], -1)
        return self.found

    def _bound(self, i: int, avail: int, counts: list[int]) -> Optional[int]:
        """``None`` when no completion of this node can beat the best score found, else the
        spots the remaining models must take to beat it (``avail``, or fewer). Criteria in
        order: an upper bound on the count each can still reach (:meth:`_cap`); above the
        best's, the node may beat it; below, it cannot; equal, a completion must reach it
        exactly — and when that takes every remaining model meeting the criterion, only spots
        that meet it are left for the next criteria."""
        left = len(self.movers) - i
        if self._cap(avail, left) < left:
            return None  # the models left cannot all be set
        if self.best is None:
            return avail
        for c in range(self.k):
            mine = avail & self.pool.has[c]
            cap = self._cap(mine, left)
            ub = counts[c] + min(left, cap)
            if ub != self.best[c]:
                return avail if ub > self.best[c] else None
            if cap >= left:
                avail = mine  # every remaining model must meet criterion c
        return None

    def _cap(self, mine: int, left: int) -> int:
        """An upper bound on how many models can take spots of ``mine`` at once: their count,
        or :meth:`_Pool.cap` when that is more than the models left."""
        cap = bin(mine).count("1")
        return cap if cap <= left else min(cap, self.pool.cap(mine))

    def _dfs(self, i: int, avail: int, counts: list[int], chosen: list[int], last: int) -> None:
        if self.nodes >= self.budget:
            return
        self.nodes += 1
        if i == len(self.movers):
            t = tuple(counts)
            if (self.best is None or t > self.best) and self._linked(chosen):
                self.best, self.found = t, (list(chosen), t)
            return
        if self.same_tail[i]:
            avail &= self.pool.after[last]  # the models left have the model before's base: spots ranked after its
        bounded = self._bound(i, avail, counts)
        if bounded is None:
            return
        avail = bounded
        mine = avail & self.pool.of_radius.get(self.radii[i], 0)
        if i and self.radii[i] == self.radii[i - 1]:
            mine &= self.pool.after[last]  # the same base as the model before: spots ranked after its
        last_model = i == len(self.movers) - 1
        for s in sorted(_bits(mine), key=self.pool.rank_of.__getitem__):
            bits = self.pool.bits[s]
            for c in range(self.k):
                counts[c] += int(bits[c])
            chosen.append(s)
            before = self.found
            self._dfs(i + 1, avail & ~self.pool.clash[s], counts, chosen, s)
            chosen.pop()
            for c in range(self.k):
                counts[c] -= int(bits[c])
            if self.nodes >= self.budget:
                return
            if last_model and (self.found is not before or (self.best is not None and tuple(
                    c + int(b) for c, b in zip(counts, bits)) <= self.best)):
                # the last model's spots come best-scored first: once one completes a placement
                # or scores no more than the best, no later one scores more
                return

    def _link(self, a: int, b: int) -> bool:
        key = (min(a, b), max(a, b))
        if key not in self._pair:
            P, R = self.pool.P, self.pool.R
            ok = True
            if self.link_max is not None:
                ok = float(np.hypot(*(P[a] - P[b])) - R[a] - R[b]) <= self.link_max + TOUCH
            if ok and self.link_clear is not None:
                ok = bool(np.asarray(self.link_clear(P[a:a + 1], P[b:b + 1]))[0])
            self._pair[key] = ok
        return self._pair[key]

    def _linked(self, chosen: Sequence[int]) -> bool:
        """Every chosen spot reaches the Leading Model (or a model that stays) through links."""
        reached = [s for s in chosen if self.to_anchor[s]]
        rest = [s for s in chosen if not self.to_anchor[s]]
        while rest:
            more = [s for s in rest if any(self._link(s, t) for t in reached)]
            if not more:
                return False
            reached += more
            rest = [s for s in rest if s not in more]
        return True
