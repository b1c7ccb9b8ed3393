"""``tapeline measure FILE A B``: gap, base contact, engagement range and engagement."""

from __future__ import annotations

from tapeline.board import measure
from tapeline.rules.systems import system

from ..cli import emit
from ..cliutil import add_pair, fmt, load, model


def register(sub) -> None:
    p = sub.add_parser("measure", help="measure between two models")
    add_pair(p)
    p.set_defaults(func=run)


def run(args) -> int:
    loaded = load(args)
    a, b = model(loaded, args.a, "argument A"), model(loaded, args.b, "argument B")
    st = loaded.state
    fa, fb = st.figure(a), st.figure(b)
    g = measure.gap(fa, fb)
    c = measure.contact(fa, fb)
    sysmod = system(st.system)
    e = sysmod.engaged(st, a, b)
    er = sysmod.ENGAGEMENT_RANGE
    shown_gap = 0.0 if c.ok else g
    out = {
        "a": a,
        "b": b,
        "gap": shown_gap,
        "contact": c.ok,
        "engagement_range": e.in_range.ok,
        "engaged": e.engaged,
        "engagement_distance": er,
        "margin": e.in_range.margin,
        "reason": e.reason,
        "detail": e.detail,
    }
    lines = [
        f"gap {a} to {b}: {fmt(shown_gap)}\"" + (" (overlap)" if g < 0 and not c.ok else ""),
        f"base contact: {'yes' if c.ok else 'no'}",
        f"engagement range ({'base contact' if er == 0 else f'{er:g}' + chr(34)}): "
        + ("yes, " if e.in_range.ok else "no, ")
        + e.in_range.explain(f"within {er:g}\""),
        f"engaged: {'yes' if e.engaged else 'no'}" + (f" ({e.detail})" if e.detail and not e.engaged and e.reason else ""),
    ]
    emit(out, args.json, "\n".join(lines))
    return 0
