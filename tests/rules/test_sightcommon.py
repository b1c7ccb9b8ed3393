"""Gaps asked only against limits (rules/sightcommon.py): the bounds from an oval's two
semi-axes must answer every ``gap ≤ t`` exactly as the exact gap does."""

from __future__ import annotations

import random

import numpy as np

from tapeline.board.bases import OvalBase, RoundBase
from tapeline.board.measure import gap, gap_matrix
from tapeline.board.table import Figure, Table
from tapeline.board.terrain import Piece
from tapeline.rules.sightcommon import pair_gaps, piece_gaps

TOUCH = 1e-6


def _scene(seed: int):
    rng = random.Random(seed)
    pieces = (Piece.rect("wall", 10, 10, 6, 0.5), Piece.disc("rock", 20, 12, 1.5),
              Piece.rect("block", 4, 16, 3, 3))
    figs = []
    for i in range(24):
        # crowd the pieces and each other so that many gaps fall near 0-5"
        x, y = rng.uniform(2, 24), rng.uniform(6, 22)
        base = OvalBase(100, 40, rng.uniform(0, 360)) if i % 2 else RoundBase(rng.choice([25, 32, 50, 80]))
        figs.append(Figure(f"m{i}", "u", "a", base, x, y))
    return figs, Table(30, 30, pieces)


def test_piece_gaps_with_limits_answer_like_exact_gaps():
    for seed in range(3):
        figs, table = _scene(seed)
        exact = np.array([[gap(f, p.footprint) if not f.is_round else np.nan for p in table.pieces] for f in figs])
        fast = piece_gaps(figs, table, (1 + TOUCH, 2.5))
        oval = ~np.isnan(exact[:, 0])
        for t in (1 + TOUCH, 2.5):
            assert ((exact[oval] <= t) == (fast[oval] <= t)).all()
        # round bases are untouched by the limits
        assert np.array_equal(fast[~oval], piece_gaps(figs, table)[~oval])


def test_piece_gaps_oval_against_round_piece_near_the_limits():
    """The bounds of an oval's gap to a round piece (its polygon between two circles) are a
    millionth of the radius apart: ovals put a little inside and outside a limit, by bisection
    on the exact gap, must still be answered as the exact gap answers."""
    rng = random.Random(5)
    disc = Piece.disc("rock", 15, 15, 2.0)
    table = Table(30, 30, (disc,))
    figs, limits = [], (1 + TOUCH, 2.5)
    for i in range(40):
        t, side = limits[i % 2], (1e-3, -1e-3, 1e-5, -1e-5, 2e-7, -2e-7)[i % 6]
        base, th = OvalBase(rng.choice([60, 100, 120]), rng.choice([35, 40, 70]), rng.uniform(0, 360)), rng.uniform(0, 6.3)
        lo_, hi_ = 0.0, 10.0  # distance of the oval's centre from the disc's edge: gap == t + side
        for _ in range(60):
            mid = (lo_ + hi_) / 2
            f = Figure(f"m{i}", "u", "a", base, 15 + (2 + mid) * np.cos(th), 15 + (2 + mid) * np.sin(th))
            lo_, hi_ = (mid, hi_) if gap(f, disc.footprint) < t + side else (lo_, mid)
        figs.append(f)
    exact = np.array([gap(f, disc.footprint) for f in figs])
    fast = piece_gaps(figs, table, limits)[:, 0]
    for t in limits:
        assert ((exact <= t) == (fast <= t)).all()
    assert (np.abs(exact[:, None] - np.array(limits)[None, :]).min(axis=1) < 2e-3).all()


def test_pair_gaps_answer_like_gap_matrix():
    checked = 0
    for seed in range(3):
        figs, _ = _scene(seed)
        exact = np.array([[gap(a, b) for b in figs] for a in figs])
        fast = pair_gaps(figs, figs, (3 + TOUCH, 4 + TOUCH))
        for t in (3 + TOUCH, 4 + TOUCH):
            assert ((exact <= t) == (fast <= t)).all()
            checked += int(((exact > t - 1) & (exact < t + 1)).sum())
        rnd = np.array([f.is_round for f in figs])
        assert np.array_equal(fast[np.ix_(rnd, rnd)], gap_matrix(figs, figs)[np.ix_(rnd, rnd)])
    assert checked > 20  # the scenes do put pairs near the limits
