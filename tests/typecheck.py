"""mypy over the whole ``tapeline`` package, read from the repository's own folders.

``pyproject.toml`` maps the folders to the package (``board/`` is ``tapeline.board`` ...), a
mapping mypy cannot follow by itself (it does not run import hooks such as an editable
install's). So each source file is handed to mypy's build with the module name the mapping
gives it: the files checked are the repository's files, and an error names the file a developer
edits. The configuration (``--strict`` and the rest) is ``[tool.mypy]`` in ``pyproject.toml``.

``python -m tests.typecheck`` checks everything; ``python -m tests.typecheck board rules/melee``
reports only the errors in those folders (every module is still analysed).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sources() -> list[tuple[str, str]]:
    """``(path, module)`` for every source file of the package, by ``pyproject.toml``'s mapping
    (a file under several mapped folders belongs to the deepest: ``scenarios/tapeline/`` is the
    package root, not ``tapeline.scenarios.tapeline``)."""
    folders = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
    found: dict[str, str] = {}
    for package, folder in sorted(folders.items(), key=lambda kv: -len(Path(kv[1]).parts)):
        base = ROOT / folder
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found.setdefault(str(path), ".".join([package, *parts]))
    return sorted(found.items())


def check(only: list[str]) -> list[str]:
    """mypy's error lines, those in the folders or files ``only`` names (all when empty)."""
    from mypy import build
    from mypy.main import process_options
    from mypy.modulefinder import BuildSource

    _, options = process_options(["--config-file", str(ROOT / "pyproject.toml"), "-c", "pass"])
    result = build.build([BuildSource(path, module) for path, module in sources()], options)
    prefixes = [str((ROOT / p).resolve()) for p in only]
    lines = []
    for line in result.errors:
        path = line.split(":", 1)[0]
        full = str(Path(path).resolve()) if path else ""
        if not prefixes or any(full == p or full.startswith(p.rstrip("/") + "/") for p in prefixes):
            lines.append(str(Path(full).relative_to(ROOT)) + line[len(path):] if full.startswith(str(ROOT)) else line)
    return lines


def main(argv: list[str]) -> int:
    lines = check(argv)
    print("\n".join(lines) if lines else "no type errors")
    return 1 if any(": error:" in line for line in lines) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
