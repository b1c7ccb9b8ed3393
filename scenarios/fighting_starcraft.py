"""The ``fight`` command's answer for StarCraft TMG (§8.8) (see :mod:`tapeline.scenarios.commands.fight`).

The unit's Close Combat Attack as the board stands (rules/starcraft/melee.py): its Fighting
and Supporting Rank, who strikes which unit with what, attack dice per target unit and the
exact odds per target (hits, damage, kills; casualties by the Engaged priority). With
``--charged U`` naming the unit itself (it charged this turn) the answer adds its IMPACT dice
and their exact odds per charged unit.
"""

from __future__ import annotations

from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft import impact as impact_rules
from tapeline.rules.starcraft import melee

from .cliutil import fmt, model, unit


#: Why a model may be named only once: one Combat weapon per model (§8.8.1 step 3), one unit
#: attacked per model (§8.8.1 Fighting multiple Units).
ONCE = {"--weapon": (melee.RULE, "one Combat-phase weapon per model (step 3)"),
        "--assign": (melee.MULTI, "a model attacks one enemy unit")}


def _pairs(loaded, items, flag: str) -> dict:
    out = {}
    for item in items or ():
        if "=" not in item:
            raise IllegalAction("arguments", f"{flag} wants MODEL=VALUE, not {item!r}")
        m, v = item.split("=", 1)
        m = model(loaded, m.strip(), flag)
        if m in out and out[m] != v.strip():
            rule, why = ONCE[flag]
            raise IllegalAction(rule, f"{flag} names {m} twice ({out[m]}, {v.strip()}): {why}")
        out[m] = v.strip()
    return out


def _odds_json(o) -> dict:
    return {"dice": o.dice, "mean_hits": o.hits.mean, "mean_damage": o.damage.mean, "mean_kills": o.kills.mean,
            "hits_pmf": o.hits.as_list(), "kills_pmf": o.kills.as_list(), "kills_at_least": o.kills.at_least_list()}


def answer(loaded, args) -> tuple[dict, str]:
    st = loaded.state
    u = unit(loaded, args.unit, "--unit")
    targets = [unit(loaded, t, "--target") for t in args.target or []]
    assign = {m: unit(loaded, t, "--assign") for m, t in _pairs(loaded, args.assign, "--assign").items()}
    weapons = _pairs(loaded, args.weapon, "--weapon")
    surge = [args.surge_to] if isinstance(args.surge_to, str) else list(args.surge_to or ())
    # "--surge-to a,b" names two targets as surely as "--surge-to a --surge-to b" (unless a
    # unit's id has the comma): either is a split of the Surge Die, refused by the rules
    surge = [t.strip() for s in surge for t in ([s] if st.has_unit(s) else s.split(",")) if t.strip()]
    surge = [unit(loaded, s, "--surge-to") for s in surge]
    cc = melee.declare(st, u, targets or None, assign, weapons, surge or None)
    odds = melee.odds(st, cc, settings=st.settings)
    out = {
        "system": "starcraft",
        "unit": u,
        "fighters": {u: list(cc.assign)},
        "fighting_rank": cc.ranks.fighting_rank,
        "supporting_rank": cc.ranks.supporting_rank,
        "assign": dict(cc.assign),
        "weapons": dict(cc.weapons),
        "dice": cc.dice(),
        "surge_to": cc.surge_to,
        "evade": {t: list(v) for t, v in cc.evade.items() if v},
        "odds": {t: _odds_json(o) for t, o in odds.items()},
        "casualty_priority_range": st.settings.get("casualty_priority_range", "within_1"),
    }
    charged = getattr(args, "charged", None)
    if charged is not None:
        charged = unit(loaded, charged, "--charged")
        if charged == u:
            imp = impact_rules.declare(st, u, targets or None)
            if imp is not None:
                out["impact"] = {
                    "x": imp.x, "y": imp.y, "dice": imp.dice(),
                    "odds": {t: _odds_json(o) for t, o in impact_rules.odds(st, imp, st.settings).items()},
                }
    return out, human(out)


def human(o: dict) -> str:
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
