"""The ``fight`` command's answer for Horus Heresy 3rd and 40k 3rd (see :mod:`tapeline.scenarios.commands.fight`).

One whole round of the combat ``--unit`` is in, Initiative step by step, casualties of each
step removed before the next strikes, read off the shared melee engine's exact joint
distribution (:mod:`tapeline.rules.melee`). Each system has one function here turning the
command's arguments into its answer (:data:`SYSTEMS`); the JSON keys and the human text are
shared: ``steps`` (``{initiative, unit, weapon, models, attacks, target, hit_on, wound_on,
save_on}`` per Strike Group, in striking order), ``expected_casualties``, ``casualties_pmf``,
``result`` (``{unit: P(its side wins), "draw": P}``) and ``sides``.

* Horus Heresy (:func:`tapeline.rules.heresy.melee.odds`): with the Combat Resolution Points.
  ``--target`` orders the enemy units the unit's models attack, ``--assign MODEL=UNIT`` names
  one model's target, ``--charged U`` the unit that charged this turn, ``--weapon MODEL=W`` a
  model's weapon.
* 40k 3rd (:func:`tapeline.rules.classic40k.odds.fight_answer`): ``fighters`` (every model
  within 2" of an enemy model), each model's ``attacks``, ``wounds_pmf``, the chance each unit
  ``falls_back``, the ``readings`` used. ``--charged U`` the unit that assaulted this turn (+1
  Attack; defenders in cover strike first), ``--assign MODEL=UNIT`` the enemy unit a model
  attacks, ``--weapon MODEL=W`` its weapon, ``--target T`` only these enemy units.
"""

from __future__ import annotations

from .cliutil import ArgumentError, fmt, model, unit


def _pairs(loaded, items, what: str, place: str) -> dict:
    out = {}
    for item in items or ():
        if "=" not in item:
            raise ArgumentError(loaded.file, place, f"wants MODEL={what}, not {item!r}")
        m, v = item.split("=", 1)
        out[model(loaded, m.strip(), place)] = v.strip()
    return out


def _common(loaded, args) -> tuple:
    u = unit(loaded, args.unit, "--unit")
    targets = [unit(loaded, t, "--target") for t in args.target]
    assign = {m: unit(loaded, t, "--assign") for m, t in _pairs(loaded, args.assign, "UNIT", "--assign").items()}
    weapons = _pairs(loaded, args.weapon, "W", "--weapon")
    charged = unit(loaded, args.charged, "--charged") if args.charged else None
    if getattr(args, "surge_to", None):
        raise ArgumentError(loaded.file, "--surge-to", "the Surge Die is a StarCraft rule")
    return u, targets, assign, weapons, charged


def _heresy(loaded, args) -> dict:
    from tapeline.rules.heresy.melee import odds

    u, targets, assign, weapons, charged = _common(loaded, args)
    return odds(loaded.state, u, targets, assign, charged, weapons)


def _classic40k(loaded, args) -> dict:
    from tapeline.rules.classic40k.fight import Choices
    from tapeline.rules.classic40k.odds import fight_answer

    u, targets, assign, weapons, charged = _common(loaded, args)
    return fight_answer(loaded.state, u, Choices(weapons, assign, {}, (charged,) if charged else (), tuple(targets)))


#: system -> function(loaded, args) -> the JSON answer
SYSTEMS = {"heresy": _heresy, "classic40k": _classic40k}


def answer(loaded, args) -> tuple[dict, str]:
    out = SYSTEMS[loaded.state.system](loaded, args)
    return out, human(out)


def _pct(p: float) -> str:
    return f"{100 * p:.2f}%"


def human(o: dict) -> str:
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
