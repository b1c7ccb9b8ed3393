"""``tapeline render FILE --los A B``: the sight line between two models.

The two models are ringed (class ``subject``). When B is visible to A, the witness segment is
drawn (class ``witness``) with a label; when it is not, every blocking piece is outlined (class
``blocker``) and labelled with its reason (``full_cover``, ``direct_cover``, ``dead_zone``,
``height``, ...), and a dashed centre-to-centre line shows the pair (class ``pair``). Labels are
placed by the picture, off every base (:class:`board.render.Label`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional


from tapeline.board.render import Label, Layer, focus_box, svg_circle, svg_geometry, svg_polyline

from ..errors import ArgumentError

if TYPE_CHECKING:
    from ..game import Game

#: ``los``: the two models (A, B).
OPTIONS: dict[str, Any] = {"los": None}


def layers(game: Game, opts: Mapping[str, Any]) -> list[Layer]:
    if not opts.get("los"):
        return []
    try:
        a, b = opts["los"]
    except (TypeError, ValueError):
        raise ArgumentError("los", "two model ids, A and B") from None
    a, b = game._model(a, "los"), game._model(b, "los")
    st = game.state
    s = game.rules.visible(st, a, b)
    fa, fb = st.figure(a), st.figure(b)
    labels: list[Label] = []

    def label(x: float, y: float, text: str, cls: str) -> None:
        labels.append(Label(x, y, text, cls))

    out: list[str] = [svg_circle(f.x, f.y, f.base.reach + 0.22, "subject") for f in (fa, fb)]
    if s.visible:
        assert s.witness is not None  # a visible pair has its witness
        (x0, y0), (x1, y1) = s.witness
        out.append(svg_polyline([(x0, y0), (x1, y1)], "witness"))
        label((x0 + x1) / 2, (y0 + y1) / 2, f"{a} sees {b}", "witness")
    else:
        out.append(svg_polyline([fa.at, fb.at], "pair"))
        reasons: dict[Optional[str], list[str]] = {}
        for t, r in s.blocked_by:
            reasons.setdefault(t, []).append(r)
        for t, rs in reasons.items():
            if t is None:
                continue
            piece = st.table.piece(t)
            out.append(svg_geometry(piece.footprint, "blocker"))
            c = piece.footprint.representative_point()
            label(c.x, c.y, f"{t}: {', '.join(rs)}", "blocker")
        other = [r for t, r in s.blocked_by if t is None]
        if other:
            mx, my = (fa.x + fb.x) / 2, (fa.y + fb.y) / 2
            label(mx, my, ", ".join(other), "blocker")
    legend = {"witness": f"sight line {a} → {b} (witness)"} if s.visible else {"blocker": f"blocks sight {a} → {b}"}
    return [Layer("los", out, legend | {"subject": f"{a} and {b}"}, focus=focus_box([fa, fb]), labels=labels)]
