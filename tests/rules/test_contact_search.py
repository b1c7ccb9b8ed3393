"""The most-contacts search (rules/contact_search.py) against brute force on small cases."""

from __future__ import annotations

import doctest
import itertools
import math

import numpy as np
import pytest

from tapeline.board.bases import RoundBase
from tapeline.board.table import Figure
from tapeline.rules import contact_search
from tapeline.rules.contact_search import Blocker, Mover, most_contacts

BOX = (0.0, 0.0, 30.0, 30.0)


def fig(i, x, y, mm=25.4, unit="u"):
    return Figure(i, unit, "a" if unit == "u" else "b", RoundBase(mm), x, y)


def test_docstring_examples():
    assert doctest.testmod(contact_search).failed == 0


def _valid(res, movers, targets, blockers):
    """Every spot: in contact with its target, reachable, clear of blockers and of each other."""
    by = {m.fig.id: m for m in movers}
    tg = {t.id: t for t in targets}
    pts = []
    for mid, (x, y, tid) in res.spots.items():
        m, t = by[mid], tg[tid]
        r = m.fig.base.radius
        assert abs(math.hypot(x - t.x, y - t.y) - r - t.base.radius) < 1e-6
        assert m.reachable(x, y)
        for b in blockers:
            assert math.hypot(x - b.x, y - b.y) - b.r - r >= -1e-9
        pts.append((x, y, r))
    for (x1, y1, r1), (x2, y2, r2) in itertools.combinations(pts, 2):
        assert math.hypot(x1 - x2, y1 - y2) - r1 - r2 >= -1e-9


def _brute(movers, targets, blockers, step_deg=2.0):
    """Most contacts over ring samples every ``step_deg`` (every subset of movers tried)."""
    samples = []
    for m in movers:
        r = m.fig.base.radius
        pts = []
        for t in targets:
            R = r + t.base.radius + 1e-7
            for a in np.radians(np.arange(0, 360, step_deg)):
                x, y = t.x + R * math.cos(a), t.y + R * math.sin(a)
                if not (BOX[0] + r <= x <= BOX[2] - r and BOX[1] + r <= y <= BOX[3] - r):
                    continue
                if any(math.hypot(x - b.x, y - b.y) - b.r - r < -1e-9 for b in blockers):
                    continue
                if m.reachable(x, y):
                    pts.append((x, y))
        samples.append(np.array(pts).reshape(-1, 2))
    rad = [m.fig.base.radius for m in movers]
    n = len(movers)
    best = 0
    for k in range(n, 0, -1):
        for sub in itertools.combinations(range(n), k):
            if any(len(samples[i]) == 0 for i in sub):
                continue
            if _fits(sub, samples, rad):
                return k
    return best


def _fits(sub, samples, rad) -> bool:
    def compat(i, j):
        d = np.linalg.norm(samples[i][:, None, :] - samples[j][None, :, :], axis=2)
        return d >= rad[i] + rad[j] - 1e-9

    if len(sub) == 1:
        return True
    if len(sub) == 2:
        return bool(compat(*sub).any())
    if len(sub) == 3:
        a, b, c = sub
        ab, ac, bc = compat(a, b), compat(a, c), compat(b, c)
        return any((ab[p][:, None] & ac[p][None, :] & bc).any() for p in range(len(samples[a])))
    first, rest = sub[0], sub[1:]
    cs = {j: compat(first, j) for j in rest}
    for p in range(len(samples[first])):
        keep = {j: samples[j][cs[j][p]] for j in rest}
        if all(len(v) for v in keep.values()):
            sub_samples = dict(enumerate(samples))
            sub_samples.update(keep)
            if _fits(rest, [sub_samples[i] for i in range(len(samples))], rad):
                return True
    return False


def test_seven_around_one_six_fit():
    t = fig("t", 15, 15, unit="foe")
    ms = [Mover(fig(f"m{i}", 15 + 2.5 * math.cos(i), 15 + 2.5 * math.sin(i)), 6.0) for i in range(7)]
    res = most_contacts(ms, [t], [], BOX)
    assert len(res.spots) == 6 and res.exhaustive
    _valid(res, ms, [t], [])


def test_greedy_nearest_spot_would_block_the_other_model():
    # b can only reach a narrow arc at the bottom of t's ring; a reaches all of the bottom
    # half, and its own nearest spot is exactly where b must go: both fit only if a moves aside
    t = fig("t", 15, 15, unit="foe")
    r = t.base.radius
    a = Mover(fig("a", 15, 15 - 2 * r - 1.0), 1.6)
    b = Mover(fig("b", 15, 15 - 2 * r - 2.0), 2.05)
    res = most_contacts([a, b], [t], [], BOX)
    assert len(res.spots) == 2
    _valid(res, [a, b], [t], [])
    assert _brute([a, b], [t], []) == 2


def _draw(seed):
    """A crowded small case: 3 or 4 movers close round one or two targets, each with a
    different allowance, so their reachable arcs overlap and compete."""
    rng = np.random.default_rng(seed)
    nt = 1 + seed % 2
    n = 4 if seed % 3 == 2 else 3
    while True:
        targets = [fig(f"t{k}", 15 + 1.1 * k, 15 + rng.uniform(-0.4, 0.4) * k, unit="foe") for k in range(nt)]
        movers = []
        for i in range(n):
            ang = rng.uniform(0, 2 * math.pi)
            d = rng.uniform(1.1, 2.6)
            movers.append(Mover(fig(f"m{i}", 15 + 0.5 * (nt - 1) + d * math.cos(ang), 15 + d * math.sin(ang)), float(rng.uniform(0.3, 2.2))))
        blockers = [Blocker(15 + rng.uniform(-1.5, 1.5), 15 + rng.uniform(-1.5, 1.5), 0.5)] if seed % 4 == 0 else []
        discs = [(f.x, f.y, f.base.radius) for f in [m.fig for m in movers] + targets] + [(b.x, b.y, b.r) for b in blockers]
        if all(math.hypot(p[0] - q[0], p[1] - q[1]) >= p[2] + q[2] for p, q in itertools.combinations(discs, 2)):
            return movers, targets, blockers


@pytest.mark.parametrize("seed", range(30))
def test_random_small_cases_match_brute_force(seed):
    movers, targets, blockers = _draw(seed)
    res = most_contacts(movers, targets, blockers, BOX)
    _valid(res, movers, targets, blockers)
    assert res.exhaustive
    assert len(res.spots) >= _brute(movers, targets, blockers, 2.0 if len(movers) == 3 else 4.0)


def test_arc_subtraction_against_sampled_angles():
    from tapeline.rules.contact_search import _subtract

    rng = np.random.default_rng(5)
    grid = np.linspace(0, 2 * math.pi, 3600, endpoint=False) + 1e-4

    def inside(arcs, a):
        return any((a - s) % (2 * math.pi) <= w for s, w in arcs)

    for _ in range(200):
        arcs = [(0.0, 2 * math.pi)] if rng.random() < 0.3 else [(rng.uniform(0, 6.3), rng.uniform(0.1, 4.0))]
        cuts = [(rng.uniform(-7, 7), rng.uniform(0.05, 3.0)) for _ in range(rng.integers(1, 4))]
        got = _subtract(arcs, cuts)
        for a in grid[::7]:
            want = inside(arcs, a) and not any(0 < (a - s) % (2 * math.pi) < w for s, w in cuts)
            near_edge = any(min(abs(((a - x + math.pi) % (2 * math.pi)) - math.pi) for x in (s, s + w)) < 1e-6 for s, w in arcs + cuts)
            if not near_edge:
                assert inside(got, a) == want
