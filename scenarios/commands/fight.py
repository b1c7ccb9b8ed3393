"""``tapeline fight FILE --unit U [--target T ...] [--assign MODEL=UNIT ...] [--surge-to T]
[--charged U] [--weapon MODEL=W ...]``: who fights and the exact odds of close combat.

The arguments are the command-line contract's; what they mean is the system's
(:meth:`tapeline.rules.systems.RuleSystem.fight_odds`):

* StarCraft TMG (§8.8): the unit's Close Combat Attack as the board stands — Fighting and
  Supporting Rank, attack dice per target unit, exact odds per target (``--charged U`` naming
  the unit itself adds its IMPACT dice);
* Horus Heresy 3rd and 40k 3rd: one whole round of the combat the unit is in, Initiative step
  by step, casualties of each step removed before the next strikes: ``steps``,
  ``expected_casualties``, ``casualties_pmf``, ``result`` and ``sides`` (40k adds who fights,
  each model's attacks, the wounds and the chance each unit falls back, and the readings used).
"""

from __future__ import annotations

from ..cli import emit
from ..cliutil import ArgumentError, add_file, answer, fmt, load, model, unit



def register(sub) -> None:
    p = sub.add_parser("fight", help="who fights, and the exact odds of close combat")
    add_file(p)
    p.add_argument("--unit", required=True, metavar="U", help="the unit whose fight is asked about")
    p.add_argument("--target", action="append", default=[], metavar="T", help="enemy unit (repeat for several)")
    p.add_argument("--assign", action="append", default=[], metavar="MODEL=UNIT",
                   help="the unit a model attacks (StarCraft: a model in the Fighting Rank against several)")
    p.add_argument("--surge-to", action="append", default=None, metavar="T",
                   help="the target unit the Surge Die goes to (StarCraft; once: the Surge Die is never split)")
    p.add_argument("--charged", metavar="U", help="the unit that charged this turn")
    p.add_argument("--weapon", action="append", default=[], metavar="MODEL=W", help="the weapon a model fights with")
    p.set_defaults(func=run)


def _pairs(loaded, items, what: str, place: str, once: tuple[str, str]) -> dict:
    """``MODEL=VALUE`` items by model; a model named twice is refused by the rule ``once``."""
    from tapeline.rules.errors import IllegalAction

    out: dict = {}
    for item in items or ():
        if "=" not in item:
            raise ArgumentError(loaded.file, place, f"wants MODEL={what}, not {item!r}")
        m, v = item.split("=", 1)
        m = model(loaded, m.strip(), place)
        if m in out and out[m] != v.strip():
            rule, why = once
            raise IllegalAction(rule, f"{place} names {m} twice ({out[m]}, {v.strip()}): {why}")
        out[m] = v.strip()
    return out


def query(loaded, args) -> dict:
    """The JSON answer (what the Python API's ``Game.fight`` returns)."""
    from tapeline.rules.errors import ChoiceError
    from tapeline.rules.systems import FightChoices, rules_for

    st = loaded.state
    rules = rules_for(st.system)
    u = unit(loaded, args.unit, "--unit")
    targets = tuple(unit(loaded, t, "--target") for t in args.target or ())
    assign = {m: unit(loaded, t, "--assign")
              for m, t in _pairs(loaded, args.assign, "UNIT", "--assign", rules.one_per_model["assign"]).items()}
    weapons = _pairs(loaded, args.weapon, "W", "--weapon", rules.one_per_model["weapons"])
    surge = [args.surge_to] if isinstance(args.surge_to, str) else list(args.surge_to or ())
    # "--surge-to a,b" names two targets as surely as "--surge-to a --surge-to b" (unless a
    # unit's id has the comma): either is a split of the Surge Die, refused by the rules
    surge = [t.strip() for s in surge for t in ([s] if st.has_unit(s) else s.split(",")) if t.strip()]
    surge_to = tuple(unit(loaded, s, "--surge-to") for s in surge)
    charged = unit(loaded, args.charged, "--charged") if getattr(args, "charged", None) else None
    try:
        return rules.fight_odds(st, u, FightChoices(targets, assign, weapons, surge_to, charged))
    except ChoiceError as e:
        raise ArgumentError(loaded.file, "--" + e.choice.replace("_", "-"), e.message) from None


def human(o: dict) -> str:
    return _round_text(o) if "steps" in o else _close_combat_text(o)


def run(args) -> int:
    out = answer("fight", query(load(args), args))
    emit(out, args.json, human(out))
    return 0


def _close_combat_text(o: dict) -> str:
    lines = [f"{o['unit']}: Close Combat Attack (§8.8.1)",
             f"  Fighting Rank: {', '.join(o['fighting_rank']) or 'none'}",
             f"  Supporting Rank: {', '.join(o['supporting_rank']) or 'none'}"]
    if not o["dice"]:
        lines.append("  no attack dice: no striking model has a Combat-phase weapon")
    for t, n in o["dice"].items():
        who = [m for m, tt in o["assign"].items() if tt == t]
        surge = "; Surge Die here" if o["surge_to"] == t else ""
        ev = f"; Evade ({', '.join(o['evade'][t])})" if t in o["evade"] else ""
        lines.append(f"  at {t}: {n} attack dice from {', '.join(who)}{surge}{ev}")
        od = o["odds"][t]
        al = od["kills_at_least"]
        lines.append(f"    hits (avg) {fmt(od['mean_hits'])}   damage {fmt(od['mean_damage'])}   kills {fmt(od['mean_kills'])}")
        lines.append("    chance to kill at least: " + "  ".join(f"{k}: {100 * p:.2f}%" for k, p in enumerate(al) if k > 0))
    if "impact" in o:
        im = o["impact"]
        lines.append(f"  IMPACT ({im['x']}) {im['y']}+ after the Charge:")
        for t, n in im["dice"].items():
            od = im["odds"][t]
            lines.append(f"    at {t}: {n} dice, kills (avg) {fmt(od['mean_kills'])}, P(at least 1) {100 * (od['kills_at_least'][1] if len(od['kills_at_least']) > 1 else 0):.2f}%")
    lines.append("  casualties by the Engaged priority (§8.7.5), 'within Engagement Range' read as "
                 + ("within 1\" of an enemy model" if o["casualty_priority_range"] == "within_1" else "engaging an enemy model (§7.2)"))
    return "\n".join(lines)


def _pct(p: float) -> str:
    return f"{100 * p:.2f}%"


def _round_text(o: dict) -> str:
    head = f"combat of {o['unit']}: {', '.join(o['combat'])}"
    if "active_side" in o:
        head += f" (active side {o['active_side']}); Initiative steps {', '.join(str(i) for i in o['initiative_steps'])}"
    if o.get("charged"):
        head += f"; charged: {', '.join(o['charged'])}"
    lines = [head]
    if "attacks" in o:  # 40k: who fights
        for u, ms in o["fighters"].items():
            lines.append(f"  {u} fights with {len(ms)}: {', '.join(ms)}")
    for s in o["steps"]:
        w = s["wound_on"]
        wtxt = f"wound {w}+" if isinstance(w, int) else ("no wound possible" if w is None else str(w))
        sv = f"save {s['save_on']}+" if s["save_on"] is not None else "no save"
        when = {"first": "first (in cover)", "last": "last"}.get(s.get("strikes"), f"I{s['initiative']}")
        lines.append(f"  {when}: {s['unit']} {s['weapon']} x{len(s['models'])} ({s['attacks']} attacks) at "
                     f"{s['target']}: hit {s['hit_on']}+, {wtxt}, {sv}")
    for u, pmf in o["casualties_pmf"].items():
        dist = "  ".join(f"{k}: {_pct(p)}" for k, p in enumerate(pmf) if p > 5e-7)
        lines.append(f"{u} casualties (avg {fmt(o['expected_casualties'][u])}): {dist}")
    res = ", ".join(f"{s} wins {_pct(p)}" for s, p in o["sides"].items())
    lines.append(f"result: {res}, draw {_pct(o['result']['draw'])}")
    if o.get("falls_back"):
        lines.append("falls back: " + ", ".join(f"{u} {_pct(p)}" for u, p in o["falls_back"].items() if p is not None))
    if o.get("excluded"):
        lines.append(f"in a challenge (not fighting here): {', '.join(o['excluded'])}")
    if o.get("readings"):
        lines.append("readings: " + ", ".join(f"{k}={v}" for k, v in o["readings"].items()))
    return "\n".join(lines)
