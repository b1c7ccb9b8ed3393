"""The ``fight`` command's answer for Horus Heresy 3rd and 40k 3rd (see :mod:`tapeline.scenarios.commands.fight`).

Horus Heresy (:func:`tapeline.rules.heresy.melee.odds`): one whole round of the combat the unit
is in, Initiative step by step, with the exact casualty distributions (earlier steps'
casualties removing later attackers), the Combat Resolution Points and the chance each side
wins. ``--target`` orders the enemy units the unit's models attack, ``--assign MODEL=UNIT``
names one model's target, ``--charged U`` the unit that charged this turn, ``--weapon MODEL=W``
a model's weapon.
"""

from __future__ import annotations

from tapeline.rules.errors import IllegalAction

from .cliutil import ArgumentError, fmt, model, unit


def _pairs(loaded, items, what: str, place: str) -> dict:
    out = {}
    for item in items or ():
        if "=" not in item:
            raise ArgumentError(loaded.file, place, f"wants MODEL={what}, not {item!r}")
        m, v = item.split("=", 1)
        out[model(loaded, m.strip(), place)] = v.strip()
    return out


def answer(loaded, args) -> tuple[dict, str]:
    st = loaded.state
    if st.system != "heresy":
        raise IllegalAction("fight", f"the fight query is not available yet for system {st.system}")
    from tapeline.rules.heresy.melee import odds

    u = unit(loaded, args.unit, "--unit")
    targets = [unit(loaded, t, "--target") for t in args.target]
    assign = {m: unit(loaded, t, "--assign") for m, t in _pairs(loaded, args.assign, "UNIT", "--assign").items()}
    weapons = _pairs(loaded, args.weapon, "W", "--weapon")
    charged = unit(loaded, args.charged, "--charged") if args.charged else None
    if getattr(args, "surge_to", None):
        raise ArgumentError(loaded.file, "--surge-to", "the Surge Die is a StarCraft rule")
    out = odds(st, u, targets, assign, charged, weapons)
    return out, human(out)


def _pct(p: float) -> str:
    return f"{100 * p:.2f}%"


def human(o: dict) -> str:
    lines = [f"combat of {o['unit']}: {', '.join(o['combat'])} (active side {o['active_side']}); "
             f"Initiative steps {', '.join(str(i) for i in o['initiative_steps'])}"]
    for s in o["steps"]:
        w = s["wound_on"]
        wtxt = f"wound {w}+" if isinstance(w, int) else ("no wound possible" if w is None else str(w))
        sv = f"save {s['save_on']}+" if s["save_on"] is not None else "no save"
        lines.append(f"  I{s['initiative']}: {s['unit']} {s['weapon']} x{len(s['models'])} ({s['attacks']} attacks) at "
                     f"{s['target']}: hit {s['hit_on']}+, {wtxt}, {sv}")
    for u, pmf in o["casualties_pmf"].items():
        dist = "  ".join(f"{k}: {_pct(p)}" for k, p in enumerate(pmf) if p > 5e-7)
        lines.append(f"{u} casualties (avg {fmt(o['expected_casualties'][u])}): {dist}")
    res = ", ".join(f"{s} wins {_pct(p)}" for s, p in o["sides"].items())
    lines.append(f"result: {res}, draw {_pct(o['result']['draw'])}")
    if o.get("excluded"):
        lines.append(f"in a challenge (not fighting here): {', '.join(o['excluded'])}")
    return "\n".join(lines)
