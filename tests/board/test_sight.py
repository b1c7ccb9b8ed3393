"""The exact witness search (board/sight.py) against hand-built cases and a dense brute-force
ray sampler; every witness is checked by an independent segment test."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings, strategies as st

from tapeline.board.bases import OvalBase, RoundBase
from tapeline.board.sight import Blockers, common_tangents, find_witnesses, frames
from tapeline.board.table import Figure
from tapeline.board.terrain import Piece
from tapeline.board.units import TOUCH


def fig(id, x, y, base=None):
    return Figure(id, "u" + id, "s", base or RoundBase(32), x, y)


def on_base(p, f: Figure, tol=1e-6) -> bool:
    c, m = frames([f])
    q = np.linalg.solve(m[0], np.asarray(p, float) - c[0])
    return float(q @ q) <= 1 + tol


def clear(seg, pieces) -> bool:
    """Independent test: the segment spends no length in the interior of any footprint (shrunk
    by 1e-7": running along an edge or through a corner touches only the boundary), and stays
    outside every circular piece's exact circle."""
    line = shapely.LineString(seg) if np.linalg.norm(np.subtract(seg[1], seg[0])) > 1e-12 else shapely.Point(seg[0])
    for p in pieces:
        if p.circle is not None:
            x, y, r = p.circle
            if shapely.distance(line, shapely.Point(x, y)) < r - 1e-7:
                return False
        elif shapely.intersection(line, p.footprint.buffer(-1e-7, join_style="mitre")).length > 1e-9:
            return False
    return True


def boundary(f: Figure, n: int) -> np.ndarray:
    c, m = frames([f])
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return c[0] + np.column_stack([np.cos(t), np.sin(t)]) @ m[0].T


def sampler_clear(fa, fb, pieces, n) -> np.ndarray:
    """Brute force: every segment between n boundary points of A and n of B; True where the
    segment misses every footprint's interior (strictly: rectangles by slab clipping, circles
    by distance). Returns the clear segments (k, 2, 2)."""
    pa, pb = boundary(fa, n), boundary(fb, n)
    s0 = np.repeat(pa, n, axis=0)
    s1 = np.tile(pb, (n, 1))
    ok = np.ones(len(s0), bool)
    d = s1 - s0
    for p in pieces:
        if p.circle is not None:
            x, y, r = p.circle
            c = np.array([x, y])
            L2 = np.einsum("ij,ij->i", d, d)
            t = np.clip(np.einsum("ij,ij->i", c - s0, d) / np.where(L2 > 0, L2, 1), 0, 1)
            dist = np.linalg.norm(s0 + t[:, None] * d - c, axis=1)
            ok &= dist >= r - 1e-9
            continue
        x0, y0, x1, y1 = p.footprint.bounds
        lo, hi = np.zeros(len(s0)), np.ones(len(s0))
        for k, (a, b) in enumerate(((x0, x1), (y0, y1))):
            dk = d[:, k]
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                ta, tb = (a - s0[:, k]) / dk, (b - s0[:, k]) / dk
            par = np.abs(dk) < 1e-15
            inside = (s0[:, k] > a) & (s0[:, k] < b)
            tmin = np.where(par, np.where(inside, -np.inf, np.inf), np.minimum(ta, tb))
            tmax = np.where(par, np.where(inside, np.inf, -np.inf), np.maximum(ta, tb))
            lo, hi = np.maximum(lo, tmin), np.minimum(hi, tmax)
        ok &= ~(hi - lo > 1e-9)
    return np.stack([s0[ok], s1[ok]], axis=1)


def search(fa, fb, pieces):
    bl = Blockers(pieces)
    found, wit = find_witnesses([fa], [fb], bl, np.ones((1, len(pieces)), bool))
    return bool(found[0]), wit[0]


# --- hand-built cases ----------------------------------------------------------------------


def test_wall_blocks_and_open_ends_do_not():
    a, b = fig("a", 0, 0), fig("b", 10, 0)
    wall = Piece.rect("w", 4, -3, 1, 6)
    assert search(a, b, [wall])[0] is False
    short = Piece.rect("w", 4, -0.5, 1, 6)  # a line below it grazes round the wall's end
    ok, w = search(a, b, [short])
    assert ok and clear(w, [short]) and on_base(w[0], a) and on_base(w[1], b)


def test_grazing_a_corner_is_clear():
    # The outer common tangent y = r runs exactly along the wall's bottom edge.
    a, b = fig("a", 0, 0), fig("b", 10, 0)
    r = a.base.radius
    wall = Piece.rect("w", 4, r, 1, 5)
    low = Piece.rect("v", 4, -5, 1, 5 - r)  # touches y = -r from below
    ok, w = search(a, b, [wall, low])
    assert ok and clear(w, [wall, low])


def test_slit_narrower_than_a_16x16_sampler_is_found():
    """The only sight line runs through a 0.004" slit in a long wall, off the centre line."""
    a, b = fig("a", 0, 0), fig("b", 12, 0.9)
    top = Piece.rect("top", 5.9, 0.404, 0.2, 10)
    bottom = Piece.rect("bottom", 5.9, -10, 0.2, 10.4)
    pieces = [top, bottom]
    assert len(sampler_clear(a, b, pieces, 16)) == 0  # the coarse sampler misses it
    ok, w = search(a, b, pieces)
    assert ok
    assert clear(w, pieces) and on_base(w[0], a) and on_base(w[1], b)
    assert len(sampler_clear(a, b, pieces, 1500)) > 0  # a dense sampler confirms one exists


def test_circular_terrain_uses_its_exact_circle():
    a, b = fig("a", 0, 0), fig("b", 10, 0)
    r = a.base.radius
    # A disc of radius r centred on the axis leaves the two outer tangents y = ±r grazing it.
    disc = Piece.disc("c", 5, 0, r)
    ok, w = search(a, b, [disc])
    assert ok and clear(w, [disc])
    assert search(a, b, [Piece.disc("c", 5, 0, r + 1e-4)])[0] is False


def test_model_inside_area_terrain_sees_out_through_its_own_base():
    # A's base overlaps a wide footprint; only the part of A's base outside it can see B.
    a, b = fig("a", 0, 0), fig("b", 6, 0)
    area = Piece.rect("area", -3, -3, 3.3, 6)  # covers x <= 0.3: most of A's base
    ok, w = search(a, b, [area])
    assert ok and clear(w, [area]) and on_base(w[0], a)
    assert w[0][0] >= 0.3 - 1e-9
    fully = Piece.rect("area", -3, -3, 3 + a.base.radius + 0.01, 6)
    assert search(a, b, [fully])[0] is False


def test_oval_bases_are_exact_ellipses():
    a = fig("a", 0, 0, OvalBase(100, 40, 90))  # long axis vertical, semi-axes 1.97 x 0.79
    b = fig("b", 8, 0)
    wall_hi = Piece.rect("hi", 3.9, 1.8, 0.2, 5)
    wall_lo = Piece.rect("lo", 3.9, -6, 0.2, 5.6)
    ok, w = search(a, b, [wall_hi, wall_lo])
    assert ok and clear(w, [wall_hi, wall_lo]) and on_base(w[0], a) and on_base(w[1], b)


def test_common_tangents_of_circles_match_the_closed_form():
    a, b = fig("a", 0, 0, RoundBase(40)), fig("b", 7, 3, RoundBase(80))
    ca, ma = frames([a])
    cb, mb = frames([b])
    pts, dirs, ok = common_tangents(ca, ma, cb, mb)
    assert ok.all()
    for p, d in zip(pts[0], dirs[0]):
        n = np.array([-d[1], d[0]])
        for f in (a, b):  # tangent: centre at distance r from the line
            assert abs(abs(n @ (np.array(f.at) - p)) - f.base.radius) < 1e-9


def test_batch_matches_single_pairs_and_is_symmetric():
    pieces = [Piece.rect("w1", 4, -1, 0.5, 3), Piece.rect("w2", 6, 1.5, 0.5, 4), Piece.disc("d", 8, -2, 1)]
    figs = [fig(f"m{i}", x, y) for i, (x, y) in enumerate([(0, 0), (1, 4), (12, 0), (11, -4), (13, 3)])]
    bl = Blockers(pieces)
    A = [f for f in figs for _ in figs]
    B = [g for _ in figs for g in figs]
    found, _ = find_witnesses(A, B, bl, np.ones((len(A), len(pieces)), bool))
    M = found.reshape(len(figs), len(figs))
    assert (M == M.T).all()
    for i, f in enumerate(figs):
        for j, g in enumerate(figs):
            assert M[i, j] == search(f, g, pieces)[0]


# --- random boards against the dense sampler -----------------------------------------------

coord = st.floats(-6, 6, allow_nan=False)


@st.composite
def boards(draw):
    a = fig("a", -7.0, draw(st.floats(-3, 3)), RoundBase(draw(st.sampled_from([25, 32, 50]))))
    b = fig("b", 7.0, draw(st.floats(-3, 3)), RoundBase(draw(st.sampled_from([25, 32, 60]))))
    pieces = []
    for i in range(draw(st.integers(1, 5))):
        if draw(st.booleans()) or i == 0:
            x = draw(st.floats(-5.5, 4.5))
            y = draw(st.floats(-6, 5))
            pieces.append(Piece.rect(f"r{i}", x, y, draw(st.floats(0.1, 2.5)), draw(st.floats(0.1, 4))))
        else:
            pieces.append(Piece.disc(f"c{i}", draw(st.floats(-5, 5)), draw(st.floats(-5, 5)), draw(st.floats(0.2, 1.5))))
    return a, b, pieces


@settings(max_examples=25, deadline=None)
@given(boards())
def test_random_boards_against_dense_sampler(board):
    a, b, pieces = board
    ok, w = search(a, b, pieces)
    if ok:
        assert clear(w, pieces), w
        assert on_base(w[0], a) and on_base(w[1], b)
    rays = sampler_clear(a, b, pieces, 1000)
    if len(rays):
        assert ok, f"sampler found a clear ray {rays[0].tolist()}, tapeline did not"


@settings(max_examples=15, deadline=None)
@given(boards(), st.floats(0, 180))
def test_random_boards_with_an_oval(board, facing):
    a, b, pieces = board
    a = fig("a", a.x, a.y, OvalBase(90, 52, facing))
    ok, w = search(a, b, pieces)
    if ok:
        assert clear(w, pieces) and on_base(w[0], a) and on_base(w[1], b)
    rays = sampler_clear(a, b, pieces, 800)
    if len(rays):
        assert ok


def test_the_one_clear_line_through_four_corners_of_a_staggered_slit():
    # Between A at (0, 0) and B at (10, 0) four boxes leave one sight line: a line that passes
    # above (4, 0.05) and below (6, −0.05) has slope ≤ −0.05, one below (3, 0.1) and above
    # (4, 0.05) slope ≥ −0.05; so the slope is −0.05, and y(3) ≤ 0.1 with y(4) ≥ 0.05 leave only
    # L: y = −0.05·(x − 5), through all four corners (it also passes (7, −0.1)). L meets both
    # bases (|y| ≤ 0.25 over them) and only touches the boxes. Each ring starts at a corner far
    # from the bases, and far pieces sit between the boxes in the list: every corner that
    # defines L is one of its piece's later corners.
    a, b = fig("a", 0, 0, RoundBase(25.4)), fig("b", 10, 0, RoundBase(25.4))
    boxes = [
        Piece.poly("p1", [(3.5, -5), (4, -5), (4, 0.05), (3.5, 0.05)]),    # below L, corner (4, 0.05)
        Piece.poly("p3", [(3.4, 5), (3, 5), (3, 0.1), (3.4, 0.1)]),         # above L, corner (3, 0.1)
        Piece.poly("p2", [(6.5, 5), (6, 5), (6, -0.05), (6.5, -0.05)]),    # above L, corner (6, −0.05)
        Piece.poly("p4", [(6.6, -5), (7, -5), (7, -0.1), (6.6, -0.1)]),    # below L, corner (7, −0.1)
    ]
    far = [Piece.rect(f"f{i}", 20 + 2 * i, 20, 1, 1) for i in range(len(boxes))]
    pieces = [p for pair in zip(far, boxes) for p in pair]
    ok, w = search(a, b, pieces)
    assert ok and clear(w, pieces) and on_base(w[0], a) and on_base(w[1], b)
    for x, y in w:
        assert abs(y + 0.05 * (x - 5)) < 1e-9


@pytest.mark.parametrize("pieces", [
    # one wall across the band between the bases (pass 2: one piece)
    [Piece.rect("w", 4, -3, 1, 6)],
    # two staggered walls: a line over the first (y ≥ 0.2 at x = 5) and under the second
    # (y ≤ −0.2 at x = 6) falls by 0.4 per inch, so it is at y ≥ 2.2 at x = 0, off A's base
    # (radius 0.5): blocked, and neither wall alone crosses the band (pass 4: two pieces)
    [Piece.rect("w1", 4, -5, 1, 5.2), Piece.rect("w2", 6, -0.2, 1, 5.2)],
], ids=["one wall", "two walls"])
def test_a_pair_behind_walls_is_settled_blocked_before_the_exact_search(pieces, monkeypatch):
    from tapeline.board import sight as S

    left: list[int] = []
    exact = S._Search.exact

    def counted(self, centre):
        left.append(int((~self.done).sum()))
        return exact(self, centre)

    monkeypatch.setattr(S._Search, "exact", counted)
    a, b = fig("a", 0, 0, RoundBase(25.4)), fig("b", 10, 0, RoundBase(25.4))
    assert search(a, b, pieces)[0] is False
    assert left == [0]  # the fast passes settled the pair: the exact search had none to do
