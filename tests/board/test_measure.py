"""Exact measuring: hand-worked values, ovals against brute force, properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from tapeline.board import measure
from tapeline.board.bases import OvalBase, RoundBase
from tapeline.board.table import Figure, Table
from tapeline.board.units import TOUCH


def fig(x, y, base=32, id="m", unit="u", side="s"):
    b = OvalBase(*base) if isinstance(base, tuple) else RoundBase(base)
    return Figure(id, unit, side, b, x, y)


def dense_outline(f: Figure, n: int = 200_000) -> np.ndarray:
    """Brute force: a very dense sampling of the exact outline (independent of board code)."""
    return _outline(f, np.linspace(0, 2 * math.pi, n, endpoint=False))


def test_two_32mm_bases_3in_apart():
    # 3 − 32/25.4 = 1.740157"
    assert measure.gap(fig(0, 0), fig(3, 0)) == pytest.approx(3 - 32 / 25.4, abs=1e-9)
    assert round(measure.gap(fig(0, 0), fig(3, 0)), 6) == 1.740157


def test_tangent_bases_are_in_contact():
    d = 32 / 25.4  # two radii of 16 mm
    a, b = fig(1, 1), fig(1 + d * math.cos(0.7), 1 + d * math.sin(0.7))
    v = measure.contact(a, b)
    assert v.ok and abs(v.value) < 1e-9
    assert not measure.contact(a, fig(1 + d + 2e-6, 1)).ok
    assert measure.contact(a, fig(1 + d + 0.5e-6, 1)).ok


def test_overlapping_bases_are_not_in_contact():
    # two 32 mm bases 1" apart overlap by 32/25.4 − 1 = 0.259843": base contact is a gap of
    # zero, so overlapping is not contact — by as much as the overlap, like a gap of that size
    d = 32 / 25.4
    for far in (1.0, d - 2e-6, d + 0.3):
        v = measure.contact(fig(0, 0), fig(far, 0))
        assert not v.ok, far
        assert v.value == pytest.approx(far - d, abs=1e-12) and v.limit == 0.0
        assert v.margin == pytest.approx(-abs(far - d), abs=1e-12) and v.margin < 0
    assert measure.contact(fig(0, 0), fig(d - 0.5e-6, 0)).ok        # within the 1e-6" tolerance


def test_overlap_depth_is_negative_gap():
    assert measure.gap(fig(0, 0), fig(1, 0)) == pytest.approx(1 - 32 / 25.4)


def test_mixed_sizes_and_point():
    # 32 mm and 50 mm, centres 5" apart: 5 − 16/25.4 − 25/25.4
    assert measure.gap(fig(0, 0), fig(0, 5, 50)) == pytest.approx(5 - 41 / 25.4)
    assert measure.gap(fig(0, 0), (4, 0)) == pytest.approx(4 - 16 / 25.4)


@pytest.mark.parametrize("facing", [0, 17, 45, 90, 133, 200, 271])
def test_oval_gap_matches_dense_sampling(facing):
    oval = Figure("h", "u", "s", OvalBase(100, 40, facing), 5, 4)
    for other in (fig(8.1, 5.2), fig(2.0, 1.0, 50), fig(5, 7.5, 80)):
        pts = dense_outline(oval)
        if isinstance(other.base, RoundBase):
            brute = np.min(np.hypot(pts[:, 0] - other.x, pts[:, 1] - other.y)) - other.base.radius
        assert measure.gap(oval, other) == pytest.approx(brute, abs=1e-4)
        assert measure.gap(other, oval) == pytest.approx(brute, abs=1e-4)


@pytest.mark.parametrize("f1,f2", [(0, 90), (30, 30), (10, 160)])
def test_oval_oval_gap_matches_dense_sampling(f1, f2):
    a = Figure("a", "u", "s", OvalBase(100, 40, f1), 0, 0)
    b = Figure("b", "v", "t", OvalBase(60, 35, f2), 4.2, 1.3)
    # brute force: the closest pair among dense samples of both outlines (error O(spacing²))
    pa, pb = dense_outline(a, 6000), dense_outline(b, 6000)
    brute = min(float(np.min(np.hypot(*(chunk[:, None, :] - pb[None, :, :]).transpose(2, 0, 1)))) for chunk in np.array_split(pa, 20))
    assert measure.gap(a, b) == pytest.approx(brute, abs=1e-4)


def test_within_and_wholly_within_hand_values():
    m = fig(0, 0)
    # A Zergling 2.5" away (centres): gap 2.5 − 1.259843 = 1.240157; farthest point 2.5"
    z = fig(2.5, 0)
    assert measure.within(z, m, 3).margin == pytest.approx(3 - (2.5 - 32 / 25.4))
    assert measure.far(z, m) == pytest.approx(2.5)
    assert measure.wholly_within(z, m, 2.5).ok
    assert not measure.wholly_within(z, m, 2.49).ok
    # wholly within 3" of a point: distance + radius
    assert measure.far(m, (3, 4)) == pytest.approx(5 + 16 / 25.4)


def test_wholly_within_oval_matches_dense_sampling():
    o = Figure("h", "u", "s", OvalBase(100, 40, 35), 0, 0)
    m = fig(4, 1)
    pts = dense_outline(o)
    brute = np.max(np.hypot(pts[:, 0] - 4, pts[:, 1] - 1)) - m.base.radius
    assert measure.far(o, m) == pytest.approx(brute, abs=1e-4)


def test_region_measures():
    box = shapely.box(2, -1, 3, 1)
    m = fig(0, 0)
    assert measure.gap(m, box) == pytest.approx(2 - 16 / 25.4)
    assert measure.far(m, box) == pytest.approx(2 + 16 / 25.4)
    inside = fig(2.5, 0)
    assert measure.gap(inside, box) == pytest.approx(-(0.5 + 16 / 25.4))


def test_unit_within_any_and_wholly_every():
    ms = [fig(0, 0, id="a"), fig(10, 0, id="b")]
    t = fig(2, 0)
    assert measure.unit_within(ms, t, 1).ok
    assert not measure.unit_wholly_within(ms, t, 3).ok


def test_gap_matrix_matches_pairwise():
    a = [fig(0, 0, id="a"), fig(3, 1, 50, id="b"), Figure("o", "u", "s", OvalBase(100, 40, 30), 8, 8)]
    b = [fig(5, 5, id="c"), fig(-2, 3, 80, id="d")]
    m = measure.gap_matrix(a, b)
    for i, fa in enumerate(a):
        for j, fb in enumerate(b):
            assert m[i, j] == pytest.approx(measure.gap(fa, fb), abs=1e-9)


def test_table_edges():
    t = Table(10, 10)
    assert t.on_table(fig(16 / 25.4, 5))
    assert not t.on_table(fig(0.5, 5))
    assert t.edge_margin(fig(0.5, 5)) == pytest.approx(0.5 - 16 / 25.4)


coords = st.floats(-20, 20, allow_nan=False)
bases = st.one_of(
    st.sampled_from([25, 32, 40, 50, 80]).map(RoundBase),
    st.tuples(st.floats(40, 120), st.floats(20, 40), st.floats(0, 360)).map(lambda t: OvalBase(*t)),
)


@settings(max_examples=80, deadline=None)
@given(bases, bases, coords, coords, coords, coords)
def test_gap_is_symmetric(ba, bb, x1, y1, x2, y2):
    a, b = Figure("a", "u", "s", ba, x1, y1), Figure("b", "v", "t", bb, x2, y2)
    assert measure.gap(a, b) == pytest.approx(measure.gap(b, a), abs=1e-6)


@settings(max_examples=80, deadline=None)
@given(bases, bases, coords, coords, coords, coords)
def test_gap_nonnegative_iff_apart(ba, bb, x1, y1, x2, y2):
    a, b = Figure("a", "u", "s", ba, x1, y1), Figure("b", "v", "t", bb, x2, y2)
    g = measure.gap(a, b)
    overlapping = shapely.intersection(a.polygon, b.polygon).area > 1e-6
    if not overlapping:
        assert g >= -1e-4
    else:
        assert g < 1e-4


@settings(max_examples=60, deadline=None)
@given(bases, bases, coords, coords, st.floats(0, 2 * math.pi), st.floats(0.01, 5))
def test_moving_away_never_shrinks_gap(ba, bb, x, y, ang, step):
    a = Figure("a", "u", "s", ba, 0, 0)
    b1 = Figure("b", "v", "t", bb, x, y)
    d = np.array([x, y])
    if np.linalg.norm(d) < 1e-6:
        d = np.array([math.cos(ang), math.sin(ang)])
    d = d / np.linalg.norm(d)
    b2 = Figure("b", "v", "t", bb, x + step * d[0], y + step * d[1])
    assert measure.gap(a, b2) >= measure.gap(a, b1) - 1e-6


# --- exact to far below the stated 1e-4": a reference computed here, independently -------------


def _extreme_distance(f: Figure, p, sign: float) -> float:
    """Nearest (sign=+1) or farthest (sign=-1) distance from point ``p`` to ``f``'s exact outline:
    dense sampling, then three zooms around the best sample (error far below 1e-10")."""
    t = np.linspace(0, 2 * math.pi, 20001)
    lo, hi = 0.0, 2 * math.pi
    for _ in range(4):
        t = np.linspace(lo, hi, 20001)
        pts = _outline(f, t)
        d = np.hypot(pts[:, 0] - p[0], pts[:, 1] - p[1])
        k = int(np.argmin(sign * d))
        step = t[1] - t[0]
        lo, hi = t[k] - 2 * step, t[k] + 2 * step
    return float(d[k])


def _outline(f: Figure, t):
    if isinstance(f.base, RoundBase):
        r = f.base.diameter_mm / 2 / 25.4
        return np.column_stack([f.x + r * np.cos(t), f.y + r * np.sin(t)])
    a, b = f.base.length_mm / 2 / 25.4, f.base.width_mm / 2 / 25.4
    ph = math.radians(f.base.facing)
    u, v = a * np.cos(t), b * np.sin(t)
    return np.column_stack([f.x + u * math.cos(ph) - v * math.sin(ph), f.y + u * math.sin(ph) + v * math.cos(ph)])


@pytest.mark.parametrize("facing", [0, 23, 90, 151, 300])
def test_oval_gap_and_reach_are_exact_to_1e9(facing):
    """The refinement after the grid makes ovals exact to ~1e-12": a broken golden-section
    step (or too few of them) is off by far more than 1e-9."""
    oval = Figure("h", "u", "s", OvalBase(100, 40, facing), 5.0, 4.0)
    for px, py, mm in ((8.3, 5.9, 32), (1.7, 0.4, 50), (5.2, 7.7, 25)):
        other = fig(px, py, mm)
        r = mm / 2 / 25.4
        near = _extreme_distance(oval, (px, py), +1.0) - r
        farthest = _extreme_distance(oval, (px, py), -1.0) - r
        assert measure.gap(oval, other) == pytest.approx(near, abs=1e-9)
        assert measure.gap(other, oval) == pytest.approx(near, abs=1e-9)
        assert measure.far(oval, other) == pytest.approx(farthest, abs=1e-9)
        assert measure.gap(oval, (px, py)) == pytest.approx(near + r, abs=1e-9)
        assert measure.far(oval, (px, py)) == pytest.approx(farthest + r, abs=1e-9)


def test_far_of_a_base_inside_another_is_zero():
    big, small = fig(5, 5, 80), fig(5.1, 5, 25)
    assert measure.far(small, big) == 0.0
    assert measure.wholly_within(small, big, 0).ok
    # ... and of the big one around the small: its far side, 40 mm + 0.1 - 12.5 mm beyond
    assert measure.far(big, small) == pytest.approx(40 / 25.4 + 0.1 - 12.5 / 25.4, abs=1e-12)
    oval = Figure("h", "u", "s", OvalBase(60, 35, 10), 5, 5)
    assert measure.far(oval, big) == 0.0 and measure.gap(oval, big) < 0


def test_point_targets_in_every_form():
    m = fig(0, 0)
    for p in ((3, 4), [3, 4], np.array([3.0, 4.0])):
        assert measure.gap(m, p) == pytest.approx(5 - 16 / 25.4, abs=1e-12)
        assert measure.far(m, p) == pytest.approx(5 + 16 / 25.4, abs=1e-12)
    assert measure.gap((0, 0), (3, 4)) == pytest.approx(5.0, abs=1e-12)
    assert measure.far((0, 0), fig(3, 4)) == pytest.approx(5 - 16 / 25.4, abs=1e-12)  # a point: its only point


def test_round_base_against_regions_exactly():
    box = shapely.box(2, -1, 3, 1)
    r = 16 / 25.4
    # partly inside: the centre is outside, 0.2" from the box's left side
    assert measure.gap(fig(1.8, 0), box) == pytest.approx(0.2 - r, abs=1e-12)
    # the centre inside, 0.3" from the nearest side (left)
    assert measure.gap(fig(2.3, 0), box) == pytest.approx(-(0.3 + r), abs=1e-12)
    assert measure.gap((2.5, 0.5), box) == pytest.approx(-0.5, abs=1e-12)
    assert measure.gap((5, 0), box) == pytest.approx(2.0, abs=1e-12)
    # farthest point of a base from the box: its far side
    assert measure.far(fig(0, 0), box) == pytest.approx(2 + r, abs=1e-9)
    assert measure.far(fig(2.5, 0, 25), box) == 0.0
    assert measure.far((5, 0), box) == pytest.approx(2.0, abs=1e-12)
    assert measure.within(fig(1, 0), box, 1 - r).ok and not measure.within(fig(1, 0), box, 0.99 - r).ok
    assert measure.wholly_within(fig(0, 0), box, 2 + r).ok and not measure.wholly_within(fig(0, 0), box, 1.99 + r).ok


def test_oval_against_regions():
    """Ovals within / wholly within a terrain region, against the exact outline."""
    box = shapely.box(6, -2, 9, 2)
    oval = Figure("h", "u", "s", OvalBase(100, 40, 0), 2.0, 0.0)  # a = 1.968504" along x
    a = 50 / 25.4
    assert measure.gap(oval, box) == pytest.approx(4.0 - a, abs=1e-4)
    assert measure.far(oval, box) == pytest.approx(4.0 + a, abs=1e-9)
    assert measure.within(oval, box, 4.0 - a + 1e-3).ok and not measure.within(oval, box, 4.0 - a - 1e-3).ok
    assert measure.wholly_within(oval, box, 4.0 + a + 1e-6).ok and not measure.wholly_within(oval, box, 4.0 + a - 1e-3).ok
    inside = Figure("h", "u", "s", OvalBase(100, 40, 0), 7.5, 0.0)  # x 5.53..9.47: out of the box
    pts = _outline(inside, np.linspace(0, 2 * math.pi, 200_000))
    assert measure.far(inside, box) == pytest.approx(7.5 + a - 9.0, abs=1e-9)  # its east tip
    assert measure.far(inside, shapely.box(5, -2, 10, 2)) == 0.0
    # reaching into the box: the deepest outline point's distance to the box's boundary
    deep = Figure("h", "u", "s", OvalBase(100, 40, 0), 6.5, 0.0)
    pts = _outline(deep, np.linspace(0, 2 * math.pi, 20_000))
    inb = shapely.contains(box, shapely.points(pts))
    brute = float(np.max(shapely.distance(shapely.points(pts[inb]), box.boundary)))
    # (the depth is the max of a min: its sampling error is first order, ~1e-3" on the 2048-gon)
    assert measure.gap(deep, box) == pytest.approx(-brute, abs=2e-3)
    # a small region wholly inside an oval: the region reaches into the base
    tiny = shapely.box(1.9, -0.1, 2.1, 0.1)
    assert measure.gap(oval, tiny) < -0.5


def test_verdict_thresholds_and_wording():
    v = measure.Verdict.at_most(1.0 + 0.5 * TOUCH, 1.0)
    assert v.ok and v.margin == pytest.approx(-0.5 * TOUCH)
    assert not measure.Verdict.at_most(1.0 + 2 * TOUCH, 1.0).ok
    assert measure.Verdict.at_most(0.7, 1.0).margin == pytest.approx(0.3)
    assert bool(measure.Verdict(True, 0, 0, 0)) and not bool(measure.Verdict(False, 0, 0, 0))
    assert measure.within(fig(0, 0), fig(2, 0), 1).explain("within 1\"") == "within 1\" by 0.259843\""
    assert measure.within(fig(0, 0), fig(3, 0), 1).explain("within 1\"") == "not within 1\": 0.740157\" too far"


def test_contact_verdict_values():
    v = measure.contact(fig(0, 0), fig(2, 0))
    assert not v.ok and v.value == pytest.approx(2 - 32 / 25.4) and v.margin == pytest.approx(-(2 - 32 / 25.4))
    assert v.limit == 0.0


def test_unit_verdicts_name_the_deciding_model():
    ms = [fig(0, 0, id="a"), fig(6, 0, id="b"), fig(3, 0, id="c")]
    t = fig(8, 0)
    w = measure.unit_within(ms, t, 1)
    assert w.value == pytest.approx(2 - 32 / 25.4)  # b, the closest
    ww = measure.unit_wholly_within(ms, t, 20)
    assert ww.value == pytest.approx(8 + 16 / 25.4 - 16 / 25.4)  # a, the farthest: 8" + r - r


def test_centre_distance_matrix():
    a = [fig(0, 0, id="a"), fig(3, 4, id="b")]
    b = [fig(0, 0, 50, id="c"), fig(6, 8, id="d"), fig(-3, 0, id="e")]
    m = measure.centre_distance_matrix(a, b)
    assert m.shape == (2, 3)
    assert m.ravel().tolist() == pytest.approx([0, 10, 3, 5, 5, math.hypot(6, 4)], abs=1e-12)
    g = measure.gap_matrix(a, b)
    assert g[0, 1] == pytest.approx(10 - 32 / 25.4, abs=1e-12) and g[1, 2] == pytest.approx(math.hypot(6, 4) - 32 / 25.4, abs=1e-12)


def test_rotated_oval_against_a_region_exactly():
    """The outline of a rotated oval (every term of the rotation matters) against a region."""
    box = shapely.box(6, -2, 9, 2)
    oval = Figure("h", "u", "s", OvalBase(100, 40, 30), 2.0, 0.5)
    pts = _outline(oval, np.linspace(0, 2 * math.pi, 200_001))
    d = shapely.distance(shapely.points(pts), box)
    assert measure.far(oval, box) == pytest.approx(float(np.max(d)), abs=1e-8)
    oval2 = Figure("h", "u", "s", OvalBase(100, 40, 120), 3.0, -1.0)
    pts = _outline(oval2, np.linspace(0, 2 * math.pi, 200_001))
    assert measure.far(oval2, box) == pytest.approx(float(np.max(shapely.distance(shapely.points(pts), box))), abs=1e-8)


def test_a_region_inside_an_oval_reaches_into_it():
    """No vertex of the base lies in the small region; the region's corners inside the base
    decide the depth: the largest distance from a corner to the base's outline."""
    oval = Figure("h", "u", "s", OvalBase(100, 40, 0), 2.0, 0.0)
    tiny = shapely.box(1.9, -0.1, 2.1, 0.1)
    outline = shapely.LinearRing(_outline(oval, np.linspace(0, 2 * math.pi, 20_000, endpoint=False)))
    corners = shapely.points([(1.9, -0.1), (1.9, 0.1), (2.1, -0.1), (2.1, 0.1)])
    assert measure.gap(oval, tiny) == pytest.approx(-float(np.max(shapely.distance(corners, outline))), abs=1e-4)


def test_verdicts_are_values():
    import dataclasses

    v = measure.Verdict.at_most(1.0 + TOUCH, 1.0)
    assert v.ok  # exactly at the touching tolerance still counts
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.ok = False


def test_far_from_a_region_is_the_farthest_outline_point_s_distance():
    """``far(base, region)``: the distance from the base's farthest outline point to the region,
    checked against 20,000 outline points per base (which can only fall short of it) — 0 exactly when the whole base lies on the
    region (the case every model standing on a piece asks about), the maximum otherwise."""
    import random

    rng = random.Random(11)
    regions = [shapely.box(0, 0, 6, 4), shapely.Polygon([(0, 0), (8, 0), (8, 6), (4, 2), (0, 6)]),
               shapely.Point(3, 3).buffer(2.5, quad_segs=64)]
    t = np.linspace(0, 2 * math.pi, 20_000, endpoint=False)
    zeros = others = 0
    for _ in range(120):
        region = rng.choice(regions)
        base = RoundBase(rng.choice([25, 32, 40, 60])) if rng.random() < 0.6 else OvalBase(rng.choice([60, 90, 105]), rng.choice([35, 46, 70]), rng.uniform(0, 180))
        fig = Figure("m", "u", "s", base, rng.uniform(-1, 9), rng.uniform(-1, 7))
        pts = _outline(fig, t)         # the test's own outline, not the module's
        brute = float(np.max(shapely.distance(shapely.points(pts), region)))
        got = measure.far(fig, region)
        if brute == 0.0:
            zeros += 1
            assert got == 0.0
        else:
            others += 1
            # the sampled maximum can only fall short, by at most the spacing's worth (at a corner)
            assert brute - 1e-12 <= got <= brute + 5e-4
    assert zeros > 10 and others > 10


def test_gap_matrix_upto_keeps_every_gap_at_or_below_it_exact():
    """``gap_matrix(a, b, upto)``: every pair whose gap is at most ``upto`` has its exact gap;
    every other pair a value above ``upto`` (so comparisons with ``upto`` or less, and minima
    compared so, are unchanged)."""
    import random

    rng = random.Random(5)
    figs = []
    for k in range(24):
        base = RoundBase(rng.choice([25, 32, 40])) if k % 3 else OvalBase(rng.choice([60, 105]), rng.choice([35, 70]), rng.uniform(0, 180))
        figs.append(Figure(f"m{k}", "u", "s", base, rng.uniform(0, 12), rng.uniform(0, 8)))
    a, b = figs[:12], figs[12:]
    exact = measure.gap_matrix(a, b)
    for upto in (0.0, 1e-6, 1.0, 2.0, 6.0):
        got = measure.gap_matrix(a, b, upto=upto)
        near = exact <= upto
        assert (got[near] == exact[near]).all() and (got[~near] > upto).all()
        assert ((got <= upto) == near).all()
        assert ((got.min(axis=1) <= upto) == (exact.min(axis=1) <= upto)).all()
    assert 0 < int((exact <= 1.0).sum()) < exact.size
