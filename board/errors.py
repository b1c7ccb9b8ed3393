"""The error hierarchy shared by every layer.

``TapelineError`` is the root; ``GeometryError`` is raised by :mod:`board` for impossible
geometry. ``rules.errors.IllegalAction`` and ``scenarios.errors.ScenarioError`` derive from
``TapelineError`` too, so the command line turns every one of them into a one-line message and
exit status 2.
"""

from __future__ import annotations

from typing import Optional


class TapelineError(Exception):
    """Root of every error tapeline reports to a user (never a traceback).

    ``location`` says where in the input the problem lies (``actions[3]``, ``expect[0]``,
    ``--target``) once someone knows: the layer that does sets it with :meth:`located`.
    """

    location: Optional[str] = None

    def located(self, where: str) -> "TapelineError":
        """This error, placed at ``where`` unless it already names a place."""
        if self.location is None:
            self.location = where
        return self

    def __str__(self) -> str:
        text = super().__str__()
        return f"{self.location}: {text}" if self.location else text


class GeometryError(TapelineError):
    """Impossible geometry: a degenerate polygon, a base that cannot exist, and the like."""
