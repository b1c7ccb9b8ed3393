"""Horus Heresy 3rd Aftermath (§A.10 step 4): each unit of the combat takes one option, the
loser's units first, and every move is made along checked paths (:mod:`rules.heresy.movement`).

| option | effect |
|---|---|
| ``hold`` | an immediate pile-in of up to Initiative towards the enemies that did not Fall Back or Disengage (setting ``hh_hold_pile_in``); still locked if a model ends in base contact |
| ``disengage`` | each model to the nearest spot more than 2" from the combat's enemies (at most Movement, or the least more); out of coherency or still in contact: Routed |
| ``fall_back`` | the unit gains Routed and falls back Initiative + D6 (Cavalry 2D6) towards its edge |
| ``gun_down`` | a Volley (Assault weapons, Snap Shots) at a unit that fell back |
| ``pursue`` | one D6 for the unit; each model Initiative + D6 towards the nearest fleeing model; contact is a successful charge |
| ``consolidate`` | each model up to Initiative towards the nearest enemy, ending in coherency and 2" from every enemy |

Choices come from the file; a unit the file does not name takes tapeline's default: a Routed
unit Falls Back, the winner Consolidates when it may, anyone else Holds — the reading
``aftermath.<unit>``, and Gun Down's target the first unit that fell back (``gun_down.<unit>``);
in strict mode each is an error listing the options (:mod:`rules.choices`).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..choices import default as default_choice
from ..dice import Dice
from ..errors import IllegalAction
from ..state import GameState
from ..unit_move import ModelMove
from .charge import DISORDERING, record_charge
from .checks import model_stat, take_check
from .combat import locked_with
from .movement import (check_consolidate, check_pile_in, consolidate, disengage, fall_back_move, is_cavalry, pile_in,
                    pursue_move)
from .resolution import OPTIONS, Resolution, allowed_options, declaration_order
from .shooting import shoot
from .statuses import gain_status, lose_status

RULE = "HH3 §A.10 Aftermath"


def default_option(opts: Sequence[str]) -> str:
    """tapeline's choice for a unit the file does not name: a Routed unit Falls Back (its only
    option), a winner Consolidates when it may, anyone else Holds. Fall Back is open to every
    unit but never chosen for one that may Hold: it makes the unit Routed."""
    for o in ("consolidate", "hold"):
        if o in opts:
            return o
    return opts[0]


def aftermath(state: GameState, res: Resolution, choices: Mapping[str, str], dice: Dice, active_side: Optional[str] = None,
              targets: Optional[Mapping[str, str]] = None, moves: Optional[Mapping[str, Mapping[str, Sequence[float]]]] = None
              ) -> tuple[GameState, list[dict[str, Any]], dict[str, str]]:
    """Declare and carry out every unit's option. ``targets``: for Gun Down, the fleeing unit
    each unit shoots at (default the first); ``moves``: {unit: {model: (x, y)}} spots the file
    gives for a Hold's pile-in or a Consolidation (checked). Returns the state, events and
    {unit: option}."""
    order = declaration_order(state, res, active_side)
    for u in choices:
        if u not in order:
            raise IllegalAction(RULE, f"{u} is not a unit of this combat (units: {', '.join(order)})")
    chosen: dict[str, str] = {}
    for u in order:
        opts = allowed_options(state, u, res, chosen)
        want = choices.get(u)
        if want is None:   # the controlling player's choice: a reading, an error in strict mode
            want = default_choice(state.settings, f"aftermath.{u}", default_option(opts), list(opts), RULE,
                                 f"{u}'s Aftermath option", "choices")
        if want not in OPTIONS:
            raise IllegalAction(RULE, f"{want!r} is not an Aftermath option ({', '.join(OPTIONS)})")
        if want not in opts:
            raise IllegalAction(RULE, f"{u} may not {want.replace('_', ' ')}: its options are {', '.join(opts)}")
        chosen[u] = want
    events: list[dict[str, Any]] = [{"type": "aftermath", "choices": dict(chosen)}]
    for u in (moves or {}):
        if chosen.get(u) not in ("hold", "consolidate"):
            raise IllegalAction(RULE, f"moves for {u} are for a Hold or a Consolidation, and it chose {chosen.get(u)}")
    for u in order:
        state, ev = _carry_out(state, u, chosen[u], res, chosen, dice, (targets or {}).get(u), (moves or {}).get(u))
        events += ev
    return state, events, chosen


def _moves_event(kind: str, unit: str, moves: Sequence[ModelMove], **extra: object) -> dict[str, Any]:
    return {"type": kind, "unit": unit, **extra, "moves": [m.as_json() for m in moves]}


def _carry_out(state: GameState, u: str, option: str, res: Resolution, chosen: Mapping[str, str], dice: Dice,
               target: Optional[str], spots: Optional[Mapping[str, Sequence[float]]] = None
               ) -> tuple[GameState, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    if option == "hold":
        # setting hh_hold_pile_in: "staying" (default) piles in towards the enemies that stay in
        # the combat, not a unit that Fell Back (Pursue chases it) or Disengaged (it has left);
        # "any" towards every enemy unit of the combat
        left = ("fall_back", "disengage") if state.settings.get("hh_hold_pile_in", "staying") == "staying" else ()
        foes = [e for e in res.combat if state.unit(e).side != state.unit(u).side and state.unit(e).models
                and chosen.get(e) not in left]
        state, moves = check_pile_in(state, u, spots, foes) if spots else pile_in(state, u, enemies=foes)
        events.append(_moves_event("pile_in", u, moves, why="Hold", hh_hold_pile_in="staying" if left else "any"))
    elif option == "disengage":
        state, moves, routed = disengage(state, u)
        events.append(_moves_event("disengage", u, moves))
        if routed:
            state, ev = gain_status(state, u, "routed", "ended its Disengage out of coherency or in base contact (§A.10)")
            events += ev
    elif option == "fall_back":
        state, ev = fall_back(state, u, dice)
        events += ev
    elif option == "gun_down":
        fled = [e for e in res.combat if chosen.get(e) == "fall_back" and state.unit(e).models]
        if target is not None and target not in fled:
            raise IllegalAction(RULE, f"Gun Down must target a unit that fell back from this combat ({', '.join(fled) or 'none'})")
        if fled:
            dice.take_events()
            aim = target or default_choice(state.settings, f"gun_down.{u}", fled[0], fled, RULE,
                                           f"the fleeing unit {u} guns down", "gun_down")
            state, ev, _ = shoot(state, u, aim, dice, "volley")
            events += ev
    elif option == "pursue":
        fled = [e for e in res.combat if chosen.get(e) == "fall_back" and state.unit(e).models]
        dice.take_events()
        roll = dice.roll(1, f"Pursue ({u})")[0]
        events += dice.take_events()
        state, moves = pursue_move(state, u, fled, roll)
        caught = [e for e in fled if e in locked_with(state, u)]
        events.append(_moves_event("pursue", u, moves, roll=roll, caught=caught))
        for e in caught:   # a successful charge (§A.10); Disordered if the unit has a status (§A.3)
            state = record_charge(state, u, e, True, bool(set(state.unit(u).status) & set(DISORDERING)))
    elif option == "consolidate":
        state, moves = check_consolidate(state, u, spots) if spots else consolidate(state, u)
        events.append(_moves_event("consolidate", u, moves))
    return state, events


def fall_back(state: GameState, u: str, dice: Dice) -> tuple[GameState, list[dict[str, Any]]]:
    """The unit gains Routed and falls back Initiative + D6 (Cavalry 2D6) towards its own edge
    (§A.5); if a model reached the edge, the Leadership Check follows."""
    state, events = gain_status(state, u, "routed", "falls back (§A.10)")
    n = 2 if is_cavalry(state, u) else 1
    dice.take_events()
    rolls = dice.roll(n, f"Fall Back ({u}, {n}D6)")
    events += dice.take_events()
    roll = sum(rolls)
    state, moves, edge = fall_back_move(state, u, lambda f: int(model_stat(state, f.id, "initiative") or 0) + roll)
    at_edge = [m.model for m in moves if m.gap <= 1e-5]
    events.append(_moves_event("fall_back", u, moves, roll=roll, edge=edge, reached_edge=at_edge))
    if at_edge:
        chk = take_check(state, u, "leadership", dice, "Fall Back at the table edge")
        events += dice.take_events() + [chk.as_event("Fall Back at the table edge")]
        if not chk.passed:
            gone = list(state.unit(u).models)
            state = state.without_models(u, gone)
            events.append({"type": "casualties", "unit": u, "models": gone, "by": "failed Leadership Check at the table edge (§A.5)"})
        else:
            state, ev = lose_status(state, u, "routed", "passed its Leadership Check at the table edge (§A.5)")
            events += ev
            state, ev = gain_status(state, u, "suppressed", "passed its Leadership Check at the table edge (§A.5)")
            events += ev
    return state, events


def after_resolution(state: GameState, unit_id: str, dice: Dice, choices: Mapping[str, str], gun_down: Mapping[str, str],
                     moves: Mapping[str, Mapping[str, Sequence[float]]]) -> tuple[GameState, list[dict[str, Any]], dict[str, str]]:
    """The ``aftermath`` action: the options of the combat the last ``resolution`` of
    ``unit_id``'s combat resolved (:func:`aftermath`)."""
    got = (state.turn.get("resolutions") or {}).get(unit_id)
    if got is None:
        raise IllegalAction("HH3 §A.10 Aftermath", f"{unit_id}'s combat has not been resolved yet (a resolution action first)")
    res = Resolution(**{k: got[k] for k in ("combat", "points", "breakdown", "winner", "loser", "difference", "massacre", "panic")})
    dice.take_events()
    return aftermath(state, res, choices, dice, None, gun_down, moves)
