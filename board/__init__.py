"""tapeline's rule-agnostic geometry: bases, terrain, the table, measuring, sight lines,
movement space and pictures. Nothing here knows a game's rules or dice.

The names below are loaded on first use (``from tapeline.board import gap`` works as ever), so
importing a light module such as :mod:`tapeline.board.errors` does not load numpy and shapely.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers and editors; at run time see __getattr__
    from .bases import OvalBase, RoundBase
    from .errors import GeometryError, TapelineError
    from .measure import Verdict, contact, far, gap, gap_matrix, wholly_within, within
    from .table import Figure, Table
    from .terrain import Piece
    from .units import MM_PER_INCH, TOUCH, mm_to_in

_WHERE = {
    "OvalBase": "bases", "RoundBase": "bases", "GeometryError": "errors", "TapelineError": "errors",
    "Verdict": "measure", "contact": "measure", "far": "measure", "gap": "measure",
    "gap_matrix": "measure", "wholly_within": "measure", "within": "measure", "Figure": "table",
    "Table": "table", "Piece": "terrain", "MM_PER_INCH": "units", "TOUCH": "units", "mm_to_in": "units",
}

__all__ = list(_WHERE)


def __getattr__(name: str) -> Any:
    """Load the module that defines ``name`` on first use."""
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
