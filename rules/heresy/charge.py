"""Horus Heresy 3rd edition Charge sub-phase (§A.3): eligibility, range, Set-up Move, the roll,
the charge move, and the Cool Check after a failure.

1. **Eligibility**: a unit cannot charge if it Rushed this turn (status ``rushed``), is locked
   in combat (a model in base contact with an enemy: :mod:`rules.heresy.combat`), is embarked
   (status ``embarked``), has a Pinned or Routed model, or is a Vehicle. A unit that
   disembarked this turn (``disembarked``; the older ``disordered`` means the same) or has any
   other status (Stunned, Suppressed, Disgraced) charges **Disordered**.
2. **Declare the target** (one enemy unit); at least one charger must see a target model, and
   the closest such pair must be no more than **12"** apart (a range limit, not a move).
3. **Set-up Move** (none when Disordered): each model moves the table's distance
   (:data:`SETUP_TABLE`, Initiative + Movement; Movement alone for a unit with a Heavy model)
   or until base contact — the initial model (the one with the shortest route) first, by its
   shortest route towards the nearest target model; the others as close as possible, in
   coherency with a model already moved (:mod:`rules.unit_move`, every path checked by the
   validator). The move stays made whatever follows. A model reaching base contact makes the
   charge succeed at once: no Volleys, no roll.
4. **Charge roll**: 2D6, discard the lower die. Setting ``charge_roll_against``:
   ``route`` (default) — the charge succeeds when the roll covers the initial charger's
   remaining route to base contact; ``closest_los`` — the roll is compared with the closest
   distance between models that see each other: below it the charge fails with no move; at or
   above it the models move, and the charge fails if none ends in base contact.
5. **Charge move**: the initial charger moves up to the roll into base contact by its shortest
   route, the others up to the roll as in the Set-up Move. Base contact locks both units.
6. **Failed charge**: no move; the unit takes a **Cool Check** (2D6 against its Cool,
   :mod:`rules.heresy.checks`); on a failure every model becomes Stunned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence

from tapeline.board.measure import gap_matrix
from tapeline.board.units import TOUCH

from ..charge_geometry import Plan
from ..charge_odds import BEST_OF_2D6, NO_ROLL, charge_odds
from ..contact_charge import ContactCharge, gate, move_unit, plan_contact
from .. import choices
from ..dice import Dice
from ..errors import IllegalAction
from ..state import GameState, UnitState
from ..truelos import visibility_matrix
from ..unit_move import ModelMove
from .checks import take_check
from .combat import is_locked, is_vehicle, locked_with
from .movement import evade_move
from .reactions import RULE as REACTIONS_RULE, SHIELD_RULE, can_evade, shield, spend_reaction, step4_reactions
from .shooting import firing_models, shoot
from .weapons import ranged_options
from .statuses import gain_status

RULE = "HH3 §A.3 Charge"
MAX_RANGE = 12.0
#: (lowest Initiative + Movement, Set-up Move inches), §A.3 table.
SETUP_TABLE = ((20, 6), (14, 5), (12, 4), (10, 3), (7, 2), (1, 1))
NO_CHARGE = ("pinned", "routed")
#: The target's Reactions of the Volley step (§A.3 step 4, §A.4), as a charge's options.
STEP_4_REACTIONS = ("shield", "overwatch", "evade")
#: Statuses and states that make a charge Disordered (§A.3).
DISORDERING = ("stunned", "suppressed", "disgraced", "disembarked", "disordered")
#: The charge's events between the Set-up Move and the roll (Volleys, Overwatch, Evade): the
#: state, why the charge ended ("" if it goes on) and the events.
Volleys = Callable[[GameState], tuple[GameState, str, list[dict[str, Any]]]]


def setup_move(movement: int, initiative: int, heavy: bool = False) -> int:
    """Set-up Move distance (§A.3 table): ``setup_move(7, 4) == 3`` (a Legionary)."""
    s = movement if heavy else movement + initiative
    for lo, d in SETUP_TABLE:
        if s >= lo:
            return d
    return 0


def _stat(u: UnitState, name: str) -> int:
    v = u.stats.get(name)
    if v is None:
        raise IllegalAction(RULE, f"unit {u.id} needs stats.{name} for a Horus Heresy charge")
    return int(v)


def is_heavy(u: UnitState) -> bool:
    return "heavy" in u.tags or (u.stats.get("unit_type") or "").lower() == "heavy" or any(
        "heavy" in (m.get("subtypes") or ()) for m in (u.stats.get("models") or {}).values())


def check_eligible(state: GameState, unit_id: str, targets: Sequence[str]) -> None:
    """Refuse a charge the rules forbid (§A.3 "A unit cannot declare a charge if ...")."""
    u = state.unit(unit_id)
    if len(targets) != 1:
        raise IllegalAction(RULE, "a Horus Heresy charge declares exactly one target unit")
    t = targets[0]
    if not state.has_unit(t) or state.unit(t).side == u.side:
        raise IllegalAction(RULE, f"{t!r} is not an enemy unit")
    if not u.models:
        raise IllegalAction(RULE, f"{unit_id} has no models on the table")
    if not state.unit(t).models:
        raise IllegalAction(RULE, f"{t} has no models on the table")
    if "rushed" in u.status:
        raise IllegalAction(RULE, f"{unit_id} Rushed this turn and cannot charge")
    if "embarked" in u.status:
        raise IllegalAction(RULE, f"{unit_id} is embarked on a transport and cannot charge")
    bad = sorted(set(u.status) & set(NO_CHARGE))
    if bad:
        raise IllegalAction(RULE, f"{unit_id} is {', '.join(bad)} and cannot charge")
    if is_vehicle(state, unit_id):
        raise IllegalAction(RULE, "vehicles can never charge")
    if is_locked(state, unit_id):
        raise IllegalAction(RULE, f"{unit_id} is locked in combat with {', '.join(locked_with(state, unit_id))} and cannot charge")


def sight_and_range(state: GameState, unit_id: str, target: str) -> tuple[Optional[float], Optional[tuple[str, str]]]:
    """The closest base-to-base distance between a charger and a target model that see each
    other (``None`` when no pair does), and that pair."""
    fa, fb = state.figures_of(unit_id), state.figures_of(target)
    g = gap_matrix(fa, fb)
    vis = visibility_matrix(state, unit_id, target)
    if not vis.any():
        return None, None
    g = g.copy()
    g[~vis] = float("inf")
    i, j = divmod(int(g.argmin()), g.shape[1])
    return max(0.0, float(g[i, j])), (fa[i].id, fb[j].id)


def roll_against(state: GameState) -> str:
    return str(state.settings.get("charge_roll_against", "route"))


def setup_distance(state: GameState, unit_id: str) -> tuple[int, bool]:
    """(Set-up Move inches, Disordered?) for the unit."""
    u = state.unit(unit_id)
    disordered = bool(set(u.status) & set(DISORDERING))
    if disordered:
        return 0, True
    return setup_move(_stat(u, "movement"), _stat(u, "initiative"), is_heavy(u)), False


def reach(state: GameState, unit_id: str, targets: Sequence[str], leader: Optional[str] = None, modifier: int = 0) -> ContactCharge:
    """The charge query: range, Set-up Move, the initial charger's route and the exact odds."""
    targets = tuple(targets)
    check_eligible(state, unit_id, targets)
    if leader is not None and leader not in state.unit(unit_id).models:
        raise IllegalAction(RULE, f"{leader!r} is not a model of {unit_id}")
    setup, disordered = setup_distance(state, unit_id)
    los, pair = sight_and_range(state, unit_id, targets[0])
    plan = _plan(state, unit_id, targets, leader)
    if leader is None and plan.leader is not None:
        choices.default(state.settings, "leader", plan.leader, [f.id for f in state.figures_of(unit_id)], RULE,
                        f"{unit_id}'s initial charger (the model the Set-up Move and the charge move are led by; "
                        "the default is the one with the shortest route)")
    mode = roll_against(state)
    details: dict[str, Any] = {"setup_move": setup, "disordered": disordered, "closest_los_distance": los, "closest_los_pair": pair,
               "charge_roll": "2D6, discard the lower", "roll_against": mode}
    reason, allowed = "", True
    if los is not None:
        details["gate"] = gate("in sight and within", los, MAX_RANGE, "HH3 §A.3 step 2")
    if los is None:
        allowed, reason = False, "no charger can see a model of the target unit (§A.3 step 2)"
    elif los > MAX_RANGE + TOUCH:
        allowed, reason = False, f"the closest pair that see each other is {los:.6g}\" apart, beyond 12\" (§A.3 step 2)"
    dist = plan.distance
    if not allowed or dist is None:
        odds = charge_odds(None, setup + modifier, BEST_OF_2D6)
    elif dist <= setup + TOUCH:
        odds = charge_odds(dist, setup, NO_ROLL)
        details["note"] = "the Set-up Move reaches base contact: the charge succeeds at once"
    else:
        need = dist
        if mode == "closest_los":
            after = _after_setup(state, unit_id, targets, plan.leader, setup)
            details["closest_los_after_setup"] = after
            if after is not None:
                need = max(dist, setup + after)
        odds = charge_odds(need, setup + modifier, BEST_OF_2D6)
    return ContactCharge(unit_id, targets, plan.leader, plan, odds, allowed, reason, details)


def _plan(state: GameState, unit_id: str, targets: Sequence[str], leader: Optional[str]) -> Plan:
    """The best initial charger's route (:func:`~tapeline.rules.contact_charge.plan_contact`)
    for a unit with models on the table (an :class:`IllegalAction` for one without)."""
    plan = plan_contact(state, unit_id, targets, leader)
    if plan is None:
        raise IllegalAction(RULE, f"unit {unit_id} has no models on the table")
    return plan


def _after_setup(state: GameState, unit_id: str, targets: Sequence[str], first: str, setup: int) -> Optional[float]:
    """The closest line-of-sight distance once the Set-up Move is made (``closest_los``)."""
    new = move_unit(state, unit_id, first, targets, setup)[0] if setup else state
    return sight_and_range(new, unit_id, targets[0])[0]


@dataclass
class ChargeOutcome:
    """What a resolved charge did: the Set-up Move, the roll, the charge move, the verdict."""

    success: bool
    roll: Optional[int]
    rolls: list[int]
    setup: list[ModelMove] = field(default_factory=list)   # per model
    moves: list[ModelMove] = field(default_factory=list)   # per model (charge move)
    at_once: bool = False                               # the Set-up Move reached base contact
    compared_with: Optional[float] = None               # the distance the roll was compared with
    note: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)   # Volley / Overwatch events
    ended: bool = False                                 # a unit was wiped out by a Volley


def make_setup_move(state: GameState, cc: ContactCharge) -> tuple[GameState, list[ModelMove]]:
    """§A.3 step 3: every model moves the Set-up distance or until base contact (none when
    Disordered)."""
    setup = cc.details["setup_move"]
    if not setup or cc.plan is None or cc.plan.path is None:
        return state, []
    return move_unit(state, cc.unit, cc.plan.leader, cc.targets, setup)


def charge_move(state: GameState, cc: ContactCharge, allowance: float,
                leader: Optional[str]) -> tuple[GameState, list[ModelMove], Optional[str]]:
    """§A.3 step 5: the initial charger (shortest route now) moves up to ``allowance`` towards
    the nearest target model, the others follow."""
    plan = _plan(state, cc.unit, cc.targets, leader)
    if plan.path is None:
        return state, [], None
    new, moves = move_unit(state, cc.unit, plan.leader, cc.targets, allowance)
    return new, moves, plan.leader


def resolve(state: GameState, unit_id: str, targets: Sequence[str], rolls: Sequence[int], leader: Optional[str] = None,
            modifier: int = 0, target_models: Optional[Mapping[str, str]] = None) -> tuple[GameState, dict[str, Any]]:
    """Resolve the charge with the charge dice ``rolls`` (both dice, or the kept die): the new
    state (the Set-up Move is kept even when the charge fails) and a dictionary of what
    happened. The Cool Check after a failure is :func:`cool_check` (it needs dice)."""
    cc = reach(state, unit_id, targets, leader, modifier)
    if not cc.allowed:
        raise IllegalAction(RULE, cc.reason)
    out = _resolve(state, cc, lambda: list(rolls), leader, modifier)
    return out[0], _info(cc, out[1])


def _resolve(state: GameState, cc: ContactCharge, roll_dice: Callable[[], Sequence[int]], leader: Optional[str], modifier: int,
             volleys: Optional[Volleys] = None) -> tuple[GameState, ChargeOutcome]:
    new, setup = make_setup_move(state, cc)
    if any(m.contact for m in setup):
        return new, ChargeOutcome(True, None, [], setup, [], True, None,
                                  "the Set-up Move reached base contact: the charge succeeds at once (no Volleys, no roll)")
    if volleys is not None:
        new, ended, vev = volleys(new)
        if ended.startswith("evaded:"):
            return new, ChargeOutcome(False, None, [], setup, [], False, None, ended[len("evaded:"):].strip(), vev)
        if ended:
            return new, ChargeOutcome(False, None, [], setup, [], False, None, ended, vev, ended=True)
    else:
        vev = []
    rolls = roll_dice()
    result = BEST_OF_2D6.result(rolls) if len(rolls) > 1 else int(rolls[0])
    allowance = result + modifier
    after = _plan(new, cc.unit, cc.targets, leader)
    route = after.distance
    mode = roll_against(state)
    if mode == "closest_los":
        compared = sight_and_range(new, cc.unit, cc.targets[0])[0]
    else:
        compared = route
    if compared is None or allowance < compared - TOUCH:
        note = f"the roll {allowance} is short of the {mode.replace('_', ' ')} distance" + (f" {compared:.6g}\"" if compared is not None else "")
        return new, ChargeOutcome(False, result, list(rolls), setup, [], False, compared,
                                  note + ": no charge move after the Set-up Move; Cool Check (Stunned on a fail)", vev)
    moved, moves, first = charge_move(new, cc, allowance, leader)
    ok = any(m.contact for m in moves)
    note = "" if ok else "no charger ended in base contact: the charge fails; Cool Check (Stunned on a fail)"
    return moved, ChargeOutcome(ok, result, list(rolls), setup, moves, False, compared, note, vev)


def _info(cc: ContactCharge, res: ChargeOutcome) -> dict[str, Any]:
    first = res.moves[0] if res.moves else (res.setup[0] if res.at_once and res.setup else None)
    info: dict[str, Any] = {"roll": res.roll, "rolls": res.rolls, "success": res.success, "charge": cc, "at_once": res.at_once,
            "setup": [m.as_json() for m in res.setup], "moves": [m.as_json() for m in res.moves],
            "compared_with": res.compared_with, "ended": res.ended}
    if res.success and first is not None:
        info["end"] = first.end
        info["leader"] = first.model
    moves = res.moves or (res.setup if res.at_once else [])
    info["placed"] = {m.model: m.end for m in moves[1:] if m.how != "stayed"}
    info["stayed"] = sorted(m.model for m in moves if m.how == "stayed")
    info["in_contact"] = [m.model for m in moves if m.contact]
    if res.note:
        info["note"] = res.note
    return info


def charge(state: GameState, unit_id: str, targets: Sequence[str], dice: Dice, leader: Optional[str] = None,
           modifier: int = 0, options: Optional[Mapping[str, Any]] = None) -> tuple[GameState, dict[str, Any], list[dict[str, Any]]]:
    """The whole Charge with dice (§A.3): Set-up Move, Volleys (and Overwatch), roll, charge
    move or Cool Check.

    ``options`` (all optional): ``volley`` (the charger fires its Volley, default yes unless
    Disordered), ``target_volley`` (the target fires back, default yes), ``overwatch`` (the
    target reacts with Overwatch instead, default no), ``weapons`` ({model: weapon}),
    ``casualties`` ({unit: [model, ...]}: the defender's allocation choices), ``evade`` (the
    target reacts with Evade after the Volleys), ``shield`` (the target declares the Legiones
    Astartes Shield reaction at the start of the Volley step: +1 Toughness for the phase,
    :func:`rules.heresy.reactions.shield`).

    Returns the new state, the outcome (as :func:`resolve`) and the events (every die rolled
    and every model moved)."""
    opts = dict(options or {})
    cc = reach(state, unit_id, targets, leader, modifier)
    if not cc.allowed:
        raise IllegalAction(RULE, cc.reason)
    events: list[dict[str, Any]] = []
    dice.take_events()

    def roll_dice() -> list[int]:
        return dice.roll(2, f"charge roll ({unit_id}, 2D6 discard the lower)")

    opts.setdefault("modifier", modifier)
    new, res = _resolve(state, cc, roll_dice, leader, modifier, lambda st: volley_step(st, cc, dice, opts))
    if res.setup:
        events.append({"type": "setup_move", "unit": unit_id, "distance": cc.details["setup_move"],
                       "moves": [m.as_json() for m in res.setup]})
    declared = [k for k in STEP_4_REACTIONS if opts.get(k)]
    if res.at_once and declared:
        events.append({"type": "reactions", "skipped": declared,
                       "why": "the Set-up Move reached base contact: no Volley step (§A.3 step 3), so no Reaction made there"})
    events += res.events
    events += dice.take_events()
    info = _info(cc, res)
    if res.moves:
        events.append({"type": "charge_move", "unit": unit_id, "allowance": (res.roll or 0) + modifier,
                       "moves": [m.as_json() for m in res.moves]})
    if not res.success and not res.ended:
        new, chk_events, check = cool_check(new, unit_id, dice)
        events += chk_events
        info["cool_check"] = check
    new = record_charge(new, unit_id, cc.targets[0], res.success, cc.details["disordered"])
    return new, info, events


def record_charge(state: GameState, unit_id: str, target: str, success: bool, disordered: bool) -> GameState:
    """Remember this phase's charges (pile-in eligibility, Impact, the active side)."""
    state = state.with_turn("charges", tuple(state.turn.get("charges") or ()) + ((unit_id, target),))
    if success:
        charged = dict(state.turn.get("charged") or {})
        charged[unit_id] = {"target": target, "disordered": bool(disordered)}
        state = state.with_turn("charged", charged)
    return state


def volley_step(state: GameState, cc: ContactCharge, dice: Dice,
                opts: Mapping[str, Any]) -> tuple[GameState, str, list[dict[str, Any]]]:
    """§A.3 step 4: the charger's Volley (none when Disordered), then the target's Volley or
    Overwatch (§A.4); none at all when the target is already locked in combat with another
    unit. Returns the state, why the charge ended ("" if it goes on) and the events."""
    unit_id, target = cc.unit, cc.targets[0]
    events: list[dict[str, Any]] = []
    if is_locked(state, target):
        events.append({"type": "volleys", "skipped": f"{target} is already locked in combat: no Volleys, no Overwatch (§A.3)"})
        if opts.get("overwatch"):
            raise IllegalAction(RULE, f"{target} is locked in combat: no Overwatch")
        if opts.get("shield"):
            raise IllegalAction(SHIELD_RULE, f"{target} is locked in combat: no Reactions, no Shield", field="shield")
        return state, "", events
    if not any(k in opts for k in STEP_4_REACTIONS):
        no_reaction(state, cc)
    if opts.get("shield"):   # declared at the start of step 4, before either Volley
        state, ev = shield(state, target)
        events += ev
    weapons, cas = opts.get("weapons") or {}, opts.get("casualties") or {}
    volley = opts.get("volley")
    if volley is None and not cc.details["disordered"]:
        volley = may_volley(state, unit_id, target, weapons, "volley")
    if volley and not cc.details["disordered"]:
        dice.take_events()
        state, ev, _ = shoot(state, unit_id, target, dice, "volley", weapons, cas.get(target, ()))
        events += ev
        if not state.unit(target).models:
            return state, f"{target} was wiped out by the Volley: the charge ends", events
    answer = opts.get("target_volley")
    if answer is None and not opts.get("overwatch"):
        answer = may_volley(state, target, unit_id, weapons, "target_volley")
    kind = "overwatch" if opts.get("overwatch") else "volley" if answer else None
    if kind == "overwatch":
        state, ev = spend_reaction(state, target, "overwatch")
        events += ev
    if kind is not None:
        dice.take_events()
        state, ev, _ = shoot(state, target, unit_id, dice, kind, weapons, cas.get(unit_id, ()))
        events += ev
    if not state.unit(unit_id).models:
        return state, f"{unit_id} was wiped out by the {'Overwatch' if opts.get('overwatch') else 'Volley'}: the charge ends", events
    if opts.get("evade"):
        return evade(state, cc, events, opts)
    return state, "", events


def no_reaction(state: GameState, cc: ContactCharge) -> None:
    """The charge declares no Reaction of the target (none of ``overwatch``, ``evade``,
    ``shield`` given; one of them ``false`` states "no Reaction"): read as none, the reading
    ``reaction=none`` when the target could have reacted (§A.4,
    :func:`rules.heresy.reactions.step4_reactions`); in strict mode an error listing the
    Reactions it may declare."""
    target = cc.targets[0]
    legal = step4_reactions(state, target, could_fire(state, target, cc.unit))
    choices.default(state.settings, "reaction", "none", legal, REACTIONS_RULE,
                    f"{target}'s Reaction to the charge (overwatch, evade or shield: true; any of them false: none)",
                    "overwatch")


def could_fire(state: GameState, shooter: str, target: str) -> bool:
    """Whether a model of ``shooter`` has a ranged weapon (any of its own) that sees a model of
    ``target`` within range: the condition of Overwatch (§A.4 "fires normally with all its
    weapons")."""
    figs, tfigs = state.figures_of(shooter), state.figures_of(target)
    if not figs or not tfigs:
        return False
    vis, gap = visibility_matrix(state, shooter, target), gap_matrix(figs, tfigs)
    return any(vis[i, j] and gap[i, j] <= w.range + TOUCH
               for i, f in enumerate(figs) for w in ranged_options(state.unit(shooter), f.id) for j in range(len(tfigs)))


def may_volley(state: GameState, shooter: str, target: str, weapons: Mapping[str, str], name: str) -> bool:
    """Whether ``shooter`` makes the Volley Attack at ``target`` the file neither declares nor
    declines (§A.3 step 4: "both units ... may make a Volley Attack"): it does, the reading
    ``name`` (``volley``: the charger's, ``target_volley``: the target's); in strict mode an
    error, when a model of it could fire (none could: no choice)."""
    if not firing_models(state, shooter, target, "volley", weapons):
        return True
    return choices.default(state.settings, name, "true", ["true", "false"], "HH3 §A.3 step 4 Volley Attacks",
                           f"whether {shooter} makes its Volley Attack at {target}") == "true"


def evade(state: GameState, cc: ContactCharge, events: list[dict[str, Any]],
          opts: Mapping[str, Any]) -> tuple[GameState, str, list[dict[str, Any]]]:
    """The Evade Reaction (§A.4), at the end of step 4: a target entirely Light or Cavalry moves
    each model up to its Initiative away from the charger; if the charger's best roll (6, with
    its modifier) can then no longer cover the route, the charge fails."""
    target = cc.targets[0]
    if not can_evade(state, target):
        raise IllegalAction("HH3 §A.4 Evade", f"{target} is not entirely Light or Cavalry: it cannot Evade")
    state, ev = spend_reaction(state, target, "evade")
    events += ev
    state, moves = evade_move(state, target, cc.unit)
    events.append({"type": "evade", "unit": target, "moves": [m.as_json() for m in moves]})
    after = _plan(state, cc.unit, cc.targets, None).distance
    best = 6 + int(opts.get("modifier", 0))
    if after is None or after > best + TOUCH:
        why = f"{target} evaded out of reach" if after is None else f"{target} evaded: the route is now {after:.6g}\", beyond the best roll {best}\""
        return state, "evaded: " + why, events
    return state, "", events


def cool_check(state: GameState, unit_id: str, dice: Dice) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    """§A.3 "Failed charge": a Cool Check; on a failure every model of the unit becomes Stunned."""
    dice.take_events()
    res = take_check(state, unit_id, "cool", dice, "failed charge")
    events = dice.take_events() + [res.as_event("failed charge")]
    if not res.passed:
        state, ev = gain_status(state, unit_id, "stunned", "failed its Cool Check after a failed charge (§A.3)")
        events += ev
    return state, events, {"passed": res.passed, "rolls": list(res.rolls), "target": res.target}
