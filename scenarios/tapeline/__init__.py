"""tapeline — an exact geometric state engine for miniature wargames.

The installed package is ``tapeline``; its three layers live in the repository's top-level folders
and are mapped into it by ``pyproject.toml``:

- :mod:`tapeline.board` (``board/``) — rule-agnostic geometry;
- :mod:`tapeline.rules` (``rules/``) — dice, exact distributions, game state, one package per
  rule system;
- :mod:`tapeline.scenarios` (``scenarios/``) — the file format, replay and the ``tapeline``
  command.

The front door is :func:`open`: ``game = tapeline.open("file.yaml")``, then ``game.measure(a,
b)``, ``game.los(a, b)``, ``game.charge(unit, targets)`` ... (see
:class:`tapeline.scenarios.game.Game` and docs/python.md).

This module itself lives in ``scenarios/tapeline/`` and stays light: importing it loads none of
the heavy libraries (``open``, ``Game``, ``parse_text`` and ``example`` are loaded on first use,
and ``__version__`` is read from the installed package's metadata on first use), so the command
line starts quickly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers and editors; at run time see __getattr__
    from tapeline.scenarios.game import Game, example, open, parse_text

    __version__: str

_FRONT_DOOR = ("Game", "open", "parse_text", "example")

__all__ = ["__version__", *_FRONT_DOOR]


def _installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tapeline")
    except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
        return "0+unknown"


def __getattr__(name: str) -> Any:
    """Load the front door (:mod:`tapeline.scenarios.game`) and ``__version__`` (the installed
    package's metadata) on first use."""
    if name == "__version__":
        globals()["__version__"] = v = _installed_version()
        return v
    if name in _FRONT_DOOR:
        from tapeline.scenarios import game

        return getattr(game, name)
    raise AttributeError(f"module 'tapeline' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
