"""Horus Heresy 3rd: the Active Player's order of Strike Groups within an Initiative step (§A.7
"Groups are resolved one at a time, in the order chosen by the Active Player"), in the exact
odds, the replay, the ``fight`` question and the file; the default listed as a reading."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tapeline.rules.dice import RecordedDice
from tapeline.rules.errors import IllegalAction
from tapeline.rules.heresy import melee
from tests.conftest import cli, cli_json, scenario

R32 = 16 / 25.4
X = 10 + 2 * R32          # a base in contact with one at x = 10

# a: a1 a club (Damage 1), a2 a hammer (Damage 2), both I4; a3 a knife (IM 1: strikes at I1),
# within 2" of a2. b: two W2 models, no save. Each attack of a hits on 4+ (WS 4 v 4) and wounds
# on 4+ (S4 v T4): 1/4, with no save.
UNITS = f"""units:
  - id: a
    side: loyal
    base: 32
    stats:
      weapon_skill: 4
      strength: 4
      toughness: 4
      wounds: 1
      initiative: 4
      attacks: 1
      leadership: 7
      melee_weapons: {{club: {{damage: 1}}, hammer: {{damage: 2}}, knife: {{initiative: 1}}}}
      models: {{a1: {{wargear: [club]}}, a2: {{wargear: [hammer]}}, a3: {{wargear: [knife]}}}}
    models:
      - {{id: a1, at: [10, 10]}}
      - {{id: a2, at: [10, 11.3]}}
      - {{id: a3, at: [10, 12.6]}}
  - id: b
    side: traitor
    base: 32
    stats: {{weapon_skill: 4, strength: 4, toughness: 4, wounds: 2, initiative: 4, attacks: 1, leadership: 7}}
    models:
      - {{id: b1, at: [{X!r}, 10]}}
      - {{id: b2, at: [{X!r}, 11.3]}}
"""
HEAD = "tapeline: 1\nsystem: heresy\nboard: {width: 24, height: 24}\n"


def state():
    return scenario(HEAD + UNITS).state


# Worked by hand (w = 1/4 per attack). Club first (the default: a1 before a2): club and hammer
# both wound (1/16) → b1 takes 1 then 2: dead, b2 untouched; hammer alone (3/16): b1 dead; club
# alone (3/16): b1 at 1 W. The knife at I1 (1/4) then kills only the wounded b1:
# P(1 casualty) = 4/16 + 3/16 · 1/4 = 19/64, never 2. Hammer first: both wound → b1 dead, b2 at
# 1 W, and the knife kills b2: P(2) = 1/16 · 1/4 = 1/64; P(1) = 1/16 · 3/4 + 3/16 + 3/16 · 1/4 = 18/64.
CLUB_FIRST = [Fraction(45, 64), Fraction(19, 64)]
HAMMER_FIRST = [Fraction(45, 64), Fraction(18, 64), Fraction(1, 64)]


def test_default_order_is_the_active_sides_groups_in_file_order():
    o = melee.odds(state(), "a")
    assert o["casualties_pmf"]["b"] == pytest.approx([float(p) for p in CLUB_FIRST], abs=1e-12)
    assert [s["group"] for s in o["steps"]] == ["a club", "a hammer", "b basic close combat weapon", "a knife"]
    # the defaults taken: the order of the two groups at I4 that may strike b (club and hammer),
    # and each defender's casualty order (no model wounded yet: file order)
    assert o["readings"] == {"casualties.a": "a1 > a2 > a3", "casualties.b": "b1 > b2", "strike_order": melee.DEFAULT_ORDER}


def test_the_active_player_puts_the_hammer_first():
    o = melee.odds(state(), "a", strike_order=["a hammer"])
    assert o["casualties_pmf"]["b"] == pytest.approx([float(p) for p in HAMMER_FIRST], abs=1e-12)
    assert [s["group"] for s in o["steps"]] == ["a hammer", "a club", "b basic close combat weapon", "a knife"]
    # the hammer placed, the club is the only other group at I4 that may strike b: no choice left
    assert "strike_order" not in o["readings"]


def test_the_enemy_groups_may_go_first_too():
    # the order covers every group of the step, the opponent's as well
    o = melee.odds(state(), "a", strike_order=["b basic close combat weapon", "a hammer"])
    assert [s["group"] for s in o["steps"]][:3] == ["b basic close combat weapon", "a hammer", "a club"]


def test_replay_follows_the_order():
    # the same dice: club 6, 6; hammer 6, 6; b's two attacks 1, 1 (miss); knife 6, 6.
    rolls = [6, 6, 6, 6, 1, 1, 6, 6]
    _new, _ev, summary = melee.fight_round(state(), "a", RecordedDice(rolls), pile_ins=False)
    assert summary["casualties"]["b"] == ["b1"]          # b1: 1 + 2 (one wasted); b2 1 W from the knife
    new, events, summary = melee.fight_round(state(), "a", RecordedDice(rolls), pile_ins=False, strike_order=["a hammer"])
    assert summary["casualties"]["b"] == ["b1", "b2"]    # b1: 2; b2: 1 then the knife's 1
    assert "strike_order" not in events[0]["readings"] and events[0]["readings"]["casualties.b"] == "b1 > b2"
    assert [e["group"] for e in events if e["type"] == "strike"][:2] == ["a hammer", "a club"]


def test_a_group_not_in_the_combat_is_refused_with_its_place():
    with pytest.raises(IllegalAction) as e:
        melee.odds(state(), "a", strike_order=["a hammer", "a axe"])
    assert e.value.field == "strike_order.1" and "a club, a hammer, a knife" in e.value.message
    with pytest.raises(IllegalAction) as e:
        melee.odds(state(), "a", strike_order=["a hammer", "a hammer"])
    assert e.value.field == "strike_order.1"


def test_fight_question_flag(write):
    p = write(HEAD + UNITS)
    code, out = cli_json("fight", p, "--unit", "a", "--strike-order", "a hammer")
    assert code == 0 and out["casualties_pmf"]["b"] == pytest.approx([float(x) for x in HAMMER_FIRST], abs=1e-12)
    code, out, err = cli("fight", p, "--unit", "a")
    assert code == 0 and out.splitlines()[-1] == ("readings: casualties.a=a1 > a2 > a3, casualties.b=b1 > b2, "
                                                  f"strike_order={melee.DEFAULT_ORDER}")
    code, out, err = cli("fight", p, "--unit", "a", "--strike-order", "a axe")
    assert code == 2 and "--strike-order" in err and "a axe" in err and "Traceback" not in err


def test_fight_action_takes_the_order(write):
    text = HEAD + UNITS + "dice: {rolls: [6, 6, 6, 6, 1, 1, 6, 6]}\nactions:\n  - {action: fight, unit: a, pile_in: false, strike_order: [a hammer]}\n"
    code, out = cli_json("replay", write(text))
    assert code == 0, out
    code, out, err = cli("check", write(text.replace("[a hammer]", "[a hammr]")))
    assert code == 2 and "actions[0].strike_order" in err


def test_strike_order_is_refused_in_a_40k_fight(write):
    text = HEAD.replace("heresy", "classic40k") + UNITS.replace(', models: {a1: {wargear: [club]}, a2: {wargear: [hammer]}, a3: {wargear: [knife]}}', "") 
    code, out, err = cli("fight", write(text), "--unit", "a", "--strike-order", "a club")
    assert code == 2 and "Horus Heresy" in err


def test_fight_odds_expectation_takes_the_order(write):
    # P(b loses 2) is 1/64 only with the hammer first (worked above)
    exp = ("expect:\n  - {expect: fight_odds, unit: a, value: casualties, of: b, k: 2, equals: 0.015625, tol: 1e-12, "
           "strike_order: [a hammer]}\n  - {expect: fight_odds, unit: a, value: casualties, of: b, k: 1, equals: 0.296875, tol: 1e-12}\n")
    code, out = cli_json("replay", write(HEAD + UNITS + exp))
    assert code == 0 and out["ok"], out
    code, _out, err = cli("check", write(HEAD + UNITS + exp.replace("[a hammer]", "[b hammer]")))
    assert code == 2 and "expect[0].strike_order" in err
