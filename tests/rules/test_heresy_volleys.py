"""Horus Heresy 3rd Volleys and Overwatch (§A.3 step 4, §A.4), worked die by die."""

from __future__ import annotations

import pytest

from tapeline.rules.dice import RecordedDice
from tapeline.rules.errors import IllegalAction
from tapeline.rules.heresy import charge as hh
from tapeline.rules.heresy.reactions import reaction_allotment
from tapeline.rules.heresy.charts import ranged_hit
from tapeline.rules.heresy.shooting import shoot
from tests.conftest import scenario

R32 = 16 / 25.4

PISTOL = "{bolt pistol: {range: 12, firepower: 2, strength: 4, ap: 5, damage: 1, traits: {assault: null}}}"
BOLTER = "{bolter: {range: 24, firepower: 2, strength: 4, ap: 5, damage: 1}}"


def board(gap_in=7.0, a_status="", b_extra="", b_models=2, b_guns=BOLTER, settings="", extra_units=""):
    x = 5 + 2 * R32 + gap_in
    bm = "\n".join(f"      - {{id: b{i + 1}, at: [{x}, {10 + 1.4 * i}]}}" for i in range(b_models))
    return scenario(f"""
tapeline: 1
system: heresy
board: {{width: 36, height: 24}}
{settings}
units:
  - id: a
    side: loyal
    base: 32
    status: [{a_status}]
    stats: {{movement: 7, initiative: 4, cool: 7, ballistic_skill: 4, toughness: 4, save: 3, wounds: 1,
             ranged_weapons: {PISTOL}}}
    models:
      - {{id: a1, at: [5, 10]}}
      - {{id: a2, at: [5, 11.5]}}
  - id: b
    side: traitor
    base: 32
    stats: {{movement: 7, initiative: 4, cool: 7, ballistic_skill: 4, toughness: 4, save: 3, wounds: 1,
             ranged_weapons: {b_guns}}}
    models:
{bm}
{extra_units}
""").state


def test_ranged_hit_table():
    # §A.8: normal BS 4 → 3+, BS 6 → 2+ with Critical on 6+, BS 10 automatic; Snap BS 1 never,
    # BS 4 → 5+, BS 10 → 2+
    assert ranged_hit(4) == (3, None, False) and ranged_hit(6) == (2, 6, False) and ranged_hit(10) == (2, 1, True)
    assert ranged_hit(1, snap=True)[0] is None and ranged_hit(4, snap=True)[0] == 5 and ranged_hit(10, snap=True)[0] == 2


def test_charger_volley_snap_shots_assault_only():
    st = board()
    # Set-up 3" then the Volley: 2 models × FP 2 = 4 Snap Shots at BS 4 (5+): 5, 6 hit; 2, 1 miss.
    # Wounds S4 v T4 (4+): 4 wounds, 3 fails. Save 3+ (AP5 allows it): 2 fails → b1 dies.
    # The target's bolters have no Assault trait: no return Volley. Charge roll (6, 1) → 6 ≥ 4.
    dice = RecordedDice([5, 6, 2, 1, 4, 3, 2, 6, 1])
    new, info, events = hh.charge(st, "a", ["b"], dice)
    vol = [e for e in events if e["type"] == "volley"]
    assert len(vol) == 1 and vol[0]["unit"] == "a" and vol[0]["shots"] == 4 and vol[0]["hit_on"] == 5
    assert vol[0]["hits"] == 2 and vol[0]["wound_on"] == 4 and vol[0]["wounds"] == 1
    assert new.unit("b").removed == ("b1",)
    assert info["success"] and info["roll"] == 6
    assert not [e for e in events if e["type"] == "status"]          # a Volley never inflicts a status


def test_overwatch_full_bs_any_weapon_and_reaction_points():
    st = board()
    # charger Volley: 4 shots all miss (1s); Overwatch: b1, b2 bolters FP 2 at BS 4 (3+):
    # 3, 3, 1, 2 → 2 hits; wounds 4, 4 → 2; saves 1, 2 → a1 and a2 die: the charge ends.
    dice = RecordedDice([1, 1, 1, 1, 3, 3, 1, 2, 4, 4, 1, 2])
    new, info, events = hh.charge(st, "a", ["b"], dice, options={"overwatch": True})
    ow = [e for e in events if e["type"] == "overwatch"]
    assert ow and ow[0]["hit_on"] == 3 and not ow[0]["snap"] and ow[0]["shots"] == 4
    assert [e for e in events if e["type"] == "reaction"][0]["points_left"] == 0
    assert not new.unit("a").models and info["ended"] and "cool_check" not in info
    # the side's one Reaction point is spent: no second Overwatch this turn
    st2 = new
    with pytest.raises(IllegalAction, match="Reaction"):
        from tapeline.rules.heresy.reactions import spend_reaction
        spend_reaction(st2, "b", "overwatch")


def test_stunned_target_cannot_overwatch_and_allotment():
    st = board()
    from dataclasses import replace
    st = st.with_unit(replace(st.unit("b"), status=frozenset({"stunned"})))
    with pytest.raises(IllegalAction, match="stunned"):
        hh.charge(st, "a", ["b"], RecordedDice([1] * 20), options={"overwatch": True})
    assert reaction_allotment(3000) == 2 and reaction_allotment(1500) == 1     # 3,000 and 1,500 points


def test_volley_wiping_out_the_target_ends_the_charge():
    st = board(b_models=1)
    dice = RecordedDice([6, 6, 6, 6, 6, 6, 6, 6, 1, 1, 1, 1])
    new, info, events = hh.charge(st, "a", ["b"], dice)
    assert not new.unit("b").models and info["ended"] and not info["success"]
    assert "cool_check" not in info and not [e for e in events if e["type"] == "roll" and "charge roll" in e["purpose"]]


def test_disordered_charger_makes_no_volley_but_the_target_may():
    guns = "{pistol: {range: 12, firepower: 1, strength: 4, ap: 5, damage: 1, traits: {assault: null}}}"
    st = board(a_status="disembarked", gap_in=4.0, b_guns=guns)
    dice = RecordedDice([1, 1, 6, 3])          # target snap shots 1, 1; charge roll (6, 3)
    new, info, events = hh.charge(st, "a", ["b"], dice)
    vol = [e for e in events if e["type"] == "volley"]
    assert [v["unit"] for v in vol] == ["b"] and info["success"]


def test_no_volleys_when_the_target_is_already_locked():
    x = 5 + 2 * R32 + 7.0
    other = f"  - {{id: c, side: loyal, base: 32, models: [{{id: c1, at: [{x + 2 * R32}, 10]}}]}}"
    st = board(extra_units=other)
    dice = RecordedDice([6, 2])
    new, info, events = hh.charge(st, "a", ["b"], dice)
    assert not [e for e in events if e["type"] == "volley"] and info["success"]
    with pytest.raises(IllegalAction, match="locked"):
        hh.charge(st, "a", ["b"], RecordedDice([6, 2]), options={"overwatch": True})


def test_evade_moves_the_light_target_out_of_reach():
    # 4.5" apart; Set-up 3" leaves 1.5". The Light target evades I4 directly away: 5.5" now,
    # still within the best roll (6): the charge goes on; with I 5 (7.0" left) it fails and
    # the charger takes its Cool Check.
    base = board(gap_in=4.5, b_models=1)
    from dataclasses import replace
    light = base.with_unit(replace(base.unit("b"), tags=frozenset({"light"})))
    new, info, events = hh.charge(light, "a", ["b"], RecordedDice([1, 1, 1, 1, 6, 6]), options={"evade": True})
    ev = [e for e in events if e["type"] == "evade"][0]
    assert ev["moves"][0]["length"] == pytest.approx(4, abs=1e-6) and info["success"]
    quick = light.with_unit(replace(light.unit("b"), stats={**light.unit("b").stats, "initiative": 5}))
    new, info, events = hh.charge(quick, "a", ["b"], RecordedDice([1, 1, 1, 1, 3, 3]), options={"evade": True})
    assert not info["success"] and info["cool_check"]["passed"] and "evaded" in info["note"]
    with pytest.raises(IllegalAction, match="Light or Cavalry"):
        hh.charge(base, "a", ["b"], RecordedDice([1] * 10), options={"evade": True})


def test_suppressed_overwatch_is_snap_shots():
    from dataclasses import replace
    st = board()
    st = st.with_unit(replace(st.unit("b"), status=frozenset({"suppressed"})))
    _new, _info, events = hh.charge(st, "a", ["b"], RecordedDice([1] * 30), options={"overwatch": True, "volley": False})
    ow = [e for e in events if e["type"] == "overwatch"][0]
    assert ow["snap"] and ow["hit_on"] == 5


def test_stated_casualty_order_carries_across_fire_groups():
    # two fire groups (a1's bolt pistol, a2's plasma pistol), Snap Shots at BS 4 (5+), the
    # defender's order b2, b1. Bolt pistol (2 shots): 6, 1 → one hit; wound 6 (S4 v T4, 4+); b2's
    # save (3+, AP5 allows it) 1 → b2 removed. Plasma pistol: 5 → hit; wound 4; b2 fell to the
    # first group: b1, next in the order, saves 2 → b1 removed.
    guns = ("{bolt pistol: {range: 12, firepower: 2, strength: 4, ap: 5, damage: 1, traits: {assault: null}}, "
            "plasma pistol: {range: 12, firepower: 1, strength: 4, ap: 5, damage: 1, traits: {assault: null}}}")
    st = scenario(f"""
tapeline: 1
system: heresy
board: {{width: 36, height: 24}}
units:
  - id: a
    side: loyal
    base: 32
    stats: {{movement: 7, initiative: 4, cool: 7, ballistic_skill: 4, toughness: 4, save: 3, wounds: 1,
             ranged_weapons: {guns}, models: {{a1: {{wargear: [bolt pistol]}}, a2: {{wargear: [plasma pistol]}}}}}}
    models:
      - {{id: a1, at: [5, 10]}}
      - {{id: a2, at: [5, 11.5]}}
  - id: b
    side: traitor
    base: 32
    stats: {{movement: 7, initiative: 4, cool: 7, ballistic_skill: 4, toughness: 4, save: 3, wounds: 1}}
    models:
      - {{id: b1, at: [12, 10]}}
      - {{id: b2, at: [12, 11.4]}}
""").state
    new, _events, summary = shoot(st, "a", "b", RecordedDice([6, 1, 6, 1, 5, 4, 2]), "volley", None, ["b2", "b1"])
    assert [g["casualties"] for g in summary["groups"]] == [["b2"], ["b1"]]
    assert summary["casualties"] == ["b2", "b1"] and new.unit("b").models == ()
    with pytest.raises(IllegalAction, match="'b2' is not a model of b"):       # fallen before the attack: refused
        shoot(st.without_models("b", ["b2"]), "a", "b", RecordedDice([6] * 9), "volley", None, ["b2", "b1"])
