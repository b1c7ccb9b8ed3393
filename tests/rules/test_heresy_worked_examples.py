"""Horus Heresy 3rd worked examples not covered elsewhere: Set-up Move distances, the 12" range
limit at its edge, a charge roll against an open-ground distance, fire groups."""

from __future__ import annotations

import pytest

from tapeline.rules.dice import RecordedDice
from tapeline.rules.heresy import charge as hh
from tapeline.rules.heresy.charge import setup_move
from tapeline.rules.heresy.shooting import shoot
from tests.conftest import scenario

R32 = 16 / 25.4


@pytest.mark.parametrize("m,i,heavy,inches", [(7, 4, False, 3), (6, 3, False, 2), (12, 4, False, 5), (14, 6, False, 6),
                                               (6, 4, True, 1), (7, 4, True, 2)])
def test_setup_move_cases(m, i, heavy, inches):
    assert setup_move(m, i, heavy) == inches


def one_on_one(gap_in, status="disembarked"):
    x = 5 + 2 * R32 + gap_in
    return scenario(f"""
        tapeline: 1
        system: heresy
        board: {{width: 36, height: 24}}
        units:
          - {{id: a, side: loyal, base: 32, status: [{status}], stats: {{movement: 7, initiative: 4, cool: 7}}, models: [{{id: a1, at: [5, 10]}}]}}
          - {{id: b, side: traitor, base: 32, models: [{{id: b1, at: [{x}, 10]}}]}}
        """).state


def test_range_limit_at_twelve_inches():
    assert hh.reach(one_on_one(12.0), "a", ["b"]).allowed           # 12.0": allowed
    cc = hh.reach(one_on_one(12.1), "a", ["b"])
    assert not cc.allowed and "12" in cc.reason                     # 12.1": refused


def test_charge_roll_two_and_five_against_four_and_a_half():
    # Disordered (no Set-up Move): dice (2, 5) keep the 5 ≥ 4.5: the charge succeeds
    new, info, _ = hh.charge(one_on_one(4.5), "a", ["b"], RecordedDice([2, 5]))
    assert info["success"] and info["roll"] == 5


def test_fire_groups_by_weapon_and_bs():
    # 10 Legionaries: 7 BS4 bolters, 2 BS4 plasma guns, 1 BS5 plasma pistol → 3 fire groups
    ms = "\n".join(f"      - {{id: a{i + 1}, at: [5, {2 + 1.3 * i:.2f}]}}" for i in range(10))
    st = scenario(f"""tapeline: 1
system: heresy
board: {{width: 30, height: 20}}
units:
  - id: a
    side: loyal
    base: 32
    stats:
      ballistic_skill: 4
      wargear: [bolter]
      ranged_weapons:
        bolter: {{range: 24, firepower: 2, strength: 4, ap: 5}}
        plasma gun: {{range: 24, firepower: 2, strength: 6, ap: 4}}
        plasma pistol: {{range: 12, firepower: 1, strength: 6, ap: 4}}
      models:
        a8: {{wargear: [plasma gun]}}
        a9: {{wargear: [plasma gun]}}
        a10: {{wargear: [plasma pistol], ballistic_skill: 5}}
    models:
{ms}
  - {{id: b, side: traitor, base: 32, stats: {{toughness: 4, save: 3, wounds: 1}}, models: [{{id: b1, at: [14, 10]}}]}}
""").state
    _new, _events, summary = shoot(st, "a", "b", RecordedDice([1] * 40), "overwatch")
    assert [(g["weapon"], g["bs"], len(g["models"])) for g in summary["groups"]] == [
        ("bolter", 4, 7), ("plasma gun", 4, 2), ("plasma pistol", 5, 1)]
