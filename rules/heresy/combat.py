"""Horus Heresy 3rd combats (§A.1): who is locked in combat with whom.

A **combat** is two or more units chained together by base contact (at least one model of each
in base contact with an enemy model); a unit in one is **locked in combat**. tapeline reads the
locked state from the board: a unit is locked while one of its models is in base contact with a
model of an enemy unit. Vehicles (``unit_type: vehicle``) neither lock nor are locked (§A.3; a
Walker does), but a vehicle in base contact with enemies is in their combat: it may be struck
(it never strikes) and may only Hold.
"""

from __future__ import annotations

from typing import Optional

from tapeline.board.measure import gap_matrix
from tapeline.board.units import TOUCH

from ..state import GameState

#: Base contact: a gap of at most this (the placement of moved models leaves 1e-7").
CONTACT = 10 * TOUCH


def is_vehicle(state: GameState, unit_id: str) -> bool:
    return (state.unit(unit_id).stats.get("unit_type") or "").lower() == "vehicle"


def locked_with(state: GameState, unit_id: str, vehicles: bool = False) -> list[str]:
    """The enemy units ``unit_id`` has a model in base contact with (file order); vehicles count
    only with ``vehicles`` (a combat's members, not its locks)."""
    u = state.unit(unit_id)
    if not u.models or (is_vehicle(state, unit_id) and not vehicles):
        return []
    mine = state.figures_of(unit_id)
    out = []
    for e in state.enemies_of(unit_id):
        if is_vehicle(state, e.id) and not vehicles:
            continue
        if float(gap_matrix(mine, state.figures_of(e.id)).min()) <= CONTACT:
            out.append(e.id)
    return out


def is_locked(state: GameState, unit_id: str) -> bool:
    return bool(locked_with(state, unit_id))


def combat_of(state: GameState, unit_id: str) -> list[str]:
    """Every unit chained to ``unit_id`` by base contact, itself included (file order)."""
    seen, todo = {unit_id}, [unit_id]
    while todo:
        u = todo.pop()
        for e in locked_with(state, u, vehicles=True):
            if e not in seen:
                seen.add(e)
                todo.append(e)
    return [u.id for u in state.units if u.id in seen]


def active_side(state: GameState) -> Optional[str]:
    """The active player's side as this turn's charges show it (the side of a unit that declared
    a charge this phase); ``None`` when no charge was recorded."""
    for unit_id, _target in state.turn.get("charges") or ():
        if state.has_unit(unit_id):
            return state.unit(unit_id).side
    return None
