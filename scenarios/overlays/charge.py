"""``tapeline render FILE --charge UNIT --target T [--target T2]``: a charge drawn on the board.

The goal region (legal end spots for the Leading Model's centre, class ``goal``; drawn as
shapely buffers, a picture only — the numbers come from the exact search; StarCraft: on every
level, e.g. on a mesa reached by its ramp), the shortest path (class ``path``) with its length,
and the Leading Model's base at the end spot (class ``end-base``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import shapely
from shapely.geometry.base import BaseGeometry

from tapeline.board.regions import Member, Region
from tapeline.board.render import Label, Layer, focus_box, svg_circle, svg_geometry, svg_polyline
from tapeline.rules.charge_geometry import radius

if TYPE_CHECKING:
    from ..game import Game

#: ``charge``: the charging unit; ``target``: its declared targets.
OPTIONS: dict[str, Any] = {"charge": None, "target": None}


def _member_picture(m: Member) -> BaseGeometry:
    """One near-group member: within R of its core, with its own conditions (within / outside)."""
    g: BaseGeometry = shapely.buffer(m[0], m[1], quad_segs=32)
    for c2, R2, inside in (m[2] if len(m) > 2 else ()):
        b = shapely.buffer(c2, R2, quad_segs=32) if R2 > 0 else c2
        g = shapely.intersection(g, b) if inside else shapely.difference(g, b)
    return g


def region_picture(region: Region) -> BaseGeometry:
    """A polygon picture of a :class:`board.regions.Region` (buffers; for drawing only)."""
    x0, y0, x1, y1 = region.box
    shape: BaseGeometry = shapely.box(x0, y0, x1, y1)
    for group in region.near:
        shape = shape.intersection(shapely.union_all([_member_picture(m) for m in group]))
    if region.far:
        shape = shape.difference(shapely.union_all([shapely.buffer(c, R, quad_segs=32) for c, R in region.far]))
    for poly, R in region.inside:
        shape = shape.intersection(shapely.buffer(poly, -R, quad_segs=32) if R > 0 else poly)
    return shape


def layers(game: Game, opts: Mapping[str, Any]) -> list[Layer]:
    if not opts.get("charge"):
        return []
    st = game.state
    u = game._unit(opts["charge"], "charge")
    o = game.charge(u, opts.get("target") or [])
    out: list[str] = []
    about = st.figures_of(u) + [f for t in o.targets for f in st.figures_of(t)]
    path = None
    if o.distance is not None and o.leader is not None and o.end is not None:
        lead = st.figure(o.leader)
        regions = game.rules.charge_goal_regions(st, u, o.targets, lead)
        pic = shapely.union_all([region_picture(r) for r in regions])
        if not pic.is_empty:
            out.append(svg_geometry(pic, "goal"))
        out.append(svg_polyline(o.path, "path"))
        path = shapely.LineString(o.path) if len(o.path) > 1 else None
        ex, ey = o.end
        out.append(svg_circle(ex, ey, radius(lead), "end-base"))
        text = f"{o.leader}: {o.distance:.3f}\" ({o.probability_fraction})"
        labels = [Label(ex, ey, text, "path", radius(lead))]
    else:
        f = st.figures_of(u)[0]
        labels = [Label(f.x, f.y, "no legal end spot", "violation", f.base.reach)]
    return [Layer("charge", out, {"path": f"shortest charge path of {u}", "end-base": "Leading Model's end spot"},
                  focus=focus_box(about, [path]), labels=labels)]
