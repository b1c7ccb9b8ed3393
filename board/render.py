"""SVG pictures of the table: terrain, bases, leaders, and overlays that plug in as layers.

The picture is drawn in **board coordinates** — inches, origin bottom-left, y up — inside one
group whose transform flips y and scales inches to pixels, so everything a caller adds (a sight
line, a path, a template) is given in the same coordinates the engine measures in. Text is kept
upright: a label is positioned in board coordinates and un-flipped locally.

>>> from tapeline.board.bases import RoundBase
>>> from tapeline.board.table import Figure, Table
>>> svg = render_svg(Table(24, 24), [Figure("m1", "marines", "terran", RoundBase(32), 6, 12)])
>>> svg.startswith("<svg") and 'viewBox="0 0' in svg
True

Overlays are :class:`Layer` objects holding SVG snippets made by the helpers below
(:func:`svg_polyline`, :func:`svg_geometry`, :func:`svg_circle`, :func:`svg_label`), styled by
overlay classes (:data:`STYLES`): ``witness`` (green), ``blocker`` (red), ``path`` (cyan),
``goal`` (translucent yellow), ``end-base`` (dashed cyan outline), ``template`` (translucent
orange), ``violation`` (magenta), ``ranks``, ``firing``, ``target``, ``moved`` and
``casualty``. Every overlay class a picture uses gets a legend entry; a new kind of overlay
registers its class with :func:`register_style` (its CSS, its legend text and swatch), and a
class nobody registered still gets an entry under its own name. Overlay colours are kept far
from every side colour (CIE ΔE ≥ 25), so a highlight never reads as a model's army.

Labels are placed by the picture (:mod:`board.labels`): an overlay asks for a :class:`Label` in
its layer, the terrain labels its pieces, and each label goes beside what it names, clear of
every base and every other label, off the terrain where there is room, led back by a thin line
when it had to move. The output is deterministic: the same input gives the same bytes.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Optional, Protocol, Sequence, Union, cast

import shapely
from shapely.geometry.base import BaseGeometry

from .bases import OvalBase
from .errors import GeometryError
from .levels import levels_of
from .table import Figure, Table
from .terrain import Piece
from . import trait_marks
from .labels import LINE, Placer, Spot, text_box

#: Pixels per inch of the picture (the ``viewBox`` is in pixels; the SVG scales freely).
PX = 20.0
#: The legend's least width (pixels): a cropped picture is at least this wide.
LEGEND_MIN_WIDTH = 520.0
#: How terrain may be shaded: by StarCraft Size class, or by height with traits marked.
FILLS = ("size", "height")
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 48.0, 24.0, 44.0, 40.0

SIZE_COLOURS = ("#ece5cf", "#d8c291", "#b39463", "#876a43", "#66502f", "#4a3921")
#: Height shading: a top surface of height h falls in the first bin whose upper edge is >= h.
HEIGHT_EDGES = (0.0, 1.0, 2.0, 3.0, 4.0, 6.0)
HEIGHT_COLOURS = ("#eceae2", "#d6dde0", "#b7c4ca", "#93a8b3", "#6f8897", "#506a79", "#34495a")
GRASS = "#8fbf6a"
KNOWN_SIDES = {"terran": "#2f66c4", "zerg": "#8a3cab", "protoss": "#a87b16"}
#: colours for other sides, in order of appearance: muted hues kept apart from every overlay colour
PALETTE = ("#7a4a2a", "#1c6e73", "#5d6b2f", "#3d4a5c", "#8c8c8c", "#a2506e")
LEADER = "#f2b705"

CSS = """
text { font-family: DejaVu Sans, Verdana, Arial, sans-serif; }
.title { font-size: 16px; font-weight: bold; fill: #222; }
.axis { font-size: 10px; fill: #444; }
.legend { font-size: 11px; fill: #222; }
.mat { fill: #f3f2ea; }
.edge { fill: none; stroke: #333; stroke-width: 0.08; }
.scale { fill: none; stroke: #222; stroke-width: 2; }
.view-edge { fill: none; stroke: #333; stroke-width: 1; stroke-dasharray: 4 3; }
.grid { fill: none; stroke: #000; stroke-opacity: 0.09; stroke-width: 0.015; }
.grid6 { fill: none; stroke: #000; stroke-opacity: 0.28; stroke-width: 0.035; }
.terrain { stroke: #3b2f20; stroke-width: 0.05; }
.terrain.grass { stroke: #4d7a31; }
.terrain.access { stroke: #c08a00; stroke-width: 0.07; stroke-dasharray: 0.25 0.15; }
.door { fill: none; stroke: #f2b705; stroke-width: 0.22; stroke-linecap: butt; }
.hatch { fill: none; stroke: #4d7a31; stroke-width: 0.04; }
.model { stroke: #111; stroke-width: 0.04; fill-opacity: 0.9; }
.leader { fill: none; stroke: #f2b705; stroke-width: 0.12; }
.label { font-size: 11px; text-anchor: middle; fill: #1b1b1b; stroke: #fff; stroke-width: 3px;
         stroke-linejoin: round; paint-order: stroke; }
.label.tlabel { font-size: 11px; font-weight: bold; }
.label.mlabel { fill: #fff; stroke: #000; stroke-width: 2px; font-size: 8px; }
""".strip()


@dataclass(frozen=True)
class Style:
    """An overlay class: how it is drawn and how the legend names it.

    ``colour`` is its main colour (line or outline), ``fill`` its area colour if it has one,
    ``swatch`` the legend's sample: ``line``, ``dashed``, ``area``, ``ring`` or ``cross``;
    ``text`` its label colour (dark enough to read on the mat); ``css`` extra declarations.
    """

    cls: str
    legend: str
    colour: str
    swatch: str = "line"
    fill: Optional[str] = None
    text: str = "#222222"
    css: str = ""

    def rules(self) -> str:
        """The CSS rules of the class and of its labels."""
        c = _text(self.cls)
        if self.swatch == "area":
            body = f"fill: {self.fill or self.colour}; fill-opacity: 0.35; stroke: {self.colour}; stroke-width: 0.06;"
        elif self.swatch == "ring":
            body = f"fill: none; stroke: {self.colour}; stroke-width: 0.12;"
        elif self.swatch == "dashed":
            body = f"fill: none; stroke: {self.colour}; stroke-width: 0.06; stroke-dasharray: 0.15 0.1;"
        else:
            body = f"fill: none; stroke: {self.colour}; stroke-width: 0.08; stroke-linejoin: round; stroke-linecap: round;"
        return (f".{c} {{ {body} {self.css} }}\n"
                f".label.{c} {{ fill: {self.text}; stroke: #fff; stroke-width: 3px; stroke-opacity: 1; "
                f"fill-opacity: 1; stroke-dasharray: none; }}")

    def swatch_svg(self, x: float, y: float) -> str:
        """The legend sample, 14 × 10 px with its top-left at ``(x, y)`` (screen pixels)."""
        c, f = self.colour, self.fill or self.colour
        if self.swatch == "area":
            return f'<rect x="{_f(x)}" y="{_f(y)}" width="14" height="10" fill="{f}" fill-opacity="0.45" stroke="{c}" stroke-width="1.2"/>'
        if self.swatch == "ring":
            return f'<circle cx="{_f(x + 7)}" cy="{_f(y + 5)}" r="4.5" fill="none" stroke="{c}" stroke-width="2.2"/>'
        if self.swatch == "cross":
            return (f'<path d="M{_f(x + 2)} {_f(y)} l10 10 m0 -10 l-10 10" stroke="{c}" stroke-width="2.2"/>')
        dash = ' stroke-dasharray="3 2"' if self.swatch == "dashed" else ""
        return f'<path d="M{_f(x)} {_f(y + 5)} h14" stroke="{c}" stroke-width="2.4"{dash}/>'


#: Overlay classes by name, in legend order (:func:`register_style` adds more).
STYLES: dict[str, Style] = {}


def register_style(style: Style) -> Style:
    """Add (or replace) an overlay class; pictures that use it get its CSS and legend entry."""
    STYLES[style.cls] = style
    return style


for _s in (
    Style("witness", "sight line (witness)", "#14a03c", text="#0c6e28"),
    Style("blocker", "blocks sight or movement", "#d41c1c", "area", text="#a30d0d"),
    Style("path", "path", "#00b3e6", text="#006a8a"),
    Style("goal", "goal region (legal end spots)", "#e6c200", "area", fill="#ffe14d", text="#5a4300"),
    Style("end-base", "base at the end of the path", "#00b3e6", "dashed", text="#006a8a"),
    Style("template", "template", "#cc5f00", "area", fill="#ff7a00", text="#7a3900"),
    Style("violation", "rule broken here", "#ff00aa", "area", text="#a8005b"),
    Style("ranks", "Fighting Rank", "#ff7a00", "ring", text="#7a3900"),
    Style("support", "Supporting Rank", "#ffe14d", "ring", text="#5a4300"),
    Style("subject", "the models asked about", "#000000", "ring", css="stroke-dasharray: 0.2 0.12;"),
    Style("pair", "centre to centre", "#000000", "dashed"),
    Style("firing", "firing model", "#14a03c", "ring", text="#0c6e28"),
    Style("target", "may be removed (target)", "#ff00aa", "ring", text="#a8005b"),
    Style("moved", "moved (from → to)", "#00b3e6", "dashed", text="#006a8a", css="marker-end: none;"),
    Style("casualty", "removed as a casualty", "#d41c1c", "cross", text="#a30d0d",
          css="stroke-width: 0.1; fill: none;"),
    Style("covered-full", "wholly under the template", "#8a2a00", "area", fill="#d9480f", text="#7a3900",
          css="fill-opacity: 0.6;"),
    Style("covered-part", "partly under the template", "#cc5f00", "area", fill="#ffd699", text="#7a3900",
          css="stroke-dasharray: 0.18 0.1;"),
    Style("excluded", "covered, not affected", "#d41c1c", "ring", text="#a30d0d", css="stroke-dasharray: 0.15 0.1;"),
    Style("target-point", "Target Point", "#000000", "cross", css="stroke-width: 0.07;"),
    Style("leader-line", "leads a label to what it names", "#000000", css="stroke-width: 0.025; stroke-opacity: 0.6;"),
    # the table analysis' maps (board/render_maps.py) and the zones overlay: registered here, so
    # that every picture's style sheet is the same whatever the process imported before
    Style("zone", "zone (deployment)", "#111111", "dashed", css="stroke-width: 0.1;"),
    Style("reach-contour", "charge distance", "#000000", "line", css="stroke-width: 0.06; stroke-opacity: 0.8;"),
):
    register_style(_s)

#: Classes that structure a picture and never need a legend entry.
STRUCTURAL = {"label", "tlabel", "mlabel", "facing", "layer", "board", "model", "leader", "terrain", "hatch"}


#: A box on the board, ``(x0, y0, x1, y1)`` in inches.
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Layer:
    """A named overlay: SVG snippets in board coordinates, drawn above the models.

    Every overlay class its snippets use gets a legend entry; ``legend`` may give a class a
    more specific text for this picture (``{"witness": "c2 sees za5"}``). ``labels`` are placed
by the picture (:class:`Label`), after every other layer's earlier ones. ``focus`` is the box
    of what the layer is about (its models, its path, its template: :func:`focus_box`), what a
    cropped picture shows.
    """

    name: str
    elements: list[str] = field(default_factory=list)
    legend: Mapping[str, str] = field(default_factory=dict)
    focus: Optional[Box] = None
    labels: Sequence["Label"] = ()


@dataclass(frozen=True)
class Label:
    """A label an overlay asks for: ``text`` meant for board point ``(x, y)``, styled by the
    overlay class ``cls``. The picture places it (:mod:`board.labels`): beside the point, clear
    of every base and every other label, led back to the point by a line when it had to move."""

    x: float
    y: float
    text: str
    cls: str = ""
    #: how far round the point what it names extends (a base's radius: the label goes beside it)
    reach: float = 0.0


class Svg(str):
    """An SVG picture: its text (a ``str``), which a Jupyter notebook draws (``_repr_svg_``)."""

    def _repr_svg_(self) -> str:
        return str(self)


def focus_box(figures: Iterable[Figure] = (), geoms: Iterable[Optional[BaseGeometry]] = ()) -> Optional[Box]:
    """The box around the bases of ``figures`` and the geometries ``geoms`` (``None``: nothing)."""
    parts = [f.polygon for f in figures] + [g for g in geoms if g is not None and not g.is_empty]
    if not parts:
        return None
    x0, y0, x1, y1 = shapely.union_all(parts).bounds
    return float(x0), float(y0), float(x1), float(y1)


def union_box(boxes: Iterable[Optional[Box]]) -> Optional[Box]:
    """The smallest box holding every box given (``None``: none given)."""
    given = [b for b in boxes if b is not None]
    if not given:
        return None
    return (min(b[0] for b in given), min(b[1] for b in given), max(b[2] for b in given), max(b[3] for b in given))


_CLASS = re.compile(r'class="([^"]*)"')


def overlay_classes(layers: Sequence[Layer]) -> list[str]:
    """The overlay classes the layers use, registered ones in :data:`STYLES` order first."""
    used: set[str] = set()
    for layer in layers:
        for el in layer.elements:
            for m in _CLASS.finditer(el):
                used.update(m.group(1).split())
        for lb in layer.labels:
            used.update(lb.cls.split())
    used -= STRUCTURAL
    return [c for c in STYLES if c in used] + sorted(used - set(STYLES))


# --- label placement ---------------------------------------------------------------------------

def label_box(x: float, y: float, text: str) -> shapely.Polygon:
    """The box a label of ``text`` centred at ``(x, y)`` covers (board inches:
    :func:`board.labels.text_box`)."""
    return text_box(x, y, [text])


def label_spot(x: float, y: float, text: str, keep_clear: Sequence[Figure] = (),
               avoid: Sequence[Figure] = (), taken: Optional[list[shapely.Polygon]] = None) -> tuple[float, float]:
    """Where to centre a label an overlay draws itself (:class:`Label` lets the picture place
    it, clear of every base and label): the nearest spot around board point ``(x, y)``
    whose text box covers no base of ``keep_clear`` (the models the verdict is about — always,
    when any candidate allows it) and as little as possible of ``avoid`` (other models) and of
    the boxes in ``taken`` (earlier labels; the chosen box is appended). Deterministic."""
    clear = shapely.union_all([f.polygon.buffer(0.05) for f in keep_clear]) if keep_clear else None
    other = shapely.union_all([f.polygon for f in avoid]) if avoid else None
    taken = [] if taken is None else taken
    best, best_cost = (x, y), math.inf
    for k, (dx, dy) in enumerate(_LABEL_OFFSETS):
        px, py = x + dx, y + dy
        box = label_box(px, py, text)
        hard = box.intersection(clear).area if clear is not None else 0.0
        soft = (box.intersection(other).area if other is not None else 0.0) + sum(box.intersection(t).area for t in taken)
        cost = 1000 * hard + 10 * soft + 0.05 * math.hypot(dx, dy) + 1e-4 * k
        if cost < best_cost - 1e-12:
            best, best_cost = (px, py), cost
    taken.append(label_box(*best, text))
    return best


_LABEL_OFFSETS = [(0.0, 0.0)] + [
    (r * math.cos(math.radians(a)), r * math.sin(math.radians(a)) * 0.8)
    for r in (0.6, 1.0, 1.5, 2.2, 3.0, 4.0) for a in (90, 270, 0, 180, 45, 135, 225, 315, 60, 120, 240, 300)
]


# --- snippet helpers (board coordinates: inches, y up) ----------------------------------------


def _f(v: float) -> str:
    """A number as SVG text: 4 decimals (1e-4" is finer than any picture), no ``-0``."""
    v = float(v)
    if not math.isfinite(v):
        raise GeometryError(f"cannot draw a non-finite coordinate ({v})")
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _text(text: str) -> str:
    """Text content, XML-escaped: ``&``, ``<`` and ``>``."""
    return html.escape(text, quote=False)


def _attr(value: str) -> str:
    """An attribute value between double quotes, XML-escaped."""
    return _text(value).replace('"', "&quot;")


def _attrs(cls: Optional[str], attrs: Mapping[str, object]) -> str:
    out = [f' class="{_attr(cls)}"'] if cls else []
    for k in attrs:  # caller's order (kwargs keep it): deterministic
        v = attrs[k]
        if v is None:
            continue
        val = _f(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v)
        out.append(f' {k.rstrip("_").replace("_", "-")}="{_attr(val)}"')
    return "".join(out)


def _pts(points: Iterable[Sequence[float]]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def svg_polyline(points: Iterable[Sequence[float]], cls: str, **attrs: object) -> str:
    """An open polyline through ``points`` [(x, y), ...]."""
    return f'<polyline{_attrs(cls, attrs)} points="{_pts(points)}"/>'


def svg_circle(x: float, y: float, r: float, cls: str, **attrs: object) -> str:
    """A circle of radius ``r`` inches centred at ``(x, y)``."""
    return f'<circle{_attrs(cls, attrs)} cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}"/>'


def svg_base(f: Figure, cls: str, **attrs: object) -> str:
    """A model's base outline, true to size and facing: a circle or a rotated ellipse."""
    b = f.base
    if isinstance(b, OvalBase):
        return (f'<ellipse{_attrs(cls, attrs)} cx="{_f(f.x)}" cy="{_f(f.y)}" rx="{_f(b.a)}" ry="{_f(b.b)}" '
                f'transform="rotate({_f(b.facing)} {_f(f.x)} {_f(f.y)})"/>')
    return svg_circle(f.x, f.y, b.radius, cls, **attrs)


def _unzoom_text(snippet: str, px: float) -> str:
    """A snippet drawn at ``px`` pixels per inch with its labels (:func:`svg_label`) kept at
    their size on the screen: a zoomed-in picture magnifies the board, not the text."""
    k = _f(1 / PX)
    return snippet.replace(f"scale({k} -{k})", f"scale({_f(1 / px)} -{_f(1 / px)})") if "<text" in snippet else snippet


def svg_label(x: float, y: float, text: str, cls: str = "") -> str:
    """Upright text centred at board point ``(x, y)`` (XML-escaped)."""
    k = _f(1 / PX)
    return (
        f'<text class="label{" " + _attr(cls) if cls else ""}" '
        f'transform="translate({_f(x)} {_f(y)}) scale({k} -{k})" dy="0.35em">{_text(str(text))}</text>'
    )


def _ring_d(coords: Iterable[Sequence[float]]) -> str:
    pts = list(coords)
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    return "M" + " L".join(f"{_f(x)} {_f(y)}" for x, y in pts) + " Z"


def _geom_d(geom: BaseGeometry) -> str:
    """Path data of a (multi)polygon or (multi)line: rings closed, lines open."""
    parts = []
    for g in shapely.get_parts(geom):
        if isinstance(g, shapely.Polygon):
            if g.is_empty:
                continue
            parts.append(_ring_d(g.exterior.coords))
            parts += [_ring_d(r.coords) for r in g.interiors]
        elif isinstance(g, shapely.LinearRing):
            parts.append(_ring_d(g.coords))
        elif isinstance(g, shapely.LineString) and not g.is_empty:
            parts.append("M" + " L".join(f"{_f(x)} {_f(y)}" for x, y in g.coords))
        elif isinstance(g, shapely.GeometryCollection):
            parts.append(_geom_d(g))
    return " ".join(p for p in parts if p)


def svg_geometry(geom: Optional[BaseGeometry], cls: str, **attrs: object) -> str:
    """A shapely geometry: Polygon / MultiPolygon (holes kept), LineString, Point (a dot).

    Points become circles of radius ``r`` (default 0.12"); an empty geometry draws nothing.
    """
    if geom is None or geom.is_empty:
        return ""
    if isinstance(geom, (shapely.Point, shapely.MultiPoint)):
        r = cast(float, attrs.pop("r", 0.12))  # (a radius in inches)
        return "".join(svg_circle(p.x, p.y, r, cls, **attrs) for p in shapely.get_parts(geom))
    if isinstance(geom, shapely.LineString) and not isinstance(geom, shapely.LinearRing):
        return svg_polyline(list(geom.coords), cls, **attrs)
    if isinstance(geom, shapely.GeometryCollection) and not isinstance(geom, (shapely.MultiPolygon, shapely.MultiLineString)):
        return "".join(svg_geometry(g, cls, **attrs) for g in shapely.get_parts(geom))
    return f'<path{_attrs(cls, attrs)} fill-rule="evenodd" d="{_geom_d(geom)}"/>'


# --- the picture ------------------------------------------------------------------------------


def size_colour(size: int) -> str:
    return SIZE_COLOURS[max(0, min(int(size), len(SIZE_COLOURS) - 1))]


def height_bin(h: float) -> int:
    """Index of the height-shading bin for a top surface ``h`` inches high (0: flat)."""
    for k, edge in enumerate(HEIGHT_EDGES):
        if h <= edge:
            return k
    return len(HEIGHT_EDGES)


def _height_label(k: int) -> str:
    if k == 0:
        return '0"'
    if k == len(HEIGHT_EDGES):
        return f'>{HEIGHT_EDGES[-1]:g}"'
    return f'≤{HEIGHT_EDGES[k]:g}"' if k == 1 else f'{HEIGHT_EDGES[k - 1]:g}–{HEIGHT_EDGES[k]:g}"'


def side_palette(figures: Iterable[Figure], given: Optional[Mapping[str, str]] = None) -> dict[str, str]:
    """A colour per side, in order of first appearance (known faction names keep theirs)."""
    out: dict[str, str] = {}
    spare = iter(PALETTE * 10)
    for f in figures:
        if f.side not in out:
            if given and f.side in given:
                out[f.side] = given[f.side]
            elif f.side.lower() in KNOWN_SIDES:
                out[f.side] = KNOWN_SIDES[f.side.lower()]
            else:
                out[f.side] = next(spare)
    return out


#: What a picture's legend shows, as :func:`_terrain` and :func:`_doors` note it: ``("s", size)``,
#: ``("h", height bin)``, ``("grass",)``, ``("hatch",)``, ``("access",)``, ``("door",)``.
LegendKey = tuple[Union[str, int], ...]


def _terrain(table: Table, fill_by: str, placer: Placer) -> tuple[list[str], list[str], set[LegendKey]]:
    """Terrain shapes (lower pieces first) and their labels (placed by ``placer``); also the
    legend keys used."""
    shapes: list[str] = []
    labels: list[str] = []
    keys: set[LegendKey] = set()
    depth = {p.id: len(table.stack(p.id)) for p in table.pieces}
    for p in sorted(table.pieces, key=lambda p: depth[p.id]):  # stable: file order within a level
        es, top = table.stack_size(p.id), table.stack_height(p.id)
        grass = p.has("grass")
        key: LegendKey
        if fill_by == "height":
            k = height_bin(top)
            colour, key = HEIGHT_COLOURS[k], ("h", k)
        else:
            colour, key = (GRASS, ("grass",)) if grass else (size_colour(p.size), ("s", min(p.size, len(SIZE_COLOURS) - 1)))
        keys.add(key)
        cls = "terrain" + (" grass" if grass else "") + (" access" if p.has("access_point") else "")
        if p.has("access_point"):
            keys.add(("access",))
        attrs = {"fill": colour, "data_terrain": p.id, "data_size": p.size}
        title = f"<title>{_text(p.id)}: Size {p.size}" + (f" on {_text(p.on)} (ES {es})" if p.on else "") + (
            f', height {_f(top)}"' if top else "") + (f", {_text(', '.join(sorted(p.traits)))}" if p.traits else "") + "</title>"
        if p.circle is not None:
            cx, cy, cr = p.circle
            el = svg_circle(cx, cy, cr, cls, **attrs)
        else:
            el = svg_geometry(p.footprint, cls, **attrs)
        shapes.append(el[:-2] + ">" + title + ("</circle>" if p.circle is not None else "</path>"))
        if grass:
            shapes.append(_hatch(p.footprint))
            keys.add(("hatch",))
        if fill_by == "height":
            for mark_cls, geom in trait_marks.marks(p.footprint, p.traits):
                shapes.append(svg_geometry(geom, mark_cls, r=0.07))
                keys.add(("trait", mark_cls))
        info = (f"S{p.size}" + (f" ES{es}" if p.on else "")) if fill_by == "size" else " ".join(
            [f'{_f(top)}"'] + [m.legend for m in trait_marks.MARKS if p.has(m.trait)])
        if p.has("access_point"):
            info += " AP"
        c = p.footprint.point_on_surface() if p.circle is None else shapely.Point(p.circle[:2])
        spot = placer.place(c.x, c.y, [p.id, info], bold=True, own=p.id)
        labels += _placed(spot, [p.id, info], "tlabel")
    if ("access",) in keys:
        shapes += _doors(table, keys)
    return shapes, labels, keys


def _doors(table: Table, keys: set[LegendKey]) -> list[str]:
    """Where the Access Points join two levels (:mod:`board.levels`): a thick gold line each."""
    try:
        doors = levels_of(table).doors
    except GeometryError:
        return []
    out = []
    for d in doors:
        for part in shapely.get_parts(d.line):
            out.append(svg_polyline(shapely.get_coordinates(part), "door", data_door=d.via)[:-2]
                       + f"><title>{_text(d.via)}: joins {_text(d.a or 'the ground')} and {_text(d.b or 'the ground')}</title></polyline>")
            keys.add(("door",))
    return out


def _placed(spot: Spot, lines: Sequence[str], cls: str) -> list[str]:
    """A placed label: its lines of text (:data:`board.labels.LINE` apart) and its leader line."""
    out = []
    if spot.leader is not None:
        out.append(svg_polyline(spot.leader, "leader-line"))
    top = spot.y + LINE * (len(lines) - 1) / 2
    out += [svg_label(spot.x, top - LINE * i, text, cls) for i, text in enumerate(lines)]
    return out


def _hatch(poly: shapely.Polygon) -> str:
    """Diagonal strokes clipped to a grass footprint (drawn as geometry: no pattern defs)."""
    x0, y0, x1, y1 = poly.bounds
    lines = [shapely.LineString([(x0 + t, y0), (x0 + t + (y1 - y0), y1)]) for t in
             [-(y1 - y0) + 0.6 * i for i in range(int(((x1 - x0) + (y1 - y0)) / 0.6) + 2)]]
    cut = shapely.get_parts(shapely.intersection(shapely.MultiLineString(lines), poly))
    return svg_geometry(shapely.MultiLineString([g for g in cut if isinstance(g, shapely.LineString) and g.length > 1e-6]), "hatch")


def _figure(f: Figure, colour: str, leader: bool) -> list[str]:
    b = f.base
    title = f"<title>{_text(f.id)} ({_text(f.unit)}, {_text(f.side)}) {_text(b.describe())}" + (
        f" on {_text(f.on)}" if f.on else "") + (" — leader" if leader else "") + f" at ({_f(f.x)}, {_f(f.y)})</title>"
    data = {"fill": colour, "data_model": f.id, "data_unit": f.unit, "data_side": f.side}
    if leader:
        data["data_leader"] = "true"
    out = []
    if isinstance(b, OvalBase):
        rot = f"rotate({_f(b.facing)} {_f(f.x)} {_f(f.y)})"
        out.append(f'<ellipse{_attrs("model", data)} cx="{_f(f.x)}" cy="{_f(f.y)}" rx="{_f(b.a)}" ry="{_f(b.b)}" transform="{rot}">{title}</ellipse>')
        # a tick at the front of the oval shows its facing
        fx, fy = f.x + b.a * math.cos(b.phi), f.y + b.a * math.sin(b.phi)
        ix, iy = f.x + 0.6 * b.a * math.cos(b.phi), f.y + 0.6 * b.a * math.sin(b.phi)
        out.append(svg_polyline([(ix, iy), (fx, fy)], "facing", stroke="#111", stroke_width=0.06))
        if leader:
            out.append(f'<ellipse class="leader" cx="{_f(f.x)}" cy="{_f(f.y)}" rx="{_f(b.a + 0.14)}" ry="{_f(b.b + 0.14)}" transform="{rot}"/>')
    else:
        out.append(svg_circle(f.x, f.y, b.radius, "model", **data)[:-2] + f">{title}</circle>")
        if leader:
            out.append(svg_circle(f.x, f.y, b.radius + 0.14, "leader"))
    return out


def _model_label(f: Figure, px: float = PX) -> str:
    span = 2 * min(f.base.reach, getattr(f.base, "b", f.base.reach)) * px  # pixels across the base
    size = max(5.0, min(9.0 * px / PX, span * 1.55 / max(1, len(f.id))))
    return svg_label(f.x, f.y, f.id, "mlabel").replace('<text ', f'<text style="font-size:{_f(size)}px" ', 1)


def _grid(table: Table) -> list[str]:
    minor: list[str] = []
    major: list[str] = []
    for i in range(int(math.floor(table.width)) + 1):
        (major if i % 6 == 0 else minor).append(f"M{i} 0 V{_f(table.height)}")
    for j in range(int(math.floor(table.height)) + 1):
        (major if j % 6 == 0 else minor).append(f"M0 {j} H{_f(table.width)}")
    return [f'<path class="grid" d="{" ".join(minor)}"/>', f'<path class="grid6" d="{" ".join(major)}"/>']


#: The smallest cropped view, inches across and up (room for the ticks and the scale bar).
CROP_MIN = (10.0, 6.0)
#: A cropped picture's board is drawn about this many pixels wide (zoomed in, at most 3×).
CROP_SHOWN = 600.0


def crop_window(crop: Box, w: float, h: float) -> Box:
    """The part of a ``w`` × ``h`` table a picture cropped to ``crop`` shows: the box grown to
    whole inches, at least :data:`CROP_MIN` across (grown about its centre), moved inside the
    table and cut to it."""
    x0, y0, x1, y1 = (float(v) for v in crop)
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)) or x1 < x0 or y1 < y0:
        raise GeometryError(f"a crop is a box (x0, y0, x1, y1) with x0 <= x1 and y0 <= y1, not {crop!r}")

    def span(lo: float, hi: float, least: float, size: float) -> tuple[float, float]:
        if hi - lo < least:
            mid = (lo + hi) / 2
            lo, hi = mid - least / 2, mid + least / 2
        lo, hi = math.floor(lo), math.ceil(hi)
        if hi - lo >= size:
            return 0.0, size
        shift = max(0.0, -lo) - max(0.0, hi - size)
        return lo + shift, hi + shift

    (x0, x1), (y0, y1) = span(x0, x1, CROP_MIN[0], w), span(y0, y1, CROP_MIN[1], h)
    return x0, y0, x1, y1


def tick_step(span: float) -> int:
    """Inches between tick labels: every 6" on a whole table, finer on a small view."""
    for step in (1, 2, 3):
        if span / step <= 12:
            return step
    return 6


def _ticks(view: Box, table: Table, ox: float, oy: float, right: float, px: float = PX) -> tuple[list[str], float]:
    """The tick labels, the caption and the scale bar; and the height the bar adds below the
    caption when the picture is too narrow for both on one line."""
    x0, y0, x1, y1 = view
    w, h = x1 - x0, y1 - y0
    whole = view == (0.0, 0.0, float(table.width), float(table.height))
    step = 6 if whole else tick_step(max(w, h))

    def marks(lo: float, hi: float) -> list[float]:
        first = math.ceil(lo / step - 1e-9) * step
        out = [float(v) for v in range(int(first), int(math.floor(hi + 1e-9)) + 1, step)]
        return sorted(set(out) | ({hi} if whole else set()))

    out = []
    for x in marks(x0, x1):
        out.append(f'<text class="axis" x="{_f(ox + (x - x0) * px)}" y="{_f(oy + h * px + 14)}" text-anchor="middle">{_f(x)}</text>')
    for y in marks(y0, y1):
        out.append(f'<text class="axis" x="{_f(ox - 6)}" y="{_f(oy + (y1 - y) * px + 3.5)}" text-anchor="end">{_f(y)}</text>')
    tw, th = _f(table.width), _f(table.height)
    caption = (f'{tw}" × {th}" table · 1" grid, heavy every 6"' if whole else
               f'x {_f(x0)}–{_f(x1)}", y {_f(y0)}–{_f(y1)}" of the {tw}" × {th}" table')
    out.append(f'<text class="axis" x="{_f(ox)}" y="{_f(oy + h * px + 28)}">{caption}</text>')
    label = f'x, y in inches · scale {step}"'
    crowded = 5.6 * (len(caption) + len(label)) + step * px + 24 > right - ox  # then a line of its own
    out += _scale_bar(step, right, oy + h * px + (42 if crowded else 28), px, label)
    out.append(f'<text class="axis" x="{_f(ox - 6)}" y="{_f(oy - 8)}" text-anchor="end">y ↑</text>')
    return out, 14.0 if crowded else 0.0


def _scale_bar(inches: int, right: float, baseline: float, px: float, label: str) -> list[str]:
    """A bar ``inches`` long ending at screen x ``right``, labelled, on the caption's line."""
    x = right - inches * px
    y = baseline - 4
    return [f'<path class="scale" d="M{_f(x)} {_f(y - 4)} v8 M{_f(x)} {_f(y)} H{_f(right)} M{_f(right)} {_f(y - 4)} v8"/>',
            f'<text class="axis scale-label" x="{_f(x - 4)}" y="{_f(baseline)}" text-anchor="end">{_text(label)}</text>']


def _legend(keys: set[LegendKey], sides: dict[str, str], fill_by: str, has_leader: bool, x0: float, y0: float, width: float,
            overlays: Sequence[tuple[str, str]] = ()) -> tuple[list[str], float]:
    items: list[tuple[Union[str, Style], str]] = []  # (swatch: svg template with {x},{y} or a Style, text)
    if fill_by == "height":
        items.append(("", "top height:"))
        items += [(f'<rect x="{{x}}" y="{{y}}" width="14" height="10" fill="{HEIGHT_COLOURS[k]}" stroke="#333" stroke-width="0.6"/>', _height_label(k))
                  for k in range(len(HEIGHT_COLOURS)) if ("h", k) in keys]
        items += [(m.swatch("{x}", "{y}"), m.legend) for m in trait_marks.MARKS if ("trait", m.cls) in keys]
        if ("hatch",) in keys:
            items.append(('<rect x="{x}" y="{y}" width="14" height="10" fill="#fff" stroke="#4d7a31" stroke-width="0.6"/>'
                          '<path d="M{x} {y} m0 10 l10 -10 m-6 10 l10 -10" stroke="#4d7a31" stroke-width="0.8"/>', "grass"))
    else:
        items.append(("", "terrain Size:"))
        items += [(f'<rect x="{{x}}" y="{{y}}" width="14" height="10" fill="{size_colour(s)}" stroke="#333" stroke-width="0.6"/>',
                   f"{s}" + ("+" if s == len(SIZE_COLOURS) - 1 else ""))
                  for s in range(len(SIZE_COLOURS)) if ("s", s) in keys]
        if ("grass",) in keys:
            items.append((f'<rect x="{{x}}" y="{{y}}" width="14" height="10" fill="{GRASS}" stroke="#4d7a31" stroke-width="0.6"/>', "grass"))
    if ("access",) in keys:
        items.append(('<rect x="{x}" y="{y}" width="14" height="10" fill="none" stroke="#c08a00" stroke-width="1.4" stroke-dasharray="3 2"/>', "access point"))
    if ("door",) in keys:
        items.append((f'<line x1="{{x}}" y1="{{cy}}" x2="{{x14}}" y2="{{cy}}" stroke="{LEADER}" stroke-width="4"/>', "where it joins two levels"))
    for side, colour in sides.items():
        items.append((f'<circle cx="{{cx}}" cy="{{cy}}" r="5.5" fill="{colour}" stroke="#111" stroke-width="0.8"/>', _text(side)))
    if has_leader:
        items.append((f'<circle cx="{{cx}}" cy="{{cy}}" r="5" fill="none" stroke="{LEADER}" stroke-width="2.4"/>', "leader"))
    if not any(k[0] in ("h", "s", "grass") for k in keys):
        items = items[1:]  # no terrain: no shading heading
    for cls, text in overlays:
        style = STYLES.get(cls) or Style(cls, cls, "#555555", "area")
        items.append((style, _text(text)))
    out, x, y = [], x0, y0
    for swatch, text in items:
        w = (20 if swatch else 0) + 6.6 * len(text) + 14
        if x + w > x0 + width and x > x0:
            x, y = x0, y + 18
        if isinstance(swatch, Style):
            out.append(swatch.swatch_svg(x, y - 9))
        elif swatch:
            out.append(swatch.format(x=_f(x), y=_f(y - 9), cx=_f(x + 7), cy=_f(y - 4), x14=_f(x + 14)))
        key = f' data-legend="{_attr(swatch.cls)}"' if isinstance(swatch, Style) else ""
        out.append(f'<text class="legend"{key} x="{_f(x + (20 if swatch else 0))}" y="{_f(y)}">{text}</text>')
        x += w
    return out, y - y0 + 18


class _Led(Protocol):
    """A unit as :func:`render_svg` reads one from a game state: its Leading Model."""

    @property
    def leader(self) -> Optional[str]: ...


class GameLike(Protocol):
    """What :func:`render_svg` reads of a game state."""

    @property
    def table(self) -> Table: ...

    @property
    def units(self) -> Sequence[_Led]: ...

    def all_figures(self) -> Sequence[Figure]: ...


def render_svg(table: Union[Table, GameLike], figures: Union[Iterable[Figure], Sequence[Layer], None] = None,
               layers: Sequence[Layer] = (), *, title: Optional[str] = None,
               leaders: Iterable[str] = (), fill_by: str = "size",
               side_colours: Optional[Mapping[str, str]] = None, crop: Optional[Box] = None) -> Svg:
    """The SVG picture of ``table`` with ``figures`` and overlay ``layers``.

    ``fill_by`` shades terrain by its Size class (``"size"``) or by the height of its top
    surface, stacks included, with its traits marked (``"height"``). ``leaders`` are model ids
    drawn with a gold ring. ``side_colours`` maps side names to colours (defaults: Terran blue,
    Zerg purple, Protoss gold, then a fixed palette). ``crop`` (a box ``(x0, y0, x1, y1)`` in
    inches) draws only that part of the table (:func:`crop_window`), its ticks and scale bar
    kept.

    For convenience ``table`` may also be a game state (anything with ``.table``,
    ``.all_figures()`` and ``.units`` having ``.leader``): ``render_svg(state, layers)``.
    """
    if not isinstance(table, Table) and hasattr(table, "all_figures"):
        state = table
        if figures is not None and not layers and all(isinstance(x, Layer) for x in figures):
            layers, figures = cast(Sequence[Layer], figures), None
        table = state.table
        figures = state.all_figures() if figures is None else figures
        leaders = set(leaders) | {lead for u in state.units if (lead := getattr(u, "leader", None))}
    table = cast(Table, table)  # (a table, or the state's)
    if fill_by not in FILLS:
        raise GeometryError(f"fill_by must be 'size' or 'height', not {fill_by!r}")
    figures = cast(list[Figure], list(figures or []))  # (layers given in their place are moved above)
    leaders = set(leaders)
    tw, th = float(table.width), float(table.height)
    view = (0.0, 0.0, tw, th) if crop is None else crop_window(crop, tw, th)
    vx0, vy0, vx1, vy1 = view
    w, h = vx1 - vx0, vy1 - vy0
    px = PX if crop is None else PX * min(3.0, max(1.0, CROP_SHOWN / (w * PX)))  # a crop is zoomed in
    ox, oy = MARGIN_LEFT, MARGIN_TOP
    sides = side_palette(figures, side_colours)
    placer = Placer(figures, table.pieces, shapely.box(0, 0, tw, th))
    placed = {id(layer): [e for lb in layer.labels
                          for e in _placed(placer.place(lb.x, lb.y, [lb.text], reach=lb.reach), [lb.text], lb.cls)]
              for layer in layers}  # the verdicts' labels first, then the terrain's
    shapes, tlabels, keys = _terrain(table, fill_by, placer)
    used = overlay_classes(list(layers) + [Layer("placed", [e for es in placed.values() for e in es] + tlabels)])
    texts: dict[str, str] = {}
    for layer in layers:
        texts.update({c: t for c, t in layer.legend.items() if c in used})
    overlay_items = [(c, texts.get(c) or (STYLES[c].legend if c in STYLES else c)) for c in used]
    width = w * px if crop is None else max(w * px, LEGEND_MIN_WIDTH, 9.6 * len(title or ""))
    ticks, below = _ticks(view, table, ox, oy, ox + width, px)
    legend, legend_h = _legend(keys, sides, fill_by, bool(leaders & {f.id for f in figures}),
                               ox, oy + h * px + MARGIN_BOTTOM + below + 4, width, overlay_items)
    vw = ox + width + MARGIN_RIGHT
    vh = oy + h * px + MARGIN_BOTTOM + below + legend_h + 8
    body: list[str] = [f'<rect class="mat" x="0" y="0" width="{_f(tw)}" height="{_f(th)}"/>']
    body += shapes + _grid(table) + tlabels
    for f in figures:
        body += _figure(f, sides[f.side], f.id in leaders)
    body += [_model_label(f, px) for f in figures]
    body.append(f'<rect class="edge" x="0" y="0" width="{_f(tw)}" height="{_f(th)}"/>')
    for layer in layers:
        body.append(f'<g class="layer" data-layer="{_attr(layer.name)}">')
        body += [e for e in layer.elements if e] + placed[id(layer)]
        body.append("</g>")
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(vw)} {_f(vh)}" width="{_f(vw)}" height="{_f(vh)}">',
        f"<style>\n{CSS}\n{trait_marks.css()}\n" + "".join(s.rules() + "\n" for s in STYLES.values()) + "</style>",
        f'<rect x="0" y="0" width="{_f(vw)}" height="{_f(vh)}" fill="#ffffff"/>',
    ]
    if title:
        head.append(f"<title>{_text(title)}</title>")
        head.append(f'<text class="title" x="{_f(ox)}" y="26">{_text(title)}</text>')
    if crop is None:
        board = [f'<g class="board" transform="matrix({_f(px)} 0 0 -{_f(px)} {_f(ox)} {_f(oy + h * px)})">'] + body + ["</g>"]
    else:  # a viewport of the cropped size clips what lies outside the view
        board = [f'<svg class="view" x="{_f(ox)}" y="{_f(oy)}" width="{_f(w * px)}" height="{_f(h * px)}" '
                 f'data-view="{_f(vx0)} {_f(vy0)} {_f(vx1)} {_f(vy1)}">',
                 f'<g class="board" transform="matrix({_f(px)} 0 0 -{_f(px)} {_f(-vx0 * px)} {_f(vy1 * px)})">']
        body = [_unzoom_text(e, px) for e in body]  # text keeps its size on the screen
        board += body + ["</g>", f'<rect class="edge view-edge" x="0" y="0" width="{_f(w * px)}" height="{_f(h * px)}"/>', "</svg>"]
    return Svg("\n".join(head + ticks + board + legend + ["</svg>"]) + "\n")
