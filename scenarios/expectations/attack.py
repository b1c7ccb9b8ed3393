"""Attack expectations: ``attack``, ``casualties``, ``damage_marker``, ``shielded``.

```yaml
expect:
  - {expect: attack, action: 0, batch: 0, value: hits, equals: 12}     # one pool count
  - {expect: casualties, action: 0, batch: 0, models: [z1, z2, z5]}    # exactly these, in order
  - {expect: casualties, unit: zerglings, count: 7}                    # removed so far
  - {expect: damage_marker, unit: zealots, equals: 6}
  - {expect: shielded, unit: zealots, value: false}
```

``value`` names a count of one Batch: ``attack_dice`` (Attack Pool, Surge Die not counted),
``surge`` (the Surge Die's result), ``hits`` (dice into the Armour Pool), ``moved_by_surge``
(Armour → Damage Pool by Surge / CRITICAL HIT), ``saved`` (Armour Rolls), ``evaded``,
``damage_dice`` (Damage Pool at the end), ``damage`` (× DMG), ``total_damage`` (+ the Damage
Marker), ``kills``, ``marker``, ``discarded``.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, Optional, Self

from pydantic import Field, model_validator

from tapeline.rules.state import GameState
from tapeline.rules.systems import rules_for

from ..limits import MAX_MODELS
from ..schema import ActionIndex, Flag, Id, IdList
from ..vocab import Ref, ReplayContext
from .common import ExpectBase, Numeric

#: The actions whose Batches ``attack`` and ``casualties`` read (``ctx.results[i]["batches"]``).
BATCH_ACTIONS = ("shoot",)
BatchIndex = Annotated[int, Field(strict=True, ge=0, le=49)]
VALUES = Literal["attack_dice", "surge", "hits", "moved_by_surge", "saved", "evaded", "damage_dice",
                 "damage", "total_damage", "kills", "marker", "discarded"]


def _batch(ctx: ReplayContext, action: int, batch: int) -> tuple[Optional[dict[str, Any]], str]:
    got = ctx.results.get(action)
    if not got or "batches" not in got:
        return None, f"action {action} made no attack"
    if batch >= len(got["batches"]):
        return None, f"action {action} has {len(got['batches'])} Batch(es), no Batch {batch}"
    return got["batches"][batch], ""


class Attack(ExpectBase, Numeric):
    """A pool count of Batch ``batch`` of the attack made by action ``action``."""

    expect: Literal["attack"]
    action: ActionIndex
    batch: BatchIndex = 0
    value: VALUES

    def refs(self) -> list[Ref]:
        return [("action", "action", self.action, BATCH_ACTIONS)]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        b, why = _batch(ctx, self.action, self.batch)
        if b is None:
            return False, why
        return self.compare_named(self.value, b[self.value], "not rolled in this Batch")


class Casualties(ExpectBase):
    """The models one Batch removed (``action`` + ``batch``), or a unit's removed models so far
    (``unit``); ``models`` lists them in order, ``count`` counts them."""

    expect: Literal["casualties"]
    action: Optional[ActionIndex] = None
    batch: BatchIndex = 0
    unit: Optional[Id] = None
    models: Optional[IdList] = None
    count: Optional[Annotated[int, Field(strict=True, ge=0, le=MAX_MODELS)]] = None

    @model_validator(mode="after")
    def _what(self) -> Self:
        if (self.action is None) == (self.unit is None):
            raise ValueError("give exactly one of action (a Batch's casualties) or unit")
        if self.models is None and self.count is None:
            raise ValueError("give models, count or both")
        return self

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)] if self.unit else []
        return (out
                + ([("action", "action", self.action, BATCH_ACTIONS)] if self.action is not None else [])
                + [(f"models.{i}", "casualty", m, self.unit) for i, m in enumerate(self.models or ())])

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        if self.unit is not None:
            got = list(state.unit(self.unit).removed)
        else:
            assert self.action is not None  # exactly one of action and unit (the validator)
            b, why = _batch(ctx, self.action, self.batch)
            if b is None:
                return False, why
            got = list(b["casualties"])
        ok = (self.models is None or got == list(self.models)) and (self.count is None or len(got) == self.count)
        return ok, f"removed {got}" + ("" if ok else f", expected {self.models if self.models is not None else self.count}")


class DamageMarker(ExpectBase, Numeric):
    """The damage recorded on a unit's Damage Marker (§8.7.4 step 5)."""

    expect: Literal["damage_marker"]
    unit: Id

    def refs(self) -> list[Ref]:
        return [("unit", "unit", self.unit)]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        ok, detail = self.compare(float(state.unit(self.unit).damage))
        return ok, f"Damage Marker {detail}"


class Shielded(ExpectBase):
    """Is the unit still Shielded (§11 SHIELDED)?"""
    needs: ClassVar[tuple[str, ...]] = ("shielded",)

    expect: Literal["shielded"]
    unit: Id
    value: Flag = True

    def refs(self) -> list[Ref]:
        return [("unit", "unit", self.unit)]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        v = rules_for(state.system).shielded(state, self.unit)
        return v == self.value, f"shielded={v}"
