"""``tapeline check FILE``: is the file valid? Lists every problem with its location.

The answer (valid or not, and every problem) is on stdout; an invalid file also gives the one
error line every command gives on stderr, and exit status 2."""

from __future__ import annotations

import sys

from ..cli import emit
from ..cliutil import add_file
from ..errors import ScenarioError, one_line


def register(sub) -> None:
    p = sub.add_parser("check", help="validate a scenario file")
    add_file(p, after=False)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..load import read

    try:
        loaded = read(args.file)
    except ScenarioError as e:
        errors = [{"location": loc, "message": msg} for loc, msg in e.problems]
        human = "\n".join(f"{e.file}: {loc}: {msg}" for loc, msg in e.problems)
        emit({"valid": False, "errors": errors}, args.json, human)
        print(one_line(str(e)), file=sys.stderr)
        return 2
    s = loaded.state
    n_models = len(s.figures)
    emit(
        {"valid": True, "errors": []},
        args.json,
        f"{args.file}: valid ({s.system}, {len(s.units)} units, {n_models} models, {len(s.table.pieces)} terrain pieces)",
    )
    return 0
