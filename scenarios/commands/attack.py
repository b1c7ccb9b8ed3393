"""``tapeline attack FILE --unit U --weapon W --target T``: exact odds of a Ranged Attack.

Resolved on the real board (§8.7.3): which models fire (in Range of a target model Visible to
them; LONG RANGE ones at −1), which target models may be removed (Visible to a firing model,
or all when the target is Engaged), whether the target rolls Evade; then the exact
distributions of hits, damage dice, damage and kills (§8.7.4). ``--weapon`` may be repeated
(several Batches of the unit at the same target, in order); ``--also UNIT:WEAPON`` adds another
unit's Batch.
"""

from __future__ import annotations

from ..cli import emit
from ..cliutil import ArgumentError, add_file, answer, fmt, int_in, load, unit

#: The command line's bounds of each modifier (the same as a shoot action's Batch).
BOUNDS = {"hit": (-6, 6), "precision": (0, 100), "critical_hit": (0, 100), "tough": (0, 100), "dodge": (0, 100)}


def register(sub) -> None:
    p = sub.add_parser("attack", help="exact odds of a StarCraft TMG Ranged Attack on the board")
    add_file(p)
    p.add_argument("--unit", required=True, help="attacking unit id")
    p.add_argument("--weapon", required=True, action="append", help="weapon (repeat for several Batches)")
    p.add_argument("--target", required=True, help="target unit id")
    p.add_argument("--also", action="append", default=[], metavar="UNIT:WEAPON", help="another unit's Batch at the same target")
    p.add_argument("--hit", type=int_in(*BOUNDS["hit"]), default=0, help="Hit modifier (+X easier)")
    p.add_argument("--precision", type=int_in(*BOUNDS["precision"]), default=0, help="extra PRECISION (X)")
    p.add_argument("--critical-hit", type=int_in(*BOUNDS["critical_hit"]), default=0, help="extra CRITICAL HIT (X)")
    p.add_argument("--tough", type=int_in(*BOUNDS["tough"]), default=0, help="TOUGH (X) of the target")
    p.add_argument("--dodge", type=int_in(*BOUNDS["dodge"]), default=0, help="DODGE (X) of the target")
    p.add_argument("--evade", action="store_true", help="an ability grants the target an Evade roll")
    p.set_defaults(func=run)


def _mods(file: str, args) -> dict:
    for name, (lo, hi) in BOUNDS.items():  # argparse bounds them too; the Python API comes here
        if getattr(args, name) not in range(lo, hi + 1):
            raise ArgumentError(file, f"--{name.replace('_', '-')}", f"{getattr(args, name)} is out of range ({lo} to {hi})")
    return {"hit": args.hit, "precision": args.precision, "critical_hit": args.critical_hit,
            "tough": args.tough, "dodge": args.dodge, "grant_evade": args.evade}


def run(args) -> int:
    out = answer("attack", query(load(args), args))
    emit(out, args.json, human(out))
    return 0


def query(loaded, args) -> dict:
    """The JSON answer: ``args.unit`` firing ``args.weapon`` (one Batch each) at ``args.target``."""
    from tapeline.rules.errors import NotInThisSystem
    from tapeline.rules.systems import rules_for

    st = loaded.state
    target = unit(loaded, args.target, "--target")
    orders = [(unit(loaded, args.unit, "--unit"), w) for w in args.weapon]
    for a in args.also:
        if ":" not in a:
            raise ArgumentError(loaded.file, "--also", f"takes UNIT:WEAPON, got {a!r}")
        u, w = a.split(":", 1)
        orders.append((unit(loaded, u, "--also"), w))
    mods = _mods(loaded.file, args)
    try:
        return rules_for(st.system).attack_odds(st, orders, target, mods)
    except NotInThisSystem as e:
        raise ArgumentError(loaded.file, "--unit", e.message) from None


def human(o: dict) -> str:
    lines = [f"{o['unit']} at {o['target']}"]
    for b in o["batches"]:
        lr = f" (+{len(b['long_range_models'])} at LONG RANGE)" if b["long_range_models"] else ""
        ev = f"; Evade {b['evade']}+ ({', '.join(b['evade_reasons'])})" if b["evade"] is not None else ""
        lines.append(f"  {b['weapon']}: {len(b['firing_models'])} model(s) firing{lr}, {b['dice']} dice"
                     + (f", Surge {b['surge']}" if b["surge"] else "") + ev)
    lines.append(f"  {len(o['visible_targets'])} target model(s) may be removed: {', '.join(o['visible_targets'])}")
    reading = next((b["casualty_priority_range"] for b in o["batches"] if "casualty_priority_range" in b), None)
    if reading:
        lines.append("  the target is Engaged: casualties by the §8.7.5 priority, 'within Engagement Range' read as "
                     + ("within 1\" of an enemy model (seed wording)" if reading == "within_1" else "engaging an enemy model (§7.2)"))
    lines.append(f"hits (avg) {fmt(o['mean_hits'])}   damage dice {fmt(o['mean_damage_dice'])}   "
                 f"damage {fmt(o['mean_damage'])}   kills {fmt(o['mean_kills'])}")
    al = o["kills_at_least"]
    lines.append("chance to kill at least: " + "  ".join(f"{k}: {100 * p:.2f}%" for k, p in enumerate(al) if k > 0))
    return "\n".join(lines)
