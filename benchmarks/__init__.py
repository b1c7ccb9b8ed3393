"""Performance comparisons against peers run side by side (``make bench``).

Each module ``benchmarks/bench_*.py`` defines ``run() -> str`` returning a Markdown section
(what was compared, the ratio, the target and whether it was met). ``python -m benchmarks``
runs them all and writes docs/benchmarks.md. Timing never appears as an assertion in tests.
"""
