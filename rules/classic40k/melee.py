"""Fighting a 40k 3rd edition close combat: one round, from the board to the shared engine.

This module works out from the table everything the dice depend on and hands it to the shared
melee engine (:mod:`tapeline.rules.melee`) as a :class:`~tapeline.rules.melee.combat.Combat`:

* **The combat** — the units linked by models within 2" of an enemy model (the combat ``U`` is
  in: every unit reached from ``U`` that way). **Who fights**: every model within 2" of an enemy
  model of the combat (seed "Who Can Fight", :mod:`tapeline.rules.classic40k.engagement`).
* **Attacks** (seed "Attacks"): the model's Attacks (its weapon may modify them), +1 if its unit
  charged this turn, +1 for two close combat weapons (:func:`two_weapon_bonus`; a power fist and
  a pistol count, setting ``c40k_fist_extra_attack``).
* **Its weapon**: the file's choice, else the first special weapon of its wargear (one that
  changes anything), else the first close combat weapon that is not a pistol, else the first
  pistol, else its bare characteristics. A power
  fist doubles Strength to a maximum of 10 (seed "Power Fist or Claw").
* **Its target** (seed "Allocating Attacks"): attacks are allocated among the enemy *units* the
  model is within 2" of before rolling — the file's choice (a unit, or attacks per unit), else
  all at the unit of the nearest enemy model. A unit is hit against its majority WS and wounded
  against its majority Toughness among its fighting models (ties: the higher).
* **A fresh opponent** (seed "Removing Casualties": "a model whose foe falls before he attacks
  may strike a fresh opponent instead"; setting ``c40k_fresh_opponent``): ``within_2`` (the
  default, the seed) — a model strikes its target unit while one of that unit's models within
  2" of it is still on the table; when they have all fallen, the next enemy unit with a model
  within 2" of it (nearest first); with none left within 2" it does not strike.
  ``any_of_unit`` — a model that fights strikes its target unit while the unit has any model
  left, wherever it stands, then the next unit within 2".
* **To hit / to wound / saves**: the 40k WS chart and the S vs T chart
  (:mod:`tapeline.rules.classic40k.charts`); armour saves as normal (no cover saves in close
  combat), none against power weapons, power fists and monstrous creatures; invulnerable saves
  always.
* **Strike order** (seed "Who Strikes First"): models of an assaulted unit in or behind cover
  strike first; assaulting models with frag grenades strike with them, simultaneously (setting
  ``c40k_frag_grenades``: ``simultaneous``, or ``initiative``: the defenders lose their first
  strike and everyone strikes by Initiative); then everyone by Initiative, highest first, equal
  Initiatives simultaneously; power fists always last. Casualties of a step are removed before
  the next.
* **Casualties** (seed "Removing Casualties"): taken from models in base contact first, then
  those within 2", then the rest of the unit — in that order, the defender's choice within each
  tier (the file's ``casualties``, else file order).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional, Sequence, Union

import shapely

from tapeline.board.measure import gap_matrix, region_gap
from tapeline.board.table import Figure
from tapeline.board.units import TOUCH

from .. import choices
from ..errors import IllegalAction
from ..melee.charts import faces_at_least
from ..melee.combat import Combat, CombatUnit, InitiativeStep
from ..melee.loadout import armoury, model_line, wargear
from ..melee.strike import Against, Pool, StrikeGroup, WoundKind, wound_category
from ..melee.weapons import MeleeWeapon
from ..melee.wounds import Defender
from ..state import GameState
from . import weapons as kit
from .charts import CHARTS
from .engagement import FIGHT_DISTANCE, casualty_tiers

RULE = "40k 3rd Fighting A Close Combat"
RULE_ALLOC = "40k 3rd Allocating Attacks"
RULE_CAS = "40k 3rd Removing Casualties"
#: Strike slots, in the order they strike.
FIRST, INITIATIVE, LAST = "first", "initiative", "last"


@dataclass(frozen=True)
class Choices:
    """The players' choices for one round (each optional; defaults in the module notes).

    ``weapons``: model → weapon name; ``targets``: model → enemy unit, or ``{unit: attacks}``
    to split its attacks; ``casualties``: unit → models in the order the defender removes them
    (a prefix; the rest follow the default order); ``charged``: units that charged this turn
    (units with the status ``charged`` count too); ``enemies``: only these enemy units of the
    combat fight ``unit`` (``--target``)."""

    weapons: Mapping[str, str] = field(default_factory=dict)
    targets: Mapping[str, Union[str, Mapping[str, int]]] = field(default_factory=dict)
    casualties: Mapping[str, Sequence[str]] = field(default_factory=dict)
    charged: Sequence[str] = ()
    enemies: Sequence[str] = ()


@dataclass(frozen=True)
class Fighter:
    """One fighting model as the round sees it."""

    model: str
    unit: str
    side: str
    weapon: MeleeWeapon
    ws: int
    strength: int
    initiative: int
    attacks: int
    bonuses: tuple[str, ...]
    slot: str
    cover: Optional[str]
    targets: tuple[tuple[str, int], ...]    # ((unit, attacks), ...)
    within: tuple[str, ...]                 # the enemy units within 2" of it, nearest first (fresh opponents)
    ignores_armour: bool
    #: the models of each unit of ``within`` it may strike, by unit (``None``: any model of
    #: the unit; setting ``c40k_fresh_opponent``)
    foes: Mapping[str, Optional[frozenset[str]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Round:
    """A round ready to fight: the engine's :class:`Combat` and what it was built from."""

    combat: Combat
    unit: str
    units: tuple[str, ...]
    sides: tuple[str, ...]
    fighters: tuple[Fighter, ...]
    charged: tuple[str, ...]
    readings: dict[str, Any]   # the settings the round was built under, by name


def _setting(state: GameState, name: str, default: Any) -> Any:
    return state.settings.get(name, default) if state.settings else default


# --- the combat and its fighters -----------------------------------------------------------------


def combat_units(state: GameState, unit_id: str) -> list[str]:
    """Every unit linked to ``unit_id`` by models within 2" of an enemy model (file order)."""
    seen, todo = {unit_id}, [unit_id]
    while todo:
        u = todo.pop()
        mine = state.figures_of(u)
        if not mine:
            continue
        for e in state.enemies_of(u):
            if e.id in seen:
                continue
            if float(gap_matrix(mine, state.figures_of(e.id)).min()) <= FIGHT_DISTANCE + TOUCH:
                seen.add(e.id)
                todo.append(e.id)
    return [u.id for u in state.units if u.id in seen]


def _stat(state: GameState, unit_id: str, line: Mapping[str, Any], name: str, model: str) -> int:
    v = line.get(name)
    if v is None:
        raise IllegalAction(RULE, f"{model} of {unit_id} needs stats.{name} to fight")
    return int(v)


def _plain(w: MeleeWeapon) -> bool:
    return (w.strength.op == "keep" and w.attacks.op == "keep" and w.initiative.op == "keep" and w.ap is None
            and not w.ignores_armour and not w.strikes_last and not w.traits and w.damage == 1)


def melee_weapons(state: GameState, unit_id: str, model: str) -> list[MeleeWeapon]:
    """The model's close combat weapons, in wargear order (kit such as grenades left out)."""
    arm = armoury(state.unit(unit_id), kit.weapons(_setting(state, "c40k_fist_extra_attack", "any_weapon")))
    return [arm[n] for n in wargear(state.unit(unit_id), model) if n in arm]


def weapon_of(state: GameState, unit_id: str, model: str, chosen: Optional[str], strict: bool) -> MeleeWeapon:
    """The weapon the model fights with (see the module notes)."""
    ws = melee_weapons(state, unit_id, model)
    if chosen is not None:
        for w in ws:
            if w.name == chosen:
                return w
        raise IllegalAction(RULE, f"{model} has no close combat weapon {chosen!r} (wargear: {', '.join(w.name for w in ws) or 'none'})")
    special = [w for w in ws if not _plain(w)]
    if special:
        name = choices.default(_strict(strict), f"weapon.{model}", special[0].name, sorted({w.name for w in special}),
                               RULE, f"the weapon {model} fights with", "weapons")
        return next(w for w in special if w.name == name)
    hand = [w for w in ws if "pistol" not in w.name]
    return (hand or ws or [kit.BARE_HANDS])[0]


def weapon_problem(state: GameState, unit_id: str, model: str, chosen: str) -> Optional[str]:
    """Why the model cannot fight with the weapon ``chosen`` (it is not among its close combat
    weapons): what :func:`weapon_of` would refuse (``None``: it may)."""
    try:
        weapon_of(state, unit_id, model, chosen, False)
    except IllegalAction as e:
        return str(e)  # the message and the rule, as the fight refuses it
    return None


def two_weapon_bonus(state: GameState, unit_id: str, model: str, weapon: MeleeWeapon) -> int:
    """+1 Attack for two close combat weapons, one in each hand (seed "Close Combat Weapons"):
    another weapon that pairs with the one used (``two_weapons: any`` both, or a second of the
    same name for ``pair``)."""
    if weapon.two_weapons == "none":
        return 0
    ws = melee_weapons(state, unit_id, model)
    others = list(ws)
    for i, w in enumerate(others):
        if w.name == weapon.name:
            del others[i]
            break
    for w in others:
        if w.name == weapon.name or (weapon.two_weapons == "any" and w.two_weapons == "any"):
            return 1
    return 0


def monstrous(state: GameState, unit_id: str) -> bool:
    u = state.unit(unit_id)
    return (str(u.stats.get("unit_type") or "").lower() in kit.MONSTROUS) or bool(set(u.tags) & set(kit.MONSTROUS))


def has_frag_grenades(state: GameState, unit_id: str, model: str) -> bool:
    return "frag-grenades" in wargear(state.unit(unit_id), model)


def _cover_of(state: GameState, fig: Figure, chargers: Sequence[Figure]) -> Optional[str]:
    """The cover piece a defending model is in, or behind as seen from the assaulting models
    within 2" of it (``None``: not in cover)."""
    if "in_cover" in state.unit(fig.unit).status:
        return "status in_cover"
    pieces = [p for p in state.table.pieces if p.has("cover")]
    for p in pieces:
        if fig.on == p.id or region_gap(fig, p.footprint) < -TOUCH:
            return p.id
    for c in chargers:
        seg = shapely.LineString([fig.at, c.at])
        for p in pieces:
            if shapely.intersects(seg, p.footprint) and region_gap(c, p.footprint) >= -TOUCH:
                return p.id
    return None


def majority(values: Sequence[int]) -> int:
    """The most common value; ties: the higher (the reading tapeline uses for "majority")."""
    counts: dict[int, int] = {}
    for v in values:
        counts[int(v)] = counts.get(int(v), 0) + 1
    return max(counts, key=lambda v: (counts[v], v))


# --- building the round ----------------------------------------------------------------------------


def build_round(state: GameState, unit_id: str, choices: Choices = Choices()) -> Round:
    """The round of the combat ``unit_id`` is in, ready for the engine."""
    if not state.has_unit(unit_id):
        raise IllegalAction(RULE, f"no unit {unit_id!r}")
    if not state.unit(unit_id).models:
        raise IllegalAction(RULE, f"{unit_id} has no models left on the table")
    units = combat_units(state, unit_id)
    side = state.unit(unit_id).side
    if choices.enemies:
        for t in choices.enemies:
            if t not in units or state.unit(t).side == side:
                raise IllegalAction(RULE, f"{t} is not an enemy unit in {unit_id}'s combat (combat: {', '.join(units)})")
        units = [u for u in units if state.unit(u).side == side or u in choices.enemies]
    if len(units) < 2:
        raise IllegalAction(RULE, f"{unit_id} is not in a close combat: no model within 2\" of an enemy model")
    sides: list[str] = []
    for u in units:
        if state.unit(u).side not in sides:
            sides.append(state.unit(u).side)
    if len(sides) != 2:
        raise IllegalAction(RULE, f"a close combat has two sides; {unit_id}'s combat has {len(sides)}: {', '.join(sides)}")
    for m in list(choices.weapons) + list(choices.targets):
        if m not in state.figures or state.figure(m).unit not in units:
            raise IllegalAction(RULE, f"{m} is not a model in {unit_id}'s combat")
    charged = tuple(u for u in units if u in set(choices.charged) or "charged" in state.unit(u).status)
    strict = bool(_setting(state, "strict_choices", False))
    frag_reading = _setting(state, "c40k_frag_grenades", "simultaneous")
    fresh_reading = _setting(state, "c40k_fresh_opponent", "within_2")

    figs = {u: state.figures_of(u) for u in units}
    enemies_of = {u: [e for e in units if state.unit(e).side != state.unit(u).side] for u in units}
    gaps = {(u, e): gap_matrix(figs[u], figs[e]) for u in units for e in enemies_of[u]}
    fighting = {u: [f for i, f in enumerate(figs[u]) if any(gaps[(u, e)][i].min() <= FIGHT_DISTANCE + TOUCH for e in enemies_of[u])]
                for u in units}
    # the target units' majority WS and T among their fighting models
    ws_of: dict[str, int] = {}
    t_of: dict[str, int] = {}
    for u in units:
        rows = [model_line(state.unit(u), f.id) for f in (fighting[u] or figs[u])]
        ws_of[u] = majority([_stat(state, u, r, "weapon_skill", f.id) for r, f in zip(rows, fighting[u] or figs[u])])
        t_of[u] = majority([_stat(state, u, r, "toughness", f.id) for r, f in zip(rows, fighting[u] or figs[u])])

    fighters: list[Fighter] = []
    for u in units:
        us = state.unit(u)
        for f in fighting[u]:
            i = figs[u].index(f)
            near = sorted(((float(gaps[(u, e)][i].min()), units.index(e), e) for e in enemies_of[u]))
            within = [e for d, _, e in near if d <= FIGHT_DISTANCE + TOUCH]
            foes = {e: (frozenset(g.id for j, g in enumerate(figs[e]) if gaps[(u, e)][i][j] <= FIGHT_DISTANCE + TOUCH)
                        if fresh_reading == "within_2" else None) for e in within}
            line = model_line(us, f.id)
            w = weapon_of(state, u, f.id, choices.weapons.get(f.id), strict)
            ws = _stat(state, u, line, "weapon_skill", f.id)
            s = w.strength.apply(_stat(state, u, line, "strength", f.id), cap=CHARTS.max_characteristic)
            ini = w.initiative.apply(_stat(state, u, line, "initiative", f.id), cap=CHARTS.max_characteristic)
            a = w.attacks.apply(_stat(state, u, line, "attacks", f.id), cap=None)
            bonuses: list[str] = []
            if u in charged:
                bonuses.append("charged")
            if two_weapon_bonus(state, u, f.id, w):
                bonuses.append("two close combat weapons")
            a += len(bonuses)
            targets = _targets(f.id, within, a, choices.targets.get(f.id), strict)
            # strike slot
            slot: str = INITIATIVE
            cover: Optional[str] = None
            chargers_near: list[Figure] = []
            if u not in charged:
                for e in enemies_of[u]:
                    if e in charged:
                        chargers_near += [c for j, c in enumerate(figs[e]) if gaps[(u, e)][i][j] <= FIGHT_DISTANCE + TOUCH]
            if chargers_near:
                cover = _cover_of(state, f, chargers_near)
                if cover is not None:
                    frags = [has_frag_grenades(state, c.unit, c.id) for c in chargers_near]
                    if frag_reading == "simultaneous" or not all(frags):
                        slot = FIRST
            if frag_reading == "simultaneous" and u in charged and has_frag_grenades(state, u, f.id):
                slot = "frag"
            if w.strikes_last:
                slot = LAST
            fighters.append(Fighter(f.id, u, us.side, w, ws, s, ini, a, tuple(bonuses), slot, cover, targets, tuple(within),
                                    w.ignores_armour or monstrous(state, u), foes))
    # the "simultaneous" frag reading: chargers with frag grenades join the first step only when
    # some defender strikes first from cover
    any_first = any(fi.slot == FIRST for fi in fighters)
    fighters = [_reslot(fi, FIRST if any_first else INITIATIVE) if fi.slot == "frag" else fi for fi in fighters]

    cunits = tuple(CombatUnit(u, state.unit(u).side, casualty_order(state, u, units, choices.casualties.get(u), strict))
                   for u in units)
    combat = Combat(cunits, _steps(state, fighters, ws_of, t_of, cunits))
    readings = {"c40k_frag_grenades": frag_reading, "c40k_fist_extra_attack": _setting(state, "c40k_fist_extra_attack", "any_weapon"),
                "c40k_fresh_opponent": fresh_reading}
    return Round(combat, unit_id, tuple(units), tuple(sides), tuple(fighters), charged, readings)


def _reslot(fi: Fighter, slot: str) -> Fighter:
    return replace(fi, slot=slot)


def _strict(strict: bool) -> dict[str, bool]:
    """The settings :func:`rules.choices.default` reads: strict mode or not."""
    return {"strict_choices": strict}


def _targets(model: str, within: Sequence[str], attacks: int, chosen: Union[str, Mapping[str, int], None],
             strict: bool) -> tuple[tuple[str, int], ...]:
    """((unit, attacks), ...) for one model (seed "Allocating Attacks")."""
    if chosen is None:
        if not within:
            return ()
        first = choices.default(_strict(strict), f"assign.{model}", within[0], within, RULE_ALLOC, f"the unit {model} attacks",
                                "assign")
        return ((first, attacks),)
    split = {chosen: attacks} if isinstance(chosen, str) else dict(chosen)
    for t in split:
        if t not in within:
            raise IllegalAction(RULE_ALLOC, f"{model} may only attack enemy units within 2\" of it ({', '.join(within)}), not {t}")
    if sum(int(n) for n in split.values()) != attacks:
        raise IllegalAction(RULE_ALLOC, f"{model} allocates {sum(int(n) for n in split.values())} attacks but has {attacks}")
    return tuple((t, int(n)) for t, n in split.items() if int(n) > 0)


def casualty_order(state: GameState, unit_id: str, units: Sequence[str], chosen: Optional[Sequence[str]] = None,
                   strict: bool = False) -> tuple[Defender, ...]:
    """The unit's models as :class:`Defender` in the order casualties are taken: the defender's
    ``chosen`` models first, then the default order (base contact, within 2", the rest, each in
    file order, a model wounded in an earlier round first in its tier). The whole order must
    take base contact before 2" before the rest. A wounded model enters with the Wounds it has
    left."""
    u = state.unit(unit_id)
    lost = dict(u.wounds_lost or {})
    contact, near, rest = (sorted(t, key=lambda m: (not lost.get(m), u.models.index(m)))
                           for t in casualty_tiers(state, unit_id, [x for x in units if x != unit_id]))
    tier = {m: 0 for m in contact} | {m: 1 for m in near} | {m: 2 for m in rest}
    chosen = list(chosen or [])
    for m in chosen:
        if m not in tier:
            raise IllegalAction(RULE_CAS, f"{m} is not a model of {unit_id} on the table")
    if len(set(chosen)) != len(chosen):
        raise IllegalAction(RULE_CAS, f"the casualty order of {unit_id} names a model twice")
    order = chosen + [m for m in contact + near + rest if m not in chosen]
    for t, ms in enumerate((contact, near, rest)):   # the defending player's choice within a tier
        free = [m for m in ms if m not in chosen]
        if len(free) > 1:
            names = ("in base contact", "within 2\"", "beyond 2\"")[t]
            choices.default(_strict(strict), f"casualties.{unit_id}", " > ".join(order[len(chosen):]),
                            free, f"{RULE_CAS}: the models {names} in the order given", f"the order {unit_id}'s casualties are removed in")
            break
    tiers = [tier[m] for m in order]
    for k in range(1, len(tiers)):
        if tiers[k] < tiers[k - 1]:
            lower = ("in base contact", "within 2\"", "beyond 2\"")
            raise IllegalAction(RULE_CAS, f"{order[k - 1]} ({lower[tiers[k - 1]]}) cannot be removed before {order[k]} ({lower[tiers[k]]}): "
                                           "casualties come from models in base contact first, then those within 2\"")
    out: list[Defender] = []
    for m in order:
        line = model_line(u, m)
        save = line.get("save")
        left = max(1, int(line.get("wounds") or 1) - int(lost.get(m, 0)))
        out.append(Defender(m, left, int(save) if save is not None else None,
                            int(line["invulnerable"]) if line.get("invulnerable") is not None else None))
    return tuple(out)


def _kind(fi: Fighter) -> WoundKind:
    w = fi.weapon
    return WoundKind(ap=w.ap, damage=w.damage, ignores_armour=fi.ignores_armour, label="" if not fi.ignores_armour else "ignores armour")


def against(fi: Fighter, target: str, ws_of: Mapping[str, int], t_of: Mapping[str, int]) -> Against:
    """``fi``'s attacks at ``target``: hit against its majority WS, wound against its majority
    T, struck while one of ``fi``'s foes in it stands (``Fighter.foes``)."""
    h = CHARTS.hit_on(fi.ws, ws_of[target])
    wd = CHARTS.wound_on(fi.strength, t_of[target])
    return Against(target, faces_at_least(h), faces_at_least(wd, yes=wound_category(0)), (_kind(fi),), h, wd,
                   fi.foes.get(target))


def _steps(state: GameState, fighters: Sequence[Fighter], ws_of: Mapping[str, int], t_of: Mapping[str, int],
           cunits: tuple[CombatUnit, ...]) -> tuple[InitiativeStep, ...]:
    """Initiative steps: first (in cover), then Initiative high to low, then last (power fists)."""
    def key(fi: Fighter) -> tuple[int, int]:
        return (0 if fi.slot == FIRST else (2 if fi.slot == LAST else 1), -fi.initiative if fi.slot == INITIATIVE else 0)

    steps: list[InitiativeStep] = []
    order_of = {u.id: u for u in cunits}
    for k in sorted({key(fi) for fi in fighters}):
        members = [fi for fi in fighters if key(fi) == k]
        # the models of one unit and weapon with the same options roll together (a Pool); within
        # it, those near the same enemy models (the options' foes) are one Strike Group
        pools: dict[tuple[str, str, tuple[Against, ...]], dict[tuple[Against, ...], list[tuple[str, int]]]] = {}
        for fi in members:
            for t, n in fi.targets:
                opts = (against(fi, t, ws_of, t_of),) + tuple(against(fi, e, ws_of, t_of) for e in fi.within if e != t)
                plain = tuple(replace(o, foes=None) for o in opts)
                pools.setdefault((fi.unit, fi.weapon.name, plain), {}).setdefault(opts, []).append((fi.model, int(n)))
        out: list[StrikeGroup] = []
        for pk, ((u, wname, plain), groups) in enumerate(pools.items()):
            ms = {m for dice in groups.values() for m, _n in dice}
            pool = Pool(pk, tuple(fi.model for fi in members if fi.model in ms))
            m0 = next(fi for fi in members if fi.model == pool.models[0])
            first = plain[0]
            tgt = order_of[first.target]
            save_on = tgt.order[0].save_on(first.kinds[0]) if tgt.order else None
            info: dict[str, object] = {"weapon": wname, "initiative": m0.initiative, "strikes": m0.slot, "cover": m0.cover,
                    "save_on": save_on, "ws": m0.ws, "strength": m0.strength}
            label = f"{u} {wname}"
            out += [StrikeGroup(u, label, tuple(dice), opts, info, pool) for opts, dice in groups.items()]
        slot = members[0].slot
        label = {FIRST: "first (in cover)", LAST: "last (power fists)"}.get(slot, f"I{members[0].initiative}")
        steps.append(InitiativeStep(label, tuple(out), {"strikes": slot, "initiative": members[0].initiative if slot == INITIATIVE else None}))
    return tuple(steps)


def fighters_by_unit(rnd: Round) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {u: [] for u in rnd.units}
    for fi in rnd.fighters:
        out[fi.unit].append(fi.model)
    return {u: ms for u, ms in out.items() if ms}


__all__ = ["Choices", "Fighter", "Round", "build_round", "casualty_order", "combat_units", "majority", "two_weapon_bonus",
           "weapon_of", "melee_weapons", "against", "fighters_by_unit"]
