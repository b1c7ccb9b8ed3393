"""``shoot``: a StarCraft TMG Ranged Attack, Batch by Batch (§8.7.3–8.7.5).

```yaml
actions:
  - action: shoot
    unit: marines
    batches:
      - weapon: c-14-rifle          # every listed model (default: all the unit's models not
        target: zerglings           #   firing another non-SIDEARM weapon) fires it
        casualties: [z3, z1]        # optional: the defender's choices, in order, each checked
        guardian_shield: surge      # optional: the die Guardian Shield removes (target under it)
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
(an ability grants the target an Evade roll), ``damage_reduction`` (what the target's abilities
take off the Batch's damage, §8.7.4 step 5). ``guardian_shield`` (``attack``, ``long_range`` or
``surge``): the die the defender's Guardian Shield removes from this Batch (§4.7; default: the
setting ``guardian_shield_die``). Weapon keywords (PRECISION, CRITICAL HIT, PIERCE,
ANTI-EVADE, LONG RANGE, PINPOINT, BULKY, INDIRECT FIRE, CONCENTRATED FIRE) come from the profile.

Batches are declared and resolved one at a time, each on the state the previous left (a Batch
that destroys the unit its unit was Engaged with frees the rest). Every roll is an event with its
purpose; ``ctx.results[index]["batches"]`` holds each Batch's pools for ``expect: attack``.
"""

from __future__ import annotations

from typing import Any, Annotated, ClassVar, Literal, Optional, Self, get_args

from pydantic import Field, model_validator

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..schema import XY, Count, Flag, Id, IdList, Strict
from ..vocab import Ref, ReplayContext

SmallInt = Annotated[int, Field(strict=True, ge=-6, le=6)]
#: The die Guardian Shield removes from a Batch, the defender's choice (StarCraft §4.7, §8.7.3).
GuardianDie = Literal["attack", "long_range", "surge"]
GUARDIAN_SHIELD: tuple[str, ...] = get_args(GuardianDie)


#: The fields of :class:`PoolModifiers`, as the rules name them.
MODIFIERS = ("hit", "armour", "evade", "extra_dice", "precision", "critical_hit", "tough", "dodge", "concentrated_fire",
             "grant_evade", "damage_reduction")


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
    # §8.7.4 step 5: damage the target's abilities take off each Batch's damage (docs/attacks.md)
    damage_reduction: Count = 0

    def modifiers(self) -> dict[str, Any]:
        """The modifiers by name (the rules' ``Modifiers`` fields)."""
        return {k: getattr(self, k) for k in MODIFIERS}


class BatchOrder(PoolModifiers):
    weapon: Id
    target: Optional[Id] = None
    models: Optional[IdList] = None
    at: Optional[XY] = None
    model: Optional[Id] = None
    on: Optional[Id] = None
    casualties: IdList = []
    # the defender's choice of the die Guardian Shield removes (§4.7): default the setting
    # guardian_shield_die
    guardian_shield: Optional[GuardianDie] = None


class Shoot(Strict):
    """A Ranged Attack by ``unit``: its ``batches`` resolved in order."""
    needs: ClassVar[tuple[str, ...]] = ("shoot",)

    activation: ClassVar[str] = "ranged_attack"
    action: Literal["shoot"]
    unit: Id
    batches: Annotated[list[BatchOrder], Field(min_length=1, max_length=50)]

    @model_validator(mode="after")
    def _one_batch_per_profile(self) -> Self:
        seen = set()
        for b in self.batches:
            if b.weapon in seen:
                raise ValueError(f"weapon {b.weapon!r} appears in two Batches: a profile cannot split between targets (§8.7.3)")
            seen.add(b.weapon)
        return self

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
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

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        orders = [{"weapon": b.weapon, "target": b.target, "models": b.models, "at": b.at, "model": b.model, "on": b.on,
                   "casualties": b.casualties, "modifiers": b.modifiers() | {"guardian_shield": b.guardian_shield}}
                  for b in self.batches]
        state, events, results = rules_for(state.system).shoot(state, self.unit, orders, ctx.dice, ctx.settings)
        ctx.record({"batches": results})
        return state, events
