"""Start-up: each query command on the showcase vs importing the libraries it stands on.

Baseline: ``python -c "import numpy, shapely, pydantic, yaml"`` — the least any command that
reads a scenario file must pay. Each command line below (the Makefile's demo, README and docs
command lines on ``scenarios/examples/showcase.yaml``) and ``tapeline --help`` run in their own
fresh process, interleaved with the baseline round by round (a busy machine slows them alike),
with the same interpreter; the table gives the median wall time of the rounds, the median CPU
time (user + system, the children's rusage: what the machine spent on it whatever else runs),
and both as ratios to the baseline's medians. Targets (docs/performance.md): every query command
within 2.5× the baseline, ``--help`` within 0.15 s.

tapeline's sources are byte-compiled first, as an installed wheel is (an editable install is not,
and where PYTHONDONTWRITEBYTECODE is set each process would compile them anew).
"""

from __future__ import annotations

import compileall
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
SHOW = "scenarios/examples/showcase.yaml"
BASELINE = [sys.executable, "-c", "import numpy, shapely, pydantic, yaml"]
#: The baseline as a ``tapeline`` process runs numpy: with one BLAS thread (scenarios/cli.py,
#: BLAS_THREADS), shown beside the target's baseline so the saving that setting makes is seen.
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1"}
TARGET_RATIO = 2.5
TARGET_HELP = 0.15  # seconds

#: (label, arguments of ``tapeline``): every query command on the showcase.
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
]


def tapeline() -> list[str]:
    """The ``tapeline`` console script beside this interpreter, else ``python -m``."""
    script = Path(sys.executable).parent / "tapeline"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tapeline.scenarios"]


def timed(argv: list[str], env: Optional[dict] = None) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of ``argv`` in a fresh process (with
    ``env`` added to the environment)."""
    environ = dict(os.environ, **env) if env else None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120, env=environ)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)}: exit {r.returncode}: {r.stderr.decode()[-300:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(rounds: int = 7) -> dict[str, tuple[float, float]]:
    """Median wall and CPU seconds of the baseline and every command, over interleaved rounds
    (after one warm-up round that fills the file caches)."""
    runs = [("baseline", BASELINE, None), ("baseline, one BLAS thread", BASELINE, ONE_THREAD)]
    runs += [(label, tapeline() + args, None) for label, args in COMMANDS]
    for _label, argv, env in runs:
        timed(argv, env)
    got: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in runs}
    for _ in range(rounds):
        for label, argv, env in runs:
            got[label].append(timed(argv, env))
    return {label: (statistics.median(w for w, _ in xs), statistics.median(c for _, c in xs)) for label, xs in got.items()}


def run() -> str:
    for folder in ("board", "rules", "scenarios"):
        compileall.compile_dir(str(ROOT / folder), quiet=1)
    rounds = int(os.environ.get("TAPELINE_BENCH_ROUNDS", "7"))
    m = measure(rounds)
    base_wall, base_cpu = m["baseline"]
    one_wall, one_cpu = m["baseline, one BLAS thread"]
    lines = [
        "## Start-up (benchmarks/bench_startup.py)",
        "",
        "Each query command on `scenarios/examples/showcase.yaml` in a fresh process, side by side with",
        "the baseline `python -c \"import numpy, shapely, pydantic, yaml\"` (the libraries any command that",
        f"reads a file stands on): medians of {rounds} interleaved rounds, wall time and CPU time (user + system).",
        f"Targets: every query command within {TARGET_RATIO:g}× the baseline; `tapeline --help` within "
        f"{TARGET_HELP:g} s.",
        "A `tapeline` process runs numpy with one BLAS thread (docs/performance.md, \"The process\"): the",
        "baseline run the same way is shown too, with each command's ratio to it.",
        "",
        "| command | wall | × baseline | × baseline, one BLAS thread | CPU | × baseline | target |",
        "|---|---|---|---|---|---|---|",
        f"| baseline (import numpy, shapely, pydantic, yaml) | {1000 * base_wall:.0f} ms | 1.00 | "
        f"{base_wall / one_wall:.2f} | {1000 * base_cpu:.0f} ms | 1.00 | |",
        f"| the baseline with OPENBLAS_NUM_THREADS=1 | {1000 * one_wall:.0f} ms | {one_wall / base_wall:.2f} | 1.00 | "
        f"{1000 * one_cpu:.0f} ms | {one_cpu / base_cpu:.2f} | |",
    ]
    for label, args in COMMANDS:
        wall, cpu = m[label]
        if label == "--help":
            target = f"{TARGET_HELP:g} s: {'met' if wall <= TARGET_HELP else 'missed'}"
        else:
            target = f"{TARGET_RATIO:g}×: {'met' if wall <= TARGET_RATIO * base_wall else 'missed'}"
        shown = "tapeline " + " ".join(a if a != SHOW else "SHOW" for a in args)
        lines.append(f"| `{shown}` | {1000 * wall:.0f} ms | {wall / base_wall:.2f} | {wall / one_wall:.2f} | "
                     f"{1000 * cpu:.0f} ms | {cpu / base_cpu:.2f} | {target} |")
    lines += ["", "SHOW is `scenarios/examples/showcase.yaml`; what each command loads and why: docs/performance.md."]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(run())
