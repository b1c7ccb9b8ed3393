"""Horus Heresy 3rd: the Legiones Astartes Shield reaction (seed §Reactions: "Legiones Astartes
Advanced Reaction, costs 1 Reaction Allotment. Declared at the start of step 4 (Volley
Attacks): +1 Toughness for the phase if the majority of the unit has the Shield trait") — in
the Volleys, the replayed fight and its exact odds, and refused by ``check`` and the replay
where the seed forbids it."""

from __future__ import annotations

import pytest

from tapeline.rules.dice import RecordedDice
from tapeline.rules.errors import IllegalAction
from tapeline.rules.heresy import charge as hh
from tapeline.rules.heresy.reactions import has_majority
from tests.conftest import cli, cli_json, scenario

R32 = 16 / 25.4
PISTOL = "{bolt pistol: {range: 12, firepower: 2, strength: 4, ap: 5, damage: 1, traits: {assault: null}}}"
LINE = "movement: 7, initiative: 4, cool: 7, leadership: 7, weapon_skill: 4, ballistic_skill: 4, strength: 4, toughness: 4, wounds: 1, attacks: 1"


def text(b_tags="[legiones_astartes, shield]", b_models=3, b_sub="", b_status="", setup_gap=7.0, actions=""):
    """a (two Legionaries with Assault bolt pistols) 7" from b (three, no save, no Assault weapon)."""
    x = 5 + 2 * R32 + setup_gap
    bm = "\n".join(f"      - {{id: b{i + 1}, at: [{x}, {10 + 1.4 * i}]}}" for i in range(b_models))
    return f"""tapeline: 1
system: heresy
board: {{width: 36, height: 24}}
units:
  - id: a
    side: loyal
    base: 32
    tags: [legiones_astartes]
    stats: {{{LINE}, save: 3, ranged_weapons: {PISTOL}}}
    models:
      - {{id: a1, at: [5, 10]}}
      - {{id: a2, at: [5, 11.5]}}
  - id: b
    side: traitor
    base: 32
    tags: {b_tags}
    status: [{b_status}]
    stats: {{{LINE}{b_sub}}}
    models:
{bm}
{actions}"""


def test_majority_means_more_than_half():
    assert [has_majority(k, 3) for k in (1, 2, 3)] == [False, True, True]
    assert not has_majority(2, 4) and has_majority(3, 4)


def test_shield_raises_toughness_for_the_volley():
    # Set-up Move 3" (M7 + I4), 4" left. Shield at the start of step 4: b's T 4 → 5. a's Volley:
    # 4 Snap Shots (5+): 5, 6 hit, 1, 1 miss; S4 v T5 wounds on 5+ (not 4+): 4, 5 → one wound, no
    # save → b1 falls. Charge roll (6, 1): 6 ≥ 4.
    st = scenario(text()).state
    new, info, events = hh.charge(st, "a", ["b"], RecordedDice([5, 6, 1, 1, 4, 5, 6, 1]), options={"shield": True})
    kinds = [e["type"] for e in events]
    assert kinds.index("shield") < kinds.index("volley")           # declared before the Volleys
    vol = [e for e in events if e["type"] == "volley"][0]
    assert vol["wound_on"] == 5 and vol["wounds"] == 1 and new.unit("b").removed == ("b1",)
    assert [e for e in events if e["type"] == "reaction"][0] == {"type": "reaction", "unit": "b", "reaction": "shield", "points_left": 0}
    assert info["success"]


def test_without_shield_the_volley_wounds_on_4():
    st = scenario(text()).state
    _new, _info, events = hh.charge(st, "a", ["b"], RecordedDice([5, 6, 1, 1, 4, 5, 6, 1]))
    assert [e for e in events if e["type"] == "volley"][0]["wound_on"] == 4


def test_fight_odds_and_replay_read_toughness_5(write):
    # after the charge (no Volley hits: 1, 1, 1, 1; roll 6), the round: a1, a2 (I4, 1 attack
    # each, the basic weapon) hit on 4+ and wound T5 on 5+: 1/2 · 1/3 = 1/6 each, no save.
    # b's three casualties: Binomial(2, 1/6) = 25/36, 10/36, 1/36.
    acts = ("dice: {rolls: [1, 1, 1, 1, 6, 1]}\nactions:\n"
            "  - {action: charge, unit: a, targets: [b], shield: true}\n")
    p = write(text(actions=acts))
    code, out = cli_json("fight", p, "--unit", "a", "--after", "0")
    assert code == 0, out
    at_b = [s for s in out["steps"] if s["target"] == "b"]
    assert at_b and all(s["wound_on"] == 5 for s in at_b)
    assert all(s["wound_on"] == 4 for s in out["steps"] if s["target"] == "a")     # a's T is its own
    assert out["fighters"]["a"] == ["a1", "a2"]
    assert out["casualties_pmf"]["b"] == pytest.approx([25 / 36, 10 / 36, 1 / 36], abs=1e-12)
    # the replayed fight: the Strike Group at b wounds on 5+
    acts += "  - {action: fight, unit: a}\n"
    code, out = cli_json("replay", write(text(actions=acts.replace("6, 1]", "6, 1" + ", 1" * 40 + "]"))))
    assert code == 0, out
    strikes = [e for e in out["events"] if e["type"] == "strike" and e["target"] == "b"]
    assert strikes and all(e["wound_on"] == 5 for e in strikes)


def test_majority_is_counted_when_declared():
    # 1 of 3 with the Shield trait (the sub-type on one model): refused, located at the option
    st = scenario(text(b_tags="[legiones_astartes]", b_sub=", models: {b1: {subtypes: [shield]}}")).state
    with pytest.raises(IllegalAction) as e:
        hh.charge(st, "a", ["b"], RecordedDice([1] * 10), options={"shield": True})
    assert e.value.field == "shield" and "1 of b's 3" in e.value.message
    # 2 of 3: the majority
    st = scenario(text(b_tags="[legiones_astartes]", b_sub=", models: {b1: {subtypes: [shield]}, b2: {subtypes: [shield]}}")).state
    _new, _info, events = hh.charge(st, "a", ["b"], RecordedDice([1, 1, 1, 1, 6, 1]), options={"shield": True})
    assert [e for e in events if e["type"] == "shield"][0]["shield_models"] == 2


def test_stunned_target_cannot_shield():
    st = scenario(text(b_status="stunned")).state
    with pytest.raises(IllegalAction, match="stunned"):
        hh.charge(st, "a", ["b"], RecordedDice([1] * 10), options={"shield": True})


def test_no_step_4_no_shield():
    # 1" apart: the Set-up Move reaches base contact, the charge succeeds at once; no Volley step,
    # so no Reaction is made there (said in an event) and no point is spent
    st = scenario(text(setup_gap=1.0)).state
    new, info, events = hh.charge(st, "a", ["b"], RecordedDice([]), options={"shield": True})
    assert info["at_once"] and [e for e in events if e["type"] == "reactions"][0]["skipped"] == ["shield"]
    assert not new.turn.get("shield") and not new.turn.get("reactions_used")


def test_check_refuses_what_the_seed_forbids(write):
    def check(**kw):
        acts = kw.pop("acts", "actions:\n  - {action: charge, unit: a, targets: [b], shield: true}\n")
        return cli("check", write(text(actions=acts, **kw)))
    code, _out, err = check(b_tags="[shield]")
    assert code == 2 and "actions[0].shield" in err and "not Legiones Astartes" in err
    code, _out, err = check(b_tags="[legiones_astartes]")
    assert code == 2 and "actions[0].shield" in err and "Shield trait" in err
    code, _out, err = check(acts="actions:\n  - {action: charge, unit: a, targets: [b], shield: true, overwatch: true}\n")
    assert code == 2 and "actions[0].shield" in err and "once per turn" in err
    code, _out, err = check()
    assert code == 0, err
    # the replay refuses a minority (only the dice could change it), located
    code, _out, err = cli("replay", write(text(b_tags="[legiones_astartes]", b_sub=", models: {b1: {subtypes: [shield]}}",
                                               actions="dice: {rolls: [1, 1, 1, 1, 6, 1]}\nactions:\n"
                                                       "  - {action: charge, unit: a, targets: [b], shield: true}\n")))
    assert code == 2 and "actions[0].shield" in err and "Traceback" not in err


def test_shield_is_refused_outside_horus_heresy(write):
    t = text(actions="actions:\n  - {action: charge, unit: a, targets: [b], shield: true}\n").replace("system: heresy", "system: classic40k")
    code, _out, err = cli("check", write(t))
    assert code == 2 and "shield" in err
