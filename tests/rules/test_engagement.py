"""Engagement per system, with the StarCraft exceptions (§7.2) worked out by hand."""

from __future__ import annotations

from tapeline.rules.systems import rules_for as system
from tests.conftest import scenario

R32 = 16 / 25.4  # radius of a 32 mm base


def sc(extra_terrain: str, a_at, b_at, a_on="null", b_on="null", b_tags="[ground, light, biological]"):
    return scenario(
        f"""
        tapeline: 1
        system: starcraft
        board: {{width: 24, height: 24}}
        terrain: {extra_terrain}
        units:
          - {{id: t, side: terran, profile: marine, models: [{{id: a, at: {list(a_at)}, on: {a_on}}}]}}
          - {{id: z, side: zerg, profile: zergling, tags: {b_tags}, models: [{{id: b, at: {list(b_at)}, on: {b_on}}}]}}
        """
    ).state


def test_open_ground_within_one_inch_engages():
    # centres 2·r + 0.5 apart: gap 0.5"
    st = sc("[]", (10, 10), (10 + 2 * R32 + 0.5, 10))
    e = system("starcraft").engaged(st, "a", "b")
    assert e.engaged and e.in_range.ok
    assert abs(e.in_range.margin - 0.5) < 1e-9


def test_size2_wall_between_bases_half_inch_apart_prevents_engagement():
    # the 0.5" gap runs from x = 10 + r to x = 10.5 + r; a thin Size 2 wall fills it across
    x0 = 10 + R32
    wall = f"[{{id: wall, footprint: {{rect: [{x0 + 0.1}, 5, 0.3, 10]}}, size: 2}}]"
    st = sc(wall, (10, 10), (10 + 2 * R32 + 0.5, 10))
    e = system("starcraft").engaged(st, "a", "b")
    assert e.in_range.ok and not e.engaged and e.reason == "terrain"


def test_size1_barricade_between_does_not_prevent():
    x0 = 10 + R32
    wall = f"[{{id: low, footprint: {{rect: [{x0 + 0.1}, 5, 0.3, 10]}}, size: 1}}]"
    st = sc(wall, (10, 10), (10 + 2 * R32 + 0.5, 10))
    assert system("starcraft").engaged(st, "a", "b").engaged


def test_wall_off_to_the_side_does_not_prevent():
    x0 = 10 + R32
    wall = f"[{{id: wall, footprint: {{rect: [{x0 + 0.1}, 10.5, 0.3, 5]}}, size: 2}}]"
    st = sc(wall, (10, 10), (10 + 2 * R32 + 0.5, 10))
    assert system("starcraft").engaged(st, "a", "b").engaged


def test_high_ground_vs_ground_level_not_engaged():
    # a Size 3 cliff whose edge is at x = 12; the Marine stands wholly on it near the edge,
    # the Zergling at its foot 0.4" away
    cliff = "[{id: cliff, footprint: {rect: [12, 0, 12, 24]}, size: 3}]"
    st = sc(cliff, (12 - R32 - 0.4, 10), (12 + R32 + 0.05, 10), b_on="cliff")
    e = system("starcraft").engaged(st, "a", "b")
    assert e.in_range.ok and not e.engaged and e.reason == "elevation"


def test_same_high_ground_engages():
    cliff = "[{id: cliff, footprint: {rect: [2, 2, 20, 20]}, size: 3}]"
    st = sc(cliff, (10, 10), (10 + 2 * R32 + 0.5, 10), a_on="cliff", b_on="cliff")
    assert system("starcraft").engaged(st, "a", "b").engaged


def test_flying_never_engages():
    st = sc("[]", (10, 10), (10 + 2 * R32 + 0.2, 10), b_tags="[flying, light]")
    e = system("starcraft").engaged(st, "a", "b")
    assert not e.engaged and e.reason == "flying"


def hh(system_name: str):
    return scenario(
        f"""
        tapeline: 1
        system: {system_name}
        board: {{width: 24, height: 24}}
        units:
          - id: legion
            side: a
            base: 32
            models:
              - {{id: l1, at: [10, 10]}}
              - {{id: l2, at: [10, {10 - 2 * R32 - 1.5}]}}
              - {{id: l3, at: [10, {10 - 4 * R32 - 6}]}}
          - id: foe
            side: b
            base: 32
            models: [{{id: f1, at: [{10 + 2 * R32}, 10]}}]
        """
    ).state


def test_heresy_base_contact_and_two_inch_support():
    st = hh("heresy")
    eng = system("heresy").engaged
    assert eng(st, "l1", "f1").engaged  # base contact
    assert eng(st, "l2", "f1").engaged  # 1.5" from l1, which is in contact
    assert not eng(st, "l3", "f1").engaged  # too far from any model in contact
    assert not eng(st, "l1", "l2").engaged  # same side


def lone_pair(system_name: str, gap: float):
    """One model of each side, ``gap`` inches apart edge to edge, nobody in base contact."""
    return scenario(
        f"""
        tapeline: 1
        system: {system_name}
        board: {{width: 24, height: 24}}
        units:
          - {{id: a, side: red, base: 32, models: [{{id: a1, at: [10, 10]}}, {{id: a2, at: [10, 5]}}]}}
          - {{id: b, side: blue, base: 32, models: [{{id: b1, at: [{10 + 2 * R32 + gap}, 10]}}]}}
        """
    ).state


def test_40k_every_model_within_two_inches_of_an_enemy_fights():
    # 1.5" from the enemy and no unit-mate in base contact: 40k 3rd fights (seed "Who Can
    # Fight"), Horus Heresy does not (§A.1 needs a unit-mate in base contact)
    st = lone_pair("classic40k", 1.5)
    e = system("classic40k").engaged(st, "a1", "b1")
    assert e.engaged and e.in_range.ok and abs(e.in_range.margin - 0.5) < 1e-9
    assert not system("heresy").engaged(lone_pair("heresy", 1.5), "a1", "b1").engaged
    assert not system("classic40k").engaged(lone_pair("classic40k", 2.01), "a1", "b1").engaged
    assert system("classic40k").engaged(lone_pair("classic40k", 2.0), "a1", "b1").engaged
    assert not system("classic40k").engaged(st, "a1", "a2").engaged  # same side


def test_40k_fighters_and_casualty_order():
    from tapeline.rules.classic40k.engagement import casualty_tiers, default_casualty_order, fighters

    st = hh("classic40k")
    # l1 touches f1; l2 is 1.774" from f1 (centres (0, 2r + 1.5) and (2r, 0) apart); l3 is far
    assert fighters(st, "legion") == ["l1", "l2"]
    assert fighters(st, "foe") == ["f1"]
    assert casualty_tiers(st, "legion") == (["l1"], ["l2"], ["l3"])
    assert default_casualty_order(st, "legion") == ["l1", "l2", "l3"]


def test_measure_reports_40k_engagement_at_two_inches(write):
    from tests.conftest import cli_json

    f = write(
        f"""
        tapeline: 1
        system: classic40k
        board: {{width: 24, height: 24}}
        units:
          - {{id: a, side: red, base: 32, models: [{{id: a1, at: [10, 10]}}]}}
          - {{id: b, side: blue, base: 32, models: [{{id: b1, at: [{10 + 2 * R32 + 1.5}, 10]}}]}}
        """
    )
    code, out = cli_json("measure", f, "a1", "b1")
    assert code == 0
    assert out["contact"] is False and out["engagement_range"] is True and out["engaged"] is True
    assert abs(out["gap"] - 1.5) < 1e-9 and out["engagement_distance"] == 2.0
