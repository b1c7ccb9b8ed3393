"""``tapeline los FILE A B``: is there a sight line, which one, or what blocks it.

JSON keys (spec): ``visible``, ``witness`` (``[[x, y], [x, y]]`` from A's base to B's base, or
null), ``blocked_by`` (list of ``{terrain, reason}``); also ``clearance`` (how far the witness
stays from the nearest blocking footprint, StarCraft) and ``detail``.
"""

from __future__ import annotations

from tapeline.rules.systems import system

from ..cli import emit
from ..cliutil import add_pair, fmt, load, model


def register(sub) -> None:
    p = sub.add_parser("los", help="line of sight between two models, with a witness or the blockers")
    add_pair(p)
    p.set_defaults(func=run)


def answer(loaded, a: str, b: str):
    """The system's :class:`board.sight.Sight` for models ``a`` and ``b`` of a loaded file."""
    return system(loaded.state.system).visible(loaded.state, a, b)


def run(args) -> int:
    loaded = load(args)
    a, b = model(loaded, args.a, "argument A"), model(loaded, args.b, "argument B")
    s = answer(loaded, a, b)
    out = {"a": a, "b": b} | s.as_dict()
    if s.visible:
        (x0, y0), (x1, y1) = s.witness
        lines = [f"{b} is visible to {a} (and {a} to {b})",
                 f"witness: ({fmt(x0)}, {fmt(y0)}) -> ({fmt(x1)}, {fmt(y1)})"]
        if s.clearance is not None:
            lines.append(f"clearance from the nearest blocking piece: {fmt(s.clearance)}\"")
        if s.detail and s.clearance is None:
            lines.append(s.detail)
    else:
        lines = [f"{b} is not visible to {a} (nor {a} to {b})"]
        for t, r in s.blocked_by:
            lines.append(f"  blocked by {t}: {r}" if t else f"  {r}")
    emit(out, args.json, "\n".join(lines))
    return 0
