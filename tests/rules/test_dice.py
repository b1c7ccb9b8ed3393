"""Dice: seeded reproducibility, recorded rolls, running out names the action."""

from __future__ import annotations

import pytest

from tapeline.rules.dice import OutOfRolls, RecordedDice, SeededDice
from tests.conftest import cli


def test_seeded_is_reproducible():
    a, b = SeededDice(11), SeededDice(11)
    assert [a.roll(5, "x") for _ in range(3)] == [b.roll(5, "x") for _ in range(3)]
    assert SeededDice(11).roll(20, "x") != SeededDice(12).roll(20, "x")


def test_rolls_are_events_with_purpose():
    d = RecordedDice([3, 4, 5])
    assert d.roll(2, "charge") == [3, 4]
    assert d.take_events() == [{"type": "roll", "purpose": "charge", "dice": "2D6", "values": [3, 4]}]
    assert d.take_events() == []


def test_running_out():
    d = RecordedDice([1])
    with pytest.raises(OutOfRolls):
        d.roll(2, "to hit")


def test_out_of_rolls_in_a_replay_names_the_action(write):
    p = write(
        """
        tapeline: 1
        system: starcraft
        board: {width: 24, height: 24}
        dice: {rolls: [6, 6, 6]}
        units:
          - {id: m, side: terran, profile: marine, models: [{id: m1, at: [5, 5]}, {id: m2, at: [7, 5]}]}
          - {id: z, side: zerg, profile: zergling, models: [{id: z1, at: [12, 5]}]}
        actions:
          - action: shoot
            unit: m
            batches: [{weapon: c-14-rifle, target: z}]
        """
    )
    code, out, err = cli("replay", p)
    assert code == 2 and "actions[0]" in err and "ran out of recorded dice" in err
    assert "Traceback" not in err
