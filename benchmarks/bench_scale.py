"""Scale: how the visibility matrix, `check` and `replay` grow with models and pieces.

Tables from :func:`benchmarks.boards.board` (seeded). Where the number of models grows, the
table grows with it (its area in proportion, from 54" × 36" for 40 models) so the crowding stays
that of a game; the terrain stays 15 pieces for the visibility matrix and grows with the area
for `check` and `replay` (15 pieces per 54" × 36").

* **Visibility matrix**: :func:`rules.starcraft.visibility.sight_matrix` of one side against the
  other (rule decisions included, footprints prepared afresh), CPU time, best of 2 (1 for the
  largest): by models (n × n) with 15 pieces, and by pieces with 20 × 20 models on 54" × 36".
* **check**: the in-process load (``tapeline.open``: YAML, schema, file checks), CPU time, and
  the part of it spent in the check that no two bases overlap (the loader's ``_check_overlaps``);
  ``tapeline check FILE`` as a user runs it (a new process: start-up and the same load;
  :mod:`benchmarks.install`), wall time, for the smallest and the largest table. One run each.
* **replay**: the showcase (60 models, its own actions and expectations) with ``tapeline
  replay``, and random tables where every unit with a ranged weapon shoots the nearest enemy
  unit (the shots the rules refuse — out of range, nothing visible, the target gone — are left
  out beforehand: each pushed in turn on one ``Game``, a refused one dropped): ``tapeline replay
  FILE`` wall time (one run), and the in-process ``Game.replay()`` CPU time (best of 3).

The quick profile runs the smallest sizes; every ``tapeline`` command must succeed and every
replay's expectations hold.
"""

from __future__ import annotations

import math
import os
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import tapeline
from benchmarks import agree, boards
from benchmarks.boards import scaled
from benchmarks.bench_visibility import exact_matrix, sides
from benchmarks.install import install, user_env
from benchmarks.timing import best
from tapeline.rules.systems import UnitEntry, rules_for

ROOT = Path(__file__).resolve().parent.parent
SHOWCASE = ROOT / "scenarios" / "examples" / "showcase.yaml"
VIS_MODELS = (25, 50, 100, 200)  # per side
VIS_PIECES = (5, 15, 30, 45)
CHECK_MODELS = (60, 125, 250, 500)
REPLAY_MODELS = (60, 120)
#: The quick profile's sizes.
QUICK = {"vis_models": (25, 50), "vis_pieces": (5, 15), "check_models": (60, 125), "replay_models": (60,)}


def wall(cmd: list) -> tuple[float, int, str]:
    """Wall time, exit status and last line of stderr of one run of a command (in a user's
    environment)."""
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=user_env())
    err = r.stderr.strip().splitlines()
    return time.perf_counter() - t, r.returncode, err[-1] if err else ""


def cli_cell(cmd: list, must: bool = False) -> str:
    """``tapeline …`` wall time as a table cell, or what stopped it (the command line's time
    limit, TAPELINE_TIME_LIMIT: the in-process column says how long the whole job takes). With
    ``must`` the command has to succeed."""
    t, rc, err = wall(cmd)
    agree(rc == 0 or not must, f"{' '.join(cmd[-2:])}: exit {rc}: {err}")
    if rc == 0:
        return f"{t:.2f} s"
    if "gave up" in err:
        return f"gives up after {t:.0f} s (time limit)"
    return f"exit {rc}: {err}"


def load_profiled(f: str):
    """CPU time of loading ``f`` (``tapeline.open``), of the overlap check it makes (NaN where the
    loader has none of that name), and the game."""
    from unittest import mock

    from tapeline.scenarios import load

    spent = [0.0]
    real = getattr(load, "_check_overlaps", None)

    def timed(*a, **k):
        t = time.process_time()
        try:
            return real(*a, **k)
        finally:
            spent[0] += time.process_time() - t

    if real is None:
        t = time.process_time()
        game = tapeline.open(f)
        return time.process_time() - t, math.nan, game
    with mock.patch.object(load, "_check_overlaps", timed):
        t = time.process_time()
        game = tapeline.open(f)
        return time.process_time() - t, spent[0], game


def _weapon(profile: str):
    """A unit's ranged weapon of the Assault phase (the StarCraft rules' unit data), if any."""
    info = rules_for("starcraft").unit_info(UnitEntry(id="u", profile=profile))
    ws = info.stats.get("weapons") or {}
    return next((k for k, w in ws.items() if w.get("phase") == "assault" and w.get("range") not in ("E", None)), None)


def with_shots(sc: dict) -> dict:
    """Every unit with a ranged weapon shoots the nearest enemy unit; the shots the rules refuse
    are dropped (each pushed in turn on one game: a refused move leaves it unchanged, so the shots
    kept replay as they were pushed)."""
    centre = {u["id"]: np.mean([m["at"] for m in u["models"]], axis=0) for u in sc["units"]}
    acts = []
    for u in sc["units"]:
        w = _weapon(u["profile"])
        if w is None:
            continue
        foes = [v for v in sc["units"] if v["side"] != u["side"]]
        near = min(foes, key=lambda v: np.hypot(*(centre[v["id"]] - centre[u["id"]])))
        acts.append({"action": "shoot", "unit": u["id"], "batches": [{"weapon": w, "target": near["id"]}]})
    sc = dict(sc, dice={"seed": 1})
    game = tapeline.parse_text(boards.text(sc), f"<{sc['name']}>")
    keep = []
    for act in acts:
        try:
            game.push(act)
        except tapeline.IllegalAction:
            continue
        keep.append(act)
    return dict(sc, actions=keep)


def _vis_row(sc: dict, repeat: int):
    st = boards.state(sc, overlap_check=False)
    fa, fb = sides(st)
    t, m = best(lambda: exact_matrix(st, fa, fb), repeat, time.process_time)
    return len(fa), len(fb), len(st.table.pieces), sc["board"], t, int(m.sum())


def _slope(x0, y0, x1, y1) -> float:
    """The exponent k of y ∝ x^k between two measurements."""
    return math.log(y1 / y0) / math.log(x1 / x0)


def visibility_section(vis_models=VIS_MODELS, vis_pieces=VIS_PIECES) -> list[str]:
    lines = ["Visibility matrix (`sight_matrix`, one side × the other, StarCraft rule decisions included;"
             " CPU time, best of 2" + (", one run at 200 × 200" if 200 in vis_models else "") + "):", "",
             "| models | pieces | table | pairs | visible | time | per pair |", "|---|---:|---|---:|---:|---:|---:|"]
    by_models = [_vis_row(scaled(100 + n, 2 * n, 15), 1 if n >= 200 else 2) for n in vis_models]
    by_pieces = [_vis_row(boards.board(200 + p, per_side=20, pieces=p), 2) for p in vis_pieces]
    for na, nb, p, b, t, v in by_models + by_pieces:
        lines.append(f"| {na} × {nb} | {p} | {b['width']:g}\" × {b['height']:g}\" | {na * nb:,} | {v:,} "
                     f"| {t * 1e3:.0f} ms | {t / (na * nb) * 1e6:.1f} µs |")
    m0, m1 = by_models[0], by_models[-1]
    p0, p1 = by_pieces[0], by_pieces[-1]
    lines += ["", f"Growth: time ∝ pairs^{_slope(m0[0] * m0[1], m0[4], m1[0] * m1[1], m1[4]):.2f} from"
              f" {m0[0]} × {m0[1]} to {m1[0]} × {m1[1]} (1 would be linear in the pairs), and ∝"
              f" pieces^{_slope(p0[2], p0[4], p1[2], p1[4]):.2f} from {p0[2]} to {p1[2]} pieces."]
    return lines


def check_section(cmd: list, tmp: str, check_models=CHECK_MODELS, must: bool = False) -> list[str]:
    tapeline.open(SHOWCASE)  # warm: first-use imports and schema building are not the table's cost
    rows = []
    for n in check_models:
        sc = scaled(300 + n, n)
        f = os.path.join(tmp, f"check-{n}.yaml")
        Path(f).write_text(boards.text(sc), encoding="utf-8")
        t_load, t_gaps, game = load_profiled(f)
        t_cli = cli_cell(cmd + ["check", f], must) if n in (check_models[0], check_models[-1]) else "—"
        st = game.state
        ovals = sum(not g.is_round for g in st.figures.values())
        rows.append((len(st.figures), ovals, len(st.table.pieces), sc["board"], t_load, t_gaps, t_cli))
    gaps = not all(math.isnan(r[5]) for r in rows)  # the loader's overlap check, by its name
    lines = ["`check`: the in-process load it does (YAML, schema, file checks; CPU time, one run)"
             + (", of which the check that no two bases overlap (the loader's `_check_overlaps`)" if gaps else "")
             + ", and `tapeline check` as a user runs it (a new process, wall time, one run, smallest and largest"
             " table):", "",
             "| models | ovals | pieces | table | load in process |" + (" of which base overlaps |" if gaps else "")
             + " `tapeline check` |",
             "|---:|---:|---:|---|---:|" + ("---:|" if gaps else "") + "---:|"]
    for m, ovals, pieces, b, t_load, t_gaps, t_cli in rows:
        lines.append(f"| {m} | {ovals} | {pieces} | {b['width']:g}\" × {b['height']:g}\" | {t_load * 1e3:.0f} ms |"
                     + (f" {t_gaps * 1e3:.1f} ms |" if gaps else "") + f" {t_cli} |")
    (n0, *_, t0, _, _), (n1, *_, t1, _, _) = rows[0], rows[-1]
    lines += ["", f"Growth: the load ∝ models^{_slope(n0, t0, n1, t1):.2f} from {n0} to {n1} models."]
    return lines


def replay_section(cmd: list, tmp: str, replay_models=REPLAY_MODELS, repeat: int = 3, must: bool = False) -> list[str]:
    lines = ["`replay`: `tapeline replay` (a new process, wall time, one run) and the in-process replay after"
             f" loading (`Game.replay()`, CPU time, best of {repeat}). Random tables: every unit with a ranged weapon"
             " shoots the nearest enemy unit (shots the rules refuse left out beforehand):", "",
             "| table | models | actions | expectations | `tapeline replay` | replay in process |",
             "|---|---:|---:|---:|---:|---:|"]
    cases = [("showcase (`scenarios/examples/showcase.yaml`)", str(SHOWCASE))]
    for n in replay_models:
        sc = with_shots(scaled(400 + n, n))
        f = os.path.join(tmp, f"replay-{n}.yaml")
        Path(f).write_text(boards.text(sc), encoding="utf-8")
        cases.append((f"random, {sc['board']['width']:g}\" × {sc['board']['height']:g}\", "
                      f"{len(sc['terrain'])} pieces", f))
    for name, f in cases:
        game = tapeline.open(f)
        t_cli = cli_cell(cmd + ["replay", f], must)
        t_run, rep = best(game.replay, repeat, time.process_time)
        agree(rep.ok, f"{name}: the replay's expectations do not hold")
        lines.append(f"| {name} | {len(game.state.figures)} | {game.actions} | {len(game.spec.expect)} "
                     f"| {t_cli} | {t_run * 1e3:.0f} ms |")
    return lines


def run(quick: bool = False) -> str:
    """The section; ``quick``: the smallest sizes (:data:`QUICK`), every command must succeed."""
    sizes = QUICK if quick else {"vis_models": VIS_MODELS, "vis_pieces": VIS_PIECES, "check_models": CHECK_MODELS,
                                 "replay_models": REPLAY_MODELS}
    inst = install(quick)
    lines = ["## Scale: visibility matrix, `check` and `replay`", "",
             "Seeded random tables (benchmarks/boards.py, benchmarks/bench_scale.py); where the models grow the"
             " table grows with them (54\" × 36\" per 40 models, 15 pieces per 54\" × 36\" for `check` and"
             f" `replay`) so the crowding stays that of a game. The `tapeline` commands: {inst.how}.", ""]
    lines += visibility_section(sizes["vis_models"], sizes["vis_pieces"])
    with tempfile.TemporaryDirectory() as tmp:
        lines += [""] + check_section(inst.tapeline, tmp, sizes["check_models"], must=quick)
        lines += [""] + replay_section(inst.tapeline, tmp, sizes["replay_models"], 1 if quick else 3, must=quick)
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(run())
