"""Terrain traits drawn on a piece: how a picture shaded by height shows what else a piece does.

A piece's traits are flags of the file (``difficult``, ``dangerous``, ``impassable``,
``blocks_sight``, ``cover``, ``no_sight_block``); the renderer does not know what they mean in
any game, it marks each one the same way on every board: a pattern clipped to the footprint
(:func:`marks`, geometry the renderer draws) and a legend swatch (:data:`MARKS`). Grass keeps its own green hatching
(:mod:`board.render`).

>>> import shapely
>>> [m.trait for m in MARKS][:2]
['impassable', 'blocks_sight']
>>> [(cls, g.geom_type) for cls, g in marks(shapely.box(0, 0, 2, 2), frozenset({"difficult"}))]
[('trait-difficult', 'MultiPoint')]
"""

from __future__ import annotations

from dataclasses import dataclass

import shapely
from shapely.geometry.base import BaseGeometry

from .errors import GeometryError

#: Pattern spacing, inches.
STEP = 0.6


@dataclass(frozen=True)
class Mark:
    """How one trait is marked: ``pattern`` ``dots``, ``hatch`` (one way), ``cross`` (both
    ways) or ``outline`` (a heavy inner outline); its CSS and legend text."""

    trait: str
    pattern: str
    css: str
    legend: str

    @property
    def cls(self) -> str:
        return f"trait-{self.trait}"

    def swatch(self, x: str, y: str) -> str:
        """The legend sample at ``(x, y)`` (a 14 × 10 px box's top-left; SVG numbers as text)."""
        box = f'<rect x="{x}" y="{y}" width="14" height="10" fill="#eceae2" stroke="#333" stroke-width="0.6"/>'
        g = f'<g transform="translate({x} {y})">'
        if self.pattern == "dots":
            inner = "".join(f'<circle class="{self.cls}" cx="{cx}" cy="{cy}" r="1.2"/>' for cx, cy in ((4, 3), (10, 3), (7, 7)))
        elif self.pattern == "outline":
            inner = f'<rect class="{self.cls}" x="1.5" y="1.5" width="11" height="7" style="stroke-width:2"/>'
        else:
            d = "M0 10 L10 0 M4 10 L14 0" + (" M0 0 L10 10 M4 0 L14 10" if self.pattern == "cross" else "")
            inner = f'<path class="{self.cls}" d="{d}" style="stroke-width:1.2"/>'
        return box + g + inner + "</g>"


#: The marked traits, in legend order.
MARKS = (
    Mark("impassable", "cross", "fill: none; stroke: #222; stroke-width: 0.05;", "impassable"),
    Mark("blocks_sight", "outline", "fill: none; stroke: #111; stroke-width: 0.16;", "blocks sight"),
    Mark("difficult", "dots", "fill: #5a4a2a; stroke: none;", "difficult"),
    Mark("dangerous", "hatch", "fill: none; stroke: #b3261e; stroke-width: 0.05;", "dangerous"),
    Mark("cover", "outline", "fill: none; stroke: #5a4a2a; stroke-width: 0.08; stroke-dasharray: 0.3 0.15;", "cover"),
)
BY_TRAIT = {m.trait: m for m in MARKS}


def css() -> str:
    """The CSS rules of every mark."""
    return "\n".join(f".{m.cls} {{ {m.css} }}" for m in MARKS)


def marks(footprint: shapely.Polygon, traits: frozenset[str]) -> list[tuple[str, BaseGeometry]]:
    """What marks ``traits`` on ``footprint`` (board inches), in :data:`MARKS` order: each
    mark's CSS class and its geometry (points are dots, lines strokes)."""
    out: list[tuple[str, BaseGeometry]] = []
    for m in MARKS:
        if m.trait not in traits:
            continue
        if m.pattern == "dots":
            out.append((m.cls, _dots(footprint)))
        elif m.pattern == "outline":
            inner = footprint.buffer(-0.12)
            out.append((m.cls, (inner if isinstance(inner, shapely.Polygon) and not inner.is_empty else footprint).exterior))
        else:
            out.append((m.cls, _lines(footprint, 1.0)))
            if m.pattern == "cross":
                out.append((m.cls, _lines(footprint, -1.0)))
    return [(c, g) for c, g in out if not g.is_empty]


def _dots(poly: shapely.Polygon) -> shapely.MultiPoint:
    x0, y0, x1, y1 = poly.bounds
    nx, ny = int((x1 - x0) / STEP) + 1, int((y1 - y0) / STEP) + 1
    if nx * ny > 20_000:
        raise GeometryError("a terrain piece too large to mark with dots")
    pts = [shapely.Point(x0 + STEP / 2 + i * STEP + (STEP / 2 if j % 2 else 0), y0 + STEP / 2 + j * STEP)
           for j in range(ny) for i in range(nx)]
    core = poly.buffer(-0.1)
    inside = [p for p in pts if core.contains(p)]
    return shapely.MultiPoint(inside)


def _lines(poly: shapely.Polygon, slope: float) -> shapely.MultiLineString:
    """Parallel strokes of slope ±1 clipped to ``poly``."""
    x0, y0, x1, y1 = poly.bounds
    span = (x1 - x0) + (y1 - y0)
    n = int(span / STEP) + 2
    if slope > 0:
        lines = [shapely.LineString([(x0 - (y1 - y0) + STEP * i, y0), (x0 + STEP * i, y1)]) for i in range(n)]
    else:
        lines = [shapely.LineString([(x0 + STEP * i, y0), (x0 - (y1 - y0) + STEP * i, y1)]) for i in range(n)]
    cut = shapely.get_parts(shapely.intersection(shapely.MultiLineString(lines), poly))
    return shapely.MultiLineString([g for g in cut if isinstance(g, shapely.LineString) and g.length > 1e-6])
