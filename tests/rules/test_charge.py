"""Charges: the rules guide's odds, geometry worked by hand, resolution, Heresy and 40k."""

from __future__ import annotations

import math
import random

import pytest

from tapeline.board.bases import RoundBase
from tapeline.board.measure import far, gap
from tapeline.rules.charge_odds import BEST_OF_2D6, D6, NO_ROLL, charge_odds
from tapeline.rules.errors import IllegalAction
from tapeline.rules.heresy.charge import setup_move
from tapeline.rules.starcraft import charge
from tapeline.rules.starcraft.movement import clearance, coherency
from tests.conftest import scenario

R32, R40, R50 = (RoundBase(d).radius for d in (32, 40, 50))


# --- odds (the Phase 2 Assault rules guide's charge-odds simulator) ----------------------------

def test_rules_guide_speed_4_needing_7():
    o = charge_odds(7.0, 4, D6)
    assert (o.min_roll, o.fraction, o.reach_min, o.reach_max, o.reach_mean) == (3, "2/3", 5, 10, 7.5)
    assert o.probability == pytest.approx(2 / 3, abs=1e-12)


def test_rules_guide_concussive_shells():
    o = charge_odds(7.0, 4 - 2, D6)
    assert (o.min_roll, o.fraction, o.reach_min, o.reach_max) == (5, "1/3", 3, 8)


def test_best_of_two_and_edges():
    o = charge_odds(7.0, 4, BEST_OF_2D6)        # Metabolic Boost: P(max of 2D6 >= 3) = 1 - (2/6)^2
    assert o.min_roll == 3 and o.probability == pytest.approx(8 / 9)
    assert charge_odds(11.0, 4, D6).min_roll is None and charge_odds(11.0, 4, D6).probability == 0
    assert charge_odds(3.0, 4, D6).min_roll == 1 and charge_odds(3.0, 4, D6).probability == 1
    assert charge_odds(None, 4, D6).probability == 0
    assert charge_odds(6.0, 6, NO_ROLL).probability == 1 and charge_odds(6.1, 6, NO_ROLL).probability == 0


@pytest.mark.parametrize("dice", [D6, BEST_OF_2D6])
@pytest.mark.parametrize("need", [5.5, 7.0, 9.2])
def test_odds_match_monte_carlo(dice, need):
    rng = random.Random(11)
    n = 20000
    hits = sum(dice.result([rng.randint(1, 6) for _ in range(dice.dice)]) + 4 >= need for _ in range(n))
    assert charge_odds(need, 4, dice).probability == pytest.approx(hits / n, abs=0.015)


# --- StarCraft geometry --------------------------------------------------------------------

def roach_file(extra_units="", terrain="", roach_models=None, marine_x=14.614173228):
    models = roach_models or [("r1", 5, 10), ("r2", 5, 12.5), ("r3", 3, 11)]
    lines = [
        "tapeline: 1", "system: starcraft", "board: {width: 36, height: 24}", f"terrain: [{terrain}]", "units:",
        "  - id: roaches", "    side: zerg", "    profile: roach", "    models:",
    ]
    lines += [f"      - {{id: {i}, at: [{x}, {y}]}}" for i, x, y in models]
    lines += ["  - id: marines", "    side: terran", "    profile: marine", "    models:", f"      - {{id: m1, at: [{marine_x}, 10]}}"]
    lines += extra_units
    return scenario("\n".join(lines) + "\n")


def test_roach_needs_7_inches_of_travel():
    # Centres 9.614": 9.614 − 0.984 − 0.630 − 1 = 7.000" to end within 1".
    L = roach_file()
    rc = charge.reach(L.state, "roaches", ["marines"])
    assert rc.leader == "r1"
    want = 9.614173228 - R50 - R32 - 1
    assert rc.distance == pytest.approx(want, abs=1e-6)
    assert rc.odds.min_roll == 3 and rc.odds.fraction == "2/3"
    assert rc.path == [pytest.approx((5.0, 10.0)), pytest.approx((5 + want, 10.0), abs=1e-6)]


def test_charge_round_a_wall_has_the_hand_length():
    # A Size 2 wall between: the Roach (ρ = 0.5") goes round its corner.
    L = roach_file(terrain="{id: wall, footprint: {rect: [8, 6, 1, 8]}, size: 2}",
                   roach_models=[("r1", 5, 10)])
    rc = charge.reach(L.state, "roaches", ["marines"])
    assert rc.distance > 9.614173228 - R50 - R32 - 1
    assert "arc" in [l.kind for l in rc.plan.path.legs]
    # Brute force over end spots on the 1" ring, each by its own exact point path.
    reach = rc.plan.reach
    ring = R50 + R32 + 1
    best = min(p.length for p in (reach.to_point((14.614173228 + ring * math.cos(t), 10 + ring * math.sin(t)))
                                  for t in [k * math.pi / 120 for k in range(240)]) if p is not None)
    assert best - 2e-2 <= rc.distance <= best + 1e-9


def test_split_speed_lone_roach_uses_7():
    L = roach_file(roach_models=[("r1", 5, 10)])
    rc = charge.reach(L.state, "roaches", ["marines"])
    assert rc.speed == 7 and rc.odds.min_roll == 1


def test_undeclared_enemy_forbids_the_straight_approach():
    medics = ["  - id: medics", "    side: terran", "    profile: medic", "    models:",
              "      - {id: d1, at: [13.0, 12.2]}", "      - {id: d2, at: [13.0, 7.8]}"]
    L = roach_file(extra_units=medics)
    rc = charge.reach(L.state, "roaches", ["marines"])
    end = L.state.figure(rc.leader).moved(*rc.end)
    for d in ("d1", "d2"):
        assert gap(end, L.state.figure(d)) > 1.0
    assert gap(end, L.state.figure("m1")) <= 1.0 + 1e-6
    both = charge.reach(L.state, "roaches", ["marines", "medics"])
    end2 = L.state.figure(both.leader).moved(*both.end)
    assert all(gap(end2, L.state.figure(m)) <= 1 + 1e-6 for m in ("m1",)) and min(gap(end2, L.state.figure(d)) for d in ("d1", "d2")) <= 1 + 1e-6


def test_resolve_places_leader_in_contact_and_rest_in_coherency():
    L = roach_file()
    new, out = charge.resolve(L.state, "roaches", ["marines"], [6], leader="r1")
    assert out.success and out.contact and abs(gap(new.figure("r1"), new.figure("m1"))) <= 1e-6
    c = coherency(new, "roaches", "r1")
    assert c.ok, c.explain()
    for m in ("r2", "r3"):
        assert gap(new.figure(m), new.figure("m1")) >= -1e-6
        assert far(new.figure(m), new.figure("r1")) <= 3 + 1e-6
    # A roll of 3 reaches exactly 7": as close as possible within 1", not in contact.
    new, out = charge.resolve(L.state, "roaches", ["marines"], [3], leader="r1")
    assert out.success and not out.contact and out.end_gap == pytest.approx(1.0, abs=1e-5)
    # A roll of 2 fails: nothing moves.
    new, out = charge.resolve(L.state, "roaches", ["marines"], [2], leader="r1")
    assert not out.success and new is L.state


def test_clearance_by_size_and_large():
    L = roach_file()
    assert clearance(L.state.unit("roaches")) == 0.5


def test_flying_and_engaged_cannot_charge():
    L = roach_file(marine_x=7.0)
    with pytest.raises(IllegalAction, match="Engaged"):
        charge.reach(L.state, "roaches", ["marines"])


# --- Horus Heresy and 40k 3rd --------------------------------------------------------------

def test_setup_move_table():
    assert [setup_move(m, 0) for m in (1, 6, 7, 9, 10, 11, 12, 13, 14, 19, 20, 30)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    assert setup_move(7, 4) == 3 and setup_move(7, 4, heavy=True) == 2


def contact_file(system, gap_in, traits=""):
    x = 5 + 2 * R32 + gap_in
    stats = "{movement: 7, initiative: 4}" if system == "heresy" else "{movement: 6}"
    lines = [
        "tapeline: 1", f"system: {system}", "board: {width: 36, height: 24}", f"terrain: [{traits}]", "units:",
        "  - id: a", "    side: loyal", "    base: 32", f"    stats: {stats}", "    models:",
        "      - {id: a1, at: [5, 10]}", "      - {id: a2, at: [5, 11.5]}",
        "  - id: b", "    side: traitor", "    base: 32", "    models:", f"      - {{id: b1, at: [{x}, 10]}}",
    ]
    return scenario("\n".join(lines) + "\n")


def test_heresy_setup_then_drop_lowest():
    from tapeline.rules.heresy import charge as hh

    L = contact_file("heresy", 7.0)                   # 7" to contact, Set-up 3": needs 4 on the best of 2D6
    cc = hh.reach(L.state, "a", ["b"])
    assert cc.distance == pytest.approx(7.0, abs=1e-6) and cc.details["setup_move"] == 3
    assert cc.odds.min_roll == 4 and cc.odds.probability == pytest.approx(1 - (3 / 6) ** 2)
    L = contact_file("heresy", 2.5)
    assert hh.reach(L.state, "a", ["b"]).odds.probability == 1   # the Set-up Move reaches contact
    L = contact_file("heresy", 12.5)
    cc = hh.reach(L.state, "a", ["b"])
    assert not cc.allowed and cc.odds.probability == 0
    new, info = hh.resolve(contact_file("heresy", 7.0).state, "a", ["b"], [5])
    assert info["success"] and abs(gap(new.figure("a1"), new.figure("b1"))) <= 1e-5


def test_classic40k_six_inches_and_difficult_terrain():
    from tapeline.rules.classic40k import charge as ck

    cc = ck.reach(contact_file("classic40k", 5.9).state, "a", ["b"])
    assert cc.odds.dice.name == "none" and cc.odds.probability == 1
    assert ck.reach(contact_file("classic40k", 6.2).state, "a", ["b"]).odds.probability == 0
    # A difficult band across the whole approach: 2D6 take the highest must cover 4.5".
    L = contact_file("classic40k", 4.5, traits="{id: mud, footprint: {rect: [7, 0, 1, 24]}, traits: [difficult]}")
    cc = ck.reach(L.state, "a", ["b"])
    assert cc.details["difficult_crossed"] == ["mud"] and cc.odds.min_roll == 5
    assert cc.odds.probability == pytest.approx(1 - (4 / 6) ** 2)


@pytest.mark.parametrize("dice", [D6, BEST_OF_2D6])
def test_exact_enumeration_agrees_with_the_pmf(dice):
    from tapeline.rules.charge_odds import exact_at_least

    for k in range(1, 8):
        assert float(exact_at_least(dice, k)) == pytest.approx(dice.pmf.at_least(k), abs=1e-12)


def test_heresy_needs_line_of_sight():
    from tapeline.rules.heresy import charge as hh

    L = contact_file("heresy", 4.0, traits="{id: wall, footprint: {rect: [6.5, 0, 0.5, 24]}, height: 6, traits: [blocks_sight]}")
    cc = hh.reach(L.state, "a", ["b"])
    assert not cc.allowed and "see" in cc.reason and cc.odds.probability == 0
    with pytest.raises(IllegalAction, match="A.3"):
        hh.resolve(L.state, "a", ["b"], [6])


def _cliff_charge(target_on_cliff: bool):
    on = "cliff" if target_on_cliff else "null"
    x = 15.5 if target_on_cliff else 11.0
    return scenario(
        f"""
        tapeline: 1
        system: starcraft
        board: {{width: 24, height: 24}}
        terrain:
          - {{id: cliff, footprint: {{rect: [14, 0, 10, 24]}}, size: 3}}
        units:
          - {{id: roaches, side: zerg, profile: roach, models: [{{id: r1, at: [6, 12]}}]}}
          - {{id: marines, side: terran, profile: marine, models: [{{id: m1, at: [{x}, 12], on: {on}}}]}}
        """
    ).state


def test_targets_on_high_ground_cannot_be_reached_from_ground_level():
    # §7.2: High Ground and Ground Level never engage; a charge path runs on the ground, so a
    # Marine wholly on the cliff offers no legal end spot even though 1" from the cliff foot
    # would be in range.
    rc = charge.reach(_cliff_charge(True), "roaches", ["marines"])
    assert rc.distance is None and rc.odds.probability == 0
    assert any("High Ground" in n for n in rc.notes)


def test_same_marine_at_the_foot_is_reachable():
    # 6 → 11: centre gap 5"; end within 1" ⇒ travel 5 − r_roach − r_marine − 1 (straight)
    rc = charge.reach(_cliff_charge(False), "roaches", ["marines"])
    assert rc.distance == pytest.approx(5 - 25 / 25.4 - 16 / 25.4 - 1, abs=1e-6)


# --- one nominated model per target unit, each checked (issue 9, item 2) ---------------------

def _two_targets():
    medics = ["  - id: medics", "    side: terran", "    profile: medic", "    models:",
              "      - {id: d1, at: [14, 12.2]}", "      - {id: d2, at: [14, 16]}"]
    return roach_file(extra_units=medics, roach_models=[("r1", 5, 10), ("r2", 3, 10)], marine_x=14)


def test_every_nominee_is_used():
    # m1 (14, 10) and d1 (14, 12.2): a Roach base touches both at (12.819..., 11.1), 7.9" from r1
    # (circles of radius R50 + R32 = 1.614" round each: half-chord sqrt(1.614² − 1.1²) = 1.181").
    L = _two_targets()
    new, out = charge.resolve(L.state, "roaches", ["marines", "medics"], [6], leader="r1",
                              target_models={"marines": "m1", "medics": "d1"})
    assert out.success and out.target_models == {"marines": "m1", "medics": "d1"}
    assert out.contact and all(abs(g) <= 1e-6 for g in out.end_gaps.values())
    h = math.sqrt((R50 + R32) ** 2 - 1.1 ** 2)
    assert new.figure("r1").at == pytest.approx((14 - h, 11.1), abs=1e-6)
    for m in ("m1", "d1"):
        assert abs(gap(new.figure("r1"), new.figure(m))) <= 1e-6


def test_nominee_of_another_unit_or_target_is_refused():
    L = _two_targets()
    with pytest.raises(IllegalAction, match="not a model of target medics"):
        charge.resolve(L.state, "roaches", ["marines", "medics"], [6], target_models={"medics": "m1"})
    with pytest.raises(IllegalAction, match="not a declared target"):
        charge.resolve(L.state, "roaches", ["marines"], [6], target_models={"medics": "d1"})
    with pytest.raises(IllegalAction, match="not a model of target marines"):
        charge.resolve(L.state, "roaches", ["marines"], [6], target_models={"marines": "r2"})


def test_unnamed_targets_get_the_nearest_model():
    L = _two_targets()
    _, out = charge.resolve(L.state, "roaches", ["marines", "medics"], [6], leader="r1", target_models={"medics": "d1"})
    assert out.target_models == {"marines": "m1", "medics": "d1"}


def test_nominees_are_checked_even_when_the_charge_fails():
    L = _two_targets()
    with pytest.raises(IllegalAction, match="not a model of target medics"):
        charge.resolve(L.state, "roaches", ["marines", "medics"], [1], leader="r2", target_models={"medics": "m1"})
