"""tapeline — an exact geometric state engine for miniature wargames.

The installed package is ``tapeline``; its three layers live in the repository's top-level folders
and are mapped into it by ``pyproject.toml``:

- :mod:`tapeline.board` (``board/``) — rule-agnostic geometry;
- :mod:`tapeline.rules` (``rules/``) — dice, exact distributions, game state, one package per
  rule system;
- :mod:`tapeline.scenarios` (``scenarios/``) — the file format, replay and the ``tapeline``
  command.

This module itself lives in ``scenarios/tapeline/`` and stays light: importing it loads none of
the heavy libraries, so the command line starts quickly.
"""

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("tapeline")
except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
    __version__ = "0+unknown"

__all__ = ["__version__"]
