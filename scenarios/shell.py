"""``tapeline shell FILE [--json]``: a session — many questions of one table, one start-up.

Each line of standard input is answered in turn, against the one game the file was loaded into:

* a query command's arguments without the file (``measure c2 zb1``, ``los a6 za5``, ``charge
  --unit roaches --target marines-bravo``, ``fight --unit tac --after 0``) gets the answer the
  one-shot command prints — with ``--json``, one line holding its JSON object;
* ``push ACTION`` makes a move: ACTION is one entry of a file's ``actions:`` as inline JSON or
  YAML flow (``push {action: run, unit: marines-alpha, leader: a1, path: [[17, 22]]}``); the
  answer lists its events (``{"events": [...]}``); later questions see the new state;
* ``units [SYSTEM]`` lists a bundled unit catalogue (``tapeline units``), the table's system's
  unless another is named;
* ``pop`` takes the last pushed move back (``{"popped": ACTION}``); ``quit`` ends the session;
  empty lines and lines starting with ``#`` are skipped.

A line that cannot be answered gets one line naming it (``line 3: argument B: no model 'zb0'
...``; with ``--json`` ``{"error": {"line": 3, "message": "..."}}`` in its place on standard
output), changes nothing, and the session goes on. Each line is answered under the command's
time limit. Exit status at the end: 0, or 2 if any line was refused.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable
from typing import Any, TextIO

from tapeline.board.errors import TapelineError

from . import answers as A
from . import yamlio
from .cli import QUESTIONS, UsageError, ask, message, parser
from .errors import ArgumentError, ScenarioError, one_line
from .game import Game, units
from .guards import OutOfTime, guarded

#: The longest line a session reads (characters): a move is one action, a question a few words.
MAX_LINE = 100_000


class _Refused(Exception):
    """A line the session cannot answer: its one-line message."""


def session(game: Game, lines: Iterable[str], out: TextIO, err: TextIO, *, as_json: bool = False) -> int:
    """Answer every line of ``lines`` against ``game`` (moves change it), writing answers to
    ``out`` and, in words, refusals to ``err``; the exit status (2 if a line was refused)."""
    refused = False
    questions = parser()
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line == "quit":
            break
        try:
            obj, text = guarded(lambda: _answer(game, questions, line))
        except _Refused as e:
            refused = True
            if as_json:
                print(json.dumps({"error": {"line": number, "message": str(e)}}, ensure_ascii=False), file=out, flush=True)
            else:
                print(one_line(f"line {number}: {e}"), file=err, flush=True)
            continue
        print(json.dumps(obj, ensure_ascii=False) if as_json else text, file=out, flush=True)
    return 2 if refused else 0


def _answer(game: Game, questions: Any, line: str) -> tuple[Any, str]:
    """The JSON object and the words answering one line (or :class:`_Refused`)."""
    if len(line) > MAX_LINE:
        raise _Refused(f"the line has {len(line)} characters; a session reads at most {MAX_LINE}")
    word, _, rest = line.partition(" ")
    try:
        if word == "push":
            moved = A.Events.from_json({"events": game.push(_action(rest))})
            return moved.as_json(), str(moved)
        if word == "pop":
            if rest.strip():
                raise ArgumentError("pop", "pop takes nothing after it")
            act = game.pop()
            return {"popped": act.model_dump(mode="json", exclude_defaults=True)}, f"popped {act.action}"
        if word == "units":  # the query-less command: the table's system unless one is named
            names = shlex.split(rest)
            if len(names) > 1:
                raise ArgumentError("arguments", "units takes one SYSTEM at most")
            listing = units(names[0] if names else game.system)
            return listing.as_json(), str(listing)
        if word not in QUESTIONS:
            known = ", ".join(sorted([*QUESTIONS, "push", "pop", "quit", "units"]))
            raise _Refused(f"unknown command {word!r}; a session answers {known}")
        try:
            args = questions.parse_args([word, game.file, *shlex.split(rest)])
        except ValueError as e:  # shlex: an unclosed quote
            raise _Refused(f"arguments: {e}") from None
        answer = ask(game, args)
        return answer.as_json(), str(answer)
    except UsageError as e:
        raise _Refused(f"arguments: {e}") from None
    except SystemExit:  # --help inside a session
        raise _Refused("--help is the command line's: run tapeline COMMAND --help") from None
    except ScenarioError as e:
        raise _Refused("; ".join(f"{loc}: {msg}" for loc, msg in e.problems[:1])
                       + (f" (and {len(e.problems) - 1} more)" if len(e.problems) > 1 else "")) from None
    except TapelineError as e:
        raise _Refused(message(word, e)) from None
    except OutOfTime as e:
        raise _Refused(f"{word}: gave up after {e.seconds:g} s{e.kind}, the limit (TAPELINE_TIME_LIMIT)") from None
    except (RecursionError, MemoryError) as e:
        raise _Refused(f"{word}: the input is too large to answer ({type(e).__name__})") from None


def _action(text: str) -> Any:
    """A pushed action: inline JSON or YAML flow, read with the file format's own limits."""
    if not text.strip():
        raise ArgumentError("action", "push takes an action: push {action: WORD, ...}")
    try:
        data, _ = yamlio.parse(text, is_json=False)
    except yamlio.TextError as e:
        raise ArgumentError("action", e.message) from None
    return data
