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
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    if isinstance(f.base, RoundBase):
        r = f.base.diameter_mm / 2 / 25.4
        return np.column_stack([f.x + r * np.cos(t), f.y + r * np.sin(t)])
    a, b = f.base.length_mm / 2 / 25.4, f.base.width_mm / 2 / 25.4
    ph = math.radians(f.base.facing)
    u, v = a * np.cos(t), b * np.sin(t)
    return np.column_stack([f.x + u * math.cos(ph) - v * math.sin(ph), f.y + u * math.sin(ph) + v * math.cos(ph)])


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
