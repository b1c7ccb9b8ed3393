"""Horus Heresy 3rd Fight sub-phase (§A.7) on the shared melee engine (:mod:`rules.melee`).

A combat fights **one round**: a pass through its Initiative steps, highest first.

1. **Combatants**: every model of the combat's units (duellists of a challenge excepted) with
   the weapon it fights with (:mod:`rules.heresy.weapons`) and its **Combat Initiative**
   (Initiative through the weapon's IM; 1 for a unit with any status).
2. In each step the models whose CI equals the step's value **pile in** (up to Initiative into
   base contact, :mod:`rules.heresy.movement`), then the **Engaged** ones attack: in base contact
   with an enemy model, or within 2" of a model of their own unit that is (§A.1). A model
   Engaged with several enemy units attacks the one the file names, else the first (and the
   next if that one is wiped out before its step).
3. **Strike Groups**: one per unit, weapon profile, Weapon Skill, Strength and target; attacks
   are A through the weapon's AM.
4. **Hit Tests**: attacker WS against the majority WS of the target unit (§A.8; a vehicle counts
   as WS 1); Rending (X) / Critical Hit (X): a natural hit ≥ X wounds automatically (Critical:
   +1 Damage).
5. **Wound Tests**: Strength through SM against the majority Toughness ("−": no wound possible);
   Breaching (X): a natural roll ≥ X is AP 2; Shred (X): +1 Damage. Against a vehicle: Armour
   Penetration against its rear armour (``armour_rear``): penetrating hits are allocated like
   wounds with no armour save; glancing hits do no damage but, at the step's end, one Vehicle
   Damage roll each (:mod:`rules.heresy.vehicles`: Stunned, Pinned or Suppressed).
   Wounds with a modified rule are resolved after the ordinary ones (§A.7).
6. **Allocation, saves, Damage** one wound at a time in the defender's casualty order
   (:mod:`rules.melee.wounds`): a model already wounded first (Command models excepted), then
   file order; the file may give the order. The order is read and checked once, at the start
   of the round, and carries through its steps: a model that fell in an earlier step is skipped.
7. **Casualties** are removed at the end of each step, before the next strikes. After the last
   step every model not in base contact piles in.

The majority WS and Toughness are those of the target unit at the start of the round. The
exact distribution (:func:`odds`) pushes the joint losses of every unit through the steps; the
pile-ins are worked out once, step by step, as if nobody fell, and who is Engaged in each step
is read from those positions. The replay (:func:`fight_round`) moves the real survivors, so the
two agree whenever the survivors' pile-ins do not depend on who fell.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Collection, Mapping, Optional, Sequence, TypedDict

import numpy as np
from numpy.typing import NDArray

from tapeline.board.measure import gap_matrix

from .. import choices
from ..dice import Dice
from ..errors import IllegalAction
from ..melee.combat import Combat, CombatUnit, InitiativeStep, RoundOdds, resolve_round, round_odds
from ..melee.strike import HIT, MISS, Against, StrikeGroup, WoundKind, wound_category
from ..melee.weapons import MeleeWeapon
from ..melee.wounds import Defender
from ..state import GameState
from .checks import model_stat, model_subtypes
from .combat import CONTACT, combat_of, is_vehicle
from .statuses import STATUSES
from .charts import melee_hit_tn, penetration, wound_tn
from .movement import pile_in
from .reactions import toughness_bonus
from .vehicles import glancing_hits, vehicle_damage
from .weapons import IMPACT_TRAITS, choose, combat_initiative, melee_options

RULE = "HH3 §A.7 Fight"
ALLOCATION = "HH3 §A.7 allocation"
SUPPORT = 2.0
#: The order of Strike Groups in an Initiative step when the Active Player names none.
DEFAULT_ORDER = "active side first, each unit's groups in file order"


# --- who fights, with what ----------------------------------------------------------------------


def disgraced(state: GameState, model_id: str) -> bool:
    return model_id in (state.turn.get("disgraced") or ())


def stat(state: GameState, model_id: str, name: str, default: int = 0) -> int:
    """A model's characteristic as it fights: Disgraced halves WS and LD (rounding up); the
    Shield reaction adds 1 to Toughness (§A.4)."""
    v = model_stat(state, model_id, name)
    v = int(v) if v is not None else default
    if name in ("weapon_skill", "leadership") and disgraced(state, model_id):
        v = (v + 1) // 2
    if name == "toughness" and v:
        v += toughness_bonus(state, state.unit_of(model_id).id)
    return v


@dataclass(frozen=True)
class Fighter:
    """One model as it fights this round."""

    model: str
    unit: str
    key: str
    weapon: MeleeWeapon
    ci: int
    ws: int
    strength: int
    attacks: int


def successful_charge(state: GameState, unit_id: str) -> bool:
    """Did ``unit_id`` make a successful charge this phase that was not Disordered (what
    Impact needs, §A.3 "no bonus for a successful charge granted by a special rule")?"""
    made = (state.turn.get("charged") or {}).get(unit_id)
    return made is not None and not made.get("disordered")


def impact(state: GameState, unit_id: str, w: MeleeWeapon) -> dict[str, int]:
    """The characteristics Impact (X) raises for ``w``'s attacks (§A.11): +1 to each X the
    weapon's traits name, after a successful charge that was not Disordered; none otherwise."""
    named = [IMPACT_TRAITS[t] for t in w.traits if t in IMPACT_TRAITS]
    for t in w.traits:
        if t in IMPACT_TRAITS and w.traits[t] not in (None, 1):
            raise IllegalAction("HH3 §A.11 Impact", f"{w.name}: {t} is Impact ({IMPACT_TRAITS[t]}), +1; give it no value (null), "
                                                    f"not {w.traits[t]}")
    return {x: 1 for x in named} if named and successful_charge(state, unit_id) else {}


def fighter(state: GameState, model_id: str, weapon: Optional[str] = None) -> Fighter:
    """A model as it fights: its weapon (the file's choice, else the first it carries), Combat
    Initiative, WS, Strength and Attacks through the weapon's modifiers, each characteristic
    first raised by Impact (X) after a successful charge (:func:`impact`)."""
    u = state.unit_of(model_id)
    key, w = choose(melee_options(u, model_id), weapon, model_id, "melee weapon", state.settings)
    has = bool(set(u.status) & set(STATUSES))
    up = impact(state, u.id, w)
    ci = combat_initiative(stat(state, model_id, "initiative") + up.get("initiative", 0), w.initiative, has)
    s = w.strength.apply(stat(state, model_id, "strength") + up.get("strength", 0))
    a = w.attacks.apply(stat(state, model_id, "attacks", 1) + up.get("attacks", 0))
    return Fighter(model_id, u.id, key, w, ci, stat(state, model_id, "weapon_skill") + up.get("weapon_skill", 0), s, a)


# --- Engaged -------------------------------------------------------------------------------------


def engaged_models(state: GameState, unit_id: str, exclude: Collection[str] = (), target: Optional[str] = None) -> list[str]:
    """Models of ``unit_id`` that are Engaged (§A.1), with the enemy ``target`` unit if given;
    ``exclude``: models taken out of the combat (duellists)."""
    mine = [f for f in state.figures_of(unit_id) if f.id not in exclude]
    if not mine:
        return []
    foes = [target] if target is not None else [u for u in combat_of(state, unit_id) if state.unit(u).side != state.unit(unit_id).side]
    enemy = [f for u in foes for f in state.figures_of(u) if f.id not in exclude]
    if not enemy:
        return []
    touching = gap_matrix(mine, enemy).min(axis=1) <= CONTACT
    if not touching.any():
        return []
    near = gap_matrix(mine, mine) <= SUPPORT + 1e-6
    ok = touching | (near[:, touching].any(axis=1))
    return [f.id for f, o in zip(mine, ok) if o]


# --- the dice tables of one group ---------------------------------------------------------------


def majority(state: GameState, models: Sequence[str], name: str) -> int:
    """The majority value among ``models`` (a tie: the highest of the tied values, §A.7)."""
    vals = [stat(state, m, name) for m in models]
    if not vals:
        return 0
    c = Counter(vals)
    top = max(c.values())
    return max(v for v, n in c.items() if n == top)


def against(state: GameState, f: Fighter, target: str, models: Sequence[str]) -> Against:
    """The face tables of ``f``'s attacks against unit ``target`` (whose models are ``models``)."""
    w = f.weapon
    vehicle = is_vehicle(state, target)
    hit_on = melee_hit_tn(f.ws, 1 if vehicle else majority(state, models, "weapon_skill"), state.settings.get("hh_ws_table", "rule"))
    return tables_against(state, target, models, hit_on, None, False, f.strength, w.ap, int(w.damage), w.traits)


def tables_against(state: GameState, target: str, models: Sequence[str], hit_on: Optional[int], crit: Optional[int], auto: bool,
                   strength: int, ap: Optional[int], dmg: int, traits: Mapping[str, Any]) -> Against:
    """The hit and wound face tables of one group (melee or ranged) against ``target``: hits on
    ``hit_on``+ (``None``: never; ``auto``: always, as a natural 6), a Critical Hit on ``crit``+ or
    by the ``critical_hit`` trait (wounds automatically, +1 Damage), Rending (X) (wounds
    automatically); Wound Tests (Breaching, Shred) or, against a vehicle, Armour Penetration."""
    vehicle = is_vehicle(state, target)
    kinds: list[WoundKind] = [WoundKind(ap, dmg, vehicle, "penetrating" if vehicle else "")]

    def cat(k: WoundKind) -> int:
        if k not in kinds:
            kinds.append(k)
        return wound_category(kinds.index(k))

    rend = traits.get("rending")
    crits = [c for c in (crit, traits.get("critical_hit")) if c is not None]
    crit_on = min(int(c) for c in crits) if crits else None
    hit_faces: list[int] = []
    for v in range(1, 7):
        if auto:
            v = 6
        if hit_on is None or v == 1 or v < hit_on:
            hit_faces.append(MISS)
        elif crit_on is not None and v >= crit_on:
            hit_faces.append(cat(WoundKind(ap, dmg + 1, vehicle, "critical hit")))
        elif rend is not None and v >= int(rend) and not vehicle:
            hit_faces.append(cat(WoundKind(ap, dmg, False, "rending")))
        else:
            hit_faces.append(HIT)
    wound_faces: list[int] = []
    wound_on: Optional[int]
    if vehicle:
        av = majority(state, models, "armour_rear")
        if not av:
            raise IllegalAction(RULE, f"vehicle {target} needs stats.armour_rear for Armour Penetration in melee")
        for v in range(1, 7):
            wound_faces.append(cat(kinds[0]) if penetration(strength, v, av) == "penetrating" else MISS)
        wound_on = None
    else:
        wound_on = wound_tn(strength, majority(state, models, "toughness"))
        brc, shr = traits.get("breaching"), traits.get("shred")
        for v in range(1, 7):
            if wound_on is None or v == 1 or v < wound_on:
                wound_faces.append(MISS)
                continue
            a, d = ap, dmg
            why: list[str] = []
            if brc is not None and v >= int(brc):
                a = 2 if a is None else min(a, 2)
                why.append("breaching")
            if shr is not None and v >= int(shr):
                d += 1
                why.append("shred")
            wound_faces.append(cat(WoundKind(a, d, False, "+".join(why))))
    return Against(target, tuple(hit_faces), tuple(wound_faces), tuple(kinds), hit_on, wound_on)


def defender(state: GameState, model_id: str) -> Defender:
    """A model as a target: its Wounds left, armour and invulnerable saves (no cover in melee)."""
    lost = int(state.unit_of(model_id).wounds_lost.get(model_id, 0))
    wounds = max(1, stat(state, model_id, "wounds", 1) - lost)
    save = None if is_vehicle(state, state.unit_of(model_id).id) else model_stat(state, model_id, "save")
    return Defender(model_id, wounds, save, model_stat(state, model_id, "invulnerable"))


def casualty_order(state: GameState, unit_id: str, exclude: Collection[str] = (), picks: Sequence[str] = ()) -> tuple[str, ...]:
    """The defender's order (§A.7 step 7): the file's picks first (checked against the models
    on the table now), then a model already wounded (Command models excepted), then file order.
    A fight reads it once, at the start of the round (:attr:`Round.orders`)."""
    u = state.unit(unit_id)
    ms = [m for m in u.models if m not in exclude]
    wounded = [m for m in ms if u.wounds_lost.get(m, 0) > 0 and "command" not in model_subtypes(state, m)]
    for m in picks:
        if m not in ms:
            raise IllegalAction(ALLOCATION, f"{m!r} is not a model of {unit_id} that may be allocated wounds")
    if picks and wounded and picks[0] not in wounded:
        raise IllegalAction(ALLOCATION, f"{wounded[0]} has lost wounds and must be chosen first, not {picks[0]}")
    order = list(dict.fromkeys(list(picks) + wounded + ms))
    rest = [m for m in ms if m not in picks]
    forced = 1 if wounded and not picks else 0      # the wounded model takes the first wound
    if len(rest) - forced > 1:   # §A.7 "the defending player chooses which model takes each wound"
        choices.default(state.settings, f"casualties.{unit_id}", " > ".join(order[len(picks):]), rest, ALLOCATION,
                        f"the order {unit_id}'s models take wounds in (first models first; a model already wounded first)",
                        "casualties")
    return tuple(order)


# --- the combat as the engine sees it -----------------------------------------------------------


@dataclass
class Round:
    """One combat's round: its units, fighters, steps and the choices made for it."""

    units: list[str]
    fighters: dict[str, Fighter]    # model -> Fighter
    initiatives: list[int]          # step values, highest first
    targets: dict[str, str]         # model -> chosen target unit
    exclude: tuple[str, ...]        # duellists
    active_side: Optional[str]
    picks: dict[str, list[str]]     # unit -> casualty order picks
    orders: dict[str, tuple[str, ...]]  # unit -> its casualty order at the start of the round
    strike_order: tuple[str, ...] = ()  # the Active Player's order of Strike Groups (names)


def group_name(unit_id: str, weapon_key: str) -> str:
    """A Strike Group's name (``tac power fist``): its unit and weapon profile, as the answer's
    ``steps`` and the ``strike`` events show it; the name a ``strike_order`` gives."""
    return f"{unit_id} {weapon_key}"


def group_names(state: GameState) -> list[str]:
    """Every Strike Group name a fight of ``state``'s units could have (file order)."""
    return list(dict.fromkeys(group_name(u.id, key) for u in state.units if not is_vehicle(state, u.id)
                              for m in u.models for key, _w in melee_options(u, m)))


def check_strike_order(order: Sequence[str], fighters: Mapping[str, Fighter]) -> tuple[str, ...]:
    """The Active Player's order of Strike Groups (§A.7 "Groups are resolved one at a time, in
    the order chosen by the Active Player"), checked: each name a group of this combat
    (:func:`group_name`: a unit and a weapon one of its fighters strikes with), once."""
    names = list(dict.fromkeys(group_name(f.unit, f.key) for f in fighters.values()))
    seen: set[str] = set()
    for i, g in enumerate(order):
        if g in seen:
            raise IllegalAction(RULE, f"Strike Group {g!r} is named twice in the order", field=f"strike_order.{i}")
        if g not in names:
            raise IllegalAction(RULE, f"{g!r} is not a Strike Group of this combat (its groups: {', '.join(names)})",
                                field=f"strike_order.{i}")
        seen.add(g)
    return tuple(order)


def build_round(state: GameState, unit_id: str, weapons: Optional[Mapping[str, str]] = None,
                targets: Optional[Mapping[str, str]] = None, active_side: Optional[str] = None,
                picks: Optional[Mapping[str, Sequence[str]]] = None, strike_order: Sequence[str] = ()) -> Round:
    """The round of the combat ``unit_id`` is in (§A.7 steps 1, 3); ``strike_order``: the
    Active Player's order of Strike Groups by name, within each Initiative step (the groups it
    does not name follow, in the default order :data:`DEFAULT_ORDER`)."""
    units = combat_of(state, unit_id)
    if len(units) < 2:
        raise IllegalAction(RULE, f"{unit_id} is not locked in combat")
    exclude = tuple(state.turn.get("duel") or ())
    weapons = dict(weapons or {})
    for m in list(weapons) + list(targets or {}):
        if state.unit_of(m).id not in units:
            raise IllegalAction(RULE, f"{m} is not a model of this combat")
    for u in picks or {}:
        if u not in units:
            raise IllegalAction(RULE, f"{u} is not a unit of this combat ({', '.join(units)})")
    fighters = {m: fighter(state, m, weapons.get(m)) for u in units if not is_vehicle(state, u)
                for m in state.unit(u).models if m not in exclude}
    inis = sorted({f.ci for f in fighters.values()}, reverse=True)
    if active_side is None:
        charged = state.turn.get("charged") or {}
        active_side = next((state.unit(u).side for u in charged if state.has_unit(u) and u in units), state.unit(unit_id).side)
    chosen = {u: list(v) for u, v in (picks or {}).items()}
    orders = {u: casualty_order(state, u, exclude, chosen.get(u, ())) for u in units}
    order = check_strike_order(strike_order, fighters)
    return Round(units, fighters, inis, dict(targets or {}), exclude, active_side, chosen, orders, order)


def _side_first(state: GameState, rnd: Round) -> list[str]:
    return sorted(rnd.units, key=lambda u: (state.unit(u).side != rnd.active_side, rnd.units.index(u)))


def step_groups(state: GameState, rnd: Round, ini: int, board: GameState) -> tuple[StrikeGroup, ...]:
    """The Strike Groups of step ``ini`` (§A.7 steps 3–4) on ``board`` (the positions after this
    step's pile-ins), in the Active Player's order (§A.7 step 9: the round's ``strike_order``
    first, then the active side's groups, each unit's in file order); tables read against the
    units as in ``state``."""
    out: list[StrikeGroup] = []
    for u in _side_first(state, rnd):
        if is_vehicle(state, u) or not board.unit(u).models:
            continue
        foes = [e for e in rnd.units if state.unit(e).side != state.unit(u).side and board.unit(e).models]
        eng = {e: set(engaged_models(board, u, rnd.exclude, e)) for e in foes}
        buckets: dict[tuple[str, int, int, tuple[str, ...]], list[Fighter]] = {}
        for m in board.unit(u).models:
            f = rnd.fighters.get(m)
            if f is None or f.ci != ini:
                continue
            with_ = [e for e in foes if m in eng[e]]
            if not with_:
                continue
            t = rnd.targets.get(m)
            if t is not None and t not in with_:
                raise IllegalAction(RULE, f"{m} is not Engaged with {t} (it is with {', '.join(with_)})")
            if t is None:   # Engaged with several units: the attacking player picks one (§A.7 step 7)
                t = choices.default(state.settings, f"assign.{m}", with_[0], with_, RULE, f"the unit {m} attacks", "assign")
            prefs = tuple([t] + [e for e in with_ if e != t])
            buckets.setdefault((f.key, f.ws, f.strength, prefs), []).append(f)
        for (key, ws, s, prefs), fs in buckets.items():
            opts = tuple(against(state, fs[0], t, [m for m in state.unit(t).models if m not in rnd.exclude]) for t in prefs)
            info: dict[str, object] = {"initiative": ini, "weapon": key, "ws": ws, "strength": s}
            out.append(StrikeGroup(u, group_name(u, key), tuple((f.model, f.attacks) for f in fs), opts, info))
    rank = {g: i for i, g in enumerate(rnd.strike_order)}
    groups = tuple(sorted(out, key=lambda g: rank.get(g.label, len(rank))))
    _strike_order_choice(state, rnd, ini, groups)
    return groups


def _strike_order_choice(state: GameState, rnd: Round, ini: int, groups: Sequence[StrikeGroup]) -> None:
    """The Active Player's order of the Strike Groups of step ``ini`` (§A.7 steps 7, 9) is a
    choice where it matters: two groups the ``strike_order`` does not place that may strike the
    same unit (wounds go to a model already wounded first, so the order can change who falls).
    Left open, the default :data:`DEFAULT_ORDER` is the reading ``strike_order``."""
    placed = set(rnd.strike_order)
    units = list(dict.fromkeys(a.target for g in groups for a in g.against))
    for t in units:
        open_ = [g.label for g in groups if g.label not in placed and any(a.target == t for a in g.against)]
        if len(open_) > 1:
            given = " > ".join(rnd.strike_order)
            choices.default(state.settings, "strike_order", f"{given}, then {DEFAULT_ORDER}" if given else DEFAULT_ORDER,
                            open_, "HH3 §A.7 step 9 (the Active Player's order)",
                            f"the order of the Strike Groups of Initiative {ini} that may strike {t}")
            return


def combat_unit(state: GameState, rnd: Round, unit_id: str) -> CombatUnit:
    """``unit_id`` as a target in ``state``: the round's casualty order (checked once, at the
    start of the round), skipping the models that fell in an earlier step, each with the Wounds
    it has left."""
    alive = set(state.unit(unit_id).models)
    return CombatUnit(unit_id, state.unit(unit_id).side, tuple(defender(state, m) for m in rnd.orders[unit_id] if m in alive))


# --- the exact round --------------------------------------------------------------------------


def pile_in_boards(state: GameState, rnd: Round) -> list[GameState]:
    """The board at each step after that step's combatants pile in, as if nobody fell."""
    out: list[GameState] = []
    st = state
    for ini in rnd.initiatives:
        st, _ = _step_pile_in(st, rnd, ini)
        out.append(st)
    return out


def _step_pile_in(st: GameState, rnd: Round, ini: int) -> tuple[GameState, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for u in _side_first(st, rnd):
        movers = [m for m in st.unit(u).models if m in rnd.fighters and rnd.fighters[m].ci == ini]
        if movers:
            st, moves = pile_in(st, u, movers, [e for e in rnd.units if st.unit(e).side != st.unit(u).side and st.unit(e).models])
            if moves:
                events.append({"type": "pile_in", "unit": u, "initiative": ini, "moves": [m.as_json() for m in moves]})
    return st, events


def combat(state: GameState, rnd: Round, boards: Optional[Sequence[GameState]] = None) -> Combat:
    """The round as the shared engine's :class:`rules.melee.combat.Combat`."""
    boards = boards if boards is not None else pile_in_boards(state, rnd)
    units = tuple(combat_unit(state, rnd, u) for u in rnd.units)
    steps = tuple(InitiativeStep(f"I{ini}", step_groups(state, rnd, ini, b), {"initiative": ini}) for ini, b in zip(rnd.initiatives, boards))
    return Combat(units, steps)


def models_counted(state: GameState, alive: Sequence[str]) -> int:
    """Models counted for "the most models" (§A.10): a Paragon or Walker counts its base Wounds."""
    n = 0
    for m in alive:
        t = (model_stat(state, m, "unit_type") or "").lower()
        n += int(model_stat(state, m, "wounds") or 1) if t in ("paragon", "walker") else 1
    return n


class SidesOdds(TypedDict):
    """The chance each side wins a round, and of a draw."""

    win: dict[str, float]
    draw: float


def outcome_odds(state: GameState, rnd: Round, odds: RoundOdds) -> SidesOdds:
    """The chance each side wins (CRP of §A.10: this round's casualties, +1 for the most models,
    the challenge's Glory; a side wiped out loses: Massacre) and of a draw — read off the round's
    joint distribution at once: each unit's models left, models counted and casualties in each
    of its states, summed by side over every combination of states."""
    sides = list(dict.fromkeys(state.unit(u).side for u in rnd.units))
    glory = state.turn.get("glory") or {}
    earlier = state.turn.get("fight_casualties") or {}
    shape = odds.joint.shape
    zero: NDArray[Any] = np.zeros(shape, dtype=np.int64)
    counted = {sd: zero for sd in sides}   # models counted for "the most models"
    left = {sd: zero for sd in sides}      # models left on the table
    lost: dict[str, NDArray[Any]] = {}
    for cu in odds.combat.units:
        side = state.unit(cu.id).side
        duel = [m for m in rnd.exclude if m in state.unit(cu.id).models]
        # models counted among the order's models from position r on (the first r are removed)
        weights = [models_counted(state, [d.id]) for d in cu.order]
        from_r = np.concatenate([np.cumsum(weights[::-1])[::-1], [0]]).astype(np.int64)
        removed = np.array([s.removed for s in odds.states(cu.id)])
        counted[side] = counted[side] + odds.values(cu.id, from_r[removed] + models_counted(state, duel))
        left[side] = left[side] + odds.values(cu.id, len(cu.order) - removed + len(duel))
        lost[cu.id] = odds.values(cu.id, removed + int(earlier.get(cu.id, 0)))
    cnt = np.stack([np.broadcast_to(counted[sd], shape) for sd in sides])
    most = (cnt == cnt.max(axis=0)) & ((cnt == cnt.max(axis=0)).sum(axis=0) == 1)
    pts = np.stack([sum((lost[u] for u in rnd.units if state.unit(u).side != sd), zero) + most[k] + int(glory.get(sd, 0))
                    for k, sd in enumerate(sides)])
    leads = pts == pts.max(axis=0)
    alone = leads.sum(axis=0) == 1
    won = {sd: leads[k] & alone for k, sd in enumerate(sides)}
    drawn = ~alone
    if len(sides) == 2:  # one side wiped out: Massacre, the other wins
        wiped = [np.broadcast_to(left[sd], shape) == 0 for sd in sides]
        massacre = wiped[0] ^ wiped[1]
        won = {sd: np.where(massacre, ~wiped[k], won[sd]) for k, sd in enumerate(sides)}
        drawn = drawn & ~massacre
    return {"win": {sd: odds.chance(won[sd]) for sd in sides}, "draw": odds.chance(drawn)}


# --- the `fight` question -------------------------------------------------------------------


def odds(state: GameState, unit_id: str, targets: Sequence[str] = (), assign: Optional[Mapping[str, str]] = None,
         charged: Optional[str] = None, weapons: Optional[Mapping[str, str]] = None,
         casualties: Optional[Mapping[str, Sequence[str]]] = None, strike_order: Sequence[str] = ()) -> dict[str, Any]:
    """One whole round of the combat ``unit_id`` is in, exactly (§A.7, §A.10): who strikes, the
    Initiative steps with their Strike Groups, the casualty distributions and the chance each
    side wins.

    ``targets``: enemy units ``unit_id``'s models attack, in order of preference; ``assign``:
    {model: unit}; ``charged``: the unit that charged this turn (its side is the active one);
    ``weapons``: {model: weapon}; ``casualties``: {unit: the defender's casualty order}, as the
    ``fight`` action's (each outcome takes its wounds in that order, past the models it lost);
    ``strike_order``: the Active Player's order of Strike Groups within each step, by name
    (:func:`build_round`). The answer's ``readings`` name every default it took (the choices
    left open: :mod:`rules.choices`)."""
    with choices.recording() as used:
        out = _odds(state, unit_id, targets, assign, charged, weapons, casualties, strike_order)
    return out | ({"readings": dict(used)} if used else {})


def _odds(state: GameState, unit_id: str, targets: Sequence[str], assign: Optional[Mapping[str, str]],
          charged: Optional[str], weapons: Optional[Mapping[str, str]], casualties: Optional[Mapping[str, Sequence[str]]],
          strike_order: Sequence[str]) -> dict[str, Any]:
    active = state.unit(charged).side if charged else None
    rnd = build_round(state, unit_id, weapons, assign, active, casualties, strike_order)
    for t in targets:
        if t not in rnd.units or state.unit(t).side == state.unit(unit_id).side:
            raise IllegalAction(RULE, f"{t} is not an enemy unit in {unit_id}'s combat ({', '.join(rnd.units)})")
    boards = pile_in_boards(state, rnd)
    if targets:
        for m in state.unit(unit_id).models:
            if m in rnd.targets or m not in rnd.fighters:
                continue
            b = boards[rnd.initiatives.index(rnd.fighters[m].ci)]
            found = next((t for t in targets if m in engaged_models(b, unit_id, rnd.exclude, t)), None)
            if found:
                rnd.targets[m] = found
        rnd.targets = {m: t for m, t in rnd.targets.items() if t}
    c = combat(state, rnd, boards)
    o = round_odds(c)
    steps_out: list[dict[str, Any]] = []
    fighters: dict[str, list[str]] = {u: [] for u in rnd.units}
    for step in c.steps:
        for g in step.groups:
            a = g.against[0]
            tu = c.unit(a.target)
            saves = sorted({d.save_on(a.kinds[0]) for d in tu.order}, key=lambda v: 99 if v is None else v)
            steps_out.append({"initiative": step.info["initiative"], "unit": g.unit, "group": g.label, "target": a.target,
                              "weapon": g.info["weapon"],
                              "models": list(g.models), "attacks": sum(n for _, n in g.dice), "hit_on": a.hit_on,
                              "wound_on": a.wound_on, "save_on": saves[0] if saves else None})
            fighters[g.unit] += [m for m in g.models if m not in fighters[g.unit]]
    res = outcome_odds(state, rnd, o)
    pmf = {u: o.removed_pmf(u).as_list(0) for u in rnd.units}
    side_of = {u: state.unit(u).side for u in rnd.units}
    return {
        "system": "heresy",
        "unit": unit_id,
        "combat": list(rnd.units),
        "active_side": rnd.active_side,
        "initiative_steps": list(rnd.initiatives),
        "fighters": {u: ms for u, ms in fighters.items() if ms},
        "steps": steps_out,
        "expected_casualties": {u: float(o.removed_pmf(u).mean) for u in rnd.units},
        "casualties_pmf": pmf,
        "result": {**{u: res["win"][side_of[u]] for u in rnd.units}, "draw": res["draw"]},
        "sides": dict(res["win"]),
        "excluded": [m for m in rnd.exclude if m in state.unit_of(m).models],
    }


# --- the round with dice ------------------------------------------------------------------------


def fight_round(state: GameState, unit_id: str, dice: Dice, weapons: Optional[Mapping[str, str]] = None,
                targets: Optional[Mapping[str, str]] = None, casualties: Optional[Mapping[str, Sequence[str]]] = None,
                active_side: Optional[str] = None, pile_ins: bool = True,
                strike_order: Sequence[str] = ()) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    """One round of the combat ``unit_id`` is in, with dice (§A.7): for each Initiative step the
    pile-ins, the Strike Groups, saves, casualties removed at the step's end; then the final
    pile-in. ``casualties``: {unit: the defender's casualty order (first models)}, checked at the
    start of the round and followed through every step, skipping the models fallen in an earlier
    one; ``strike_order``: the Active Player's order of Strike Groups in each step (by name,
    :func:`build_round`). Returns the new state, the events and a summary; the ``fight`` event
    carries the ``readings`` (the defaults of the choices left open, :mod:`rules.choices`)."""
    with choices.recording() as used:
        new, events, summary = _fight_round(state, unit_id, dice, weapons, targets, casualties, active_side, pile_ins,
                                            strike_order)
    if used:
        events[0]["readings"] = dict(used)
    return new, events, summary


def _fight_round(state: GameState, unit_id: str, dice: Dice, weapons: Optional[Mapping[str, str]],
                 targets: Optional[Mapping[str, str]], casualties: Optional[Mapping[str, Sequence[str]]],
                 active_side: Optional[str], pile_ins: bool,
                 strike_order: Sequence[str]) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    rnd = build_round(state, unit_id, weapons, targets, active_side, casualties, strike_order)
    done = [u for u in rnd.units if u in (state.turn.get("fought") or ())]
    if done:
        raise IllegalAction(RULE, f"{', '.join(done)} fought already this phase: each unit attacks in one combat per Assault phase "
                                  "(an end_turn action starts the next)")
    events: list[dict[str, Any]] = [{"type": "fight", "combat": list(rnd.units), "initiative_steps": list(rnd.initiatives),
                     "active_side": rnd.active_side}]
    removed: dict[str, list[str]] = {u: [] for u in rnd.units}
    for ini in rnd.initiatives:
        if pile_ins:
            state, ev = _step_pile_in(state, rnd, ini)
            events += ev
        units = tuple(combat_unit(state, rnd, u) for u in rnd.units)
        step = InitiativeStep(f"I{ini}", step_groups(state, rnd, ini, state), {"initiative": ini})
        c = Combat(units, (step,))
        dice.take_events()
        log = resolve_round(c, dice)
        events += dice.take_events()
        glancing: dict[str, int] = {}
        for g, entry in zip(step.groups, log.steps[0]["groups"]):
            strike: dict[str, Any] = {"type": "strike", "initiative": ini, **{k: v for k, v in entry.items() if k != "rolls"},
                                      "weapon": g.info["weapon"], "ws": g.info["ws"], "strength": g.info["strength"]}
            t = entry["target"]
            if t is not None and is_vehicle(state, t) and "rolls" in entry:
                pen = [v for r in entry["rolls"][1:] for v in r["values"]]   # the Armour Penetration rolls
                n = glancing_hits(rnd.fighters[g.models[0]].strength, majority(state, state.unit(t).models, "armour_rear"), pen)
                strike["glancing_hits"] = n
                glancing[t] = glancing.get(t, 0) + n
            events.append(strike)
        for i, cu in enumerate(c.units):
            losses = log.state[i]
            dead = [d.id for d in cu.order[:losses.removed]]
            lost = dict(state.unit(cu.id).wounds_lost)
            if losses.damage and losses.removed < len(cu.order):
                m = cu.order[losses.removed].id
                lost[m] = lost.get(m, 0) + losses.damage
            for m in dead:
                lost.pop(m, None)
            state = state.with_wounds_lost(cu.id, lost)
            if dead:
                state = state.without_models(cu.id, dead)
                removed[cu.id] += dead
                events.append({"type": "casualties", "unit": cu.id, "models": dead, "initiative": ini})
        for t, n in glancing.items():   # §A.7 step 10: one Vehicle Damage roll per glancing hit
            state, ev = vehicle_damage(state, t, n, dice)
            events += ev
    if pile_ins:
        for u in _side_first(state, rnd):
            movers = [m for m in state.unit(u).models if m not in rnd.exclude]
            foes = [e for e in rnd.units if state.unit(e).side != state.unit(u).side and state.unit(e).models]
            if movers and foes:
                state, moves = pile_in(state, u, movers, foes)
                if moves:
                    events.append({"type": "pile_in", "unit": u, "final": True, "moves": [m.as_json() for m in moves]})
    fc = dict(state.turn.get("fight_casualties") or {})
    for u, ms in removed.items():
        fc[u] = fc.get(u, 0) + len(ms)
    state = state.with_turn("fight_casualties", fc)
    state = state.with_turn("combats", tuple(state.turn.get("combats") or ()) + (tuple(rnd.units),))
    state = state.with_turn("fought", tuple(state.turn.get("fought") or ()) + tuple(rnd.units))
    return state, events, {"combat": rnd.units, "casualties": removed}
