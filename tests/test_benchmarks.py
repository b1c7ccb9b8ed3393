"""The benchmarks still run: ``python -m benchmarks --quick`` in a subprocess.

The quick profile runs every section of benchmarks/ on small sizes and few rounds, in this
environment (without the ``bench`` extra: the sections whose peers are absent run tapeline's side
and say so), and fails when a section breaks or its answers disagree with its peer's — never on a
timing. It must leave docs/benchmarks.md as it is (only ``make bench`` writes it).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "benchmarks.md"


def test_every_benchmark_section_runs_in_its_quick_profile():
    sections = sorted(p.stem for p in (ROOT / "benchmarks").glob("bench_*.py"))
    page = PAGE.read_bytes()
    r = subprocess.run([sys.executable, "-m", "benchmarks", "--quick"], cwd=ROOT, capture_output=True, text=True,
                       timeout=900)
    tail = (r.stdout[-3000:] + r.stderr[-3000:]).strip()
    assert r.returncode == 0, tail
    for name in sections:
        assert f"running {name} (quick)" in r.stdout, f"{name} did not run:\n{tail}"
    assert re.search(rf"^{len(sections)} section\(s\) in ", r.stdout, re.M), tail
    assert PAGE.read_bytes() == page, "python -m benchmarks --quick rewrote docs/benchmarks.md"
