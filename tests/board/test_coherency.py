"""Coherency graphs and placement around a Leading Model."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from tapeline.board.bases import RoundBase
from tapeline.board.coherency import chain_coherency, leader_coherency
from tapeline.board.measure import far, gap
from tapeline.board.placement import place_around
from tapeline.board.space import Space, polygon_obstacle
from tapeline.board.table import Figure, Table
from tapeline.board.terrain import Piece

R32 = RoundBase(32).radius


def fig(i, x, y, unit="u", side="a", mm=32):
    return Figure(i, unit, side, RoundBase(mm), x, y)


def test_chain_coherency_names_the_straggler_and_by_how_much():
    f = [fig("a", 1, 5), fig("b", 3, 5), fig("c", 5, 5), fig("d", 10, 5)]
    c = chain_coherency(f, 2.0)
    assert not c.ok and list(c.out) == ["d"]
    assert c.excess["d"] == pytest.approx(5 - 2 * R32 - 2.0)
    assert chain_coherency(f[:3], 2.0).ok


def test_leader_coherency_wholly_within_and_links():
    f = [fig("l", 5, 5), fig("a", 7, 5), fig("b", 5, 8.5)]
    c = leader_coherency(f, "l", 3.0)
    # b: centre 3.5" away: its far edge is 3.5 + r − r = 3.5" from the leader's edge... wholly
    # within 3" fails by 0.5".
    assert list(c.out) == ["b"] and c.excess["b"] == pytest.approx(0.5)
    # A wall between l and a cuts their link; a is still linked through b only if b links.
    wall = Space(20, 20, 0.5, [polygon_obstacle("w", "terrain", shapely.box(5.9, 3, 6.1, 7), 0.5)])
    c = leader_coherency(f[:2], "l", 3.0, wall.clear_segments)
    assert c.out == {"a": "no coherency link to the Leading Model l"} and c.excess["a"] is None
    c = leader_coherency([fig("l", 5, 5), fig("a", 7.5, 5)], "l", 4.0, None, link_max=1.0)
    assert "a" in c.out  # 2.5 − 2r = 1.24" link is longer than 1"


def test_placement_priority_contact_then_close_and_all_legal():
    table = Table(30, 30, (Piece.rect("w", 12, 14, 1, 6, size=2),))
    leader = fig("l", 10, 10)
    target = fig("t", 10 + 2 * R32 + 1e-7, 10, unit="enemy", side="b")   # leader in contact
    other = fig("o", 6, 14, unit="enemy2", side="b")
    movers = [fig(f"m{i}", 3 + i, 3) for i in range(5)]
    pl = place_around(leader, movers, table, [target, other], table.pieces, [target], [(other, 1.0)], 3.0)
    assert not pl.unplaced
    placed = [leader] + [m.moved(*pl.positions[m.id]) for m in movers]
    assert pl.tiers["m0"] == "A"
    order = ["ABC".index(pl.tiers[m.id]) for m in movers]
    assert order == sorted(order)
    for i, a in enumerate(placed):
        assert gap(a, target) >= -1e-6 and gap(a, other) > 1.0
        assert -shapely.distance(shapely.Point(a.at), table.pieces[0].footprint) + R32 <= 1e-6
        assert far(a, leader) <= 3.0 + 1e-6
        for b in placed[i + 1:]:
            assert gap(a, b) >= -1e-6
    contact = [m for m in placed[1:] if abs(gap(m, target)) <= 1e-5]
    assert len(contact) >= 2


def test_placement_reports_models_that_cannot_be_set():
    # A 3x3 table: the leader fills the middle; nothing else fits.
    table = Table(2.6, 1.4)
    leader = fig("l", 1.3, 0.7)
    pl = place_around(leader, [fig("m", 0, 0)], table)
    assert "m" in pl.unplaced
