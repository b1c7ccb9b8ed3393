"""Horus Heresy 3rd Reactions in the Assault phase (§A.4).

Only the reactive player reacts. Each side has a **Reaction allotment** per turn: 1 point, plus
1 for a battle of 1,501–3,500 points, 2 for 3,501–5,000, 3 above 5,000 (setting
``points_limit``; none given: 1). Each Reaction costs 1 point and each unit reacts at most once
per turn. A unit that is Stunned, Routed or locked in combat cannot react. The Reactions the
Assault phase names: **Overwatch** (the charged unit's Volley upgraded: any ranged weapon at
full BS, :mod:`rules.heresy.shooting`), **Evade** (a Light or Cavalry target moves away after the
Volleys), **Heroic Intervention** (the reactive player issues a challenge the active player
passed on, :mod:`rules.heresy.challenge`) and the Legiones Astartes **Shield** reaction
(:func:`shield`).

**Shield** (seed §Reactions: "Legiones Astartes Advanced Reaction, costs 1 Reaction Allotment.
Declared at the start of step 4 (Volley Attacks): +1 Toughness for the phase if the majority of
the unit has the Shield trait"): the charged unit declares it — a Reaction, so only the
reactive player's, and never by a unit that is Stunned, Routed or locked in combat, or that has
reacted this turn — when the charge reaches step 4 (not when the Set-up Move reached base
contact, nor when the target is locked with another unit: no step 4 then). The unit must be
Legiones Astartes (tag ``legiones_astartes``) and more than half of its models must have the
Shield trait (tag or model sub-type ``shield``), counted when it is declared. It costs one
Reaction point; the unit's Toughness is then one higher until the end of the turn's Assault
phase (the Volleys of that charge, every fight and challenge of the phase: :func:`toughness_bonus`).

>>> [reaction_allotment(p) for p in (None, 1500, 3000, 4000, 6000)]
[1, 1, 2, 3, 4]
>>> [has_majority(k, 5) for k in (2, 3, 5)], has_majority(2, 4)
([False, True, True], False)
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..errors import IllegalAction
from ..state import GameState
from .checks import model_subtypes
from .combat import is_locked

RULE = "HH3 §A.4 Reactions"
SHIELD_RULE = "HH3 §A.4 Shield (Legiones Astartes)"
NO_REACTIONS = ("stunned", "routed")
#: The tag that makes a unit Legiones Astartes, and the trait the Shield reaction counts.
LEGIONES_ASTARTES = "legiones_astartes"
SHIELD_TRAIT = "shield"


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


def has_majority(k: int, n: int) -> bool:
    """Do ``k`` of ``n`` models make "the majority of the unit"? More than half: 3 of 5, not 2
    of 4."""
    return 2 * k > n


def shield_problem(state: GameState, unit_id: str) -> str:
    """Why ``unit_id`` may not declare the Shield reaction for its models (the Reaction's own
    conditions, :func:`can_react` aside): "" when it may."""
    u = state.unit(unit_id)
    if not u.models:
        return f"{unit_id} has no models on the table"
    if not all(LEGIONES_ASTARTES in model_subtypes(state, m) for m in u.models):
        return f"{unit_id} is not Legiones Astartes (tag {LEGIONES_ASTARTES}): Shield is a Legiones Astartes Reaction"
    k = sum(SHIELD_TRAIT in model_subtypes(state, m) for m in u.models)
    if not has_majority(k, len(u.models)):
        return f"only {k} of {unit_id}'s {len(u.models)} models have the Shield trait: the majority must"
    return ""


def shield(state: GameState, unit_id: str) -> tuple[GameState, list[dict[str, Any]]]:
    """``unit_id`` declares the Shield reaction at the start of the Volley step: refused with the
    rule, or the Reaction point spent and +1 Toughness for the phase."""
    why = shield_problem(state, unit_id)
    if why:
        raise IllegalAction(SHIELD_RULE, why, field="shield")
    try:
        state, events = spend_reaction(state, unit_id, "shield")
    except IllegalAction as e:
        raise IllegalAction(SHIELD_RULE, e.message, field="shield") from None
    state = state.with_turn("shield", tuple(state.turn.get("shield") or ()) + (unit_id,))
    u = state.unit(unit_id)
    k = sum(SHIELD_TRAIT in model_subtypes(state, m) for m in u.models)
    return state, events + [{"type": "shield", "unit": unit_id, "toughness": "+1", "shield_models": k, "models": len(u.models),
                             "why": "Shield reaction: +1 Toughness for the phase"}]


def can_evade(state: GameState, unit_id: str) -> bool:
    """Whether ``unit_id`` may Evade (§A.4): every model Light or Cavalry (model sub-type, or a
    Cavalry unit)."""
    cavalry = (state.unit(unit_id).stats.get("unit_type") or "").lower() == "cavalry"
    return all(cavalry or model_subtypes(state, m) & {"light", "cavalry"} for m in state.unit(unit_id).models)


def step4_reactions(state: GameState, target: str, could_fire: bool) -> list[str]:
    """The Reactions the charged unit ``target`` may declare in the charge's step 4 (§A.4),
    ``none`` first: none when it cannot react at all (:func:`can_react`); ``shield`` when
    :func:`shield_problem` finds nothing; ``overwatch`` when ``could_fire`` (a model of it has a
    ranged weapon that sees a charging model in range); ``evade`` when :func:`can_evade`.

    A unit reacts at most once per turn, so these are the choice's legal options: the
    default "no Reaction" is a reading (``reaction=none``) only when the list holds more than
    ``none``."""
    if can_react(state, target):
        return ["none"]
    out = ["none"]
    out += ["overwatch"] if could_fire else []
    out += ["evade"] if can_evade(state, target) else []
    out += ["shield"] if not shield_problem(state, target) else []
    return out


def toughness_bonus(state: GameState, unit_id: str) -> int:
    """The Toughness a unit's reactions add this phase: +1 after the Shield reaction."""
    return 1 if unit_id in (state.turn.get("shield") or ()) else 0


def shield_static_problems(state: GameState, targets: Sequence[str], options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A charge's ``shield`` that no dice can make legal (``check``): a target that is not
    Legiones Astartes, or has no model with the Shield trait at all, or that makes another
    Reaction in the same charge (each unit reacts at most once per turn)."""
    if not options.get("shield") or len(targets) != 1 or not state.has_unit(targets[0]):
        return []
    t = targets[0]
    others = [k for k in ("overwatch", "evade") if options.get(k)]
    if others:
        return [("shield", f"{t} reacts at most once per turn: Shield and {', '.join(others)} in one charge (§A.4)")]
    u = state.unit(t)
    if u.models and not all(LEGIONES_ASTARTES in model_subtypes(state, m) for m in u.models):
        return [("shield", f"{t} is not Legiones Astartes (tag {LEGIONES_ASTARTES}): Shield is a Legiones Astartes Reaction (§A.4)")]
    if u.models and not any(SHIELD_TRAIT in model_subtypes(state, m) for m in u.models):
        return [("shield", f"no model of {t} has the Shield trait (tag or sub-type {SHIELD_TRAIT}): the majority must (§A.4)")]
    return []
