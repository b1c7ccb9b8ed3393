"""Located errors for scenario files."""

from __future__ import annotations

import re

from tapeline.board.errors import TapelineError

#: Every character that starts a new line somewhere (str.splitlines' set).
_LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")


def one_line(text: str) -> str:
    """``text`` on one line: every line break (also the ones only Unicode counts, such as U+2028,
    which an id or a quoted value may hold) becomes a space — an error is one line on stderr."""
    return _LINE_BREAKS.sub(" ", text)


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
