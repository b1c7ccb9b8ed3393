"""The error hierarchy shared by every layer.

``TapelineError`` is the root; ``GeometryError`` is raised by :mod:`board` for impossible
geometry. ``rules.errors.IllegalAction`` and ``scenarios.errors.ScenarioError`` derive from
``TapelineError`` too, so the command line turns every one of them into a one-line message and
exit status 2.
"""


class TapelineError(Exception):
    """Root of every error tapeline reports to a user (never a traceback)."""


class GeometryError(TapelineError):
    """Impossible geometry: a degenerate polygon, a base that cannot exist, and the like."""
