"""Engagement per system, with the StarCraft exceptions (§7.2) worked out by hand."""

from __future__ import annotations

from tapeline.rules.systems import system
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
    for name in ("heresy", "classic40k"):
        st = hh(name)
        eng = system(name).engaged
        assert eng(st, "l1", "f1").engaged  # base contact
        assert eng(st, "l2", "f1").engaged  # 1.5" from l1, which is in contact
        assert not eng(st, "l3", "f1").engaged  # too far from any model in contact
        assert not eng(st, "l1", "l2").engaged  # same side
