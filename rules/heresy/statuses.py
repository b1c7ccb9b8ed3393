"""Horus Heresy 3rd Tactical Statuses (§A.5): gaining them, and what they forbid.

Four statuses — **Pinned, Suppressed, Stunned, Routed** — and **Disgraced** (from a refused
challenge, §A.6). A status applies to the whole unit; gaining one the unit has has no further
effect; gaining **Routed** removes all the others. Common penalties (§A.5): any charge is
Disordered (:mod:`rules.heresy.charge`), Combat Initiative 1 when locked in combat
(:mod:`rules.heresy.melee`), no objectives, never Stationary. Each status adds its own: Pinned
cannot move, Rush, charge, Pursue or Disengage; Suppressed snaps its shots; Stunned declares no
Reactions; Routed snaps, reacts not, cannot charge and must Fall Back.

Besides statuses, a unit carries *states* the rules ask about: ``rushed`` (it Rushed this turn),
``embarked`` (on a transport), ``disembarked`` (this turn; ``disordered`` is an older name).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..state import GameState

TACTICAL = ("pinned", "suppressed", "stunned", "routed")
STATUSES = TACTICAL + ("disgraced",)
STATES = ("rushed", "embarked", "disembarked", "disordered")


def has_status(state: GameState, unit_id: str) -> bool:
    """Does the unit suffer the common status penalties (§A.5)?"""
    return bool(set(state.unit(unit_id).status) & set(STATUSES))


def gain_status(state: GameState, unit_id: str, status: str, why: str = "") -> tuple[GameState, list[dict[str, Any]]]:
    """The unit gains ``status`` (§A.5): nothing new if it has it; Routed removes the others."""
    u = state.unit(unit_id)
    if status in u.status:
        return state, []
    now = set(u.status)
    lost: list[str] = []
    if status == "routed":
        lost = sorted(now & set(STATUSES))
        now -= set(STATUSES)
    now.add(status)
    ev: dict[str, Any] = {"type": "status", "unit": unit_id, "gained": status}
    if lost:
        ev["lost"] = lost
    if why:
        ev["why"] = why
    return state.with_unit(replace(u, status=frozenset(now))), [ev]


def lose_status(state: GameState, unit_id: str, status: str, why: str = "") -> tuple[GameState, list[dict[str, Any]]]:
    u = state.unit(unit_id)
    if status not in u.status:
        return state, []
    ev: dict[str, Any] = {"type": "status", "unit": unit_id, "lost": [status]}
    if why:
        ev["why"] = why
    return state.with_unit(replace(u, status=frozenset(set(u.status) - {status}))), [ev]
