"""Performance comparisons against peers run side by side (``make bench``).

Each module ``benchmarks/bench_*.py`` defines ``run(quick=False) -> str`` returning a Markdown
section (what was compared, the ratio, the target and whether it was met). ``python -m
benchmarks`` runs them all and writes docs/benchmarks.md; ``python -m benchmarks --quick`` runs
each on small sizes and few rounds, writes nothing, and fails when a section breaks or its
answers disagree with its peer's (``make test`` runs it). Timing never appears as an assertion:
timings are printed, only answers are checked.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Iterable, Sequence
from typing import Optional


class Disagreement(AssertionError):
    """A section's answers disagree with its peer's or with what they must be (a command
    failed, a path is illegal ...): the benchmark, or tapeline, is broken."""


def agree(ok: bool, message: str) -> None:
    """Raise :class:`Disagreement` with ``message`` unless ``ok``."""
    if not ok:
        raise Disagreement(message)


def sampled_agree(estimates: Iterable[float], exact: Iterable[float], n: int, what: str,
                  labels: Optional[Sequence[str]] = None, z: float = 5.0) -> None:
    """Monte Carlo frequencies from ``n`` samples agree with the exact probabilities: each
    within ``z`` standard errors, sqrt(p(1 − p)/n), plus 3/n for the probabilities near 0 or 1
    (``labels`` name them, else their index in ``what``)."""
    for k, (e, p) in enumerate(zip(estimates, exact)):
        bound = z * math.sqrt(max(p * (1 - p), 0.0) / n) + 3 / n
        name = labels[k] if labels is not None else f"{what}[{k}]"
        agree(abs(e - p) <= bound, f"{name}: Monte Carlo {e:.5f} vs exact {p:.5f} from {n:,} samples "
                                   f"(more than {z:g} standard errors apart)")


def installed(module: str) -> bool:
    """Whether ``module`` (a peer of the ``bench`` extra) can be imported here."""
    return importlib.util.find_spec(module) is not None
