"""Geometry expectations: ``gap``, ``contact``, ``within``, ``engaged``.

```yaml
expect:
  - {expect: gap, a: m1, b: z1, equals: 1.740157}
  - {expect: contact, a: m1, b: z1, value: true}
  - {expect: within, a: z1, b: m1, distance: 3, value: true}           # model to model
  - {expect: within, unit: zerglings, b: m1, distance: 3, wholly: true, value: false}
  - {expect: within, a: z1, point: [10, 12], distance: 1, value: true}
  - {expect: engaged, a: m1, b: z1, value: false}
```
"""

from __future__ import annotations

from typing import Literal, Optional, Self, Union

from pydantic import model_validator

from tapeline.board import measure
from tapeline.board.table import Figure
from tapeline.rules.state import GameState
from tapeline.rules.systems import rules_for

from ..schema import XY, Flag, Id, NonNeg
from ..vocab import Ref, ReplayContext
from .common import ExpectBase, Numeric


class _Pair(ExpectBase):
    a: Id
    b: Id

    def refs(self) -> list[Ref]:
        return [("a", "model", self.a), ("b", "model", self.b)]

    @model_validator(mode="after")
    def _two(self) -> Self:
        if self.a == self.b:
            raise ValueError(f"a and b are the same model ({self.a}): name two different models")
        return self


class Gap(_Pair, Numeric):
    """Edge-to-edge gap between two models (negative: overlap depth)."""

    expect: Literal["gap"]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        return self.compare(measure.gap(state.figure(self.a), state.figure(self.b)))


class Contact(_Pair):
    """Base contact (gap within 1e-6")."""

    expect: Literal["contact"]
    value: Flag = True

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        v = measure.contact(state.figure(self.a), state.figure(self.b))
        return v.ok == self.value, f"contact={v.ok} (gap {v.value:.6g}\")"


class Within(ExpectBase):
    """Within / wholly within ``distance`` of a model (``b``) or a point; for a model (``a``)
    or a whole unit (``unit``: any model for within, every model for wholly within)."""

    expect: Literal["within"]
    a: Optional[Id] = None
    unit: Optional[Id] = None
    b: Optional[Id] = None
    point: Optional[XY] = None
    distance: NonNeg
    wholly: Flag = False
    value: Flag = True

    @model_validator(mode="after")
    def _one_each(self) -> Self:
        if (self.a is None) == (self.unit is None):
            raise ValueError("give exactly one of a (a model) or unit")
        if (self.b is None) == (self.point is None):
            raise ValueError("give exactly one of b (a model) or point")
        if self.a is not None and self.a == self.b:
            raise ValueError(f"a and b are the same model ({self.a}): name two different models")
        return self

    def refs(self) -> list[Ref]:
        # exactly one of a and unit, and one of b and point (the validator)
        out: list[Ref] = [("a", "model", self.a)] if self.a else []
        out += [("unit", "unit", self.unit)] if self.unit else []
        return out + ([("b", "model", self.b)] if self.b else [])

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        target: Union[Figure, XY]
        if self.b:
            target = state.figure(self.b)
        else:
            assert self.point is not None  # exactly one of b and point (the validator)
            target = self.point
        if self.a:
            fn = measure.wholly_within if self.wholly else measure.within
            v = fn(state.figure(self.a), target, self.distance)
        else:
            assert self.unit is not None  # exactly one of a and unit (the validator)
            unit_fn = measure.unit_wholly_within if self.wholly else measure.unit_within
            v = unit_fn(state.figures_of(self.unit), target, self.distance)
        what = f"{'wholly ' if self.wholly else ''}within {self.distance:g}\""
        return v.ok == self.value, v.explain(what)


class Engaged(_Pair):
    """The two models engage each other under the file's system (exceptions included)."""

    expect: Literal["engaged"]
    value: Flag = True

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        e = rules_for(state.system).engaged(state, self.a, self.b)
        why = f" ({e.reason}: {e.detail})" if e.reason else (f" ({e.detail})" if e.detail else "")
        return e.engaged == self.value, f"engaged={e.engaged}{why}"
