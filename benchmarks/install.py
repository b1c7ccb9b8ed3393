"""The installation the command-line benchmarks run: tapeline as a user installs it.

``make bench`` times whole ``tapeline`` processes (start-up, a session, ``check`` and ``replay`` at
scale) the way a user gets them: a regular, non-editable ``pip install .`` into a virtual
environment of its own (:data:`VENV`, ``.venv-bench/user``; ``TAPELINE_BENCH_USER_VENV`` names
another), its modules byte-compiled by pip as it installs them, run without
``PYTHONDONTWRITEBYTECODE`` or ``PYTHONPATH``. The environment and tapeline's dependencies are
made once; tapeline itself is installed afresh from the working tree's sources once per
``python -m benchmarks`` (built from a copy of them, so no build folder in the tree can leak an
old file into the wheel).

The quick profile (``python -m benchmarks --quick``, run by ``make test``) uses the environment it
runs in instead (the test environment's editable install): it checks that the sections run, not
how fast.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("TAPELINE_BENCH_USER_VENV", ROOT / ".venv-bench" / "user"))
#: What the installed package is built from (pyproject.toml maps the folders into ``tapeline``).
SOURCES = ("pyproject.toml", "README.md", "board", "rules", "scenarios")


@dataclass(frozen=True)
class Install:
    """An interpreter with tapeline installed, and how it was installed."""

    python: str
    how: str  # in words, for a section's text

    @property
    def tapeline(self) -> list[str]:
        """The ``tapeline`` console script beside the interpreter, else ``python -m``."""
        script = Path(self.python).parent / "tapeline"
        return [str(script)] if script.exists() else [self.python, "-m", "tapeline.scenarios"]

    def version(self, package: str) -> str:
        r = subprocess.run([self.python, "-c", f"from importlib.metadata import version; print(version({package!r}))"],
                           capture_output=True, text=True, env=user_env(), timeout=120)
        return r.stdout.strip() or "not installed"


def user_env(extra: Optional[dict] = None) -> dict:
    """The environment a user's command runs in: this one without ``PYTHONDONTWRITEBYTECODE`` (each
    process would compile the modules it loads anew where a module's byte code is missing),
    ``PYTHONPATH`` and ``OPENBLAS_NUM_THREADS`` (``make bench`` sets them for the benchmarks
    themselves; a ``tapeline`` process asks for one BLAS thread on its own), plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "OPENBLAS_NUM_THREADS")}
    env.update(extra or {})
    return env


_USER: list[Install] = []  # the user's installation, once made in this process


def install(quick: bool = False) -> Install:
    """The installation to time: for ``make bench`` the user's one (made or refreshed once per
    process, see the module's text); for the quick profile this interpreter's."""
    if quick:
        return Install(sys.executable, "this environment's own install (the quick profile)")
    if not _USER:
        _USER.append(_user_install())
    return _USER[0]


def _pip(python: str, *args: str, log: Path) -> None:
    with log.open("a", encoding="utf-8") as out:
        r = subprocess.run([python, "-m", "pip", *args], stdout=out, stderr=subprocess.STDOUT, env=user_env(),
                           timeout=1800)
    if r.returncode:
        raise RuntimeError(f"pip {' '.join(args)} failed (exit {r.returncode}); see {log}")


def _user_install() -> Install:
    python = VENV / "bin" / "python"
    log = VENV.parent / "user-install.log"
    VENV.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("", encoding="utf-8")
    if not python.exists():
        print(f"making {VENV}: a fresh virtual environment, `pip install .` into it (log: {log})", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True, env=user_env(), timeout=600)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "tapeline"
        src.mkdir()
        for name in SOURCES:
            if (ROOT / name).is_dir():
                shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                shutil.copy(ROOT / name, src / name)
        _pip(str(python), "uninstall", "-y", "-q", "tapeline", log=log)
        _pip(str(python), "install", "-q", str(src), log=log)  # the dependencies once, tapeline every time
    return Install(str(python), f"a regular `pip install .` (not editable) into a virtual environment of its own "
                                f"(`{VENV.relative_to(ROOT) if VENV.is_relative_to(ROOT) else VENV}`)")
