"""The ``tapeline`` command.

Each sub-command lives in its own module of :mod:`scenarios.commands` with a
``register(subparsers)`` function; they are discovered, so adding a command touches nothing
else. Exit status: 0 answered, 1 a replay's expectation failed, 2 invalid input (a located
one-line message, never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from typing import Optional, Sequence

from tapeline import __version__
from tapeline.board.errors import TapelineError

from . import commands


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tapeline",
        description="Exact geometry for miniature wargames: measure, sight lines, charges, odds, replays.",
    )
    p.add_argument("--version", action="version", version=f"tapeline {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for m in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{m.name}").register(sub)
    return p


def emit(obj: dict, as_json: bool, human: str) -> None:
    """Print ``obj`` as one JSON object with ``--json``, else the human text."""
    if as_json:
        print(json.dumps(obj, indent=2, ensure_ascii=False))
    else:
        print(human)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parser().parse_args(argv)
    try:
        code = args.func(args)
    except TapelineError as e:
        print(f"tapeline: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - `tapeline ... | head`
        return 0
    return int(code or 0)


def run() -> None:  # console-script entry point
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
