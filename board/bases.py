"""Model bases: round (a circle) and oval (an ellipse), placed at a point.

A base is a convex shape centred on its model's position. Everything tapeline measures between
bases reduces to the shape's **support function** ``h(θ)`` — how far the outline reaches from
the centre in direction ``θ`` — which is analytic for both shapes:

* round, radius ``r``:            ``h(θ) = r``
* oval, semi-axes ``a ≥ b`` along ``φ``: ``h(θ) = sqrt(a² cos²(θ−φ) + b² sin²(θ−φ))``

>>> b = RoundBase(32)
>>> round(b.radius, 6)
0.629921
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Union

import numpy as np
import shapely

from .arrays import Floats
from .errors import GeometryError
from .units import mm_to_in

#: Vertices of the inscribed polygon used for an oval in shapely operations. The chord error
#: of an ellipse sampled every ``dt`` of its parameter is at most ``a·dt²/8``: with 2048
#: vertices and ``a ≤ 6"`` that is below 1e-5", ten times finer than the stated 1e-4".
OVAL_VERTICES = 2048
#: Segments per quarter circle when a round base must be a polygon (shapely work only; round
#: measurements are analytic). Inscribed error ``r(1 − cos(π/4k))``: 7.5e-6" for r = 1.6", k = 256.
ROUND_QUAD_SEGS = 256


@dataclass(frozen=True)
class RoundBase:
    """A round base, ``diameter_mm`` as printed (32, 40, 50, 80 ...)."""

    diameter_mm: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.diameter_mm) and self.diameter_mm > 0):
            raise GeometryError(f"base diameter must be a positive number of mm, not {self.diameter_mm}")

    @property
    def radius(self) -> float:
        return mm_to_in(self.diameter_mm) / 2

    @property
    def reach(self) -> float:
        """Largest distance from the centre to the outline (inches)."""
        return self.radius

    def support(self, theta: Floats) -> Floats:
        """Support function about the centre, for directions ``theta`` (radians)."""
        return np.full(np.shape(theta), self.radius)

    def outline(self, x: float, y: float, n: int = 4 * ROUND_QUAD_SEGS) -> Floats:
        t = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
        return np.column_stack([x + self.radius * np.cos(t), y + self.radius * np.sin(t)])

    def polygon(self, x: float, y: float) -> shapely.Polygon:
        """An inscribed polygon of the base at ``(x, y)`` (for shapely work)."""
        return shapely.Polygon(self.outline(x, y))

    def describe(self) -> str:
        return f"{self.diameter_mm:g} mm"


@dataclass(frozen=True)
class OvalBase:
    """An oval base: ``length_mm × width_mm``, the length along ``facing`` degrees (CCW from +x)."""

    length_mm: float
    width_mm: float
    facing: float = 0.0

    def __post_init__(self) -> None:
        for v in (self.length_mm, self.width_mm, self.facing):
            if not math.isfinite(v):
                raise GeometryError("oval base dimensions and facing must be finite")
        if self.length_mm <= 0 or self.width_mm <= 0:
            raise GeometryError("oval base length and width must be positive")

    @property
    def a(self) -> float:
        """Semi-axis along the facing (inches)."""
        return mm_to_in(self.length_mm) / 2

    @property
    def b(self) -> float:
        """Semi-axis across the facing (inches)."""
        return mm_to_in(self.width_mm) / 2

    @property
    def phi(self) -> float:
        return math.radians(self.facing)

    @property
    def reach(self) -> float:
        return max(self.a, self.b)

    def support(self, theta: Floats) -> Floats:
        c = np.cos(np.asarray(theta) - self.phi)
        s = np.sin(np.asarray(theta) - self.phi)
        return np.sqrt((self.a * c) ** 2 + (self.b * s) ** 2)

    def outline(self, x: float, y: float, n: int = OVAL_VERTICES) -> Floats:
        t = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
        u, v = self.a * np.cos(t), self.b * np.sin(t)
        cp, sp = math.cos(self.phi), math.sin(self.phi)
        return np.column_stack([x + u * cp - v * sp, y + u * sp + v * cp])

    def polygon(self, x: float, y: float) -> shapely.Polygon:
        return shapely.Polygon(self.outline(x, y))

    def describe(self) -> str:
        return f"{self.length_mm:g}x{self.width_mm:g} mm oval facing {self.facing:g}°"


Base = Union[RoundBase, OvalBase]


@dataclass(frozen=True)
class PointShape:
    """A point as a degenerate base (support 0): lets "distance to a point" reuse base code."""

    @property
    def reach(self) -> float:
        return 0.0

    def support(self, theta: Floats) -> Floats:
        return np.zeros(np.shape(theta))

    def polygon(self, x: float, y: float) -> shapely.Point:
        return shapely.Point(x, y)


POINT = PointShape()
