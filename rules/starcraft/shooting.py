"""A StarCraft TMG Ranged Attack (§8.7.3–8.7.6): its Batches fired in order, and its exact odds.

:func:`shoot` resolves the ``shoot`` action: each Batch is declared and resolved on the state the
previous one left (a Batch that destroys the unit its unit was Engaged with frees the rest),
template weapons through :mod:`.template_attack` (the primary Batch, then one Spillover Batch
per other unit affected), the others through :mod:`.batches`. Each model fires one Assault
weapon (SIDEARMs aside); a SPECIALIST weapon is carried by one named model.

:func:`attack_answer` is the ``attack`` question: which models fire, which target models may be
removed, and the exact distributions of hits, damage and kills of one or more Batches at one
target unit (:func:`.odds.attack_odds`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

from .. import choices
from ..dice import Dice
from ..errors import IllegalAction
from ..state import GameState
from . import template_attack
from .batches import BatchResult, Modifiers, Settings, batch_spec, batch_target, fire_batch
from .casualties import priority_reading
from .catalogue import unit_weapon
from .odds import attack_odds
from .targeting import check_target

BATCHES, ONE_WEAPON = "§8.7.3 Batches", "§8.7.3 one weapon per model"


@dataclass(frozen=True)
class BatchOrder:
    """One Batch as the attacker declares it: the ``weapon``, its ``target`` (a unit; for a
    template weapon a model or a unit), the firing ``models`` (default: every model of the unit
    not firing another non-SIDEARM weapon), a template's Target Point ``at``, firing ``model``
    and the piece ``on`` which an ability template stands, the defender's ``casualties`` in
    order, and the abilities' ``modifiers``."""

    weapon: str
    target: Optional[str] = None
    models: Optional[tuple[str, ...]] = None
    at: Optional[tuple[float, float]] = None
    model: Optional[str] = None
    on: Optional[str] = None
    casualties: tuple[str, ...] = ()
    modifiers: Modifiers = Modifiers()

    @classmethod
    def of(cls, entry: Mapping[str, Any]) -> "BatchOrder":
        """A Batch from plain values (``modifiers`` by name; lists for ``models`` and
        ``casualties``; any key left out takes its default)."""
        models = entry.get("models")
        at = entry.get("at")
        return cls(entry["weapon"], entry.get("target"), None if models is None else tuple(models),
                   None if at is None else (float(at[0]), float(at[1])), entry.get("model"), entry.get("on"),
                   tuple(entry.get("casualties") or ()), Modifiers(**(entry.get("modifiers") or {})))


def shoot(state: GameState, unit: str, orders: Sequence[BatchOrder | Mapping[str, Any]], dice: Dice,
          settings: Settings) -> tuple[GameState, list[dict[str, Any]], list[dict[str, Any]]]:
    """The Ranged Attack of ``unit``: its Batches resolved in order (each a :class:`BatchOrder`
    or its plain values). Returns the new state, the events (each tagged with its Batch's index)
    and each Batch's result."""
    batches = [b if isinstance(b, BatchOrder) else BatchOrder.of(b) for b in orders]
    events: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    used: dict[str, str] = {}
    for i, b in enumerate(batches):
        w = unit_weapon(state, unit, b.weapon)
        if w.range in template_attack.SHAPE_OF_RANGE:
            state, evs, res = _template(state, unit, b, dice, settings, used)
            results += [r.as_dict() for r in res]
        else:
            if b.at is not None or b.model is not None or b.on is not None:
                raise IllegalAction(BATCHES, f"at, model and on apply to template weapons; {w.name} has Range {w.range}: "
                                    "name its firing models with models")
            if b.target is None or not state.has_unit(b.target):
                what = "no target" if b.target is None else f"target {b.target!r}, not a unit"
                raise IllegalAction("§8.7.3 Ranged Attack", f"{w.name}: {what}; a Ranged Attack targets an enemy unit")
            models = _firing(state, unit, batches, b)
            if not w.kw("sidearm"):
                twice = [m for m in models if m in used]
                if twice:
                    raise IllegalAction(ONE_WEAPON, f"{', '.join(twice)} already fired {used[twice[0]]}; each model fires "
                                        "one Assault weapon (SIDEARMs aside)")
                used.update({m: w.key for m in models})
            tg = check_target(state, unit, b.weapon, b.target, models, grant_evade=b.modifiers.grant_evade)
            state, evs, one = fire_batch(state, tg, dice, b.modifiers, b.casualties, settings)
            results.append(one.as_dict())
        for e in evs:
            e.setdefault("batch", i)
        events += evs
    return state, events, results


def _firing(state: GameState, unit: str, batches: Sequence[BatchOrder], b: BatchOrder) -> list[str]:
    """The models firing Batch ``b``: those it names, else every model of the unit that no other
    Batch names for a non-SIDEARM weapon."""
    weapon = unit_weapon(state, unit, b.weapon)
    u = state.unit(unit)
    if b.models is not None:
        bad = [m for m in b.models if state.figure(m).unit != unit]
        if bad:
            raise IllegalAction(BATCHES, f"{', '.join(bad)} not in unit {unit}")
        models = [m for m in b.models if m in u.models]
    else:
        if weapon.kw("specialist"):
            raise IllegalAction("§11 SPECIALIST", f"{weapon.name} is carried by one model only: name it with models: [id]")
        taken = {m for o in batches if o.models is not None and o is not b and not unit_weapon(state, unit, o.weapon).kw("sidearm")
                 for m in o.models}
        models = [m for m in u.models if m not in taken]
    if weapon.kw("specialist") and len(models) > 1:
        raise IllegalAction("§11 SPECIALIST", f"only one model may carry {weapon.name}; {len(models)} named")
    return models


def _template(state: GameState, unit: str, b: BatchOrder, dice: Dice, settings: Settings,
              used: dict[str, str]) -> tuple[GameState, list[dict[str, Any]], list[BatchResult]]:
    """A template weapon's Batches (§8.7.6): the primary, then each Spillover."""
    if b.models is not None:
        raise IllegalAction("§8.7.6 templates", "a template is placed by one firing model: name it with model, not models")
    target_model = b.target
    if b.target is not None and state.has_unit(b.target):   # a unit named: the attacker aims at one of its models
        target_model = choices.default(settings, "template.target",
                                       template_attack.default_target_model(state, unit, b.target, b.model),
                                       list(state.unit(b.target).models), "§8.7.6 templates",
                                       f"the model of {b.target} the template is aimed at", "target")
    p = template_attack.plan(state, unit, b.weapon, target_model, b.model, b.at, b.on, b.modifiers, settings)
    if p.firing_model in used and not p.weapon.kw("sidearm"):
        raise IllegalAction(ONE_WEAPON, f"{p.firing_model} already fired {used[p.firing_model]}; each model fires one "
                            "Assault weapon (SIDEARMs aside)")
    if not p.weapon.kw("sidearm"):
        used[p.firing_model] = p.weapon.key
    return template_attack.resolve(state, p, dice, b.casualties, settings)


def attack_answer(state: GameState, orders: Sequence[tuple[str, str]], target: str, mods: Modifiers) -> dict[str, Any]:
    """The ``attack`` question: ``orders`` are ``(unit, weapon)``, one Batch each, at ``target``
    (§8.7.3–8.7.4): the firing models (in Range of a Visible target model; LONG RANGE ones at
    −1), the target models that may be removed, whether the target rolls Evade, and the exact
    distributions of hits, damage dice, damage and kills."""
    settings = state.settings
    batches, info = [], []
    for u, w in orders:
        tg = check_target(state, u, w, target, grant_evade=mods.grant_evade)
        spec = batch_spec(state, tg, mods, settings)
        batches.append((spec, batch_target(state, tg, mods, settings)))
        one: dict[str, Any] = {
            "unit": u, "weapon": tg.weapon.key, "firing_models": list(tg.in_range),
            "long_range_models": list(tg.long_range), "visible_targets": list(tg.removable),
            "dice": spec.dice, "surge": spec.surge_dice if spec.surge_applies else None,
            "evade": spec.evade, "evade_reasons": list(tg.evade_reasons) if spec.evade is not None else [],
            "target_engaged": tg.target_engaged, "damage_per_die": spec.damage,
        }
        if tg.target_engaged:
            one["casualty_priority_range"] = priority_reading(state)
        info.append(one)
    t = state.unit(target)
    odds = attack_odds(batches, marker=t.damage, removed_before=len(t.removed))
    firing = [m for b in info for m in b["firing_models"] + b["long_range_models"]]
    visible = sorted({m for b in info for m in b["visible_targets"]}, key=list(t.models).index)
    out: dict[str, Any] = {"unit": orders[0][0], "target": target, "firing_models": firing, "visible_targets": visible}
    out |= odds.summary()
    out["batches"] = info
    return out

