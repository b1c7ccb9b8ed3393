"""Template geometry: hand-worked discs, teardrops and ovals against independent brute force,
and properties (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tapeline.board.bases import OvalBase, RoundBase
from tapeline.board.errors import GeometryError
from tapeline.board.table import Figure
from tapeline.board.templates import (DEFAULT_SHAPES, DiscDims, Template, TeardropDims, coverage, dims_from,
                                      flush_teardrop, margins, place, shape_table)
from tapeline.board.units import TOUCH

MM = 25.4


def fig(x, y, base=32.0, facing=0.0, id="m"):
    b = OvalBase(base[0], base[1], facing) if isinstance(base, tuple) else RoundBase(base)
    return Figure(id, "u", "s", b, x, y)


def one(t, f):
    c = coverage(t, [f])
    return bool(c.covered[0]), bool(c.full[0]), float(c.overlap[0]), float(c.inside[0]), float(c.encloses[0])


# --- discs: hand-worked -------------------------------------------------------------------------

@pytest.mark.parametrize("R, r, d", [
    (1.5, 16 / MM, 0.0), (1.5, 16 / MM, 0.5), (1.5, 16 / MM, 1.5 - 16 / MM),      # wholly under (last: touching inside)
    (1.5, 16 / MM, 1.0), (1.5, 16 / MM, 2.0), (1.5, 25 / MM, 2.4),                # partly
    (1.5, 16 / MM, 1.5 + 16 / MM), (1.5, 16 / MM, 2.5), (2.5, 40 / MM, 5.0),      # touching outside, clear
    (1.5, 40 / MM, 0.2), (1.5, 50 / MM, 0.0),                                     # bigger than the template
])
def test_disc_round_base_hand_worked(R, r, d):
    """Covered iff d < R + r; full iff d + r ≤ R; margins R + r − d and R − d − r."""
    for ang in (0.0, 0.7, 2.9):
        t = place(DiscDims(2 * R), (10.0, 10.0))
        f = Figure("m", "u", "s", RoundBase(2 * r * MM), 10 + d * math.cos(ang), 10 + d * math.sin(ang))
        cov, full, ov, ins, enc = one(t, f)
        assert ov == pytest.approx(R + r - d, abs=1e-12)
        assert ins == pytest.approx(R - d - r, abs=1e-12)
        assert enc == pytest.approx(r - d - R, abs=1e-12)
        assert cov == (d < R + r - 1e-9)
        assert full == (d + r <= R + 1e-9)


def test_touching_the_outline_is_not_covered():
    t = place(DiscDims(3.0), (0.0, 0.0))
    r = 16 / MM
    assert one(t, fig(1.5 + r, 0))[0] is False
    assert one(t, fig(1.5 + r - 2e-6, 0))[0] is True       # 2e-6" of overlap: more than the 1e-6" tolerance
    assert one(t, fig(1.5 - r, 0))[1] is True              # touching from inside: wholly under


def test_defaults_and_dims():
    assert DEFAULT_SHAPES["blast"] == DiscDims(3.0) and DEFAULT_SHAPES["large_blast"] == DiscDims(5.0)
    assert DEFAULT_SHAPES["flamer"] == TeardropDims(8.0, 0.75, 2.5)
    assert shape_table({"blast": {"diameter": 4.0}, "torch": {"length": 6, "narrow": 0.5, "wide": 2}})["torch"] == TeardropDims(6, 0.5, 2)
    for bad in ({"diameter": 0}, {"diameter": -1}, {"length": 2, "narrow": 0.5, "wide": 2.5},
                {"length": 8, "narrow": 3, "wide": 2}, {"length": 8, "narrow": 1}, {"diameter": 3, "wide": 2}):
        with pytest.raises(GeometryError):
            dims_from(bad)


def test_teardrop_is_placed_by_tip_and_aim():
    t = place(DEFAULT_SHAPES["flamer"], (2.0, 3.0), (2.0, 13.0))
    assert t.p1 == pytest.approx((2.0, 3.375)) and t.r1 == 0.375
    assert t.p2 == pytest.approx((2.0, 3.0 + 8 - 1.25)) and t.r2 == 1.25
    # the support function reaches the tip behind and the far edge ahead
    assert t.support(np.array([-math.pi / 2]))[0] == pytest.approx(-3.0)
    assert t.support(np.array([math.pi / 2]))[0] == pytest.approx(11.0)
    with pytest.raises(GeometryError):
        place(DEFAULT_SHAPES["flamer"], (2, 3), (2, 3))
    with pytest.raises(GeometryError):
        place(DEFAULT_SHAPES["flamer"], (2, 3))
    with pytest.raises(GeometryError):
        place(DEFAULT_SHAPES["blast"], (2, 3), (4, 5))


# --- teardrops against an independent high-resolution reference ---------------------------------


def dense_teardrop(t: Template, n: int = 100_000) -> shapely.Polygon:
    """Brute force: the convex hull of dense samples of both circles (vertices on the exact
    outline; chord sagitta r·(π/n)²/2 < 1e-9")."""
    th = np.linspace(0, 2 * np.pi, n, endpoint=False)
    ring = np.column_stack([np.cos(th), np.sin(th)])
    return shapely.convex_hull(shapely.multipoints(np.vstack([np.array(t.p1) + t.r1 * ring, np.array(t.p2) + t.r2 * ring])))


def test_teardrop_round_bases_against_dense_reference():
    rng = np.random.default_rng(7)
    t = place(DEFAULT_SHAPES["flamer"], (10.0, 10.0), (16.0, 14.0))
    T = dense_teardrop(t)
    along = rng.uniform(-0.2, 1.2, 400)[:, None]
    pts = np.array(t.p1) + along * np.subtract(t.p2, t.p1) + rng.normal(0, 1.3, (400, 2))
    radii = rng.choice([16, 20, 25, 40], 400) / MM
    figs = [Figure(f"m{i}", "u", "s", RoundBase(2 * r * MM), x, y) for i, ((x, y), r) in enumerate(zip(pts, radii))]
    c = coverage(t, figs)
    P = shapely.points(pts)
    inside = shapely.contains(T, P)
    d = shapely.distance(P, T.exterior)
    sd = np.where(inside, -d, d)
    assert np.max(np.abs(c.overlap - (radii - sd))) < 1e-6
    assert np.max(np.abs(c.inside - (-sd - radii))) < 1e-6
    ring = shapely.get_coordinates(dense_teardrop(t, 20_000).exterior)
    far = np.array([np.max(np.linalg.norm(ring - p, axis=1)) for p in pts])
    assert np.max(np.abs(c.encloses - (radii - far))) < 1e-6
    assert (c.covered == (radii - sd > TOUCH)).all()
    assert c.covered.sum() > 50 and c.full.sum() > 10 and (~c.covered).sum() > 50


def _ellipse_points(f: Figure, t: np.ndarray) -> np.ndarray:
    a, b, p = f.base.length_mm / 2 / MM, f.base.width_mm / 2 / MM, math.radians(f.base.facing)
    u, v = a * np.cos(t), b * np.sin(t)
    return np.column_stack([f.x + u * math.cos(p) - v * math.sin(p), f.y + u * math.sin(p) + v * math.cos(p)])


def _refined_min(fun, n: int = 4096):
    """min over the ellipse parameter of fun(t): a dense grid, then a finer grid twice around
    the best sample (brute force; the minimum of a smooth function, error far below 1e-9)."""
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    step = t[1]
    for _ in range(3):
        v = fun(t)
        k = int(np.argmin(v))
        best = t[k]
        t = np.linspace(best - 2 * step, best + 2 * step, 2001)
        step = t[1] - t[0]
    return float(np.min(fun(t)))


@pytest.mark.parametrize("facing", [0.0, 30.0, 90.0, 137.0, 250.0])
def test_disc_oval_bases_at_several_facings(facing):
    """Disc vs a 100×40 mm oval: nearest/farthest distances from the disc centre to the
    ellipse, brute force on its exact parametrisation."""
    t = place(DiscDims(3.0), (10.0, 10.0))
    for (x, y) in [(10.3, 10.1), (11.2, 10.9), (12.0, 9.0), (13.9, 10.2), (8.1, 12.6), (10.0, 13.3)]:
        f = fig(x, y, (100.0, 40.0), facing)
        cov, full, ov, ins, enc = one(t, f)
        c = np.array([10.0, 10.0])
        a, b = 50 / MM, 20 / MM
        ph = math.radians(facing)
        lu = (c - (x, y)) @ np.array([[math.cos(ph), -math.sin(ph)], [math.sin(ph), math.cos(ph)]])
        centre_inside = (lu[0] / a) ** 2 + (lu[1] / b) ** 2 < 1
        near = _refined_min(lambda s: np.linalg.norm(_ellipse_points(f, s) - c, axis=1))
        far = -_refined_min(lambda s: -np.linalg.norm(_ellipse_points(f, s) - c, axis=1))
        sd = -near if centre_inside else near
        assert ov == pytest.approx(1.5 - sd, abs=1e-6)
        assert ins == pytest.approx(1.5 - far, abs=1e-6)
        if centre_inside:
            assert enc == pytest.approx(near - 1.5, abs=1e-6)
        assert cov == (1.5 - sd > TOUCH) and full == (cov and 1.5 - far >= -TOUCH)


def _teardrop_distance(t: Template, x: np.ndarray) -> np.ndarray:
    """Brute force: distance from points outside to the hull of two circles, as the union of the
    discs interpolated between them: min over the position ``s`` along the axis of
    ``|x − c(s)| − r(s)`` (convex in ``s``), by golden-section search to 1e-13."""
    p1, p2 = np.array(t.p1), np.array(t.p2)

    def f(s):
        c = p1[None, :] + s[:, None] * (p2 - p1)[None, :]
        return np.linalg.norm(x - c, axis=1) - (t.r1 + s * (t.r2 - t.r1))

    g = (math.sqrt(5) - 1) / 2
    lo, hi = np.zeros(len(x)), np.ones(len(x))
    for _ in range(70):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        left = f(a) < f(b)
        hi = np.where(left, b, hi)
        lo = np.where(left, lo, a)
    return np.minimum(f((lo + hi) / 2), np.minimum(f(np.zeros(len(x))), f(np.ones(len(x)))))


@pytest.mark.parametrize("facing", [0.0, 45.0, 90.0, 160.0])
def test_teardrop_oval_bases_separated_and_inside(facing):
    t = place(DEFAULT_SHAPES["flamer"], (2.0, 10.0), (12.0, 10.0))
    # separated from the template: the gap, brute force over the ellipse and the axis
    for (x, y) in [(6.0, 12.6), (11.5, 13.0), (0.4, 9.0), (10.5, 7.2)]:
        f = fig(x, y, (100.0, 40.0), facing)
        cov, full, ov, ins, enc = one(t, f)
        gap = _refined_min(lambda s: _teardrop_distance(t, _ellipse_points(f, s)), n=512)
        if gap > 1e-3:
            assert not cov and ov == pytest.approx(-gap, abs=1e-6)
    # an oval centred on the far circle's centre, well inside it: inside = r2 − a (hand-worked)
    f = fig(*t.p2, (40.0, 20.0), facing)
    cov, full, ov, ins, enc = one(t, f)
    assert full and ins == pytest.approx(1.25 - 20 / MM, abs=1e-9)


def test_teardrop_oval_decisions_against_dense_polygons():
    rng = np.random.default_rng(3)
    t = place(DEFAULT_SHAPES["flamer"], (5.0, 5.0), (12.0, 9.0))
    T = dense_teardrop(t, 20_000)
    n_partial = 0
    for _ in range(150):
        f = fig(rng.uniform(3, 15), rng.uniform(2, 13), (float(rng.uniform(40, 110)), float(rng.uniform(20, 45))),
                float(rng.uniform(0, 360)))
        cov, full, ov, ins, enc = one(t, f)
        B = shapely.Polygon(_ellipse_points(f, np.linspace(0, 2 * np.pi, 4000, endpoint=False)))
        if abs(ov) < 1e-3 or abs(ins) < 1e-3:
            continue  # too close to a threshold for polygons to judge
        assert cov == bool(shapely.intersects(T, B))
        assert full == bool(shapely.contains(T, B))
        n_partial += cov and not full
    assert n_partial > 10


# --- flush placement ----------------------------------------------------------------------------

def test_flush_teardrop_touches_the_base():
    d = DEFAULT_SHAPES["flamer"]
    f = fig(4.0, 4.0, 40.0)
    t = flush_teardrop(d, f, (10.0, 12.0))
    assert np.hypot(t.tip[0] - 4, t.tip[1] - 4) == pytest.approx(20 / MM, abs=1e-12)
    cov, *_ = one(t, f)
    assert not cov
    for facing in (0.0, 33.0, 90.0, 200.0):
        f = fig(4.0, 4.0, (100.0, 40.0), facing)
        t = flush_teardrop(d, f, (10.0, 12.0))
        cov, full, ov, *_ = one(t, f)
        assert not cov and abs(ov) < 1e-9      # touching, not overlapping
        u = np.subtract((10.0, 12.0), (4.0, 4.0)) / 10.0
        assert np.subtract(t.p2, t.p1) / np.linalg.norm(np.subtract(t.p2, t.p1)) == pytest.approx(u)


# --- properties ---------------------------------------------------------------------------------

coord = st.floats(-30, 30, allow_nan=False)
bases = st.one_of(st.sampled_from([25.0, 32.0, 40.0, 50.0, 80.0]),
                  st.tuples(st.floats(30, 120), st.floats(20, 60)))


@st.composite
def templates(draw):
    if draw(st.booleans()):
        return place(DiscDims(draw(st.floats(0.5, 6))), (draw(coord), draw(coord)))
    L = draw(st.floats(3, 10))
    wide = draw(st.floats(0.5, L * 0.9))
    narrow = draw(st.floats(0.1, wide))
    tip = (draw(coord), draw(coord))
    ang = draw(st.floats(0, 2 * math.pi))
    return place(TeardropDims(L, narrow, wide), tip, (tip[0] + math.cos(ang), tip[1] + math.sin(ang)))


@st.composite
def placed_bases(draw):
    return [fig(draw(coord), draw(coord), draw(bases), draw(st.floats(0, 360)), id=f"m{i}")
            for i in range(draw(st.integers(1, 6)))]


@settings(max_examples=60, deadline=None)
@given(templates(), placed_bases())
def test_full_implies_covered(t, figs):
    c = coverage(t, figs)
    assert not (c.full & ~c.covered).any()
    assert (c.overlap >= c.inside - 1e-9).all()


@settings(max_examples=60, deadline=None)
@given(templates(), placed_bases(), coord, coord)
def test_coverage_is_invariant_under_moving_the_table(t, figs, dx, dy):
    moved = Template(t.name, t.kind, (t.p1[0] + dx, t.p1[1] + dy), t.r1, (t.p2[0] + dx, t.p2[1] + dy), t.r2)
    a = coverage(t, figs)
    b = coverage(moved, [Figure(f.id, f.unit, f.side, f.base, f.x + dx, f.y + dy) for f in figs])
    assert np.allclose(a.overlap, b.overlap, atol=1e-9) and np.allclose(a.inside, b.inside, atol=1e-9)
    clear = (np.abs(a.overlap - TOUCH) > 1e-8) & (np.abs(a.inside + TOUCH) > 1e-8)
    assert (a.covered[clear] == b.covered[clear]).all() and (a.full[clear] == b.full[clear]).all()


@settings(max_examples=60, deadline=None)
@given(templates(), placed_bases(), st.floats(0, 2))
def test_growing_a_template_never_uncovers(t, figs, grow):
    """The template grown outward by ``grow`` (both circles' radii; for a disc, its diameter)
    contains the original: nothing covered becomes uncovered, nothing full becomes partial."""
    big = Template(t.name, t.kind, t.p1, t.r1 + grow, t.p2, t.r2 + grow)
    a, b = coverage(t, figs), coverage(big, figs)
    assert (b.overlap >= a.overlap - 1e-9).all() and (b.inside >= a.inside - 1e-9).all()
    assert not (a.covered & ~b.covered).any() and not (a.full & ~b.full).any()


@settings(max_examples=40, deadline=None)
@given(templates(), placed_bases())
def test_round_ovals_agree_with_round_bases(t, figs):
    """An oval with equal axes is measured as the circle it is."""
    r = [f for f in figs if isinstance(f.base, RoundBase)]
    assume(r)
    o = [Figure(f.id, f.unit, f.side, OvalBase(f.base.diameter_mm, f.base.diameter_mm * (1 + 1e-6), 17.0), f.x, f.y) for f in r]
    a, b = coverage(t, r), coverage(t, o)
    assert np.allclose(a.overlap, b.overlap, atol=2e-5) and np.allclose(a.inside, b.inside, atol=2e-5)


def test_margins_broadcast_placements_by_bases():
    q = np.array([[0.0, 0.0], [3.0, 0.0]])
    r = np.full(2, 0.5)
    ov, ins, enc = margins([[0.0, 0.0], [1.0, 0.0]], [1.5, 1.5], [[0.0, 0.0], [1.0, 0.0]], [1.5, 1.5], q, r, r, np.zeros(2))
    assert ov.shape == (2, 2)
    assert ov == pytest.approx(np.array([[2.0, -1.0], [1.0, 0.0]]))
