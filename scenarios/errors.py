"""Located errors for scenario files."""

from __future__ import annotations

from tapeline.board.errors import TapelineError


class ScenarioError(TapelineError):
    """One or more problems in a scenario file, each with its location inside the file.

    ``problems`` is a list of ``(location, message)`` pairs; ``location`` reads like
    ``units[2].models[0].at`` (with ``(line N)`` appended where the YAML line is known).
    """

    def __init__(self, file: str, problems: list[tuple[str, str]]):
        self.file = file
        self.problems = problems
        super().__init__(str(self))

    @property
    def location(self) -> str:
        return self.problems[0][0]

    @property
    def message(self) -> str:
        return self.problems[0][1]

    def __str__(self) -> str:
        first = f"{self.file}: {self.location}: {self.message}"
        more = len(self.problems) - 1
        return first + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")

