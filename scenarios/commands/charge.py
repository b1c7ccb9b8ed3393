"""``tapeline charge FILE --unit UNIT --target T [--target T2 ...] [--leader M] [--roll N] [--modifier K]``:
charge reach and exact odds under the file's system (StarCraft §8.7.7, Horus Heresy §A.3,
40k 3rd §B.1); with ``--roll`` also whether it succeeds and where the models end.

The unit is named with ``--unit`` as in every other command; the older positional spelling
``charge FILE UNIT`` still works and prints a deprecation note on standard error."""

from __future__ import annotations

from ..cli import emit
from ..cliutil import ArgumentError, add_file, answer, deprecated, fmt, int_in, load, model, unit
from ..limits import MAX_CHARGE_MODIFIER


def register(sub) -> None:
    p = sub.add_parser("charge", help="charge distance, smallest roll and exact odds")
    add_file(p)
    p.add_argument("--unit", dest="unit_opt", metavar="UNIT", help="charging unit id")
    p.add_argument("unit", metavar="UNIT", nargs="?", default=None,
                   help="charging unit id, the older spelling of --unit (deprecated)")
    p.add_argument("--target", action="append", required=True, metavar="T", help="declared target unit (repeat for several)")
    p.add_argument("--leader", metavar="M", help="Leading Model (default: the one with the shortest route)")
    p.add_argument("--roll", type=int_in(1, 6), metavar="N", help="the charge roll's result (the die kept); resolves the charge")
    p.add_argument("--modifier", type=int_in(-MAX_CHARGE_MODIFIER, MAX_CHARGE_MODIFIER), default=0, metavar="K", help="added to the charge distance (Concussive Shells: -2)")
    p.add_argument("--target-model", action="append", default=[], metavar="T=M", help="nominate target model M of unit T")
    p.set_defaults(func=run)


def charging_unit(args) -> str:
    """The unit named by ``--unit`` or (deprecated) by the positional ``UNIT``."""
    if args.unit is not None:
        if args.unit_opt is not None and args.unit_opt != args.unit:
            raise ArgumentError(args.file, "--unit", f"two charging units given: {args.unit!r} and {args.unit_opt!r}")
        if args.unit_opt is None:
            deprecated(f"`tapeline charge FILE UNIT` is deprecated; write `tapeline charge FILE --unit {args.unit}`")
        return args.unit
    if args.unit_opt is None:
        raise ArgumentError(args.file, "--unit", "name the charging unit: --unit UNIT")
    return args.unit_opt


def run(args) -> int:
    name = charging_unit(args)
    out = answer("charge", query(load(args), args, name))
    emit(out, args.json, human(out))
    return 0


def query(loaded, args, name=None) -> dict:
    """The JSON answer: reach and odds of ``args.unit``'s charge at ``args.target``; with
    ``args.roll`` also the outcome."""
    from tapeline.rules.systems import rules_for

    from ..validate import repeated_targets

    name = args.unit if name is None else name
    st = loaded.state
    u = unit(loaded, name, "--unit")
    targets = [unit(loaded, t, "--target") for t in args.target]
    twice = sorted({t for _i, t, _first in repeated_targets(targets)})
    if twice:
        raise ArgumentError(loaded.file, "--target", f"{', '.join(twice)} named more than once: name each target unit once")
    leader = model(loaded, args.leader, "--leader") if args.leader else None
    if leader is not None and st.figure(leader).unit != u:
        raise ArgumentError(loaded.file, "--leader", f"{leader} is not a model of {u}")
    if not -MAX_CHARGE_MODIFIER <= args.modifier <= MAX_CHARGE_MODIFIER:
        raise ArgumentError(loaded.file, "--modifier", f"{args.modifier} is out of range (-{MAX_CHARGE_MODIFIER} to {MAX_CHARGE_MODIFIER})")
    tm = {}
    for item in args.target_model:
        if "=" not in item:
            raise ArgumentError(loaded.file, "--target-model", f"wants T=M, not {item!r}")
        t, m = item.split("=", 1)
        if unit(loaded, t, "--target-model") not in targets:
            raise ArgumentError(loaded.file, "--target-model", f"{t} is not a declared target (--target)")
        if st.figure(model(loaded, m, "--target-model")).unit != t:
            raise ArgumentError(loaded.file, "--target-model", f"{m} is not a model of {t}")
        tm[t] = m
    rules = rules_for(st.system)
    rc, out = rules.charge_reach(st, u, targets, leader, args.modifier)
    if args.roll is not None:
        if args.roll not in range(1, 7):
            raise ArgumentError(loaded.file, "--roll", f"a die result 1..6, not {args.roll}")
        _new, res = rules.charge_outcome(st, u, targets, [args.roll], leader, args.modifier, tm)
        out["success"] = res["success"]
        out["roll"] = res
        if res["success"]:
            out["end"], out["path"] = res["end"], res["path"]
    return out


def human(o: dict) -> str:
    return _human(o) + ("\n" + _human_roll(o["roll"]) if "roll" in o else "")


def _human(o: dict) -> str:
    tg = ", ".join(o["targets"])
    if o["distance"] is None:
        head = f"{o['unit']} charging {tg}: no legal end spot can be reached"
    else:
        head = f"{o['unit']} charging {tg}: Leading Model {o['leader']} needs {fmt(o['distance'])}\" of path to a legal end spot at ({fmt(o['end'][0])}, {fmt(o['end'][1])})"
    parts = [head]
    if o["system"] == "starcraft":
        r = o["reach"]
        parts.append(f"charge distance Speed {o['speed']}{o['modifier']:+d} + {o['dice']}: {r['min']}\"–{r['max']}\", {r['mean']:g}\" on average")
        if o["grass_crossed"]:
            parts.append(f"the path crosses Grass: {', '.join(o['grass_crossed'])} (removed)")
        parts += [f"note: {n}" for n in o.get("notes", [])]
    else:
        if not o["allowed"]:
            parts.append(f"not allowed: {o['reason']}")
        d = o["details"]
        if "setup_move" in d:
            parts.append(f"Set-up Move {d['setup_move']}\"" + (" (Disordered)" if d.get("disordered") else ""))
        if d.get("note"):
            parts.append(d["note"])
    if o["dice"] == "none":
        parts.append(f"no roll: {'succeeds' if o['probability'] == 1 else 'cannot succeed'}")
    else:
        need = f"needs a {o['min_roll']}+" if o["min_roll"] is not None else "no roll succeeds"
        parts.append(f"{o['dice']}: {need}, probability {o['probability_fraction']} ({100 * o['probability']:.1f}%)")
    return "\n".join(parts)


def _human_roll(r: dict) -> str:
    if not r["success"]:
        return f"rolled {r['roll']}: the charge fails (no move)"
    s = f"rolled {r['roll']}: the charge succeeds; {r['leader']} ends at ({fmt(r['end'][0])}, {fmt(r['end'][1])})"
    noms = r.get("target_models") or ({None: r["target_model"]} if r.get("target_model") else {})
    if "in_contact" in r:  # Horus Heresy, 40k: every model's own move
        s += f"; in base contact: {', '.join(r['in_contact']) or 'none'}"
    if r.get("contact"):
        s += f" in base contact with {', '.join(noms.values())}"
    elif r.get("end_gaps"):
        s += ", " + ", ".join(f"{fmt(g)}\" from {m}" for m, g in r["end_gaps"].items())
    if r.get("removed"):
        s += f"; removed (no legal linked spot): {', '.join(r['removed'])}"
    return s
