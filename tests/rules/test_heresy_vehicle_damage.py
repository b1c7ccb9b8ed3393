"""Horus Heresy 3rd: glancing hits on a Vehicle in melee and the Vehicle Damage roll (§A.7 step
10: one roll per glancing hit, D6: 1–2 Stunned, 3–4 Pinned, 5–6 Suppressed), worked die by die."""

from __future__ import annotations

import pytest

from tapeline.rules.dice import RecordedDice
from tapeline.rules.heresy import melee
from tapeline.rules.heresy.vehicles import DAMAGE_TABLE, glancing_hits
from tests.conftest import scenario
from tests.rules.test_heresy_fight import X, line

TANK = (f"  - {{id: tank, side: traitor, base: 32, stats: {{unit_type: vehicle, wounds: 3, armour_rear: 10, toughness: 7}}, "
        f"models: [{{id: v1, at: [{X}, 10]}}]}}\n")


def board(ys=(10, 11.3)):
    # power fists (S8, Damage 2) against a vehicle: WS 1 → hit 2+; D6 + 8 against rear AV 10:
    # a 2 glances, 3+ penetrates
    return scenario("tapeline: 1\nsystem: heresy\nboard: {width: 24, height: 24}\nunits:\n"
                    + line("a", "loyal", 10, ys, "power fist") + TANK).state


def test_table_and_glances():
    assert [DAMAGE_TABLE[r] for r in (1, 2, 3, 4, 5, 6)] == ["stunned"] * 2 + ["pinned"] * 2 + ["suppressed"] * 2
    assert glancing_hits(8, 10, [1, 2, 3, 6]) == 1          # 9 none, 10 glancing, 11 and 14 penetrating
    assert glancing_hits(4, 10, [6, 6, 5]) == 2


def test_one_glance_one_penetration():
    # hits 4, 5; penetration 2 (8 + 2 = 10: glancing), 3 (11: penetrating, 2 Hull Points, no
    # armour save on a vehicle); the Vehicle Damage roll for the glance: 4 → Pinned
    new, events, summary = melee.fight_round(board(), "a", RecordedDice([4, 5, 2, 3, 4]), pile_ins=False)
    assert new.unit("tank").wounds_lost == {"v1": 2} and summary["casualties"]["tank"] == []
    strike = [e for e in events if e["type"] == "strike"][0]
    assert strike["glancing_hits"] == 1
    vd = [e for e in events if e["type"] == "vehicle_damage"]
    assert vd == [{"type": "vehicle_damage", "unit": "tank", "glancing_hits": 1, "rolls": [4], "results": ["pinned"]}]
    assert new.unit("tank").status == frozenset({"pinned"})
    kinds = [e["type"] for e in events]
    assert kinds.index("vehicle_damage") > kinds.index("strike")        # at the step's end


def test_two_glances_two_rolls():
    # penetration 2, 2: two glancing hits, no damage; rolls 1 (Stunned) and 6 (Suppressed)
    new, events, _summary = melee.fight_round(board(), "a", RecordedDice([4, 5, 2, 2, 1, 6]), pile_ins=False)
    assert not new.unit("tank").wounds_lost
    assert new.unit("tank").status == frozenset({"stunned", "suppressed"})


def test_no_roll_for_a_destroyed_vehicle():
    # three fists: penetration 3, 3 (2 + 2 Hull Points ≥ 3: destroyed) and 2 (a glance): the
    # vehicle is removed, no Vehicle Damage roll — exactly the six dice are used
    dice = RecordedDice([2, 2, 2, 3, 3, 2])
    new, events, summary = melee.fight_round(board((10, 11.3, 12.6)), "a", dice, pile_ins=False)
    assert summary["casualties"]["tank"] == ["v1"] and dice.remaining == 0
    assert not [e for e in events if e["type"] == "vehicle_damage"]


def test_odds_unchanged_by_the_rolls():
    # the statuses change nothing in the round: both fists must penetrate, (5/6 · 4/6)²
    o = melee.odds(board(), "a")
    assert o["casualties_pmf"]["tank"][1] == pytest.approx((5 / 6 * 4 / 6) ** 2, abs=1e-12)
