"""Levels joined at Access Points: cells, doors and walls; paths that climb and descend, checked
against an independent shortest-path computation; a change of level away from an Access Point.

The independent computation (:func:`independent_length`) knows nothing of board.levels,
board.space or board.paths: the walls between levels are written out by hand from the
scenario's numbers, grown with shapely buffers, and the shortest path is a visibility graph
over the free polygon's corners (networkx Dijkstra). Growing with an *inscribed* buffer makes
the free space slightly larger (a lower bound on the true length), a *circumscribed* one
slightly smaller (an upper bound): the exact length must lie between the two.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapeline.board.levels import Levels, levels_of
from tapeline.board.pathcheck import check_path
from tapeline.board.paths import Reach
from tapeline.board.space import Space
from tapeline.board.table import Table
from tapeline.board.terrain import Join, Piece
from tapeline.scenarios.load import ScenarioError
from tests.conftest import scenario

RHO = 0.5
AP = frozenset({"access_point"})


def mesa_table(joins=True):
    """A 30 × 20 table: a Size 3 mesa (x 10..22, y 8..17) and a Size 1 ramp (x 13..17, y 5..8)
    at its south edge, its foot y = 5 and its top y = 8."""
    mesa = Piece.rect("mesa", 10, 8, 12, 9, size=3)
    j = (Join(None, "ramp", ((13, 5), (17, 5))), Join("ramp", "mesa", ((13, 8), (17, 8)))) if joins else ()
    ramp = Piece.rect("ramp", 13, 5, 4, 3, size=1, traits=AP, joins=j)
    return Table(30, 20, (mesa, ramp))


#: The same walls written out by hand: the mesa's outline less the ramp's top (x 13..17 at
#: y = 8), and the ramp's two sides.
HAND_WALLS = [
    shapely.LineString([(13, 8), (10, 8), (10, 17), (22, 17), (22, 8), (17, 8)]),
    shapely.LineString([(13, 5), (13, 8)]),
    shapely.LineString([(17, 5), (17, 8)]),
]


def space_of(table, rho=RHO):
    return Space(table.width, table.height, rho, levels_of(table).obstacles(rho))


def _vis_length(free, a, b) -> float:
    """Shortest path from a to b inside polygon ``free`` (visibility graph of its corners)."""
    rings = [free.exterior] + list(free.interiors) if free.geom_type == "Polygon" else [r for p in free.geoms for r in [p.exterior, *p.interiors]]
    verts = np.concatenate([np.asarray(r.coords)[:-1] for r in rings])
    pts = np.concatenate([np.array([a, b], dtype=float), verts])
    i, j = np.triu_indices(len(pts), 1)
    segs = shapely.linestrings(np.stack([pts[i], pts[j]], axis=1))
    shapely.prepare(free)
    ok = shapely.covers(free, segs)
    G = nx.Graph()
    G.add_weighted_edges_from(zip(i[ok].tolist(), j[ok].tolist(), np.hypot(*(pts[i] - pts[j]).T)[ok].tolist()))
    try:
        return nx.dijkstra_path_length(G, 0, 1)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return math.inf


def _free(walls, W, H, rho, grow, k):
    blocked = shapely.union_all([shapely.buffer(w, grow, quad_segs=k) for w in walls])
    return shapely.difference(shapely.box(rho, rho, W - rho, H - rho), blocked)


def independent_length(walls, a, b, W=30, H=20, rho=RHO, k=8):
    """(lower, upper) bounds on the shortest path from a to b among ``walls`` grown by rho
    (the buffers inscribed in, then circumscribed about, the true grown walls)."""
    out = []
    for grow in (rho, rho / math.cos(math.pi / (4 * k))):
        free = _free(walls, W, H, rho, grow, k)
        part = next((p for p in shapely.get_parts(free) if p.covers(shapely.Point(a))), None)
        out.append(_vis_length(part, a, b) if part is not None and part.covers(shapely.Point(b)) else math.inf)
    return out[0], out[1]


# --- cells, doors, walls -----------------------------------------------------------------

def test_cells_doors_and_walls_of_a_ramp_onto_a_mesa():
    lv = Levels(mesa_table())
    assert lv.surfaces == ("mesa", "ramp")
    assert [(d.a, d.b, d.line.length) for d in lv.doors] == [(None, "ramp", 4.0), ("ramp", "mesa", 4.0)]
    # walls: the mesa's outline but the ramp's top (42 − 4 = 38"), the ramp's sides (3" each)
    assert sum(w.line.length for w in lv.walls) == pytest.approx(38 + 6, abs=1e-6)
    assert {w.upper for w in lv.walls} == {"mesa", "ramp"}
    assert lv.surface_at([[5, 5], [15, 6], [15, 12], [15, 8.0]]) == [None, "ramp", "mesa", "mesa"]


def test_connected_levels_follow_the_access_points():
    # by hand: the ramp joins the ground to itself and itself to the mesa; a box with no Access
    # Point is reached from nowhere and reaches nothing
    box = Piece.rect("box", 1, 1, 2, 2, size=1, traits=frozenset({"standable"}))
    t = mesa_table()
    lv = Levels(Table(30, 20, t.pieces + (box,)))
    assert lv.connected(None) == [None, "mesa", "ramp"]
    assert lv.connected("mesa") == ["mesa", None, "ramp"]
    assert lv.connected("box") == ["box"]


def test_a_ladder_without_joins_joins_the_ground_to_the_piece_it_touches():
    hill = Piece.rect("hill", 10, 0, 10, 10, size=3)
    ladder = Piece.rect("ladder", 8.5, 4, 1.5, 2, traits=AP)
    lv = Levels(Table(20, 10, (hill, ladder)))
    (d,) = lv.doors
    assert (d.via, d.a, d.b) == ("ladder", None, "hill")
    assert shapely.get_coordinates(d.line).tolist() in ([[10, 4], [10, 6]], [[10, 6], [10, 4]])


def test_a_ramp_without_joins_is_entered_along_its_free_edges():
    lv = Levels(mesa_table(joins=False))
    lens = sorted((d.a, d.b, round(d.line.length, 9)) for d in lv.doors if d.a is None)
    assert lens == [(None, "ramp", 10.0)]  # three free sides: 3 + 4 + 3


def test_a_standable_piece_with_no_access_point_is_closed():
    box = Piece.rect("box", 5, 5, 4, 4, size=1, traits=frozenset({"standable"}))
    lv = Levels(Table(20, 20, (box,)))
    assert lv.doors == () and lv.walls[0].line.is_closed


@pytest.mark.parametrize("joins, where, message", [
    ("[{levels: [ground, hill], at: [[1, 1], [2, 1]]}]", "terrain[1].joins[0]", "share no edge"),
    ("[{levels: [ground, nowhere]}]", "terrain[1].joins[0].levels[1]", "no terrain piece with id 'nowhere'"),
    ("[{levels: [hill, hill]}]", "terrain[1].joins[0]", "two different levels"),
])
def test_bad_joins_are_located_errors(joins, where, message):
    text = f"""
        tapeline: 1
        system: starcraft
        board: {{width: 20, height: 10}}
        terrain:
          - {{id: hill, footprint: {{rect: [10, 0, 10, 10]}}, size: 3}}
          - {{id: ladder, footprint: {{rect: [9, 4, 1, 2]}}, traits: [access_point], joins: {joins}}}
        units: []
        """
    with pytest.raises(ScenarioError) as e:
        scenario(text)
    assert where in str(e.value) and message in str(e.value)


def test_joins_need_the_access_point_trait():
    with pytest.raises(ScenarioError, match=r"terrain\[1\].joins.*access_point"):
        scenario("""
            tapeline: 1
            system: starcraft
            board: {width: 20, height: 10}
            terrain:
              - {id: hill, footprint: {rect: [10, 0, 10, 10]}, size: 3}
              - {id: ladder, footprint: {rect: [9, 4, 1, 2]}, joins: [{levels: [ground, hill]}]}
            units: []
            """)


# --- paths across levels -------------------------------------------------------------------

def test_straight_up_the_ramp_by_hand():
    # From (15, 2) on the ground straight north through the foot (y 5), up the ramp, through
    # its top (y 8) to (15, 12) on the mesa: 10", nothing in the way (the ramp's sides are
    # 2" away, more than ρ).
    p = Reach(space_of(mesa_table()), (15, 2)).to_point((15, 12))
    assert p.length == pytest.approx(10.0, abs=1e-12)


def test_onto_the_mesa_round_the_ramp_side_matches_the_hand_computation():
    # From (20, 4) to (15, 12): round the end of the ramp's east side (17, 5) (a circle of
    # radius ρ), then straight to the goal through the top door. Tangent from the start, the
    # arc, tangent to the goal.
    a, b, c = np.array((20.0, 4.0)), np.array((15.0, 12.0)), np.array((17.0, 5.0))
    p = Reach(space_of(mesa_table()), a).to_point(b)
    ta, tb = math.sqrt(np.sum((a - c) ** 2) - RHO**2), math.sqrt(np.sum((b - c) ** 2) - RHO**2)
    ang_a = math.atan2(*(a - c)[::-1]) - math.acos(RHO / np.linalg.norm(a - c))
    ang_b = math.atan2(*(b - c)[::-1]) + math.acos(RHO / np.linalg.norm(b - c))
    arc = RHO * ((ang_a - ang_b) % (2 * math.pi))
    assert p.length == pytest.approx(ta + arc + tb, abs=1e-9)
    lo, hi = independent_length(HAND_WALLS, a, b)
    assert lo - 1e-9 <= p.length <= hi + 1e-9


def test_no_way_onto_a_mesa_without_an_access_point():
    mesa = Piece.rect("mesa", 10, 8, 12, 9, size=3, traits=frozenset({"standable"}))
    s = Space(30, 20, RHO, Levels(Table(30, 20, (mesa,))).obstacles(RHO))
    assert Reach(s, (5, 5)).to_point((15, 12)) is None


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.floats(1, 29), st.floats(1, 19), st.floats(10.6, 21.4), st.floats(8.6, 16.4))
def test_climbing_agrees_with_the_independent_computation(ax, ay, bx, by):
    """Random starts anywhere clear on the table, goals on the mesa: the exact length lies
    between the independent lower and upper bounds; the path is legal by the validator."""
    space = space_of(mesa_table())
    a = (ax, ay)
    if not space.clear_points([a])[0] or not space.clear_points([(bx, by)])[0]:
        return
    p = Reach(space, a).to_point((bx, by))
    lo, hi = independent_length(HAND_WALLS, a, (bx, by))
    assert (p is None) == math.isinf(lo)
    if p is None:
        return
    assert lo - 1e-9 <= p.length <= hi + 1e-9
    assert check_path(space, p.points()).legal


def test_a_path_changing_level_away_from_an_access_point_is_illegal_and_located():
    space = space_of(mesa_table())
    # west of the mesa straight east onto it: crosses the mesa's west edge x = 10 at y = 12
    c = check_path(space, [(5, 12), (15, 12)])
    assert not c.legal
    v = c.violation
    assert v.kind == "changes_level" and v.obstacle == "mesa"
    assert v.at == pytest.approx((10, 12), abs=1e-9)
    assert "away from any Access Point" in v.detail
    # stepping off the ramp's side: crosses x = 17 at y = 6.5
    c = check_path(space, [(15, 6.5), (19, 6.5)])
    assert c.violation.kind == "changes_level" and c.violation.obstacle == "ramp"
    assert c.violation.at == pytest.approx((17, 6.5), abs=1e-9)
    # through the doors it is legal
    assert check_path(space, [(15, 2), (15, 12)]).legal


def test_a_door_narrower_than_the_gap_clearance_cannot_be_passed():
    # a 0.9" wide ladder: a Size 3 unit (ρ = 1.5) or even ρ = 0.5 cannot get through
    hill = Piece.rect("hill", 10, 0, 10, 10, size=3)
    ladder = Piece.rect("ladder", 9, 4, 1, 0.9, traits=AP)
    s = space_of(Table(20, 10, (hill, ladder)))
    assert Reach(s, (5, 4.45)).to_point((15, 4.45)) is None
    wide = Piece.rect("ladder", 9, 4, 1, 1.1, traits=AP)
    p = Reach(space_of(Table(20, 10, (hill, wide))), (5, 4.55)).to_point((15, 4.55))
    assert p.length == pytest.approx(10.0, abs=1e-12)


def test_levels_are_kept_with_their_table_within_a_bound(monkeypatch):
    """levels_of finds the levels a Levels(table) made (a file's check builds them; a move's
    question then uses them); a table made by dataclasses.replace keeps none of its original's;
    past the bound, levels are built and not kept, equal all the same."""
    from dataclasses import replace

    from tapeline.board import table as table_module

    t = mesa_table()
    made = Levels(t)
    assert levels_of(t) is made and levels_of(t, ()) is made
    assert levels_of(t, ["ramp"]) is levels_of(t, ["ramp"])  # the ramp is a surface already
    other = replace(t, pieces=t.pieces[:1])
    assert levels_of(other) is not made and levels_of(other).surfaces == ()
    monkeypatch.setattr(table_module, "LEVELS_KEPT", 1)
    u = Table(30, 20, t.pieces + (Piece.rect("crate", 2, 2, 2, 2, size=2),))  # a level only if asked
    first = levels_of(u)
    assert levels_of(u) is first and "crate" not in first.surfaces
    again = [levels_of(u, ["crate"]) for _ in range(2)]  # a second set of surfaces: past the bound
    assert again[0] is not again[1] and "crate" in again[0].surfaces
    assert [(d.via, d.a, d.b, d.line.wkt) for d in again[0].doors] == [(d.via, d.a, d.b, d.line.wkt) for d in again[1].doors]
