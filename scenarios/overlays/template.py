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
Target Point (``target-point``). Each kind drawn adds its legend entry. In ``tapeline replay
--html`` a ``shoot`` with a template weapon shows the same picture (``step_layers``).
"""

from __future__ import annotations

from argparse import Namespace

from tapeline.board.render import Layer, label_spot, svg_base, svg_circle, svg_geometry, svg_label, svg_polyline
from tapeline.board.templates import TeardropDims, place

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


def step_layers(before, after, events) -> list[Layer]:
    """The template of a replayed ``shoot`` with a template weapon (its ``template`` event)."""
    return [picture(before, ev) for ev in events if ev.get("type") == "template"]


def picture(state, o: dict) -> Layer:
    """The layer for a ``tapeline template`` answer (or a ``template`` event) ``o`` on ``state``."""
    t = o["template"]
    els: list[str] = []
    if t["kind"] == "disc":
        (cx, cy), r = t["centre"], t["radius"]
        els.append(svg_circle(cx, cy, r, "template", data_template=t["shape"]))
        lx, ly = cx, cy + r + 0.35
    else:
        d = TeardropDims(t["length"], 2 * t["near"]["radius"], 2 * t["far"]["radius"])
        poly = place(d, tuple(t["tip"]), tuple(t["toward"]), t["shape"]).polygon()
        els.append(svg_geometry(poly, "template", data_template=t["shape"]))
        (lx, ly), r = t["far"]["centre"], t["far"]["radius"]
        ly += r + 0.35
    figs = state.all_figures()
    marked = [state.figure(c["model"]) for c in o["covered"]]
    taken: list = []

    def label(f, text, cls):
        els.append(svg_label(*label_spot(f.x, f.y - f.base.reach - 0.3, text, [f], figs, taken), text, cls))

    why = {e["model"]: e["reason"] for e in o.get("excluded", ())}
    for c in o["covered"]:
        f = state.figure(c["model"])
        els.append(svg_base(f, "covered-full" if c["full"] else "covered-part", data_model=f.id))
        if f.id in why:
            els.append(svg_base(f, "excluded", data_excluded=why[f.id]))
            label(f, f"{f.id}: {why[f.id]}", "excluded")
        else:
            label(f, f"{f.id} {c['inside']:.2f}\" inside" if c["full"] else f"{f.id} {c['overlap']:.2f}\" over", "template")
    if "target_point" in o:
        x, y = o["target_point"]
        els.append(svg_polyline([(x - 0.25, y - 0.25), (x + 0.25, y + 0.25)], "target-point"))
        els.append(svg_polyline([(x - 0.25, y + 0.25), (x + 0.25, y - 0.25)], "target-point"))
    els.append(svg_label(*label_spot(lx, ly, t["shape"], marked, figs, taken), t["shape"], "template"))
    return Layer("template", els, {"template": f"{t['shape']} template"})
