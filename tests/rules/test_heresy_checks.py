"""Horus Heresy 3rd Checks and modifiers (§A.2): the official examples 3–5 and
derived cases 11–13, and the exact pass chances counted by hand."""

from __future__ import annotations

from fractions import Fraction

from tapeline.rules.dice import RecordedDice
from tapeline.rules.heresy.checks import (check_fraction, modified_die, modified_total, passes, take_check,
                                          unit_characteristic)
from tapeline.rules.heresy.statuses import gain_status
from tests.conftest import scenario


def test_per_die_and_total_modifiers():
    assert modified_die(4, +1) == 5                   # official example 5
    assert modified_die(6, +2) == 6 and modified_die(1, -3) == 1
    assert modified_total([2, 4], -2) == 4            # official example 4
    assert modified_total([1, 1], -5) == 0


def test_rule_of_doubles():
    assert not passes((4, 4), 7)                      # case 11: 8 > 7
    assert passes((1, 1), 2) and passes((1, 1), 0)    # case 12: double 1 always passes
    assert not passes((6, 6), 12)                     # case 13: double 6 always fails
    assert passes((3, 4), 7) and not passes((4, 4), 7)


def test_exact_check_chances():
    # 2D6 ≤ 7: 21 of 36; ≤ 4: 6 of 36; TN 1: only the double 1; TN 12: all but double 6
    assert check_fraction(7) == Fraction(21, 36)
    assert check_fraction(4) == Fraction(6, 36)
    assert check_fraction(1) == Fraction(1, 36)
    assert check_fraction(12) == Fraction(35, 36)
    assert check_fraction(7, characteristic=0) == 0


UNIT = """
tapeline: 1
system: heresy
board: {width: 20, height: 20}
units:
  - id: squad
    side: loyal
    base: 32
    stats:
      leadership: 10
      cool: 7
      models: {s1: {leadership: 6}, s2: {leadership: 8}, sgt: {leadership: 9, subtypes: [sergeant]}}
    models:
      - {id: s1, at: [2, 2]}
      - {id: s2, at: [4, 2]}
      - {id: s3, at: [6, 2]}
      - {id: sgt, at: [8, 2]}
"""


def test_unit_check_lowest_unless_sergeant_or_command():
    st = scenario(UNIT.replace(", sgt: {leadership: 9, subtypes: [sergeant]}", "").replace("      - {id: sgt, at: [8, 2]}\n", "")).state
    assert unit_characteristic(st, "squad", "leadership") == (6, "s1")   # LD 6, 8, 10 → 6 (official example 3)
    st = scenario(UNIT).state
    assert unit_characteristic(st, "squad", "leadership") == (9, "sgt")  # the Sergeant's LD may be used


def test_zero_fails_with_no_roll_and_status_rules():
    st = scenario(UNIT.replace("cool: 7", "cool: 0")).state
    res = take_check(st, "squad", "cool", RecordedDice([]), "test")
    assert not res.passed and res.rolls == ()
    st, ev = gain_status(st, "squad", "stunned")
    st, ev2 = gain_status(st, "squad", "stunned")
    assert ev and not ev2                              # gaining a status it has: no effect
    st, _ = gain_status(st, "squad", "pinned")
    st, ev3 = gain_status(st, "squad", "routed")
    assert st.unit("squad").status == {"routed"} and ev3[0]["lost"] == ["pinned", "stunned"]


def test_docstring_examples():
    import doctest

    from tapeline.board import pathcut
    from tapeline.rules.heresy import charts as tables, checks, reactions, weapons

    for mod in (checks, reactions, tables, weapons, pathcut):
        assert doctest.testmod(mod).failed == 0, mod.__name__
