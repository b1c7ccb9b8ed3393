"""Horus Heresy 3rd: Impact (X), a bonus for a successful charge (§A.11: +1 to characteristic X
for melee attacks for the rest of the Assault phase), and its loss on a Disordered charge
(seed: "no bonus for a successful charge granted by a special rule") — in the exact odds and
the replay alike."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tapeline.rules.dice import RecordedDice
from tapeline.rules.errors import IllegalAction
from tapeline.rules.heresy import charge as hh
from tapeline.rules.heresy import melee
from tests.conftest import cli_json, scenario

R32 = 16 / 25.4
LINE = "movement: 7, initiative: 4, cool: 7, leadership: 7, weapon_skill: 4, ballistic_skill: 4, strength: 4, toughness: 4, wounds: 1, attacks: 1"
#: a's weapon: no AP, Damage 1, Impact (S) and Impact (A)
MAUL = "{maul: {traits: {impact_strength: null, impact_attacks: null}}}"


def text(gap=7.0, a_status="", b_gear="", maul=MAUL, actions=""):
    x = 5 + 2 * R32 + gap
    return f"""tapeline: 1
system: heresy
board: {{width: 36, height: 24}}
units:
  - id: a
    side: loyal
    base: 32
    status: [{a_status}]
    stats: {{{LINE}, melee_weapons: {maul}}}
    models:
      - {{id: a1, at: [5, 10]}}
      - {{id: a2, at: [5, 11.5]}}
  - id: b
    side: traitor
    base: 32
    stats: {{{LINE}{b_gear}}}
    models:
      - {{id: b1, at: [{x}, 10]}}
      - {{id: b2, at: [{x}, 11.4]}}
      - {{id: b3, at: [{x}, 12.8]}}
{actions}"""


def charged(t, rolls):
    st = scenario(t).state
    new, info, _events = hh.charge(st, "a", ["b"], RecordedDice(rolls))
    return new, info


def test_impact_after_a_successful_charge_by_hand():
    # Set-up 3", then the roll 6 ≥ 4: a successful charge, not Disordered. Each maul: A 1 + 1 = 2
    # attacks, S 4 + 1 = 5 against T4: wound 3+. Four attacks, each killing 1/2 · 2/3 = 1/3 (no
    # save): b's casualties Binomial(4, 1/3) capped at its 3 models.
    new, info = charged(text(), [6, 1])
    assert info["success"] and not info["charge"].details["disordered"]
    o = melee.odds(new, "a")
    at_b = [s for s in o["steps"] if s["target"] == "b"]
    assert [(s["attacks"], s["wound_on"]) for s in at_b] == [(4, 3)]
    p = Fraction(1, 3)
    want = [(1 - p) ** 4, 4 * p * (1 - p) ** 3, 6 * p ** 2 * (1 - p) ** 2, 4 * p ** 3 * (1 - p) + p ** 4]
    assert o["casualties_pmf"]["b"] == pytest.approx([float(w) for w in want], abs=1e-12)


def test_replay_strikes_with_the_bonus():
    new, _info = charged(text(), [6, 1])
    # a's 4 attacks: hits 4, 4, 4, 1 → 3; wounds 3, 3, 2 → 2 (3+); b's 3 attacks all miss (1s)
    _st, events, summary = melee.fight_round(new, "a", RecordedDice([4, 4, 4, 1, 3, 3, 2, 1, 1, 1]), pile_ins=False)
    strike = [e for e in events if e["type"] == "strike" and e["unit"] == "a"][0]
    assert strike["attacks"] == 4 and strike["wound_on"] == 3 and strike["strength"] == 5
    assert summary["casualties"]["b"] == ["b1", "b2"]


def test_no_bonus_after_a_disordered_charge():
    # Suppressed: the charge is Disordered (no Set-up Move); 4" away, the roll 6 still reaches —
    # a successful charge, but no bonus granted by a special rule: 1 attack each at S4 (4+)
    new, info = charged(text(gap=4.0, a_status="suppressed"), [6, 1])
    assert info["success"] and info["charge"].details["disordered"]
    at_b = [s for s in melee.odds(new, "a")["steps"] if s["target"] == "b"]
    assert [(s["attacks"], s["wound_on"]) for s in at_b] == [(2, 4)]


def test_no_bonus_without_a_successful_charge():
    # the charged unit's own Impact weapons gain nothing; nor does a unit locked without charging
    st = scenario(text(gap=0.0, b_gear=f", melee_weapons: {MAUL}")).state
    o = melee.odds(st, "a")
    assert {(s["unit"], s["attacks"], s["wound_on"]) for s in o["steps"]} == {("a", 2, 4), ("b", 3, 4)}
    new, _info = charged(text(), [6, 1])
    at_a = [s for s in melee.odds(new, "a")["steps"] if s["target"] == "a"]
    assert at_a == [] or all(s["wound_on"] == 4 for s in at_a)


def test_a_failed_charge_gives_no_bonus():
    # roll 1 < 4: the charge fails (Cool Check 3, 3 passes); nothing recorded as a successful charge
    new, info = charged(text(), [1, 1, 3, 3])
    assert not info["success"] and "a" not in (new.turn.get("charged") or {})


def test_impact_with_a_value_is_refused():
    st = scenario(text(gap=0.0, maul="{maul: {traits: {impact_strength: 2}}}")).state
    st = st.with_turn("charged", {"a": {"target": "b", "disordered": False}})
    with pytest.raises(IllegalAction, match="Impact"):
        melee.odds(st, "a")


def test_fight_question_after_the_charge(write):
    p = write(text(actions="dice: {rolls: [6, 1]}\nactions:\n  - {action: charge, unit: a, targets: [b]}\n"))
    code, out = cli_json("fight", p, "--unit", "a", "--after", "0")
    assert code == 0 and [(s["attacks"], s["wound_on"]) for s in out["steps"] if s["target"] == "b"] == [(4, 3)]
