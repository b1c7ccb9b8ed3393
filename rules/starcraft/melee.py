"""The Close Combat Attack (§8.8.1 steps 2–5): declare attackers, roll, casualties.

A fight is the same pipeline as a shot: each model of the Fighting or Supporting Rank
(:mod:`rules.starcraft.ranks`) strikes one enemy unit it may attack with one Combat-phase
weapon; the dice then go through the very :class:`~rules.starcraft.attack.Step` objects of a
Ranged Attack (hit, PRECISION, Surge, Armour, Evade, damage: :func:`rules.starcraft.batches.
pool_spec`), and casualties through :func:`rules.starcraft.casualties.remove` with the
Engaged priority (§8.7.5: the target is Engaged; keep the Engagement with every enemy unit
while another valid casualty exists).

Declaring (:func:`declare`), every choice checked against the rules (an
:class:`IllegalAction` names the one broken):

* only an Engaged unit fights (§8.8); a BURROWED one cannot attack (it must Close Ranks first,
  which removes BURROWED);
* ``assign``: the enemy unit each striking model attacks — one it is in the Fighting Rank
  against, or one a Fighting-Rank squadmate it touches is (§8.8.1 "Fighting multiple Units");
  default: the first declared target it may attack (targets in the order given, else in file
  order; the reading ``assign.<model>``);
* ``weapons``: one Combat-phase weapon per model (§8.8.1 step 3); default: the profile's first
  Combat weapon that is not an upgrade (SPECIALIST weapons must be named for their one model);
* the **Surge Die** goes to one declared target, never split (§8.8.1); default: the first
  target receiving dice that has the weapon's Surge Type tag, else the first receiving dice
  (the reading ``surge_to``);
* attacks split between units are **one Batch** per weapon profile; PRECISION (X) may be
  assigned to one target or split (FAQ): ``precision: {target: n}`` (the file's
  ``precision_split``), default all of it on the Surge target (else the first target receiving
  dice).

A default taken where the rules give a choice is a reading of the answer, and in strict mode
an error listing the legal options (:mod:`rules.choices`).

Evade in melee only when something grants it (HIDDEN or BURROWED: Evade against every attack;
the ability ``combat-shield``; ``grant_evade``), never for being Engaged.

**Recorded dice order** per Batch: each target's attack dice (targets in declaration order),
then the Surge Die, then each target's Armour dice and Evade dice in turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional, Sequence

from .. import choices
from ..dice import Dice
from ..errors import IllegalAction
from ..state import GameState
from .attack import BatchSpec, Pools, modified, roll_logged, surge_die_step
from .casualties import is_engaged, priority_reading, remove
from .catalogue import UnitProfile, Weapon, key, make_profile
from .odds import AttackOdds, BatchTarget, attack_odds
from .batches import BatchResult, DiceGroup, Modifiers, Settings, _setting, casualty_order, default_pick, pool_spec
from . import impact as impact_rules
from .ranks import Ranks, ranks

RULE = "§8.8.1 Close Combat Attack"
MULTI = "§8.8.1 Fighting multiple Units"
#: Stimpack (§4.7): the Marine's melee weapons gain PRECISION (3), the Marauder's PRECISION (2).
STIMPACK_MELEE = {"marine": 3, "marauder": 2}
#: Abilities that make a unit eligible for Evade against Close Combat attacks (Marine Combat Shield).
MELEE_EVADE_ABILITIES = ("combat-shield", "combat_shield")


@dataclass(frozen=True)
class Part:
    """One Batch's dice at one target: the striking models, their dice, PRECISION assigned."""

    target: str
    models: tuple[str, ...]
    dice: int
    precision: int = 0


@dataclass(frozen=True)
class MeleeBatch:
    """Every model striking with the same Combat weapon: one Batch, split between targets."""

    weapon: Weapon
    parts: tuple[Part, ...]
    surge_to: Optional[str]

    @property
    def surge_dice(self) -> Optional[str]:
        return self.weapon.surge_dice


@dataclass(frozen=True)
class CloseCombat:
    """A declared Close Combat Attack, every choice made and checked."""

    unit: str
    ranks: Ranks
    assign: Mapping[str, str]
    weapons: Mapping[str, str]
    batches: tuple[MeleeBatch, ...]
    targets: tuple[str, ...]
    surge_to: Optional[str]
    evade: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # target -> why it may Evade

    def dice(self) -> dict[str, int]:
        out = {t: 0 for t in self.targets}
        for b in self.batches:
            for p in b.parts:
                out[p.target] += p.dice
        return out

    def models_at(self, target: str) -> list[str]:
        return [m for m in self.ranks.strikers if self.assign.get(m) == target]


def _weapon(prof: UnitProfile, name: str, model: str) -> Weapon:
    w = prof.weapons.get(key(name))
    if w is None:
        raise IllegalAction("§5.1 weapon profiles", f"{model} has no weapon {name!r} (has: {', '.join(sorted(prof.weapons)) or 'none'})")
    if w.phase != "combat":
        raise IllegalAction(RULE, f"{w.name} is an Assault-phase weapon: a Close Combat Attack uses Combat-phase weapons only (step 3)")
    return w


def weapon_problem(state: GameState, model_id: str, name: str) -> Optional[str]:
    """Why ``name`` is no Combat-phase weapon of model ``model_id``'s profile (§5.1, step 3):
    what a Close Combat Attack would refuse, decided on the profile alone (``None``: it is one)."""
    u = state.unit_of(model_id)
    try:
        _weapon(make_profile(u.profile or u.id, u.stats), name, model_id)
    except IllegalAction as e:
        return str(e)  # the message and the rule, as the fight refuses it
    return None


def default_weapon(prof: UnitProfile) -> Optional[Weapon]:
    """The profile's first Combat-phase weapon that is not an upgrade (SPECIALIST weapons only
    when named); ``None`` when it has none (a Medic, a Goliath: it activates but cannot strike)."""
    combat = [w for w in prof.weapons.values() if w.phase == "combat" and not w.kw("specialist")]
    plain = [w for w in combat if not w.upgrade]
    return (plain or combat)[0] if combat else None


def melee_evade(state: GameState, target: str) -> tuple[str, ...]:
    """Why ``target`` may Evade a Close Combat attack (only when granted, §8.8.1)."""
    t = state.unit(target)
    why = []
    if "hidden" in t.status:
        why.append("HIDDEN (§11)")
    if "burrowed" in t.status:
        why.append("BURROWED (§11)")
    if any(a in (t.stats.get("abilities") or ()) for a in MELEE_EVADE_ABILITIES):
        why.append("Combat Shield")
    return tuple(why)


def declare(state: GameState, unit_id: str, targets: Optional[Sequence[str]] = None,
            assign: Optional[Mapping[str, str]] = None, weapons: Optional[Mapping[str, str]] = None,
            surge_to: Optional[str | Sequence[str]] = None, precision: Optional[Mapping[str, int]] = None,
            mods: Modifiers = Modifiers()) -> CloseCombat:
    """Declare ``unit_id``'s Close Combat Attack: who strikes whom with what, and the Surge."""
    if not state.has_unit(unit_id):
        raise IllegalAction(RULE, f"no unit {unit_id!r}")
    u = state.unit(unit_id)
    if not u.models:
        raise IllegalAction(RULE, f"{unit_id} has no models on the table")
    if u.flying:
        raise IllegalAction("§8.8 Combat phase", f"{unit_id} is Flying: Flying units never take part in the Combat phase")
    rk = ranks(state, unit_id)
    if not rk.fighting:
        raise IllegalAction("§8.8 Combat phase", f"{unit_id} is not Engaged: only Engaged units fight (no model is within 1\" of an enemy model it engages, §7.2)")
    if "burrowed" in u.status:
        raise IllegalAction("§8.8.1 Engaged BURROWED units", f"{unit_id} is BURROWED and cannot attack; Close Ranks as its first step removes BURROWED")
    order = list(targets) if targets else list(rk.engaged_with)
    for t in order:
        if not state.has_unit(t):
            raise IllegalAction(MULTI, f"no unit {t!r}")
        if t not in rk.engaged_with:
            raise IllegalAction(MULTI, f"{unit_id} is not Engaged with {t} (Engaged with: {', '.join(rk.engaged_with)})")
    prof = make_profile(u.profile or u.id, u.stats)
    fallback = default_weapon(prof)
    weapons = dict(weapons or {})
    for m in weapons:
        if m not in u.models:
            raise IllegalAction(RULE, f"{m} is not a model of {unit_id} on the table")
    armed = [m for m in rk.strikers if m in weapons or fallback is not None]
    assign = dict(assign or {})
    chosen: dict[str, str] = {}
    for m, t in assign.items():
        if m not in u.models:
            raise IllegalAction(RULE, f"{m} is not a model of {unit_id} on the table")
        if m in rk.strikers and m not in armed:
            raise IllegalAction(RULE, f"{m} has no Combat-phase weapon and does not strike (step 3)")
        may = rk.may_attack(m)
        if not may:
            raise IllegalAction(RULE, f"{m} is in neither the Fighting nor the Supporting Rank and does not strike (step 2)")
        if t not in may:
            raise IllegalAction(MULTI, f"{m} may attack only {', '.join(may)}: a model attacks a unit it is in the Fighting Rank against, or one a Fighting-Rank squadmate it touches is")
        if t not in order:
            raise IllegalAction(MULTI, f"{m} is assigned to {t}, which is not a declared target ({', '.join(order)})")
        chosen[m] = t
    for m in armed:
        if m in chosen:
            continue
        open_to = [t for t in order if t in rk.may_attack(m)]
        if open_to:
            chosen[m] = choices.default(state.settings, f"assign.{m}", open_to[0], open_to, MULTI, f"the unit {m} attacks",
                                        "assign")
    chosen = {m: chosen[m] for m in rk.strikers if m in chosen}
    by_weapon: dict[str, list[str]] = {}
    wobj: dict[str, Weapon] = {}
    for m in rk.strikers:
        if m not in chosen:
            continue
        w = _weapon(prof, weapons[m], m) if m in weapons else fallback
        assert w is not None  # a model names its weapon, or strikes with the default (``armed``)
        wobj[w.key] = w
        by_weapon.setdefault(w.key, []).append(m)
    for wk, ms in by_weapon.items():
        if wobj[wk].kw("specialist") and len(ms) > 1:
            raise IllegalAction("§11 SPECIALIST", f"only one model may carry {wobj[wk].name}; {len(ms)} use it")
    receiving = [t for t in order if any(chosen.get(m) == t for m in chosen)]
    if isinstance(surge_to, (list, tuple)):
        if len(set(surge_to)) > 1:
            raise IllegalAction("§8.8.1 Surge", f"the Surge Die goes to one declared target and cannot be split ({', '.join(surge_to)})")
        surge_to = surge_to[0] if surge_to else None
    surging = [w for w in wobj.values() if w.surge_dice]
    if surge_to is not None:
        if surge_to not in receiving:
            raise IllegalAction("§8.8.1 Surge", f"the Surge Die must go to a declared target that receives attacks ({', '.join(receiving)}), not {surge_to}")
    elif surging and receiving:
        tags = set(surging[0].surge)
        surge_to = choices.default(state.settings, "surge_to", next((t for t in receiving if tags & set(state.unit(t).tags)),
                                                                      receiving[0]),
                                   receiving, "§8.8.1 Surge", "the unit the Surge Die goes to")
    batches: list[MeleeBatch] = []
    for wk, ms in by_weapon.items():
        w = wobj[wk]
        total_precision = int(w.kw("precision") or 0) + mods.precision
        if "stimpack" in u.status:
            total_precision += STIMPACK_MELEE.get(u.profile or "", 0)
        tgts = [t for t in receiving if any(chosen[m] == t for m in ms)]
        split = _precision_split(state, w.name, total_precision, tgts, surge_to, precision)
        parts = tuple(
            Part(t, tuple(m for m in ms if chosen[m] == t), w.roa * sum(1 for m in ms if chosen[m] == t)
                 + (mods.extra_dice if t == tgts[0] else 0), split.get(t, 0))
            for t in tgts
        )
        batches.append(MeleeBatch(w, parts, surge_to if w.surge_dice and surge_to in tgts else None))
    evade = {t: melee_evade(state, t) for t in receiving}
    return CloseCombat(unit_id, rk, chosen, {m: next(wk for wk, ms in by_weapon.items() if m in ms) for m in chosen},
                       tuple(batches), tuple(receiving), surge_to, evade)


def _precision_split(state: GameState, weapon: str, total: int, tgts: Sequence[str], surge_to: Optional[str],
                     given: Optional[Mapping[str, int]]) -> dict[str, int]:
    """PRECISION (``total``) of ``weapon``'s Batch between its targets ``tgts`` (FAQ: to one
    target or split): ``given`` {target: n} in full, else all of it on the Surge target (else
    the first target receiving dice) — the reading ``precision_split``, an error in strict mode
    when the Batch has several targets."""
    if not tgts or total <= 0:
        if given and any(given.values()):
            raise IllegalAction("§11 PRECISION", "PRECISION is assigned but the weapon has none")
        return {}
    if given:
        bad = [t for t in given if t not in tgts]
        if bad:
            raise IllegalAction("§11 PRECISION", f"PRECISION assigned to {', '.join(bad)}, which receives no attacks of this weapon")
        if sum(given.values()) != total:
            raise IllegalAction("§11 PRECISION", f"PRECISION ({total}) must be assigned in full: {sum(given.values())} assigned")
        return dict(given)
    to = surge_to if surge_to is not None and surge_to in tgts else tgts[0]
    choices.default(state.settings, "precision_split", to, impact_rules.split_options(total, tgts),
                    "§11 PRECISION (FAQ: one target or split)",
                    f"how the PRECISION ({total}) of {weapon} is split between its targets")
    return {to: total}


def part_spec(state: GameState, cc: CloseCombat, b: MeleeBatch, p: Part, mods: Modifiers = Modifiers()) -> BatchSpec:
    """The numbers of one Batch's dice at one target (the same pools as a Ranged Attack)."""
    w = b.weapon
    groups: tuple[DiceGroup, ...] = ((p.dice, modified(w.hit, mods.hit), "to hit"),) if p.dice > 0 else ()
    surge = w.surge_dice if b.surge_to == p.target else None
    return pool_spec(state, w, p.target, groups, surge, bool(cc.evade.get(p.target)), mods, p.precision)


def _cap(cc: CloseCombat, target: str, mods: Modifiers) -> Optional[int]:
    """CONCENTRATED FIRE (X) at ``target``: the file's, else a weapon keyword of a Batch hitting it."""
    if mods.concentrated_fire is not None:
        return int(mods.concentrated_fire)
    kws = [b.weapon.kw("concentrated_fire") for b in cc.batches if any(p.target == target for p in b.parts)]
    return next((int(k) for k in kws if k), None)


# --- exact odds -------------------------------------------------------------------------------


def odds(state: GameState, cc: CloseCombat, mods: Modifiers = Modifiers(), settings: Settings = None) -> dict[str, AttackOdds]:
    """Exact distributions per target unit (its share of every Batch, in order; casualties by
    the Engaged priority in the documented default order)."""
    out: dict[str, AttackOdds] = {}
    for t in cc.targets:
        tu = state.unit(t)
        prof = make_profile(tu.profile or tu.id, tu.stats)
        order = casualty_order(state, t, tu.models, True, cc.models_at(t), settings)
        tgt = BatchTarget(order, int(prof.hp or 1), int(prof.shield or 0), _cap(cc, t, mods))
        pairs = [(part_spec(state, cc, b, p, mods), tgt) for b in cc.batches for p in b.parts if p.target == t]
        out[t] = attack_odds(pairs, marker=tu.damage, removed_before=len(tu.removed))
    return out


# --- rolling ----------------------------------------------------------------------------------


def resolve(state: GameState, cc: CloseCombat, dice: Dice, mods: Modifiers = Modifiers(),
            choices: Optional[Mapping[str, Sequence[str]]] = None,
            settings: Settings = None) -> tuple[GameState, list[dict[str, Any]], list[BatchResult]]:
    """Roll the declared Close Combat Attack and remove casualties (§8.8.1 steps 3–4)."""
    choices = dict(choices or {})
    for t in choices:
        if t not in cc.targets:
            raise IllegalAction("§8.8.1 casualties", f"casualties are chosen for {t}, which receives no attacks")
    events: list[dict[str, Any]] = [{
        "type": "close_combat", "unit": cc.unit, "fighting_rank": cc.ranks.fighting_rank,
        "supporting_rank": cc.ranks.supporting_rank, "assign": dict(cc.assign), "weapons": dict(cc.weapons),
        "dice": cc.dice(), "surge_to": cc.surge_to, "evade": {t: list(v) for t, v in cc.evade.items() if v},
        "casualty_priority_range": priority_reading(state),
    }]
    results: list[BatchResult] = []
    damage_at: dict[str, int] = {t: 0 for t in cc.targets}
    for bi, b in enumerate(cc.batches):
        specs = [part_spec(state, cc, b, p, mods) for p in b.parts]
        pools: list[Pools] = []
        for p, spec in zip(b.parts, specs):          # every target's attack dice first
            pl, _, rolled = roll_logged([s for s in spec.steps() if s.purpose.startswith("to hit")], dice,
                                        batch=bi, target=p.target)
            events += rolled
            pools.append(pl)
        surge_value = None
        if b.weapon.surge_dice:                       # one Surge Die per Batch, to one target
            pl, _, rolled = roll_logged([surge_die_step(b.weapon.surge_dice)], dice, batch=bi, target=b.surge_to or "")
            events += rolled
            surge_value = pl.surge
        for k, (p, spec) in enumerate(zip(b.parts, specs)):
            rest = [s for s in spec.steps() if not s.purpose.startswith(("to hit", "surge die"))]
            start = pools[k]
            if b.surge_to == p.target and surge_value is not None:
                start = replace(start, surge=surge_value)
            pl, log, rolled = roll_logged(rest, dice, start, batch=bi, target=p.target)
            events += rolled
            by = {e.purpose: e for e in log}
            after_surge = by["resolve surge"].pools
            saved = after_surge.armour - (by["armour"].pools.damage - after_surge.damage)
            results.append(BatchResult(b.weapon.key, p.target, list(p.models), p.dice, pl.hits,
                                       surge_value if b.surge_to == p.target else None, after_surge.damage, saved,
                                       by["evade"].outcome if spec.evade is not None else None, pl.damage,
                                       spec.damage_step.dealt(pl.damage), 0, 0, [], 0, 0))
            damage_at[p.target] += spec.damage_step.dealt(pl.damage)
    st = state
    strict = bool(_setting(settings, "strict_choices", False))
    for t in cc.targets:
        firing = cc.models_at(t)
        rm = remove(st, t, damage_at[t], st.unit(t).models, True, choices.get(t),
                    lambda s_, opts: default_pick(s_, opts, firing, settings), strict, _cap(cc, t, mods))
        st = rm.state
        last = [r for r in results if r.target == t][-1]
        last.total_damage, last.kills, last.casualties = rm.total, rm.alloc.kills, list(rm.taken)
        last.marker, last.discarded = rm.alloc.marker, rm.alloc.discarded
        events.append({"type": "casualties", "unit": t, "models": list(rm.taken), "damage": damage_at[t],
                       "total_damage": rm.total, "marker": rm.alloc.marker, "discarded": rm.alloc.discarded,
                       "shielded": rm.shielded, "priority_range": priority_reading(state)})
    return st, events, results


def unengaged_after(before: GameState, after: GameState, units: Sequence[str]) -> list[str]:
    """Units of a fight that were Engaged before it and no longer are (§8.8.1 step 5: a unit
    with no model left within 1" of an enemy is Unengaged at once)."""
    return [u for u in units if after.unit(u).models and is_engaged(before, u) and not is_engaged(after, u)]


def close_combat(state: GameState, unit_id: str, dice: Dice, targets: Optional[Sequence[str]] = None,
                 assign: Optional[Mapping[str, str]] = None, weapons: Optional[Mapping[str, str]] = None,
                 surge_to: Optional[str | Sequence[str]] = None, precision: Optional[Mapping[str, int]] = None,
                 mods: Modifiers = Modifiers(), casualties: Optional[Mapping[str, Sequence[str]]] = None,
                 settings: Settings = None) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    """The ``close_combat`` action: declare and roll the Close Combat Attack, remove
    casualties, and free the units left with no model within 1" of an enemy (§8.8.1 step 5).
    Returns the new state, the events and the summary (dice, Surge, ranks, each part's result)."""
    cc = declare(state, unit_id, targets, assign, weapons, surge_to, precision or None, mods)
    new, events, results = resolve(state, cc, dice, mods, casualties, settings)
    freed = unengaged_after(state, new, (unit_id,) + cc.targets)
    if freed:
        events.append({"type": "unengaged", "units": freed, "why": "no model within 1\" of an enemy (§8.8.1 step 5)"})
    summary = {"unit": unit_id, "dice": cc.dice(), "surge_to": cc.surge_to, "fighting_rank": cc.ranks.fighting_rank,
               "supporting_rank": cc.ranks.supporting_rank, "parts": [r.as_dict() for r in results]}
    return new, events, summary


def _odds_json(o: AttackOdds) -> dict[str, Any]:
    return {"dice": o.dice, "mean_hits": o.hits.mean, "mean_damage": o.damage.mean, "mean_kills": o.kills.mean,
            "hits_pmf": o.hits.as_list(), "kills_pmf": o.kills.as_list(), "kills_at_least": o.kills.at_least_list()}


def fight_answer(state: GameState, unit_id: str, targets: Sequence[str] = (), assign: Optional[Mapping[str, str]] = None,
                 weapons: Optional[Mapping[str, str]] = None, surge_to: Sequence[str] = (),
                 charged: Optional[str] = None, precision_split: Optional[Mapping[str, int]] = None,
                 impact_split: Optional[Mapping[str, Mapping[str, int]]] = None,
                 mods: Modifiers = Modifiers()) -> dict[str, Any]:
    """The ``fight`` question: the unit's Close Combat Attack as the board stands — Fighting
    and Supporting Rank, who strikes which unit with what, the attack dice per target unit and
    the exact odds per target (casualties by the Engaged priority). ``precision_split``
    {target: n} and ``mods`` (extra ``precision``, ``damage_reduction``) as the
    ``close_combat`` action's. With ``charged`` naming the unit itself (it charged this turn),
    its IMPACT dice (``impact_split``: {model: {unit: dice}}, as the ``impact`` action's) and
    their exact odds too."""
    cc = declare(state, unit_id, targets or None, assign or {}, weapons or {}, list(surge_to) or None,
                 precision_split or None, mods)
    by_target = odds(state, cc, mods, settings=state.settings)
    out: dict[str, Any] = {
        "system": "starcraft",
        "unit": unit_id,
        "fighters": {unit_id: list(cc.assign)},
        "fighting_rank": cc.ranks.fighting_rank,
        "supporting_rank": cc.ranks.supporting_rank,
        "assign": dict(cc.assign),
        "weapons": dict(cc.weapons),
        "dice": cc.dice(),
        "surge_to": cc.surge_to,
        "evade": {t: list(v) for t, v in cc.evade.items() if v},
        "odds": {t: _odds_json(o) for t, o in by_target.items()},
        "casualty_priority_range": state.settings.get("casualty_priority_range", "within_1"),
    }
    if charged is not None and charged == unit_id:
        imp = impact_rules.declare(state, unit_id, targets or None, impact_split)
        if imp is not None:
            out["impact"] = {"x": imp.x, "y": imp.y, "dice": imp.dice(),
                             "odds": {t: _odds_json(o) for t, o in impact_rules.odds(state, imp, state.settings).items()}}
    return out
