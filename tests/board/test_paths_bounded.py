"""The bounded region search (board/paths.py, ``Reach._bounded``) against the full one: the same
path, leg for leg and bit for bit, the same region and the same "none shorter" answers."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import shapely

from tapeline.board import paths
from tapeline.board.errors import GeometryError
from tapeline.board.paths import Reach
from tapeline.board.regions import Region
from tapeline.board.space import Obstacle, Space, disc_obstacle, oval_polygon_outside, polygon_obstacle

RHO = 0.5


def _crowded_space(rng, W=40.0, H=30.0) -> Space:
    """Boxes, a wall, round bases and oval bases (many small corners), seeded."""
    obs = []
    for i in range(int(rng.integers(3, 7))):
        x, y = rng.uniform(2, W - 6), rng.uniform(2, H - 6)
        obs.append(polygon_obstacle(f"b{i}", "terrain", shapely.box(x, y, x + rng.uniform(0.5, 4), y + rng.uniform(0.5, 4)), RHO))
    pts = rng.uniform([2, 2], [W - 2, H - 2], (3, 2))
    obs.append(Obstacle("wall", "terrain", shapely.LineString(pts), RHO))
    for i in range(int(rng.integers(4, 12))):
        obs.append(disc_obstacle(f"d{i}", "model", rng.uniform(1, W - 1), rng.uniform(1, H - 1), rng.uniform(0.4, 1.0), RHO))
    for i in range(2):
        x, y = rng.uniform(3, W - 3), rng.uniform(3, H - 3)
        obs.append(Obstacle(f"o{i}", "model", oval_polygon_outside(x, y, 1.9, 0.8, rng.uniform(0, math.pi), 32), RHO))
    return Space(W, H, RHO, obs)


def _regions(rng, space: Space) -> list:
    """One or two goal regions: within a reach of one of a few target bases, clear of others."""
    out = []
    for _ in range(int(rng.integers(1, 3))):
        near = tuple((shapely.Point(*rng.uniform([3, 3], [space.width - 3, space.height - 3])), float(rng.uniform(1.2, 2.0)))
                     for _ in range(int(rng.integers(1, 3))))
        far = ((shapely.Point(*rng.uniform([3, 3], [space.width - 3, space.height - 3])), 1.5),)
        out.append(Region(near=(near,), far=far, box=space.box))
    return out


def _search(space: Space, starts, regions, bounded: bool, monkeypatch) -> list:
    """What :func:`rules.charge_geometry.best_plan` asks: each start in turn, below the best
    so far; every answer (path or none) as exact values."""
    with monkeypatch.context() as m:
        m.setattr(paths, "_BOUND_MIN_CIRCLES", 0 if bounded else 10**9)
        m.setattr(paths, "_BOUND_SHARE", 1.0)
        best, out = math.inf, []
        for a in starts:
            try:
                R = Reach(space, a)
            except GeometryError as e:  # a start inside an obstacle: the same error either way
                out.append(("error", str(e)))
                continue
            p, i = R.to_regions(regions, best)
            out.append(None if p is None else (repr(p), p.legs, p.length, i))
            if p is not None:
                best = p.length
        return out


@pytest.mark.parametrize("seed", range(40))
def test_the_bounded_search_gives_the_full_searchs_answers(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    for _ in range(3):
        space_args = rng.integers(0, 2**31)
        full_space = _crowded_space(np.random.default_rng(space_args))
        regions = _regions(rng, full_space)
        starts = [tuple(rng.uniform([1, 1], [full_space.width - 1, full_space.height - 1])) for _ in range(3)]
        full = _search(full_space, starts, regions, False, monkeypatch)
        bounded = _search(_crowded_space(np.random.default_rng(space_args)), starts, regions, True, monkeypatch)
        assert bounded == full


def test_a_guess_too_short_falls_back_to_the_full_search(monkeypatch):
    # A wall between the start and the goal: the path goes far round, beyond the guess.
    obs = [Obstacle("wall", "terrain", shapely.LineString([(20, 2), (20, 28)]), RHO)]
    obs += [disc_obstacle(f"d{i}", "model", 5 + 3 * (i % 10), 3 + 12 * (i // 10), 0.5, RHO) for i in range(30)]
    regions = [Region(near=(((shapely.Point(24, 15), 1.5),),), box=(RHO, RHO, 40 - RHO, 30 - RHO))]
    calls = []
    bounded = paths.Reach._bounded

    def spy(self, *a):
        res = bounded(self, *a)
        calls.append(res[0] is not None)
        return res

    monkeypatch.setattr(paths.Reach, "_bounded", spy)
    got = _search(Space(40, 30, RHO, obs), [(16, 15)], regions, True, monkeypatch)
    assert calls == [False, False]  # the guess and the looser one tried: neither settles it
    assert got == _search(Space(40, 30, RHO, obs), [(16, 15)], regions, False, monkeypatch)
    assert got[0][2] > 2 * 7.5


def test_the_showcase_charges_are_the_full_searchs(monkeypatch):
    # Charges on the showcase (its Hydralisks' oval bases make hundreds of corners) of the
    # Roaches (three candidate Leading Models), the Queen and the Hydralisks (oval movers) at
    # every enemy unit: the same answer with the search bounded or not.
    from tapeline.rules.starcraft import charge
    from tapeline.scenarios.load import read

    state = read(str(Path(__file__).resolve().parents[2] / "scenarios" / "examples" / "showcase.yaml")).state
    asked = 0
    for u in ("roaches", "queen", "hydralisks"):
        for t in state.enemies_of(u):
            answers = []
            for full in (False, True):
                with monkeypatch.context() as m:
                    if full:
                        m.setattr(paths, "_BOUND_MIN_CIRCLES", 10**9)
                    try:
                        rc = charge.reach(state, u, [t.id])
                        answers.append((rc.leader, rc.distance, rc.plan.path, rc.plan.level, rc.odds))
                    except Exception as e:  # an illegal charge: the same refusal either way
                        answers.append(str(e))
            assert answers[0] == answers[1], (u, t.id)
            asked += 1
    assert asked >= 10
