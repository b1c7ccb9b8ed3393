"""The best-score placement (board/placement_search.py) against brute force.

On small random tables (a target or two, the Leading Model touching the first, other models and
a keep-away enemy about, two or three models to set) every combination of the search's candidate
spots is enumerated here — independently of the search: pairwise overlaps, links and the score
computed afresh from centre distances — and the best lexicographic score found must not beat the
one :func:`best_placement` returns. Then a ring worked out by hand.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
import shapely

from tapeline.board.bases import RoundBase
from tapeline.board.placement import Surroundings, place_around
from tapeline.board.placement_search import Near, best_placement, candidate_pool
from tapeline.board.table import Figure, Table

TOUCH = 1e-6


def fig(i: str, unit: str, x: float, y: float, mm: float) -> Figure:
    return Figure(i, unit, "s", RoundBase(mm), x, y)


def free_spot(rnd, around, lo, hi, mm, unit, name, others):
    """A random base of ``mm`` between ``lo`` and ``hi`` inches from ``around``'s centre that
    overlaps none of ``others`` (or None)."""
    for _ in range(100):
        a, d = rnd.uniform(0, 2 * math.pi), rnd.uniform(lo, hi)
        f = fig(name, unit, around[0] + d * math.cos(a), around[1] + d * math.sin(a), mm)
        if all(math.dist(f.at, o.at) >= f.base.radius + o.base.radius for o in others):
            return f
    return None


def random_case(seed: int, crowd: bool = False):
    rnd = random.Random(seed)
    table = Table(12, 12)
    mm, tmm = rnd.choice([25, 32, 40]), rnd.choice([25, 32, 40, 50])
    targets = [fig("t1", "T", 6, 6, tmm)]
    if rnd.random() < 0.5:
        t2 = free_spot(rnd, (6, 6), RoundBase(tmm).radius * 2 + 0.05, RoundBase(tmm).radius * 2 + 1.5, tmm, "T", "t2", targets)
        targets += [t2] if t2 else []
    a = rnd.uniform(0, 2 * math.pi)
    R = RoundBase(mm).radius + targets[0].base.radius + 1e-7
    leader = fig("L", "U", 6 + R * math.cos(a), 6 + R * math.sin(a), mm)
    if any(math.dist(leader.at, t.at) < leader.base.radius + t.base.radius - 1e-9 for t in targets[1:]):
        targets = targets[:1]
    blockers: list[Figure] = list(targets)
    for k in range(rnd.randint(2, 6) if crowd else rnd.randint(0, 3)):
        b = free_spot(rnd, (6, 6), 1.0, 2.4 if crowd else 3.0, rnd.choice([25, 32]), "X", f"b{k}", blockers + [leader])
        blockers += [b] if b else []
    keep = []
    if rnd.random() < 0.4:
        e = free_spot(rnd, (6, 6), 2.5, 4.0, 32, "E", "e1", blockers + [leader])
        if e:
            keep, blockers = [(e, 1.0)], blockers + [e]
    movers = [fig(f"m{k}", "U", 0.5 + k, 0.5, mm) for k in range(rnd.choice([2, 3]))]
    score = [Near(tuple(targets), 0.0), Near(tuple(targets), 1.0)]
    if len(targets) > 1 and rnd.random() < 0.5:
        score += [Near((targets[1],), 1.0), Near((targets[1],), 0.0)]
    return table, leader, movers, blockers, targets, keep, score


def brute_force(table, leader, movers, blockers, targets, keep, score, link_clear=None):
    """The best score over every set of pool spots, one per model (identical bases), by
    enumeration: no two overlapping, each linked to the Leading Model through the others."""
    ground = Surroundings(leader, table, blockers, (), targets, keep, 3.0, 1.0)
    P, R, _ = candidate_pool(ground, [m.base.radius for m in movers], len(movers))
    n, k = len(P), len(score)
    bits = np.zeros((n, k), dtype=np.int64)
    for c, crit in enumerate(score):
        for f in crit.figures:
            g = np.hypot(*(P - np.array(f.at)).T) - f.base.radius - R
            bits[:, c] |= g <= crit.within + (1e-5 if crit.within == 0 else 1e-6)
    base = len(movers) + 1
    w = sum(bits[:, c] * base ** (k - 1 - c) for c in range(k))
    d = np.hypot(*(P[:, None, :] - P[None, :, :]).transpose(2, 0, 1))
    ok = d >= R[:, None] + R[None, :] - TOUCH
    idx = np.arange(n)
    to_leader = np.ones(n, dtype=bool)
    links = np.ones((n, n), dtype=bool)
    if link_clear is not None:
        to_leader = np.asarray(link_clear(P, np.repeat([leader.at], n, axis=0)))
        i, j = np.meshgrid(idx, idx, indexing="ij")
        links = np.asarray(link_clear(P[i.ravel()], P[j.ravel()])).reshape(n, n)
    best = -1
    if len(movers) == 2:
        linked = (to_leader[:, None] | (links & to_leader[None, :])) & (to_leader[None, :] | (links & to_leader[:, None]))
        W = np.where(ok & linked & (idx[:, None] < idx[None, :]), w[:, None] + w[None, :], -1)
        best = int(W.max())
    else:
        assert link_clear is None
        for i in range(n):
            for j in np.nonzero(ok[i] & (idx > i))[0]:
                ks = ok[i] & ok[j] & (idx > j)
                if ks.any():
                    best = max(best, int(w[i] + w[j] + w[ks].max()))
    out = []
    for c in range(k):
        p = base ** (k - 1 - c)
        out.append(best // p)
        best %= p
    return tuple(out)


@pytest.mark.parametrize("crowd", [False, True])
def test_no_combination_of_candidate_spots_beats_the_default(crowd):
    beaten = 0
    for seed in range(30):
        table, leader, movers, blockers, targets, keep, score = random_case(seed, crowd)
        res = best_placement(leader, movers, table, blockers, (), targets, keep, 3.0, None, 1.0, score)
        assert res.exact
        assert res.score >= brute_force(table, leader, movers, blockers, targets, keep, score), seed
        pl = res.placement
        assert not pl.unplaced and not pl.out_of_coherency
        beaten += res.from_search
        # what the answer claims holds on the table: no overlaps, wholly within 3", the score
        set_ = [m.moved(*pl.positions[m.id]) for m in movers]
        for a in set_:
            assert math.dist(a.at, leader.at) + a.base.radius - leader.base.radius <= 3 + 1e-6
            for b in set_ + blockers + [leader]:
                if b.id != a.id:
                    assert math.dist(a.at, b.at) >= a.base.radius + b.base.radius - 1e-6
        for c, got in zip(score, res.score):
            assert got == sum(min(math.dist(a.at, f.at) - a.base.radius - f.base.radius for f in c.figures)
                              <= c.within + (1e-5 if c.within == 0 else 1e-6) for a in set_)
    assert beaten  # the search does beat the greedy placement on some of these tables


def test_links_through_a_wall_are_enumerated_too():
    """Two models to set beside a wall that links may not cross: the brute force checks every
    pair's links (to the Leading Model directly or through the other model)."""
    wall = shapely.box(6.9, 4.0, 7.1, 9.0)

    def clear(a, b):
        return ~shapely.intersects(shapely.linestrings(np.stack([a, b], axis=1)), wall)

    table = Table(12, 12)
    for seed in range(8):
        rnd = random.Random(100 + seed)
        t = fig("t1", "T", 6.0 + rnd.uniform(-0.3, 0.3), 6.0 + rnd.uniform(-1, 1), 32)
        a = rnd.uniform(math.pi / 2, 3 * math.pi / 2)
        R = RoundBase(32).radius * 2 + 1e-7
        leader = fig("L", "U", t.x + R * math.cos(a), t.y + R * math.sin(a), 32)
        movers = [fig("m0", "U", 1, 1, 32), fig("m1", "U", 2, 1, 32)]
        score = [Near((t,), 0.0), Near((t,), 1.0)]
        res = best_placement(leader, movers, table, [t], (), [t], (), 3.0, clear, 1.0, score)
        assert res.exact
        assert res.score >= brute_force(table, leader, movers, [t], [t], (), score, clear), seed


def test_a_ring_round_one_marauder_holds_four_zealots_besides_the_leader():
    """By hand: a Zealot (40 mm, r = 0.787402") touching a Marauder (50 mm, r = 0.984252") has
    its centre on the ring of radius R = 1.771654"; two Zealots on it do not overlap when
    their angle is at least θ = 2 asin(r / R) = 52.776°. Wholly within 3" of the Leading Model
    (same base) is a centre at most 3" away: a chord 2 R sin(φ/2) ≤ 3, φ ≤ 115.70°. So besides
    the Leading Model (at φ = 0) the ring takes the arcs [52.78°, 115.70°] either side, each
    62.9° long: two Zealots on each, four in all, and never five."""
    table = Table(20, 20)
    mr = fig("mr", "M", 10, 10, 50)
    R = RoundBase(40).radius + RoundBase(50).radius + 1e-7
    leader = fig("z1", "Z", 10 - R, 10, 40)
    movers = [fig(f"z{k}", "Z", 2, 2 + 2 * k, 40) for k in range(2, 7)]
    score = [Near((mr,), 0.0), Near((mr,), 1.0)]
    res = best_placement(leader, movers, table, [mr], (), [mr], (), 3.0, None, 1.0, score)
    assert res.exact and res.score[0] == 4
    theta = 2 * math.asin(RoundBase(40).radius / R)
    assert math.degrees(theta) == pytest.approx(52.776, abs=1e-3)
    assert math.degrees(2 * math.asin(3 / (2 * R))) == pytest.approx(115.70, abs=1e-2)
    greedy = place_around(leader, movers, table, [mr], (), [mr], (), 3.0)
    assert sum(t == "A" for t in greedy.tiers.values()) <= 4


def test_the_search_is_deterministic_and_counted_in_nodes():
    table, leader, movers, blockers, targets, keep, score = random_case(3, crowd=True)
    a = best_placement(leader, movers, table, blockers, (), targets, keep, 3.0, None, 1.0, score, exact_nodes=50)
    b = best_placement(leader, movers, table, blockers, (), targets, keep, 3.0, None, 1.0, score, exact_nodes=50)
    assert a.placement == b.placement and a.nodes == b.nodes <= 50
