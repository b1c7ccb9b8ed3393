"""Horus Heresy 3rd: a charge that declares no Reaction of its target (seed §Reactions: Overwatch
"declared at the Volley Attack", the Legiones Astartes Shield "declared at the start of step 4",
Evade "after the Volley Attack"; §A.4: one Reaction per unit and turn, a Reaction point, not
Stunned, Routed or locked). Where the target could have reacted, "no Reaction" is a reading
(``reaction=none``) and strict mode an error listing the Reactions it may declare; where it
could not, nothing is listed. The legal options below are worked out from the scenario by hand.
Each charge states its initial charger (a1, the shortest route), a choice of its own.
"""

from __future__ import annotations

import pytest

from tapeline.rules import choices
from tapeline.rules.choices import MissingChoice
from tapeline.rules.dice import RecordedDice
from tapeline.rules.heresy import charge as hh
from tests.conftest import cli, scenario
from tests.rules.test_heresy_shield import text

#: a's Volley: 4 Snap Shots 5, 6, 1, 1 → 2 hits; S4 v T4 on 4+: 4, 5 → b1, b2 fall; roll (6, 1).
DICE = [5, 6, 1, 1, 4, 5, 6, 1]
BOLTER = ", ranged_weapons: {bolter: {range: 24, firepower: 2, strength: 4, ap: 5, damage: 1}}"
STRICT = "settings: {strict_choices: true}\nboard:"


def readings(doc: str, options=None) -> dict[str, str]:
    with choices.recording() as used:
        hh.charge(scenario(doc).state, "a", ["b"], RecordedDice(DICE), "a1", options=options)
    return dict(used)


def strict_error(doc: str) -> str:
    with pytest.raises(MissingChoice) as e:
        hh.charge(scenario(doc.replace("board:", STRICT, 1)).state, "a", ["b"], RecordedDice(DICE), "a1", options={"volley": False})
    return str(e.value)


def test_a_shield_bearing_legion_unit_may_react_so_none_is_a_reading():
    # b: Legiones Astartes, 3 of 3 with the Shield trait (majority), no ranged weapon (no
    # Overwatch), not Light nor Cavalry (no Evade), 1 Reaction point unspent: none or shield.
    assert readings(text())["reaction"] == "none"
    assert "legal: none, shield (HH3 §A.4 Reactions)" in strict_error(text())


def test_the_legal_reactions_are_those_the_seed_allows():
    # + a bolter in range of the chargers (24"; 7" apart): Overwatch; Cavalry: Evade.
    assert "legal: none, overwatch, shield" in strict_error(text(b_sub=BOLTER))
    assert "legal: none, overwatch, evade" in strict_error(text(b_tags="[]", b_sub=BOLTER + ", unit_type: cavalry"))


@pytest.mark.parametrize("doc", [text(b_tags="[]"), text(b_status="stunned"), text(b_tags="[legiones_astartes]")])
def test_no_reaction_possible_nothing_is_listed(doc):
    # not Legiones Astartes / Stunned / no model with the Shield trait, and no ranged weapon,
    # not Light: only "none" → no reading, and strict mode does not ask.
    assert "reaction" not in readings(doc)
    hh.charge(scenario(doc.replace("board:", STRICT, 1)).state, "a", ["b"], RecordedDice(DICE), "a1", options={"volley": False})


def test_a_stated_reaction_or_a_stated_none_is_no_reading():
    assert "reaction" not in readings(text(), {"shield": True})
    strict = scenario(text().replace("board:", STRICT, 1)).state
    hh.charge(strict, "a", ["b"], RecordedDice(DICE), "a1", options={"shield": False, "volley": False})   # "none", stated


def test_no_reaction_point_left_nothing_is_listed():
    # the side's one Reaction point (a battle of ≤ 1,500 points) is spent already
    st = scenario(text()).state.with_turn("reactions_used", {"traitor": 1})
    with choices.recording() as used:
        hh.charge(st, "a", ["b"], RecordedDice(DICE), "a1")
    assert "reaction" not in used


def test_replay_strict_refuses_the_charge_at_its_action(write):
    acts = "dice: {rolls: [%s]}\nactions:\n  - {action: charge, unit: a, targets: [b], leader: a1}\n" % ", ".join(map(str, DICE))
    code, out, _ = cli("replay", write(text(actions=acts)))
    assert code == 0 and "reaction=none" in out
    code, _, err = cli("replay", write(text(actions=acts)), "--strict")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "actions[0]" in err and "legal: none, shield" in err
