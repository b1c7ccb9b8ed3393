"""``tapeline render FILE --charge UNIT --target T [--target T2]``: a charge drawn on the board.

The goal region (legal end spots for the Leading Model's centre, class ``goal``; drawn as
shapely buffers, a picture only — the numbers come from the exact search; StarCraft: on every
level, e.g. on a mesa reached by its ramp), the shortest path (class ``path``) with its length,
and the Leading Model's base at the end spot (class ``end-base``).
"""

from __future__ import annotations

import shapely

from tapeline.board.render import Layer, label_spot, svg_circle, svg_geometry, svg_label, svg_polyline
from tapeline.rules.charge_geometry import radius
from tapeline.rules.systems import rules_for

from ..cliutil import unit


def add_arguments(parser) -> None:
    parser.add_argument("--charge", metavar="UNIT", default=None, help="draw UNIT's shortest charge (with --target)")
    parser.add_argument("--target", action="append", default=None, metavar="T", help="declared target unit of --charge")


def _member_picture(m) -> shapely.Geometry:
    """One near-group member: within R of its core, with its own conditions (within / outside)."""
    g = shapely.buffer(m[0], m[1], quad_segs=32)
    for c2, R2, inside in (m[2] if len(m) > 2 else ()):
        b = shapely.buffer(c2, R2, quad_segs=32) if R2 > 0 else c2
        g = shapely.intersection(g, b) if inside else shapely.difference(g, b)
    return g


def region_picture(region) -> shapely.Geometry:
    """A polygon picture of a :class:`board.regions.Region` (buffers; for drawing only)."""
    x0, y0, x1, y1 = region.box
    shape = shapely.box(x0, y0, x1, y1)
    for group in region.near:
        shape = shape.intersection(shapely.union_all([_member_picture(m) for m in group]))
    if region.far:
        shape = shape.difference(shapely.union_all([shapely.buffer(c, R, quad_segs=32) for c, R in region.far]))
    for poly, R in region.inside:
        shape = shape.intersection(shapely.buffer(poly, -R, quad_segs=32) if R > 0 else poly)
    return shape


def layers(args, loaded) -> list[Layer]:
    if not getattr(args, "charge", None):
        return []
    st = loaded.state
    u = unit(loaded, args.charge, "--charge")
    targets = [unit(loaded, t, "--target") for t in (args.target or [])]
    rules = rules_for(st.system)
    rc, o = rules.charge_reach(st, u, targets)
    out: list[str] = []
    plan = rc.plan
    if plan is not None and plan.path is not None:
        lead = st.figure(plan.leader)
        regions = rules.charge_goal_regions(st, u, targets, lead)
        pic = shapely.union_all([region_picture(r) for r in regions])
        if not pic.is_empty:
            out.append(svg_geometry(pic, "goal"))
        pts = plan.path.points()
        out.append(svg_polyline(pts, "path"))
        ex, ey = plan.path.end
        out.append(svg_circle(ex, ey, radius(lead), "end-base"))
        p = o["probability_fraction"]
        text = f"{plan.leader}: {o['distance']:.3f}\" ({p})"
        keep = [lead] + [f for t in targets for f in st.figures_of(t)]
        out.append(svg_label(*label_spot(ex, ey + radius(lead) + 0.4, text, keep, st.all_figures()), text, "path"))
    else:
        f = st.figures_of(u)[0]
        text = "no legal end spot"
        out.append(svg_label(*label_spot(f.x, f.y + 1, text, st.figures_of(u), st.all_figures()), text, "violation"))
    return [Layer("charge", out, {"path": f"shortest charge path of {u}", "end-base": "Leading Model's end spot"})]
