"""The Close Combat Attack (§8.8.1): ranks, declarations, dice and exact odds, checked against
the rules guide's own numbers and by hand."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from tapeline.rules.dice import RecordedDice, SeededDice
from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft import melee
from tapeline.rules.starcraft.ranks import ranks
from tapeline.scenarios.load import read
from tests.conftest import EXAMPLES, scenario

TWO_UNITS = EXAMPLES / "fight-zerglings-two-units.yaml"


def test_rulebook_zerglings_against_two_units():
    st = read(TWO_UNITS).state
    cc = melee.declare(st, "zerglings", surge_to="marauders")
    assert cc.ranks.fighting_rank == ["z1", "z2", "z3", "z4", "z5"] and cc.ranks.supporting_rank == []
    # z5 touches both; by default it attacks the first unit it may (the Marauders), as in the book
    assert cc.assign["z5"] == "marauders"
    assert cc.dice() == {"marauders": 6, "marines": 4}
    assert cc.surge_to == "marauders"
    (b,) = cc.batches                                   # one weapon: one Batch split between the units
    assert [(p.target, p.dice) for p in b.parts] == [("marauders", 6), ("marines", 4)]
    specs = {p.target: melee.part_spec(st, cc, b, p) for p in b.parts}
    assert specs["marauders"].surge_dice == "D3" and specs["marauders"].surge_applies
    assert specs["marines"].surge_dice is None          # the Marines get no Surge in that fight
    assert all(s.evade is None for s in specs.values())  # Engaged grants no Evade in melee
    # the default Surge target is the first one with the Surge Type (Armoured Marauders)
    assert melee.declare(st, "zerglings").surge_to == "marauders"
    # z5 may instead attack the Marines: 4 and 6
    assert melee.declare(st, "zerglings", assign={"z5": "marines"}).dice() == {"marauders": 4, "marines": 6}


def test_zerglings_exact_odds_by_hand():
    st = read(TWO_UNITS).state
    o = melee.odds(st, melee.declare(st, "zerglings"))
    # Marines: 4 dice at 4+, Armour 5+: a die deals damage with p = 1/2 × 2/3 = 1/3; HP 2
    assert o["marines"].hits.mean == pytest.approx(2.0, abs=1e-12)
    assert o["marines"].damage.mean == pytest.approx(4 / 3, abs=1e-12)
    assert o["marines"].kills.at_least(1) == pytest.approx(1 - (2 / 3) ** 4 - 4 * (1 / 3) * (2 / 3) ** 3, abs=1e-12)
    # Marauders: 6 dice at 4+, Surge D3 (Armoured), Armour 4+: by enumeration of the dice
    want = _enumerate_marauders()
    assert o["marauders"].damage.mean == pytest.approx(want, abs=1e-12)


def _enumerate_marauders() -> float:
    total = 0.0
    for hits in range(7):
        ph = math.comb(6, hits) / 2 ** 6
        for s in (1, 2, 3):                        # D3: faces 1-2 → 1, 3-4 → 2, 5-6 → 3
            moved = min(s, hits)
            rest = hits - moved
            total += ph / 3 * (moved + rest * 0.5)  # Armour 4+: half of the rest fail
    return total


STRIKE = """
tapeline: 1
system: starcraft
board: {width: 30, height: 12}
units:
  - id: marines
    side: terran
    profile: marine
    models:
%s
  - id: zerglings
    side: zerg
    profile: zergling
    models:
%s
"""


def _strike_file():
    ms = "\n".join(f"      - {{id: m{i}, at: [{2 + 1.5 * i}, 5]}}" for i in range(9))
    zs = "\n".join(f"      - {{id: z{i}, at: [{2 + 1.5 * i}, 6.8]}}" for i in range(12))
    return scenario(STRIKE % (ms, zs)).state


def test_rules_guide_strike_5_plus():
    """The Phase 3 simulator: 9 Marines' Strike (RoA 1, 5+) at Zerglings (Armour 6+, HP 1, no
    Evade in melee): mean hits 9 × 1/3 = 3; a die kills with p = 1/3 × 5/6 = 5/18, so
    P(at least 1 kill) = 1 − (13/18)^9 (the guide's Monte Carlo: 3.10 and 94.4 %)."""
    st = _strike_file()
    cc = melee.declare(st, "marines")
    assert cc.dice() == {"zerglings": 9} and cc.weapons["m0"] == "strike"
    o = melee.odds(st, cc)["zerglings"]
    assert o.hits.mean == pytest.approx(3.0, abs=1e-12)
    assert o.kills.at_least(1) == pytest.approx(1 - (13 / 18) ** 9, abs=1e-12)
    assert o.kills.mean == pytest.approx(9 * 5 / 18, abs=1e-12)


def test_dice_engine_and_exact_odds_agree():
    """Every outcome of a small fight rolled through the dice path, weighted by its chance,
    reproduces the exact kills distribution (2 Marines striking 2 Zerglings)."""
    text = STRIKE % ("\n".join(f"      - {{id: m{i}, at: [{2 + 1.5 * i}, 5]}}" for i in range(2)),
                     "\n".join(f"      - {{id: z{i}, at: [{2 + 1.5 * i}, 6.8]}}" for i in range(2)))
    st = scenario(text).state
    cc = melee.declare(st, "marines")
    exact = melee.odds(st, cc)["zerglings"].kills
    acc = {}
    # 2 hit dice, then one armour die per hit: enumerate sequences of 4 faces (unused ones ignored)
    for seq in itertools.product(range(1, 7), repeat=4):
        new, _, res = melee.resolve(st, cc, RecordedDice(list(seq)))
        used = 2 + res[0].hits
        if any(seq[k] != 1 for k in range(used, 4)):
            continue                                 # count each real sequence once
        p = (1 / 6) ** used
        acc[res[0].kills] = acc.get(res[0].kills, 0) + p
    for k, p in acc.items():
        assert exact.p[list(exact.values).index(k)] == pytest.approx(p, abs=1e-12)


FIGURE = """
tapeline: 1
system: starcraft
board: {width: 24, height: 24}
units:
  - id: zerglings
    side: zerg
    profile: zergling
    models:
      - {id: A, at: [11.759842520, 10]}   # 0.5" from the Marine: Fighting Rank
      - {id: B, at: [13.019685039, 10]}   # base contact with A, 1.76" from the Marine: Supporting
      - {id: C, at: [13.019685039, 11.5]} # touches neither: no part
  - id: marines
    side: terran
    profile: marine
    models:
      - {id: m1, at: [10, 10]}
"""


def test_rulebook_ranks_figure():
    st = scenario(FIGURE).state
    rk = ranks(st, "zerglings")
    assert rk.fighting_rank == ["A"] and rk.supporting_rank == ["B"] and rk.strikers == ["A", "B"]
    assert rk.may_attack("B") == ("marines",) and rk.may_attack("C") == ()
    assert melee.declare(st, "zerglings").dice() == {"marines": 4}


def _rule(fn) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        fn()
    return e.value


def test_illegal_declarations_name_the_rule():
    st = scenario(FIGURE).state
    e = _rule(lambda: melee.declare(scenario(FIGURE.replace("[10, 10]", "[3, 3]")).state, "zerglings"))
    assert e.rule == "§8.8 Combat phase" and "not Engaged" in e.message
    e = _rule(lambda: melee.declare(st, "zerglings", assign={"C": "marines"}))
    assert e.rule == "§8.8.1 Close Combat Attack" and "neither" in e.message
    st2 = read(TWO_UNITS).state
    e = _rule(lambda: melee.declare(st2, "zerglings", assign={"z1": "marines"}))
    assert e.rule == "§8.8.1 Fighting multiple Units" and "may attack only marauders" in e.message
    e = _rule(lambda: melee.declare(st2, "zerglings", surge_to=["marauders", "marines"]))
    assert e.rule == "§8.8.1 Surge" and "cannot be split" in e.message
    e = _rule(lambda: melee.declare(_strike_file(), "marines", weapons={"m0": "c-14-rifle"}))
    assert e.rule == "§8.8.1 Close Combat Attack" and "Assault-phase weapon" in e.message


def test_monte_carlo_cross_check():
    st = read(TWO_UNITS).state
    cc = melee.declare(st, "zerglings")
    exact = melee.odds(st, cc)
    n, dice = 600, SeededDice(4)
    kills = {"marauders": 0, "marines": 0}
    for _ in range(n):
        new, _, _ = melee.resolve(st, cc, dice)
        for t in kills:
            kills[t] += len(new.unit(t).removed)
    for t, o in exact.items():
        sd = math.sqrt(max(o.kills.variance, 1e-9) / n)
        assert kills[t] / n == pytest.approx(o.kills.mean, abs=4 * sd + 1e-3)


# --- a fight never removes more models than the damage allows (hypothesis) ---------------------

from hypothesis import given, settings
from hypothesis import strategies as hst


@settings(max_examples=40, deadline=None)
@given(hst.lists(hst.integers(1, 6), min_size=40, max_size=40))
def test_fight_removes_no_more_than_the_damage_allows(rolls):
    st = read(TWO_UNITS).state
    cc = melee.declare(st, "zerglings", assign={"z5": "marines"}, surge_to="marines")
    new, events, parts = melee.resolve(st, cc, RecordedDice(rolls))
    for t in ("marauders", "marines"):
        hp = {"marauders": 5, "marines": 2}[t]
        dmg = sum(p.damage for p in parts if p.target == t)
        removed = len(new.unit(t).removed)
        assert removed * hp <= dmg + st.unit(t).damage                  # kills paid for in full
        assert removed == sum(p.kills for p in parts if p.target == t)
        assert removed == min(len(st.unit(t).models), dmg // hp)       # and nothing more is wasted
        cas = [e for e in events if e["type"] == "casualties" and e["unit"] == t][0]
        assert cas["marker"] == (0 if removed == len(st.unit(t).models) else dmg - removed * hp)
