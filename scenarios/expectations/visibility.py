"""Sight expectation: ``visible``.

```yaml
expect:
  - {expect: visible, a: g1, b: m1, value: false, blocked_by: [direct_cover]}
  - {expect: visible, a: g1, b: m3, value: true}
```

``blocked_by`` (optional, only with ``value: false``) lists reasons that must all appear among
the blockers the system reports (``full_cover``, ``direct_cover``, ``dead_zone``, ``hidden``,
``height``); ``terrain`` (optional) lists piece ids that must all be among the blockers.
"""

from __future__ import annotations

from typing import Literal, Optional, Self

from pydantic import model_validator

from tapeline.rules.state import GameState
from tapeline.rules.systems import rules_for

from ..schema import Bounded, Flag, Id, IdList
from ..vocab import Ref, ReplayContext
from .common import ExpectBase

#: Why a sight line is blocked: the reasons the systems report (``BLOCK_REASONS`` of
#: rules/sightcommon.py, written out as a type; tests/scenarios/test_validate.py checks they agree).
BlockReason = Literal["full_cover", "direct_cover", "dead_zone", "hidden", "height"]


class Visible(ExpectBase):
    """Model ``b`` is (or is not) Visible to model ``a`` under the file's system."""

    expect: Literal["visible"]
    a: Id
    b: Id
    value: Flag = True
    blocked_by: Optional[Bounded[BlockReason]] = None
    terrain: Optional[IdList] = None

    @model_validator(mode="after")
    def _two(self) -> Self:
        if self.a == self.b:
            raise ValueError(f"a and b are the same model ({self.a}): name two different models")
        if (self.blocked_by or self.terrain) and self.value:
            raise ValueError("blocked_by and terrain go with value: false (what blocks the sight)")
        return self

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("a", "model", self.a), ("b", "model", self.b)]
        return out + [(f"terrain.{i}", "terrain", t) for i, t in enumerate(self.terrain or [])]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        s = rules_for(state.system).visible(state, self.a, self.b)
        ok = s.visible == self.value
        reasons = {r for _, r in s.blocked_by}
        pieces = {t for t, _ in s.blocked_by if t}
        if self.blocked_by:
            ok &= set(self.blocked_by) <= reasons
        if self.terrain:
            ok &= set(self.terrain) <= pieces
        if s.visible:
            assert s.witness is not None  # a visible pair has its witness
            (x0, y0), (x1, y1) = s.witness
            why = f"visible, witness ({x0:.4f}, {y0:.4f})->({x1:.4f}, {y1:.4f})"
        else:
            why = "not visible: " + (", ".join(f"{t} ({r})" if t else r for t, r in s.blocked_by) or "no sight line")
        return ok, why
