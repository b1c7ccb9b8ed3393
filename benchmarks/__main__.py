"""Run every ``benchmarks/bench_*.py`` and write docs/benchmarks.md.

``python -m benchmarks``: every section, the page written. ``python -m benchmarks bench_x ...``:
those sections, spliced into the page. ``python -m benchmarks --quick [bench_x ...]``: every
section (or those named) on small sizes and few rounds, printed, the page left alone; exit
status 1 if a section broke or its answers disagreed with its peer's (timings are never checked).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import platform
import sys
import time
import traceback
from pathlib import Path

import benchmarks


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    only = {a for a in argv if a != "--quick"}
    unknown = sorted(a for a in only if a.startswith("-"))
    if unknown:
        print(f"usage: python -m benchmarks [--quick] [bench_NAME ...] (unknown option {unknown[0]})", file=sys.stderr)
        return 2
    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_"))
    missing = sorted(only - set(names))
    if missing:
        print(f"no section {missing[0]}; the sections: {', '.join(names)}", file=sys.stderr)
        return 2
    sections, failed = [], []
    start = time.perf_counter()
    for name in names:
        if only and name not in only:
            continue
        print(f"running {name}{' (quick)' if quick else ''} ...", flush=True)
        t = time.perf_counter()
        try:
            mod = importlib.import_module(f"benchmarks.{name}")
            section = mod.run(quick=quick)
        except Exception:  # a broken section is reported, the others still run
            traceback.print_exc()
            print(f"FAILED: {name}\n", flush=True)
            failed.append(name)
            continue
        print(section)
        print(f"({name} took {time.perf_counter() - t:.2f} s)\n", flush=True)
        sections.append(section)
    print(f"{len(sections)} section(s) in {time.perf_counter() - start:.1f} s"
          + (f"; FAILED: {', '.join(failed)}" if failed else ""), flush=True)
    if failed:
        return 1
    if quick:
        return 0
    out = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
    if not only:
        out.write_text(header() + "\n\n".join(sections) + "\n", encoding="utf-8")
        print(f"wrote {out}")
    elif out.exists():  # `python -m benchmarks bench_x`: that section of the page, the rest kept
        out.write_text(splice(out.read_text(encoding="utf-8"), sections), encoding="utf-8")
        print(f"updated {out}")
    return 0


def header() -> str:
    return (
        "# Benchmarks\n\n"
        "Written by `make bench` (`python -m benchmarks`). Each section compares tapeline with a peer\n"
        "method run side by side in the same process, as a ratio, on this machine:\n"
        f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, {_versions()}.\n"
        "The machine is shared with other work: comparisons of single-threaded methods use CPU time\n"
        "where a section says so; wall times of whole commands include whatever else was running\n"
        f"(load average {_load()} when the page was written, on {os.cpu_count()} cores).\n\n"
    )


def _load() -> str:
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not every platform
        return "unknown"


def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for name in ("numpy", "shapely", "networkx", "pyvisgraph", "extremitypathfinder", "icepool"):
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
