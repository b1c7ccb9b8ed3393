"""The three pools (§8.7.4): hand-resolved rolls, brute-force enumeration of every die, and the
rules guide's attack simulator (the Phase 2 Assault rules guide) made exact."""

import itertools
import math

import numpy as np
from hypothesis import given, settings, strategies as st
import pytest

from tapeline.rules.dice import RecordedDice, SeededDice
from tapeline.rules.starcraft.attack import BatchSpec, clamp_target, modified, roll_pools, succeeds
from tapeline.rules.starcraft.odds import batch_odds, marginal, propagate

C14_AT_ZERGLINGS = BatchSpec(groups=((18, 3, "to hit"),), surge_dice="D3", surge_applies=True, armour=6)


def test_modifier_clamp_and_naturals():
    # §3.4 rulebook example: 5+ with +1 is 4+, with −1 is 6+, never beyond 2+ / 6+
    assert modified(5, +1) == 4 and modified(5, -1) == 6
    assert modified(3, +3) == 2 and modified(6, -2) == 6 and modified(None, 1) is None
    assert clamp_target(9) == 6 and clamp_target(0) == 2
    assert succeeds(6, 7) and not succeeds(1, 2)  # natural 6 / natural 1
    assert not succeeds(6, None)  # Null Value "-" never rolls


def test_hand_resolved_batch():
    # 3 Marines (6 dice, 3+) at Zerglings: hits 6,5,3,2,1,4 -> 4 hits; Surge die 6 -> D3 = 3:
    # 3 dice skip Armour; the last one rolls Armour 6+: a 6 saves it. 3 damage dice.
    spec = BatchSpec(groups=((6, 3, "to hit"),), surge_dice="D3", surge_applies=True, armour=6)
    pools, log = roll_pools(spec.steps(), RecordedDice([6, 5, 3, 2, 1, 4, 6, 6]))
    assert (pools.hits, pools.damage) == (4, 3)
    assert [e.purpose for e in log if e.values] == ["to hit", "surge die (D3)", "armour"]
    # the same without the Surge tag: all 4 roll Armour, two 6s save
    spec2 = BatchSpec(groups=((6, 3, "to hit"),), surge_dice="D3", surge_applies=False, armour=6)
    pools2, _ = roll_pools(spec2.steps(), RecordedDice([6, 5, 3, 2, 1, 4, 6, 6, 2, 6, 1]))
    assert (pools2.hits, pools2.damage) == (4, 2)


def test_precision_tough_critical_dodge_evade_by_hand():
    # 4 dice at 4+: 1,2,3,6 -> 1 hit; PRECISION 2 -> 3 hits. Surge D3+1 die 2 -> 2; CRITICAL HIT 1
    # -> 3 to move, DODGE 1 -> 2 moved; 1 Armour roll (4+): a 2 fails, TOUGH 1 saves it.
    # Evade 5+ on the 2 damage dice: 5 and 4 -> one evaded. 1 damage die.
    spec = BatchSpec(groups=((4, 4, "to hit"),), surge_dice="D3+1", surge_applies=True, armour=4,
                     evade=5, precision=2, critical_hit=1, dodge=1, tough=1)
    pools, log = roll_pools(spec.steps(), RecordedDice([1, 2, 3, 6, 2, 2, 5, 4]))
    assert pools.hits == 3 and pools.damage == 1


def _brute(n, hit, kind, applies, armour, evade, precision=0, critical=0, dodge=0, tough=0):
    """Every assignment of n attack dice, the Surge die, n Armour and n Evade dice, resolved by
    hand-written array code (not the Step code); steps consume the leading dice of each block."""
    width = 3 * n + 1
    rolls = np.array(list(itertools.product(range(1, 7), repeat=width)), dtype=np.int8)
    ok = lambda v, t: (v == 6) | ((v != 1) & (v >= t))
    att, s_die, arm, eva = rolls[:, :n], rolls[:, n], rolls[:, n + 1: 2 * n + 1], rolls[:, 2 * n + 1:]
    hits = ok(att, hit).sum(axis=1)
    hits = hits + np.minimum(precision, n - hits)
    surge = {"D3": (s_die + 1) // 2, "D3+1": (s_die + 1) // 2 + 1, "D6": s_die}[kind] if applies else 0 * s_die
    by_surge = np.minimum(surge, hits)
    moved = np.maximum(0, by_surge + np.minimum(critical, hits - by_surge) - dodge)
    pool = hits - moved
    idx = np.arange(n)
    saves = (ok(arm, armour) & (idx < pool[:, None])).sum(axis=1)
    saves = saves + np.minimum(tough, pool - saves)
    dmg = moved + pool - saves
    if evade is not None:
        dmg = dmg - (ok(eva, evade) & (idx < dmg[:, None])).sum(axis=1)
    return np.bincount(hits, minlength=n + 1) / len(rolls), np.bincount(dmg, minlength=n + 1) / len(rolls)


@pytest.mark.parametrize("case", [
    dict(n=2, hit=3, kind="D3", applies=True, armour=6, evade=None),
    dict(n=2, hit=4, kind="D3+1", applies=True, armour=4, evade=4, precision=1, tough=1),
    dict(n=2, hit=2, kind="D6", applies=False, armour=5, evade=5, critical=1, dodge=1),
    dict(n=2, hit=5, kind="D3", applies=True, armour=3, evade=2, critical=2, dodge=1, tough=2),
])
def test_exact_matches_enumeration_of_every_die(case):
    c = dict(case)
    spec = BatchSpec(groups=((c["n"], c["hit"], "to hit"),), surge_dice=c["kind"], surge_applies=c["applies"],
                     armour=c["armour"], evade=c["evade"], precision=c.get("precision", 0),
                     critical_hit=c.get("critical", 0), dodge=c.get("dodge", 0), tough=c.get("tough", 0))
    hits, dmg = _brute(**c)
    final = propagate(spec.steps())
    assert marginal(final, "hits").as_list() == pytest.approx(hits.tolist(), abs=1e-12)
    assert marginal(final, "damage").as_list() == pytest.approx(dmg[: len(marginal(final, 'damage').as_list())].tolist(), abs=1e-12)
    assert dmg[len(marginal(final, "damage").as_list()):].sum() == 0


@pytest.mark.parametrize("spec, width", [
    (BatchSpec(groups=((1, 3, "to hit"), (1, 4, "to hit (LONG RANGE -1)")), surge_dice="D3",
               surge_applies=True, armour=5), 5),
    (BatchSpec(groups=((1, 3, "to hit"),), surge_dice="D3+1", surge_applies=True, armour=4, evade=4,
               precision=1), 4),
    (BatchSpec(groups=((2, 4, "to hit"),), armour=4, evade=5, tough=1), 6),
])
def test_random_path_enumerated_equals_exact(spec, width):
    # every sequence of dice the dice path could consume, fed to roll_pools: the tally is the
    # exact distribution
    tally = np.zeros(4)
    for seq in itertools.product(range(1, 7), repeat=width):
        pools, _ = roll_pools(spec.steps(), RecordedDice(seq))
        tally[pools.damage] += 1
    exact = marginal(propagate(spec.steps()), "damage").as_list()
    assert (tally / 6**width)[: len(exact)].tolist() == pytest.approx(exact, abs=1e-12)
    assert tally[len(exact):].sum() == 0


def test_rules_guide_simulator_exact():
    """9 Marines' C-14 rifles at 18 Zerglings in the open: 18 attack dice on 3+ plus one Surge
    die (D3) per Batch, which does not roll to hit (mean hits 18 × 2/3 = 12 exactly)."""
    o = batch_odds(C14_AT_ZERGLINGS, hp=1, removable=[f"z{i}" for i in range(18)])
    assert o.dice == 18
    assert o.hits.mean == pytest.approx(12.0, abs=1e-12)
    assert round(o.damage.mean, 4) == 10.3333
    # a hair under 31/3: with fewer hits than the Surge result, Surge is wasted
    waste = sum(o.hits.prob(h) * sum(max(0, s - h) for s in (1, 2, 3)) / 3 for h in range(3))
    assert o.damage.mean == pytest.approx(31 / 3 - waste / 6, abs=1e-12) and o.damage.mean < 31 / 3
    assert round(o.kills.at_least(7), 4) == 0.9699
    assert round(o.kills.at_least(10), 4) == 0.6596
    assert o.kills.mean == pytest.approx(o.damage.mean, abs=1e-12)  # 18 in the open: no cap bites
    # the guide's Monte Carlo figures lie within its sampling error ("a few hundred games")
    n = 300
    guide = {"hits": 11.90, "damage": 10.26, 7: 0.976, 10: 0.618}
    assert abs(guide["hits"] - o.hits.mean) < 3 * math.sqrt(o.hits.variance / n)
    assert abs(guide["damage"] - o.damage.mean) < 3 * math.sqrt(o.damage.variance / n)
    for k in (7, 10):
        p = o.kills.at_least(k)
        assert abs(guide[k] - p) < 3 * math.sqrt(p * (1 - p) / n)


def test_monte_carlo_of_the_dice_path_agrees():
    o = batch_odds(C14_AT_ZERGLINGS, hp=1, removable=[f"z{i}" for i in range(18)])
    dice = SeededDice(11)
    n = 2000
    dmg = np.array([roll_pools(C14_AT_ZERGLINGS.steps(), dice)[0].damage for _ in range(n)])
    se = math.sqrt(o.damage.variance / n)
    assert abs(dmg.mean() - o.damage.mean) < 4 * se
    p10 = (dmg >= 10).mean()
    assert abs(p10 - o.kills.at_least(10)) < 4 * math.sqrt(0.25 / n)


def test_same_seed_same_rolls():
    a, b = SeededDice(5), SeededDice(5)
    roll_pools(C14_AT_ZERGLINGS.steps(), a)
    roll_pools(C14_AT_ZERGLINGS.steps(), b)
    assert a.take_events() == b.take_events()


@settings(max_examples=12, deadline=None)
@given(
    n=st.integers(1, 2), hit=st.integers(2, 6), kind=st.sampled_from(["D3", "D3+1", "D6"]),
    applies=st.booleans(), armour=st.integers(2, 6), evade=st.one_of(st.none(), st.integers(2, 6)),
    precision=st.integers(0, 2), critical=st.integers(0, 2), dodge=st.integers(0, 2), tough=st.integers(0, 2),
)
def test_exact_matches_enumeration_random_profiles(n, hit, kind, applies, armour, evade, precision, critical, dodge, tough):
    spec = BatchSpec(groups=((n, hit, "to hit"),), surge_dice=kind, surge_applies=applies, armour=armour,
                     evade=evade, precision=precision, critical_hit=critical, dodge=dodge, tough=tough)
    hits, dmg = _brute(n, hit, kind, applies, armour, evade, precision, critical, dodge, tough)
    final = propagate(spec.steps())
    assert sum(final.values()) == pytest.approx(1.0)
    h, d = marginal(final, "hits").as_list(), marginal(final, "damage").as_list()
    assert h == pytest.approx(hits[: len(h)].tolist(), abs=1e-12) and hits[len(h):].sum() == 0
    assert d == pytest.approx(dmg[: len(d)].tolist(), abs=1e-12) and dmg[len(d):].sum() == 0


# --- each step on its own, by hand ------------------------------------------------------------


def test_null_value_to_hit_group_rolls_no_die():
    """A "−" hit value (§3.6): the group rolls nothing and adds nothing to the Attack Pool."""
    spec = BatchSpec(groups=((3, None, "to hit (-)"), (2, 4, "to hit")), armour=7)
    dice = RecordedDice([4, 1, 6])  # two to hit (one hit), one armour roll (a natural 6 saves)
    pools, log = roll_pools(spec.steps(), dice)
    assert dice.remaining == 0 and log[0].values == [] and log[0].outcome == 0
    assert (pools.attack, pools.hits, pools.damage) == (2, 1, 0)
    assert spec.dice == 5


def test_surge_faces_and_the_surge_die():
    from tapeline.rules.starcraft.attack import SURGE_FACES, surge_die_step

    assert [SURGE_FACES["D3"](v) for v in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert [SURGE_FACES["D3+1"](v) for v in range(1, 7)] == [2, 2, 3, 3, 4, 4]
    assert [SURGE_FACES["D6"](v) for v in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    s = surge_die_step("D3+1")
    from tapeline.rules.starcraft.attack import Pools

    assert s.count(Pools()) == 1 and s.then(Pools(armour=5), 3).surge == 3


def test_steps_pool_arithmetic_by_hand():
    from tapeline.rules.starcraft.attack import (Pools, armour_step, evade_step, fixed_surge_step, hit_step,
                                                  precision_step, resolve_surge_step)

    p = hit_step(5, 3).then(Pools(attack=1, hits=1, armour=1), 2)
    assert (p.attack, p.hits, p.armour) == (6, 3, 3)
    assert hit_step(5, None).count(Pools()) == 0 and hit_step(5, 4).count(Pools()) == 5
    # PRECISION (2) with 4 failed dice: 2 join; with 1 failed die: 1 joins
    assert precision_step(2).then(Pools(attack=6, hits=2, armour=2), 0).hits == 4
    assert precision_step(2).then(Pools(attack=6, hits=5, armour=5), 0).armour == 6
    # Resolve Surge: result 3, Armour Pool 2 -> 2 move; CRITICAL HIT 2 with 4 left after 1 by surge
    r = resolve_surge_step(True).then(Pools(surge=3, armour=2, damage=1), 0)
    assert (r.armour, r.damage, r.surge) == (0, 3, 0)
    r = resolve_surge_step(True, critical_hit=2).then(Pools(surge=1, armour=5), 0)
    assert (r.armour, r.damage) == (2, 3)
    r = resolve_surge_step(True, critical_hit=2, dodge=1).then(Pools(surge=1, armour=5), 0)
    assert (r.armour, r.damage) == (3, 2)
    r = resolve_surge_step(True, dodge=9).then(Pools(surge=3, armour=5), 0)
    assert (r.armour, r.damage) == (5, 0)
    r = resolve_surge_step(False, critical_hit=1).then(Pools(surge=3, armour=5), 0)
    assert (r.armour, r.damage) == (4, 1)
    assert fixed_surge_step(4).then(Pools(), 0).surge == 4 and fixed_surge_step(4).count(Pools()) == 0
    # Armour: 6 dice, 2 successes, TOUGH (3): 5 saved, 1 damage; TOUGH (9): all 6 saved
    a = armour_step(5, tough=3)
    assert a.count(Pools(armour=6)) == 6
    assert a.then(Pools(armour=6, damage=2), 2).damage == 3 and a.then(Pools(armour=6, damage=2), 2).armour == 0
    assert armour_step(5, tough=9).then(Pools(armour=6), 2).damage == 0
    assert [a.face(v) for v in range(1, 7)] == [0, 0, 0, 0, 1, 1]
    # Evade: 4 damage dice, 1 success -> 3; not eligible: no die
    e = evade_step(5)
    assert e.count(Pools(damage=4)) == 4 and e.then(Pools(damage=4), 1).damage == 3
    assert evade_step(None).count(Pools(damage=4)) == 0


def test_batch_steps_are_only_what_the_batch_has():
    plain = BatchSpec(groups=((2, 3, "to hit"), (0, 4, "long range")), armour=5)
    purposes = [s.purpose for s in plain.steps()]
    assert purposes == ["to hit", "resolve surge", "armour", "evade"]
    full = BatchSpec(groups=((2, 3, "to hit"),), surge_dice="D6", surge_applies=True, armour=5, precision=1)
    assert [s.purpose for s in full.steps()] == ["to hit", "precision", "surge die (D6)", "resolve surge", "armour", "evade"]
    tmpl = BatchSpec(groups=((2, 3, "to hit"),), surge_fixed=2, surge_applies=True, armour=6)
    pools, _ = roll_pools(tmpl.steps(), RecordedDice([6, 6]))
    assert pools.damage == 2 and pools.armour == 0  # both moved by the fixed Surge, nothing to save
    no_tag = BatchSpec(groups=((2, 3, "to hit"),), surge_dice="D6", surge_applies=False, armour=6)
    pools, _ = roll_pools(no_tag.steps(), RecordedDice([6, 6, 6, 1, 1]))
    assert pools.damage == 2 and pools.surge == 0


def test_roll_pools_starts_from_given_pools_and_logs_each_step():
    from tapeline.rules.starcraft.attack import Pools

    spec = BatchSpec(groups=((2, 4, "to hit"),), armour=6)
    pools, log = roll_pools(spec.steps(), RecordedDice([5, 2, 6]), start=Pools(damage=3))
    assert pools.damage == 3 and pools.hits == 1  # the hit saved on a 6
    assert [l.purpose for l in log] == ["to hit", "resolve surge", "armour", "evade"]
    assert log[0].values == [5, 2] and log[0].outcome == 1 and log[2].values == [6]


def test_succeeds_edges():
    assert succeeds(5, 5) and not succeeds(4, 5) and succeeds(2, 2) and succeeds(2, 1)
    assert not succeeds(1, 1) and succeeds(6, 9) and not succeeds(5, 9)
    assert clamp_target(4) == 4 and clamp_target(2) == 2 and clamp_target(6) == 6


def test_step_defaults_and_values_are_frozen():
    import dataclasses

    from tapeline.rules.starcraft.attack import Pools, armour_step, resolve_surge_step

    # no CRITICAL HIT, no DODGE by default: Surge 1 moves exactly 1 of 3
    r = resolve_surge_step(True).then(Pools(surge=1, armour=3), 0)
    assert (r.armour, r.damage) == (2, 1)
    # no TOUGH by default: 3 dice, 1 saved, 2 damage
    assert armour_step(5).then(Pools(armour=3), 1).damage == 2
    # the Surge applies only when the file says the target has the Surge Type
    spec = BatchSpec(groups=((2, 3, "to hit"),), surge_dice="D6", armour=6)
    pools, _ = roll_pools(spec.steps(), RecordedDice([6, 6, 6, 6, 6]))  # both hits saved on 6s
    assert pools.damage == 0 and pools.surge == 0
    assert Pools() == Pools(0, 0, 0, 0, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.armour = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        armour_step(5).purpose = "x"


def test_armour_dash_rolls_no_die():
    """Armour "-" can never be rolled (§3.6): three hits go straight to the Damage Pool and no
    recorded die is spent on them; TOUGH (1) still turns one failure into a save."""
    spec = BatchSpec(groups=((3, 2, "to hit"),), armour=None)
    dice = RecordedDice([6, 6, 6, 4])
    pools, log = roll_pools(spec.steps(), dice)
    assert (pools.hits, pools.damage) == (3, 3)
    assert dice.remaining == 1
    assert [entry.values for entry in log if entry.purpose == "armour"] == [[]]
    tough = BatchSpec(groups=((3, 2, "to hit"),), armour=None, tough=1)
    assert roll_pools(tough.steps(), RecordedDice([6, 6, 6]))[0].damage == 2
    # exact: hits H ~ Binomial(3, 5/6) and damage max(H - 1, 0), so P(damage = k) = P(H = k + 1)
    # for k >= 1 and P(damage = 0) = P(H <= 1)
    h = [math.comb(3, k) * (5 / 6) ** k * (1 / 6) ** (3 - k) for k in range(4)]
    assert marginal(propagate(tough.steps()), "damage").as_list() == pytest.approx([h[0] + h[1], h[2], h[3]], abs=1e-12)


def test_roll_events_say_what_each_die_needs():
    """Each roll event of a Batch carries its target number (clamped, §3.4) as ``needs``; the
    Surge Die, a number rather than a success, has none. Hit 1+ reads 2+ (a natural 1 fails),
    Armour 8+ reads 6+ (a natural 6 succeeds), Evade 4+."""
    from tapeline.rules.starcraft.attack import roll_logged
    spec = BatchSpec(groups=((3, 1, "to hit"),), surge_dice="D3", surge_applies=False, armour=8, evade=4)
    _, _, events = roll_logged(spec.steps(), RecordedDice([1, 2, 6, 3, 6, 1, 2, 4, 4]))
    assert [(e["purpose"], e["values"], e.get("needs")) for e in events] == [
        ("to hit", [1, 2, 6], 2), ("surge die (D3)", [3], None), ("armour", [6, 1], 6), ("evade", [2], 4)]
    assert [e["outcome"] for e in events] == [2, 2, 1, 0]
