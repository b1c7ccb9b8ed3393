"""``shoot``: a StarCraft TMG Ranged Attack, Batch by Batch (§8.7.3–8.7.5).

```yaml
actions:
  - action: shoot
    unit: marines
    batches:
      - weapon: c-14-rifle          # every listed model (default: all the unit's models not
        target: zerglings           #   firing another non-SIDEARM weapon) fires it
        casualties: [z3, z1]        # optional: the defender's choices, in order, each checked
      - {weapon: rocket-launcher, target: roaches, models: [m6]}   # a SIDEARM, its own Batch
  - action: shoot                   # a template weapon (RNG BT or FT, §8.7.6)
    unit: siege-tank
    batches:
      - weapon: crucio-shock-cannon
        target: z3                  # the target model (a unit id: its model nearest the firer)
        at: [20.5, 14]              # optional (Blast): the Target Point, if not the target's centre
        model: t1                   # optional: the firing model (default: the nearest to the target)
        casualties: [z3, r1]        # optional: choices for every Batch, each used by its unit's
```

Template weapons (docs/templates.md) resolve one Batch for the primary unit and one Spillover
Batch per other unit the template affects, in that order, each an entry of the action's
results; an ability template (keyword ``ability_template``) has no ``target`` and is placed
``at`` a point (``on`` a piece, optionally).

Batch options: ``models`` (the firing models), ``casualties``, and modifiers from abilities:
``hit``, ``armour``, ``evade`` (target-number modifiers, +X easier), ``extra_dice``,
``precision``, ``critical_hit``, ``tough``, ``dodge``, ``concentrated_fire``, ``grant_evade``
(an ability grants the target an Evade roll). Weapon keywords (PRECISION, CRITICAL HIT, PIERCE,
ANTI-EVADE, LONG RANGE, PINPOINT, BULKY, INDIRECT FIRE, CONCENTRATED FIRE) come from the profile.

Batches are declared and resolved one at a time, each on the state the previous left (a Batch
that destroys the unit its unit was Engaged with frees the rest). Every roll is an event with its
purpose; ``ctx.results[index]["batches"]`` holds each Batch's pools for ``expect: attack``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, ClassVar, Literal, Optional

from pydantic import Field, model_validator

from tapeline.rules.errors import IllegalAction

from ..schema import XY, Flag, Id, IdList, Strict

if TYPE_CHECKING:
    from tapeline.rules.starcraft.ranged import Modifiers

SmallInt = Annotated[int, Field(strict=True, ge=-6, le=6)]
Count = Annotated[int, Field(strict=True, ge=0, le=100)]


class PoolModifiers(Strict):
    """Per-Batch modifiers from abilities the file names (shared by ``shoot`` and
    ``close_combat``): target-number modifiers (+X easier) and keyword bonuses."""

    hit: SmallInt = 0
    armour: SmallInt = 0
    evade: SmallInt = 0
    extra_dice: Annotated[int, Field(strict=True, ge=-100, le=100)] = 0
    precision: Count = 0
    critical_hit: Count = 0
    tough: Count = 0
    dodge: Count = 0
    concentrated_fire: Optional[Annotated[int, Field(strict=True, ge=1, le=1000)]] = None
    grant_evade: Flag = False

    def modifiers(self) -> Modifiers:
        from tapeline.rules.starcraft.ranged import Modifiers  # the rules: loaded when a file is replayed

        return Modifiers(self.hit, self.armour, self.evade, self.extra_dice, self.precision,
                         self.critical_hit, self.tough, self.dodge, self.concentrated_fire, self.grant_evade)


class BatchOrder(PoolModifiers):
    weapon: Id
    target: Optional[Id] = None
    models: Optional[IdList] = None
    at: Optional[XY] = None
    model: Optional[Id] = None
    on: Optional[Id] = None
    casualties: IdList = []


class Shoot(Strict):
    """A Ranged Attack by ``unit``: its ``batches`` resolved in order."""

    activation: ClassVar[str] = "ranged_attack"
    action: Literal["shoot"]
    unit: Id
    batches: Annotated[list[BatchOrder], Field(min_length=1, max_length=50)]

    @model_validator(mode="after")
    def _one_batch_per_profile(self):
        seen = set()
        for b in self.batches:
            if b.weapon in seen:
                raise ValueError(f"weapon {b.weapon!r} appears in two Batches: a profile cannot split between targets (§8.7.3)")
            seen.add(b.weapon)
        return self

    def refs(self):
        out = [("unit", "unit", self.unit)]
        for i, b in enumerate(self.batches):
            out.append((f"batches.{i}.weapon", "weapon", b.weapon, self.unit))
            if b.target is not None:
                out.append((f"batches.{i}.target", "unit_or_model", b.target))
            if b.model is not None:
                out.append((f"batches.{i}.model", "model", b.model))
            if b.on is not None:
                out.append((f"batches.{i}.on", "terrain", b.on))
            out += [(f"batches.{i}.models.{j}", "model", m, self.unit) for j, m in enumerate(b.models or ())]
            out += [(f"batches.{i}.casualties.{j}", "model", m, b.target) for j, m in enumerate(b.casualties)]
        return out

    def _firing(self, state, b: BatchOrder, weapon) -> list[str]:
        u = state.unit(self.unit)
        if b.models is not None:
            bad = [m for m in b.models if state.figure(m).unit != self.unit]
            if bad:
                raise IllegalAction("§8.7.3 Batches", f"{', '.join(bad)} not in unit {self.unit}")
            models = [m for m in b.models if m in u.models]
        else:
            if weapon.kw("specialist"):
                raise IllegalAction("§11 SPECIALIST", f"{weapon.name} is carried by one model only: name it with models: [id]")
            from tapeline.rules.starcraft.catalogue import unit_weapon

            taken = {
                m for o in self.batches
                if o.models is not None and o is not b and not unit_weapon(state, self.unit, o.weapon).kw("sidearm")
                for m in o.models
            }
            models = [m for m in u.models if m not in taken]
        if weapon.kw("specialist") and len(models) > 1:
            raise IllegalAction("§11 SPECIALIST", f"only one model may carry {weapon.name}; {len(models)} named")
        return models

    def apply(self, state, ctx):
        from tapeline.rules.starcraft import template_attack
        from tapeline.rules.starcraft.ranged import fire_batch
        from tapeline.rules.starcraft.targeting import check_target, unit_weapon

        if state.system != "starcraft":
            raise IllegalAction("shoot", "shoot resolves StarCraft TMG Ranged Attacks (system starcraft)")
        events, results, used = [], [], {}
        for i, b in enumerate(self.batches):
            w = unit_weapon(state, self.unit, b.weapon)
            if w.range in template_attack.SHAPE_OF_RANGE:
                state, evs, res = self._template(state, ctx, b, used)
                for e in evs:
                    e.setdefault("batch", i)
                events += evs
                results += [r.as_dict() for r in res]
                continue
            if b.at is not None or b.model is not None or b.on is not None:
                raise IllegalAction("§8.7.3 Batches", f"at, model and on apply to template weapons; {w.name} has Range {w.range}: name its firing models with models")
            if b.target is None or not state.has_unit(b.target):
                what = "no target" if b.target is None else f"target {b.target!r}, not a unit"
                raise IllegalAction("§8.7.3 Ranged Attack", f"{w.name}: {what}; a Ranged Attack targets an enemy unit")
            models = self._firing(state, b, w)
            if not w.kw("sidearm"):
                twice = [m for m in models if m in used]
                if twice:
                    raise IllegalAction("§8.7.3 one weapon per model", f"{', '.join(twice)} already fired {used[twice[0]]}; each model fires one Assault weapon (SIDEARMs aside)")
                used.update({m: w.key for m in models})
            tg = check_target(state, self.unit, b.weapon, b.target, models, grant_evade=b.grant_evade)
            state, evs, res = fire_batch(state, tg, ctx.dice, b.modifiers(), b.casualties, ctx.settings)
            for e in evs:
                e.setdefault("batch", i)
            events += evs
            results.append(res.as_dict())
        if ctx.index is not None:
            ctx.results[ctx.index] = {"batches": results}
        return state, events

    def _template(self, state, ctx, b: BatchOrder, used: dict):
        """A template weapon's Batches (§8.7.6): the primary, then each Spillover."""
        from tapeline.rules.starcraft import template_attack

        if b.models is not None:
            raise IllegalAction("§8.7.6 templates", "a template is placed by one firing model: name it with model, not models")
        target_model = b.target
        if b.target is not None and state.has_unit(b.target):
            target_model = template_attack.default_target_model(state, self.unit, b.target, b.model)
        p = template_attack.plan(state, self.unit, b.weapon, target_model, b.model, b.at, b.on,
                                 b.modifiers(), ctx.settings)
        if p.firing_model in used and not p.weapon.kw("sidearm"):
            raise IllegalAction("§8.7.3 one weapon per model", f"{p.firing_model} already fired {used[p.firing_model]}; each model fires one Assault weapon (SIDEARMs aside)")
        if not p.weapon.kw("sidearm"):
            used[p.firing_model] = p.weapon.key
        return template_attack.resolve(state, p, ctx.dice, b.casualties, ctx.settings)
