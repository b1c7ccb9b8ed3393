"""One face for the three systems' charges, used by the ``charge`` command, action and
expectation: :func:`reach` and :func:`resolve` dispatch on the state's system and return plain
JSON-ready dictionaries with the spec's keys (``distance``, ``min_roll``, ``probability``,
``path``, ``end``, ``success``)."""

from __future__ import annotations

import importlib
from typing import Optional, Sequence


def repeated_targets(targets: Sequence[str]):
    """``(index, target, index of its first naming)`` for every target named again: a charge
    declares each target unit once (the action, the expectation and the command refuse
    repeats, located at the repeat)."""
    return [(i, t, list(targets).index(t)) for i, t in enumerate(targets) if t in targets[:i]]


def target_problems(targets: Sequence[str]):
    """``(field, message)`` for each repeated target of a file's charge entry."""
    for i, t, first in repeated_targets(targets):
        yield f"targets.{i}", f"{t!r} is already a declared target of the charge (targets[{first}]): name each target unit once"


def _module(system: str):
    return importlib.import_module(f"tapeline.rules.{system}.charge")


def _xy(p):
    return None if p is None else [round(float(p[0]), 9), round(float(p[1]), 9)]


def _num(x):
    return None if x is None else round(float(x), 9)


def reach(state, unit: str, targets: Sequence[str], leader: Optional[str] = None, modifier: int = 0):
    """(the system's result object, its JSON answer)."""
    rc = _module(state.system).reach(state, unit, list(targets), leader, modifier)
    odds = rc.odds
    out = {
        "system": state.system,
        "unit": unit,
        "targets": list(rc.targets),
        "leader": rc.plan.leader if rc.plan is not None else None,
        "distance": _num(rc.distance),
        "min_roll": odds.min_roll,
        "probability": odds.probability,
        "probability_fraction": odds.fraction,
        "dice": odds.dice.name,
        "path": [_xy(p) for p in rc.path],
        "end": _xy(rc.end),
    }
    if state.system == "starcraft":
        out.update({"speed": rc.speed, "modifier": rc.modifier, "reach": odds.as_json()["reach"], "grass_crossed": list(rc.grass), "notes": list(rc.notes)})
    else:
        out.update({"allowed": rc.allowed, "reason": rc.reason, "details": {k: (_xy(v) if k == "end" else v) for k, v in rc.details.items()}})
    return rc, out


def resolve(state, unit: str, targets: Sequence[str], rolls: Sequence[int], leader: Optional[str] = None, modifier: int = 0,
            target_models: Optional[dict] = None):
    """(new state, JSON answer with ``success`` and where the models went)."""
    mod = _module(state.system)
    new, res = mod.resolve(state, unit, list(targets), list(rolls), leader, modifier, target_models)
    if state.system == "starcraft":
        rc = res.reach
        out = {
            "success": res.success, "roll": res.roll, "rolls": list(res.rolls),
            "distance": _num(rc.distance), "min_roll": rc.odds.min_roll, "probability": rc.odds.probability,
            "leader": rc.leader, "charge_distance": rc.speed + rc.modifier + res.roll,
            "end": _xy(res.end) if res.success else None,
            "path": [_xy(p) for p in res.path] if res.success else [],
            "target_model": res.target_model, "target_models": dict(res.target_models), "contact": res.contact,
            "end_gap": _num(res.end_gap), "end_gaps": {k: _num(v) for k, v in res.end_gaps.items()}, "placed": {k: _xy(v) for k, v in res.placed.items()},
            "removed": list(res.removed), "out_of_coherency": list(res.out_of_coherency),
            "grass_removed": list(res.grass_removed),
        }
        return new, out
    return new, _contact_answer(res)


def _contact_answer(res: dict) -> dict:
    res = dict(res)
    cc = res.pop("charge")
    out = {
        "success": res["success"], "roll": res["roll"], "rolls": res["rolls"],
        "distance": _num(cc.distance), "min_roll": cc.odds.min_roll, "probability": cc.odds.probability,
        "leader": res.get("leader", cc.plan.leader if cc.plan else None),
        "end": _xy(res.get("end")) if res["success"] else None,
        "path": [_xy(p) for p in cc.path] if res["success"] else [],
        "placed": {k: _xy(v) for k, v in res.get("placed", {}).items()},
        "stayed": res.get("stayed", []), "in_contact": res.get("in_contact", []),
    }
    for k in ("note", "at_once", "setup", "moves", "compared_with", "cool_check", "ended", "search"):
        if k in res:
            out[k] = res[k]
    return out


def execute(state, unit: str, targets: Sequence[str], dice, leader: Optional[str] = None, modifier: int = 0,
            target_models: Optional[dict] = None, options: Optional[dict] = None):
    """The whole charge with the file's dice: (new state, JSON answer, events). Horus Heresy
    rolls as its procedure goes (Set-up Move first, the Cool Check after a failure); the
    other systems roll the charge dice, then resolve."""
    if state.system == "heresy":
        from tapeline.rules.heresy.charge import charge

        new, res, events = charge(state, unit, list(targets), dice, leader, modifier, options)
        return new, _contact_answer(res), events
    if options:
        from tapeline.rules.errors import IllegalAction

        raise IllegalAction("charge", f"{', '.join(sorted(options))}: Volleys and Overwatch are Horus Heresy rules, not {state.system}'s")
    if state.system == "classic40k":
        from tapeline.rules.classic40k.charge import charge as assault

        new, res, events = assault(state, unit, list(targets), dice, leader, modifier)
        return new, _contact_answer(res), events
    rc, _info = reach(state, unit, targets, leader, modifier)
    n = rc.odds.dice.dice
    dice.take_events()
    rolls = dice.roll(n, f"charge roll ({unit}, {rc.odds.dice.name})") if n else []
    events = dice.take_events()
    new, res = resolve(state, unit, targets, rolls, leader, modifier, target_models)
    return new, res, events
