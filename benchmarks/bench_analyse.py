"""Table analysis: the showcase's exposure map against the naive loop of one ``los`` per pair,
its growth as the step halves, and a batch on 1 and 2 local worker processes.

* **exposure map**: the showcase (54" × 36", 12 pieces, the StarCraft rules) at a 1" step — the
  probe on every position it can stand on, against every position of both deployment zones,
  each pair of zone positions once (:meth:`scenarios.analysis._Probes.sight`, the batched
  search of :meth:`RuleSystem.sight_pairs`); CPU time, best of the rounds. Timed, with the
  naive loop and the growth, in the user's install (:mod:`benchmarks.install`: numpy 2, as
  ``pip install tapeline`` gets it), and once more here (the benchmarks' environment, where
  extremitypathfinder pins numpy below 2: about 1.7× slower on this map);
* **naive loop**: the same rules asked one pair at a time (``rules.visible``, what ``tapeline
  los`` does), timed on a seeded sample of the pairs and scaled to all of them; the sample's
  verdicts must equal the map's;
* **growth**: the exposure map's CPU time at steps 4", 2", 1" (the pairs grow about 16× per
  halving: positions and zone positions 4× each);
* **batch**: ``tapeline analyse`` of four layouts (the three bundled tables and a mirrored
  showcase) with ``--workers 1`` and ``--workers 2`` (wall time: the point is the second
  process); the objects must be the same.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import tapeline
from benchmarks import agree, install
from benchmarks.timing import best
from tapeline.scenarios import analysis, batch

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "scenarios" / "examples"
SHOWCASE = EXAMPLES / "showcase.yaml"
GOAL_SECONDS, GOAL_RATIO = 10.0, 20.0


def _probes(step: float) -> tuple[analysis._Probes, np.ndarray, tapeline.Game]:
    game = tapeline.open(SHOWCASE)
    P = analysis._Probes(game.state, game.rules, game.rules.probe_defaults, analysis.Grid(54, 36, step))
    zones = [P.in_zones([z for z in game.zones if z.side == s]) for s in ("terran", "zerg")]
    return P, np.union1d(*zones), game


def _pairs(n: int, m: int) -> int:
    """Pairs the map searches: every other position against the zone positions, and each pair
    of zone positions once."""
    return (n - m) * m + m * (m - 1) // 2


def _naive(P: analysis._Probes, cols: np.ndarray, sees: np.ndarray, game: tapeline.Game, sample: int) -> float:
    """Seconds per pair of one ``visible`` call, on ``sample`` seeded pairs (checked against the map)."""
    rng = random.Random(7)
    picks = [(rng.randrange(len(P.figures)), rng.randrange(len(cols))) for _ in range(sample)]
    picks = [(i, j) for i, j in picks if i != cols[j]]
    ids = [f.id for f in P.figures]
    t = time.process_time()
    verdicts = [game.rules.visible(P.state, ids[i], ids[int(cols[j])]).visible for i, j in picks]
    per = (time.process_time() - t) / len(picks)
    wrong = sum(1 for (i, j), v in zip(picks, verdicts) if v != bool(sees[i, j]))
    agree(wrong == 0, f"analyse: {wrong} of {len(picks)} sampled pairs differ from one los per pair")
    return per


def _batch_files(folder: Path) -> list[str]:
    files = [str(EXAMPLES / n) for n in ("showcase.yaml", "table-heresy.yaml", "table-40k.yaml")]
    mirrored = folder / "showcase-mirrored.yaml"  # the zones' sides swapped
    text = SHOWCASE.read_text().replace("side: terran, footprint: {rect: [0, 0,", "side: zerg, footprint: {rect: [0, 0,").replace(
        "side: zerg, footprint: {rect: [0, 28,", "side: terran, footprint: {rect: [0, 28,")
    mirrored.write_text(text)
    return files + [str(mirrored)]


def _batch(step: float) -> tuple[float, float]:
    """Wall seconds of the batch with 1 and 2 worker processes (the objects compared)."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-analyse-"))
    try:
        files = _batch_files(tmp)
        out = {}
        times = {}
        for n in (1, 2):
            t = time.perf_counter()
            batch.run(files, str(tmp / f"w{n}"), batch.Options(step=step), workers=n)
            times[n] = time.perf_counter() - t
            out[n] = {p.name: p.read_text() for p in sorted((tmp / f"w{n}").glob("*.json"))}
        agree(out[1] == out[2], "analyse batch: 1 and 2 workers wrote different objects")
        return times[1], times[2]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def measure(step: float, repeat: int, sample: int, steps: list[float]) -> dict:
    """The timings of the section in this process: the exposure map (best of ``repeat``), the
    naive loop on ``sample`` pairs (checked against the map), the whole analysis, and the map at
    each of ``steps`` (one run each)."""
    P, cols, game = _probes(step)
    t_map, sees = best(lambda: P.sight(cols), repeat, clock=time.process_time)
    per = _naive(P, cols, sees, game, sample)
    t_all, _ = best(lambda: game.analyse(step=step), 1, clock=time.process_time)
    growth = []
    for s in steps:
        Q, c, _ = _probes(s)
        t, _ = best(lambda: Q.sight(c), 1, clock=time.process_time)
        growth.append((s, len(Q.figures), len(c), _pairs(len(Q.figures), len(c)), t))
    return {"positions": len(P.figures), "zone_positions": len(cols), "t_map": t_map, "per": per, "t_all": t_all,
            "growth": growth, "numpy": np.__version__}


def _measured_by(inst: install.Install, args: dict) -> dict:
    """:func:`measure` run by the interpreter of ``inst`` (the user's install of tapeline, with
    its own numpy), this folder on its path for the benchmark's own modules."""
    r = subprocess.run([inst.python, "-m", "benchmarks.bench_analyse", json.dumps(args)], capture_output=True, text=True,
                       env=install.user_env({"PYTHONPATH": str(ROOT)}), cwd=ROOT, timeout=3600)
    if r.returncode:
        raise RuntimeError(f"the analysis timing failed in {inst.python} (exit {r.returncode}):\n{r.stderr[-3000:]}")
    out: dict = json.loads(r.stdout.strip().splitlines()[-1])
    return out


def run(quick: bool = False) -> str:
    step = 4.0 if quick else 1.0
    repeat = 1 if quick else 2
    sample = 20 if quick else 400
    inst = install.install(quick)
    m = _measured_by(inst, {"step": step, "repeat": repeat, "sample": sample, "steps": [8.0, 4.0] if quick else [4.0, 2.0, 1.0]})
    n, mz, t_map, per, t_all = m["positions"], m["zone_positions"], m["t_map"], m["per"], m["t_all"]
    growth = [tuple(g) for g in m["growth"]]
    pairs = _pairs(n, mz)
    naive = per * pairs
    here = None
    if not quick:  # the map once more in this environment, for the record
        P, cols, _ = _probes(step)
        here = best(lambda: P.sight(cols), 1, clock=time.process_time)[0]
    w1, w2 = _batch(6.0 if quick else 2.0)
    ratio = naive / t_map
    met = t_map <= GOAL_SECONDS and ratio >= GOAL_RATIO
    lines = [
        "## Table analysis: the exposure map against one `los` per pair",
        "",
        f"The showcase (54\" × 36\", 12 pieces, StarCraft rules) at a {step:g}\" step: the 32 mm Size 2 probe on "
        f"{n:,} positions against the {mz:,} positions of both deployment zones, "
        f"{pairs:,} pairs (each pair of zone positions once); CPU time, best of {repeat}; "
        f"timed in {inst.how}, with numpy {m['numpy']} (what a user's `tapeline analyse` runs with).",
        "",
        "| | time | per pair |",
        "|---|---:|---:|",
        f"| exposure map (batched `sight_pairs`) | {t_map:.2f} s | {1e6 * t_map / pairs:.1f} µs |",
        f"| naive loop, one `los` per pair (from {sample} sampled pairs) | {naive:.0f} s | {1e6 * per:.0f} µs |",
        f"| the whole analysis (both exposure maps, lanes, both reach maps) | {t_all:.2f} s | |",
        "",
        f"Speed-up over the naive loop: **{ratio:.0f}×**; goal ≤ {GOAL_SECONDS:g} s and ≥ {GOAL_RATIO:g}× — "
        + ("**met**." if met else "**not met**."),
        "The sampled pairs' verdicts equal the map's."
        + (f" The same map in the benchmarks' own environment (numpy {np.__version__}, which extremitypathfinder "
           f"pins below 2): {here:.2f} s." if here is not None else ""),
        "",
        "Growth as the step halves (exposure map only, CPU time, one run):",
        "",
        "| step | positions | zone positions | pairs | time |",
        "|---:|---:|---:|---:|---:|",
    ]
    lines += [f"| {s:g}\" | {n:,} | {m:,} | {p:,} | {t:.2f} s |" for s, n, m, p, t in growth]
    if len(growth) > 1:
        (_, _, _, p0, t0), (_, _, _, p1, t1) = growth[0], growth[-1]
        lines += ["", f"Time ∝ pairs^{np.log(t1 / t0) / np.log(p1 / p0):.2f} over these steps (1: linear in the pairs)."]
    lines += [
        "",
        f"Batch of 4 layouts (the three bundled tables and a mirrored showcase) at a {6.0 if quick else 2.0:g}\" step, "
        "local worker processes, wall time:",
        "",
        "| workers | time | speed-up |",
        "|---:|---:|---:|",
        f"| 1 | {w1:.2f} s | 1.00× |",
        f"| 2 | {w2:.2f} s | {w1 / w2:.2f}× |",
        "",
        "The two runs wrote the same objects, byte for byte.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":  # the timings as one line of JSON (run by :func:`_measured_by`)
    print(json.dumps(measure(**json.loads(sys.argv[1]))))
