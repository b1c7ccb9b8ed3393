"""40k 3rd "Allocating Attacks": a model within 2" of several enemy units may split its attacks
between them. The ``fight`` action's ``targets: {model: {unit: n}}``; the ``fight`` question
takes the same as ``assign`` (``--assign MODEL=UNIT:N,UNIT:N``), with the same checks (the
units within 2", the model's whole Attacks). Expected values worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

import tapeline
from tapeline.rules.errors import IllegalAction
from tapeline.scenarios.errors import ArgumentError
from tests.c40k import D25
from tests.conftest import EXAMPLES, cli, cli_json

# m1 (WS4 S4, A2, I4) touches g1 (WS2 T2, no save) and o1 (WS4 T4, 6+) is 0.5" from it
TEXT = f"""
tapeline: 1
system: classic40k
board: {{width: 24, height: 24}}
units:
  - {{id: m, side: imperium, base: 25, stats: {{weapon_skill: 4, strength: 4, toughness: 4, initiative: 4, attacks: 2, save: 3, leadership: 8}},
     models: [{{id: m1, at: [10, 10]}}]}}
  - {{id: g, side: orks, base: 25, stats: {{weapon_skill: 2, strength: 2, toughness: 2, initiative: 2, attacks: 1, save: 7, leadership: 5}},
     models: [{{id: g1, at: [{10 + D25!r}, 10]}}]}}
  - {{id: o, side: orks, base: 25, stats: {{weapon_skill: 4, strength: 3, toughness: 4, initiative: 2, attacks: 2, save: 6, leadership: 7}},
     models: [{{id: o1, at: [10, {10 + D25 + 0.5!r}]}}]}}
"""


def test_the_question_splits_one_models_attacks(write):
    # one attack at g1: hit 3+ (WS4 v WS2) 2/3, wound 2+ (S4 v T2) 5/6, no save: 5/9;
    # one at o1: hit 4+ 1/2, wound 4+ 1/2, the 6+ save fails 5/6: 5/24. m1 strikes first (I4).
    p = write(TEXT)
    f = tapeline.open(p).fight("m", assign={"m1": {"g": 1, "o": 1}})
    exp = f.as_json()["expected_casualties"]
    assert exp["g"] == pytest.approx(float(Fraction(5, 9)), abs=1e-12)
    assert exp["o"] == pytest.approx(float(Fraction(5, 24)), abs=1e-12)
    code, out = cli_json("fight", p, "--unit", "m", "--assign", "m1=g:1,o:1")
    assert code == 0 and out["attacks"]["m1"]["targets"] == {"g": 1, "o": 1}
    assert out["expected_casualties"] == exp


def test_the_split_is_checked_as_the_action_checks_it(write):
    p = write(TEXT)
    g = tapeline.open(p)
    with pytest.raises(IllegalAction, match="m1 allocates 1 attacks but has 2"):
        g.fight("m", assign={"m1": {"g": 1}})
    with pytest.raises(ArgumentError) as e:
        g.fight("m", assign={"m1": {"g": 101}})
    assert e.value.location == "assign"
    code, _, err = cli("fight", p, "--unit", "m", "--assign", "m1=g:x")
    assert code == 2 and err.count("\n") == 1 and ": --assign: " in err


def test_another_system_refuses_a_split_at_the_argument():
    fight = str(EXAMPLES / "fight-zerglings-two-units.yaml")
    with pytest.raises(ArgumentError) as e:
        tapeline.open(fight).fight("zerglings", assign={"z5": {"marines": 1}})
    assert e.value.location == "assign" and "40k 3rd rule" in e.value.message
