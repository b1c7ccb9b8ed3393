"""A session: warm questions on one loaded game, and one ``tapeline shell`` against one-shot commands.

Budgets (docs/performance.md):

* **warm**, from Python or in a session (one :class:`tapeline.Game` on
  ``scenarios/examples/showcase.yaml``, loaded once; medians over repeats): ``measure`` and ``los``
  answer in at most 5 ms, ``template`` in 10 ms, a ``charge`` in 50 ms, and ``push`` of a move in
  20 ms (each push timed alone, its ``pop`` between repeats). Each question is timed twice: as the
  :class:`~tapeline.Game` method a Python caller uses, and as a line of a session
  (:func:`tapeline.scenarios.shell.session`, what ``tapeline shell`` runs: the line parsed, answered
  under the time limit and printed; the time from one answer's flush to the next). CPU time of
  the answering thread (what the question costs, whatever else the shared machine runs; the
  process's CPU clock counts only in scheduler ticks while the time limit's timer is armed)
  judges the budget; the wall time is shown beside it.
* **a session against one-shot commands**: twenty mixed lines (:data:`MIXED`: questions of every
  kind and a move taken back) answered by one ``tapeline shell SHOW --json`` process take less
  wall time than three one-shot commands (its first three questions, each ``tapeline COMMAND SHOW
  ... --json`` in a process of its own, one after the other). Interleaved rounds, medians; tapeline
  as a user installs it (:mod:`benchmarks.install`).

Checks: every session line is answered (none refused) with the answer the ``Game`` method gives;
the shell's answers to the first three lines are the one-shot commands' answers.
"""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tapeline
from benchmarks import agree
from benchmarks.install import install, user_env
from tapeline.scenarios.shell import session

ROOT = Path(__file__).resolve().parent.parent
SHOW = "scenarios/examples/showcase.yaml"
#: The move pushed: marines-bravo (unengaged) Run, their Leading Model 2" (the others placed by
#: the rules' default, in coherency), and a foundation ``move`` of one model to a given spot.
RUN = {"action": "run", "unit": "marines-bravo", "leader": "b5", "path": [[18.5, 11]]}
MOVE = {"action": "move", "moves": {"za9": [21.259843, 28]}}


def _flow(action: dict) -> str:
    """An action as a session's ``push`` line takes it (YAML flow)."""
    return json.dumps(action)


#: (label, the Game call, the session line, budget in seconds; None: shown, no budget).
WARM: list[tuple[str, Callable[[Any], Any], str, float]] = [
    ("`measure c2 zb1`", lambda g: g.measure("c2", "zb1"), "measure c2 zb1", 0.005),
    ("`measure a6 za5`", lambda g: g.measure("a6", "za5"), "measure a6 za5", 0.005),
    ("`los c2 zb1` (blocked: every critical segment tried)", lambda g: g.los("c2", "zb1"), "los c2 zb1", 0.005),
    ("`los a6 za5`", lambda g: g.los("a6", "za5"), "los a6 za5", 0.005),
    ("`template --shape blast --at 24,25`", lambda g: g.template("blast", (24, 25)),
     "template --shape blast --at 24,25", 0.010),
    ("`charge --unit roaches --target marines-bravo`", lambda g: g.charge("roaches", "marines-bravo"),
     "charge --unit roaches --target marines-bravo", 0.050),
    ("`charge --unit roaches --target marauders` (the full-table charge)", lambda g: g.charge("roaches", "marauders"),
     "charge --unit roaches --target marauders", 0.050),
]
#: (label, the action, budget): each pushed, timed, then popped.
PUSHES = [
    ("`push` a `run` (marines-bravo: the Leading Model's path checked, the others placed)", RUN, 0.020),
    ("`push` a `move` (one model set at a given spot)", MOVE, 0.020),
]
#: Twenty mixed lines of one session; the first three are also run as one-shot commands.
MIXED = [
    "measure c2 zb1",
    "los c2 zb1",
    "charge --unit roaches --target marines-bravo",
    "measure a6 za5",
    "los a6 za5",
    "template --shape blast --at 24,25",
    "attack --unit marines-alpha --weapon c-14-rifle --target zerglings-a",
    "path mr4 --via 20,16 --via 22,12",
    "fight --unit zerglings-a",
    "models",
    "push " + _flow(RUN),
    "measure b5 r2",
    "los b5 r2",
    "charge --unit roaches --target marines-bravo",
    "pop",
    "fight --unit zerglings-a --after 0",
    "template --shape blast --at 30,18",
    "los h1 q1",
    "charge --unit marauders --target zerglings-b",
    "attack --unit marines-charlie --weapon c-14-rifle --target zerglings-b",
]
ONE_SHOTS = 3


class _Stamps(io.StringIO):
    """A session's output that notes the clocks at every flush (each answer ends with one)."""

    def __init__(self) -> None:
        super().__init__()
        self.stamps: list[tuple[float, float]] = []

    def flush(self) -> None:
        self.stamps.append((time.perf_counter(), time.thread_time()))


def _median(xs: list[float]) -> float:
    return statistics.median(xs)


def python_times(f: Callable[[], Any], repeats: int) -> tuple[float, float, Any]:
    """Median wall and CPU seconds of ``f()`` over ``repeats`` (after one warm-up); its answer."""
    out = f()
    wall, cpu = [], []
    for _ in range(repeats):
        t, c = time.perf_counter(), time.thread_time()
        f()
        cpu.append(time.thread_time() - c)
        wall.append(time.perf_counter() - t)
    return _median(wall), _median(cpu), out


def session_times(game: Any, lines: list[str], timed: list[int]) -> tuple[float, float, str]:
    """Median wall and CPU seconds of the answers to the lines at the indices ``timed`` (each the
    time from the previous answer's flush to its own) in one session, and its whole output."""
    out, err = _Stamps(), io.StringIO()
    status = session(game, lines, out, err)
    agree(status == 0 and not err.getvalue(), f"session: refused {err.getvalue().strip()[:300]}")
    stamps = out.stamps
    agree(len(stamps) == len(lines), f"session: {len(stamps)} answers to {len(lines)} lines")
    wall = [stamps[i][0] - stamps[i - 1][0] for i in timed]
    cpu = [stamps[i][1] - stamps[i - 1][1] for i in timed]
    return _median(wall), _median(cpu), out.getvalue()


def warm_rows(repeats: int) -> list[tuple[str, float, float, float, float, float]]:
    """(label, Python wall, Python CPU, session wall, session CPU, budget) per question and push."""
    game = tapeline.open(ROOT / SHOW)
    rows = []
    for label, call, line, budget in WARM:
        pw, pc, answer = python_times(lambda: call(game), repeats)
        sw, sc, said = session_times(game, [line] * (repeats + 1), list(range(1, repeats + 1)))
        agree(said == f"{answer}\n" * (repeats + 1), f"session: {line!r} answered otherwise than the Game method")
        rows.append((label, pw, pc, sw, sc, budget))
    for label, action, budget in PUSHES:
        def push_pop() -> Any:
            events = game.push(action)
            game.pop()
            return events

        push_pop()
        wall, cpu = [], []
        for _ in range(repeats):
            t, c = time.perf_counter(), time.thread_time()
            game.push(action)
            cpu.append(time.thread_time() - c)
            wall.append(time.perf_counter() - t)
            game.pop()
        lines = [f"push {_flow(action)}", "pop"] * (repeats + 1)
        sw, sc, _ = session_times(game, lines, list(range(2, len(lines), 2)))
        agree(not game.moves, "session: a pushed move was not taken back")
        rows.append((label, _median(wall), _median(cpu), sw, sc, budget))
    return rows


def _run(argv: list[str], stdin: str = "") -> tuple[float, str]:
    t = time.perf_counter()
    r = subprocess.run(argv, cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=300, env=user_env())
    wall = time.perf_counter() - t
    agree(r.returncode == 0, f"{' '.join(argv[-4:])}: exit {r.returncode}: {r.stderr[-300:]}")
    return wall, r.stdout


def processes(rounds: int, quick: bool) -> tuple[float, float, str]:
    """Median wall seconds of one ``tapeline shell`` answering :data:`MIXED` and of the
    :data:`ONE_SHOTS` one-shot commands, run one after the other; how tapeline was installed."""
    inst = install(quick)
    shell = inst.tapeline + ["shell", SHOW, "--json"]
    singles = [inst.tapeline + [line.split()[0], SHOW, *line.split()[1:], "--json"] for line in MIXED[:ONE_SHOTS]]
    stdin = "\n".join(MIXED) + "\n"
    t_shell, t_singles = [], []
    for _ in range(rounds):
        w, out = _run(shell, stdin)
        t_shell.append(w)
        answers = [json.loads(x) for x in out.splitlines()]
        agree(len(answers) == len(MIXED) and not any("error" in a for a in answers),
              f"tapeline shell: {len(answers)} answers to {len(MIXED)} lines, errors: "
              f"{[a for a in answers if 'error' in a][:1]}")
        total = 0.0
        for i, argv in enumerate(singles):
            w, out = _run(argv)
            total += w
            agree(json.loads(out) == answers[i], f"{MIXED[i]!r}: the one-shot command and the shell answer differently")
        t_singles.append(total)
    return _median(t_shell), _median(t_singles), inst.how


def _ms(s: float) -> str:
    return f"{1e3 * s:.2f} ms" if s < 0.001 else f"{1e3 * s:.1f} ms" if s < 0.1 else f"{1e3 * s:.0f} ms"


def run(quick: bool = False) -> str:
    """The section; ``quick``: 3 repeats of each warm question and one round of processes
    (the answers are checked either way)."""
    repeats = 3 if quick else 30
    rounds = 1 if quick else 7
    rows = warm_rows(repeats)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    t_shell, t_singles, how = processes(rounds, quick)
    lines = [
        "## A session: warm questions and `tapeline shell` (benchmarks/bench_session.py)",
        "",
        "Warm: one `tapeline.Game` on `scenarios/examples/showcase.yaml`, loaded once; each question asked",
        f"once to warm up, then {repeats} times: medians. \"Python\" is the `Game` method; \"session\" the same",
        "question as a line of `tapeline shell` (`tapeline.scenarios.shell.session`: the line parsed, answered",
        "under the time limit and printed), from one answer to the next. A `push` is timed alone, with its",
        "`pop` between repeats. The budget is judged on CPU time (the answering thread's: what the question",
        "costs, whatever else the shared machine runs), the larger of the two; wall time beside it.",
        "",
        "| question | Python: CPU | wall | session: CPU | wall | budget |",
        "|---|---:|---:|---:|---:|---|",
    ]
    missed = []
    for label, pw, pc, sw, sc, budget in rows:
        met = max(pc, sc) <= budget
        if not met:
            missed.append((label, max(pc, sc), budget))
        lines.append(f"| {label} | {_ms(pc)} | {_ms(pw)} | {_ms(sc)} | {_ms(sw)} | ≤ {1e3 * budget:g} ms: "
                     f"{'met' if met else '**missed**'} |")
    lines += [""]
    if missed:
        lines.append("Missed: " + "; ".join(f"{label} takes {1e3 * t:.0f} ms of CPU against {1e3 * b:g} ms"
                                             for label, t, b in missed) + ".")
    else:
        lines.append("Every warm budget is met.")
    ratio = t_shell / t_singles
    lines += [
        "",
        f"A session against one-shot commands: one `tapeline shell SHOW --json` answering {len(MIXED)} mixed lines",
        f"(`measure`, `los`, `charge`, `template`, `attack`, `path`, `fight`, `models`, a `push` and its `pop`)",
        f"against the first {ONE_SHOTS} of them as one-shot commands (`tapeline measure SHOW c2 zb1 --json`, `los`,",
        f"`charge`), one process each, one after the other; the shell's answers to those lines are the commands'.",
        f"Wall time, medians of {rounds} interleaved round(s); tapeline installed as {how}; load average",
        f"{load} (1, 5, 15 min).",
        "",
        "| | wall |",
        "|---|---:|",
        f"| one `tapeline shell`, {len(MIXED)} lines | {_ms(t_shell)} |",
        f"| {ONE_SHOTS} one-shot commands | {_ms(t_singles)} |",
        "",
        f"Ratio shell / {ONE_SHOTS} one-shot commands: **{ratio:.2f}** (budget < 1: "
        f"{'met' if ratio < 1 else '**missed**'}).",
    ]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(run())
