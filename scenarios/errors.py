"""Located errors for scenario files."""

from __future__ import annotations

import re

from tapeline.board.errors import TapelineError

#: Every character that starts a new line somewhere (str.splitlines' set).
_LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")
#: The control characters (Unicode category Cc: C0, DEL, C1): ESC starts a terminal's escape
#: sequences, BEL rings, BS rubs out what was printed. No id or name of a file may hold one.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
#: The same but the newline (text of several lines keeps its lines).
_CONTROL_BUT_NEWLINE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def _escape(m: re.Match[str]) -> str:
    return repr(m.group())[1:-1]  # "\x1b", "\t": Python's own escape, as an id's repr shows it


def escape_controls(text: str, keep_newlines: bool = False) -> str:
    r"""``text`` with every control character written as its escape, as ``repr`` writes it
    (ESC as ``\x1b``, TAB as ``\t``): text from a file never reaches a terminal raw.

    >>> escape_controls("red\x1b[31m one")
    'red\\x1b[31m one'
    """
    return (_CONTROL_BUT_NEWLINE if keep_newlines else CONTROL).sub(_escape, text)


def one_line(text: str) -> str:
    """``text`` on one line: every line break (also the ones only Unicode counts, such as U+2028,
    which an id or a quoted value may hold) becomes a space — an error is one line on stderr —
    and every other control character its escape (:func:`escape_controls`)."""
    return escape_controls(_LINE_BREAKS.sub(" ", text))


class ScenarioError(TapelineError):
    """One or more problems in a scenario file, each with its location inside the file.

    ``problems`` is a list of ``(location, message)`` pairs; ``location`` reads like
    ``units[2].models[0].at`` (with ``(line N)`` appended where the YAML line is known).
    """

    def __init__(self, file: str, problems: list[tuple[str, str]]):
        self.file = file
        self.problems = problems
        self.location = problems[0][0]  # the first problem's (TapelineError's location)
        super().__init__(str(self))

    @property
    def message(self) -> str:
        return self.problems[0][1]

    def __str__(self) -> str:
        first = f"{self.file}: {self.location}: {self.message}"
        more = len(self.problems) - 1
        return first + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")



class ArgumentError(TapelineError):
    """An argument of a question or a move that does not fit the game: ``argument`` names the
    parameter (``b``, ``targets``, ``after``), ``message`` says why. Clients show it at their
    own spelling of the argument (the command line's ``argument B``, ``--target``)."""

    def __init__(self, argument: str, message: str):
        self.argument, self.message = argument, message
        self.location = argument
        super().__init__(message)
