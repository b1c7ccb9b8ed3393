"""StarCraft TMG Visible (§7.1): the rulebook's figures, Close Quarters, HIDDEN / BURROWED,
Flying, stacking, reciprocity, the unit-level queries and HIGH GROUND Cover (§7.1.3)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from tapeline.rules.starcraft.visibility import (
    high_ground_cover, visibility_matrix, visible, visible_to_group,
)
from tapeline.rules.systems import rules_for as system
from tapeline.scenarios.load import read
from tests.conftest import EXAMPLES, scenario


def ex(name):
    return read(EXAMPLES / name).state


def test_goliath_and_five_marines_behind_a_ruined_wall():
    s = ex("los-direct-cover.yaml")
    for m in ("m1", "m2"):
        for a, b in (("g1", m), (m, "g1")):
            v = visible(s, a, b)
            assert not v.visible and ("wall", "direct_cover") in v.blocked_by
            assert ("wall", "full_cover") not in v.blocked_by  # wall 2 < Goliath 3
    for m in ("m3", "m4", "m5"):
        assert visible(s, "g1", m).visible and visible(s, m, "g1").visible
    M = visibility_matrix(s, "goliath", "marines")
    assert M.visible.tolist() == [[False, False, True, True, True]]
    assert visible_to_group(s, ["g1"], "marines") == {"m3", "m4", "m5"}
    assert system("starcraft").visible(s, "g1", "m4").visible


def test_dead_zone_both_ways_and_close_quarters():
    s = ex("los-dead-zone.yaml")
    assert visible(s, "m1", "z1").blocked_by == [("cliff", "dead_zone")]
    assert not visible(s, "z1", "m1").visible
    assert visible(s, "m1", "z2").visible and visible(s, "z2", "m1").visible  # within 3"
    assert visible(s, "m1", "z3").visible


def test_stacking_marauder_wall_roach_hydralisk():
    s = ex("los-stacking.yaml")
    v = visible(s, "mr1", "r1")
    assert not v.visible and v.blocked_by == [("ruined-wall", "full_cover")]
    assert not visible(s, "r1", "mr1").visible
    assert visible(s, "mr1", "h1").visible and visible(s, "h1", "mr1").visible
    assert visible(s, "mn1", "r1").visible  # ES 6 over the ES 5 wall


def test_flying_against_a_wall_from_both_sides():
    s = ex("los-flying.yaml")
    assert visible(s, "ma", "d1").visible and visible(s, "d1", "ma").visible
    v = visible(s, "d2", "mb")
    assert not v.visible and v.blocked_by == [("wall", "direct_cover")]
    assert not visible(s, "mb", "d2").visible
    assert visible(s, "mc", "md").visible  # two Size 1 crates never add up


WALL = """
tapeline: 1
system: starcraft
board: {{width: 30, height: 20}}
terrain:
  - {{id: wall, footprint: {{rect: [10, 2, 0.5, 16]}}, size: {size}}}
units:
  - id: a
    side: x
    profile: marine
    status: {status_a}
    models: [{{id: a1, at: [{ax}, 10]}}]
  - id: b
    side: y
    profile: {profile_b}
    status: {status_b}
    models: [{{id: b1, at: [{bx}, 10]}}]
"""


def wall(size=2, ax=9.0, bx=11.5, status_a="[]", status_b="[]", profile_b="marine"):
    return scenario(WALL.format(size=size, ax=ax, bx=bx, status_a=status_a, status_b=status_b,
                                profile_b=profile_b)).state


def test_close_quarters_lifts_direct_cover_but_not_full_cover():
    # Both Marines within 1" of a Size 1 wall and within 3" of each other: Direct Cover off.
    s = wall(size=1, ax=9.0, bx=11.5)
    assert visible(s, "a1", "b1").visible
    # Size 2 wall: Full Cover (2 >= 2 and 2 >= 2) still blocks at close quarters.
    v = visible(wall(size=2, ax=9.0, bx=11.5), "a1", "b1")
    assert not v.visible and ("wall", "full_cover") in v.blocked_by
    # Farther than 3" apart: Direct Cover from the Size 2... use Size 1 vs Zergling (Size 1)
    s = wall(size=1, ax=5.0, bx=11.5, profile_b="zergling")
    v = visible(s, "a1", "b1")
    assert not v.visible and v.blocked_by == [("wall", "direct_cover")]


def test_hidden_and_burrowed_not_visible_beyond_4_inches():
    s = wall(size=0, ax=3.0, bx=11.5, status_b="[hidden]")
    v = visible(s, "a1", "b1")
    assert not v.visible and v.blocked_by == [(None, "hidden")]
    assert not visible(s, "b1", "a1").visible
    assert visible(wall(size=0, ax=8.0, bx=11.5, status_b="[hidden]"), "a1", "b1").visible
    # BURROWED counts as Size 0: behind a Size 1 wall within 1" it gets Direct Cover (1 >= 0)
    # from 2.9" away (not beyond 4", so HIDDEN does not apply yet).
    s = wall(size=1, ax=7.0, bx=11.5, status_b="[burrowed]", profile_b="roach")
    v = visible(s, "a1", "b1")
    assert not v.visible and ("wall", "direct_cover") in v.blocked_by
    assert visible(s, "a1", "b1").visible == visible(s, "b1", "a1").visible


def test_high_ground_cover():
    s = ex("los-dead-zone.yaml")
    assert high_ground_cover(s, "marine", ["z1", "z3"])  # Zerglings below fire up at it
    assert not high_ground_cover(s, "zerglings", ["m1"])  # target not on High Ground
    s2 = ex("los-stacking.yaml")
    assert not high_ground_cover(s2, "marine", ["mr1"])  # firer on High Ground too
    assert high_ground_cover(s2, "marine", ["mr1", "r1"])  # one firer below is enough


def test_visible_to_group_is_the_union():
    s = ex("los-flying.yaml")
    seen = visible_to_group(s, ["ma", "d2"], "drones")
    assert seen == {m for m in ("d1", "d2") if visible(s, "ma", m).visible or visible(s, "d2", m).visible}


# --- reciprocity and batch = single on random boards -----------------------------------------

PROFILES = ["marine", "zergling", "goliath", "roach", "point-defense-drone"]


@st.composite
def random_board(draw):
    pieces, units = [], []
    for i in range(draw(st.integers(1, 4))):
        x, y = draw(st.floats(6, 20)), draw(st.floats(2, 16))
        w, h = draw(st.floats(0.3, 3)), draw(st.floats(0.3, 5))
        pieces.append(f"  - {{id: p{i}, footprint: {{rect: [{x}, {y}, {w}, {h}]}}, size: {draw(st.integers(0, 4))}, traits: [passable]}}")
    spots = [(2, 3), (2, 9), (2, 15), (26, 3), (26, 9), (26, 15), (14, 2), (14, 18)]
    chosen = draw(st.lists(st.sampled_from(range(len(spots))), min_size=2, max_size=4, unique=True))
    for k, idx in enumerate(chosen):
        prof = draw(st.sampled_from(PROFILES))
        st_ = draw(st.sampled_from(["[]", "[hidden]"]))
        size = ", size: 1" if prof == "point-defense-drone" else ""
        x, y = spots[idx]
        units.append(f"  - {{id: u{k}, side: s{k}, profile: {prof}{size}, status: {st_}, models: [{{id: m{k}, at: [{x}, {y}]}}]}}")
    text = ("tapeline: 1\nsystem: starcraft\nboard: {width: 28, height: 20}\nterrain:\n" + "\n".join(pieces)
            + "\nunits:\n" + "\n".join(units) + "\n")
    return scenario(text).state


@settings(max_examples=40, deadline=None)
@given(random_board())
def test_visibility_is_reciprocal_and_batch_equals_single(s):
    ids = [m for u in s.units for m in u.models]
    for a in ids:
        for b in ids:
            if a < b:
                assert visible(s, a, b).visible == visible(s, b, a).visible
    units = [u.id for u in s.units]
    M = visibility_matrix(s, units[0], units[1])
    assert M.visible[0, 0] == visible(s, s.unit(units[0]).models[0], s.unit(units[1]).models[0]).visible
