"""Charges at oval targets crowded by oval bases: the exact region search against a fine brute
force (shortest paths to points of the goal, sampled every 0.01" along its outline)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from tapeline.board.pathcheck import check_path
from tapeline.board.paths import Reach
from tapeline.board.regions import Region
from tapeline.board.space import Obstacle, Space, oval_polygon_outside

W, H, RHO, R_MOVER = 30.0, 20.0, 0.5, 0.5
A, B = 60 / 25.4 / 2, 35 / 25.4 / 2  # a 60 x 35 mm oval


def inscribed(x, y, phi, n=384):
    t = np.arange(n) * 2 * math.pi / n
    u, v = A * np.cos(t), B * np.sin(t)
    c, s = math.cos(phi), math.sin(phi)
    return shapely.Polygon(np.column_stack([x + u * c - v * s, y + u * s + v * c]))


TARGETS = [(20.0, 10.0, 0.0), (20.2, 12.6, 0.5)]
CROWD = [(17.4, 10.4, 1.4), (17.6, 13.2, 2.0), (20.0, 7.6, 0.2), (22.7, 11.0, 1.6), (20.6, 15.2, 2.8),
         (17.0, 7.8, 0.9), (23.0, 14.0, 0.3), (22.9, 8.2, 2.4)]


def scene():
    bases = TARGETS + CROWD
    obs = [Obstacle(f"o{i}", "model", oval_polygon_outside(x, y, A, B, p), RHO) for i, (x, y, p) in enumerate(bases)]
    space = Space(W, H, RHO, obs)
    near = tuple((inscribed(x, y, p), R_MOVER + 1.0) for x, y, p in TARGETS)
    far = tuple((oval_polygon_outside(x, y, A, B, p), R_MOVER) for x, y, p in bases)
    return space, Region(near=(near,), far=far, box=(R_MOVER, R_MOVER, W - R_MOVER, H - R_MOVER)), bases


def brute_force(reach: Reach, bases) -> float:
    """The shortest path to any sampled point of the goal, its membership decided with shapely
    distances alone (samples of a shapely approximation of the goal's outline)."""
    near = shapely.union_all([inscribed(x, y, p).buffer(R_MOVER + 1.0, quad_segs=64) for x, y, p in TARGETS])
    cores = [oval_polygon_outside(x, y, A, B, p) for x, y, p in bases]
    far = shapely.union_all([c.buffer(R_MOVER + 3e-4, quad_segs=64) for c in cores])
    goal = near.difference(far)
    pts = shapely.get_coordinates(shapely.segmentize(shapely.boundary(goal), 0.01))
    geoms = shapely.points(pts)
    ok = np.ones(len(pts), dtype=bool)
    ok &= np.min([shapely.distance(geoms, inscribed(x, y, p)) for x, y, p in TARGETS], axis=0) <= R_MOVER + 1.0
    ok &= np.min([shapely.distance(geoms, c) for c in cores], axis=0) >= R_MOVER
    pts = pts[ok]
    far_ = np.hypot(*(pts - reach.start).T)
    order = np.argsort(far_)
    pts, far_ = pts[order], far_[order]
    straight = reach.space.clear_segments(np.repeat([reach.start], len(pts), axis=0), pts)
    best = math.inf
    for p, d, s in zip(pts, far_, straight):
        if d >= best:
            break
        q = d if s else getattr(reach.to_point(p), "length", math.inf)
        best = min(best, q)
    return best


@pytest.mark.parametrize("start", [(20.0, 18.8), (14.0, 1.5)])
def test_charge_at_crowded_oval_targets_agrees_with_a_fine_brute_force(start):
    space, region, bases = scene()
    reach = Reach(space, start)
    p = reach.to_region(region)
    assert p is not None and region.contains([p.end])[0]
    assert check_path(space, p.points()).legal
    want = brute_force(reach, bases)
    # exact: never longer than a path to any sampled goal point, and the 0.01" samples (on an
    # outline pushed 3e-4" off the crowding bases) come within 1e-3" of it
    assert p.length <= want + 1e-9
    assert p.length >= want - 1e-3


def test_the_showcase_hydralisks_can_be_charged():
    # Two oval bases (the Hydralisks) in a crowded corner: the goal region's outline has
    # thousands of pieces; it is searched exactly (no complexity refusal). The Marauders' best
    # Leading Model needs at least the straight gap less 1", its path is legal and its end spot
    # within 1" of a Hydralisk, overlapping nothing.
    from pathlib import Path

    from tapeline.board.measure import gap
    from tapeline.board.pathcheck import check_end
    from tapeline.rules.charge_geometry import space_for
    from tapeline.rules.starcraft import charge
    from tapeline.scenarios.load import read

    state = read(str(Path(__file__).resolve().parents[2] / "scenarios" / "examples" / "showcase.yaml")).state
    r = charge.reach(state, "marauders", ["hydralisks"])
    lead = state.figure(r.leader)
    end = lead.moved(*r.plan.path.end, None)
    hyd = [state.figure(h) for h in state.unit("hydralisks").models]
    assert min(gap(end, h) for h in hyd) <= 1.0 + 1e-9
    straight = min(gap(state.figure(m), h) for m in state.unit("marauders").models for h in hyd) - 1.0
    assert r.distance >= straight - 1e-9
    rules = charge.move_rules(state, "marauders", lead, keep_away_from=[])
    assert check_path(space_for(state, rules), r.plan.path.points()).legal
    assert check_end(state.table, end, [f for f in state.all_figures() if f.id != lead.id]) is None


def test_probe_slack_reads_only_nearly_active_constraints_yet_agrees_on_the_sign():
    # Region.probe_slack skips a constraint at the probes of an outline vertex where it is
    # slack by over 2e-6"; probes 1e-6" away in every direction get the sign Region.slack gives.
    space, region, _ = scene()
    reg = Region(region.near, tuple(region.far) + tuple((o.core, o.grow) for o in space.obstacles), region.box)
    V = reg.vertices
    rng = np.random.default_rng(0)
    vi = rng.integers(0, len(V), 5000)
    ang = rng.uniform(0, 2 * math.pi, len(vi))
    probes = V[vi] + 1e-6 * np.column_stack([np.cos(ang), np.sin(ang)])
    full, fast = reg.slack(probes), reg.probe_slack(V, vi, probes, 1e-6)
    assert ((full <= 1e-9) == (fast <= 1e-9)).all()
    assert 0 < (full <= 1e-9).sum() < len(vi)
