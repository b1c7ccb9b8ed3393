"""Scale: how the visibility matrix, `check` and `replay` grow with models and pieces.

Tables from :func:`benchmarks.boards.board` (seeded). Where the number of models grows, the
table grows with it (its area in proportion, from 54" × 36" for 40 models) so the crowding stays
that of a game; the terrain stays 15 pieces for the visibility matrix and grows with the area
for `check` and `replay` (15 pieces per 54" × 36").

* **Visibility matrix**: :func:`rules.starcraft.visibility.sight_matrix` of one side against the
  other (rule decisions included, footprints prepared afresh), CPU time, best of 2 (1 for the
  largest): by models (n × n) with 15 pieces, and by pieces with 20 × 20 models on 54" × 36".
* **check**: ``tapeline check FILE`` as a user runs it (a new process: start-up, YAML, schema,
  file checks), wall time, best of 3; and the in-process load (:func:`scenarios.load.read`: the
  same work without the start-up), CPU time.
* **replay**: the showcase (60 models, its own actions and expectations) with ``tapeline
  replay``, and random tables where every unit with a ranged weapon shoots the nearest enemy
  unit (actions the rules refuse — out of range, nothing visible — are left out beforehand):
  ``tapeline replay FILE`` wall time, and the in-process :func:`scenarios.replay.run` CPU time.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks import boards
from benchmarks.bench_visibility import exact_matrix, sides
from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft.catalogue import catalogue

ROOT = Path(__file__).resolve().parent.parent
SHOWCASE = ROOT / "scenarios" / "examples" / "showcase.yaml"
BASE_MODELS = 40  # on 54" × 36"


def cpu_best(f, repeat: int):
    fastest, out = math.inf, None
    for _ in range(repeat):
        t = time.process_time()
        out = f()
        fastest = min(fastest, time.process_time() - t)
    return fastest, out


def wall_best(cmd: list, repeat: int = 3) -> float:
    fastest = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        fastest = min(fastest, time.perf_counter() - t)
    return fastest


def scaled(seed: int, models: int, pieces: int | None = None) -> dict:
    """A table for ``models`` models (two equal sides): 54" × 36" scaled by √(models / 40)."""
    s = max(1.0, math.sqrt(models / BASE_MODELS))
    if pieces is None:
        pieces = round(15 * s * s)
    return boards.board(seed, per_side=models // 2, pieces=pieces, W=round(54 * s, 1), H=round(36 * s, 1))


def tapeline_cmd() -> list:
    exe = Path(sys.executable).with_name("tapeline")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "tapeline.scenarios.cli"]


def _weapon(profile: str):
    ws = catalogue()[profile].get("weapons") or {}
    return next((k for k, w in ws.items() if w.get("phase") == "assault" and w.get("range") not in ("E", None)), None)


def with_shots(sc: dict) -> dict:
    """Every unit with a ranged weapon shoots the nearest enemy unit; refused actions dropped."""
    from tapeline.scenarios import replay
    from tapeline.scenarios.load import parse

    centre = {u["id"]: np.mean([m["at"] for m in u["models"]], axis=0) for u in sc["units"]}
    acts = []
    for u in sc["units"]:
        w = _weapon(u["profile"])
        if w is None:
            continue
        foes = [v for v in sc["units"] if v["side"] != u["side"]]
        near = min(foes, key=lambda v: np.hypot(*(centre[v["id"]] - centre[u["id"]])))
        acts.append({"action": "shoot", "unit": u["id"], "batches": [{"weapon": w, "target": near["id"]}]})
    sc = dict(sc, seed=1)
    for _ in range(len(acts) + 1):
        sc["actions"] = acts
        try:
            replay.run(parse(boards.text(sc)))
            return sc
        except IllegalAction as e:
            acts = acts[:e.index] + acts[e.index + 1:]
    raise RuntimeError("no legal set of shots found")


def _vis_row(sc: dict, repeat: int):
    st = boards.state(sc)
    fa, fb = sides(st)
    t, m = cpu_best(lambda: exact_matrix(st, fa, fb), repeat)
    return len(fa), len(fb), len(st.table.pieces), sc["board"], t, int(m.sum())


def run() -> str:
    from tapeline.scenarios import replay
    from tapeline.scenarios.load import read

    lines = ["## Scale: visibility matrix, `check` and `replay`", "",
             "Seeded random tables (benchmarks/boards.py, benchmarks/bench_scale.py); where the models grow the"
             " table grows with them (54\" × 36\" per 40 models) so the crowding stays that of a game.", "",
             "Visibility matrix (`sight_matrix`, one side × the other, StarCraft rule decisions included), CPU time:", "",
             "| models | pieces | table | pairs | visible | time | per pair |", "|---|---:|---|---:|---:|---:|---:|"]
    vis = [_vis_row(scaled(100 + n, 2 * n, 15), 1 if n >= 200 else 2) for n in (25, 50, 100, 200)]
    vis += [_vis_row(boards.board(200 + p, per_side=20, pieces=p), 2) for p in (5, 15, 30, 45)]
    for na, nb, p, b, t, v in vis:
        lines.append(f"| {na} × {nb} | {p} | {b['width']:g}\" × {b['height']:g}\" | {na * nb:,} | {v:,} "
                     f"| {t * 1e3:.0f} ms | {t / (na * nb) * 1e6:.1f} µs |")
    lines += ["", "`check` (a new process, wall time, best of 3) and the in-process load it does (CPU time):", "",
              "| models | pieces | table | `tapeline check` | load in process |", "|---:|---:|---|---:|---:|"]
    cmd = tapeline_cmd()
    with tempfile.TemporaryDirectory() as tmp:
        for n in (60, 125, 250, 500):
            sc = scaled(300 + n, n)
            f = os.path.join(tmp, f"check-{n}.yaml")
            Path(f).write_text(boards.text(sc), encoding="utf-8")
            t_cli = wall_best(cmd + ["check", f])
            t_load, ld = cpu_best(lambda: read(f), 3)
            lines.append(f"| {len(ld.state.figures)} | {len(ld.state.table.pieces)} | {sc['board']['width']:g}\" × "
                         f"{sc['board']['height']:g}\" | {t_cli:.2f} s | {t_load * 1e3:.0f} ms |")
        lines += ["", "`replay` (a new process, wall time, best of 3) and the in-process replay after loading"
                  " (CPU time, best of 3):", "",
                  "| table | models | actions | expectations | `tapeline replay` | replay in process |",
                  "|---|---:|---:|---:|---:|---:|"]
        cases = [("showcase", str(SHOWCASE))]
        for n in (60, 120, 240):
            sc = with_shots(scaled(400 + n, n))
            f = os.path.join(tmp, f"replay-{n}.yaml")
            Path(f).write_text(boards.text(sc), encoding="utf-8")
            cases.append((f"random, {sc['board']['width']:g}\" × {sc['board']['height']:g}\", "
                          f"{len(sc['terrain'])} pieces", f))
        for name, f in cases:
            ld = read(f)
            t_cli = wall_best(cmd + ["replay", f])
            t_run, _ = cpu_best(lambda: replay.run(ld), 3)
            lines.append(f"| {name} | {len(ld.state.figures)} | {len(ld.spec.actions)} | {len(ld.spec.expect)} "
                         f"| {t_cli:.2f} s | {t_run * 1e3:.0f} ms |")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(run())
