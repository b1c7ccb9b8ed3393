"""PMF: exact distributions checked against hand values and brute-force enumeration."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tapeline.rules.pmf import PMF, as_fraction


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


# --- reading outside the support, offsets, and the defaults (hand-worked values) ---------------


def test_prob_outside_the_support_is_zero():
    d = PMF.die()  # six faces by default
    assert len(d.p) == 6 and d.offset == 1
    assert d.prob(1) == pytest.approx(1 / 6) and d.prob(6) == pytest.approx(1 / 6)
    assert d.prob(0) == 0.0 and d.prob(7) == 0.0 and d.prob(-3) == 0.0


def test_lo_and_hi_skip_leading_and_trailing_zeros():
    p = PMF(np.array([0.0, 0.0, 0.25, 0.75, 0.0]), 3)
    assert p.lo == 5 and p.hi == 6
    assert PMF(np.array([0.0, 0.0]), 4).lo == 4 and PMF(np.array([0.0, 0.0]), 4).hi == 4


def test_subtracting_a_constant_shifts_down():
    d = PMF.die() - 2
    assert d.offset == -1 and d.lo == -1 and d.hi == 4
    assert (PMF.die() + 3).lo == 4 and (3 + PMF.die()).hi == 9


def test_from_dict_keeps_the_support_tight():
    p = PMF.from_dict({2: 0.5, 4: 0.5})
    assert p.offset == 2 and len(p.p) == 3 and p.p.tolist() == [0.5, 0.0, 0.5]


def test_map_of_nothing_is_a_certain_zero():
    empty = PMF(np.zeros(3), 2)
    m = empty.map(lambda x: x + 5)
    assert m.prob(0) == 1.0 and m.lo == 0 and m.hi == 0


def test_at_least_and_cdf_include_the_value_itself():
    d = PMF.die()
    assert d.at_least(3) == pytest.approx(4 / 6) and d.at_least(7) == 0.0 and d.at_least(1) == pytest.approx(1.0)
    assert d.cdf(3) == pytest.approx(3 / 6) and d.cdf(0) == 0.0 and d.cdf(6) == pytest.approx(1.0)


def test_as_list_past_the_top_is_empty():
    d = PMF.die()
    assert d.as_list(7) == [] and d.as_list(8) == []
    assert d.as_list(6) == pytest.approx([1 / 6])
    assert len(d.as_list()) == 7 and d.as_list()[0] == 0.0


def test_best_of_defaults_to_d6():
    b = PMF.best_of(2)
    assert b.prob(6) == pytest.approx(11 / 36) and b.prob(1) == pytest.approx(1 / 36) and b.hi == 6


def test_as_fraction_limits_the_denominator_to_a_million():
    assert as_fraction(1 / 1_000_001) == Fraction(1, 1_000_000)
    assert as_fraction(2 / 3) == Fraction(2, 3)


def test_pmf_is_immutable():
    import dataclasses

    d = PMF.die()
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.offset = 3


def test_total_is_the_whole_mass():
    # a distribution's mass is 1, however it was built; a part of one (a sub-distribution, as
    # the exact engines hold for one branch) keeps the mass it was given: 1/4 + 1/2
    assert PMF.die(6).total() == pytest.approx(1.0, abs=1e-15)
    assert (PMF.die(6) + PMF.die(8)).power(3).total() == pytest.approx(1.0, abs=1e-12)
    assert PMF.from_dict({0: 0.25, 2: 0.5}).total() == 0.75
    assert PMF.from_dict({-3: 0.125}).total() == 0.125
    # the mixture of kernels of mass 1/2 each has mass 1/2
    half = PMF.die(6).mix(lambda x: PMF.from_dict({x: 0.5}))
    assert half.total() == pytest.approx(0.5, abs=1e-15) and half.mean == pytest.approx(3.5 / 2, abs=1e-15)
