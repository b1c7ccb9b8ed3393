"""``tapeline measure FILE A B``: gap, base contact, engagement range and engagement."""

from __future__ import annotations

from ..cli import emit
from ..cliutil import add_pair, answer, fmt, load, pair


def register(sub) -> None:
    p = sub.add_parser("measure", help="measure between two models")
    add_pair(p)
    p.set_defaults(func=run)


def query(loaded, args) -> dict:
    """The JSON answer for models ``args.a`` and ``args.b``."""
    from tapeline.board import measure
    from tapeline.rules.systems import rules_for

    a, b = pair(loaded, args)
    st = loaded.state
    fa, fb = st.figure(a), st.figure(b)
    g = measure.gap(fa, fb)
    c = measure.contact(fa, fb)
    rules = rules_for(st.system)
    e = rules.engaged(st, a, b)
    er = rules.engagement_range
    shown_gap = 0.0 if c.ok else g
    return {
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


def human(o: dict) -> str:
    a, b, er = o["a"], o["b"], o["engagement_distance"]
    within = f"within {er:g}\""
    m = abs(o["margin"])
    explain = f"{within} by {m:.6g}\"" if o["engagement_range"] else f"not {within}: {m:.6g}\" too far"
    return "\n".join([
        f"gap {a} to {b}: {fmt(o['gap'])}\"" + (" (overlap)" if o["gap"] < 0 else ""),
        f"base contact: {'yes' if o['contact'] else 'no'}",
        f"engagement range ({'base contact' if er == 0 else f'{er:g}' + chr(34)}): "
        + ("yes, " if o["engagement_range"] else "no, ") + explain,
        f"engaged: {'yes' if o['engaged'] else 'no'}"
        + (f" ({o['detail']})" if o["detail"] and not o["engaged"] and o["reason"] else ""),
    ])


def run(args) -> int:
    out = answer("measure", query(load(args), args))
    emit(out, args.json, human(out))
    return 0
