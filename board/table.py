"""The table and the models on it.

:class:`Table` is the static part: its size and its terrain. :class:`Figure` is one model as
geometry: where its base is, which base, what it stands on, how tall it is, which unit and side
it belongs to. Both are immutable values; moving a model makes a new :class:`Figure`.

>>> from tapeline.board.bases import RoundBase
>>> t = Table(54, 36)
>>> m = Figure("m1", unit="marines", side="terran", base=RoundBase(32), x=10, y=12)
>>> t.on_table(m)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Iterable, Optional

import numpy as np
import shapely

from .bases import Base, RoundBase
from .terrain import Piece
from .units import TOUCH

if TYPE_CHECKING:  # (board/levels.py imports this module: the name for annotations only)
    from .levels import Levels

_AXES = np.array([0.0, 0.5 * np.pi, np.pi, 1.5 * np.pi])  # +x, +y, -x, -y

#: :class:`LevelsCache`'s bound: the sets of surfaces whose levels a table keeps.
LEVELS_KEPT = 16


@dataclass(frozen=True)
class Figure:
    """One model's geometry on the table."""

    id: str
    unit: str
    side: str
    base: Base
    x: float
    y: float
    on: Optional[str] = None
    height: Optional[float] = None

    @property
    def at(self) -> tuple[float, float]:
        return (self.x, self.y)

    def moved(self, x: float, y: float, on: Optional[str] = None) -> "Figure":
        return replace(self, x=float(x), y=float(y), on=on)

    @cached_property
    def polygon(self) -> shapely.Polygon:
        return self.base.polygon(self.x, self.y)

    @property
    def is_round(self) -> bool:
        return isinstance(self.base, RoundBase)


class LevelsCache:
    """The :class:`board.levels.Levels` made for one table, kept with it (:attr:`Table.levels`):
    a file's check builds the table's levels once, and every move's question then finds them
    (:func:`board.levels.levels_of`).

    Bound: the levels of at most :data:`LEVELS_KEPT` sets of surfaces (a rule asks for the
    table's own and, in StarCraft, one set per stack of pieces a mover stands on), and as many
    answers of :func:`board.levels.surface_ids`; beyond that, levels are built and not kept.
    Safe to share between threads, without a lock: two threads asking at once may each build
    the same levels (equal values; the first kept is the one found from then on), and threads
    racing may each keep one entry beyond the bound.
    """

    def __init__(self) -> None:
        self._levels: dict[frozenset[str], Levels] = {}
        self._surfaces: dict[frozenset[str], frozenset[str]] = {}

    def levels(self, surfaces: frozenset[str]) -> Optional[Levels]:
        """The levels kept for this set of surfaces, if any."""
        return self._levels.get(surfaces)

    def keep_levels(self, surfaces: frozenset[str], levels: Levels) -> None:
        """Keep ``levels`` for ``surfaces`` (unless some are kept already, or it is full)."""
        if len(self._levels) < LEVELS_KEPT:
            self._levels.setdefault(surfaces, levels)

    def surfaces(self, extra: frozenset[str]) -> Optional[frozenset[str]]:
        """The surfaces :func:`board.levels.surface_ids` gave for ``extra``, if kept."""
        return self._surfaces.get(extra)

    def keep_surfaces(self, extra: frozenset[str], surfaces: frozenset[str]) -> None:
        if len(self._surfaces) < LEVELS_KEPT:
            self._surfaces.setdefault(extra, surfaces)


@dataclass(frozen=True)
class Table:
    """A ``width × height`` inch table, origin bottom-left, y up, with its terrain pieces."""

    width: float
    height: float
    pieces: tuple[Piece, ...] = field(default_factory=tuple)
    #: The levels made for this table (:class:`LevelsCache`): not part of its value, and new for
    #: every table (``dataclasses.replace`` included).
    levels: LevelsCache = field(default_factory=LevelsCache, init=False, compare=False, repr=False)

    @cached_property
    def by_id(self) -> dict[str, Piece]:
        return {p.id: p for p in self.pieces}

    def piece(self, id: str) -> Piece:
        return self.by_id[id]

    @cached_property
    def outline(self) -> shapely.Polygon:
        return shapely.box(0, 0, self.width, self.height)

    @cached_property
    def tree(self) -> shapely.STRtree:
        """Spatial index over the footprints, in the order of :attr:`pieces`."""
        return shapely.STRtree([p.footprint for p in self.pieces])

    def stack(self, piece_id: Optional[str]) -> list[Piece]:
        """The pieces from ``piece_id`` down to the ground (``on`` chain), top first."""
        out: list[Piece] = []
        seen: set[str] = set()
        while piece_id is not None and piece_id not in seen:
            seen.add(piece_id)
            p = self.by_id[piece_id]
            out.append(p)
            piece_id = p.on
        return out

    def stack_size(self, piece_id: Optional[str]) -> int:
        """Sum of the Size classes of the stack under (and including) ``piece_id``."""
        return sum(p.size for p in self.stack(piece_id))

    def stack_height(self, piece_id: Optional[str]) -> float:
        """Sum of the physical heights of the stack under (and including) ``piece_id``."""
        return sum(p.height for p in self.stack(piece_id))

    def edge_margin(self, fig: Figure) -> float:
        """How far the base stays inside the table (negative: how far it hangs off)."""
        h = fig.base.support(_AXES)
        return float(min(fig.x - h[2], fig.y - h[3], self.width - fig.x - h[0], self.height - fig.y - h[1]))

    def on_table(self, fig: Figure) -> bool:
        return self.edge_margin(fig) >= -TOUCH

    def pieces_hit(self, geom: shapely.Geometry) -> list[Piece]:
        """Pieces whose footprint interior meets ``geom`` (STRtree query)."""
        idx = self.tree.query(geom, predicate="intersects")
        return [self.pieces[i] for i in sorted(idx)]


def figures_by_id(figs: Iterable[Figure]) -> dict[str, Figure]:
    return {f.id: f for f in figs}
