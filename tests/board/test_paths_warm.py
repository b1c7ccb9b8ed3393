"""The warm point query (board/paths.py, ``Reach.to_point``: the space's kept tangent graph, the
start's and the goal's tangents joined to it, A* with the straight-line bound) against the full
search it replaced (the whole graph built for the query, Dijkstra to the target): the same
graph node for node, and the same length on many seeded random boards."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from tapeline.board import paths
from tapeline.board.errors import GeometryError
from tapeline.board.pathcheck import check_path
from tapeline.board.paths import START, TARGET, Path, Reach
from tapeline.board.space import Space, disc_obstacle, polygon_obstacle
from tests.board.test_paths import _same_graph
from tests.board.test_paths_bounded import _crowded_space

RHO = 0.5


def full_search(R: Reach, goal) -> Path | None:
    """What ``Reach.to_point`` did before the warm query: the graph built afresh for this start
    and goal (``Reach._graph``), Dijkstra from the start to the target."""
    g = (float(goal[0]), float(goal[1]))
    if R.space.point_margin([g])[0][0] < -paths.TOL:
        return None
    if R.space.clear_segments([R.start], [g])[0]:
        return Path(R.start, (paths.Leg("line", R.start, g),), math.dist(R.start, g))
    G = R._graph(R._point_tangents(g, "T"), None)
    if TARGET not in G.adj:
        return None
    dist, prev = paths._dijkstra(G.adj, START, TARGET)
    if TARGET not in dist:
        return None
    return Path(R.start, tuple(R._legs(G, paths._route(prev, TARGET))), float(dist[TARGET]))


def random_space(rng: np.random.Generator, n: int) -> Space:
    """``n`` obstacles at the crowding of a game (about 43 square inches each): boxes, some
    turned, and round bases; overlaps allowed (merged obstacles close the gap between them)."""
    area = 43.2 * n
    W = math.sqrt(1.5 * area)
    H = W / 1.5
    obs = []
    for i in range(n):
        x, y = rng.uniform(2, W - 2), rng.uniform(2, H - 2)
        if rng.random() < 0.4:
            b = shapely.box(x, y, x + rng.uniform(0.5, 4), y + rng.uniform(0.5, 4))
            if rng.random() < 0.5:
                b = shapely.affinity.rotate(b, float(rng.uniform(0, 180)))
            obs.append(polygon_obstacle(f"r{i}", "terrain", b, RHO))
        else:
            obs.append(disc_obstacle(f"m{i}", "model", x, y, float(rng.uniform(0.5, 1.0)), RHO))
    return Space(W, H, RHO, obs)


def _pairs(rng: np.random.Generator, space: Space, k: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    out = []
    while len(out) < k:
        a, b = (tuple(rng.uniform([1, 1], [space.width - 1, space.height - 1]).tolist()) for _ in range(2))
        out.append((a, b))
    return out


def _compare(space: Space, pairs) -> int:
    """Every pair asked warm (one space: its kept graph grows no different for being shared)
    and by the full search; returns how many needed a graph search."""
    searched = 0
    for a, b in pairs:
        try:
            R = Reach(space, a)
        except GeometryError:
            continue
        warm = R.to_point(b)
        full = full_search(Reach(space, a), b)
        assert (warm is None) == (full is None), (a, b)
        if warm is None:
            continue
        searched += len(warm.legs) > 1
        # the same length bit for bit; the same legs but where two routes tie exactly
        assert warm.length == full.length, (a, b, warm.length - full.length)
        if warm.legs != full.legs:
            assert sum(l.length for l in warm.legs) == pytest.approx(sum(l.length for l in full.legs), abs=1e-9)
        assert warm.end == full.end and warm.start == full.start
    return searched


@pytest.mark.parametrize("seed", range(30))
def test_the_warm_query_gives_the_full_searchs_lengths(seed):
    rng = np.random.default_rng(seed)
    space = _crowded_space(rng) if seed % 2 else random_space(rng, int(rng.integers(10, 60)))
    assert _compare(space, _pairs(rng, space, 8)) >= 1  # (every seed has a pair that needs a search)


def test_the_warm_query_on_a_big_table():
    rng = np.random.default_rng(2024)
    space = random_space(rng, 150)
    assert _compare(space, _pairs(rng, space, 12)) >= 6


@pytest.mark.parametrize("seed", range(8))
def test_the_joined_graph_is_the_graph_built_for_the_start_and_goal(seed):
    # The kept graph joined to a start's and a goal's tangents (Reach._start_graph with the goal)
    # must be the graph built from scratch for them (Reach._graph), node for node and in the
    # same order of neighbours: only the search then differs.
    rng = np.random.default_rng(100 + seed)
    space = random_space(rng, 30) if seed % 2 else _crowded_space(rng)
    for a, b in _pairs(rng, space, 4):
        if not space.clear_points([a, b]).all():
            continue
        R = Reach(space, a)
        goal = R._point_tangents(b, "T")
        _same_graph(R._start_graph(None, (), goal), R._graph(goal, None))


def test_warm_paths_are_legal():
    rng = np.random.default_rng(7)
    space = random_space(rng, 80)
    for a, b in _pairs(rng, space, 10):
        if not space.clear_points([a, b]).all():
            continue
        p = Reach(space, a).to_point(b)
        if p is not None:
            assert check_path(space, p.points()).legal


def test_a_star_ties_and_no_route():
    # Two routes of one length round a rock (above and below): either is the answer, at the
    # length Dijkstra finds; a walled-off goal has none.
    s = Space(20, 20, 0.5, [disc_obstacle("rock", "model", 10, 10, 0.5, 0.5)])
    R = Reach(s, (6, 10))
    p = R.to_point((14, 10))
    assert p.length == full_search(R, (14, 10)).length
    assert p.length == pytest.approx(2 * math.sqrt(15) + math.pi - 2 * math.acos(0.25), abs=1e-9)
    walls = [polygon_obstacle("w", "terrain", shapely.box(9, 0, 11, 20), 0.5)]
    assert Reach(Space(20, 20, 0.5, walls), (5, 5)).to_point((15, 5)) is None


def test_queries_leave_the_kept_graph_as_it_was():
    # Every query joins its ends to a copy of the kept graph's top-level dicts and writes only
    # dicts of its own: the kept graph (Space.memo.graphs[()]) is never changed.
    rng = np.random.default_rng(5)
    space = random_space(rng, 40)
    Reach(space, (0.5, 0.5)).prepare()
    kept = space.memo.graphs[()]
    before = ({u: dict(d) for u, d in kept.adj.items()}, dict(kept.pos), dict(kept.legs), list(kept.circle), list(kept.slot))
    for a, b in _pairs(rng, space, 10):
        if space.clear_points([a]).all():
            Reach(space, a).to_point(b)
    assert space.memo.graphs[()] is kept
    assert ({u: dict(d) for u, d in kept.adj.items()}, kept.pos, kept.legs, kept.circle, kept.slot) == before
