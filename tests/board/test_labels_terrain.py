"""Labels kept off the terrain (board/labels.py): a hard constraint while a clear spot exists,
found on the wider rings when the near ones are all covered, and the least-overlapping spot
only when the whole table is terrain."""

from __future__ import annotations

import shapely

from tapeline.board.labels import RADII, WIDE, Placer, text_box
from tapeline.board.terrain import Piece


def test_a_label_goes_past_a_wide_piece_to_the_first_clear_spot_and_is_led_back():
    """A 28" × 10" wall over the left of a 40" × 10" table, the label meant for (5, 5): a box
    on the near rings (out to 9.5") starts left of x = 5 + 9.5 + a half-width < 28", over the
    wall; the first clear spot is right of x = 28, on the wider rings."""
    wall = Piece.rect("wall", 0, 0, 28, 10)
    p = Placer([], [wall], shapely.box(0, 0, 40, 10))
    spot = p.place(5, 5, ["a label"])
    assert spot.box.intersection(wall.footprint).area == 0
    assert spot.box.within(shapely.box(0, 0, 40, 10))
    assert spot.box.bounds[0] >= 28 and 5 + RADII[-1] < spot.x <= 5 + WIDE[-1] + 2
    assert spot.leader is not None and spot.leader[1] == (5.0, 5.0)  # led back to its point


def test_near_terrain_the_label_moves_off_it():
    """A small piece right under the point: the label goes beside it, not on it."""
    crate = Piece.rect("crate", 4, 4, 2, 2)
    p = Placer([], [crate], shapely.box(0, 0, 20, 20))
    spot = p.place(5, 5, ["m1 sees z1"])
    assert spot.box.intersection(crate.footprint).area == 0


def test_a_terrain_label_may_sit_on_its_own_piece_not_on_another():
    big = Piece.rect("big", 0, 0, 10, 10)
    other = Piece.rect("other", 3, 4, 4, 0.4)  # a strip across big's middle
    p = Placer([], [big, other], shapely.box(0, 0, 20, 20))
    spot = p.place(5, 4.2, ["big", "S3"], bold=True, own="big")
    assert spot.box.within(big.footprint)
    assert spot.box.intersection(other.footprint).area == 0


def test_a_table_of_terrain_takes_the_least_overlapping_spot():
    """Terrain over the whole table: no spot is clear, every box is all over terrain or off the
    table, so the label stays at its point (the nearest of equal overlaps)."""
    floor = Piece.rect("floor", 0, 0, 12, 12)
    p = Placer([], [floor], shapely.box(0, 0, 12, 12))
    spot = p.place(6, 6, ["x"])
    assert (spot.x, spot.y) == (6.0, 6.0) and spot.box.equals(text_box(6, 6, ["x"]))
