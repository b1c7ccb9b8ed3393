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
