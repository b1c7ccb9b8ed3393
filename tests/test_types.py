"""The public Python API is type-checked (mypy, strict) as part of the test suite.

The public API is the front door (``tapeline``, :mod:`tapeline.scenarios.game`) and its answers
(:mod:`tapeline.scenarios.results`); the modules they import are analysed for their types, with
their own errors not reported (``--follow-imports=silent``). mypy does not run import hooks, so
the check runs on a throw-away tree of links laid out as the installed package is
(``tapeline/`` → ``scenarios/tapeline``, ``tapeline/board`` → ``board/`` ...).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = ["tapeline", "tapeline.scenarios.game", "tapeline.scenarios.results"]


def test_public_api_passes_mypy_strict(tmp_path):
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")
    pkg = tmp_path / "tapeline"
    pkg.mkdir()
    for f in (ROOT / "scenarios" / "tapeline").iterdir():
        if f.suffix == ".py":
            (pkg / f.name).symlink_to(f)
    for layer in ("board", "rules", "scenarios"):
        (pkg / layer).symlink_to(ROOT / layer, target_is_directory=True)
    cmd = [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-error-summary",
           "--cache-dir", str(ROOT / ".mypy_cache")]
    for m in PUBLIC:
        cmd += ["-m", m]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
