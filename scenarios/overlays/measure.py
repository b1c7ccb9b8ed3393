"""``tapeline render FILE --measure A B``: the gap between two models, drawn on the board.

The two bases ringed (class ``subject``), the shortest line between their edges (class
``pair``; a picture only: the number is the exact gap of :meth:`tapeline.Game.measure`) with
the gap and the Engagement Range verdict as its label, placed off both bases.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import shapely

from tapeline.board.render import Label, Layer, focus_box, svg_circle, svg_polyline

from ..answers import inches
from ..errors import ArgumentError

if TYPE_CHECKING:
    from ..game import Game

#: ``measure``: the two models (A, B).
OPTIONS: dict[str, Any] = {"measure": None}


def layers(game: Game, opts: Mapping[str, Any]) -> list[Layer]:
    if not opts.get("measure"):
        return []
    try:
        a, b = opts["measure"]
    except (TypeError, ValueError):
        raise ArgumentError("measure", "two model ids, A and B") from None
    m = game.measure(a, b)
    st = game.state
    fa, fb = st.figure(m.a), st.figure(m.b)
    out = [svg_circle(f.x, f.y, f.base.reach + 0.22, "subject") for f in (fa, fb)]
    if m.contact:
        line = shapely.LineString([fa.at, fb.at])
        text = f"{m.a}–{m.b}: base contact"
    else:
        line = shapely.shortest_line(fa.polygon, fb.polygon)
        text = f"gap {inches(m.gap)}\""
    if m.engagement_range is not None:
        text += " · engaged" if m.engaged else (" · in Engagement Range" if m.engagement_range else " · not in Engagement Range")
    out.append(svg_polyline(list(line.coords), "pair"))
    mid = line.interpolate(0.5, normalized=True)
    return [Layer("measure", out, {"subject": f"{m.a} and {m.b}", "pair": "the gap, edge to edge"},
                  focus=focus_box([fa, fb]), labels=[Label(mid.x, mid.y, text)])]
