"""The served table: one scenario document and the warm :class:`~tapeline.Game` made from it.

A table is replaced whole (:meth:`Table.replace`, the page's every edit) and questioned
(:meth:`Table.ask`) with a query command's own arguments, read by the command line's parser
(:func:`tapeline.scenarios.cli.parser`) and answered by its :func:`~tapeline.scenarios.cli.ask`:
the answer is exactly the JSON object ``tapeline COMMAND FILE ARGS --json`` prints for the
document. The game is kept between questions (a drag's question finds its sight and path
structures warm) and made anew only when the document changes. Moves (:meth:`Table.push`,
:meth:`Table.pop`) are made on the game, on top of the document's set-up, as in a session
(``tapeline shell``); replacing the document takes them back.

Every refusal is a :class:`Refused` holding located problems; the table is then unchanged. A
table is used by one worker at a time (:mod:`.serve` runs every call in one thread), so it
needs no lock.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional, TypeVar

from tapeline.board.errors import TapelineError

from .. import answers as A
from .. import yamlio
from ..cli import QUESTIONS, UsageError, ask, message, parser
from ..errors import ArgumentError, ScenarioError
from ..game import Game, units
from ..guards import OutOfTime, guarded
from ..load import parse, read

T = TypeVar("T")

#: The table sizes the page offers (inches, width × height): StarCraft TMG's Standard and
#: Skirmish tables (§1.11) and the 6' × 4' table of Horus Heresy and 40k.
SIZES = {"54x36": (54.0, 36.0), "44x30": (44.0, 30.0), "72x48": (72.0, 48.0)}
#: A blank table's name in errors and the picture's title.
BLANK = "table"


class Refused(Exception):
    """A request the table refuses: ``problems`` are ``(location, message)`` pairs."""

    def __init__(self, problems: Sequence[tuple[str, str]]):
        super().__init__("; ".join(f"{loc}: {msg}" for loc, msg in problems))
        self.problems = list(problems)

    def as_json(self) -> dict[str, Any]:
        """``{"errors": [{"location", "message"}, ...]}``."""
        return {"errors": [{"location": loc, "message": msg} for loc, msg in self.problems]}

    def first(self) -> dict[str, Any]:
        """``{"error": {"location", "message"}}``: the first problem (a question's refusal)."""
        loc, msg = self.problems[0]
        return {"error": {"location": loc, "message": msg}}


def blank(system: str = "starcraft", width: float = 54.0, height: float = 36.0) -> dict[str, Any]:
    """The document of an empty table of ``system``, ``width`` × ``height`` inches."""
    return {"tapeline": 1, "system": system, "name": "", "board": {"width": width, "height": height},
            "terrain": [], "units": []}


class Table:
    """The served table. ``file`` is the name its errors and its questions' answers use."""

    def __init__(self, document: Mapping[str, Any], file: str = BLANK):
        self.file = file
        self._doc: dict[str, Any] = {}
        self._game: Optional[Game] = None
        self.replace(document)

    @classmethod
    def open(cls, path: str) -> "Table":
        """The table of a scenario file (read once: the page never writes it)."""
        loaded = read(path)  # located errors for a bad file, as `tapeline check` gives
        data, _ = yamlio.parse(yamlio.read_text(path), is_json=path.lower().endswith(".json"))
        table = cls.__new__(cls)
        table.file, table._doc, table._game = path, data, Game(loaded)
        return table

    # --- the document -----------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The warm game of the current document, with the moves made on it."""
        assert self._game is not None
        return self._game

    def document(self) -> dict[str, Any]:
        """The current table in the file format (a copy: ``tapeline check`` accepts it as JSON)."""
        return copy.deepcopy(self._doc)

    def replace(self, document: Any) -> None:
        """Make ``document`` the table, validated as a file is: :class:`Refused` with every
        located problem, and the table unchanged, when it is not a valid scenario."""
        if not isinstance(document, Mapping):
            raise Refused([("file", "the table is one JSON object in the scenario file format")])
        text = json.dumps(document, ensure_ascii=False)
        if len(text.encode("utf-8")) > yamlio.MAX_FILE_BYTES:
            raise Refused([("file", f"the table is larger than a scenario file may be ({yamlio.MAX_FILE_BYTES:,} bytes)")])
        try:
            game = Game(parse(text, self.file, is_json=True))
        except ScenarioError as e:
            raise Refused(e.problems) from None
        self._doc, self._game = json.loads(text), game

    # --- questions and moves ----------------------------------------------------------------------

    def ask(self, command: Any, args: Any) -> dict[str, Any]:
        """The JSON answer of the query ``command`` with the command line's ``args`` (a list of
        words after the file), under the command line's time limit: exactly the object
        ``tapeline COMMAND FILE ARGS --json`` prints."""
        return self.answer(command, args).as_json()

    def explain(self, command: Any, args: Any) -> dict[str, Any]:
        """``{"answer": ..., "text": ...}``: :meth:`ask`'s answer and the words the command
        prints without ``--json`` (what the page shows beside its own reading)."""
        answer = self.answer(command, args)
        return {"answer": answer.as_json(), "text": str(answer)}

    def answer(self, command: Any, args: Any) -> A.Answer:
        """The answer of the query ``command`` with the command line's ``args``."""
        if not isinstance(command, str) or command not in QUESTIONS:
            raise Refused([("command", f"unknown command {str(command)[:40]!r}; the questions: {', '.join(sorted(QUESTIONS))}")])
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise Refused([("args", "the arguments are a list of words, as on the command line")])
        try:
            ns = _parser().parse_args([command, self.file, *args])
        except UsageError as e:
            raise Refused([("arguments", str(e))]) from None
        except SystemExit:  # --help
            raise Refused([("arguments", "--help is the command line's: run tapeline COMMAND --help")]) from None
        return guarded(lambda: _refusing(command, lambda: ask(self.game, ns)))

    def push(self, action: Any) -> list[dict[str, Any]]:
        """Make one move (an entry of a file's ``actions:``): its events."""
        return guarded(lambda: _refusing("push", lambda: self.game.push(action)))

    def pop(self) -> dict[str, Any]:
        """Take the last move back: the action taken back."""
        act = _refusing("pop", self.game.pop)
        return dict(act.model_dump(mode="json", exclude_defaults=True))

    def svg(self, overlays: Any) -> str:
        """The board as ``tapeline render`` draws it, with the overlays ``overlays`` names (the
        keyword arguments of :meth:`tapeline.Game.svg`: ``{"los": ["c2", "zb1"]}``; ``fill``:
        ``size`` or ``height``, as ``render --fill``)."""
        if not isinstance(overlays, Mapping):
            raise Refused([("overlays", "the overlays are an object such as {\"los\": [\"c2\", \"zb1\"]}")])
        opts: dict[str, Any] = {str(k): (tuple(v) if k in ("los", "at", "toward") and isinstance(v, list) else v)
                                for k, v in overlays.items() if k not in ("fill", "title")}
        fill = overlays.get("fill", "size")
        if fill not in ("size", "height"):
            raise Refused([("fill", f"shade terrain by size or height, not {str(fill)[:40]!r}")])
        title = str(self._doc.get("name") or "")
        def draw() -> str:
            try:
                return self.game.svg(title=title, fill=str(fill), **opts)
            except ArgumentError as e:  # an overlay's option: named as the body names it
                raise Refused([(f"overlays.{e.location}", e.message)]) from None

        return guarded(lambda: _refusing("render", draw))


@functools.lru_cache(maxsize=1)
def _parser() -> argparse.ArgumentParser:
    """The command line's parser, made once (building it costs more than answering a sight
    line; a session, ``tapeline shell``, keeps one too). Reading arguments does not change it."""
    return parser()


def catalogue(system: Any) -> dict[str, Any]:
    """``tapeline units SYSTEM --json``: a bundled unit catalogue."""
    try:
        return units(system).as_json()
    except ArgumentError as e:  # named as the request names it: ?system=
        raise Refused([(e.location or "system", e.message)]) from None


def _refusing(command: str, work: Callable[[], T]) -> T:
    """``work()``, its errors as :class:`Refused` located as the command line locates them."""
    try:
        return work()
    except ScenarioError as e:
        raise Refused(e.problems) from None
    except TapelineError as e:  # the command line's one line, "PLACE: message", split at its place
        where, _, said = message(command, e).partition(": ")
        raise Refused([(where, said)]) from None
    except OutOfTime as e:
        raise Refused([(command, f"gave up after {e.seconds:g} s{e.kind}, the limit (TAPELINE_TIME_LIMIT)")]) from None
    except (RecursionError, MemoryError) as e:
        raise Refused([(command, f"the input is too large to answer ({type(e).__name__})")]) from None
