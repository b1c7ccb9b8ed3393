"""``tapeline los FILE A B``: is there a sight line, which one, or what blocks it.

JSON keys (spec): ``visible``, ``witness`` (``[[x, y], [x, y]]`` from A's base to B's base, or
null), ``blocked_by`` (list of ``{terrain, reason}``); also ``clearance`` (how far the witness
stays from the nearest blocking footprint, StarCraft) and ``detail``.
"""

from __future__ import annotations

from ..cli import emit
from ..cliutil import add_pair, answer, fmt, load, pair


def register(sub) -> None:
    p = sub.add_parser("los", help="line of sight between two models, with a witness or the blockers")
    add_pair(p)
    p.set_defaults(func=run)


def sight(loaded, a: str, b: str):
    """The system's :class:`board.sight.Sight` for models ``a`` and ``b`` of a loaded file."""
    from tapeline.rules.systems import rules_for

    return rules_for(loaded.state.system).visible(loaded.state, a, b)


def query(loaded, args) -> dict:
    """The JSON answer for models ``args.a`` and ``args.b``."""
    a, b = pair(loaded, args)
    return {"a": a, "b": b} | sight(loaded, a, b).as_dict()


def human(o: dict) -> str:
    a, b = o["a"], o["b"]
    if o["visible"]:
        (x0, y0), (x1, y1) = o["witness"]
        lines = [f"{b} is visible to {a} (and {a} to {b})",
                 f"witness: ({fmt(x0)}, {fmt(y0)}) -> ({fmt(x1)}, {fmt(y1)})"]
        if o["clearance"] is not None:
            lines.append(f"clearance from the nearest blocking piece: {fmt(o['clearance'])}\"")
        if o["detail"] and o["clearance"] is None:
            lines.append(o["detail"])
    else:
        lines = [f"{b} is not visible to {a} (nor {a} to {b})"]
        for blk in o["blocked_by"]:
            t, r = blk["terrain"], blk["reason"]
            lines.append(f"  blocked by {t}: {r}" if t else f"  {r}")
    return "\n".join(lines)


def run(args) -> int:
    out = answer("los", query(load(args), args))
    emit(out, args.json, human(out))
    return 0
