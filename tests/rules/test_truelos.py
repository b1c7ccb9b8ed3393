"""True line of sight by heights (Horus Heresy 3rd, 40k 3rd): heights of pieces and models,
stacks, unit-type defaults, base contact, the area-terrain setting, and reciprocity."""

from __future__ import annotations

import pytest

from rules import truelos
from rules.systems import system
from tests.conftest import scenario

BOARD = """
tapeline: 1
system: {system}
board: {{width: 30, height: 20}}
settings: {{los_area_terrain: {area}}}
terrain:
  - {{id: wall, footprint: {{rect: [10, 2, 0.5, 16]}}, height: {wall_h}}}
  - {{id: hill, footprint: {{rect: [1, 7, 4, 6]}}, height: 3}}
  - {{id: wood, footprint: {{rect: [18, 6, 4, 8]}}, height: 4}}
units:
  - id: a
    side: x
    base: 32
    stats: {{unit_type: {type_a}}}
    models:
      - {{id: a1, at: [6.5, 10]}}
      - {{id: a2, at: [3, 10], on: hill}}
      - {{id: a3, at: [7, 16]{a3_height}}}
  - id: b
    side: y
    base: 32
    models:
      - {{id: b1, at: [14, 10]}}
      - {{id: b2, at: [20, 10]}}
      - {{id: b3, at: [10.25, 1.3]}}
"""


def board(system="heresy", area="see_out", wall_h=2.0, type_a="infantry", a3_height=""):
    return scenario(BOARD.format(system=system, area=area, wall_h=wall_h, type_a=type_a,
                                 a3_height=a3_height)).state


@pytest.mark.parametrize("sysname", ["heresy", "classic40k"])
def test_a_wall_taller_than_both_eyes_blocks(sysname):
    s = board(sysname)
    v = system(sysname).visible(s, "a1", "b1")
    assert not v.visible and v.blocked_by == [("wall", "height")]
    assert not system(sysname).visible(s, "b1", "a1").visible


def test_a_wall_lower_than_both_eyes_does_not_block():
    s = board(wall_h=1.0)  # infantry eyes at 1.25"
    assert truelos.eye(s, "a1") == pytest.approx(1.25)
    assert truelos.visible(s, "a1", "b1").visible


def test_standing_on_a_hill_sees_over_the_wall():
    # a2's eye: hill 3 + 1.25 = 4.25"; b1's 1.25". Along the centre line the segment runs from
    # x = 3.63 to x = 13.37; it leaves the 2" wall at x = 10.5, 70.5 % of the way, where the
    # sight line is at 4.25 - 3 * 0.705 = 2.13" > 2": visible both ways.
    s = board()
    assert truelos.eye(s, "a2") == pytest.approx(4.25)
    v = truelos.visible(s, "a2", "b1")
    assert v.visible and truelos.visible(s, "b1", "a2").visible


def test_partial_height_uses_the_sight_line_height_over_the_footprint():
    tall = board(wall_h=2.0, a3_height=", height: 6")
    # a3 (eye 6") at (7, 16), b1 (eye 1.25") at (14, 10): the wall is crossed ~3/7 of the way
    # from a3, where the line is at about 6 - 4.75 * 0.43 = 3.96" > 2": clear.
    assert truelos.visible(tall, "a3", "b1").visible


def test_unit_type_default_heights():
    s = board(type_a="vehicle")
    assert truelos.model_height(s, "a1") == truelos.DEFAULT_HEIGHTS["vehicle"]
    # Vehicle eye 2.5" over a 2" wall towards infantry (1.25"). Best case along the centre line:
    # from a1's near edge (x = 7.13) to b1's far edge (x = 14.63) the line leaves the wall at
    # x = 10.5, 45 % of the way: 2.5 - 1.25 * 0.45 = 1.94" < 2": blocked. A titan (8") is not.
    assert not truelos.visible(s, "a1", "b1").visible
    assert truelos.visible(board(type_a="titan"), "a1", "b1").visible


def test_area_terrain_setting():
    # b2 stands inside the 4" tall wood. see_out: the wood does not block b2's sight lines.
    assert truelos.visible(board(wall_h=0.0), "a1", "b2").visible
    v = truelos.visible(board(wall_h=0.0, area="height"), "a1", "b2")
    assert not v.visible and v.blocked_by == [("wood", "height")]


def test_base_contact_always_sees():
    s = scenario("""
    tapeline: 1
    system: heresy
    board: {width: 20, height: 20}
    terrain:
      - {id: tall, footprint: {rect: [5, 5, 10, 10]}, height: 10}
    units:
      - {id: a, side: x, base: 32, models: [{id: a1, at: [3, 10]}]}
      - {id: b, side: y, base: 32, models: [{id: b1, at: [4.2598425197, 10]}]}
    """).state
    assert truelos.visible(s, "a1", "b1").visible


def test_matrix_and_group_match_single_queries_and_are_reciprocal():
    s = board()
    M = truelos.visibility_matrix(s, "a", "b")
    for i, a in enumerate(s.unit("a").models):
        for j, b in enumerate(s.unit("b").models):
            assert M[i, j] == truelos.visible(s, a, b).visible == truelos.visible(s, b, a).visible
    group = truelos.visible_to_group(s, list(s.unit("a").models), "b")
    assert group == {b for j, b in enumerate(s.unit("b").models) if M[:, j].any()}
