"""Run every ``benchmarks/bench_*.py`` and write docs/benchmarks.md."""

from __future__ import annotations

import importlib
import pkgutil
import platform
import sys
import time
from pathlib import Path

import benchmarks


def main(argv: list[str]) -> int:
    only = set(argv)
    sections = []
    for m in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda m: m.name):
        if not m.name.startswith("bench_") or (only and m.name not in only):
            continue
        mod = importlib.import_module(f"benchmarks.{m.name}")
        print(f"running {m.name} ...", flush=True)
        t = time.perf_counter()
        section = mod.run()
        print(section)
        print(f"({m.name} took {time.perf_counter() - t:.1f} s)\n", flush=True)
        sections.append(section)
    header = (
        "# Benchmarks\n\n"
        "Written by `make bench` (`python -m benchmarks`). Each section compares tapeline with a peer\n"
        "method run side by side in the same process, as a ratio, on this machine:\n"
        f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, {_versions()}.\n"
        "The machine is shared with other work: comparisons of single-threaded methods use CPU time\n"
        "where a section says so; wall times of whole commands include whatever else was running.\n\n"
    )
    out = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
    if not only:
        out.write_text(header + "\n\n".join(sections) + "\n", encoding="utf-8")
        print(f"wrote {out}")
    elif out.exists():  # `python -m benchmarks bench_x`: that section of the page, the rest kept
        out.write_text(splice(out.read_text(encoding="utf-8"), sections), encoding="utf-8")
        print(f"updated {out}")
    return 0


def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for name in ("numpy", "shapely", "networkx", "pyvisgraph", "extremitypathfinder"):
        try:
            out.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            out.append(f"{name} not installed")
    return ", ".join(out)


def splice(page: str, sections: list[str]) -> str:
    """``page`` with each of ``sections`` in place of the section of the same ``## `` title
    (a section runs to the next ``## `` line), or added at the end when the page has none."""
    for section in sections:
        title = section.splitlines()[0]
        lines = page.rstrip("\n").split("\n")
        if title in lines:
            start = lines.index(title)
            end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
            tail = ["", *lines[end:]] if end < len(lines) else []
            lines = lines[:start] + section.split("\n") + tail
        else:
            lines += ["", *section.split("\n")]
        page = "\n".join(lines) + "\n"
    return page


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
