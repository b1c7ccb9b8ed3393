"""Horus Heresy 3rd charges (§A.3): who may charge, the Set-up Move as a real move, the Cool
Check after a failure, every follower's own path checked, and the roll compared with the route
or the closest line-of-sight distance."""

from __future__ import annotations

import math

import pytest

from tapeline.board.measure import gap
from tapeline.board.paths import shortest_path
from tapeline.rules.charge_geometry import space_for
from tapeline.rules.contact_charge import contact_rules
from tapeline.rules.dice import RecordedDice
from tapeline.rules.errors import IllegalAction
from tapeline.rules.heresy import charge as hh
from tapeline.rules.systems import rules_for
from tests.conftest import cli_json, scenario

R32 = 16 / 25.4  # radius of a 32 mm base


def two_units(gap_in=7.0, status="", terrain="", extra_b="", a_models=None, settings="", stats="movement: 7, initiative: 4, cool: 7"):
    """Unit a (Legionaries, M7 I4 CL7: Set-up Move 3") and unit b, ``gap_in`` from a1 to b1."""
    x = 5 + 2 * R32 + gap_in
    a_models = a_models or ["{id: a1, at: [5, 10]}", "{id: a2, at: [5, 11.5]}"]
    lines = [
        "tapeline: 1", "system: heresy", "board: {width: 36, height: 24}", f"terrain: [{terrain}]", settings, "units:",
        "  - id: a", "    side: loyal", "    base: 32", f"    status: [{status}]", f"    stats: {{{stats}}}", "    models:",
        *[f"      - {m}" for m in a_models],
        "  - id: b", "    side: traitor", "    base: 32", "    stats: {movement: 7, initiative: 4, cool: 7}", "    models:",
        f"      - {{id: b1, at: [{x}, 10]}}", extra_b,
    ]
    return scenario("\n".join(l for l in lines if l) + "\n").state


# --- 1. who may not charge -----------------------------------------------------------------

@pytest.mark.parametrize("status,words", [("rushed", "Rushed"), ("embarked", "embarked"), ("pinned", "pinned"), ("routed", "routed")])
def test_rushed_embarked_pinned_routed_cannot_charge(status, words):
    st = two_units(status=status)
    with pytest.raises(IllegalAction, match=words):
        hh.reach(st, "a", ["b"])


def test_a_unit_locked_in_combat_cannot_charge_out_of_it():
    # a2 is in base contact with c1 (another enemy unit): unit a is locked in combat and may
    # not charge b (before the fix it charged and was moved away from its combat).
    extra = "  - id: c\n    side: traitor\n    base: 32\n    models:\n      - {id: c1, at: [%r, 11.5]}" % (5 - 2 * R32)
    st = two_units(extra_b=extra)
    assert abs(gap(st.figure("a2"), st.figure("c1"))) < 1e-9
    with pytest.raises(IllegalAction, match="locked in combat with c"):
        hh.reach(st, "a", ["b"])
    with pytest.raises(IllegalAction, match="locked"):
        hh.charge(st, "a", ["b"], RecordedDice([6, 6]))


def test_a_unit_with_no_models_left_cannot_charge():
    # every model of the unit removed: the charge is refused naming the rule, never a traceback
    st = two_units().without_models("a", ["a1", "a2"])
    heresy = rules_for("heresy")
    asks = [lambda: heresy.charge_reach(st, "a", ["b"]),
            lambda: heresy.charge_reach(st, "a", ["b"], leader="a1"),
            lambda: heresy.charge_outcome(st, "a", ["b"], [6, 6]),
            lambda: heresy.charge(st, "a", ["b"], RecordedDice([6, 6]))]
    for ask in asks:
        with pytest.raises(IllegalAction, match="a has no models on the table") as e:
            ask()
        assert e.value.rule == hh.RULE


def test_stunned_suppressed_disembarked_charge_disordered():
    for status in ("stunned", "suppressed", "disembarked"):
        cc = hh.reach(two_units(status=status), "a", ["b"])
        assert cc.details["disordered"] and cc.details["setup_move"] == 0
        # no Set-up Move: the roll alone must cover 7": impossible with one die
        assert cc.odds.probability == 0


# --- 2. the Set-up Move is a real move ------------------------------------------------------

def test_setup_move_is_made_and_stays_made_when_the_roll_fails():
    st = two_units(gap_in=9.5)                   # 9.5" to contact; Set-up 3"; needs 6.5: impossible
    start = {m: st.figure(m).at for m in ("a1", "a2")}
    new, info, events = hh.charge(st, "a", ["b"], RecordedDice([2, 1, 3, 3]))
    assert not info["success"] and info["roll"] == 2
    # the initial model a1 moved 3" straight at b1 (open ground: the shortest route)
    assert new.figure("a1").at == pytest.approx((start["a1"][0] + 3, 10), abs=1e-6)
    assert gap(new.figure("a1"), new.figure("b1")) == pytest.approx(6.5, abs=1e-6)
    # a2 moved its full 3" too, ending in coherency (within 2") with a1
    assert math.dist(new.figure("a2").at, start["a2"]) == pytest.approx(3, abs=1e-4)   # bisection: 1e-5"
    assert gap(new.figure("a2"), new.figure("a1")) <= 2 + 1e-6
    kinds = [e["type"] for e in events]
    assert kinds.index("setup_move") < kinds.index("roll")          # the Set-up Move before the roll


def test_setup_move_reaching_base_contact_succeeds_at_once_without_a_roll():
    st = two_units(gap_in=2.5)                    # within the 3" Set-up Move
    dice = RecordedDice([])                       # no die may be rolled
    new, info, events = hh.charge(st, "a", ["b"], dice)
    assert info["success"] and info["at_once"] and info["roll"] is None
    assert not [e for e in events if e["type"] == "roll"]
    assert abs(gap(new.figure("a1"), new.figure("b1"))) <= 1e-5
    # a1 moved only the 2.5" it needed
    assert math.dist(new.figure("a1").at, st.figure("a1").at) == pytest.approx(2.5, abs=1e-6)


def test_heavy_uses_movement_alone():
    st = two_units(stats="movement: 6, initiative: 4, cool: 7", extra_b="")
    assert hh.reach(st, "a", ["b"]).details["setup_move"] == 3          # 6 + 4 = 10 → 3"
    scen = two_units(stats="movement: 6, initiative: 4, cool: 7, unit_type: heavy")
    assert hh.reach(scen, "a", ["b"]).details["setup_move"] == 1        # Heavy M6 → 1"


# --- 3. the Cool Check after a failed charge --------------------------------------------------

def test_failed_charge_cool_check_fail_stuns_the_unit():
    # worked example: 4" left after the Set-up Move, dice (3, 1) → 3: fails; Cool Check
    # (4, 4) = 8 > CL 7: fails → Stunned
    st = two_units(gap_in=7.0)
    new, info, events = hh.charge(st, "a", ["b"], RecordedDice([3, 1, 4, 4]))
    assert not info["success"] and info["roll"] == 3
    assert info["cool_check"] == {"passed": False, "rolls": [4, 4], "target": 7}
    assert "stunned" in new.unit("a").status
    assert [e for e in events if e["type"] == "status"][0]["gained"] == "stunned"


def test_failed_charge_cool_check_pass_no_status():
    new, info, _ = hh.charge(two_units(gap_in=7.0), "a", ["b"], RecordedDice([3, 1, 3, 4]))
    assert info["cool_check"]["passed"] and not new.unit("a").status


# --- 4. every follower's own path is checked ----------------------------------------------

# a2 stands in a walled pen (a wall to its right up to y = 20.9, a floor below it); a1's lane
# along y = 10 is open. The way out is round the top of the wall: about 13" to the target.
WALL = ("{id: wall, footprint: {rect: [6.0, 10.9, 0.4, 10]}, traits: [impassable]}, "
        "{id: floor, footprint: {rect: [2, 10.9, 4.4, 0.2]}, traits: [impassable]}")
PEN = ["{id: a1, at: [5, 10]}", "{id: a2, at: [5, 12]}"]


def test_a_follower_never_ends_past_a_wall_it_could_not_walk_round():
    # Before the fix a2 was set next to b1 by straight-line distance (a 12.9" walk for a 9"
    # allowance); now it ends where its own legal path of at most 3" + 6" takes it.
    st = two_units(gap_in=4.0, terrain=WALL, a_models=PEN)
    new, info, _ = hh.charge(st, "a", ["b"], RecordedDice([6, 6]))
    assert info["success"]
    for m in ("a1", "a2"):
        f0, f1 = st.figure(m), new.figure(m)
        if f0.at == f1.at:
            continue
        rules = contact_rules(st, "a", f0, ["b"])
        p = shortest_path(space_for(st, rules), f0.at, f1.at)   # independent: any legal route at all
        budget = 3 + 6                                          # Set-up Move + the roll
        assert p is not None and p.length <= budget + 1e-6
    assert new.figure("a2").x < 6.0                            # still on its side of the wall
    for mv in info["setup"] + info["moves"]:
        assert mv["path_check"] == "legal"


def test_followers_paths_validated_in_the_event_log():
    st = two_units(gap_in=7.0, terrain=WALL, a_models=PEN)
    _new, info, events = hh.charge(st, "a", ["b"], RecordedDice([5, 6]))
    moves = [m for e in events if e["type"] in ("setup_move", "charge_move") for m in e["moves"]]
    assert moves and all(m["path_check"] == "legal" for m in moves)


# --- the roll against the route or the closest line-of-sight distance -----------------------

LOW_WALL = "{id: fence, footprint: {rect: [7.5, 4, 0.5, 12]}, traits: [impassable]}"   # height 0: no sight block


def test_roll_against_route_default_fails_without_moving():
    st = two_units(gap_in=5.0, status="disembarked", terrain=LOW_WALL, a_models=["{id: a1, at: [5, 10]}"])
    cc = hh.reach(st, "a", ["b"])
    assert cc.details["roll_against"] == "route" and cc.details["closest_los_distance"] == pytest.approx(5.0, abs=1e-6)
    assert cc.distance > 6 and cc.odds.probability == 0                 # the route round the fence is too long
    new, info, _ = hh.charge(st, "a", ["b"], RecordedDice([6, 6, 1, 1]))
    assert not info["success"] and new.figure("a1").at == st.figure("a1").at


def test_roll_against_closest_los_moves_then_fails():
    st = two_units(gap_in=5.0, status="disembarked", terrain=LOW_WALL, a_models=["{id: a1, at: [5, 10]}"],
                   settings="settings: {charge_roll_against: closest_los}")
    new, info, _ = hh.charge(st, "a", ["b"], RecordedDice([6, 6, 1, 1]))
    # 6 ≥ the 5" line-of-sight distance: the charge move is made (6" along the route) …
    assert math.dist(new.figure("a1").at, st.figure("a1").at) > 1
    assert info["moves"][0]["length"] == pytest.approx(6, abs=1e-6)
    # … but no model reaches base contact: the charge fails and the Cool Check is taken
    assert not info["success"] and info["cool_check"]["passed"]


def test_charge_command_reports_the_reading(write):
    p = write("""
        tapeline: 1
        system: heresy
        board: {width: 36, height: 24}
        units:
          - {id: a, side: loyal, base: 32, stats: {movement: 7, initiative: 4, cool: 7}, models: [{id: a1, at: [5, 10]}]}
          - {id: b, side: traitor, base: 32, models: [{id: b1, at: [13.259843, 10]}]}
    """)
    code, out = cli_json("charge", p, "a", "--target", "b")
    assert code == 0 and out["details"]["roll_against"] == "route" and out["min_roll"] == 4
