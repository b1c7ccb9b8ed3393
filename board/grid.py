"""A grid of positions over the table, for maps of it (docs/analysis.md).

Cell ``(column, row)`` has its centre at ``origin + step·(column, row)``, the origin being the
centre of the first cell, ``(step/2, step/2)``; row 0 is at the bottom of the table (y = 0), as
every coordinate of the format. Only whole cells inside the table are kept: ``columns =
floor(width / step)``, ``rows = floor(height / step)``. A position is a probe model's centre.

>>> g = Grid(54, 36, 1.0)
>>> g.shape, g.origin, g.centres()[55].tolist()
((54, 36), (0.5, 0.5), [1.5, 1.5])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np
import shapely

from .arrays import Bools, Floats
from .terrain import Piece
from .units import TOUCH

#: Slack on the division of the table by the step (a 36" table at 0.1" has 360 rows).
_SLACK = 1e-9


@dataclass(frozen=True)
class Grid:
    """Positions every ``step`` inches over a ``width`` × ``height`` table."""

    width: float
    height: float
    step: float

    @property
    def columns(self) -> int:
        return int(math.floor(self.width / self.step + _SLACK))

    @property
    def rows(self) -> int:
        return int(math.floor(self.height / self.step + _SLACK))

    @property
    def shape(self) -> tuple[int, int]:
        """``(columns, rows)``."""
        return self.columns, self.rows

    @property
    def origin(self) -> tuple[float, float]:
        """The centre of the first cell (column 0, row 0)."""
        return self.step / 2, self.step / 2

    def centres(self) -> Floats:
        """Every cell's centre, ``(rows · columns, 2)``, row by row from the bottom: cell
        ``(column, row)`` is entry ``row · columns + column``."""
        x = self.origin[0] + self.step * np.arange(self.columns)
        y = self.origin[1] + self.step * np.arange(self.rows)
        xx, yy = np.meshgrid(x, y)
        return np.column_stack([xx.ravel(), yy.ravel()])

    def rows_of(self, values: Floats, digits: int = 6) -> list[list[Optional[float]]]:
        """A value per cell as rows from the bottom, rounded to ``digits``; ``nan`` becomes
        ``None`` (a position not computed) and ``inf`` too (none reached)."""
        v = np.asarray(values, dtype=float).reshape(self.rows, self.columns)
        return [[None if not math.isfinite(x) else round(x, digits) for x in row] for row in v.tolist()]


def within_table(centres: Floats, radius: float, width: float, height: float) -> Bools:
    """Which round bases of ``radius`` centred at ``centres`` lie on the table (to 1e-6")."""
    x, y = centres[:, 0], centres[:, 1]
    ok: Bools = (x - radius >= -TOUCH) & (y - radius >= -TOUCH) & (x + radius <= width + TOUCH) & (y + radius <= height + TOUCH)
    return ok


def overlapping(centres: Floats, radius: float, pieces: Sequence[Piece]) -> Bools:
    """``[cell, piece]``: a round base of ``radius`` at the cell overlaps the piece's footprint
    (by more than 1e-6": touching is not overlapping); a round piece as its exact circle."""
    out: Bools = np.zeros((len(centres), len(pieces)), bool)
    if not len(pieces) or not len(centres):
        return out
    pts = np.asarray(shapely.points(centres))
    for j, p in enumerate(pieces):
        if p.circle is not None:
            x, y, r = p.circle
            d = np.hypot(centres[:, 0] - x, centres[:, 1] - y) - r
        else:
            d = shapely.distance(pts, p.footprint)
        out[:, j] = d < radius - TOUCH
    return out


def covered(centres: Floats, area: shapely.Geometry) -> Bools:
    """Which centres lie in ``area`` (its boundary included)."""
    out: Bools = np.asarray(shapely.covers(area, shapely.points(centres)), dtype=bool)
    return out
