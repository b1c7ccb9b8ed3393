"""The ``fight`` question with the defender's casualty order (``--casualties UNIT=M1,M2``,
``Game.fight(casualties=...)``), 40k 3rd and Horus Heresy: the odds follow the stated order,
and a bad order is one located error (exit 2), as the file's ``casualties:`` is."""

from __future__ import annotations

import pytest

import tapeline
from tapeline.scenarios.errors import ArgumentError
from tests.c40k import D25, MARINE
from tests.conftest import cli, cli_json

# One Marine (WS4 S4 A1, not charging) in base contact with two Boyz side by side: o1 (6+ save)
# and o2 (2+ save). The Marine strikes first (I4 against I2): hits on 4+ (WS 4 v 4), wounds on
# 4+ (S4 v T4). Removed first o1: 1/2 · 1/2 · 5/6 = 5/24 of a casualty; o2 first: 1/2 · 1/2 · 1/6.
FORTY = f"""
tapeline: 1
system: classic40k
board: {{width: 24, height: 24}}
units:
  - id: marines
    side: imperium
    base: 25
    stats: {{{MARINE}}}
    models: [{{id: m1, at: [10, 10]}}]
  - id: orks
    side: orks
    base: 25
    stats: {{weapon_skill: 4, strength: 3, toughness: 4, initiative: 2, attacks: 2, leadership: 7, save: 6,
            models: {{o2: {{save: 2}}}}}}
    models: [{{id: o1, at: [{10 - D25 * 0.6}, {10 + D25 * 0.8}]}}, {{id: o2, at: [{10 + D25 * 0.6}, {10 + D25 * 0.8}]}}]
  - id: grots
    side: orks
    base: 25
    stats: {{weapon_skill: 2, strength: 2, toughness: 2, initiative: 2, attacks: 1, leadership: 5}}
    models: [{{id: g1, at: [20, 20]}}]
"""

# Horus Heresy: a1 (no weapon: no AP, 1 Attack) against b1 and b2 (b2 of 2 Wounds) in base
# contact; hits 4+ (WS 4 v 4), wounds 4+ (S4 v T4), b's 3+ save fails 1/3: b1 first loses a
# model with 1/2 · 1/2 · 1/3 = 1/12; b2 first can lose none (one wound of Damage 1 at most).
R32 = 16 / 25.4
HERESY = f"""
tapeline: 1
system: heresy
board: {{width: 24, height: 24}}
units:
  - id: a
    side: loyal
    base: 32
    stats: {{movement: 7, weapon_skill: 4, ballistic_skill: 4, strength: 4, toughness: 4, wounds: 1, initiative: 4,
            attacks: 1, leadership: 7, cool: 7, save: 3, wargear: []}}
    models: [{{id: a1, at: [10, 10]}}]
  - id: b
    side: traitor
    base: 32
    stats: {{movement: 7, weapon_skill: 4, ballistic_skill: 4, strength: 4, toughness: 4, wounds: 1, initiative: 4,
            attacks: 1, leadership: 7, cool: 7, save: 3, wargear: [], models: {{b2: {{wounds: 2}}}}}}
    models: [{{id: b1, at: [{10 + 2 * R32}, 10]}}, {{id: b2, at: [10, {10 + 2 * R32}]}}]
"""


def test_40k_the_stated_order_sets_the_odds(write):
    f = write(FORTY)
    code, o = cli_json("fight", f, "--unit", "marines")
    assert code == 0 and o["fighters"]["orks"] == ["o1", "o2"]
    assert o["expected_casualties"]["orks"] == pytest.approx(5 / 24, abs=1e-12)
    code, o = cli_json("fight", f, "--unit", "marines", "--casualties", "orks=o2,o1")
    assert code == 0 and o["expected_casualties"]["orks"] == pytest.approx(1 / 24, abs=1e-12)
    # the Python API takes the same order
    game = tapeline.open(f)
    assert game.fight("marines", casualties={"orks": ["o2"]}).expected_casualties["orks"] == pytest.approx(1 / 24, abs=1e-12)


def test_heresy_the_stated_order_sets_the_odds(write):
    f = write(HERESY)
    code, o = cli_json("fight", f, "--unit", "a")
    assert code == 0 and o["casualties_pmf"]["b"][1] == pytest.approx(1 / 12, abs=1e-12)
    code, o = cli_json("fight", f, "--unit", "a", "--casualties", "b=b2,b1")
    assert code == 0 and o["casualties_pmf"]["b"][0] == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("text,args,words", [
    (FORTY, ["orks=g1"], "model 'g1' is not in unit 'orks' (it is in 'grots')"),
    (FORTY, ["orks=o9"], "o9"),
    (FORTY, ["ork=o1"], "no unit"),
    (FORTY, ["orks"], "wants UNIT=M1,M2"),
    (FORTY, ["orks=o1", "orks=o2"], "names orks twice"),
    (FORTY, ["orks=o1,o1"], "names a model twice"),
    (HERESY, ["b=a1"], "model 'a1' is not in unit 'b' (it is in 'a')"),
])
def test_a_bad_order_is_one_located_error(write, text, args, words):
    f = write(text)
    unit = "marines" if "marines" in text else "a"
    code, out, err = cli("fight", f, "--unit", unit, *[x for a in args for x in ("--casualties", a)])
    assert code == 2 and out == "" and "Traceback" not in err and err.strip().count("\n") == 0, err
    assert words in err


def test_the_api_locates_the_error(write):
    game = tapeline.open(write(FORTY))
    with pytest.raises(ArgumentError) as e:
        game.fight("marines", casualties={"orks": ["m1"]})
    assert e.value.location == "casualties" and "not in unit" in e.value.message


def test_starcraft_refuses_a_casualty_order():
    from tests.conftest import EXAMPLES
    code, out, err = cli("fight", EXAMPLES / "fight-zerglings-two-units.yaml", "--unit", "zerglings",
                         "--casualties", "marines=mn")
    assert code == 2 and "casualties" in err and "do not depend on which legal casualty" in err and "Traceback" not in err
