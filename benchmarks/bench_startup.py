"""Start-up: each one-shot query command vs importing the libraries it stands on.

Baseline: ``python -c "import numpy, shapely, pydantic, yaml"`` — the least any command that
reads a scenario file must pay. Each command line below (the Makefile's demo, README and docs
command lines on ``scenarios/examples/showcase.yaml``, and ``fight`` on every bundled fight
example) and ``tapeline --help`` run in their own fresh process, interleaved with the baseline
round by round (a busy machine slows them alike), with the same interpreter; the table gives the
median wall time of the rounds, the median CPU time (user + system, the children's rusage: what
the machine spent on it whatever else runs), and both as ratios to the baseline's medians.
Target (docs/performance.md): every query command within 2.5× the baseline. ``tapeline --help``
loads the library like every command; its time is shown, with no target of its own.

tapeline is timed as a user installs it (:mod:`benchmarks.install`: a regular ``pip install .``
into a fresh virtual environment, byte-compiled as pip installs it, no
``PYTHONDONTWRITEBYTECODE``), and the baseline with that environment's interpreter and libraries.
The quick profile runs each command once in the environment it runs in and checks that each
answers (exit status 0).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import time
from pathlib import Path
from typing import Optional

from benchmarks import agree
from benchmarks.install import Install, install, user_env

ROOT = Path(__file__).resolve().parent.parent
SHOW = "scenarios/examples/showcase.yaml"
EX = "scenarios/examples/"
BASELINE_CODE = "import numpy, shapely, pydantic, yaml"
#: The baseline as a ``tapeline`` process runs numpy: with one BLAS thread (scenarios/guards.py,
#: BLAS_THREADS), shown beside the target's baseline so the saving that setting makes is seen.
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1"}
TARGET_RATIO = 2.5

#: (label, arguments of ``tapeline``): ``--help``, every query command on the showcase, and
#: ``fight`` on every bundled fight example.
COMMANDS = [
    ("--help", ["--help"]),
    ("check", ["check", SHOW]),
    ("measure", ["measure", SHOW, "a6", "za5"]),
    ("los", ["los", SHOW, "c2", "zb1"]),
    ("attack", ["attack", SHOW, "--unit", "marines-alpha", "--weapon", "c-14-rifle", "--target", "zerglings-a"]),
    ("charge", ["charge", SHOW, "--unit", "roaches", "--target", "marines-bravo"]),
    ("path", ["path", SHOW, "mr4", "--via", "20,16", "--via", "22,12"]),
    ("template", ["template", SHOW, "--shape", "blast", "--at", "24,25"]),
    ("fight", ["fight", SHOW, "--unit", "zerglings-a", "--after", "0"]),
    ("models", ["models", SHOW]),
    ("fight heresy", ["fight", EX + "assault-heresy.yaml", "--unit", "tac", "--after", "0"]),
    ("fight 40k", ["fight", EX + "assault-40k.yaml", "--unit", "marines", "--after", "0"]),
    ("fight zerglings", ["fight", EX + "fight-zerglings-two-units.yaml", "--unit", "zerglings"]),
]


def timed(argv: list[str], env: Optional[dict] = None) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of ``argv`` in a fresh process, in a user's
    environment (with ``env`` added); the command must answer (exit status 0)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120,
                       env=user_env(env))
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    agree(r.returncode == 0, f"{' '.join(argv)}: exit {r.returncode}: {r.stderr.decode()[-300:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(inst: Install, rounds: int, warm: bool = True) -> dict[str, tuple[float, float]]:
    """Median wall and CPU seconds of the baseline and every command, over interleaved rounds
    (after one warm-up round that fills the file caches, with ``warm``)."""
    baseline = [inst.python, "-c", BASELINE_CODE]
    runs = [("baseline", baseline, None), ("baseline, one BLAS thread", baseline, ONE_THREAD)]
    runs += [(label, inst.tapeline + args, None) for label, args in COMMANDS]
    if warm:
        for _label, argv, env in runs:
            timed(argv, env)
    got: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in runs}
    for _ in range(rounds):
        for label, argv, env in runs:
            got[label].append(timed(argv, env))
    return {label: (statistics.median(w for w, _ in xs), statistics.median(c for _, c in xs)) for label, xs in got.items()}


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def run(quick: bool = False) -> str:
    """The section; ``quick``: this environment's install, one round, no warm-up round."""
    inst = install(quick)
    rounds = 1 if quick else int(os.environ.get("TAPELINE_BENCH_ROUNDS", "7"))
    load_before = _load()
    m = measure(inst, rounds, warm=not quick)
    load_after = _load()
    base_wall, base_cpu = m["baseline"]
    one_wall, one_cpu = m["baseline, one BLAS thread"]
    versions = ", ".join(f"{p} {inst.version(p)}" for p in ("numpy", "shapely", "pydantic", "PyYAML"))
    lines = [
        "## Start-up (benchmarks/bench_startup.py)",
        "",
        "Each one-shot query command on `scenarios/examples/showcase.yaml`, and `fight` on every bundled fight",
        "example, in a fresh process, side by side with the baseline `python -c \"import numpy, shapely,",
        "pydantic, yaml\"` (the libraries any command that reads a file stands on): medians of",
        f"{rounds} interleaved rounds, wall time and CPU time (user + system). tapeline as a user installs it:",
        f"{inst.how}, with {versions}; the baseline with the same interpreter and libraries.",
        f"Target: every query command within {TARGET_RATIO:g}× the baseline's wall time. `tapeline --help` loads",
        "the library like every command: its time is shown, with no target.",
        "A `tapeline` process runs numpy with one BLAS thread (docs/performance.md, \"The process\"): the",
        "baseline run the same way is shown too, with each command's ratio to it.",
        f"Load average (1, 5, 15 min) before and after: {load_before}; {load_after}.",
        "",
        "| command | wall | × baseline | × baseline, one BLAS thread | CPU | × baseline | target |",
        "|---|---|---|---|---|---|---|",
        f"| baseline (import numpy, shapely, pydantic, yaml) | {1000 * base_wall:.0f} ms | 1.00 | "
        f"{base_wall / one_wall:.2f} | {1000 * base_cpu:.0f} ms | 1.00 | |",
        f"| the baseline with OPENBLAS_NUM_THREADS=1 | {1000 * one_wall:.0f} ms | {one_wall / base_wall:.2f} | 1.00 | "
        f"{1000 * one_cpu:.0f} ms | {one_cpu / base_cpu:.2f} | |",
    ]
    missed = []
    for label, args in COMMANDS:
        wall, cpu = m[label]
        if label == "--help":
            target = "—"
        else:
            met = wall <= TARGET_RATIO * base_wall
            target = f"{TARGET_RATIO:g}×: {'met' if met else 'missed'}"
            if not met:
                missed.append(label)
        shown = "tapeline " + " ".join("SHOW" if a == SHOW else a.replace(EX, "EX/") for a in args)
        lines.append(f"| `{shown}` | {1000 * wall:.0f} ms | {wall / base_wall:.2f} | {wall / one_wall:.2f} | "
                     f"{1000 * cpu:.0f} ms | {cpu / base_cpu:.2f} | {target} |")
    worst = max((m[label][0] / base_wall, label) for label, _ in COMMANDS if label != "--help")
    lines += ["", "SHOW is `scenarios/examples/showcase.yaml`, EX/ `scenarios/examples/`; what each command loads and why:",
              "docs/performance.md.", "",
              (f"Budget: every query command within {TARGET_RATIO:g}× the baseline — **met** (the slowest, "
               f"`{worst[1]}`, at {worst[0]:.2f}×)." if not missed else
               f"Budget: every query command within {TARGET_RATIO:g}× the baseline — **missed** by "
               f"{', '.join(f'`{x}`' for x in missed)} (the slowest, `{worst[1]}`, at {worst[0]:.2f}×).")]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(run())
