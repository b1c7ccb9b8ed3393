"""Expectations on a unit's state: ``status``, ``locked``, ``position``.

```yaml
expect:
  - {expect: status, unit: loyal, has: [stunned]}              # statuses it must have
  - {expect: status, unit: loyal, lacks: [routed, pinned]}     # and must not have
  - {expect: status, unit: loyal, exactly: []}                 # exactly these (none)
  - {expect: locked, unit: loyal, value: true}                 # locked in combat (Heresy, 40k)
  - {expect: locked, unit: loyal, with: [traitors]}            # exactly with these units
  - {expect: position, model: a1, at: [12, 10], tol: 0.001}    # where a model stands
  - {expect: position, model: a3, removed: true}               # removed as a casualty
```
"""

from __future__ import annotations

import math
from typing import Annotated, ClassVar, Literal, Optional, Self

from pydantic import Field, model_validator

from tapeline.rules.state import GameState
from tapeline.rules.systems import rules_for

from ..schema import XY, Flag, Id, NonNeg
from ..vocab import Ref, ReplayContext
from .common import ExpectBase

Ids = Annotated[list[Id], Field(max_length=100)]


class Status(ExpectBase):
    """The unit's statuses: ``has`` all of, ``lacks`` every one of, or ``exactly`` these."""

    expect: Literal["status"]
    unit: Id
    has: Optional[Ids] = None
    lacks: Optional[Ids] = None
    exactly: Optional[Ids] = None

    @model_validator(mode="after")
    def _some(self) -> Self:
        if self.has is None and self.lacks is None and self.exactly is None:
            raise ValueError("give has, lacks or exactly")
        return self

    def refs(self) -> list[Ref]:
        return [("unit", "unit", self.unit)]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        now = set(state.unit(self.unit).status)
        ok = True
        if self.has is not None:
            ok &= set(self.has) <= now
        if self.lacks is not None:
            ok &= not (set(self.lacks) & now)
        if self.exactly is not None:
            ok &= set(self.exactly) == now
        return ok, f"status of {self.unit}: {sorted(now) or 'none'}"


class Locked(ExpectBase):
    """Is the unit locked in combat (a model in base contact with an enemy)? ``with`` lists
    exactly the enemy units it is locked with."""
    needs: ClassVar[tuple[str, ...]] = ("locked_with",)

    expect: Literal["locked"]
    unit: Id
    value: Optional[Flag] = None
    with_: Optional[Ids] = Field(None, alias="with")

    model_config = {"populate_by_name": True, "extra": "forbid"}

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        return out + [(f"with.{i}", "unit", u) for i, u in enumerate(self.with_ or [])]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        got = rules_for(state.system).locked_with(state, self.unit)
        ok = True
        if self.value is not None:
            ok &= bool(got) == self.value
        if self.with_ is not None:
            ok &= sorted(got) == sorted(self.with_)
        if self.value is None and self.with_ is None:
            ok &= bool(got)
        return ok, f"{self.unit} locked in combat with {', '.join(got)}" if got else f"{self.unit} is not locked in combat"


class Position(ExpectBase):
    """Where a model stands (``at`` within ``tol`` inches, centre to centre), or that it has
    been ``removed`` as a casualty."""

    expect: Literal["position"]
    model: Id
    at: Optional[XY] = None
    tol: NonNeg = 1e-6
    removed: Optional[Flag] = None

    @model_validator(mode="after")
    def _some(self) -> Self:
        if self.at is None and self.removed is None:
            raise ValueError("give at or removed")
        return self

    def refs(self) -> list[Ref]:  # a model removed by then is what ``removed: true`` asks about
        return [("model", "casualty", self.model)]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        unit = state.figure(self.model).unit
        gone = self.model not in state.unit(unit).models
        if self.removed is not None and gone != self.removed:
            return False, f"{self.model} {'was' if gone else 'was not'} removed"
        if self.at is not None:
            if gone:
                return False, f"{self.model} was removed"
            x, y = state.figure(self.model).at
            d = math.dist((x, y), self.at)
            return d <= self.tol, f"{self.model} at ({x:.6f}, {y:.6f}), {d:.6g}\" from ({self.at[0]:g}, {self.at[1]:g})"
        return True, f"{self.model} {'removed' if gone else 'on the table'}"
