"""Terrain pieces: a footprint seen from above, a Size class, a height, traits, stacking.

The board knows nothing of any game's rules: what a Size or a trait *means* (does it block
sight, can it be crossed) is decided in :mod:`rules`. Here a piece is only its geometry and the
facts printed on it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Iterable, Optional, Sequence, TypedDict, Unpack, cast

import numpy as np
import shapely

from .arrays import Floats
from .errors import GeometryError

#: Segments per quarter turn when a circular footprint must be a polygon for shapely. The
#: polygon is *circumscribed* (its edges touch the circle from outside), so a sight line clear
#: of the polygon is clear of the real piece; the error is ``r(1/cos(π/4k) − 1)`` ≈ 2e-6" for
#: r = 6", k = 512.
CIRCLE_QUAD_SEGS = 512

TRAITS = frozenset(
    {
        "impassable",
        "passable",
        "blocks_sight",
        "no_sight_block",
        "standable",
        "grass",
        "difficult",
        "dangerous",
        "cover",
        "access_point",
    }
)


def circle_polygon(x: float, y: float, r: float, quad_segs: int = CIRCLE_QUAD_SEGS) -> shapely.Polygon:
    """A polygon circumscribing the circle ``(x, y, r)``: vertex i at
    ``x + r * grow * cos(2π (i + ½) / n)`` (and ``sin`` for y), the same floating-point
    operations whether the unit circle is computed anew or taken from the table."""
    n = 4 * quad_segs
    cos, sin, grow = _unit_circle(n)
    pts = np.empty((n, 2))
    pts[:, 0] = x + r * grow * cos
    pts[:, 1] = y + r * grow * sin
    return cast(shapely.Polygon, shapely.polygons(pts))  # one call for the 2048 vertices


#: :func:`_unit_circle`'s bound: the vertex counts it remembers.
UNIT_CIRCLES_KEPT = 8


@lru_cache(maxsize=UNIT_CIRCLES_KEPT)
def _unit_circle(n: int) -> tuple[Floats, Floats, float]:
    """``cos`` and ``sin`` of the n vertex angles (math's, as every piece had them before) and
    the factor that makes the polygon circumscribe its circle. Remembered for at most
    :data:`UNIT_CIRCLES_KEPT` values of ``n``, ``16·n`` bytes each (32 KB for the usual 2048
    vertices), the least recently used forgotten first; safe from several threads
    (``functools.lru_cache`` keeps itself consistent, and the arrays every caller shares are
    read-only)."""
    angles = [2 * math.pi * (i + 0.5) / n for i in range(n)]
    cos, sin = np.array([math.cos(a) for a in angles]), np.array([math.sin(a) for a in angles])
    cos.flags.writeable = sin.flags.writeable = False
    return cos, sin, 1.0 / math.cos(math.pi / n)


@dataclass(frozen=True)
class Join:
    """An Access Point's join, as the file states it: it joins level ``a`` to level ``b``
    (piece ids; ``None`` is the ground) along ``at`` — a polyline lying on the edge between
    the two levels — or, without ``at``, wherever that edge lies within the Access Point's
    footprint (:mod:`board.levels`)."""

    a: Optional[str]
    b: Optional[str]
    at: Optional[tuple[tuple[float, float], ...]] = None


class PieceFacts(TypedDict, total=False):
    """The facts of a :class:`Piece` other than its footprint, as :meth:`Piece.rect`,
    :meth:`Piece.disc` and :meth:`Piece.poly` take them."""

    size: int
    height: float
    on: Optional[str]
    traits: frozenset[str]
    joins: tuple[Join, ...]


@dataclass(frozen=True)
class Piece:
    """One terrain piece.

    ``footprint`` is a shapely Polygon; ``circle`` keeps ``(x, y, r)`` when the footprint is
    round, so geometry that can be exact for circles (tangents, distances) uses it.
    """

    id: str
    footprint: shapely.Polygon
    size: int = 0
    height: float = 0.0
    on: Optional[str] = None
    traits: frozenset[str] = field(default_factory=frozenset)
    circle: Optional[tuple[float, float, float]] = None
    #: Where this Access Point joins two levels (:class:`Join`); empty: as its footprint
    #: touches them (:func:`board.levels.inferred_joins`).
    joins: tuple[Join, ...] = ()

    @staticmethod
    def rect(id: str, x: float, y: float, w: float, h: float, **kw: Unpack[PieceFacts]) -> "Piece":
        if not (w > 0 and h > 0):
            raise GeometryError(f"terrain {id}: rect width and height must be positive")
        return Piece(id, shapely.box(x, y, x + w, y + h), **kw)

    @staticmethod
    def disc(id: str, x: float, y: float, r: float, **kw: Unpack[PieceFacts]) -> "Piece":
        if not r > 0:
            raise GeometryError(f"terrain {id}: circle radius must be positive")
        return Piece(id, circle_polygon(x, y, r), circle=(x, y, r), **kw)

    @staticmethod
    def poly(id: str, points: Iterable[Sequence[float]], **kw: Unpack[PieceFacts]) -> "Piece":
        return Piece(id, polygon_checked(id, points), **kw)

    def has(self, trait: str) -> bool:
        return trait in self.traits

    @cached_property
    def circle_bounds(self) -> tuple[float, float]:
        """A round piece: the radii of the circles about its centre inside and around its
        polygon (for :func:`circle_polygon`'s 2048 corners, a millionth of the radius apart) —
        what a test with the polygon can be bounded by before it is made."""
        assert self.circle is not None, "circle bounds are a round piece's"
        x, y, _ = self.circle
        xy = shapely.get_coordinates(self.footprint.exterior)
        return float(shapely.distance(shapely.Point(x, y), self.footprint.exterior)), float(np.hypot(xy[:, 0] - x, xy[:, 1] - y).max())


def polygon_checked(id: str, points: Iterable[Sequence[float]]) -> shapely.Polygon:
    """A simple polygon from ``points`` or a :class:`GeometryError` saying what is wrong."""
    pts = [tuple(map(float, p)) for p in points]
    if len(pts) < 3:
        raise GeometryError(f"terrain {id}: a polygon needs at least 3 vertices")
    poly = shapely.Polygon(pts)
    if not poly.is_valid:
        reason = shapely.is_valid_reason(poly)
        raise GeometryError(f"terrain {id}: polygon is not simple ({reason})")
    if poly.area <= 1e-9:
        raise GeometryError(f"terrain {id}: polygon is degenerate (zero area)")
    return poly
