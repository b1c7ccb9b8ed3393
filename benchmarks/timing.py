"""What the benchmarks share: the best of several timings."""

from __future__ import annotations

import math
import time


def best(f, repeat: int = 5, clock=time.perf_counter):
    """``(seconds, result)``: the fastest of ``repeat`` runs of ``f()`` and its result.

    ``clock=time.process_time`` measures CPU time instead of wall time: on a machine shared with
    other work it is what a comparison of two single-threaded methods should use."""
    fastest, out = math.inf, None
    for _ in range(repeat):
        t = clock()
        out = f()
        fastest = min(fastest, clock() - t)
    return fastest, out
