"""What the benchmarks share: the best of several timings."""

from __future__ import annotations

import math
import time


def best(f, repeat: int = 5):
    """``(seconds, result)``: the fastest of ``repeat`` runs of ``f()`` and its result."""
    fastest, out = math.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        fastest = min(fastest, time.perf_counter() - t)
    return fastest, out
