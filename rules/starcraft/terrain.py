"""What a terrain piece means in StarCraft TMG (§7.1 summary table, §8.5.3; spec defaults).

Size 2+ is impassable unless ``passable`` or ``grass``; Size 1+ is Blocking Terrain; Size 0
blocks nothing. Traits override: ``impassable``, ``passable``, ``blocks_sight``,
``no_sight_block``.
"""

from __future__ import annotations

from tapeline.board.table import Table
from tapeline.board.terrain import Piece


def impassable(piece: Piece) -> bool:
    """Models cannot move through, onto or across it, nor end overlapping it."""
    if piece.has("impassable"):
        return True
    if piece.has("passable") or piece.has("grass"):
        return False
    return piece.size >= 2


def effective_size(table: Table, piece: Piece) -> int:
    """A piece's Effective Size: its Size plus the Sizes of the pieces it stands on (§7.1.2)."""
    return table.stack_size(piece.id)


def blocking(table: Table, piece: Piece) -> bool:
    """Blocking Terrain: Effective Size ≥ 1, unless a trait says otherwise (§7.1)."""
    if piece.has("no_sight_block"):
        return False
    if piece.has("blocks_sight"):
        return True
    return effective_size(table, piece) >= 1
