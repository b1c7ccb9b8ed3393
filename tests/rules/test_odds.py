"""Exact odds (§8.7.4) against independent computations: closed forms, enumeration of every
damage outcome, and Monte Carlo of the real replay on a board (tolerance from the sample size)."""

import math
from collections import Counter

import numpy as np
import pytest

from tapeline.rules.dice import SeededDice
from tapeline.rules.pmf import PMF
from tapeline.rules.starcraft.attack import BatchSpec
from tapeline.rules.starcraft.odds import BatchTarget, attack_odds, batch_odds, marginal, propagate
from tapeline.rules.starcraft.batches import batch_spec, batch_target, fire_batch
from tapeline.rules.starcraft.targeting import check_target
from tapeline.scenarios.load import read
from tests.conftest import EXAMPLES


def test_no_surge_no_evade_is_a_binomial_chain():
    # 12 dice at 4+, Armour 5+: each die deals damage with chance 1/2 × 2/3 = 1/3
    spec = BatchSpec(groups=((12, 4, "to hit"),), armour=5)
    got = marginal(propagate(spec.steps()), "damage")
    assert got.as_list() == pytest.approx(PMF.binomial(12, 1 / 3).as_list(), abs=1e-12)


def test_evade_thins_the_damage_pool():
    spec = BatchSpec(groups=((10, 3, "to hit"),), armour=6, evade=4)
    got = marginal(propagate(spec.steps()), "damage")
    assert got.as_list() == pytest.approx(PMF.binomial(10, 2 / 3 * 5 / 6 * 1 / 2).as_list(), abs=1e-12)


def test_visible_cap_truncates_kills():
    spec = BatchSpec(groups=((18, 3, "to hit"),), surge_dice="D3", surge_applies=True, armour=6)
    full = batch_odds(spec, hp=1, removable=[f"z{i}" for i in range(18)])
    capped = batch_odds(spec, hp=1, removable=["a", "b", "c", "d", "e", "f"])
    assert capped.kills.hi == 6
    assert capped.kills.prob(6) == pytest.approx(full.damage_dice.at_least(6), abs=1e-12)
    for k in range(6):
        assert capped.kills.prob(k) == pytest.approx(full.damage_dice.prob(k), abs=1e-12)
    assert capped.marker.as_list() == pytest.approx([1.0])  # HP 1: nothing ever left over


def test_two_batches_combine_in_order_by_enumeration():
    # Batch 1 then Batch 2 at 2-HP Marines (5 of them Visible to each Batch, 3 shared):
    # enumerate every pair of damage-dice outcomes and apply the casualty rule by hand.
    s1 = BatchSpec(groups=((4, 3, "to hit"),), armour=5)
    s2 = BatchSpec(groups=((3, 4, "to hit"),), armour=5, damage=2)
    t1 = BatchTarget(("m1", "m2", "m3", "m4", "m5"), hp=2)
    t2 = BatchTarget(("m3", "m4", "m5", "m6", "m7"), hp=2)
    got = attack_odds([(s1, t1), (s2, t2)], marker=1)
    d1 = marginal(propagate(s1.steps()), "damage")
    d2 = marginal(propagate(s2.steps()), "damage")
    kills = Counter()
    for a in range(d1.hi + 1):
        for b in range(d2.hi + 1):
            pr = d1.prob(a) * d2.prob(b)
            gone, total = [], a + 1
            while total >= 2 and len(gone) < 5:
                gone.append(t1.removable[len(gone)])
                total -= 2
            marker = 0 if len(gone) == 5 else total
            total = 2 * b + marker
            left = [m for m in t2.removable if m not in gone]
            k2 = min(len(left), total // 2)
            kills[len(gone) + k2] += pr
    assert got.kills.as_list() == pytest.approx([kills[k] for k in range(max(kills) + 1)], abs=1e-12)
    assert got.damage.mean == pytest.approx(d1.mean + 2 * d2.mean)


def test_monte_carlo_of_the_replay_on_the_board():
    """The dice path on the real board (Direct Cover example) against the exact odds."""
    st = read(EXAMPLES / "attack-direct-cover.yaml").state
    tg = check_target(st, "marines", "c-14-rifle", "zerglings")
    exact = attack_odds([(batch_spec(st, tg), batch_target(st, tg))])
    dice = SeededDice(3)
    n = 400
    kills = np.array([fire_batch(st, tg, dice)[2].kills for _ in range(n)])
    assert kills.max() <= 6
    se = math.sqrt(exact.kills.variance / n)
    assert abs(kills.mean() - exact.kills.mean) < 4 * se
    p6 = exact.kills.at_least(6)
    assert abs((kills >= 6).mean() - p6) < 4 * math.sqrt(p6 * (1 - p6) / n) + 1e-9


def test_shield_and_marker_odds_on_the_board():
    st = read(EXAMPLES / "attack-zealot-shield.yaml").state
    tg = check_target(st, "marines", "c-14-rifle", "zealots")
    o = attack_odds([(batch_spec(st, tg), batch_target(st, tg))])
    # 6 dice can never reach 7 damage: the Shielded first Zealot always survives one volley
    assert o.kills.as_list() == pytest.approx([1.0])
    assert o.marker.mean == pytest.approx(o.damage.mean)
    # with 5 damage already on the Marker, P(first Zealot dies) = P(damage ≥ 2)
    o2 = attack_odds([(batch_spec(st, tg), batch_target(st, tg))], marker=5)
    assert o2.kills.at_least(1) == pytest.approx(o.damage.at_least(2), abs=1e-12)
