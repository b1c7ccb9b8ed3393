"""SVG heatmaps of a table analysis: one map per panel, over the board, with a colour scale.

Each panel is the board picture of :func:`board.render.render_svg` (terrain, axes, grid,
legend) with one :class:`~board.render.Layer` on top: a square per position of the grid,
coloured by its value (none where the map has no value: the mat shows), the zones' outlines
and, on a reach map, the contours at the charge distances. The panels are laid out one under
the other in one picture, each with its colour scale to the right. Deterministic: the same maps
give the same bytes.

>>> from tapeline.board.table import Table
>>> svg = maps_svg(Table(12, 6), [HeatMap("exposure", [[0.0, 1.0], [None, 0.5]], (3.0, 1.5), 3.0)])
>>> svg.count("<svg") == 2 and "exposure" in svg
True
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Optional, Sequence

import shapely
from shapely.geometry.base import BaseGeometry

from .render import Layer, render_svg, svg_geometry
from .table import Table

#: Colour stops of the scales, low to high: exposure from pale (unseen) to dark red (seen from
#: everywhere); distance from dark blue (near) to yellow (far).
HEAT = ("#fff5d6", "#fdd27a", "#f4913f", "#d9472b", "#8f1616")
DISTANCE = ("#2b1f66", "#2c5d9e", "#2f9487", "#7cc45a", "#f0e442")
#: One colour: a position marked (a hidden spot).
HIDDEN = ("#1d8a4e", "#1d8a4e")
#: Opacity of a position's square over the terrain.
OPACITY = 0.72
#: Width of the colour scale (pixels) and the gap beside a panel.
SCALE_W, SCALE_GAP, SCALE_H = 16.0, 18.0, 200.0



@dataclass(frozen=True)
class HeatMap:
    """One map: ``rows`` of values (row 0 at the bottom, ``None``: no value) on the grid of
    ``step`` whose first cell is centred at ``origin``; the scale runs from ``low`` to ``high``
    (``None``: the values' range) with ``colours`` and ``unit``; ``contours`` outline where the
    value is at most each given number; ``zones`` are outlined."""

    title: str
    rows: Sequence[Sequence[Optional[float]]]
    origin: tuple[float, float]
    step: float
    low: Optional[float] = 0.0
    high: Optional[float] = 1.0
    colours: Sequence[str] = HEAT
    unit: str = ""
    percent: bool = True
    contours: Sequence[float] = ()
    zones: Sequence[BaseGeometry] = field(default_factory=tuple)

    def bounds(self) -> tuple[float, float]:
        vals = [v for row in self.rows for v in row if v is not None]
        lo = self.low if self.low is not None else (min(vals) if vals else 0.0)
        hi = self.high if self.high is not None else (max(vals) if vals else 1.0)
        return lo, hi if hi > lo else lo + 1.0


def colour(t: float, stops: Sequence[str]) -> str:
    """The colour at ``t`` in [0, 1] along ``stops`` (linear between neighbours)."""
    t = min(max(t, 0.0), 1.0) * (len(stops) - 1)
    i = min(int(t), len(stops) - 2)
    f = t - i
    a, b = stops[i], stops[i + 1]
    rgb = [round(int(a[k:k + 2], 16) * (1 - f) + int(b[k:k + 2], 16) * f) for k in (1, 3, 5)]
    return "#" + "".join(f"{c:02x}" for c in rgb)


def _n(v: float) -> str:
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def heat_layer(m: HeatMap, data: bool = False) -> Layer:
    """The map's squares, zone outlines and contours as a layer in board coordinates
    (``data``: each square also carries its grid cell and value, ``data-cell="COLUMN,ROW"``
    and ``data-value``, for a page that reads them; the picture of ``maps_svg`` has none).

    >>> heat_layer(HeatMap("e", [[0.25, None]], (0.5, 0.5), 1.0), data=True).elements[0]
    '<rect x="0" y="0" width="1" height="1" fill="#fdd27a" fill-opacity="0.72" data-cell="0,0" data-value="0.25"/>'
    """
    lo, hi = m.bounds()
    half = m.step / 2
    out = []
    for j, row in enumerate(m.rows):
        y = m.origin[1] + j * m.step
        for i, v in enumerate(row):
            if v is None:
                continue
            x = m.origin[0] + i * m.step
            c = colour((v - lo) / (hi - lo), m.colours)
            cell = f' data-cell="{i},{j}" data-value="{float(v)!r}"' if data else ""
            out.append(f'<rect x="{_n(x - half)}" y="{_n(y - half)}" width="{_n(m.step)}" height="{_n(m.step)}" '
                       f'fill="{c}" fill-opacity="{OPACITY}"{cell}/>')
    for d in m.contours:
        cells = [shapely.box(m.origin[0] + i * m.step - half, m.origin[1] + j * m.step - half,
                             m.origin[0] + i * m.step + half, m.origin[1] + j * m.step + half)
                 for j, row in enumerate(m.rows) for i, v in enumerate(row) if v is not None and v <= d + 1e-9]
        if cells:
            out.append(svg_geometry(shapely.union_all(cells).boundary, "reach-contour"))
    out += [svg_geometry(z.boundary, "zone") for z in m.zones]
    legend = {"reach-contour": "charge distances " + ", ".join(f'{d:g}"' for d in m.contours)} if m.contours else {}
    return Layer(m.title, out, legend)


_ROOT = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ([0-9.]+) ([0-9.]+)" width="[0-9.]+" height="[0-9.]+">')


def _scale(m: HeatMap, x: float, y: float) -> list[str]:
    """The colour scale of ``m`` at screen point ``(x, y)`` (top-left): a bar and its labels."""
    lo, hi = m.bounds()
    steps = 40
    out = [f'<g class="scale" data-map="{html.escape(m.title)}">']
    for k in range(steps):
        t = 1 - (k + 0.5) / steps
        out.append(f'<rect x="{_n(x)}" y="{_n(y + k * SCALE_H / steps)}" width="{_n(SCALE_W)}" height="{_n(SCALE_H / steps + 0.3)}" '
                   f'fill="{colour(t, m.colours)}"/>')
    out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(SCALE_W)}" height="{_n(SCALE_H)}" fill="none" stroke="#333" stroke-width="0.8"/>')
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        text = f"{100 * v:.0f}%" if m.percent else f"{v:.1f}{m.unit}"
        ty = y + SCALE_H * (1 - k / 4)
        out.append(f'<text class="axis" x="{_n(x + SCALE_W + 4)}" y="{_n(ty + 3.5)}">{text}</text>')
    out.append("</g>")
    return out


def maps_svg(table: Table, maps: Sequence[HeatMap], title: Optional[str] = None, fill_by: str = "size") -> str:
    """One picture: a panel per map, one under the other, each with its scale (terrain shaded
    by ``fill_by``, as :func:`board.render.render_svg`)."""
    panels, width, height = [], 0.0, 0.0
    for m in maps:
        svg = render_svg(table, [], [heat_layer(m)], title=m.title, fill_by=fill_by)
        root = _ROOT.match(svg)
        assert root is not None  # (render_svg's own first line)
        w, h = float(root.group(1)), float(root.group(2))
        inner = svg[root.end():svg.rindex("</svg>")]
        panels.append(f'<svg x="0" y="{_n(height)}" width="{_n(w)}" height="{_n(h)}" viewBox="0 0 {_n(w)} {_n(h)}">{inner}</svg>')
        panels += _scale(m, w + SCALE_GAP - 12, height + 50)
        width, height = max(width, w + SCALE_GAP + SCALE_W + 40), height + h
    head = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {_n(height)}" width="{_n(width)}" height="{_n(height)}">'
    style = "<style>text { font-family: DejaVu Sans, Verdana, Arial, sans-serif; } .axis { font-size: 10px; fill: #444; }</style>"
    parts = [head, style, f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="#ffffff"/>']
    if title:
        parts.append(f"<title>{html.escape(title, quote=False)}</title>")
    return "\n".join(parts + panels + ["</svg>"]) + "\n"

