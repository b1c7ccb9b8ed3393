"""StarCraft charges across levels (§7.2, §8.5.3, §8.7.7): up a ramp onto High Ground, onto Mid
Ground, beside a shared Access Point; the charge resolved ends engaged; Run climbs too.

The table: a Size 3 mesa (x 10..22, y 8..17) with a Size 1 ramp (x 13..17, y 5..8) at its south
edge — its foot y = 5, its top y = 8. A Roach (50 mm, r = 0.984252") charges Marines (32 mm,
r = 0.629921"): "within 1"" is a centre distance of at most 0.984252 + 0.629921 + 1 =
2.614173". Every distance below is worked by hand along the straight line x = 15.
"""

from __future__ import annotations

import pytest

from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft import charge
from tapeline.rules.starcraft.elevation import Level, level
from tapeline.rules.starcraft.engagement import engaged
from tapeline.scenarios.actions.run import Run
from tapeline.scenarios.vocab import ReplayContext
from tapeline.rules.dice import SeededDice
from tests.conftest import scenario

R_ROACH, R_MARINE = 25 / 25.4, 16 / 25.4
WITHIN = R_ROACH + R_MARINE + 1  # 2.614173"


def table(marines: str, roach_at=(15, 1), roach_on="null") -> str:
    return f"""
        tapeline: 1
        system: starcraft
        board: {{width: 30, height: 20}}
        terrain:
          - {{id: mesa, footprint: {{rect: [10, 8, 12, 9]}}, size: 3}}
          - id: ramp
            footprint: {{rect: [13, 5, 4, 3]}}
            size: 1
            traits: [access_point]
            joins:
              - {{levels: [ground, ramp], at: [[13, 5], [17, 5]]}}
              - {{levels: [ramp, mesa], at: [[13, 8], [17, 8]]}}
        units:
          - id: roaches
            side: zerg
            profile: roach
            models:
              - {{id: r1, at: [{roach_at[0]}, {roach_at[1]}], on: {roach_on}}}
              - {{id: r2, at: [2, 1.5]}}
              - {{id: r3, at: [2, 4]}}
          - {{id: marines, side: terran, profile: marine, models: [{marines}]}}
        """


def test_up_the_ramp_onto_high_ground():
    # m1 on the mesa at (15, 12): the Roach must end wholly on the mesa (§7.2 High Ground vs
    # Ground Level; §8.5.3 a straddling base counts as the lower level), within 1": straight
    # up the ramp to y = 12 − 2.614173, from y = 1.
    st = scenario(table("{id: m1, at: [15, 12], on: mesa}")).state
    rc = charge.reach(st, "roaches", ["marines"], leader="r1")
    assert rc.distance == pytest.approx(12 - WITHIN - 1, abs=1e-6)
    assert rc.plan.level == "mesa"
    assert rc.end == pytest.approx((15, 12 - WITHIN), abs=1e-6)


def test_the_charge_resolved_ends_on_the_mesa_and_engaged():
    st = scenario(table("{id: m1, at: [15, 12], on: mesa}")).state
    new, out = charge.resolve(st, "roaches", ["marines"], [6], leader="r1")
    assert out.success
    r1 = new.figure("r1")
    assert r1.on == "mesa" and level(new.table, r1) == Level.HIGH
    assert engaged(new, "r1", "m1").engaged
    # the base contact the 10" allows (Speed 4 + 6): centre 1.614173" below m1's
    assert out.contact and r1.y == pytest.approx(12 - (R_ROACH + R_MARINE), abs=1e-6)


def test_mid_ground_target_on_the_ramp_from_the_ground_beside_the_access_point():
    # m1 on the ramp (Mid Ground) near its foot at (15, 6.2). A Roach at Ground Level engages it
    # only beside a shared Access Point: the ramp itself, which m1 stands on; ending at the
    # foot (not on the ramp) within 1" of m1: y = 6.2 − 2.614173.
    st = scenario(table("{id: m1, at: [15, 6.2], on: ramp}")).state
    rc = charge.reach(st, "roaches", ["marines"], leader="r1")
    assert rc.distance == pytest.approx(6.2 - WITHIN - 1, abs=1e-6)
    assert rc.plan.level is None


def test_mid_ground_charger_engages_high_ground_beside_the_ramp():
    # m1 on the mesa just above the ramp's top (15, 8.8): within 1" of the ramp (its base's
    # lowest point 8.17 is 0.17" from the ramp). The Roach may stop on the ramp (Mid Ground)
    # within 1" of m1 — both beside the ramp — at y = 8.8 − 2.614173, wholly on the ramp
    # (its top edge at y = 8.8 − 2.614173 + 0.984252 = 7.17 ≤ 8). Without the Access Point
    # rule it would have to climb onto the mesa.
    st = scenario(table("{id: m1, at: [15, 8.8], on: mesa}")).state
    rc = charge.reach(st, "roaches", ["marines"], leader="r1")
    assert rc.distance == pytest.approx(8.8 - WITHIN - 1, abs=1e-6)
    assert rc.plan.level == "ramp"


def test_high_ground_charger_must_come_down_to_engage_ground_level():
    # r1 on the mesa at (15, 12); m1 on the ground west of the mesa at (8, 12), 2" from its edge.
    # High Ground cannot engage Ground Level: down the ramp and round the mesa's south-west
    # corner — much longer than the 4.4" straight gap.
    st = scenario(table("{id: m1, at: [8, 12]}", roach_at=(15, 12), roach_on="mesa")).state
    rc = charge.reach(st, "roaches", ["marines"], leader="r1")
    assert rc.plan.level is None
    # at least: down to the foot of the ramp (12 − 5 = 7") and back up the west side
    assert rc.distance > 7 + 4
    assert all(p[1] >= 0 for p in rc.path)


def test_no_access_point_no_charge_and_a_note():
    text = table("{id: m1, at: [15, 12], on: mesa}").replace("traits: [access_point]", "traits: []").replace(
        "            joins:\n              - {levels: [ground, ramp], at: [[13, 5], [17, 5]]}\n"
        "              - {levels: [ramp, mesa], at: [[13, 8], [17, 8]]}\n", "")
    st = scenario(text).state
    rc = charge.reach(st, "roaches", ["marines"], leader="r1")
    assert rc.distance is None and rc.odds.probability == 0
    assert any("High Ground" in n and "Access Point" in n for n in rc.notes)


def _run(st, path, leader="r1"):
    a = Run(action="run", unit="roaches", leader=leader, path=path)
    return a.apply(st, ReplayContext(SeededDice(0), {}, 0))


def test_run_climbs_through_the_access_points_and_stands_on_the_mesa():
    st = scenario(table("{id: m1, at: [27, 18]}")).state
    # 4" run: (15, 1) -> (15, 5) stays at the foot; then another run up: Speed 4 from (15, 5)
    new, _ = _run(st, [[15, 5]])
    new, _ = _run(new, [[15, 9]])
    assert new.figure("r1").on == "mesa" and new.figure("r1").y == pytest.approx(9)


def test_run_off_the_side_of_the_ramp_is_illegal_and_names_the_place():
    st = scenario(table("{id: m1, at: [27, 18]}", roach_at=(15, 6.5), roach_on="ramp")).state
    with pytest.raises(IllegalAction, match=r"changes_level at \(17, 6.5\).*edge of ramp"):
        _run(st, [[19, 6.5]])


def test_close_ranks_on_the_mesa_stays_on_high_ground():
    # Roaches and Marines Engaged on the mesa (both High Ground). Close Ranks moves the free
    # Roach closer; it stays standing on the mesa (and so Engaged: High Ground with High Ground).
    from tapeline.rules.starcraft.close_ranks import close_ranks

    text = table("{id: m1, at: [15, 12], on: mesa}").replace(
        "{id: r1, at: [15, 1], on: null}", "{id: r1, at: [15, 10.2], on: mesa}").replace(
        "{id: r2, at: [2, 1.5]}", "{id: r2, at: [12.9, 11], on: mesa}").replace(
        "{id: r3, at: [2, 4]}", "{id: r3, at: [12.9, 13.2], on: mesa}")
    st = scenario(text).state
    assert engaged(st, "r1", "m1").engaged
    new, out = close_ranks(st, "roaches", leader="r2")
    for m in ("r1", "r2", "r3"):
        f = new.figure(m)
        assert f.on == "mesa" and level(new.table, f) == Level.HIGH, m
    assert engaged(new, "r2", "m1").engaged
