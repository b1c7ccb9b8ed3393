"""The StarCraft ``charge`` action's ``set:`` through ``check`` and ``replay``: a refused spot
is located at ``actions[i].set.<model>`` (the table: tests/rules/test_charge_followers.py)."""

from __future__ import annotations

import pytest

import tapeline
from tests.conftest import cli
from tests.rules.test_charge_followers import TABLE


def test_a_replay_names_the_place_of_a_refused_spot(write):
    path = write(TABLE + """dice: {rolls: [6, 6]}
actions:
  - {action: charge, unit: zealots, targets: [marauders, ghosts], leader: z1, set: {z2: [10.3937, 11.6063]}}
""")
    code, out, err = cli("replay", path)
    assert code == 2
    assert "actions[0].set.z2:" in err and "priority B" in err and "§8.7.7 Charge step 4" in err


def test_check_refuses_the_leading_model_and_another_system(write):
    path = write(TABLE + """actions:
  - {action: charge, unit: zealots, targets: [marauders], leader: z1, set: {z1: [9, 9]}}
""")
    code, out, err = cli("check", path)
    assert code == 2 and "actions[0].set.z1" in out + err
    heresy = write("""
tapeline: 1
system: heresy
name: h
board: {width: 24, height: 24}
units:
  - {id: a, side: x, base: 32, stats: {movement: 7, initiative: 4, cool: 7}, models: [{id: a1, at: [2, 2]}, {id: a2, at: [3.5, 2]}]}
  - {id: b, side: y, base: 32, stats: {movement: 7, initiative: 4, cool: 7}, models: [{id: b1, at: [8, 2]}]}
actions:
  - {action: charge, unit: a, targets: [b], set: {a2: [7, 3]}}
""", "h.yaml")
    code, out, err = cli("check", heresy)
    assert code == 2 and "actions[0].set" in out + err and "StarCraft" in out + err


def test_a_set_accepted_in_a_replay_and_refused_on_a_pushed_move(write):
    # (10.636919, 11.131710): touching the Leading Model's end and the Marauder (the crossing
    # worked out in tests/rules/test_charge_followers.py), rounded a hair outward
    path = write(TABLE + """dice: {rolls: [6, 6, 6, 6]}
actions:
  - {action: charge, unit: zealots, targets: [marauders, ghosts], leader: z1, set: {z2: [10.636920, 11.131711]}}
expect:
  - {expect: charged, action: 0, success: true, contact: true, removed: []}
  - {expect: position, model: z2, at: [10.636920, 11.131711], tol: 1e-9}
""")
    code, out, err = cli("replay", path)
    assert code == 0, out + err
    with pytest.raises(tapeline.IllegalAction) as e:  # the same charge pushed on the table as it starts
        tapeline.open(str(path)).push({"action": "charge", "unit": "zealots", "targets": ["marauders", "ghosts"], "leader": "z1",
                    "set": {"z2": [10.3937, 11.6063]}})
    assert e.value.location == "action.set.z2"
