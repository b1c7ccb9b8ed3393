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

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import shapely

from tapeline.board.render import Label, Layer, focus_box, svg_base, svg_circle, svg_geometry, svg_polyline
from tapeline.board.table import Figure
from tapeline.board.templates import TeardropDims, place
from tapeline.rules.state import GameState

from ..errors import ArgumentError

if TYPE_CHECKING:
    from ..game import Game

#: ``template``: a shape (``"blast"``), or a StarCraft unit and weapon and optionally the target
#: model (``("siege-tank", "crucio-shock-cannon", "z1")``); ``at``, ``toward``: points;
#: ``model``: the firing model; ``on``: the piece an ability template's Target Point stands on.
OPTIONS: dict[str, Any] = {"template": None, "at": None, "toward": None, "model": None, "on": None}


def layers(game: Game, opts: Mapping[str, Any]) -> list[Layer]:
    spec = opts.get("template")
    if not spec:
        return []
    spec = [spec] if isinstance(spec, str) else list(spec)
    if len(spec) == 1:
        o = game.template(spec[0], opts.get("at"), opts.get("toward"), model=opts.get("model"), on=opts.get("on"))
    elif len(spec) in (2, 3):
        o = game.template(unit=spec[0], weapon=spec[1], target=spec[2] if len(spec) == 3 else None,
                          model=opts.get("model"), on=opts.get("on"), at=opts.get("at"))
    else:
        raise ArgumentError("template", "give SHAPE, or UNIT WEAPON [TARGET]")
    return [picture(game.state, o.as_json())]


def step_layers(before: GameState, after: GameState, events: Sequence[Mapping[str, Any]]) -> list[Layer]:
    """The template of a replayed ``shoot`` with a template weapon (its ``template`` event)."""
    return [picture(before, ev) for ev in events if ev.get("type") == "template"]


def picture(state: GameState, o: Mapping[str, Any]) -> Layer:
    """The layer for a ``tapeline template`` answer (or a ``template`` event) ``o`` on ``state``."""
    t = o["template"]
    els: list[str] = []
    if t["kind"] == "disc":
        (cx, cy), r = t["centre"], t["radius"]
        els.append(svg_circle(cx, cy, r, "template", data_template=t["shape"]))
        outline = shapely.Point(cx, cy).buffer(r)
        lx, ly = cx, cy + r + 0.35
    else:
        d = TeardropDims(t["length"], 2 * t["near"]["radius"], 2 * t["far"]["radius"])
        outline = place(d, tuple(t["tip"]), tuple(t["toward"]), t["shape"]).polygon()
        els.append(svg_geometry(outline, "template", data_template=t["shape"]))
        (lx, ly), r = t["far"]["centre"], t["far"]["radius"]
        ly += r + 0.35
    marked = [state.figure(c["model"]) for c in o["covered"]]
    labels: list[Label] = []

    def label(f: Figure, text: str, cls: str) -> None:
        labels.append(Label(f.x, f.y, text, cls, f.base.reach))  # beside its model

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
        els += target_point_mark(*o["target_point"])
    labels.append(Label(lx, ly - 0.35, t["shape"], "template"))
    return Layer("template", els, {"template": f"{t['shape']} template"}, focus=focus_box(marked, [outline]), labels=labels)


#: The Target Point's mark: four strokes of an X from this far from the point to ``TP_OUTER``
#: (inches), the middle left clear so a model's id written there stays readable.
TP_INNER, TP_OUTER = 0.45, 0.8


def target_point_mark(x: float, y: float) -> list[str]:
    """The Target Point at ``(x, y)``: an X whose middle is open (class ``target-point``)."""
    out = []
    for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        k0, k1 = TP_INNER / 2 ** 0.5, TP_OUTER / 2 ** 0.5
        out.append(svg_polyline([(x + dx * k0, y + dy * k0), (x + dx * k1, y + dy * k1)], "target-point"))
    return out
