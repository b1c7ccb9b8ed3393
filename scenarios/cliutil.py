"""Helpers the command modules share: arguments, loading, looking ids up.

Every query command takes the scenario file first and, through :func:`add_file` and
:func:`load`, the options every query shares: ``--json`` and ``--after N`` (ask the question of
the state after the file's action N, 0-based, ``-1`` after the last, replayed with the file's
dice). A command added later gets both by calling the two functions; nothing else changes.

Ids given on the command line are looked up with :func:`model` and :func:`unit`: an unknown id
is an :class:`ArgumentError` naming the file, the argument and the closest existing ids. A
number a user types is read by a bounded type (:func:`int_in`, :func:`number_in`, :func:`xy`),
so argparse refuses what is out of range with the same one-line message (docs/reliability.md).
"""

from __future__ import annotations

import argparse
import errno
import math
import os
from dataclasses import replace
from typing import TYPE_CHECKING, Iterable, Optional

from tapeline.board.errors import TapelineError
from tapeline.rules.errors import IllegalAction

from .limits import MAX_ID, MAX_INCHES
from .suggest import closest

if TYPE_CHECKING:
    from .load import Loaded


class ArgumentError(TapelineError):
    """A command's argument does not fit the file: ``FILE: PLACE: message``.

    ``place`` names the argument (``argument A``, ``--unit``, ``--after``). ``file`` may be
    ``None`` where it is not at hand (a value parsed before the file is read): the command line
    adds it.
    """

    def __init__(self, file: Optional[str], place: str, message: str):
        self.file, self.place, self.message = file, place, message
        self.location = place
        super().__init__(message)

    def __str__(self) -> str:
        return f"{self.file}: {self.place}: {self.message}" if self.file else f"{self.place}: {self.message}"


def add_file(p: argparse.ArgumentParser, json_flag: bool = True, after: bool = True) -> None:
    """The scenario file, ``--json`` (unless ``json_flag`` is false) and ``--after N`` (unless
    ``after`` is false: commands about the file as a whole, such as ``check``)."""
    p.add_argument("file", metavar="FILE", help="scenario file (.yaml, .yml or .json)")
    if json_flag:
        p.add_argument("--json", action="store_true", help="print one JSON object")
    if after:
        p.add_argument("--after", type=int, metavar="N", default=None,
                       help="ask about the state after the file's action N (0-based; -1: after the last), "
                            "replayed with the file's dice")


def add_pair(p: argparse.ArgumentParser) -> None:
    """The scenario file and two model ids ``A B`` (``measure``, ``los``)."""
    add_file(p)
    p.add_argument("a", metavar="A", help="model id")
    p.add_argument("b", metavar="B", help="model id")


def check_output(args, output: str, flag: str) -> None:
    """Refuse, before any work, a file a command would write (``output``, ``flag`` its option)
    that is the scenario file itself by any name (a link, ``./``, ``..``: writing would destroy
    the input), a directory, or inside a directory that does not exist. ``-`` (standard output)
    passes; what only the write can tell (permissions, a full disk) is reported when writing."""
    if output == "-":
        return
    try:
        same = os.path.samefile(output, args.file)
    except (OSError, ValueError):  # the output does not exist yet (or cannot be looked at)
        same = False
    if same:
        raise ArgumentError(args.file, flag, f"{output} is the scenario file itself: writing there would overwrite it")
    if os.path.isdir(output):
        raise ArgumentError(args.file, flag, f"cannot write {output}: it is a directory")
    folder = os.path.dirname(output)
    if folder and not os.path.isdir(folder):
        raise ArgumentError(args.file, flag, f"cannot write {output}: no directory {folder}")


def write_output(args, output: str, flag: str, text: str) -> None:
    """Write ``text`` to ``output`` (checked by :func:`check_output` first). A named pipe that
    nobody reads is refused at once instead of blocking (opened without waiting for a reader);
    a pipe with a reader, such as ``/dev/stdout`` in a pipeline, is written normally."""
    try:
        fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o666)
    except OSError as e:
        why = "a named pipe that nobody reads" if e.errno == errno.ENXIO else (e.strerror or str(e))
        raise ArgumentError(args.file, flag, f"cannot write {output}: {why}") from None
    try:
        os.set_blocking(fd, True)
        with open(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except OSError as e:
        raise ArgumentError(args.file, flag, f"cannot write {output}: {e.strerror or e}") from None


#: Set by the ``tapeline`` command (scenarios/cli.py, ``run``): once its file is loaded, the
#: objects made so far (libraries, the file's models and state, which live until the process
#: ends) are moved out of the garbage collector's sight (``gc.freeze``), so that the collections
#: the command's own work sets off do not scan them again (about 15 ms of a charge on the
#: showcase). Not for tapeline used from Python.
FREEZE_AFTER_LOAD = False


def load(args) -> Loaded:
    """The file named by ``args.file``, advanced to ``args.after`` when given."""
    from .load import read  # the file format's models, geometry and rules: only when a file is read

    loaded = advance(read(args.file), getattr(args, "after", None))
    if FREEZE_AFTER_LOAD:
        import gc

        gc.freeze()
    return loaded


def advance(loaded: Loaded, after: Optional[int]) -> Loaded:
    """``loaded`` with its state replaced by the state after action ``after`` (``None``: as is)."""
    if after is None:
        return loaded
    from . import replay  # the rules' actions: only when asked for

    try:
        state = replay.state_after(loaded, after)
    except IndexError as e:
        raise ArgumentError(loaded.file, f"--after {after}", str(e)) from None
    except IllegalAction as e:
        where = f"actions[{e.index}]" if e.index is not None else "actions"
        raise ArgumentError(loaded.file, where, f"{e.message} ({e.rule}); replayed for --after {after}") from None
    return replace(loaded, state=state)


def unknown(kind: str, ident: str, known: Iterable[str]) -> str:
    """``no model 'm11'; closest: m1, m10`` (or the first few ids that exist)."""
    if len(ident) > MAX_ID:  # no id is that long: say so, without echoing it all
        return f"no {kind} {ident[:40]!r}... ({len(ident)} characters; an id has at most {MAX_ID})"
    known = list(known)
    near = closest(ident, known)
    if near:
        return f"no {kind} {ident!r}; closest: {', '.join(near)}"
    if not known:
        return f"no {kind} {ident!r}: the file has none"
    shown = ", ".join(known[:8]) + (", ..." if len(known) > 8 else "")
    return f"no {kind} {ident!r}; the file's {kind}s: {shown}"


def model(loaded: Loaded, ident: str, place: str = "arguments") -> str:
    """A model id of the file (still on the table), or an :class:`ArgumentError` naming the
    closest ones."""
    st = loaded.state
    if ident in st.figures and any(ident in u.models for u in st.units):
        return ident
    for u in st.units:
        if ident in u.removed:
            raise ArgumentError(loaded.file, place, f"model {ident!r} of {u.id} has been removed as a casualty")
    raise ArgumentError(loaded.file, place, unknown("model", ident, [m for u in st.units for m in u.models]))


def unit(loaded: Loaded, ident: str, place: str = "arguments") -> str:
    """A unit id of the file, or an :class:`ArgumentError` naming the closest ones."""
    if not loaded.state.has_unit(ident):
        raise ArgumentError(loaded.file, place, unknown("unit", ident, [u.id for u in loaded.state.units]))
    return ident


def pair(loaded: Loaded, args) -> tuple[str, str]:
    """The two different models ``A B`` of ``measure`` and ``los``."""
    a, b = model(loaded, args.a, "argument A"), model(loaded, args.b, "argument B")
    if a == b:
        raise ArgumentError(loaded.file, "argument B", f"A and B are the same model ({a}): name two different models")
    return a, b


def _in_range(kind: str, convert, lo, hi, show):
    """An argparse type: a ``kind`` read by ``convert``, finite, from ``lo`` to ``hi``."""

    def parse(text: str):
        try:
            v = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a {kind}: {text[:40]!r}") from None
        if not ((not isinstance(v, float) or math.isfinite(v)) and lo <= v <= hi):
            raise argparse.ArgumentTypeError(f"{text[:40]} is out of range ({show(lo)} to {show(hi)})")
        return v

    return parse


def int_in(lo: int, hi: int):
    """An argparse type: a whole number from ``lo`` to ``hi``."""
    return _in_range("whole number", int, lo, hi, str)


def number_in(lo: float, hi: float):
    """An argparse type: a finite number from ``lo`` to ``hi``."""
    return _in_range("number", float, lo, hi, lambda x: f"{x:g}")


def answer(command: str, obj: dict) -> dict:
    """The JSON object a command prints: ``obj`` passed through the command's typed answer
    (:mod:`tapeline.scenarios.results`), so the command line and the Python API give the same
    keys — a key the typed answer lacks is an error, not a silent difference."""
    from .results import result

    return result(command, obj).as_json()


#: Deprecation notes of the running command, printed on standard error once it has answered
#: (a failing command prints its one error line and nothing else).
NOTES: list[str] = []


def deprecated(message: str) -> None:
    """A deprecation note on standard error (the answer on standard output is unchanged)."""
    NOTES.append(f"tapeline: note: {message}")


def xy(text: str, flag: str) -> tuple[float, float]:
    """A point given on the command line as ``X,Y``: two finite numbers within the format's
    coordinate limit (inches), or an :class:`ArgumentError` naming ``flag``."""
    coord = number_in(-MAX_INCHES, MAX_INCHES)
    try:
        parts = str(text).split(",")
        if len(parts) != 2:
            raise argparse.ArgumentTypeError(f"wants X,Y (two numbers), not {str(text)[:40]!r}")
        return coord(parts[0]), coord(parts[1])
    except argparse.ArgumentTypeError as e:
        raise ArgumentError(None, flag, str(e)) from None


def fmt(x: float) -> str:
    return f"{x:.6f}".rstrip("0").rstrip(".") if abs(x) < 1e6 else f"{x:g}"
