"""The repository is self-contained: no comment, docstring or doc points outside it.

Notes, specifications and rules text the project was built from live outside the repository;
what the product relies on is written into docs/ in the project's own words. So no tracked text
file names those outside folders, and every relative link in the docs resolves to a file inside
the repository.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = {".py", ".md", ".yaml", ".yml", ".json", ".toml", ".txt", ".cfg", ".ini", ".html", ""}
# written in pieces so that this file does not match itself
OUTSIDE = re.compile("|".join([
    r"\.\./" + "shared", r"\b" + "shared/(spec|rules|notes|seeds|DESIGN)", r"\bnotes/" + "exact-geometry",
    r"\b" + r"seeds/[\w-]+\.txt",
]))
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")


def _files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        files = [ROOT / f for f in out.splitlines()]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk the tree
        skip = {".git", ".venv", "build", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache"}
        files = [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]
    return [f for f in files if f.suffix in TEXT and f.is_file() and f.name != Path(__file__).name]


def test_no_file_points_outside_the_repository():
    bad = []
    for f in _files():
        for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                bad.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not bad, "\n".join(bad)


def test_relative_links_in_docs_resolve_inside_the_repository():
    bad = []
    for f in _files():
        if f.suffix != ".md":
            continue
        for m in LINK.finditer(f.read_text(encoding="utf-8")):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
                continue
            p = (f.parent / target).resolve()
            if not p.exists() or ROOT not in (p, *p.parents):
                bad.append(f"{f.relative_to(ROOT)}: ({target})")
    assert not bad, "\n".join(bad)
