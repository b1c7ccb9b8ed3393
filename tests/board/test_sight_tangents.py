"""Common tangents of two bases (board/sight.py): the closed form for two circles against the
support-function root search it replaces, and each tangent checked as a tangent."""

from __future__ import annotations

import numpy as np

from tapeline.board import sight


def test_circle_tangents_match_the_root_search_and_touch_both_circles():
    rng = np.random.default_rng(3)
    n = 2000
    ca, cb = rng.uniform(0, 20, (n, 2)), rng.uniform(0, 20, (n, 2))
    ra, rb = rng.uniform(0.3, 2, n), rng.uniform(0.3, 2, n)
    ma, mb = np.eye(2)[None] * ra[:, None, None], np.eye(2)[None] * rb[:, None, None]
    p, d, ok = sight.common_tangents(ca, ma, cb, mb)
    p2, d2, ok2 = sight._support_tangents(ca, ma, cb, mb)
    assert (ok == ok2).all()
    assert np.abs(p - p2)[ok].max() < 1e-9 and np.abs(d - d2)[ok].max() < 1e-9
    # each line touches both circles: centre-to-line distance equals the radius
    for c, r in ((ca, ra), (cb, rb)):
        v = c[:, None, :] - p
        dist = np.abs(d[..., 0] * v[..., 1] - d[..., 1] * v[..., 0])
        assert np.abs(dist - r[:, None])[ok].max() < 1e-9
    # outer tangents exist unless one circle holds the other; inner ones when they are apart
    D = np.hypot(*(cb - ca).T)
    assert (ok[:, 0] == (np.abs(ra - rb) < D)).all() and (ok[:, 2] == (ra + rb < D)).all()


def test_mixed_rows_use_both_methods():
    ca = np.array([[0.0, 0.0], [0.0, 0.0]])
    cb = np.array([[5.0, 1.0], [5.0, 1.0]])
    oval = np.array([[2.0, 0.0], [0.0, 0.8]])
    ma = np.stack([np.eye(2) * 0.6, oval])
    mb = np.stack([np.eye(2) * 1.0, np.eye(2) * 1.0])
    p, d, ok = sight.common_tangents(ca, ma, cb, mb)
    p2, d2, ok2 = sight._support_tangents(ca, ma, cb, mb)
    assert (ok == ok2).all() and ok.all()
    assert np.allclose(p, p2, atol=1e-9) and np.allclose(d, d2, atol=1e-9)


def _plain_bisection_roots(ca, ma, cb, mb):
    """The tangents' normal angles by the search written plainly, one row and one root at a time:
    h(t) = d·n + |Aᵀn| ± |Bᵀn| with each product and sum in the order the search makes them,
    bracketed on the same grid, bisected one round at a time, the brackets' movement tested
    every round."""
    n = len(ca)
    t_all = np.full((n, 4), np.nan)
    for row in range(n):
        (a00, a01), (a10, a11) = ma[row]
        (b00, b01), (b10, b11) = mb[row]
        d0, d1 = ca[row] - cb[row]
        for k, sign in enumerate((-1.0, 1.0)):
            def f(t):
                c, s = np.cos(t), np.sin(t)
                wa0, wa1, wb0, wb1 = a00 * c + a10 * s, a01 * c + a11 * s, b00 * c + b10 * s, b01 * c + b11 * s
                return (d0 * c + d1 * s) + np.sqrt(wa0 * wa0 + wa1 * wa1) + sign * np.sqrt(wb0 * wb0 + wb1 * wb1)
            g = f(sight._GRID)
            starts = np.flatnonzero(np.sign(g) != np.sign(np.roll(g, -1)))[:2]
            for j, i in enumerate(starts):
                lo, hi, side = np.array([sight._GRID[i]]), np.array([sight._GRID[i] + sight._STEP]), np.sign(g[i])
                for _ in range(48):
                    mid = 0.5 * (lo + hi)
                    same = np.sign(f(mid)) == side
                    lo_, hi_ = np.where(same, mid, lo), np.where(same, hi, mid)
                    if np.array_equal(lo_, lo) and np.array_equal(hi_, hi):
                        break
                    lo, hi = lo_, hi_
                t_all[row, 2 * k + j] = (0.5 * (lo + hi))[0]
    return t_all


def test_the_ovals_roots_are_plain_bisection_to_the_last_bit():
    """_support_tangents works the support function out entry by entry, several entries an
    array operation, and tests the brackets' movement only from round BISECT_FREE on: its
    tangent directions must be those of the plain search, bit for bit."""
    rng = np.random.default_rng(11)
    n = 60
    ca, cb = rng.uniform(0, 20, (n, 2)), rng.uniform(0, 20, (n, 2))
    a, b, phi = rng.uniform(0.5, 2, (2, n)), rng.uniform(0.3, 1, (2, n)), rng.uniform(0, 2 * np.pi, (2, n))
    m = np.stack([np.stack([a * np.cos(phi), -b * np.sin(phi)], -1), np.stack([a * np.sin(phi), b * np.cos(phi)], -1)], -2)
    ma, mb = m[0], m[1]
    ma[:10] = np.eye(2) * 0.7  # round against oval too
    cb[50:] = ca[50:] + rng.uniform(-1, 1, (10, 2))  # overlapping bases: no inner tangents
    _, d, ok = sight._support_tangents(ca, ma, cb, mb)
    t = np.arctan2(d[..., 0], -d[..., 1]) % (2 * np.pi)  # d = (-sin t, cos t)
    want = _plain_bisection_roots(ca, ma, cb, mb)
    assert (ok == ~np.isnan(want)).all() and ok.sum() > 150
    want_d = np.stack([-np.sin(want), np.cos(want)], -1)
    assert np.array_equal(d[ok], want_d[ok])
