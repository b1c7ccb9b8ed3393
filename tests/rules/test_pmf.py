"""PMF: exact distributions checked against hand values and brute-force enumeration."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tapeline.rules.pmf import PMF


def test_die_and_charge_reach():
    d6 = PMF.die(6)
    assert d6.mean == pytest.approx(3.5)
    assert (d6 + 4).at_least(7) == pytest.approx(4 / 6)  # §8.7.7: Speed 4 + D6 reaches 7"
    assert (d6 + 4).lo == 5 and (d6 + 4).hi == 10


def test_best_of_two_by_enumeration():
    counts = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        counts[max(a, b)] = counts.get(max(a, b), 0) + 1
    b2 = PMF.best_of(2, 6)
    for k, c in counts.items():
        assert b2.prob(k) == pytest.approx(c / 36)
    assert b2.mean == pytest.approx(161 / 36)


def test_d3_is_a_halved_d6():
    d3 = PMF.of_faces(lambda v: (v + 1) // 2)
    assert d3.as_list(1) == pytest.approx([1 / 3] * 3)
    assert PMF.d3().as_list(1) == pytest.approx(d3.as_list(1))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 25), q=st.floats(0, 1))
def test_binomial_matches_formula(n, q):
    from math import comb

    b = PMF.binomial(n, q)
    for k in range(n + 1):
        assert b.prob(k) == pytest.approx(comb(n, k) * q**k * (1 - q) ** (n - k), abs=1e-12)
    assert b.mean == pytest.approx(n * q, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 12), faces=st.lists(st.integers(0, 3), min_size=6, max_size=6))
def test_power_is_repeated_addition(n, faces):
    one = PMF.of_faces(lambda v: faces[v - 1])
    slow = PMF.point(0)
    for _ in range(n):
        slow = slow + one
    fast = one.power(n)
    assert fast.as_list() == pytest.approx(slow.as_list(), abs=1e-12)


def test_power_by_enumeration():
    # three dice, each worth 1 on a 3+: the count of successes, by listing all 216 rolls
    one = PMF.of_faces(lambda v: int(v >= 3))
    exact = {k: Fraction(sum(1 for r in itertools.product(range(1, 7), repeat=3) if sum(v >= 3 for v in r) == k), 216) for k in range(4)}
    assert one.power(3).as_list() == pytest.approx([float(exact[k]) for k in range(4)])


def test_scaled_mix_and_reading():
    d = PMF.die(6).scaled(2)
    assert d.values.tolist()[:1] == [2] and d.prob(12) == pytest.approx(1 / 6) and d.prob(3) == 0
    m = PMF.die(2).mix(lambda x: PMF.die(6) + x)
    assert m.mean == pytest.approx(3.5 + 1.5)
    assert PMF.die(6).cdf(2) == pytest.approx(1 / 3)
    assert PMF.die(6).variance == pytest.approx(35 / 12)
    assert sum(PMF.binomial(5, 0.3).as_list()) == pytest.approx(1.0)
    assert PMF.binomial(3, 0.5).at_least_list() == pytest.approx([1, 7 / 8, 4 / 8, 1 / 8])
    with pytest.raises(ValueError):
        PMF.die(6).power(-1)
    assert np.isclose(PMF.point(3).mean, 3)
