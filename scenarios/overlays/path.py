"""``tapeline render FILE --path MODEL --via X,Y [--via X,Y ...] [--max D]``: a proposed move
drawn on the board, as ``tapeline path`` checks it.

The path of the model's centre (class ``path``), the base where it would end (``end-base``)
with the length (and the allowance) as its label; an illegal path marks its first violation
(class ``violation``: a ring at the spot, labelled with the kind of violation and what it
runs into) and the piece
it runs into (``blocker``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import shapely

from tapeline.board.render import Label, Layer, focus_box, svg_circle, svg_geometry, svg_polyline

from ..answers import inches

if TYPE_CHECKING:
    from ..game import Game

#: ``path``: the moving model; ``via``: the points its centre goes through; ``max``: the allowance.
OPTIONS: dict[str, Any] = {"path": None, "via": None, "max": None}


def layers(game: Game, opts: Mapping[str, Any]) -> list[Layer]:
    if not opts.get("path"):
        return []
    p = game.path(opts["path"], opts.get("via") or [], max=opts.get("max"))
    st = game.state
    f = st.figure(p.model)
    pts = [f.at] + [tuple(map(float, v)) for v in opts.get("via") or []]
    out = [svg_polyline(pts, "path")]
    (ex, ey) = pts[-1]
    out.append(svg_circle(ex, ey, f.base.reach, "end-base"))
    labels = []
    if p.legal:
        text = f"{p.model}: {inches(p.length)}\"" + (f" of {inches(p.max)}\"" if p.max is not None else "")
        labels.append(Label(ex, ey, text, "path", f.base.reach))
    else:
        v = p.violation or {}
        vx, vy = v.get("at", pts[-1])
        out.append(svg_circle(vx, vy, 0.25, "violation"))
        obstacle = v.get("obstacle")
        if isinstance(obstacle, str) and obstacle in st.table.by_id:
            out.append(svg_geometry(st.table.piece(obstacle).footprint, "blocker"))
        what = str(v.get("kind", "illegal")).replace("_", " ") + (f": {obstacle}" if obstacle else "")
        labels.append(Label(vx, vy, what[:60], "violation", 0.25))
    return [Layer("path", out, {"path": f"the path of {p.model}", "end-base": "where it would end"},
                  focus=focus_box([f], [shapely.LineString(pts) if len(pts) > 1 else None]), labels=labels)]
