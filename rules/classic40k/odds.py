"""The exact odds of one round of a 40k 3rd edition close combat, as the ``fight`` answer.

:func:`fight_answer` builds the round (:func:`~tapeline.rules.classic40k.melee.build_round`),
pushes the joint distribution through its Initiative steps (:func:`~tapeline.rules.melee.combat.round_odds`)
and reads the casualties, the wounds and the result off it
(:mod:`tapeline.rules.classic40k.resolution`).
"""

from __future__ import annotations

from typing import Any

from ..melee.combat import round_odds
from ..state import GameState
from .melee import Choices, Round, build_round, fighters_by_unit
from .resolution import falls_back_odds, result_odds


def steps_json(rnd: Round) -> list[dict[str, Any]]:
    """One entry per pool of Strike Groups (the dice rolled together), in striking order (the
    full-strength attacks); ``fresh_opponents``: the units its models may turn to when their
    foes have fallen (setting ``c40k_fresh_opponent``)."""
    out: list[dict[str, Any]] = []
    for k, step in enumerate(rnd.combat.steps):
        seen: dict[object, dict[str, Any]] = {}
        for i, g in enumerate(step.groups):
            a = g.against[0]
            fresh = [x.target for x in g.against[1:]]
            key: object = g.pool.key if g.pool is not None else i
            if key in seen:
                e = seen[key]
                e["attacks"] += sum(n for _, n in g.dice)
                e["fresh_opponents"] += [t for t in fresh if t not in e["fresh_opponents"]]
                continue
            seen[key] = {
                "step": k, "initiative": g.info["initiative"], "strikes": g.info["strikes"], "unit": g.unit,
                "weapon": g.info["weapon"], "models": list(g.pool.models if g.pool else g.models), "attacks": sum(n for _, n in g.dice),
                "target": a.target, "hit_on": a.hit_on, "wound_on": a.wound_on, "save_on": g.info["save_on"],
                "fresh_opponents": fresh,
                **({"cover": g.info["cover"]} if g.info.get("cover") else {}),
            }
        out += seen.values()
    return out


def fight_answer(state: GameState, unit_id: str, choices: Choices = Choices()) -> dict[str, Any]:
    rnd = build_round(state, unit_id, choices)
    odds = round_odds(rnd.combat)
    res = result_odds(odds, rnd.sides)
    cas = {u: odds.removed_pmf(u) for u in rnd.units}
    wounds = {u: odds.wounds_lost_pmf(u) for u in rnd.units}
    by_unit = {u: state.unit(u).side for u in rnd.units}
    return {
        "system": state.system,
        "unit": unit_id,
        "combat": list(rnd.units),
        "charged": list(rnd.charged),
        "fighters": fighters_by_unit(rnd),
        "attacks": {fi.model: {"attacks": fi.attacks, "weapon": fi.weapon.name, "bonuses": list(fi.bonuses),
                               "initiative": fi.initiative, "strength": fi.strength, "targets": dict(fi.targets)}
                    for fi in rnd.fighters},
        "steps": steps_json(rnd),
        "expected_casualties": {u: p.mean for u, p in cas.items()},
        "casualties_pmf": {u: p.as_list() for u, p in cas.items()},
        "expected_wounds": {u: p.mean for u, p in wounds.items()},
        "wounds_pmf": {u: p.as_list() for u, p in wounds.items()},
        "result": {**{u: res[by_unit[u]] for u in rnd.units}, "draw": res["draw"]},
        "sides": {s: res[s] for s in rnd.sides},
        "falls_back": falls_back_odds(odds, rnd.sides, state),
        "readings": dict(rnd.readings, c40k_morale_modifier=state.settings.get("c40k_morale_modifier", "none")),
    }
