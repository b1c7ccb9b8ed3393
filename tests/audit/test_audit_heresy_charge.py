"""Audit of the Horus Heresy 3rd charge fixes: who may not charge (locked, Rushed, embarked,
Pinned, Routed, a vehicle), the Disordered charge, the Set-up Move as a real move kept when the
roll fails, base contact during the Set-up Move, the Cool Check, and followers moving by legal
paths round a wall."""

from __future__ import annotations

import math

import pytest

from tests.conftest import cli, cli_json

R32 = 16 / 25.4


def charge_file(write, gap, status="", dice="[]", m=7, i=4, cool=7, extra_unit="", unit_type=""):
    """a1 (5, 10) and a2 (5, 11.4) charge t1 and t2 ``gap`` inches away (edge to edge)."""
    x = 5 + 2 * R32 + gap
    ut = f", unit_type: {unit_type}" if unit_type else ""
    return write(f"""
        tapeline: 1
        system: heresy
        board: {{width: 36, height: 24}}
        units:
          - id: loy
            side: loyalist
            base: 32
            {status}
            stats: {{movement: {m}, initiative: {i}, cool: {cool}{ut}}}
            models: [{{id: a1, at: [5, 10]}}, {{id: a2, at: [5, 11.4]}}]
          - id: trt
            side: traitor
            base: 32
            stats: {{movement: 7, initiative: 4}}
            models: [{{id: t1, at: [{x!r}, 10]}}, {{id: t2, at: [{x!r}, 11.4]}}]
        {extra_unit}
        dice: {{rolls: {dice}}}
        actions:
          - {{action: charge, unit: loy, targets: [trt]}}
        """)


@pytest.mark.parametrize("status,why", [("rushed", "Rushed"), ("embarked", "embarked"), ("pinned", "pinned"),
                                        ("routed", "routed")])
def test_units_that_may_not_charge(write, status, why):
    f = charge_file(write, 4.0, status=f"status: [{status}]", dice="[6, 6]")
    code, out, err = cli("replay", f)
    assert code == 2 and "actions[0]" in err and why in err and "§A.3" in err and "Traceback" not in err
    code, out, err = cli("charge", f, "--unit", "loy", "--target", "trt")
    assert code == 2 and why in err and "Traceback" not in err


def test_a_vehicle_may_not_charge(write):
    code, out, err = cli("replay", charge_file(write, 4.0, unit_type="vehicle", dice="[6, 6]"))
    assert code == 2 and "actions[0]" in err and "§A.3" in err


def test_a_unit_locked_in_combat_may_not_charge_another(write):
    other = f"""  - id: trt2
            side: traitor
            base: 32
            stats: {{movement: 7, initiative: 4}}
            models: [{{id: u1, at: [{5 - 2 * R32!r}, 10]}}]"""
    f = charge_file(write, 4.0, dice="[6, 6]", extra_unit=other)
    code, out, err = cli("replay", f)
    assert code == 2 and "locked in combat" in err and "trt2" in err and "§A.3" in err


def test_setup_move_is_kept_when_the_roll_fails_and_the_cool_check_passes(write):
    """M6 + I3 = 9: a 2" Set-up Move; 6" apart, 4" remain; the roll (2, 3) keeps 3 < 4: the charge
    fails, no charge move; Cool Check (3, 3) = 6 ≤ 7: passed, not Stunned."""
    f = charge_file(write, 6.0, dice="[2, 3, 3, 3]", m=6, i=3)
    code, o = cli_json("replay", f)
    assert code == 0
    setup = [e for e in o["events"] if e["type"] == "setup_move"][0]
    assert setup["distance"] == 2 and all(m["length"] == pytest.approx(2.0, abs=1e-6) for m in setup["moves"])
    assert not any(e["type"] == "charge_move" for e in o["events"])
    info = [e for e in o["events"] if e["type"] == "charge"][0]
    assert info["success"] is False and info["roll"] == 3
    assert cli_json("measure", f, "a1", "t1", "--after", "0")[1]["gap"] == pytest.approx(4.0, abs=1e-5)
    assert "stunned" not in json_status(f)


def json_status(f):
    code, o = cli_json("models", f, "--after", "-1")
    return [s for u in o["units"] if u["id"] == "loy" for s in u.get("status", [])]


def test_failed_cool_check_stuns_every_model(write):
    f = charge_file(write, 6.0, dice="[2, 3, 5, 4]", m=6, i=3)                  # Cool Check 9 > 7
    code, o = cli_json("replay", f)
    assert code == 0
    chk = [e for e in o["events"] if e["type"] == "check"][0]
    assert chk["characteristic"] == "cool" and chk["target"] == 7 and chk["rolls"] == [5, 4] and not chk["passed"]
    assert "stunned" in json_status(f)


def test_a_roll_that_covers_the_rest_brings_the_models_into_contact(write):
    f = charge_file(write, 6.0, dice="[1, 4]", m=6, i=3)                        # keeps 4 ≥ 4
    code, o = cli_json("replay", f)
    assert code == 0 and [e for e in o["events"] if e["type"] == "charge"][0]["success"] is True
    assert cli_json("measure", f, "a1", "t1", "--after", "0")[1]["contact"] is True


def test_setup_move_reaching_contact_succeeds_at_once(write):
    """2.5" apart, a 3" Set-up Move: base contact; no Volley, no roll (no dice recorded at all)."""
    f = charge_file(write, 2.5, dice="[]")
    code, o = cli_json("replay", f)
    assert code == 0
    info = [e for e in o["events"] if e["type"] == "charge"][0]
    assert info["success"] is True and info["roll"] is None
    assert not any(e["type"] == "roll" for e in o["events"])
    assert cli_json("measure", f, "a1", "t1", "--after", "0")[1]["contact"] is True


def test_disordered_charge_makes_no_setup_move(write):
    """A Stunned unit may charge, Disordered: no Set-up Move; 4" apart, (6, 2) keeps 6."""
    f = charge_file(write, 4.0, status="status: [stunned]", dice="[6, 2]")
    code, o = cli_json("replay", f)
    assert code == 0
    assert not any(e["type"] == "setup_move" for e in o["events"])
    assert [e for e in o["events"] if e["type"] == "charge"][0]["success"] is True


WALL = """
tapeline: 1
system: heresy
name: a follower behind a wall
board: {width: 36, height: 24}
terrain:
  - {id: wall, footprint: {rect: [7, 6, 0.3, 3.5]}, height: 3, traits: [impassable, blocks_sight]}
units:
  - id: loyal
    side: loyalist
    base: 32
    stats: {movement: 7, initiative: 4, cool: 7}
    models:
      - {id: a1, at: [5, 10.5]}
      - {id: a2, at: [5, 9.2]}
      - {id: a3, at: [5, 7.9]}
  - id: traitors
    side: traitor
    base: 32
    stats: {movement: 7, initiative: 4}
    models:
      - {id: t1, at: [12, 10.5]}
      - {id: t2, at: [12, 9.2]}
      - {id: t3, at: [12, 7.9]}
dice: {rolls: [6, 6]}
actions:
  - {action: charge, unit: loyal, targets: [traitors]}
"""


def test_followers_move_by_legal_paths_round_a_wall(write):
    f = write(WALL)
    code, o = cli_json("replay", f)
    assert code == 0
    for kind, allowance in (("setup_move", 3.0), ("charge_move", 6.0)):
        for m in [m for e in o["events"] if e["type"] == kind for m in e["moves"]]:
            straight = math.dist(m["from"], m["to"])                      # (ends given to 6 decimals)
            assert m["path_check"] == "legal" and straight - 1e-5 <= m["length"] <= allowance + 1e-6, (kind, m)
    a3 = [m for e in o["events"] if e["type"] == "setup_move" for m in e["moves"] if m["model"] == "a3"][0]
    # the straight line from a3's start to where its Set-up Move ends runs too close to the wall
    code, p = cli_json("path", f, "a3", "--via", ",".join(f"{v:.9f}" for v in a3["to"]))
    assert code == 0 and p["legal"] is False and p["violation"]["obstacle"] == "wall"
    assert a3["length"] > p["length"]                                      # so it walked round
