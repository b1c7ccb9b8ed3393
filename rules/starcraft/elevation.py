"""Elevation levels and Effective Size of models (§7.1.2, §8.5.3).

GROUND LEVEL is the mat; MID GROUND is standing on horizontal terrain of Size 1–2; HIGH GROUND
on terrain of Size 3+. A model is at an elevation only if its whole base is: a base that hangs
over the edge of the piece it stands on counts as the lowest level it touches (the ground).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Optional

from tapeline.board.measure import far
from tapeline.board.table import Figure, Table
from tapeline.board.terrain import Piece
from tapeline.board.units import TOUCH

from ..state import GameState, UnitState


class Level(IntEnum):
    GROUND = 0
    MID = 1
    HIGH = 2

    @property
    def label(self) -> str:
        return {0: "Ground Level", 1: "Mid Ground", 2: "High Ground"}[int(self)]


def _level_of_size(size: int) -> Level:
    if size <= 0:
        return Level.GROUND
    return Level.MID if size <= 2 else Level.HIGH


def level_of_surface(table: Table, surface: Optional[str]) -> Level:
    """The elevation of a centre standing on ``surface`` (a piece id; ``None`` the ground) with
    its whole base (§8.5.3): by the Effective Size of the stack under it."""
    return Level.GROUND if surface is None else _level_of_size(table.stack_size(surface))


def standing_piece(table: Table, fig: Figure) -> Optional[Piece]:
    """The piece the model stands on when its whole base is on it, else ``None``.

    Walks down the stack while the base is not wholly on the upper piece.
    """
    for p in table.stack(fig.on):
        if far(fig, p.footprint) <= TOUCH:
            return p
    return None


def level(table: Table, fig: Figure) -> Level:
    """The model's elevation level; straddling counts as the lowest level (§8.5.3)."""
    p = standing_piece(table, fig)
    return Level.GROUND if p is None else _level_of_size(table.stack_size(p.id))


def effective_size(state: GameState, fig: Figure, unit: UnitState | None = None) -> int:
    """Model Size plus the Sizes of the terrain stack it stands on (§7.1.2).

    A BURROWED model counts as Size 0 (§11 BURROWED). Flying models gain nothing from terrain
    (§7.1.4); the sight rules treat them as taller than any terrain.
    """
    unit = unit or state.unit(fig.unit)
    return size_on(state.table, unit, None if unit.flying else standing_piece(state.table, fig))


def size_on(table: Table, unit: UnitState, piece: Optional[Piece]) -> int:
    """:func:`effective_size` of a model of ``unit`` standing on ``piece`` (its
    :func:`standing_piece`; ``None``: the ground)."""
    own = 0 if "burrowed" in unit.status else unit.size
    if unit.flying:
        return own
    return own + (0 if piece is None else table.stack_size(piece.id))
