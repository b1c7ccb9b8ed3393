"""Zones of the table: deployment zones and objectives (the file's ``zones:``,
docs/scenario-format.md "Zones").

A zone is a footprint — a rect, a polygon or a circle, built exactly as a terrain piece's
(:func:`scenarios.load.footprint_piece`) — that belongs to a side. Zones block nothing and
cost nothing to cross: they say where a side deploys, and ``tapeline analyse`` maps the table
from them (docs/analysis.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from tapeline.board.table import Table
from tapeline.board.terrain import Piece


@dataclass(frozen=True)
class Zone:
    """One zone: its id, the side it belongs to and its shape (a :class:`Piece` with no facts:
    ``footprint``, and ``circle`` for a round one)."""

    id: str
    side: str
    shape: Piece

    def as_json(self) -> dict[str, object]:
        return {"id": self.id, "side": self.side, "bounds": [round(v, 6) for v in self.shape.footprint.bounds]}


def off_table_by(shape: Piece, table: Table) -> float:
    """How far the shape reaches past the table's edge (0 or less: on the table). A round
    shape is measured as its circle, not its circumscribed polygon."""
    if shape.circle is not None:
        x, y, r = shape.circle
        x0, y0, x1, y1 = x - r, y - r, x + r, y + r
    else:
        x0, y0, x1, y1 = shape.footprint.bounds
    return max(-x0, -y0, x1 - table.width, y1 - table.height)
