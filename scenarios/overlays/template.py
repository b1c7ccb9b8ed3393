"""``tapeline render ... --template ...``: a template and what it covers, drawn on the board.

```
tapeline render FILE -o OUT.svg --template SHAPE --at X,Y [--toward X,Y]
tapeline render FILE -o OUT.svg --template UNIT WEAPON TARGET [--model FIRER] [--at X,Y]
tapeline render FILE -o OUT.svg --template UNIT WEAPON --at X,Y [--on PIECE]   (ability template)
```

The arguments are those of ``tapeline template``. Drawn: the template's exact outline (class
``template``; a disc as a circle), bases wholly under it (``covered-full``) and partly under it
(``covered-part``) shaded differently, each labelled with its margin; for a StarCraft weapon,
covered models that are not affected ringed in red (``excluded``) with the reason, and the
Target Point (``target-point``). Each kind drawn adds its legend entry.
"""

from __future__ import annotations

from argparse import Namespace

from tapeline.board.render import Layer, svg_base, svg_circle, svg_geometry, svg_label, svg_polyline

from ..cliutil import ArgumentError
from ..commands import template as command


def add_arguments(parser) -> None:
    parser.add_argument("--template", nargs="+", metavar="ARG", default=None,
                        help="draw a template: SHAPE (with --at, --toward) or UNIT WEAPON [TARGET] (StarCraft)")
    parser.add_argument("--at", metavar="X,Y", default=None, help="--template: disc centre, teardrop tip or Target Point")
    parser.add_argument("--toward", metavar="X,Y", default=None, help="--template: a teardrop's aim point")
    parser.add_argument("--model", metavar="FIRER", default=None, help="--template: the firing model")
    parser.add_argument("--on", metavar="PIECE", default=None, help="--template: the piece an ability template's Target Point stands on")


def layers(args, loaded) -> list[Layer]:
    spec = getattr(args, "template", None)
    if not spec:
        return []
    q = Namespace(shape=None, unit=None, weapon=None, target=None, model=args.model, on=args.on,
                  at=args.at, toward=args.toward)
    if len(spec) == 1:
        q.shape = spec[0]
    elif len(spec) in (2, 3):
        q.unit, q.weapon = spec[0], spec[1]
        q.target = spec[2] if len(spec) == 3 else None
    else:
        raise ArgumentError(loaded.file, "--template", "give SHAPE, or UNIT WEAPON [TARGET]")
    return [picture(loaded.state, command.query(loaded, q))]


def picture(state, o: dict) -> Layer:
    """The layer for a ``tapeline template`` answer ``o`` on ``state``."""
    t = o["template"]
    els: list[str] = []
    if t["kind"] == "disc":
        (cx, cy), r = t["centre"], t["radius"]
        els.append(svg_circle(cx, cy, r, "template", data_template=t["shape"]))
        lx, ly = cx, cy + r + 0.35
    else:
        from tapeline.board.templates import place, TeardropDims

        d = TeardropDims(t["length"], 2 * t["near"]["radius"], 2 * t["far"]["radius"])
        poly = place(d, tuple(t["tip"]), tuple(t["toward"]), t["shape"]).polygon()
        els.append(svg_geometry(poly, "template", data_template=t["shape"]))
        (fx, fy), r = t["far"]["centre"], t["far"]["radius"]
        lx, ly = fx, fy + r + 0.35
    cov = o["covered"]
    for c in cov:
        f = state.figure(c["model"])
        cls = "covered-full" if c["full"] else "covered-part"
        els.append(svg_base(f, cls, data_model=f.id))
        label = f"{c['inside']:.2f}\" in" if c["full"] else f"{c['overlap']:.2f}\" over"
        els.append(svg_label(f.x, f.y - f.base.reach - 0.3, label, "template"))
    for e in o.get("excluded", ()):
        f = state.figure(e["model"])
        els.append(svg_base(f, "excluded", data_excluded=e["reason"]))
        els.append(svg_label(f.x, f.y + f.base.reach + 0.3, f"{e['model']}: {e['reason']}", "excluded"))
    if "target_point" in o:
        x, y = o["target_point"]
        els.append(svg_polyline([(x - 0.25, y - 0.25), (x + 0.25, y + 0.25)], "target-point"))
        els.append(svg_polyline([(x - 0.25, y + 0.25), (x + 0.25, y - 0.25)], "target-point"))
    els.append(svg_label(lx, ly, t["shape"], "template"))
    return Layer("template", els, {"template": f"{t['shape']} template"})
