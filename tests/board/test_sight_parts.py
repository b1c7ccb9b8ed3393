"""board/sight.py's closed-form parts, each against values worked out by hand: tangents from a
point, circles' radii, common tangents (every line checked tangent to both bases by their
support functions), chords and crossings of lines with ellipses, the circumscribed outlines and
hulls, S(L) between two bases, the low part of a sight line under a piece's top, point–segment
distances and the corners of clockwise and counter-clockwise rings."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from tapeline.board import sight as S
from tapeline.board.bases import OvalBase, RoundBase
from tapeline.board.table import Figure


def frame(*figs):
    return S.frames(list(figs))


def fig(x, y, base):
    return Figure("m", "u", "s", base, float(x), float(y))


def test_frames_of_round_and_oval_bases():
    # a 25.4 mm base: M = 0.5·I; a 50.8 × 25.4 mm oval turned 90°: a = 1 along +y, b = 0.5
    c, m = frame(fig(1, 2, RoundBase(25.4)), fig(3, 4, OvalBase(50.8, 25.4, 90)))
    assert c.tolist() == [[1, 2], [3, 4]]
    assert m[0].tolist() == [[0.5, 0.0], [0.0, 0.5]]
    assert m[1] == pytest.approx(np.array([[0.0, -0.5], [1.0, 0.0]]), abs=1e-15)


def test_tangents_from_a_point_to_a_circle_and_an_ellipse():
    # from (2, 0) to the unit circle: the tangent points (1/2, ±√3/2); from inside: not valid
    c = np.zeros((2, 2))
    m = np.array([np.eye(2), np.eye(2)])
    t1, t2, ok = S.tangents_from(np.array([[2.0, 0.0], [0.5, 0.0]]), c, m)
    assert ok.tolist() == [True, False]
    got = np.array(sorted([t1[0].tolist(), t2[0].tolist()]))
    assert got == pytest.approx(np.array([[0.5, -math.sqrt(3) / 2], [0.5, math.sqrt(3) / 2]]))
    # the ellipse x²/4 + y² = 1 from (0, 2): tangent points (±√3, 1/2) (the polar line y = 1/2)
    t1, t2, ok = S.tangents_from(np.array([[0.0, 2.0]]), np.zeros((1, 2)), np.array([[[2.0, 0.0], [0.0, 1.0]]]))
    got = np.array(sorted([t1[0].tolist(), t2[0].tolist()]))
    assert ok[0] and got == pytest.approx(np.array([[-math.sqrt(3), 0.5], [math.sqrt(3), 0.5]]))


def test_circle_radius_of_circles_only():
    m = np.array([np.eye(2) * 0.7, [[1.0, 0.0], [0.0, 0.5]], [[0.5, 0.1], [0.0, 0.5]], [[0.5, 0.0], [0.1, 0.5]]])
    r = S._circle_radius(m)
    assert r[0] == 0.7 and np.isnan(r[1:]).all()


def _tangent_to(p, d, c, m):
    """Is the line p + t·d tangent to the curve c + M·(unit disc)? Its normal n: the support
    h(n) = |Mᵀn| equals n·(p − c) (or h(−n) does)."""
    n = np.array([-d[1], d[0]]) / np.hypot(*d)
    h = np.linalg.norm(m.T @ n)
    return min(abs(h - n @ (p - c)), abs(h + n @ (p - c))) < 1e-9


@pytest.mark.parametrize("b_shape", ["round", "oval"])
def test_common_tangents_touch_both_bases(b_shape):
    # A: the unit circle at the origin; B at (5, 1): a circle of radius 0.5, or an oval
    # (semi-axes 1 and 0.4 turned 30°). The outer tangents have both bases on one side, the
    # inner ones between them: four lines, each tangent to both
    ca, ma = np.array([[0.0, 0.0]]), np.array([np.eye(2)])
    cb = np.array([[5.0, 1.0]])
    p30 = math.radians(30)
    mb = np.array([np.eye(2) * 0.5]) if b_shape == "round" else np.array([[[math.cos(p30), -0.4 * math.sin(p30)],
                                                                            [math.sin(p30), 0.4 * math.cos(p30)]]])
    pts, dirs, ok = S.common_tangents(ca, ma, cb, mb)
    assert ok[0].all()
    sides = []
    for k in range(4):
        p, d = pts[0, k], dirs[0, k]
        assert _tangent_to(p, d, ca[0], ma[0]) and _tangent_to(p, d, cb[0], mb[0]), k
        n = np.array([-d[1], d[0]])
        sides.append(np.sign(n @ (ca[0] - p)) == np.sign(n @ (cb[0] - p)))
    assert sides == [True, True, False, False]                  # outer, outer, inner, inner
    # the round pair by hand: the outer tangents' normals make arccos((1 − 0.5)/√26) with the
    # centre line, the inner ones arccos(1.5/√26)
    if b_shape == "round":
        D, th = math.hypot(5, 1), math.atan2(1, 5)
        for k, q in ((0, 0.5), (2, 1.5)):
            normals = sorted(math.remainder(math.atan2(dirs[0, j, 0], -dirs[0, j, 1]) - th, 2 * math.pi) for j in (k, k + 1))
            al = math.acos(q / D)
            assert [abs(x) for x in normals] == pytest.approx([al, al], abs=1e-9) or \
                [abs(math.remainder(x + math.pi, 2 * math.pi)) for x in normals] == pytest.approx([al, al], abs=1e-9)


def test_the_cheap_tangents_pass_through_a_point_of_each_base():
    # outer_and_inner_tangents: lines p → p + d with p on A and p + d on B (a fair candidate),
    # exact for two circles: the round pair's outer tangents y = ±1 for two unit circles 6" apart
    ca, cb = np.array([[0.0, 0.0]]), np.array([[6.0, 0.0]])
    m = np.array([np.eye(2)])
    lines, _d, normals = S.outer_and_inner_tangents(ca, m, cb, m, np.array([1.0]), np.array([1.0]))
    ys = sorted(round(float(lines[0, k, 1]), 9) for k in range(2))
    assert ys == [-1.0, 1.0]
    assert sorted(np.round(normals[0, :, 1], 9).tolist()) == [-1.0, 1.0]
    for k in range(4):
        p, q = lines[0, k], lines[0, k] + _d[0, k]
        assert abs(np.hypot(*(p - ca[0])) - 1) < 1e-9 and abs(np.hypot(*(q - cb[0])) - 1) < 1e-9, k
    # round bases of radii 1 and 0.5 with centres (0, 0) and (6, 2): exact, each of the four
    # lines tangent to both circles (outer: the radii's difference over √40, inner: their sum)
    cb2 = np.array([[6.0, 2.0]])
    lines, d, _n = S.outer_and_inner_tangents(ca, m, cb2, np.array([np.eye(2) * 0.5]), np.array([1.0]), np.array([0.5]))
    for k in range(4):
        assert _tangent_to(lines[0, k], d[0, k], ca[0], m[0]) and _tangent_to(lines[0, k], d[0, k], cb2[0], np.eye(2) * 0.5), k
    # an oval B (semi-axes 1.2 and 0.5 along x): each line still runs from a point of A to a
    # point of B, and the outer ones touch both within the refinement's accuracy
    mb = np.array([[[1.2, 0.0], [0.0, 0.5]]])
    lines, d, normals = S.outer_and_inner_tangents(ca, m, cb, mb, np.array([1.0]), np.array([0.5]))
    for k in range(4):
        p, q = lines[0, k], lines[0, k] + d[0, k]
        assert abs(np.hypot(*(p - ca[0])) - 1) < 1e-9
        u = np.linalg.solve(mb[0], q - cb[0])
        assert abs(np.hypot(*u) - 1) < 1e-9, k


def test_chords_and_crossings_of_lines_with_an_ellipse():
    # the line y = 0.6 (from (-3, 0.6) along +x) meets the unit circle at x = ±0.8: t = 2.2, 3.8;
    # the ellipse x²/4 + y² = 1 at x = ±1.6: t = 1.4, 4.6; the line y = 2 misses both
    p = np.array([[-3.0, 0.6], [-3.0, 0.6], [-3.0, 2.0]])
    d = np.array([[1.0, 0.0]] * 3)
    c = np.zeros((3, 2))
    m = np.array([np.eye(2), [[2.0, 0.0], [0.0, 1.0]], np.eye(2)])
    t0, t1, ok = S.chords(p, d, c, m)
    assert ok.tolist() == [True, True, False]
    assert [t0[0], t1[0], t0[1], t1[1]] == pytest.approx([2.2, 3.8, 1.4, 4.6])
    t0, t1, ok = S.chords(p, d, c, m, np.linalg.inv(m))
    assert [t0[0], t1[0]] == pytest.approx([2.2, 3.8])
    # segments: (-3, 0.6)→(0, 0.6) crosses the circle once, at (-0.8, 0.6); (-3, 0.6)→(3, 0.6)
    # twice; a segment wholly inside, none
    e0 = np.array([[-3.0, 0.6], [-3.0, 0.6], [-0.1, 0.0]])
    e1 = np.array([[0.0, 0.6], [3.0, 0.6], [0.1, 0.0]])
    pts, rows = S.segment_ellipse_crossings(e0, e1, np.zeros((3, 2)), np.array([np.eye(2)] * 3))
    got = sorted((int(r), round(float(x), 9), round(float(y), 9)) for (x, y), r in zip(pts, rows))
    assert got == [(0, -0.8, 0.6), (1, -0.8, 0.6), (1, 0.8, 0.6)]


def test_outlines_and_hulls_circumscribe_the_bases():
    # the circumscribed 32-gon of the unit circle: its area 32·tan(π/32) (> π), every vertex
    # 1/cos(π/32) from the centre; the hull of two such: contains both circles
    c, m = np.array([[0.0, 0.0], [4.0, 0.0]]), np.array([np.eye(2), np.eye(2)])
    o = S.outlines(c, m)
    assert shapely.area(o[0]) == pytest.approx(32 * math.tan(math.pi / 32), rel=1e-9)
    xy = shapely.get_coordinates(o[0])[:-1]
    assert np.allclose(np.hypot(xy[:, 0], xy[:, 1]), 1 / math.cos(math.pi / 32))
    h = S.hulls(c[:1], m[:1], c[1:], m[1:])[0]
    assert shapely.contains(h, shapely.Point(0, 0).buffer(1 - 1e-9, 64)) and shapely.contains(h, shapely.Point(4, 0).buffer(1 - 1e-9, 64))
    assert shapely.area(h) == pytest.approx(32 * math.tan(math.pi / 32) + 4 * 2 / math.cos(math.pi / 32), rel=1e-6)


def test_the_segment_between_two_bases_on_a_line():
    # unit circles at (0, 0) and (6, 0), the line y = 0.6: A's chord is [-0.8, 0.8], B's
    # [5.2, 6.8] — S(L) from (0.8, 0.6) to (5.2, 0.6); with far = 1 (A's far end) from (-0.8, 0.6),
    # far = 2 to (6.8, 0.6); B before A on the line (drawn the other way): the ends swap
    ca, cb = np.array([[0.0, 0.0]]), np.array([[6.0, 0.0]])
    m = np.array([np.eye(2)])
    pair = np.array([0])
    p, d = np.array([[-3.0, 0.6]]), np.array([[2.0, 0.0]])
    s0, s1, ok = S._segments(pair, p, d, ca, m, cb, m)
    assert ok[0] and s0[0] == pytest.approx([0.8, 0.6]) and s1[0] == pytest.approx([5.2, 0.6])
    s0, s1, _ = S._segments(pair, p, d, ca, m, cb, m, far=np.array([1]))
    assert s0[0] == pytest.approx([-0.8, 0.6]) and s1[0] == pytest.approx([5.2, 0.6])
    s0, s1, _ = S._segments(pair, p, d, ca, m, cb, m, far=np.array([2]))
    assert s0[0] == pytest.approx([0.8, 0.6]) and s1[0] == pytest.approx([6.8, 0.6])
    s0, s1, _ = S._segments(pair, np.array([[9.0, 0.6]]), -d, ca, m, cb, m)
    assert s0[0] == pytest.approx([0.8, 0.6]) and s1[0] == pytest.approx([5.2, 0.6])
    s0, s1, _ = S._segments(pair, np.array([[9.0, 0.6]]), -d, ca, m, cb, m, far=np.array([2]))
    assert s1[0] == pytest.approx([6.8, 0.6])
    s0, s1, _ = S._segments(pair, np.array([[9.0, 0.6]]), -d, ca, m, cb, m, far=np.array([1]))
    assert s0[0] == pytest.approx([-0.8, 0.6])
    # overlapping chords (the bases overlap): the segment is one point; a zero direction: not ok
    s0, s1, ok = S._segments(pair, p, d, ca, m, np.array([[1.0, 0.0]]), m)
    assert ok[0] and s0[0] == pytest.approx(s1[0])
    assert not S._segments(pair, p, np.zeros((1, 2)), ca, m, cb, m)[2][0]


def test_the_low_part_of_a_sight_line_under_a_top():
    # eyes at 1 and 3 over a piece 2 high: the line is below it for the first half; 3 and 1:
    # the second half; both below: all of it; both above (or level with it): none
    za, zb, top = np.array([1.0, 3.0, 0.5, 2.5, 2.0]), np.array([3.0, 1.0, 1.5, 4.0, 2.0]), np.full(5, 2.0)
    t0, t1, full = S._low_part(za, zb, top)
    assert t0.tolist() == [0.0, 0.5, 0.0, 0.0, 0.0] and t1.tolist() == [0.5, 1.0, 1.0, 0.0, 0.0]
    assert full.tolist() == [False, False, True, False, False]
    t0, t1, _ = S._low_part(np.array([1.0]), np.array([5.0]), np.array([2.0]))
    assert (t0[0], t1[0]) == (0.0, 0.25)


def test_point_segment_distance():
    c = np.array([[0.0, 1.0], [-2.0, 0.0], [5.0, 4.0], [1.0, 1.0]])
    a = np.array([[-1.0, 0.0], [0.0, 0.0], [0.0, 0.0], [1.0, 0.0]])
    b = np.array([[1.0, 0.0], [3.0, 0.0], [3.0, 0.0], [1.0, 0.0]])
    assert S._point_segment_distance(c, a, b).tolist() == pytest.approx([1.0, 2.0, 4.47213595499958, 1.0])


@pytest.mark.parametrize("ccw", [True, False])
def test_the_corners_of_a_ring_in_order_whichever_way_it_is_drawn(ccw):
    # a square drawn counter-clockwise (or clockwise): each corner with its next and previous
    # corner going counter-clockwise, and its piece number; two pieces
    sq = [(0, 0), (2, 0), (2, 2), (0, 2)]
    tri = [(5, 0), (7, 0), (6, 1)]
    polys = [shapely.Polygon(sq if ccw else sq[::-1]), shapely.Polygon(tri)]
    corner, nxt, prv, piece = S._rings(np.array(polys, dtype=object), np.array([3, 8]))
    assert piece.tolist() == [3, 3, 3, 3, 8, 8, 8]
    for k in range(7):
        ring = [tuple(v) for v in (sq if piece[k] == 3 else tri)]
        i = ring.index(tuple(corner[k]))
        assert tuple(nxt[k]) == ring[(i + 1) % len(ring)] and tuple(prv[k]) == ring[i - 1], k
    assert S._rings(np.array([], dtype=object), np.array([], np.int64))[0].shape == (0, 2)


def test_blockers_corners_edges_and_padded_corner_rings():
    # an L-shaped piece (5 convex corners, one reflex at (1, 1)) and a square: the convex
    # corners by piece; the edges of every outline, each from a corner to the next going
    # counter-clockwise; each piece's corners padded to the longest list by repeating its last
    from tapeline.board.terrain import Piece

    ell = Piece("l", shapely.Polygon([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]))
    sq = Piece.rect("s", 5, 5, 1, 1)
    bl = S.Blockers([ell, sq])
    corners = {(int(p), tuple(v)) for p, v in zip(bl.vpiece, bl.vx)}
    assert corners == {(0, c) for c in [(0, 0), (2, 0), (2, 1), (1, 2), (0, 2)]} | {(1, c) for c in [(5, 5), (6, 5), (6, 6), (5, 6)]}
    edges = {(int(p), tuple(a), tuple(b)) for p, a, b in zip(bl.epiece, bl.e0, bl.e1)}
    ring = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    assert {e for e in edges if e[0] == 0} == {(0, ring[i], ring[(i + 1) % 6]) for i in range(6)}
    assert len(edges) == 10
    rings = bl.corner_rings
    assert rings.shape == (2, 5, 2)
    assert {tuple(v) for v in rings[1]} == {(5, 5), (6, 5), (6, 6), (5, 6)}
    assert tuple(rings[1, 4]) == tuple(rings[1, 3])              # padded with its last corner


@pytest.mark.parametrize("za, zb, top, blocked", [
    (4.0, 0.0, 1.0, False),  # below the top from t = 3/4 on: (7.5, 7.5)–(10, 10), past the square
    (0.0, 4.0, 1.0, False),  # below it up to t = 1/4: (0, 0)–(2.5, 2.5), short of the square
    (4.0, 0.0, 3.0, True),   # below it from t = 1/4 on: (2.5, 2.5)–(10, 10) runs through it
    (0.0, 4.0, 3.0, True),   # below it up to t = 3/4: (0, 0)–(7.5, 7.5) runs through it
    (4.0, 4.0, 3.0, False),  # both eyes above the top: no part of the line is low
])
def test_with_heights_only_the_low_part_of_a_segment_is_tested(za, zb, top, blocked):
    # The segment (0, 0)–(10, 10) crosses the square [4, 6]² for t in [0.4, 0.6]; the sight
    # line's height falls linearly from za to zb, so it runs below the piece's top where
    # za + t·(zb − za) < top.
    from tapeline.board.terrain import Piece

    bl = S.Blockers([Piece.rect("sq", 4, 4, 2, 2)])
    heights = (np.array([za]), np.array([zb]), np.array([top]))
    out = S._blocked(bl, np.array([0]), np.array([[0.0, 0.0]]), np.array([[10.0, 10.0]]), np.ones((1, 1), bool), heights)
    assert out.tolist() == [blocked]


def test_partial_conditions_are_the_outlines_of_the_pieces_between_the_eyes():
    # Eyes at 0 (A) and 4 (B). A square of top 1 lies between them: its 4 edges, reached at
    # s = (1 − 0)/4 = 0.25 of the way up; a disc of top 3: its circle, at s = 0.75; a square of
    # top 5 (above both eyes) and one of top 0 (at the low eye, s = 0) give none; and a pair
    # already found gives none.
    from tapeline.board.terrain import Piece

    pieces = [Piece.rect("low", 4, 4, 2, 2), Piece.disc("round", 10, 2, 1.5), Piece.rect("tall", 0, 8, 1, 1),
              Piece.rect("flat", 8, 8, 1, 1)]
    bl = S.Blockers(pieces)
    heights = (np.array([0.0, 0.0]), np.array([4.0, 4.0]), np.array([1.0, 3.0, 5.0, 0.0]))
    rel_pair, pj = np.array([0, 0, 0, 0, 1]), np.array([0, 1, 2, 3, 0])
    pair, s, kind, a, b, piece = S._partial_conditions(bl, rel_pair, pj, np.array([False, True]), heights)
    got = sorted((int(p), float(x), int(k), tuple(map(float, u)), tuple(map(float, v)), int(j))
                 for p, x, k, u, v, j in zip(pair, s, kind, a, b, piece))
    ring = [(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)]
    edges = {(ring[i], ring[(i + 1) % 4]) for i in range(4)}
    assert [g for g in got if g[2] == 1] == [(0, 0.75, 1, (10.0, 2.0), (1.5, 0.0), 1)]
    square = [g for g in got if g[2] == 0]
    assert {(g[3], g[4]) for g in square} == edges and len(square) == 4
    assert {(g[0], g[1], g[5]) for g in square} == {(0, 0.25, 0)}


def test_meets_answers_as_intersects_near_a_round_piece_and_a_polygon():
    """Blockers.meets bounds a round piece's polygon by the circles inside and around it before
    asking shapely: convex polygons put by bisection at distances from the centre just inside
    and outside each of the two circles, and between them, at random angles, must be answered
    as ``intersects`` answers; so must polygons about a polygon piece, asked directly."""
    import random

    from shapely import affinity

    from tapeline.board.terrain import Piece

    rng = random.Random(3)
    disc, sq = Piece.disc("rock", 10, 10, 2.0), Piece.rect("block", 20, 5, 3, 3)
    bl = S.Blockers([disc, sq])
    inner, outer = disc.circle_bounds
    assert inner == pytest.approx(2.0, abs=1e-12) and 0 < outer - inner < 2e-6 * 2.0
    shape = shapely.Polygon([(0, 0), (0.7, -0.3), (0.9, 0.4), (0.2, 0.6)])
    targets = [r + e for r in (inner, outer, (inner + outer) / 2) for e in (-1e-3, -1e-7, -1e-9, -5e-10, 0.0, 1e-9, 1e-7, 1e-3)]
    geoms, piece = [], []
    for i, (want, j) in enumerate((t, j) for t in targets * 5 for j in (0, 1)):
        cx, cy = (10.0, 10.0) if j == 0 else (21.5, 6.5)
        want = want if j == 0 else want - 0.5  # about the square: its half side less
        # at random angles, and towards a corner of the disc's polygon (at 2π(i + ½)/2048) and
        # the middle of an edge, where it reaches farthest and least far
        th = rng.uniform(0, 2 * math.pi) if i < 6 * len(targets) else (math.pi / 2048 if i < 8 * len(targets) else 0.0)
        lo, hi = 0.0, 10.0  # the shape moved out from the centre along th until its distance is `want`
        for _ in range(80):
            mid = (lo + hi) / 2
            g = affinity.translate(shape, cx + mid * math.cos(th), cy + mid * math.sin(th))
            lo, hi = (mid, hi) if shapely.distance(shapely.Point(cx, cy), g) < want else (lo, mid)
        geoms.append(g)
        piece.append(j)
    geoms_arr, piece_arr = np.array(geoms, dtype=object), np.array(piece, np.intp)
    expect = shapely.intersects(geoms_arr, np.array([disc.footprint, sq.footprint], dtype=object)[piece_arr])
    assert 0 < expect.sum() < len(expect)
    assert np.array_equal(bl.meets(geoms_arr, piece_arr), expect)


def test_footprint_hits_are_an_strtree_query_with_the_predicate(monkeypatch):
    """Footprints.hits gives what an STRtree query with ``intersects`` gives — the same
    segments and footprints in the same order — less what ``allowed`` forbids: random segments
    (some of them points) against overlapping pieces, in chunks of a few rows too."""
    rng = np.random.default_rng(4)
    geoms = np.array([shapely.box(*xy, *(xy + wh)) for xy, wh in zip(rng.uniform(0, 10, (9, 2)), rng.uniform(0.3, 3, (9, 2)))]
                     + [shapely.Polygon([(2, 2), (6, 2), (6, 3), (3, 3), (3, 6), (2, 6)])], dtype=object)
    fp = S.Footprints(geoms)
    s0 = rng.uniform(-1, 12, (300, 2))
    s1 = np.where(rng.random((300, 1)) < 0.1, s0, rng.uniform(-1, 12, (300, 2)))
    s1[250:] = s0[250:] + rng.uniform(-0.5, 0.5, (50, 2))  # short ones too, some across an edge
    # and segments that only touch the L's outline, on each side of its box: they meet it
    s0[:4] = [(1, 2.5), (6, 0.5), (2.5, 6), (0.5, 2)]
    s1[:4] = [(2, 2.5), (6, 2.5), (2.5, 7), (2, 2)]
    lines = shapely.linestrings(np.stack([s0, s1], axis=1))
    pts = (s0 == s1).all(axis=1)
    lines[pts] = shapely.points(s0[pts])
    want_row, want_k = shapely.STRtree(geoms).query(lines, predicate="intersects")
    pair = rng.integers(0, 40, 300)
    allowed = rng.random((40, 12)) < 0.8
    piece = np.arange(2, 12)  # footprint k is piece k + 2 of the mask
    allowed[pair[:4], 11] = True  # (the touching segments may be blocked by the L)
    keep = allowed[pair[want_row], piece[want_k]]
    for chunk in (S.Footprints.CHUNK, 7):
        monkeypatch.setattr(S.Footprints, "CHUNK", chunk)
        row, k = fp.hits(s0, s1, allowed, pair, piece)
        assert row.tolist() == want_row[keep].tolist() and k.tolist() == want_k[keep].tolist()
    assert len(row) > 50 and pts.any() and {0, 1, 2, 3} <= set(row[k == 9].tolist())


def test_box_meets_is_the_boxes_intersecting():
    """Blockers.box_meets: does the box of the segment p → q meet the box of the piece's
    footprint — shapely's boxes asked the same, touching boxes included."""
    from tapeline.board.terrain import Piece

    rng = np.random.default_rng(7)
    pieces = [Piece.rect("a", 2, 2, 3, 1), Piece.disc("b", 8, 8, 1.5), Piece.poly("c", [(0, 9), (3, 9), (1, 12)])]
    bl = S.Blockers(pieces)
    p, q = rng.uniform(0, 12, (400, 2)), rng.uniform(0, 12, (400, 2))
    q[:10] = p[:10] + [0.0, 1.0]  # upright segments
    p[10, :], q[10, :] = (5, 0), (5, 2)  # touching the rectangle's box at its corner (5, 2) ...
    p[11, :], q[11, :] = (1, 3), (2, 4)  # ... and at (2, 3): each side of its box touched once
    j = rng.integers(0, 3, 400)
    j[10] = j[11] = 0
    seg_box = shapely.box(*np.minimum(p, q).T, *np.maximum(p, q).T)
    piece_box = shapely.box(*shapely.bounds(np.array([x.footprint for x in pieces], dtype=object)[j]).T)
    got = bl.box_meets(p, q, j)
    assert np.array_equal(got, shapely.intersects(seg_box, piece_box)) and got[10] and got[11] and 0 < got.sum() < 400


@pytest.mark.parametrize("grown", [False, True])
def test_a_round_piece_blocks_a_segment_by_its_distance_even_beside_its_box(grown):
    """_blocked tests a round piece only for the segments whose box comes within 2 DELTA of the
    circle's box; a segment running level with (or upright beside) the circle, at a distance
    just inside or outside the threshold — r − SIGHT_TOL, or r + DELTA for the grown test —
    must still be answered by its distance."""
    from tapeline.board.terrain import Piece

    bl = S.Blockers([Piece.disc("rock", 10, 30, 2.0)])  # (x and y apart: no axis stands in for the other)
    limit = 2.0 + S.DELTA if grown else 2.0 - S.SIGHT_TOL
    s0, s1, want = [], [], []
    for e in (-3e-9, -3e-10, 3e-10, 3e-9, 3e-8):
        h = limit + e  # the distance of the segment from the centre
        for a, b in (((5, 30 - h), (15, 30 - h)), ((5, 30 + h), (15, 30 + h)), ((10 - h, 25), (10 - h, 35)), ((10 + h, 25), (10 + h, 35))):
            s0.append(a)
            s1.append(b)
            want.append(e < 0)
    n = len(s0)
    got = S._blocked(bl, np.zeros(n, np.intp), np.array(s0, float), np.array(s1, float), np.ones((1, 1), bool), None, grown=grown)
    assert got.tolist() == want
