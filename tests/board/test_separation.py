"""One piece across the band between two bases (board/separation.py): convex parts, their
erosion, and the lemma — whenever it settles a pair as blocked, no sight line exists (the exact
search and a dense brute force agree), and it does settle the plain cases."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from tapeline.board.bases import OvalBase, RoundBase
from tapeline.board.separation import DELTA, Cores, convex_parts, separated
from tapeline.board.sight import SIGHT_TOL, Blockers, _bases, frames, outer_and_inner_tangents, search_witnesses
from tapeline.board.table import Figure
from tapeline.board.terrain import Piece

L_SHAPE = [(0, 0), (4, 0), (4, 1), (1, 1), (1, 3), (0, 3)]
U_SHAPE = [(0, 0), (5, 0), (5, 3), (4, 3), (4, 1), (1, 1), (1, 3), (0, 3)]
COMB = [(0, 0), (6, 0), (6, 3), (5, 3), (5, 1), (4, 1), (4, 3), (3, 3), (3, 1), (2, 1), (2, 3), (1, 3), (1, 1), (0, 1)]
STAR = [(math.cos(t) * (2 if k % 2 == 0 else 0.8), math.sin(t) * (2 if k % 2 == 0 else 0.8))
        for k, t in enumerate(np.linspace(0, 2 * math.pi, 10, endpoint=False))]


@pytest.mark.parametrize("ring", [L_SHAPE, U_SHAPE, COMB, STAR, [(0, 0), (2, 0), (2, 2), (0, 2)]])
def test_convex_parts_are_convex_and_cover_the_polygon_exactly(ring):
    poly = shapely.Polygon(ring)
    parts = convex_parts(np.array(ring, float))
    for p in parts:
        n = len(p)
        u, w = p - np.roll(p, 1, axis=0), np.roll(p, -1, axis=0) - p
        assert (u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0] >= -1e-12).all()  # convex, counter-clockwise
        assert n >= 3 and poly.buffer(1e-9).contains(shapely.Polygon(p))
    assert sum(shapely.Polygon(p).area for p in parts) == pytest.approx(poly.area, abs=1e-9)
    assert shapely.union_all([shapely.Polygon(p) for p in parts]).symmetric_difference(poly).area < 1e-9


def test_cores_lie_deep_inside_and_link_the_arms_of_an_l():
    fp = shapely.Polygon(L_SHAPE)
    cores = Cores(np.array([fp], dtype=object), np.array([0]), np.full((1, 3), np.nan), 1e-3)
    assert len(cores.piece) == 4  # two parts each way
    for q in range(len(cores.piece)):
        for c in cores.corners[q]:
            assert fp.exterior.distance(shapely.Point(c)) >= 1e-3 - 1e-12 and fp.contains(shapely.Point(c))
    assert len(cores.link) >= 2  # the two whole arms overlap (each way round), and each overlaps a part cut the other way
    for (a, b), y in zip(cores.link, cores.link_y):
        for q in (a, b):
            assert (np.einsum("ek,k->e", cores.normal[q], y) <= cores.offset[q] + 1e-12).all()


def fig(id, x, y, base=None):
    return Figure(id, "u" + id, "s", base or RoundBase(32), x, y)


def settles(fa, fb, piece) -> bool:
    """Does the lemma settle the pair blocked by this piece alone?"""
    bl = Blockers([piece])
    a, b = _bases([fa], np.zeros(1, np.intp)), _bases([fb], np.zeros(1, np.intp))
    _, _, normal = outer_and_inner_tangents(a.c, a.m, b.c, b.m, a.inner, b.inner)
    return bool(separated(bl.cores, a, b, normal[:, 0], normal[:, 1], np.zeros(1, np.intp))[0])


def brute_clear(fa, fb, pieces, n=240) -> bool:
    """Some segment between n points of each outline misses the interior of every piece (shrunk
    by 1e-7"), by shapely."""
    pts = []
    for f in (fa, fb):
        c, m = frames([f])
        t = np.linspace(0, 2 * np.pi, n, endpoint=False)
        pts.append(c[0] + np.column_stack([np.cos(t), np.sin(t)]) @ m[0].T)
    segs = shapely.linestrings(np.stack([np.repeat(pts[0], n, axis=0), np.tile(pts[1], (n, 1))], axis=1))
    clear = np.ones(len(segs), bool)
    for piece in (pieces if isinstance(pieces, list) else [pieces]):
        if piece.circle is not None:
            x, y, r = piece.circle
            clear &= shapely.distance(segs, shapely.Point(x, y)) >= r - 1e-7
        else:
            clear &= ~shapely.intersects(segs, piece.footprint.buffer(-1e-7, join_style="mitre"))
    return bool(clear.any())


def test_plain_cases():
    a, b = fig("a", 0, 0), fig("b", 10, 0)
    assert settles(a, b, Piece.rect("wall", 4.8, -3, 0.4, 6))  # across the band
    assert not settles(a, b, Piece.rect("short", 4.8, -3, 0.4, 3.4))  # a gap above it
    assert settles(a, b, Piece.disc("rock", 5, 0, 1.2))
    assert not settles(a, b, Piece.disc("pebble", 5, 0, 0.5))
    # an L whose corner stands in the band: neither arm alone spans it, the two together do
    ell = Piece.poly("ell", [(4, -3), (6, -3), (6, -2.5), (4.5, -2.5), (4.5, 3), (4, 3)])
    assert settles(a, b, ell)
    # an oval whose long axis points along the wall sees past the ends of a wall that blocks a
    # round base at its place (the exact support function, not a disc around the oval)
    h = fig("h", 0, 0, OvalBase(100, 40, 90))
    assert settles(a, b, Piece.rect("wall", 4.8, -1, 0.4, 2)) and not settles(h, b, Piece.rect("wall", 4.8, -1, 0.4, 2))
    assert settles(h, b, Piece.rect("wall", 4.8, -1.6, 0.4, 3.2))
    assert not settles(fig("w", 0, 0, OvalBase(100, 40, 0)), b, Piece.rect("wall", 1.2, -1, 0.4, 2))  # the wall cuts into the oval


def test_whenever_the_lemma_settles_a_pair_no_sight_line_exists():
    rng = np.random.default_rng(7)
    settled = 0
    for k in range(160):
        fa = fig("a", 0, float(rng.uniform(-1, 1)), _random_base(rng))
        fb = fig("b", float(rng.uniform(6, 12)), float(rng.uniform(-2, 2)), _random_base(rng))
        piece = _random_piece(rng, f"p{k}", (fa.at[0] + fb.at[0]) / 2, (fa.at[1] + fb.at[1]) / 2)
        if piece.footprint.distance(fa.base.polygon(*fa.at)) < 0.05 or piece.footprint.distance(fb.base.polygon(*fb.at)) < 0.05:
            continue
        if settles(fa, fb, piece):
            settled += 1
            found, _ = search_witnesses([fa], [fb], Blockers([piece]), np.ones((1, 1), bool))
            assert not found[0], f"case {k}: settled as blocked, but the search finds a sight line"
            assert not brute_clear(fa, fb, piece), f"case {k}: settled as blocked, but a sampled ray is clear"
    assert settled >= 40  # the random pieces often stand across the band


def _random_base(rng):
    if rng.random() < 0.4:
        return OvalBase(*[(60, 35), (100, 40), (120, 92)][int(rng.integers(3))], float(rng.uniform(0, 360)))
    return RoundBase([25, 32, 50, 80][int(rng.integers(4))])


def _random_piece(rng, id, x, y) -> Piece:
    kind = rng.random()
    if kind < 0.2:
        return Piece.disc(id, x + float(rng.uniform(-1, 1)), y + float(rng.uniform(-1, 1)), float(rng.uniform(0.3, 2.5)))
    if kind < 0.6:
        a, b, t = rng.uniform(1, 6), rng.uniform(1, 6), rng.uniform(0.2, 1.0)
        pts = [(0, 0), (a, 0), (a, t), (t, t), (t, b), (0, b)]
        ox, oy = -rng.uniform(0, a), -rng.uniform(0, b)
    else:
        a, b = rng.uniform(0.2, 1.0), rng.uniform(1, 7)
        pts = [(0, 0), (a, 0), (a, b), (0, b)]
        ox, oy = -a / 2, -rng.uniform(0, b)
    th = float(rng.uniform(0, 2 * math.pi))
    c, s = math.cos(th), math.sin(th)
    return Piece.poly(id, [(x + (u + ox) * c - (v + oy) * s, y + (u + ox) * s + (v + oy) * c) for u, v in pts])


def test_the_margins_are_far_above_rounding():
    assert SIGHT_TOL < DELTA / 10 and DELTA < 1e-6  # below the contact tolerance, above float noise


def two_pieces_settle(fa, fb, pieces) -> bool:
    """Does the two-piece corollary (a gate through the piece on the centre segment, its
    windows closed by other pieces) settle the pair, as find_witnesses runs it?"""
    from tapeline.board.sight import _Search, _two_pieces

    sr = _Search([fa], [fb], Blockers(pieces), np.ones((1, len(pieces)), bool), None, None)
    pair, piece = sr.centre()
    if sr.done[0]:
        return False
    _, _, normal = outer_and_inner_tangents(sr.a.c, sr.a.m, sr.b.c, sr.b.m, sr.a.inner, sr.b.inner)
    return bool(len(_two_pieces(sr, pair, piece, normal[pair])))


def test_two_staggered_walls_block_together():
    a, b = fig("a", 0, 0), fig("b", 12, 0)
    low, high = Piece.rect("low", 4, -3, 0.4, 3.2), Piece.rect("high", 7, -0.5, 0.4, 3.5)
    assert two_pieces_settle(a, b, [low, high]) and two_pieces_settle(a, b, [high, low])
    # a shorter high wall: above it only lines too steep to come down to B again pass, and it
    # reaches past the window's outer tangent with B but not past the lines from A through it
    short = Piece.rect("high", 7, -0.5, 0.4, 1.5)
    assert two_pieces_settle(a, b, [low, short])
    assert not search_witnesses([a], [b], Blockers([low, short]), np.ones((1, 2), bool))[0][0]
    assert not settles(a, b, low) and not settles(a, b, high)  # neither alone
    found, _ = search_witnesses([a], [b], Blockers([low, high]), np.ones((1, 2), bool))
    assert not found[0]
    # with a gap between their ends a line passes, and nothing is settled
    assert not two_pieces_settle(a, b, [Piece.rect("low", 4, -3, 0.4, 3.2), Piece.rect("high", 7, 0.6, 0.4, 3.5)])


def test_whenever_two_pieces_settle_a_pair_no_sight_line_exists():
    rng = np.random.default_rng(11)
    settled = 0
    for k in range(200):
        fa = fig("a", 0, float(rng.uniform(-1, 1)), _random_base(rng))
        fb = fig("b", float(rng.uniform(8, 14)), float(rng.uniform(-2, 2)), _random_base(rng))
        mid = (np.array(fa.at) + np.array(fb.at)) / 2
        pieces = [_random_piece(rng, f"p{k}-{i}", *(mid + rng.uniform([-3, -2], [3, 2]))) for i in range(int(rng.integers(2, 4)))]
        if any(p.footprint.distance(f.base.polygon(*f.at)) < 0.05 for p in pieces for f in (fa, fb)):
            continue
        if two_pieces_settle(fa, fb, pieces):
            settled += 1
            found, _ = search_witnesses([fa], [fb], Blockers(pieces), np.ones((1, len(pieces)), bool))
            assert not found[0], f"case {k}: settled as blocked, but the search finds a sight line"
            assert not brute_clear(fa, fb, pieces), f"case {k}: settled as blocked, but a sampled ray is clear"
    assert settled >= 20


def _without_the_cone(monkeypatch):
    """The two-piece test as it was before "Through a window": every segment from a window to
    the base beyond had to cross the closing piece."""
    from tapeline.board import sight

    lines = sight._window_lines

    def no_cone(e, s, q):
        outer, cone, valid = lines(e, s, q)
        return outer, cone, np.zeros_like(valid)

    monkeypatch.setattr(sight, "_window_lines", no_cone)


def test_a_window_need_be_closed_only_for_the_lines_in_line_with_the_other_base(monkeypatch):
    # Two 2" bases 24" apart; a block across the band whose top (y = 0.3) leaves a window below
    # the upper tangent (y = 1), and a rock near B. A sight line over the block passes above its
    # corner (16.5, 0.3) coming from A, so it falls at most as steeply as the tangent from that
    # corner to A (about 0.0424" an inch): at x = 21 it is at y ≥ 0.109. A rock whose lowest point
    # is y = 0.05 there closes the window; one at 0.2 lets the line pass under it.
    a, b = fig("a", 0, 0, RoundBase(50.8)), fig("b", 24, 0, RoundBase(50.8))
    block = Piece.rect("block", 15, -3, 1.5, 3.3)
    low, high = Piece.disc("rock", 21, 0.05 + 1.9, 1.9), Piece.disc("rock", 21, 0.2 + 1.9, 1.9)
    assert two_pieces_settle(a, b, [block, low])
    assert not search_witnesses([a], [b], Blockers([block, low]), np.ones((1, 2), bool))[0][0]
    assert not brute_clear(a, b, [block, low])
    # steeper segments from the window to B pass under the rock: no piece closes every segment
    # from the window to B, nor from A to the window — which the test asked before
    steep = shapely.LineString([(16.5, 0.31), (24, -0.9)])
    assert steep.distance(shapely.Point(21, 1.95)) > 1.9 and not steep.intersects(block.footprint)
    found, wit = search_witnesses([a], [b], Blockers([block, high]), np.ones((1, 2), bool))
    assert found[0] and not two_pieces_settle(a, b, [block, high])
    assert wit[0, 0, 1] > 0.3 and wit[0, 1, 1] < 0.3  # over the block, under the rock
    _without_the_cone(monkeypatch)
    assert not two_pieces_settle(a, b, [block, low])


def test_whenever_two_pieces_settle_through_a_window_no_sight_line_exists(monkeypatch):
    # A block across the band leaving a window on one side, and a random piece beyond it, near
    # the window's line, towards B or towards A
    rng = np.random.default_rng(23)
    cases, settled = [], 0
    for k in range(200):
        fa = fig("a", 0, float(rng.uniform(-0.5, 0.5)), _random_base(rng))
        far = float(rng.uniform(10, 16))
        fb = fig("b", far, float(rng.uniform(-1, 1)), _random_base(rng))
        side = 1 if rng.random() < 0.5 else -1
        x, w = far * float(rng.uniform(0.35, 0.65)), float(rng.uniform(0.3, 1.5))
        top = (fa.at[1] + fb.at[1]) / 2 + side * (max(fa.base.reach, fb.base.reach) - float(rng.uniform(0.05, 0.8)))
        block = Piece.rect(f"block{k}", x, top - 6 if side > 0 else top, w, 6)
        x2 = float(rng.uniform(x + w + 0.5, far - 1)) if rng.random() < 0.5 else float(rng.uniform(1, x - 0.5))
        pieces = [block, _random_piece(rng, f"p{k}", x2, top + side * float(rng.uniform(0.3, 2.5)))]
        if any(p.footprint.distance(f.base.polygon(*f.at)) < 0.05 for p in pieces for f in (fa, fb)):
            continue
        if two_pieces_settle(fa, fb, pieces):
            settled += 1
            cases.append((fa, fb, pieces))
            found, _ = search_witnesses([fa], [fb], Blockers(pieces), np.ones((1, 2), bool))
            assert not found[0], f"case {k}: settled as blocked, but the search finds a sight line"
            assert not brute_clear(fa, fb, pieces), f"case {k}: settled as blocked, but a sampled ray is clear"
    _without_the_cone(monkeypatch)
    assert settled >= 30 and sum(not two_pieces_settle(*c) for c in cases) >= 5  # some only through the cone


def test_the_window_lines_lie_close_to_the_exact_tangents():
    from tapeline.board.separation import WINDOW_WIDTH, Base, support, through
    from tapeline.board.sight import _window_lines

    # a window on x = 10 from y = 0.3 to y = 1, seen from a disc of radius 0.5 at the origin:
    # the lines bounding the lines from the disc through it are its inner tangents with the
    # disc, through (10, 1) on the one side and (10, 0.3) on the other; and its outer tangents
    # with a disc of radius 1 at (20, 0) run from the same two ends
    half, mid = 0.35 + DELTA, np.array([10.0, 0.65])
    m = np.array([[[0.0, WINDOW_WIDTH], [half, 0.0]]])  # (the long half-axis first, as windows() makes it)
    e = Base(mid[None], m, np.linalg.inv(m), np.full(1, WINDOW_WIDTH), np.full(1, half))

    def disc(x, r):
        return Base(np.array([[x, 0.0]]), np.eye(2)[None] * r, np.eye(2)[None] / r, np.full(1, r), np.full(1, r))

    q, s = disc(0.0, 0.5), disc(20.0, 1.0)
    outer, cone, valid = _window_lines(e, s, q)
    assert valid.all()
    ends = np.array([[10, 1], [10, 0.3]])
    for k in range(2):
        g = support(e.c, e.m, cone[:, k]) + support(q.c, q.m, -cone[:, k])
        assert -1e-3 < g[0] <= -DELTA  # the window behind the disc along it, by a hair
        # an outer tangent touches both: the window and the disc reach equally far along it
        assert abs(support(e.c, e.m, outer[:, k])[0] - support(s.c, s.m, outer[:, k])[0]) < 1e-4
    for lines in (cone, outer):
        assert sorted(int(np.argmax(ends @ lines[0, k])) for k in range(2)) == [0, 1]  # one line through each end
    # along a cone line the window's side of the cone reaches no further than the window; along
    # a direction where the window is not behind the disc, as far as the base beyond it
    assert through(e, s, q, cone[:, 0])[0] == support(e.c, e.m, cone[:, 0])[0]
    slant = np.array([[0.6, 0.8]])
    assert through(e, s, q, slant)[0] == support(s.c, s.m, slant)[0] == 13.0
    down = np.array([[0.0, -1.0]])  # the disc reaches lower than the window: not behind it
    assert through(e, s, q, down)[0] == support(s.c, s.m, down)[0] == 1.0


def test_two_pieces_settle_nothing_without_a_window(monkeypatch):
    from tapeline.board import sight
    from tapeline.board.separation import Base

    a, b = fig("a", 0, 0), fig("b", 12, 0)
    sr = sight._Search([a], [b], Blockers([Piece.rect("wall", 5, -3, 0.4, 6)]), np.ones((1, 1), bool), None, None)
    pair, piece = sr.centre()
    _, _, normal = outer_and_inner_tangents(sr.a.c, sr.a.m, sr.b.c, sr.b.m, sr.a.inner, sr.b.inner)
    assert not len(sight._two_pieces(sr, pair[:0], piece[:0], normal[:0]))  # no pair asked
    none = Base(np.zeros((0, 2)), np.zeros((0, 2, 2)), np.zeros((0, 2, 2)), np.zeros(0), np.zeros(0))
    monkeypatch.setattr(sight, "windows", lambda *args: (np.zeros(0, np.intp), np.zeros(0, np.intp), none))
    assert not len(sight._two_pieces(sr, pair, piece, normal[pair]))  # no window to close
