"""Horus Heresy 3rd Reactions in the Assault phase (§A.4).

Only the reactive player reacts. Each side has a **Reaction allotment** per turn: 1 point, plus
1 for a battle of 1,501–3,500 points, 2 for 3,501–5,000, 3 above 5,000 (setting
``points_limit``; none given: 1). Each Reaction costs 1 point and each unit reacts at most once
per turn. A unit that is Stunned, Routed or locked in combat cannot react. The Reactions the
Assault phase names: **Overwatch** (the charged unit's Volley upgraded: any ranged weapon at
full BS, :mod:`rules.heresy.shooting`), **Evade** (a Light or Cavalry target moves away after the
Volleys) and **Heroic Intervention** (the reactive player issues a challenge the active player
passed on, :mod:`rules.heresy.challenge`).

>>> [reaction_allotment(p) for p in (None, 1500, 3000, 4000, 6000)]
[1, 1, 2, 3, 4]
"""

from __future__ import annotations

from typing import Any, Optional

from ..errors import IllegalAction
from ..state import GameState
from .combat import is_locked

RULE = "HH3 §A.4 Reactions"
NO_REACTIONS = ("stunned", "routed")


def reaction_allotment(points_limit: Optional[float]) -> int:
    """Reaction points per turn for a battle of ``points_limit`` points (§A.4)."""
    if points_limit is None or points_limit <= 1500:
        return 1
    if points_limit <= 3500:
        return 2
    if points_limit <= 5000:
        return 3
    return 4


def can_react(state: GameState, unit_id: str, in_combat: bool = False) -> str:
    """Why ``unit_id`` cannot react now ("" when it can); ``in_combat``: a Reaction made in a
    combat (Heroic Intervention), which being locked does not forbid."""
    u = state.unit(unit_id)
    bad = sorted(set(u.status) & set(NO_REACTIONS))
    if bad:
        return f"{unit_id} is {', '.join(bad)}: no Reactions"
    if is_locked(state, unit_id) and not in_combat:
        return f"{unit_id} is locked in combat: no Reactions"
    if unit_id in (state.turn.get("reacted") or ()):
        return f"{unit_id} has already reacted this turn"
    used = (state.turn.get("reactions_used") or {}).get(u.side, 0)
    allot = reaction_allotment(state.settings.get("points_limit"))
    if used >= allot:
        return f"side {u.side} has spent its {allot} Reaction point(s) this turn"
    return ""


def spend_reaction(state: GameState, unit_id: str, name: str, in_combat: bool = False) -> tuple[GameState, list[dict[str, Any]]]:
    """``unit_id`` makes Reaction ``name``: refused with the rule, or the point is spent."""
    why = can_react(state, unit_id, in_combat)
    if why:
        raise IllegalAction(RULE, f"{name}: {why}")
    side = state.unit(unit_id).side
    used = dict(state.turn.get("reactions_used") or {})
    used[side] = used.get(side, 0) + 1
    state = state.with_turn("reactions_used", used).with_turn("reacted", tuple(state.turn.get("reacted") or ()) + (unit_id,))
    allot = reaction_allotment(state.settings.get("points_limit"))
    return state, [{"type": "reaction", "unit": unit_id, "reaction": name, "points_left": allot - used[side]}]
