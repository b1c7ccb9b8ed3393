"""Warhammer 40,000 3rd edition assault moves: the ``charge`` query and its resolution (§B.1).

The query (:func:`reach`) answers for the best Leading Model: a unit charges an enemy unit
within 6" (the nearest bases, edge to edge; farther: ``allowed: false``); the shortest route to
base contact is found twice — round difficult terrain (no roll: it succeeds iff the route is
at most 6") and through it (it succeeds when the highest of 2D6 covers the route, never beyond
6"). Several targets must each be within 2" of another.

The move itself (:func:`charge`, :func:`resolve`) is the whole assault of
:mod:`tapeline.rules.classic40k.assault`: every model by its own checked path, as many as
possible into base contact.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from tapeline.board.measure import gap_matrix
from tapeline.board.units import TOUCH

from ..charge_odds import BEST_OF_2D6, NO_ROLL, charge_odds
from ..contact_charge import ContactCharge, gate, plan_contact
from ..dice import Dice
from ..errors import IllegalAction
from ..state import GameState
from .assault import ASSAULT_MOVE, RULE, AssaultMove, assault_move, check_eligible, mark_charged, touches_difficult


def reach(state: GameState, unit_id: str, targets: Sequence[str], leader: Optional[str] = None, modifier: int = 0) -> ContactCharge:
    targets = tuple(targets)
    try:
        check_eligible(state, unit_id, targets)
        allowed, reason = True, ""
    except IllegalAction as e:
        if not all(state.has_unit(t) and state.unit(t).models for t in targets) or not targets:
            raise
        allowed, reason = False, e.message
    if not state.unit(unit_id).models:  # nothing to measure a charge from
        raise IllegalAction(RULE, f"unit {unit_id} has no models on the table")
    difficult = {p.id for p in state.table.pieces if p.has("difficult")}
    clear = plan_contact(state, unit_id, targets, leader, extra_pieces=difficult)
    through = plan_contact(state, unit_id, targets, leader)
    assert clear is not None and through is not None  # the unit has models to move
    gaps = [float(gap_matrix(state.figures_of(unit_id), state.figures_of(t)).min()) for t in targets]  # each target's nearest
    details: dict[str, Any] = {"assault_move": ASSAULT_MOVE, "nearest_gap": min(gaps), "clear_route": clear.distance, "difficult_crossed": [],
                               "gate": gate("within", max(gaps), ASSAULT_MOVE, RULE)}
    if not allowed:
        plan = through if through.distance is not None else clear
        return ContactCharge(unit_id, targets, plan.leader, plan, charge_odds(None, ASSAULT_MOVE, NO_ROLL), False, reason, details)
    if clear.distance is not None and clear.distance <= ASSAULT_MOVE + TOUCH:
        return ContactCharge(unit_id, targets, clear.leader, clear, charge_odds(clear.distance, ASSAULT_MOVE, NO_ROLL), True, "", details)
    crossed: list[str] = []
    if through.path is not None:
        crossed = touches_difficult(state, state.figure(through.leader), through.path.points())
    details["difficult_crossed"] = crossed
    if through.distance is not None and crossed and through.distance <= ASSAULT_MOVE + TOUCH:
        details["note"] = "difficult terrain on the path: 2D6, use the highest, as the maximum move"
        odds = charge_odds(through.distance, modifier, BEST_OF_2D6)
        return ContactCharge(unit_id, targets, through.leader, through, odds, True, "", details)
    plan = through if through.distance is not None else clear
    odds = charge_odds(plan.distance if plan.distance is not None else None, ASSAULT_MOVE, NO_ROLL)
    return ContactCharge(unit_id, targets, plan.leader, plan, odds, True, "" if plan.distance is not None else "no route into base contact", details)


def _answer(cc: ContactCharge, am: AssaultMove) -> dict[str, Any]:
    moves = {m.model: m for m in am.moves}
    lead = moves.get(cc.plan.leader) if cc.plan is not None else None
    out = {"success": am.success, "roll": am.roll, "rolls": list(am.rolls), "charge": cc,
           "leader": cc.plan.leader if cc.plan else None, "end": lead.end if lead is not None else None,
           "placed": {m.model: m.end for m in am.moves if m.how != "stayed"},
           "stayed": sorted(m.model for m in am.moves if m.how == "stayed"), "in_contact": list(am.contacts),
           "moves": [m.as_json() for m in am.moves], "search": am.search}
    if not am.success:
        out["note"] = "the assault falls short: the models moved, but no combat follows"
    return out


def charge(state: GameState, unit_id: str, targets: Sequence[str], dice: Dice, leader: Optional[str] = None,
           modifier: int = 0) -> tuple[GameState, dict[str, Any], list[dict[str, Any]]]:
    """The whole assault with the file's dice: (new state, outcome, events)."""
    cc = reach(state, unit_id, targets, leader, modifier)
    if not cc.allowed:
        raise IllegalAction(RULE, cc.reason)
    dice.take_events()
    new, am = assault_move(state, unit_id, targets, dice)
    events = dice.take_events()
    if am.success:
        new = mark_charged(new, unit_id)
    return new, _answer(cc, am), events


def resolve(state: GameState, unit_id: str, targets: Sequence[str], rolls: Sequence[int], leader: Optional[str] = None,
            modifier: int = 0, target_models: Optional[Mapping[str, str]] = None) -> tuple[GameState, dict[str, Any]]:
    """The assault with a known roll (``--roll N``: the highest of the 2D6, used only when a
    model needs difficult terrain)."""
    cc = reach(state, unit_id, targets, leader, modifier)
    if not cc.allowed:
        raise IllegalAction(RULE, cc.reason)
    new, am = assault_move(state, unit_id, targets, None, None, roll=max(rolls) if rolls else None)
    if am.success:
        new = mark_charged(new, unit_id)
    return new, _answer(cc, am)
