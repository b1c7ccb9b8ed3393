"""``tapeline render FILE --los A B``: the sight line between two models.

When B is visible to A, the witness segment is drawn (class ``witness``) with a label; when it
is not, every blocking piece is outlined (class ``blocker``) and labelled with its reason
(``full_cover``, ``direct_cover``, ``dead_zone``, ``height``, ...), and a dashed centre-to-centre
line shows the pair.
"""

from __future__ import annotations

from tapeline.board.render import Layer, svg_geometry, svg_label, svg_polyline
from tapeline.rules.systems import system

from ..cliutil import model


def add_arguments(parser) -> None:
    parser.add_argument("--los", nargs=2, metavar=("A", "B"), default=None,
                        help="draw the sight line from model A to model B, or what blocks it")


def layers(args, loaded) -> list[Layer]:
    if not getattr(args, "los", None):
        return []
    a, b = (model(loaded, m, "--los") for m in args.los)
    st = loaded.state
    s = system(st.system).visible(st, a, b)
    fa, fb = st.figure(a), st.figure(b)
    out: list[str] = []
    if s.visible:
        (x0, y0), (x1, y1) = s.witness
        out.append(svg_polyline([(x0, y0), (x1, y1)], "witness"))
        out.append(svg_label((x0 + x1) / 2, (y0 + y1) / 2 + 0.35, f"{a} sees {b}", "witness"))
    else:
        out.append(svg_polyline([fa.at, fb.at], "blocker", stroke_dasharray="0.3 0.2"))
        reasons: dict = {}
        for t, r in s.blocked_by:
            reasons.setdefault(t, []).append(r)
        for t, rs in reasons.items():
            if t is None:
                continue
            piece = st.table.piece(t)
            out.append(svg_geometry(piece.footprint, "blocker"))
            c = piece.footprint.representative_point()
            out.append(svg_label(c.x, c.y, f"{t}: {', '.join(rs)}", "blocker"))
        other = [r for t, r in s.blocked_by if t is None]
        if other:
            mx, my = (fa.x + fb.x) / 2, (fa.y + fb.y) / 2
            out.append(svg_label(mx, my + 0.4, ", ".join(other), "blocker"))
    return [Layer("los", out)]
