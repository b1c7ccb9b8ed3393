"""tapeline — an exact geometric state engine for miniature wargames.

>>> import tapeline
>>> game = tapeline.open(tapeline.example("showcase.yaml"))
>>> game.los("c2", "zb1").visible
False

:func:`open` reads a scenario file into a :class:`Game` (:mod:`tapeline.scenarios.game`); every
question is a method of it, and its moves are :meth:`Game.push` and :meth:`Game.pop`
(docs/python.md). The package's three layers live in the repository's top-level folders,
mapped into it by ``pyproject.toml``:

- :mod:`tapeline.board` (``board/``) — rule-agnostic geometry;
- :mod:`tapeline.rules` (``rules/``) — dice, exact distributions, game state, and one package
  per rule system behind one interface (:mod:`tapeline.rules.systems`);
- :mod:`tapeline.scenarios` (``scenarios/``) — the file format, the game, replay, and its
  clients: the ``tapeline`` command, the session.

The errors every layer raises are importable from here. The game itself (:class:`Game`,
:func:`open`, :func:`parse_text`, :func:`example`) is imported on first use: the ``tapeline``
command sets its process guards (one BLAS thread, the memory limit) before numpy is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tapeline.board.errors import GeometryError, TapelineError
from tapeline.rules.errors import IllegalAction, UnknownId
from tapeline.scenarios.errors import ArgumentError, ScenarioError

if TYPE_CHECKING:  # for type checkers and editors; at run time see __getattr__
    from tapeline.scenarios.game import Game, example, open, parse_text

    __version__: str

_GAME = ("Game", "open", "parse_text", "example")

__all__ = ["__version__", *_GAME, "TapelineError", "ScenarioError", "IllegalAction", "GeometryError", "UnknownId",
           "ArgumentError"]


def __getattr__(name: str) -> Any:
    """The game's names, from :mod:`tapeline.scenarios.game` on first use; ``__version__`` from
    the installed package's metadata."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            globals()["__version__"] = v = version("tapeline")
        except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
            v = "0+unknown"
        return v
    if name in _GAME:
        from tapeline.scenarios import game

        value = getattr(game, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tapeline' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
