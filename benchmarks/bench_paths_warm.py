"""Warm shortest-path queries on big prepared tables: tapeline vs extremitypathfinder prepared.

Scenes: the crowding of :mod:`benchmarks.bench_paths` (8 rectangular ruins and 12 round bases,
32 mm, per 36" × 24"; clearance ρ = 0.5"; the same placement rules) on tables grown with the
number of obstacles N (36" × 24" scaled by √(N / 20)), seeded. Two kinds of query, 20 of each:
start/goal pairs across the table (at least 10" apart) and moves (3" to 12"); every one clear
of every obstacle by more than δ at both ends, with its straight line blocked (a path must be
searched). The same boards and pairs for both.

* **tapeline**: the :class:`board.space.Space` built and prepared once (``Reach.prepare``:
  the circle-to-circle tangents and the graph they make, kept in ``Space.memo``); a query is
  ``Reach(space, a).to_point(b)`` (the start's and goal's tangents joined to the kept graph,
  A* with the straight-line bound).
* **extremitypathfinder**: the obstacles as polygons *containing* the true grown outlines
  within δ = 1e-2" (the coarsest of :mod:`benchmarks.bench_paths`: its fewest vertices),
  merged where they overlap, the table shrunk by ρ as its boundary; ``store`` and ``prepare``
  once (not counted), a query is ``find_shortest_path(a, b)``.

CPU time of each kind's queries, each pair asked once (a pair asked again would find the arc
verdicts its first asking kept: a judge dragging a model asks new ones), the two side by side
on each board. tapeline's growth is fitted on N = 50 … 300 (least squares of log time on
log N); the peer runs at 100 and 300 obstacles only (its ``prepare`` takes minutes there).
Goal: tapeline at least as fast as the prepared peer at 100 and 300 obstacles, its warm query
growing no faster than N^1.2.

Checks (a failure stops the section): tapeline's paths pass its validator; none is longer than
the peer's (the peer's polygons contain the true obstacles, so its legal paths are no shorter
than the exact ones) and the peer's exceed them by little.
"""

from __future__ import annotations

import math
import random
import time
import warnings

import numpy as np
import shapely

from benchmarks import agree, installed
from benchmarks.bench_paths import BASE_R, RHO, merged, tapeline_space
from tapeline.board.pathcheck import check_path
from tapeline.board.paths import Reach

SIZES = (50, 100, 200, 300)
PEER_SIZES = (100, 300)
QUICK_SIZES = (20, 40)
QUICK_PEER_SIZES = (20,)
DELTA = 1e-2
PAIRS = 20
MOVE = (3.0, 12.0)  # a move's start-to-goal distance (inches)
QUICK_PAIRS = 5
TARGET_SPEED = 1.0  # the peer's time over tapeline's, at least
TARGET_GROWTH = 1.2


def searched(space, a, b) -> bool:
    """Whether ``a`` and ``b`` are clear of every obstacle by more than 2δ (so free for the
    peer's polygons too) and the straight line between them is not (a path must be searched)."""
    return bool((space.point_margin([a, b])[0] > 2 * DELTA).all() and not space.clear_segments([a], [b])[0])


def scene(n: int, seed: int = 11, n_pairs: int = PAIRS):
    """``n`` obstacles (two in five ruins, as in :mod:`benchmarks.bench_paths`) on a table grown
    with them, ``n_pairs`` start/goal pairs across the table and ``n_pairs`` moves:
    ``(W, H, rects, discs, pairs, moves)``."""
    rng = random.Random(seed + n)
    s = math.sqrt(n / 20)
    W, H = round(36 * s, 1), round(24 * s, 1)
    n_rects = round(0.4 * n)
    rects: list = []
    while len(rects) < n_rects:
        x, y = rng.uniform(3, W - 7), rng.uniform(3, H - 7)
        b = shapely.box(x, y, x + rng.uniform(0.8, 4), y + rng.uniform(0.8, 4))
        if not rects or not shapely.dwithin(b, np.array(rects), 0.2).any():
            rects.append(b)
    discs: list = []
    while len(discs) < n - n_rects:
        p = shapely.Point(rng.uniform(3, W - 3), rng.uniform(3, H - 3))
        if not shapely.dwithin(p, np.array(rects), 1.0).any() and not (discs and shapely.dwithin(p, np.array(discs), 1.4).any()):
            discs.append(p)
    space = tapeline_space(rects, discs, W, H)
    pairs: list = []
    while len(pairs) < n_pairs:
        a = (rng.uniform(1, W - 1), rng.uniform(1, H - 1))
        b = (rng.uniform(1, W - 1), rng.uniform(1, H - 1))
        if math.dist(a, b) > 10 and searched(space, a, b):
            pairs.append((a, b))
    moves: list = []
    while len(moves) < n_pairs:
        a = (rng.uniform(1, W - 1), rng.uniform(1, H - 1))
        d, t = rng.uniform(*MOVE), rng.uniform(0, 2 * math.pi)
        b = (a[0] + d * math.cos(t), a[1] + d * math.sin(t))
        if 1 < b[0] < W - 1 and 1 < b[1] < H - 1 and searched(space, a, b):
            moves.append((a, b))
    return W, H, rects, discs, pairs, moves


def _length(pts) -> float:
    return sum(math.dist(p, q) for p, q in zip(pts, pts[1:])) if len(pts) > 1 else math.inf


def once(f):
    """``(CPU seconds, result)`` of one run of ``f()``."""
    t = time.process_time()
    out = f()
    return time.process_time() - t, out


def tapeline_side(W, H, rects, discs, asked: dict):
    """Build + prepare CPU seconds, and per kind of query: CPU seconds per query and the paths."""
    t = time.process_time()
    space = tapeline_space(rects, discs, W, H)
    Reach(space, (RHO, RHO)).prepare()
    build = time.process_time() - t
    out = {}
    for kind, pairs in asked.items():
        q, paths = once(lambda: [Reach(space, a).to_point(b) for a, b in pairs])
        bad = sum(p is None or not check_path(space, p.points()).legal for p in paths)
        agree(bad == 0, f"warm paths, {len(rects) + len(discs)} obstacles: the validator rejects {bad} of tapeline's paths")
        out[kind] = (q / len(pairs), np.array([p.length for p in paths]))
    return build, out


def peer_side(W, H, rects, discs, asked: dict):
    """extremitypathfinder: its polygons' vertices, store + prepare CPU seconds, and per kind of
    query: CPU seconds per query and the lengths."""
    from extremitypathfinder import PolygonEnvironment

    polys = merged(rects, discs, DELTA)
    env = PolygonEnvironment()
    box = [(RHO, RHO), (W - RHO, RHO), (W - RHO, H - RHO), (RHO, H - RHO)]
    holes = [shapely.get_coordinates(shapely.geometry.polygon.orient(p, -1).exterior)[:-1].tolist() for p in polys]
    t = time.process_time()
    env.store(box, holes, validate=False)
    env.prepare()
    build = time.process_time() - t
    out = {}
    with warnings.catch_warnings():  # "called .prepare() on already prepared map"
        warnings.simplefilter("ignore")
        for kind, pairs in asked.items():
            q, routes = once(lambda: [env.find_shortest_path(a, b)[0] for a, b in pairs])
            out[kind] = (q / len(pairs), np.array([_length(r) for r in routes]))
    return sum(len(h) for h in holes), build, out


def fit(ns, ts) -> float:
    """The exponent k of t ∝ N^k, least squares on logarithms."""
    return float(np.polyfit(np.log(ns), np.log(ts), 1)[0])


KINDS = {"pairs": "across the table (≥ 10\" apart)", "moves": f"moves ({MOVE[0]:g}–{MOVE[1]:g}\")"}


def run(quick: bool = False) -> str:
    """The section; ``quick``: 20 and 40 obstacles, the peer (where installed) at 20, 5 pairs of
    each kind."""
    sizes, peer_sizes = (QUICK_SIZES, QUICK_PEER_SIZES) if quick else (SIZES, PEER_SIZES)
    n_pairs = QUICK_PAIRS if quick else PAIRS
    have_peer = installed("extremitypathfinder")
    builds, rows = [], []  # (n, table, tapeline build, peer vertices and build); (n, kind, tapeline q, peer q, over)
    for n in sorted(set(sizes) | set(peer_sizes)):
        W, H, rects, discs, pairs, moves = scene(n, n_pairs=n_pairs)
        asked = {"pairs": pairs, "moves": moves}
        build, mine = tapeline_side(W, H, rects, discs, asked)
        peer = peer_side(W, H, rects, discs, asked) if have_peer and n in peer_sizes else None
        builds.append((n, W, H, build, None if peer is None else peer[:2]))
        for kind in asked:
            q, lengths = mine[kind]
            if peer is None:
                rows.append((n, kind, q, None, None))
                continue
            p_q, p_len = peer[2][kind]
            over = p_len - lengths
            agree(bool((over >= -1e-6).all()), f"warm paths, {n} obstacles: tapeline's path is longer than the peer's "
                                               f"by {-over.min():.2e}\" (its exact length must be the shorter)")
            agree(bool((over <= 0.1).all()), f"warm paths, {n} obstacles: the peer's path is longer than tapeline's "
                                             f"by {over.max():.3f}\" (more than its δ = {DELTA:g}\" polygons explain)")
            rows.append((n, kind, q, p_q, over))
    lines = [
        "## Shortest paths, warm queries on big tables vs extremitypathfinder prepared (board/paths.py)",
        "",
        "The crowding of the section above (8 ruins and 12 bases per 36\" × 24\", ρ = 0.5\") on tables grown with",
        f"the number of obstacles, seeded (benchmarks/bench_paths_warm.py); {n_pairs} start/goal pairs across the table",
        f"(≥ 10\" apart) and {n_pairs} moves ({MOVE[0]:g}\"–{MOVE[1]:g}\" long), every one needing a search (its straight",
        "line blocked); the same boards and pairs for both. tapeline: the space built and prepared once",
        "(`Reach.prepare`: the circle-to-circle tangents and their graph, kept in `Space.memo`), then",
        "`Reach(space, a).to_point(b)` (the start's and goal's tangents joined to the kept graph, A* with the",
        f"straight-line bound). extremitypathfinder: polygons containing the obstacles within δ = {DELTA:g}\", merged,",
        "`store` + `prepare` once (not counted), then `find_shortest_path`. CPU time per query, each pair asked once",
        "(asked again, tapeline would find the arc verdicts its first asking kept: a judge dragging a model asks",
        "new ones), the two side by side on each board.",
        "",
        "| obstacles | table | tapeline build + prepare | peer polygon vertices | peer store + prepare (not counted) |",
        "|---:|---|---:|---:|---:|",
    ]
    for n, W, H, build, peer in builds:
        lines.append(f"| {n} | {W:g}\" × {H:g}\" | {build * 1e3:.0f} ms | "
                     + ("— | — |" if peer is None else f"{peer[0]:,} | {peer[1]:.1f} s |"))
    lines += ["", "| obstacles | queries | tapeline per query | peer per query | tapeline / peer (time) "
              "| peer / tapeline (speed) | peer length − tapeline's (max / min) |", "|---:|---|---:|---:|---:|---:|---|"]
    for n, kind, q, p_q, over in rows:
        if p_q is None:
            peer_cells = "— | — | — | — |" if have_peer else "not installed here (the `bench` extra) | — | — | — |"
        else:
            peer_cells = f"{p_q * 1e3:.1f} ms | {q / p_q:.3f}× | **{p_q / q:.1f}×** | {over.max():+.1e}\" / {over.min():+.1e}\" |"
        lines.append(f"| {n} | {KINDS[kind]} | {q * 1e3:.2f} ms | {peer_cells}")
    lines.append("")
    for kind in KINDS:
        grow = [(n, q) for n, k_, q, _, _ in rows if k_ == kind and n in sizes]
        k = fit([n for n, _ in grow], [q for _, q in grow])
        lines.append(f"Growth, {KINDS[kind]}: tapeline's warm query ∝ N^{k:.2f} (least squares over"
                     f" {', '.join(str(n) for n, _ in grow)} obstacles; target ≤ N^{TARGET_GROWTH:g}:"
                     f" {'met' if k <= TARGET_GROWTH else 'not met'}).")
    measured = [(n, KINDS[k_], p_q / q) for n, k_, q, p_q, _ in rows if p_q is not None]
    if measured:
        ok = all(r >= TARGET_SPEED for _, _, r in measured)
        lines.append("Speed against the prepared peer (its time over tapeline's): "
                     + "; ".join(f"**{r:.1f}×** at {n}, {kind}" for n, kind, r in measured)
                     + f" (target ≥ {TARGET_SPEED:g}× at {' and '.join(str(n) for n in peer_sizes)} obstacles:"
                     f" {'met' if ok else 'not met'}).")
    else:
        lines.append("Speed against the prepared peer: not measured (extremitypathfinder is not installed here;"
                     f" target ≥ {TARGET_SPEED:g}×).")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(run())
