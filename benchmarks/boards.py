"""Seeded random StarCraft tables for the benchmarks: mixed terrain and two armies.

:func:`board` returns the scenario as a dict (``yaml.safe_dump`` it or hand it to
:func:`state`). Terrain: ``pieces`` footprints — rectangles (some turned), L-shaped ruins and
round pieces (the exact circles of :mod:`board.sight`) — of Size 0 to 4 (§7.1: Size 0 blocks
nothing, a piece blocks only models of its Size or less), 0.5" apart. Models: ``per_side`` per side in units of
four to six, the Terran side from Marines (Size 2, 32 mm), Marauders (Size 2, 50 mm) and
Goliaths (Size 3, 80 mm), the Zerg side from Zerglings (Size 1, 32 mm), Roaches (Size 2,
50 mm), Hydralisks (Size 2, 100 × 40 mm ovals) and Queens (Size 3, 80 mm); about one unit in
eight is Flying, one in twelve HIDDEN. Every model stands on the ground: bases never overlap
each other or a footprint (so no High Ground, no Dead Zone).
"""

from __future__ import annotations

import math
import random

import numpy as np
import shapely
import shapely.affinity
import yaml

from tapeline.rules.state import GameState

MM = 1 / 25.4
BASE_MODELS = 40  # models on a 54" × 36" table (:func:`scaled`)
TERRAN = [("marine", 32), ("marauder", 50), ("goliath", 80)]
ZERG = [("zergling", 32), ("roach", 50), ("hydralisk", (100, 40)), ("queen", 80)]


def _piece(rng: random.Random, W: float, H: float) -> tuple[dict, shapely.Geometry]:
    x, y = rng.uniform(2, W - 2), rng.uniform(2, H - 2)
    kind = rng.random()
    if kind < 0.2:
        r = rng.uniform(0.6, 2.2)
        return {"circle": [round(x, 3), round(y, 3), round(r, 3)]}, shapely.Point(x, y).buffer(r, 64)
    if kind < 0.45:  # an L-shaped ruin
        a, b, t = rng.uniform(2, 6), rng.uniform(2, 6), rng.uniform(0.4, 1.0)
        pts = [(0, 0), (a, 0), (a, t), (t, t), (t, b), (0, b)]
    else:  # a wall or a block
        a, b = rng.uniform(0.5, 7), rng.uniform(0.5, 4)
        pts = [(0, 0), (a, 0), (a, b), (0, b)]
    th = rng.uniform(0, math.pi) if rng.random() < 0.5 else 0.0
    c, s = math.cos(th), math.sin(th)
    pts = [(round(x + u * c - v * s, 3), round(y + u * s + v * c, 3)) for u, v in pts]
    return {"polygon": [list(p) for p in pts]}, shapely.Polygon(pts)


def board(seed: int, per_side: int = 20, pieces: int = 15, W: float = 54.0, H: float = 36.0) -> dict:
    """A random scenario (a dict in the file format): ``pieces`` terrain pieces, two sides of
    ``per_side`` models each."""
    rng = random.Random(seed)
    table = shapely.box(0, 0, W, H)
    terrain, shapes = [], []
    for _ in range(10_000 * max(pieces, 1)):
        if len(terrain) == pieces:
            break
        fp, g = _piece(rng, W, H)
        if not table.contains(g) or any(g.distance(o) < 0.5 for o in shapes):
            continue
        size = rng.choice([0, 1, 1, 2, 2, 2, 3, 4])
        terrain.append({"id": f"t{len(terrain)}", "footprint": fp, "size": size,
                        "height": round(0.8 * size + rng.uniform(0, 0.5), 2)})
        shapes.append(g)
    else:
        raise ValueError(f"cannot fit {pieces} pieces on {W}\" x {H}\"")
    tree = shapely.STRtree(shapes) if shapes else None
    bases: list[shapely.Geometry] = []
    units = []
    for side, roster in (("terran", TERRAN), ("zerg", ZERG)):
        left, k = per_side, 0
        while left:
            profile, base = rng.choice(roster)
            n = min(left, rng.randint(4, 6))
            unit = {"id": f"{side}-{k}", "side": side, "profile": profile, "models": []}
            if rng.random() < 1 / 8:
                unit["tags"] = ["flying", "biological"]
            elif rng.random() < 1 / 12:
                unit["status"] = ["hidden"]
            for i in range(n):
                while True:
                    x, y = rng.uniform(1.5, W - 1.5), rng.uniform(1.5, H - 1.5)
                    facing = rng.uniform(0, 360)
                    if isinstance(base, tuple):
                        a, b = base[0] * MM / 2, base[1] * MM / 2
                        g = shapely.affinity.rotate(shapely.affinity.scale(shapely.Point(x, y).buffer(1, 32), a, b), facing)
                    else:
                        g = shapely.Point(x, y).buffer(base * MM / 2, 32)
                    near = tree.query(g, predicate="dwithin", distance=0.1) if tree is not None else []
                    if len(near) == 0 and table.contains(g) and not (bases and shapely.dwithin(g, np.array(bases), 0.1).any()):
                        break
                bases.append(g)
                m = {"id": f"{side[0]}{k}-{i}", "at": [round(x, 4), round(y, 4)]}
                if isinstance(base, tuple):
                    m["facing"] = round(facing, 2)
                unit["models"].append(m)
            units.append(unit)
            left -= n
            k += 1
    return {"tapeline": 1, "system": "starcraft", "name": f"random table {seed}",
            "board": {"width": W, "height": H}, "terrain": terrain, "units": units}


def scaled(seed: int, models: int, pieces: int | None = None) -> dict:
    """A table for ``models`` models (two equal sides): 54" × 36" scaled by √(models / 40)."""
    s = max(1.0, math.sqrt(models / BASE_MODELS))
    if pieces is None:
        pieces = round(15 * s * s)
    return board(seed, per_side=models // 2, pieces=pieces, W=round(54 * s, 1), H=round(36 * s, 1))


def text(scenario: dict) -> str:
    return yaml.safe_dump(scenario, sort_keys=False)


def state(scenario: dict, overlap_check: bool = True) -> GameState:
    """The scenario loaded as the command line loads a file (schema and file checks included).

    ``overlap_check=False`` skips the check that no two bases overlap (the tables made here
    never have any; on a few hundred models with ovals the check takes most of a minute,
    measured on its own by :mod:`benchmarks.bench_scale`)."""
    from unittest import mock

    from tapeline.scenarios import load

    if overlap_check or not hasattr(load, "_check_overlaps"):
        return load.parse(text(scenario), f"<{scenario['name']}>").state
    with mock.patch.object(load, "_check_overlaps", lambda *a, **k: None):
        return load.parse(text(scenario), f"<{scenario['name']}>").state
