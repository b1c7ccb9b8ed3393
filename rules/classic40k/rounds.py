"""Fighting one round of a 40k 3rd edition close combat with dice, and its result.

:func:`fight_round` builds the round (:mod:`tapeline.rules.classic40k.melee`), rolls it through
the shared melee engine's dice engine (:func:`~tapeline.rules.melee.combat.resolve_round`: every
roll an event with its purpose), removes the casualties step by step, keeps the wounds lost by
models that survive, decides the result (:func:`~tapeline.rules.classic40k.resolution.decide`, a
roll-off on equal wounds) and records it in the state (``state.turn["c40k_combats"]``, by unit)
for the loser's morale test and the winner's advance or consolidation.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..dice import Dice
from ..errors import IllegalAction
from ..melee.combat import resolve_round
from ..melee.strike import RollLog
from ..state import GameState
from .melee import RULE, Choices, build_round, fighters_by_unit
from .resolution import CombatResult, decide

RESULTS_KEY = "c40k_combats"


def fight_round(state: GameState, unit_id: str, dice: Dice,
                choices: Choices = Choices()) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    """(new state, events, summary) of one round of the combat ``unit_id`` is in. A combat is
    fought once an Assault phase: a unit of it that has fought this turn (until ``end_turn``)
    makes a second round an illegal action."""
    rnd = build_round(state, unit_id, choices)
    done = [u for u in rnd.units if u in (state.turn.get(RESULTS_KEY) or {})]
    if done:
        raise IllegalAction(RULE, f"{', '.join(done)} already fought this turn: a combat is fought once an Assault phase "
                                  "(end_turn first)")
    log = resolve_round(rnd.combat, dice, collect_events=True)
    events: list[dict[str, Any]] = [{"type": "combat", "units": list(rnd.units), "charged": list(rnd.charged), "fighters": fighters_by_unit(rnd),
                     "readings": dict(rnd.readings)}]
    new = state
    for step, srec in zip(rnd.combat.steps, log.steps):
        events.append({"type": "initiative_step", "step": srec["step"]})
        for g in srec["groups"]:
            ev: dict[str, Any] = {"type": "strike", "unit": g["unit"], "group": g["group"], "models": g["models"], "attacks": g["attacks"],
                  "target": g["target"]}
            if "note" in g:
                ev["note"] = g["note"]
            else:
                ev.update({"hit_on": g["hit_on"], "wound_on": g["wound_on"],
                           "hits": _count(g["rolls"], 0, 1), "wounds": sum(g["wounds"]),
                           "unsaved": sum(s.get("unsaved", 0) for s in g["saves"]), "wounds_lost": g["wounds_lost"]})
            events.extend(g.get("events", []))
            events.append(ev)
        for u, gone in srec["removed"].items():
            new = new.without_models(u, gone)
            events.append({"type": "casualties", "unit": u, "models": gone, "step": srec["step"]})
    # wounds lost by models still standing (a multi-wound model hurt but not removed)
    for cu, losses in zip(rnd.combat.units, log.state):
        if losses.damage and cu.has_models(losses):
            m = cu.order[losses.removed].id
            lost = dict(new.unit(cu.id).wounds_lost)
            lost[m] = int(lost.get(m, 0)) + losses.damage
            new = new.with_wounds_lost(cu.id, lost)
    result = decide(rnd.combat, rnd.units, rnd.sides, log.state, dice)
    events.extend(dice.take_events())
    events.append({"type": "assault_result", **result.as_json()})
    new = record(new, result)
    summary = {"units": list(rnd.units), "removed": {u: [m for s in log.steps for m in s["removed"].get(u, [])] for u in rnd.units},
               "result": result.as_json()}
    return new, events, summary


def _count(rolls: Sequence[RollLog], step: int, category: int) -> int:
    return rolls[step]["counts"][category] if len(rolls) > step and len(rolls[step]["counts"]) > category else 0


def record(state: GameState, result: CombatResult) -> GameState:
    """Keep the result under each unit of the combat (replacing any earlier one)."""
    table = dict(state.turn.get(RESULTS_KEY) or {})
    for u in result.units:
        table[u] = result.as_json()
    return state.with_turn(RESULTS_KEY, table)


def last_result(state: GameState, unit_id: str, rule: str) -> CombatResult:
    """The result of the last round ``unit_id`` fought (an error naming ``rule`` if none)."""
    d: Optional[dict[str, Any]] = (state.turn.get(RESULTS_KEY) or {}).get(unit_id)
    if d is None:
        raise IllegalAction(rule, f"{unit_id} has fought no close combat whose result could be used")
    return CombatResult.from_json(d)


def combat_record(state: GameState, unit_id: str) -> dict[str, Any] | str:
    """What the last round of ``unit_id``'s combat decided (or why there is none): the winner,
    the wounds each side inflicted (``points``), Massacre (an enemy destroyed outright), the
    tiebreak and the losing unit's morale test (``passed``, ``failed``, ``none``)."""
    got = (state.turn.get(RESULTS_KEY) or {}).get(unit_id)
    if got is None:
        return f"{unit_id} has fought no combat"
    tests = got.get("morale") or {}
    test = tests.get(unit_id) or next(iter(tests.values()), None)
    panic = "none" if test is None else ("passed" if test["passed"] else "failed")
    detail = (f"wounds inflicted {got['wounds']}, winner {got['winner'] or 'none (draw)'}"
              f"{' (tiebreaker ' + str(got['rolls']) + ')' if got['tiebreak'] else ''}, enemy destroyed {got['outright']}, morale {panic}")
    return {"winner": got["winner"], "points": got["wounds"], "massacre": bool(got["outright"] and got["winner"] is not None),
            "tiebreak": bool(got["tiebreak"]), "panic": panic, "detail": detail}
