"""``tapeline path FILE MODEL --via X,Y [--via X,Y ...] [--max D]``: check a proposed path for a
model's centre, from where it stands through the given points, under the file's system's
movement rules: legal, or the first violation with where it happens and what causes it."""

from __future__ import annotations

import math

from ..cli import emit
from ..cliutil import ArgumentError, add_file, answer, fmt, load, model, number_in, xy
from ..limits import MAX_INCHES, MAX_LIST


def register(sub) -> None:
    p = sub.add_parser("path", help="validate a proposed movement path")
    add_file(p)
    p.add_argument("model", metavar="MODEL", help="the moving model (its centre follows the path)")
    p.add_argument("--via", action="append", required=True, metavar="X,Y", help="next point of the path (repeat)")
    p.add_argument("--max", type=number_in(0, MAX_INCHES), metavar="D", help="longest path allowed (inches)")
    p.add_argument("--may-engage", action="store_true",
                   help="the move may end within 1\" of enemies (StarCraft: a Charge); default: it may not (Move, Run)")
    p.set_defaults(func=run)


def run(args) -> int:
    out = answer("path", query(load(args), args))
    emit(out, args.json, human(out))
    return 0


def query(loaded, args) -> dict:
    """The JSON answer: is ``args.model``'s path through ``args.via`` legal (within ``args.max``)."""
    from tapeline.board.pathcheck import check_path
    from tapeline.rules.charge_geometry import space_for
    from tapeline.rules.systems import rules_for

    st = loaded.state
    m = model(loaded, args.model, "argument MODEL")
    if args.max is not None and not (isinstance(args.max, (int, float)) and math.isfinite(args.max) and 0 <= args.max <= MAX_INCHES):
        raise ArgumentError(loaded.file, "--max", f"a length from 0 to {MAX_INCHES:g} inches, not {args.max!r}")
    if len(args.via) > MAX_LIST:
        raise ArgumentError(loaded.file, "--via", f"{len(args.via)} points; the limit is {MAX_LIST}")
    pts = [st.figure(m).at] + [xy(v, "--via") for v in args.via]
    system = rules_for(st.system)
    rules = system.move_rules(st, st.figure(m), args.may_engage)
    space = space_for(st, rules)
    fig = st.figure(m)
    res = check_path(space, pts, args.max, rules.end_check(st.table, fig))
    out = {"model": m, "legal": res.legal, "length": res.length, "clearance": rules.rho,
           "violation": None if res.violation is None else res.violation.as_json(),
           "ends_on": rules.level_at(*pts[-1])}
    if args.max is not None:
        out["max"] = args.max
    out.update(system.path_notes(st, pts))
    return out


def human(o: dict) -> str:
    if o["legal"]:
        mx = o.get("max")
        text = f"legal: {o['model']} travels {fmt(o['length'])}\"" + (
            f" of {fmt(mx)}\" allowed (margin {fmt(mx - o['length'])}\")" if mx is not None else "")
        if o.get("ends_on") is not None:
            text += f", ending on {o['ends_on']}"
    else:
        v = o["violation"]
        text = f"illegal: {v['kind']} at ({fmt(v['at'][0])}, {fmt(v['at'][1])}): {v['detail']}"
    if o.get("grass_crossed"):
        text += f"\ncrosses Grass: {', '.join(o['grass_crossed'])} (removed)"
    return text
