"""Mutation testing of the core geometry and odds modules: ``make mutate``.

A small AST mutation runner (mutmut's copy-the-tree layout does not fit this repository's
``tapeline.*`` package mapping): each mutant is one operator changed in one module's source —

* arithmetic ``+ ↔ -``, ``* ↔ /``, ``//`` → ``/``, ``%`` → ``*``, ``**`` → ``*``, and the
  augmented forms;
* comparisons ``< ↔ <=``, ``> ↔ >=``, ``== ↔ !=``, ``is ↔ is not``, ``in ↔ not in``;
* ``and ↔ or``; ``not x`` → ``x``; ``-x`` → ``x``;
* numbers ``n`` → ``n + 1`` (``0`` → ``1``, ``1.0`` → ``2.0``), ``True ↔ False``;

(strings, docstrings and type annotations are left alone: messages are not behaviour). Each
mutant runs against its module's own test files, in a forked child that imports the mutated
source in place of the module (the parent has imported the heavy libraries once); a failing
test or a timeout kills it. The score is killed / mutants per module; the survivors are listed
with their line, for a test to be written or the code they point at to be removed.

    python -m tests.mutate                         # every module, every mutant
    python -m tests.mutate --module rules/pmf.py   # one module
    python -m tests.mutate --sample 60 --seed 1    # a sample per module
    python -m tests.mutate --module board/templates.py --lines 120,131 --report ''   # some lines
"""

from __future__ import annotations

import argparse
import ast
import copy
import importlib.abc
import importlib.util
import os
import random
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Core modules and the test files each is judged by (its own: the tests written for it).
_MELEE = ("tests/rules/test_melee_parts.py", "tests/rules/test_melee_engine.py")
#: The quick tests of board/sight.py's two-piece pass (the rest of test_separation.py is slow).
_WINDOWS = ("test_two_staggered_walls_block_together", "test_a_window_need_be_closed_only_for_the_lines_in_line_with_the_other_base",
            "test_the_window_lines_lie_close_to_the_exact_tangents", "test_two_pieces_settle_nothing_without_a_window")
MODULES: dict[str, tuple[str, ...]] = {
    "board/templates.py": ("tests/board/test_templates.py", "tests/board/test_templates_edges.py"),
    "board/measure.py": ("tests/board/test_measure.py",),
    "board/sight.py": ("tests/board/test_sight_parts.py", "tests/board/test_sight.py", "tests/board/test_sight_tangents.py",
                       *(f"tests/board/test_separation.py::{t}" for t in _WINDOWS)),
    "board/paths.py": ("tests/board/test_paths.py", "tests/board/test_paths_bounded.py"),
    "rules/pmf.py": ("tests/rules/test_pmf.py",),
    **{f"rules/melee/{m}.py": _MELEE for m in ("chains", "combat", "strike", "wounds")},
    **{f"rules/melee/{m}.py": _MELEE[:1] for m in ("charts", "loadout", "weapons")},
    "rules/starcraft/attack.py": ("tests/rules/test_attack.py",),
    "rules/starcraft/casualties.py": ("tests/rules/test_attack_casualties.py",),
}

_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
        ast.Mod: ast.Mult, ast.Pow: ast.Mult}
_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
        ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
_SYM = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
        ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is",
        ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in", ast.And: "and", ast.Or: "or"}


@dataclass(frozen=True)
class Mutant:
    module: str   # repository path
    index: int    # the k-th mutable site in walk order
    line: int
    what: str

    @property
    def key(self) -> str:
        return f"{self.module}:{self.line}:{self.what}"


def _skipped(tree: ast.AST) -> set[int]:
    """ids of nodes not to mutate: docstrings, annotations, ``__all__``."""
    skip: set[int] = set()

    def mark(node):
        for n in ast.walk(node):
            skip.add(id(n))

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.returns is not None:
                mark(node.returns)
            for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs:
                if a.annotation is not None:
                    mark(a.annotation)
        elif isinstance(node, ast.AnnAssign):
            mark(node.annotation)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            mark(node)
    return skip


def _sites(tree: ast.AST) -> list[tuple[ast.AST, str, object]]:
    """(node, description, how) for every mutation, in walk order."""
    skip = _skipped(tree)
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _BIN:
            new = _BIN[type(node.op)]
            out.append((node, f"{_SYM[type(node.op)]} -> {_SYM[new]}", ("op", new)))
        elif isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                if type(op) in _CMP:
                    out.append((node, f"{_SYM[type(op)]} -> {_SYM[_CMP[type(op)]]}", ("cmp", k)))
        elif isinstance(node, ast.BoolOp):
            new = ast.Or if isinstance(node.op, ast.And) else ast.And
            out.append((node, f"{_SYM[type(node.op)]} -> {_SYM[new]}", ("op", new)))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
            out.append((node, "not x -> x" if isinstance(node.op, ast.Not) else "-x -> x", ("drop", None)))
        elif isinstance(node, ast.Constant) and type(node.value) in (int, float, bool):
            if isinstance(node.value, bool):
                out.append((node, f"{node.value} -> {not node.value}", ("const", not node.value)))
            else:
                out.append((node, f"{node.value!r} -> {node.value + 1!r}", ("const", node.value + 1)))
    return out


def mutants(module: str) -> list[Mutant]:
    tree = ast.parse((ROOT / module).read_text())
    return [Mutant(module, i, getattr(n, "lineno", 0), what) for i, (n, what, _) in enumerate(_sites(tree))]


def mutated_source(m: Mutant) -> str:
    tree = ast.parse((ROOT / m.module).read_text())
    node, _, (kind, arg) = _sites(tree)[m.index]
    if kind == "op":
        node.op = arg()
    elif kind == "cmp":
        node.ops[arg] = _CMP[type(node.ops[arg])]()
    elif kind == "const":
        node.value = arg
    elif kind == "drop":
        _replace(tree, node, node.operand)
    return ast.unparse(ast.fix_missing_locations(tree))


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if v is old:
                        value[i] = new
                        return


def module_name(path: str) -> str:
    return "tapeline." + path.removesuffix(".py").replace("/", ".")


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves one module from the mutated source (its ``__file__`` the real one)."""

    def __init__(self, name: str, path: Path, source: str):
        self.name, self.path, self.source = name, path, source

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=str(self.path))

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__file__ = str(self.path)
        exec(compile(self.source, str(self.path), "exec"), module.__dict__)


def _child(m: Mutant | None, tests: tuple[str, ...], timeout: float) -> None:
    """In the forked child: run ``tests`` with the mutant in place; exit 0 when it survives."""
    import pytest

    if m is not None:
        sys.meta_path.insert(0, _Finder(module_name(m.module), ROOT / m.module, mutated_source(m)))
    signal.signal(signal.SIGALRM, lambda *a: os._exit(3))
    signal.alarm(int(timeout))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    code = pytest.main([*(str(ROOT / t) for t in tests), "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"])
    os._exit(int(code))


def run(jobs: list[tuple[Mutant | None, tuple[str, ...]]], workers: int, timeout: float) -> dict:
    """Fork a child per job, ``workers`` at a time: {job index: exit status}."""
    results: dict[int, int] = {}
    running: dict[int, int] = {}
    todo = list(enumerate(jobs))
    while todo or running:
        while todo and len(running) < workers:
            k, (m, test) = todo.pop(0)
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child
                try:
                    _child(m, test, timeout)
                finally:
                    os._exit(4)
            running[pid] = k
        pid, status = os.wait()
        k = running.pop(pid)
        results[k] = os.waitstatus_to_exitcode(status)
    return results


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="tests.mutate", description=__doc__.splitlines()[0])
    ap.add_argument("--module", action="append", help="repository path of a module (default: the core set)")
    ap.add_argument("--sample", type=int, default=0, help="mutants per module (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lines", default="", help="only the mutants on these lines (comma-separated), after sampling")
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 1)))
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant (a timeout kills it)")
    ap.add_argument("--report", default=str(ROOT / "docs" / "mutation.md"), help="markdown report ('' for none)")
    args = ap.parse_args(argv)
    modules = args.module or list(MODULES)
    # the heavy libraries once, in the parent; tapeline itself only in the children
    import hypothesis  # noqa: F401
    import networkx  # noqa: F401
    import numpy  # noqa: F401
    import pydantic  # noqa: F401
    import pytest  # noqa: F401
    import shapely  # noqa: F401

    started = time.time()
    base = run([(None, MODULES[m]) for m in modules], args.jobs, args.timeout)
    for k, m in enumerate(modules):
        if base[k] != 0:
            print(f"{', '.join(MODULES[m])} fail without any mutant (exit {base[k]}): fix them first", file=sys.stderr)
            return 2
    rows, survivors = [], []
    equiv = equivalent()
    for m in modules:
        ms = mutants(m)
        if args.sample and len(ms) > args.sample:
            ms = sorted(random.Random(f"{args.seed}:{m}").sample(ms, args.sample), key=lambda x: x.index)
        if args.lines:
            ms = [x for x in ms if str(x.line) in args.lines.split(",")]
        res = run([(x, MODULES[m]) for x in ms], args.jobs, args.timeout)
        alive = [ms[k] for k, code in res.items() if code == 0]
        timeouts = sum(1 for code in res.values() if code == 3)
        killed = len(ms) - len(alive)
        eq = sum(1 for x in alive if x.key in equiv)
        catchable = len(ms) - eq
        rows.append((m, len(ms), killed, timeouts, eq, 100.0 * killed / max(1, catchable)))
        survivors += sorted(alive, key=lambda x: x.index)
        print(f"{m}: {killed}/{len(ms)} killed, {eq} equivalent: {rows[-1][5]:.1f} % of the catchable, "
              f"{timeouts} by timeout", flush=True)
    elapsed = time.time() - started
    for s in survivors:
        print(f"  survived {s.key}" + (f"  (equivalent: {equiv[s.key]})" if s.key in equiv else ""))
    if args.report:
        _report(Path(args.report), rows, survivors, args, elapsed)
    return 0


#: Mutants that cannot be caught (no input tells them from the original), one per line
#: ``module:line:mutation  # why``; they are left out of the catchable score.
EQUIVALENT = Path(__file__).resolve().parent / "mutate_equivalent.txt"


def equivalent() -> dict[str, str]:
    out = {}
    if EQUIVALENT.exists():
        for line in EQUIVALENT.read_text().splitlines():
            key, _, why = line.partition("#")
            if key.strip():
                out[key.strip()] = why.strip()
    return out


def _report(path: Path, rows, survivors, args, elapsed: float) -> None:
    lines = ["# Mutation testing", "",
             "Written by `make mutate` (tests/mutate.py): every mutant of each core module run against its",
             "module's own test files; see docs/reliability.md for the operators and how to read it.", "",
             f"Sample: {'all mutants' if not args.sample else f'{args.sample} per module (seed {args.seed})'}; "
             f"{elapsed / 60:.0f} minutes on this machine.", "",
             "| module | test files | mutants | killed | by timeout | equivalent | killed of the catchable |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for m, n, k, t, eq, score in rows:
        lines.append(f"| `{m}` | {', '.join(f'`{x}`' for x in MODULES.get(m, ('?',)))} | {n} | {k} | {t} | {eq} | {score:.1f} % |")
    equiv = equivalent()
    lines += ["", "Survivors (line: mutation), and why the equivalent ones cannot be caught",
              "(tests/mutate_equivalent.txt):", ""]
    lines += [f"- `{s.module}:{s.line}` `{s.what}`" + (f" — equivalent: {equiv[s.key]}" if s.key in equiv else "")
              for s in survivors] or ["- none"]
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
