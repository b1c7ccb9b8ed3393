"""Shortest paths in configuration space: analytic cases by hand, properties, validation."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapeline.board.pathcheck import check_path
from tapeline.board.paths import Reach, shortest_path
from tapeline.board.regions import Region
from tapeline.board.space import Obstacle, Space, disc_obstacle, polygon_obstacle

RHO = 0.5


def block_space(*boxes, discs=(), W=30, H=30, rho=RHO):
    obs = [polygon_obstacle(f"b{i}", "terrain", shapely.box(*b), rho) for i, b in enumerate(boxes)]
    obs += [disc_obstacle(f"d{i}", "model", x, y, r, rho) for i, (x, y, r) in enumerate(discs)]
    return Space(W, H, rho, obs)


def tangent(p, c, R):
    return math.sqrt(math.dist(p, c) ** 2 - R * R)


def test_around_one_corner_of_a_square_block():
    # Block [8,12]²; from (10,6) to (6,10) the straight line grazes corner (8,8): the path is
    # tangent, arc of radius ρ around the corner, tangent.
    s = block_space((8, 8, 12, 12))
    p = shortest_path(s, (10, 6), (6, 10))
    D = math.hypot(2, 2)
    alpha = math.acos(RHO / D)
    arc = RHO * (math.pi - 2 * alpha)
    assert p.length == pytest.approx(2 * tangent((10, 6), (8, 8), RHO) + arc, abs=1e-9)
    assert [l.kind for l in p.legs] == ["line", "arc", "line"]


def test_around_a_square_block_two_corners_and_an_edge():
    # From (10,6) to (10,14) round the left side: tangent, arc at (8,8), the grown edge x = 7.5
    # (4"), arc at (8,12), tangent. The arc runs from the tangent point to the edge normal (180°).
    s = block_space((8, 8, 12, 12))
    p = shortest_path(s, (10, 6), (10, 14))
    D = math.hypot(2, 2)
    theta_t = math.radians(-45) - math.acos(RHO / D)  # tangent point angle on the corner circle
    arc = (theta_t % (2 * math.pi)) - math.pi
    want = 2 * tangent((10, 6), (8, 8), RHO) + 2 * RHO * arc + 4
    assert p.length == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize("g", [1.01, 0.99])
def test_gap_just_wider_passes_just_narrower_goes_round(g):
    # Two blocks leave a gap g between them; clearance 1" (ρ = 0.5).
    s = block_space((9, 4, 11, 10), (9, 10 + g, 11, 16 + g))
    a, b = (5, 10 + g / 2), (15, 10 + g / 2)
    p = shortest_path(s, a, b)
    if g > 1:
        assert p.length == pytest.approx(10.0, abs=1e-12)
        return
    # Round the lower block: tangent to corner (9,4), arc to the grown bottom edge y = 3.5, 2",
    # arc, tangent (symmetric).
    c = (9, 4)
    th = math.atan2(a[1] - c[1], a[0] - c[0])
    t_ang = th + math.acos(RHO / math.dist(a, c))
    phi = 1.5 * math.pi - t_ang
    want = 2 * (tangent(a, c, RHO) + RHO * phi) + 2
    assert p.length == pytest.approx(want, abs=1e-9)
    assert not s.clear_segments([a], [b])[0]


def test_around_a_round_obstacle_tangent_arc_tangent():
    s = block_space(discs=[(10, 10, 1.5)])
    p = shortest_path(s, (5, 10), (15, 10))
    R, D = 2.0, 5.0
    assert p.length == pytest.approx(2 * math.sqrt(D * D - R * R) + R * (math.pi - 2 * math.acos(R / D)), abs=1e-9)
    assert [l.kind for l in p.legs] == ["line", "arc", "line"]


def test_no_path_when_a_wall_spans_the_table():
    s = block_space((9, 0, 11, 30))
    assert shortest_path(s, (5, 5), (15, 5)) is None


def test_region_distance_matches_brute_force_over_the_goal_outline():
    r = 0.63
    s = Space(30, 30, RHO, [polygon_obstacle("w", "terrain", shapely.box(12, 5, 13, 15), RHO),
                            disc_obstacle("t", "model", 20, 10, r, RHO)])
    reg = Region(near=(((shapely.Point(20, 10), 2 * r + 1),),),
                 far=((shapely.Point(20, 10), 2 * r), (shapely.box(12, 5, 13, 15), r)), box=(r, r, 30 - r, 30 - r))
    R = Reach(s, (5, 10))
    p = R.to_region(reg)
    assert reg.contains([p.end])[0]
    brute = min(R.to_point((20 + (2 * r + 1) * math.cos(t), 10 + (2 * r + 1) * math.sin(t))).length
                for t in np.linspace(0, 2 * math.pi, 241))
    assert p.length <= brute + 1e-9
    assert p.length >= brute - 1e-2


def test_region_straight_line_case_is_exact():
    # Nothing between: the distance is the centre distance minus the reach.
    reg = Region(near=(((shapely.Point(20, 10), 2.5),),), box=(0, 0, 30, 30))
    p = Reach(Space(30, 30, RHO, []), (5, 10)).to_region(reg)
    assert p.length == pytest.approx(12.5, abs=1e-9)
    assert p.end == pytest.approx((17.5, 10))


# --- properties ------------------------------------------------------------------------------

coord = st.floats(1.0, 29.0, allow_nan=False)
boxes = st.lists(st.tuples(st.floats(2, 26), st.floats(2, 26), st.floats(0.5, 4), st.floats(0.5, 4)), max_size=4)
discs = st.lists(st.tuples(st.floats(2, 28), st.floats(2, 28), st.floats(0.3, 1.5)), max_size=3)


def _space(bs, ds):
    return block_space(*[(x, y, x + w, y + h) for x, y, w, h in bs], discs=ds)


def _independent_clear(space, pts, tol=1e-6):
    """Every vertex and segment of the polyline keeps its clearance from every core, checked
    obstacle by obstacle without the space's index, plus the table box."""
    line = shapely.LineString(pts) if len(pts) > 1 else shapely.Point(pts[0])
    for o in space.obstacles:
        if shapely.distance(line, o.core) < o.grow - tol:
            return False
    a = np.array(pts)
    x0, y0, x1, y1 = space.box
    return bool((a[:, 0] >= x0 - tol).all() and (a[:, 0] <= x1 + tol).all() and (a[:, 1] >= y0 - tol).all() and (a[:, 1] <= y1 + tol).all())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(boxes, discs, coord, coord, coord, coord)
def test_path_properties(bs, ds, ax, ay, bx, by):
    s = _space(bs, ds)
    a, b = (ax, ay), (bx, by)
    if not (s.clear_points([a])[0] and s.clear_points([b])[0]):
        return
    p = shortest_path(s, a, b)
    q = shortest_path(s, b, a)
    assert (p is None) == (q is None)
    if p is None:
        return
    assert p.length >= math.dist(a, b) - 1e-9                    # never shorter than straight
    assert p.length == pytest.approx(q.length, abs=1e-7)          # A→B as long as B→A
    assert p.end == pytest.approx(b) and tuple(p.start) == pytest.approx(a)
    pts = p.points()
    check = check_path(s, pts)
    assert check.legal, check.violation                          # our own validator
    assert _independent_clear(s, pts)                            # and an independent check
    assert check.length == pytest.approx(p.length, abs=1e-3)     # circumscribed arcs: tiny excess
    assert check.length >= p.length - 1e-9


# --- validation ------------------------------------------------------------------------------

def test_validator_locates_the_first_violation():
    s = block_space((9, 0, 11, 12), discs=[(20, 20, 0.63)])
    c = check_path(s, [(5, 5), (15, 5)])
    assert (c.violation.kind, c.violation.obstacle, c.violation.at) == ("crosses_terrain", "b0", (9.0, 5.0))
    c = check_path(s, [(5, 12.3), (15, 12.3)])                  # 0.3" above the wall: inside ρ
    assert c.violation.kind == "gap" and c.violation.obstacle == "b0"
    assert c.violation.at[0] == pytest.approx(9 - math.sqrt(0.25 - 0.09), abs=1e-3)
    c = check_path(s, [(15, 20), (25, 20)])
    assert c.violation.kind == "through_model" and c.violation.at == pytest.approx((20 - 0.63, 20), abs=1e-9)
    c = check_path(s, [(5, 20), (5, 29.8)])
    assert c.violation.kind == "off_table" and c.violation.at == pytest.approx((5, 29.5), abs=1e-6)
    c = check_path(s, [(5, 13), (15, 13)], max_length=4)
    assert c.violation.kind == "too_long" and c.violation.at == pytest.approx((9, 13))
    assert check_path(s, [(5, 13), (15, 13)], max_length=10).legal


@settings(max_examples=40, deadline=None)
@given(boxes, discs, coord, coord, coord, coord, st.floats(0.2, 2.0))
def test_region_paths_are_legal_and_end_in_the_region(bs, ds, ax, ay, tx, ty, reach):
    s = _space(bs, ds)
    a = (ax, ay)
    if not s.clear_points([a])[0]:
        return
    reg = Region(near=(((shapely.Point(tx, ty), reach),),), box=s.box)
    p = Reach(s, a).to_region(reg)
    if p is None:
        return
    assert reg.contains([p.end])[0]
    assert p.length >= max(0.0, math.dist(a, (tx, ty)) - reach) - 1e-9
    pts = p.points()
    assert check_path(s, pts).legal and _independent_clear(s, pts)
    # No reachable sample of the goal disc is nearer than the answer.
    R = Reach(s, a)
    for t in np.linspace(0, 2 * math.pi, 12, endpoint=False):
        q = (tx + reach * math.cos(t), ty + reach * math.sin(t))
        if s.clear_points([q])[0] and reg.contains([q])[0]:
            pq = R.to_point(q)
            if pq is not None:
                assert p.length <= pq.length + 1e-7


def test_region_reached_along_an_arc():
    # The goal disc's centre lies inside a round obstacle's grown circle: the best end spot is
    # where the goal's edge meets that circle, reached by wrapping it (tangent, then arc).
    s = Space(30, 30, RHO, [disc_obstacle("r", "terrain", 10, 10, 1.5, RHO)])
    reg = Region(near=(((shapely.Point(11.5, 10), 1.0),),), box=s.box)
    p = Reach(s, (5, 10)).to_region(reg)
    # By hand: |q − (10,10)| = 2 and |q − (11.5,10)| = 1 give x = 10 + (4 − 1 + 2.25)/3 = 11.75,
    # angle acos(0.875); the tangent from (5,10) touches at angle π − acos(2/5).
    R, D = 2.0, 5.0
    want = math.sqrt(D * D - R * R) + R * (math.pi - math.acos(R / D) - math.acos(0.875))
    assert p.length == pytest.approx(want, abs=1e-9)
    assert p.legs[-1].kind == "arc"


def test_region_left_on_a_tangent_towards_the_goal_centre():
    # Goal centre outside the grown circle: leave the arc on the tangent towards it.
    s = Space(30, 30, RHO, [disc_obstacle("r", "terrain", 10, 10, 1.5, RHO)])
    reg = Region(near=(((shapely.Point(12.5, 10), 1.0),),), box=s.box)
    p = Reach(s, (5, 10)).to_region(reg)
    R, D = 2.0, 5.0
    want = math.sqrt(D * D - R * R) + R * (math.pi - math.acos(R / D) - math.acos(R / 2.5)) + (1.5 - 1.0)
    assert p.length == pytest.approx(want, abs=1e-9)


def test_an_overly_complex_goal_region_is_refused_not_exhausted():
    # The crossings of the outline's pieces are searched among pieces whose boxes meet; a goal
    # region where thousands of pieces all overlap (1,500 discs round nearly one point) would
    # still need over a million crossing tests: refused with a clear GeometryError instead of
    # exhausting memory (the CLI turns it into exit status 2).
    import numpy as np
    import shapely

    from tapeline.board.errors import GeometryError
    from tapeline.board.regions import MAX_PRIMITIVE_PAIRS, Region

    t = np.linspace(0, 2 * np.pi, 1500, endpoint=False)
    far = tuple((shapely.Point(5 + 1e-3 * np.cos(a), 5 + 1e-3 * np.sin(a)), 1.0) for a in t)
    g = Region(near=(((shapely.Point(5, 5), 3.0),),), far=far, box=(0, 0, 10, 10))
    assert 1500 * 1499 // 2 > MAX_PRIMITIVE_PAIRS
    with pytest.raises(GeometryError):
        g.vertices


def test_a_fine_polygon_goal_is_searched_exactly_without_refusal():
    # A 1,500-gon target (3,000 outline pieces: 4.5 million pairs, all but a few thousand of
    # them far apart) is searched; the distance agrees with a brute force over the outline.
    import numpy as np
    import shapely

    from tapeline.board.regions import Region

    t = np.linspace(0, 2 * np.pi, 1500, endpoint=False)
    blob = shapely.Polygon(np.column_stack([5 + 2 * np.cos(t), 5 + np.sin(t)]))
    g = Region(near=(((blob, 1.0),),), box=(0, 0, 10, 10))
    s = Space(10, 10, 0.5, [])
    p = Reach(s, (9.5, 9.5)).to_region(g)
    want = shapely.distance(shapely.Point(9.5, 9.5), blob) - 1.0
    assert p.length == pytest.approx(want, abs=1e-9)


def test_arcs_decided_in_closed_form_agree_with_certified_sampling():
    # Space.arcs_clear decides round obstacles and the table edge in closed form and samples
    # only against footprints; Space.arc_clear samples everything, arc by arc. On a crowded
    # table (touching discs, a concave footprint, a convex one, the edge) they agree.
    rng = np.random.default_rng(7)
    L = shapely.Polygon([(10, 10), (14, 10), (14, 11), (11, 11), (11, 14), (10, 14)])
    obs = [polygon_obstacle("L", "terrain", L, RHO), polygon_obstacle("b", "terrain", shapely.box(18, 4, 20, 7), RHO)]
    xy = rng.uniform(1, 29, (40, 2))
    obs += [disc_obstacle(f"d{i}", "model", x, y, 0.63, RHO) for i, (x, y) in enumerate(xy)]
    obs += [disc_obstacle("t0", "model", 5, 5, 0.63, RHO), disc_obstacle("t1", "model", 5 + 2 * 1.13, 5, 0.63, RHO)]
    s = Space(30, 30, RHO, obs)
    C = s.circles
    n = 3000
    ks = rng.integers(0, len(C), n)
    span = np.minimum(C.span[ks], 2 * math.pi)
    a0 = C.lo[ks] + rng.uniform(0, 1, n) * span
    sweep = rng.uniform(-1, 1, n) * span
    got = s.arcs_clear(ks, a0, sweep)
    want = [s.arc_clear(int(k), float(a), float(w)) for k, a, w in zip(ks, a0, sweep)]
    assert got.tolist() == want
    assert 0 < got.sum() < n


def _walled_space(rng, gap=1e-9):
    """A crowded space with walls (lines, kept from both sides) beside footprints and discs: an
    open wall whose end comes within ``gap`` of another wall's end (the showcase's ramp beside
    its mesa), a closed wall, a concave footprint and round bases."""
    from tapeline.board.space import Obstacle

    obs = [polygon_obstacle("L", "terrain", shapely.Polygon([(10, 10), (14, 10), (14, 11), (11, 11), (11, 14), (10, 14)]), RHO),
           polygon_obstacle("b", "terrain", shapely.box(18, 4, 20, 7), RHO),
           Obstacle("mesa", "level", shapely.LineString([(16 - gap, 20), (13, 20), (13, 26), (25, 26), (25, 20), (20 + gap, 20)]), RHO),
           Obstacle("ramp", "level", shapely.LineString([(16, 17), (16, 20 - gap)]), RHO),
           Obstacle("ramp", "level", shapely.LineString([(20, 20 - gap), (20, 17)]), RHO),
           Obstacle("ring", "level", shapely.LineString([(4, 20), (8, 20), (8, 24), (4, 24), (4, 20)]), RHO)]
    xy = rng.uniform(1, 29, (25, 2))
    obs += [disc_obstacle(f"d{i}", "model", x, y, 0.63, RHO) for i, (x, y) in enumerate(xy)]
    return Space(30, 30, RHO, obs)


@pytest.mark.parametrize("seed", [3, 11])
def test_arcs_beside_walls_agree_with_certified_sampling(seed, monkeypatch):
    # arcs_clear skips the bisection of an arc whose margin is proven above -TOL
    # (Space._arcs_floor); arc_clear bisects every arc. Beside walls whose ends nearly touch
    # (margins of about 0 along whole arcs, which the bisection refines to its limit) and
    # footprints, the verdicts agree, and the proof is used.
    from tapeline.board import space as space_mod

    rng = np.random.default_rng(seed)
    s = _walled_space(rng)
    C = s.circles
    used = []
    floor = space_mod.Space._arcs_floor

    def spy(self, ks, lo, w):
        out = floor(self, ks, lo, w)
        used.append(int((out >= -space_mod.TOL + space_mod._FLOOR_SLACK).sum()))
        return out

    monkeypatch.setattr(space_mod.Space, "_arcs_floor", spy)
    n = 1500
    ks = np.concatenate([rng.integers(0, len(C), n), np.nonzero(np.isin(C.own, [2, 3, 4]))[0]])
    span = np.minimum(C.span[ks], 2 * math.pi)
    a0 = C.lo[ks] + rng.uniform(0, 1, len(ks)) * span
    sweep = rng.uniform(-1, 1, len(ks)) * span
    # the whole cone of each wall corner, too (the arcs a graph joins there)
    walls = np.nonzero(np.isin(C.own, [2, 3, 4]))[0]
    ks = np.concatenate([ks, walls])
    a0 = np.concatenate([a0, C.lo[walls]])
    sweep = np.concatenate([sweep, C.span[walls]])
    got = s.arcs_clear(ks, a0, sweep)
    want = [s.arc_clear(int(k), float(a), float(w)) for k, a, w in zip(ks, a0, sweep)]
    assert got.tolist() == want
    assert 0 < got.sum() < len(ks)
    assert sum(used) > 0


def test_an_arc_floor_is_its_least_margin():
    # Space._arcs_floor against brute force: the margin (distance to every footprint and wall
    # but the arc's own, and to the rest of its own outline, less their grow) at 2001 points
    # of the arc. The floor is never above the least sampled margin and at most a sample
    # spacing below it (distances are 1-Lipschitz). Arcs that enter a footprint are left out
    # (the floor is asked only about arcs whose samples are all outside).
    rng = np.random.default_rng(5)
    s = _walled_space(rng, gap=1e-3)
    C = s.circles
    checked = 0
    for _ in range(250):
        k = int(rng.integers(0, len(C)))
        span = min(float(C.span[k]), 2 * math.pi)
        lo = float(C.lo[k] + rng.uniform(0, 1) * span)
        w = float(rng.uniform(0, 1) * span)
        t = np.linspace(lo, lo + w, 2001)
        pts = shapely.points(np.column_stack([C.x[k] + C.r[k] * np.cos(t), C.y[k] + C.r[k] * np.sin(t)]))
        m = np.full(len(t), np.inf)
        inside = False
        for o in s._poly.tolist():
            if o == C.own[k]:
                continue
            d = shapely.distance(pts, s.cores[o])
            inside |= bool((d <= 0).any())
            m = np.minimum(m, d - s.grow[o])
        rest = C.rest_of(k)
        if rest is not None:
            m = np.minimum(m, shapely.distance(pts, rest) - s.grow[C.own[k]])
        if inside or not np.isfinite(m).any():
            continue
        f = float(s._arcs_floor(np.array([k]), np.array([lo]), np.array([w]))[0])
        h = C.r[k] * w / 2000
        assert f >= min(m.min(), 5e-4) - h - 1e-9  # (pieces farther than 1e-3 are not looked at)
        if m.min() <= 5e-4:
            assert f <= m.min() + 1e-9
            checked += 1
    assert checked > 20


def test_segments_told_their_ends_circles_get_the_same_verdicts():
    # Space.clear_segments(a, b, on): told which circle each end lies on, it looks for an end
    # inside a disc only among the discs that circle meets; the verdicts are those it gives
    # untold, on a crowded table where many ends lie inside neighbouring discs.
    rng = np.random.default_rng(9)
    s = _walled_space(rng)
    C = s.circles
    n = 4000
    ka, kb = rng.integers(0, len(C), n), rng.integers(0, len(C), n)
    ta = C.lo[ka] + rng.uniform(0, 1, n) * np.minimum(C.span[ka], 2 * math.pi)
    tb = C.lo[kb] + rng.uniform(0, 1, n) * np.minimum(C.span[kb], 2 * math.pi)
    a = np.column_stack([C.x[ka] + C.r[ka] * np.cos(ta), C.y[ka] + C.r[ka] * np.sin(ta)])
    b = np.column_stack([C.x[kb] + C.r[kb] * np.cos(tb), C.y[kb] + C.r[kb] * np.sin(tb)])
    free = rng.uniform(0, 1, n) < 0.2  # some ends on no circle
    a[free] = rng.uniform(1, 29, (int(free.sum()), 2))
    ka = np.where(free, -1, ka)
    told = s.clear_segments(a, b, (ka, kb))
    assert told.tolist() == s.clear_segments(a, b).tolist()
    assert 0 < told.sum() < n


def test_remainder_and_circle_points_are_the_math_modules_bit_for_bit():
    from tapeline.board import paths

    rng = np.random.default_rng(2)
    tau = 2 * math.pi
    x = np.concatenate([rng.uniform(-30, 30, 20000), [tau / 2, -tau / 2, 3 * tau / 2, -3 * tau / 2, tau, -tau, 0.0, -0.0, 5 * tau / 2]])
    want = np.array([math.remainder(v, tau) for v in x.tolist()])
    assert np.array_equal(paths._remainder_tau(x).view(np.int64), want.view(np.int64))
    C = _walled_space(rng).circles
    k = rng.integers(0, len(C), 5000)
    rel = rng.uniform(0, 2 * math.pi, 5000)
    got = paths._on_circles(C, k, rel)
    x, y, r, lo = (v.tolist() for v in (C.x, C.y, C.r, C.lo))
    assert got == [(x[i] + r[i] * math.cos(lo[i] + t), y[i] + r[i] * math.sin(lo[i] + t)) for i, t in zip(k.tolist(), rel.tolist())]


def _same_graph(G, R):
    """Node for node (a node is the point it stands for: the start, or a circle and a slot on
    it; the two graphs number them differently), weight for weight, each node's neighbours in
    the same order (Dijkstra's ties), the same positions and edge shapes."""
    g_of = {G.key(n): n for n in G.pos}  # every node of G, by what it stands for
    assert len(g_of) == len(G.pos)

    def g(n):  # R's node n in G
        return g_of[R.key(n)]

    for node, nbrs in R.adj.items():
        assert [(G.key(v), w) for v, w in G.adj.get(g(node), {}).items()] == [(R.key(v), w) for v, w in nbrs.items()], R.key(node)
    r_nodes = {R.key(n) for n in R.adj}
    assert all(G.key(node) in r_nodes for node, nbrs in G.adj.items() if nbrs)
    assert all(G.pos[g(k)] == v for k, v in R.pos.items())
    assert all(G.legs[(g(a), g(b))] == (g(frm), spec) for (a, b), (frm, spec) in R.legs.items())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(boxes, discs, st.lists(st.tuples(coord, coord), min_size=2, max_size=4), coord, coord)
def test_a_shared_graph_gives_each_start_the_graph_built_for_it_alone(bs, ds, starts, tx, ty):
    # Several starts on one space (a unit's candidate Leading Models) share the tangents and
    # anchors that do not depend on the start; each start's graph must be the one built from
    # scratch for it, so every answer (and every tie) is unchanged.
    s = _space(bs, ds)
    reg = Region(near=(((shapely.Point(tx, ty), 1.0),),), box=s.box)
    for a in starts:
        if not s.clear_points([a])[0]:
            continue
        R = Reach(s, a)
        _, anchors = R._region_anchors(reg)
        _same_graph(R._start_graph(anchors, ("test", id(reg))), R._graph([], anchors))


def test_the_showcase_roaches_share_one_graph_and_keep_their_own(monkeypatch):
    # The full-table charge: three candidate Leading Models on one space, one region.
    from pathlib import Path

    from tapeline.board import paths
    from tapeline.rules.starcraft import charge
    from tapeline.scenarios.load import read

    state = read(str(Path(__file__).resolve().parents[2] / "scenarios" / "examples" / "showcase.yaml")).state
    starts = []
    shared = paths.Reach._start_graph

    def check(self, anchors, tag):
        G = shared(self, anchors, tag)
        _same_graph(G, self._graph([], anchors))
        starts.append(self.start)
        return G

    monkeypatch.setattr(paths.Reach, "_start_graph", check)
    monkeypatch.setattr(paths, "_BOUND_MIN_CIRCLES", 10**9)  # the full search (the bounded one: test_paths_bounded.py)
    charge.reach(state, "roaches", ["marauders"])
    assert len(set(starts)) == 3


@pytest.mark.parametrize("side", [1.0, -1.0])
def test_round_a_disc_on_the_shorter_side_across_angle_zero_or_pi(side):
    # A disc of radius 1.5 at (10, 10), grown by ρ = 0.5 to R = 2. From (10 + s, 5) to
    # (10 + s, 15) (s = ±1) the straight line crosses it; the shorter way round passes the
    # disc's side at x = 10 + 2s, i.e. its point at angle 0 (s = +1) or π (s = −1). Each
    # end is D = √26 from the centre, at angle θ = atan2(5, 1) from the side's direction;
    # the tangents touch acos(R/D) nearer that side, so the arc spans 2·(θ − acos(R/D)).
    s = Space(30, 30, RHO, [disc_obstacle("d", "terrain", 10, 10, 1.5, RHO)])
    p = shortest_path(s, (10 + side, 5), (10 + side, 15))
    R, D = 2.0, math.sqrt(26)
    theta = math.atan2(5, 1)
    want = 2 * math.sqrt(D * D - R * R) + R * 2 * (theta - math.acos(R / D))
    assert p.length == pytest.approx(want, abs=1e-9)
    assert [l.kind for l in p.legs] == ["line", "arc", "line"]
    # the path's far point from the start-goal line is on the shorter side
    xs = [x for x, _ in p.points()]
    assert (max(xs) > 11.9) if side > 0 else (min(xs) < 8.1)


def test_round_three_discs_on_their_right_past_angle_zero_of_the_middle_one():
    # From (11, 1) to (11, 19) past discs at (11.3, 5), (10.5, 10), (11.3, 15) (grown radii 1,
    # 2, 1): the right way round hugs all three, crossing the middle disc's angle 0 between its
    # tangents to the other two; the left way is far longer. The taut path is then the right
    # chain of the convex hull of the two ends and the grown discs. Referee: that chain with
    # each disc a 100 000-gon (an inscribed polygon's chain is shorter by under 1e-8 here).
    discs = [(11.3, 5, 0.5), (10.5, 10, 1.5), (11.3, 15, 0.5)]
    s = Space(30, 30, RHO, [disc_obstacle(f"d{i}", "terrain", x, y, r, RHO) for i, (x, y, r) in enumerate(discs)])
    a, b = (11.0, 1.0), (11.0, 19.0)
    p = shortest_path(s, a, b)
    t = np.linspace(0, 2 * np.pi, 100_000, endpoint=False)
    pts = np.vstack([[a, b], *[np.column_stack([x + (r + RHO) * np.cos(t), y + (r + RHO) * np.sin(t)]) for x, y, r in discs]])
    ring = np.array(shapely.MultiPoint(pts).convex_hull.exterior.coords)[:-1]
    i, j = (int(np.nonzero((ring == q).all(axis=1))[0][0]) for q in (a, b))
    chains = [ring[np.arange(u, u + (v - u) % len(ring) + 1) % len(ring)] for u, v in ((i, j), (j, i))]
    right = max(chains, key=lambda c: float(c[:, 0].max()))  # the chain east of x = 11
    assert right[:, 0].max() == pytest.approx(12.5, abs=1e-6)  # (the chain passes the middle disc's angle 0)
    assert p.length == pytest.approx(float(np.hypot(*np.diff(right, axis=0).T).sum()), abs=1e-7)
    assert [l.kind for l in p.legs] == ["line", "arc"] * 3 + ["line"]


# A tangent point a hair either side of a round obstacle's angle 0 (the start of its full-turn
# cone, where node slots wrap from 2π back to 0). Disc A (grown radius 1) at (10, 10); disc B,
# the same, at (10, 14): their common tangent x = 11 touches A exactly at angle 0, a node of
# slot 0. A path meets A at angle φ (|φ| ≤ 4.5e-12, both signs) along the tangent there and
# wraps A counter-clockwise, from φ to the tangent to the goal T = (10.2, 12.2). Just below 0
# that node's slot used to round to 2π (6.28318530718) instead of 0: the two nodes at the same
# point were not joined (the arc round the back, 2π − 6.28318530718 < 0, was dropped), so the
# path could not go on round A and went round its far side instead (0.67" longer).
# Referee, by hand: 4 (the tangent, so built) + the arc R(ψ − φ) + the tangent to T, where
# ψ = atan2(T − A) − acos(R/|T − A|) is where the last leg leaves A.
_WRAP_A, _WRAP_B, _WRAP_T, _WRAP_R = (10.0, 10.0), (10.0, 14.0), (10.2, 12.2), 1.0
_WRAP_PHIS = [-4.5e-12, -1e-12, -1e-15, 0.0, 1e-15, 1e-12, 4.5e-12]


def _wrap_space(*extra):
    obs = [Obstacle(n, "terrain", shapely.Point(*c), _WRAP_R) for n, c in (("a", _WRAP_A), ("b", _WRAP_B), *extra)]
    return Space(30, 30, RHO, obs)


def _wrap_want(phi, lead):
    """The taut path's length: ``lead`` (the straight run up to A at angle φ), the arc from φ
    round to where the last leg leaves A, the last leg to T."""
    dT = math.dist(_WRAP_T, _WRAP_A)
    psi = math.atan2(_WRAP_T[1] - _WRAP_A[1], _WRAP_T[0] - _WRAP_A[0]) - math.acos(_WRAP_R / dT)
    return lead + _WRAP_R * (psi - phi) + math.sqrt(dT * dT - _WRAP_R ** 2)


def _on_a(phi, back=0.0):
    """The point of A's circle at angle φ, then ``back`` inches back down the tangent there."""
    return (_WRAP_A[0] + _WRAP_R * math.cos(phi) + back * math.sin(phi), _WRAP_A[1] + _WRAP_R * math.sin(phi) - back * math.cos(phi))


@pytest.mark.parametrize("phi", _WRAP_PHIS)
def test_a_start_tangent_a_hair_either_side_of_angle_zero_wraps_on(phi):
    s = _wrap_space()
    start = _on_a(phi, 4.0)  # 4" down the tangent at φ
    r = Reach(s, start)
    k, ang = r._tangent_angles(start)
    (got,) = ang[(k == 0) & (np.abs(ang) < 1e-6)]
    assert (got < 0) == (phi < 0)  # the case is built: the tangent point is on φ's side of 0
    want = _wrap_want(phi, 4.0)
    assert shortest_path(s, start, _WRAP_T).length == pytest.approx(want, abs=1e-9)
    # a goal region (a disc round T, its last leg heading for T): shorter by the disc's radius
    reg = Region(near=(((shapely.Point(*_WRAP_T), 0.1),),), box=s.box)
    assert Reach(s, start).to_region(reg).length == pytest.approx(want - 0.1, abs=1e-9)


@pytest.mark.parametrize("phi", _WRAP_PHIS)
def test_a_tangent_between_circles_a_hair_either_side_of_angle_zero_wraps_on(phi):
    # The same with the node from a circle-to-circle tangent (the graph every start shares):
    # disc E, the same size, 4" below A along the tangent at φ, their common tangent touching A
    # at φ; the start below E, round its right side. Referee: the tangent from the start to E,
    # E's arc up to φ, then as above.
    E = (_WRAP_A[0] + 4 * math.sin(phi), _WRAP_A[1] - 4 * math.cos(phi))
    s = _wrap_space(("e", E))
    start = (E[0] + 0.5, E[1] - 3.0)
    D = math.dist(start, E)
    theta = math.atan2(start[1] - E[1], start[0] - E[0]) + math.acos(_WRAP_R / D)  # where the path meets E
    lead = math.sqrt(D * D - _WRAP_R ** 2) + _WRAP_R * (phi - theta) + 4.0
    on_a = [ka[2] for ka, kb, _, _ in Reach(s, start)._shared if (ka[1], kb[1]) == (0, 2) and abs(ka[2]) < 1e-6]
    assert len(on_a) == 1 and (on_a[0] < 0) == (phi < 0)  # the case is built (A, B, E: circles 0, 1, 2)
    want = _wrap_want(phi, lead)
    assert shortest_path(s, start, _WRAP_T).length == pytest.approx(want, abs=1e-9)
    reg = Region(near=(((shapely.Point(*_WRAP_T), 0.1),),), box=s.box)
    assert Reach(s, start).to_region(reg).length == pytest.approx(want - 0.1, abs=1e-9)
