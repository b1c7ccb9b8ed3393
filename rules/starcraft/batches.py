"""A Ranged Attack's Batches on the board, one at a time (§8.7.3–8.7.5).

:func:`batch_spec` turns a checked :class:`~rules.starcraft.targeting.Targeting` into the
numbers the dice depend on (:class:`~rules.starcraft.attack.BatchSpec`); :func:`fire_batch`
rolls them (:func:`~rules.starcraft.attack.roll_pools`), removes casualties one at a time and
records the Damage Marker; :func:`batch_target` gives the exact-odds engine the same casualty
order the replay uses by default.

Defaults for choices the rules give the defender (documented in docs/attacks.md):

* which casualty: the scenario's ``casualties:`` list, each checked against the legal options;
  absent, setting ``casualty_default``: ``file_order`` (the first legal model in file order) or
  ``farthest`` (the legal model farthest from the firing models); with ``strict_choices`` a
  missing choice between several legal models is an error listing them;
* Guardian Shield (one die fewer per Batch, §4.7; "if an ability removes dice from a Batch,
  the player controlling that ability picks which ones", §8.7.3): the defender's choice per
  Batch (``guardian_shield``: ``attack``, an attack die at the weapon's Hit; ``long_range``, a
  LONG RANGE die; ``surge``, the Surge Die), default the setting ``guardian_shield_die``
  (``attack``: an in-range die, else a LONG RANGE one; ``surge``: the Surge Die if the Batch
  has one, else as ``attack``).

Every default taken is a reading of the answer, and an error in strict mode
(:mod:`rules.choices`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from tapeline.board.measure import gap_matrix

from .. import choices
from ..dice import Dice
from ..errors import ChoiceError
from ..state import GameState
from .attack import BatchSpec, modified, roll_logged
from .casualties import Option, legal_casualties, priority_reading, remove
from .catalogue import Weapon, make_profile
from .odds import BatchTarget
from .targeting import Targeting

# Stimpack (§4.7): the Marine's C-14 gains PRECISION (3), the Marauder's Quad K12 PRECISION (2).
STIMPACK_PRECISION = {"c-14-rifle": 3, "quad-k12": 2}


@dataclass(frozen=True)
class Modifiers:
    """Per-Batch modifiers from abilities the file names (target-number modifiers: +X easier)."""

    hit: int = 0
    armour: int = 0
    evade: int = 0
    extra_dice: int = 0
    precision: int = 0
    critical_hit: int = 0
    tough: int = 0
    dodge: int = 0
    concentrated_fire: Optional[int] = None
    grant_evade: bool = False
    damage_reduction: int = 0
    guardian_shield: Optional[str] = None   # the defender's choice of die (GUARDIAN_SHIELD)


#: The file's choices: the scenario's settings (read by attribute), the state's mapping, or
#: ``None`` (every default).
Settings = Union[Mapping[str, Any], object, None]
#: An attack-die group of the pool: ``(dice, hit target, purpose)`` (:class:`BatchSpec`).
DiceGroup = tuple[int, Optional[int], str]
#: ``pick(state, options)``: the defender's default casualty among the legal options.
DefaultPick = Callable[[GameState, Sequence[Option]], Option]


#: Guardian Shield's choices (§4.7, §8.7.3): which die of the Batch the defender removes.
GUARDIAN_SHIELD = ("attack", "long_range", "surge")
GUARDIAN_RULE = "§4.7 Guardian Shield"


def _setting(settings: Settings, name: str, default: Any) -> Any:
    if settings is None:
        return default
    if isinstance(settings, Mapping):
        return settings.get(name, default)
    return getattr(settings, name, default)


def batch_spec(state: GameState, tg: Targeting, mods: Modifiers = Modifiers(), settings: Settings = None) -> BatchSpec:
    """The dice of one Batch (§8.7.4 step 1 onwards), from the board and the profiles."""
    w = tg.weapon
    return dice_spec(state, tg.unit, tg.target, w, w.roa * len(tg.in_range) + mods.extra_dice,
                     w.roa * len(tg.long_range), mods, settings, bool(tg.evade_reasons))


def dice_spec(state: GameState, unit_id: str, target: str, w: Weapon, near: int, far: int,
              mods: Modifiers = Modifiers(), settings: Settings = None, evade: bool = False,
              keywords: bool = True, surge_fixed: Optional[int] = None) -> BatchSpec:
    """A Batch's numbers given its attack dice: ``near`` at the weapon's Hit, ``far`` at LONG
    RANGE −1; ``evade``: the target is eligible for Evade. ``keywords`` false leaves out the
    weapon's keywords and the attacker's abilities (a template's Spillover Batch, FAQ);
    ``surge_fixed`` replaces the Surge Die by a result not rolled (templates, §8.7.6)."""
    a, t = state.unit(unit_id), state.unit(target)
    if not keywords:
        w = replace(w, keywords={})
    surge_dice = w.surge_dice if surge_fixed is None else None
    if "guardian_shield" in t.status:  # one die fewer in the Attack Pool per Batch (§4.7, FAQ)
        near, far, surge_dice = guardian_shield(near, far, surge_dice, mods.guardian_shield, settings, w.key)
    elif mods.guardian_shield is not None:
        raise ChoiceError("guardian_shield", GUARDIAN_RULE, f"{target} is not under Guardian Shield (status guardian_shield): "
                          "no die to remove")
    hit = w.hit
    groups: list[DiceGroup] = []
    if near > 0:
        groups.append((near, modified(hit, mods.hit), "to hit"))
    if far > 0:
        groups.append((far, modified(hit, mods.hit - 1), "to hit (LONG RANGE -1)"))
    precision = int(w.kw("precision") or 0) + mods.precision
    if keywords and "stimpack" in a.status:
        precision += STIMPACK_PRECISION.get(w.key, 0)
    return pool_spec(state, w, target, groups, surge_dice, evade, mods, precision, surge_fixed)


def guardian_shield(near: int, far: int, surge_dice: Optional[str], chosen: Optional[str], settings: Settings,
                    weapon: str) -> tuple[int, int, Optional[str]]:
    """The Attack Pool after Guardian Shield removes one die (§4.7): ``(near, far,
    surge_dice)``. ``chosen`` is the defender's choice (one of :data:`GUARDIAN_SHIELD`), else
    the default of setting ``guardian_shield_die`` (a reading; an error in strict mode when the
    Batch has dice of more than one kind). A Batch with no die of the chosen kind refuses it."""
    legal = [k for k, n in (("attack", near), ("long_range", far), ("surge", 1 if surge_dice else 0)) if n > 0]
    if chosen is None:
        wanted = _setting(settings, "guardian_shield_die", "attack")
        pick = "surge" if wanted == "surge" and surge_dice else ("attack" if near > 0 else "long_range" if far > 0 else None)
        if pick is None:
            return near, far, surge_dice
        chosen = choices.default(settings, f"guardian_shield.{weapon}", pick, legal, GUARDIAN_RULE,
                                 f"the die Guardian Shield removes from the {weapon} Batch", "guardian_shield")
    elif chosen not in legal:
        raise ChoiceError("guardian_shield", GUARDIAN_RULE, f"the {weapon} Batch has no {chosen.replace('_', ' ')} die to remove; "
                            f"legal: {', '.join(legal) or 'none (no die left)'}")
    if chosen == "surge":
        return near, far, None
    return (near - 1, far, surge_dice) if chosen == "attack" else (near, far - 1, surge_dice)


def pool_spec(state: GameState, w: Weapon, target: str, groups: Sequence[DiceGroup], surge_dice: Optional[str], evade_eligible: bool,
              mods: Modifiers, precision: int, surge_fixed: Optional[int] = None) -> BatchSpec:
    """A Batch's numbers once its Attack Pool (``groups``) is known — Surge, Armour, DMG
    (PIERCE), Evade (when eligible or granted; ANTI-EVADE), CRITICAL HIT, DODGE, TOUGH
    (§8.7.4). Shared by Ranged Attacks and Close Combat Attacks (§8.8.1 step 3: "same as a
    Ranged Attack")."""
    t = state.unit(target)
    prof = make_profile(t.profile or t.id, t.stats)
    pierce = w.kw("pierce") or {}
    dmg = w.damage
    for tag, x in pierce.items():
        if tag.lower() in t.tags:
            dmg = int(x)
    evade = None
    if evade_eligible or mods.grant_evade:
        evade = modified(prof.evade, mods.evade - int(w.kw("anti_evade") or 0))
    return BatchSpec(
        groups=tuple(groups),
        surge_dice=surge_dice,
        surge_applies=bool(set(w.surge) & set(t.tags)),
        armour=modified(prof.armour, mods.armour),
        damage=dmg,
        evade=evade,
        precision=precision,
        critical_hit=int(w.kw("critical_hit") or 0) + mods.critical_hit,
        dodge=mods.dodge,
        tough=mods.tough,
        surge_fixed=surge_fixed,
        reduction=mods.damage_reduction,
    )


def concentrated_fire(tg: Targeting, mods: Modifiers) -> Optional[int]:
    cf = mods.concentrated_fire if mods.concentrated_fire is not None else tg.weapon.kw("concentrated_fire")
    return None if cf is None else int(cf)


def default_pick(state: GameState, options: Sequence[Option], firing: Sequence[str], settings: Settings) -> Option:
    """The defender's default casualty among ``options`` (setting ``casualty_default``), noted
    as the reading ``casualties`` when there was a choice. (Strict mode asks for the choice in
    the replay, :func:`.casualties.remove`; one Batch's odds of kills do not depend on it.)"""
    how = _setting(settings, "casualty_default", "file_order")
    if len(options) > 1:
        choices.note("casualties", how)
    if how == "farthest" and firing:
        figs = [state.figure(o.model) for o in options]
        g = gap_matrix(figs, [state.figure(m) for m in firing if m in state.figures]).min(axis=1)
        return options[int(g.argmax())]
    return options[0]


def default_order(state: GameState, tg: Targeting, settings: Settings = None) -> tuple[str, ...]:
    """The order in which the documented default would remove the removable models."""
    return casualty_order(state, tg.target, tg.removable, tg.target_engaged, tg.firing, settings)


def casualty_order(state: GameState, target: str, removable: Sequence[str], engaged: bool,
                   attackers: Sequence[str], settings: Settings = None) -> tuple[str, ...]:
    """The order in which the documented default (setting ``casualty_default``) would remove
    ``target``'s removable models, one legal choice at a time (the exact odds' casualty order)."""
    out: list[str] = []
    st = state
    while True:
        opts = legal_casualties(st, target, removable, engaged)
        if not opts:
            return tuple(out)
        m = default_pick(st, opts, attackers, settings).model
        out.append(m)
        st = st.without_models(target, [m])


def batch_target(state: GameState, tg: Targeting, mods: Modifiers = Modifiers(), settings: Settings = None) -> BatchTarget:
    t = state.unit(tg.target)
    prof = make_profile(t.profile or t.id, t.stats)
    return BatchTarget(default_order(state, tg, settings), int(prof.hp or 1), int(prof.shield or 0), concentrated_fire(tg, mods))


@dataclass
class BatchResult:
    """What one Batch did (for events and ``expect: attack``)."""

    weapon: str
    target: str
    firing: list[str]
    attack_dice: int
    hits: int
    surge: Optional[int]
    moved_by_surge: int
    saved: int
    evaded: Optional[int]
    damage_dice: int
    damage: int
    total_damage: int
    kills: int
    casualties: list[str]
    marker: int
    discarded: int

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def fire_batch(state: GameState, tg: Targeting, dice: Dice, mods: Modifiers = Modifiers(),
               choices: Optional[Sequence[str]] = None, settings: Settings = None,
               spec: Optional[BatchSpec] = None) -> tuple[GameState, list[dict[str, Any]], BatchResult]:
    """Resolve one Batch with real dice; returns the new state, its events and the result.
    ``spec``: the Batch's numbers when already worked out (templates), else :func:`batch_spec`."""
    spec = spec or batch_spec(state, tg, mods, settings)
    events: list[dict[str, Any]] = [{
        "type": "batch", "unit": tg.unit, "weapon": tg.weapon.key, "target": tg.target,
        "firing": list(tg.in_range), "long_range": list(tg.long_range), "removable": list(tg.removable),
        "target_engaged": tg.target_engaged, "evade": list(tg.evade_reasons) if spec.evade is not None else [],
        "dice": spec.dice, "surge_die": spec.surge_dice,
    } | ({"surge": spec.surge_fixed} if spec.surge_fixed is not None else {})]
    if tg.target_engaged:
        events[0]["casualty_priority_range"] = priority_reading(state)
    pools, log, rolled = roll_logged(spec.steps(), dice)
    events += rolled
    by = {entry.purpose.split(" (")[0]: entry for entry in log}
    dealt = spec.damage_step.dealt(pools.damage)
    rm = remove(state, tg.target, dealt, tg.removable, tg.target_engaged, choices,
                lambda st_, opts: default_pick(st_, opts, tg.firing, settings),
                bool(_setting(settings, "strict_choices", False)), concentrated_fire(tg, mods))
    st, taken, alloc, total = rm.state, list(rm.taken), rm.alloc, rm.total
    surge_entry = by.get("surge die")
    after_surge, armour_entry, evade_entry = by["resolve surge"].pools, by["armour"], by["evade"]
    moved = after_surge.damage
    saved = after_surge.armour - (armour_entry.pools.damage - moved)
    res = BatchResult(
        weapon=tg.weapon.key, target=tg.target, firing=list(tg.firing), attack_dice=spec.dice,
        hits=pools.hits, surge=surge_entry.outcome if surge_entry else spec.surge_fixed, moved_by_surge=moved,
        saved=saved, evaded=evade_entry.outcome if spec.evade is not None else None,
        damage_dice=pools.damage, damage=dealt, total_damage=total,
        kills=alloc.kills, casualties=taken, marker=alloc.marker, discarded=alloc.discarded,
    )
    events.append({"type": "casualties", "unit": tg.target, "models": taken, "damage": res.damage,
                   "total_damage": total, "marker": alloc.marker, "discarded": alloc.discarded,
                   "shielded": rm.shielded}
                  | ({"priority_range": priority_reading(state)} if tg.target_engaged else {}))
    return st, events, res
