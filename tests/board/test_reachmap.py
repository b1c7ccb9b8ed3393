"""The reach map's multi-source search against one shortest path per start and goal."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from tapeline.board.paths import shortest_path
from tapeline.board.reachmap import reach_lengths
from tapeline.board.space import Obstacle, Space, disc_obstacle, polygon_obstacle


def _space(seed: int) -> Space:
    rng = np.random.default_rng(seed)
    obs = []
    for i in range(6):
        x, y = rng.uniform(4, 26), rng.uniform(4, 16)
        if i % 3 == 0:
            obs.append(disc_obstacle(f"d{i}", "terrain", x, y, rng.uniform(0.5, 1.5), 0.6))
        else:
            w, h = rng.uniform(0.5, 5), rng.uniform(0.5, 5)
            obs.append(polygon_obstacle(f"p{i}", "terrain", shapely.box(x, y, x + w, y + h), 0.6))
    return Space(30, 20, 0.6, obs, edge=0.6)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_goal_is_the_nearest_start_by_brute_force(seed):
    space = _space(seed)
    starts = [(x + 0.5, y + 0.5) for x in range(1, 29, 3) for y in (1, 3)]
    goals = [(x + 0.25, y + 0.75) for x in range(0, 30, 4) for y in range(0, 20, 3)]
    got = reach_lengths(space, starts, goals)
    free_starts = [s for s in starts if space.clear_points([s])[0]]
    for g, value in zip(goals, got):
        lengths = [p.length for s in free_starts if (p := shortest_path(space, s, g)) is not None] \
            if space.clear_points([g])[0] else []
        want = min(lengths, default=math.inf)
        assert value == pytest.approx(want, abs=1e-9), (g, value, want)


def test_no_obstacles_is_the_straight_distance():
    space = Space(10, 10, 0.5, [], edge=0.5)
    got = reach_lengths(space, [(1, 1), (9, 1)], [(1, 4), (8, 5), (0.2, 5)])
    assert got[0] == pytest.approx(3.0)
    assert got[1] == pytest.approx(math.hypot(1, 4))
    assert got[2] == math.inf  # within the edge clearance: not free


def test_walled_in_goal_is_unreachable():
    ring = shapely.box(3, 3, 7, 7).difference(shapely.box(4, 4, 6, 6))
    space = Space(10, 10, 0.2, [Obstacle("ring", "terrain", ring, 0.2)], edge=0.2)
    got = reach_lengths(space, [(1, 1)], [(5, 5), (9, 1)])
    assert got[0] == math.inf
    assert got[1] == pytest.approx(8.0)
