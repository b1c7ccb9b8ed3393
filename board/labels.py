"""Where a picture's labels go: never over a model's base, never over another label, off the
terrain where there is room, led back to what they name by a thin line when they had to move.

:func:`text_box` is the box a label's text covers (board inches; the renderer's fonts: 11 px
DejaVu Sans at :data:`board.render.PX` pixels per inch, bold terrain labels a little wider).
A :class:`Placer` places the labels of one picture in turn, each at the cheapest of rings of
candidate spots around its anchor: a spot whose box meets a base or an earlier label is taken
only when no other is left; then one over terrain (other than the label's own piece: a terrain
label may sit on its own piece, never on another) or off the table only when no clear spot is
left, the rings widened to :data:`WIDE` before giving up (the label is led back by a line).
Only where no spot at all is clear does the label take the least-overlapping one. Deterministic:
the same picture, the same spots.

>>> import shapely
>>> from tapeline.board.bases import RoundBase
>>> from tapeline.board.table import Figure
>>> p = Placer([Figure("m1", "u", "s", RoundBase(32), 5, 5)], [], shapely.box(0, 0, 12, 12))
>>> spot = p.place(5, 5, ["m1 sees z1"])
>>> spot.box.intersects(shapely.Point(5, 5).buffer(16 / 25.4))
False
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from .table import Figure
from .terrain import Piece

#: Inches per character of an 11 px label (bold: terrain labels) and the height of a line.
CHAR, CHAR_BOLD, LINE = 6.6 / 20.0, 7.2 / 20.0, 0.6
#: A label whose box ends further than this from its anchor (inches) gets a leader line.
LEAD_BEYOND = 0.6
#: Candidate distances from the anchor (inches) and directions per ring.
RADII = (0.0, 0.45, 0.8, 1.2, 1.7, 2.3, 3.0, 3.8, 4.8, 6.0, 7.5, 9.5)
#: The wider rings searched when no spot of :data:`RADII` is clear of bases, labels and terrain.
WIDE = (12.0, 15.0, 19.0, 24.0)
DIRECTIONS = 16
#: What a spot over a base or an earlier label costs, and one over terrain or off the table:
#: tiers far above any distance, so a clear spot always wins.
BLOCKED, CLEAR = 1e9, 1e6


def text_box(x: float, y: float, lines: Sequence[str], bold: bool = False) -> shapely.Polygon:
    """The box ``lines`` of text centred at ``(x, y)`` cover (board inches)."""
    w = max((len(t) for t in lines), default=0) * (CHAR_BOLD if bold else CHAR) + 0.2
    h = LINE * max(1, len(lines))
    return shapely.box(x - w / 2, y - h / 2, x + w / 2, y + h / 2)


@dataclass(frozen=True)
class Spot:
    """Where a label goes: its centre, its box, and the leader line back to the anchor (``None``:
    the label is beside its anchor)."""

    x: float
    y: float
    box: shapely.Polygon
    leader: Optional[tuple[tuple[float, float], tuple[float, float]]]


def overlap(boxes: np.ndarray, geom: BaseGeometry) -> np.ndarray:
    """The area of each of ``boxes`` that ``geom`` covers, in arrays: ``geom``'s polygons
    (disjoint, as a union's are) in an STRtree, each box intersected only with the parts its
    bounds meet and the areas summed per box — so a picture of many bases does not run a
    polygon overlay of every candidate spot with all of them."""
    out = np.zeros(len(boxes))
    if geom.is_empty:
        return out
    parts = shapely.get_parts(geom)
    ib, ip = shapely.STRtree(parts).query(boxes)
    if len(ib):
        np.add.at(out, ib, shapely.area(shapely.intersection(boxes[ib], parts[ip])))
    return out


class Placer:
    """Places the labels of one picture, each clear of every base and every label before it,
    and of the terrain where any spot within :data:`WIDE` is."""

    def __init__(self, figures: Sequence[Figure], pieces: Sequence[Piece], table: shapely.Polygon):
        self.bases = shapely.union_all([f.polygon.buffer(0.04) for f in figures]) if figures else shapely.Polygon()
        self.terrain = {p.id: p.footprint for p in pieces}
        self.all_terrain = shapely.union_all(list(self.terrain.values())) if pieces else shapely.Polygon()
        self.table = table
        self.taken: list[shapely.Polygon] = []
        for g in (self.bases, self.all_terrain):
            shapely.prepare(g)

    def place(self, x: float, y: float, lines: Sequence[str], bold: bool = False, own: Optional[str] = None,
              reach: float = 0.0) -> Spot:
        """The spot for a label of ``lines`` meant for ``(x, y)``: ``reach`` is how far round
        the point the thing it names extends (a base's radius: the label goes beside it);
        ``own`` the terrain piece it names (it may sit inside it, wholly).

        The rings of :data:`RADII` are searched first; when none of their spots is clear of
        the bases, the labels and the terrain, the wider rings of :data:`WIDE` too."""
        proto = text_box(0, 0, lines, bold)
        x0, y0, x1, y1 = proto.bounds
        hw, hh = (x1 - x0) / 2, (y1 - y0) / 2
        if own is not None and own in self.terrain:
            rest = [g for k, g in self.terrain.items() if k != own]
            others = shapely.union_all(rest) if rest else shapely.Polygon()
        else:
            others = self.all_terrain
        taken = shapely.union_all(self.taken) if self.taken else None
        cost, xs, ys = self._score(x, y, hw, hh, reach, RADII, others, taken, own)
        if cost.min() >= CLEAR:  # nothing clear near by: look further (a leader line leads back)
            wc, wx, wy = self._score(x, y, hw, hh, reach, WIDE, others, taken, own)
            cost, xs, ys = np.concatenate([cost, wc]), np.concatenate([xs, wx]), np.concatenate([ys, wy])
        i = int(np.argmin(cost))
        box = shapely.box(xs[i] - hw, ys[i] - hh, xs[i] + hw, ys[i] + hh)
        self.taken.append(box)
        leader = None
        if box.distance(shapely.Point(x, y)) > reach + LEAD_BEYOND:
            edge = shapely.shortest_line(box.exterior, shapely.Point(x, y))
            (ax, ay), (bx, by) = edge.coords
            leader = ((float(ax), float(ay)), (float(bx), float(by)))
        return Spot(float(xs[i]), float(ys[i]), box, leader)

    def _score(self, x: float, y: float, hw: float, hh: float, reach: float, radii: Sequence[float],
               others: BaseGeometry, taken: Optional[BaseGeometry],
               own: Optional[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cost of each candidate spot on the rings ``radii`` round ``(x, y)``, and the
        spots. A box over a base or an earlier label costs :data:`BLOCKED`; one over terrain
        (``others``: every piece but the label's own) or off the table :data:`CLEAR` — so any
        spot clear of both wins over one that is not, however far — then the overlap, then
        the distance. Partly over its own piece costs a little (wholly inside is free)."""
        cands: list[tuple[float, float]] = []
        for r in radii:
            for k in range(1 if r == 0 else DIRECTIONS):
                a = 2 * math.pi * k / DIRECTIONS - math.pi / 2  # below first, then round
                # beside what it names: the ring is pushed out by its reach and the box's half size
                out = (reach + r) if r > 0 else 0.0
                cands.append((x + (out + hw) * math.cos(a) if r > 0 else x, y + (out + hh) * math.sin(a) if r > 0 else y))
        xs = np.array([c[0] for c in cands])
        ys = np.array([c[1] for c in cands])
        boxes = shapely.box(xs - hw, ys - hh, xs + hw, ys + hh)
        area = (2 * hw) * (2 * hh)
        zero = np.zeros(len(cands))
        hard = overlap(boxes, self.bases)
        if taken is not None:
            hard = hard + overlap(boxes, taken)
        if own is not None and own in self.terrain:
            inside = shapely.within(boxes, self.terrain[own].buffer(-0.05))
            partly = overlap(boxes, self.terrain[own]) * ~inside
        else:
            partly = zero
        over = overlap(boxes, others)
        outside = area - shapely.area(shapely.intersection(boxes, self.table))
        dist = np.hypot(xs - x, ys - y)
        cost = (BLOCKED * (hard > 1e-9) + CLEAR * ((over + outside) > 1e-9) + 1e3 * hard
                + 30 * (over + outside + partly) / area + dist + 1e-6 * np.arange(len(cands)))
        return cost, xs, ys
