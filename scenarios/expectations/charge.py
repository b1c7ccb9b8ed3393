"""Charge and coherency expectations: ``charge``, ``charged``, ``coherency``.

```yaml
expect:
  - {expect: charge, unit: roaches, targets: [marines], value: distance, equals: 7.0}
  - {expect: charge, unit: roaches, targets: [marines], value: min_roll, equals: 3}
  - {expect: charge, unit: roaches, targets: [marines], value: probability, equals: 0.666667, tol: 1e-6}
  - {expect: charge, unit: roaches, targets: [marines], reachable: false}     # no legal end spot
  - {expect: charged, action: 0, success: true, contact: true}              # a charge action's outcome
  - {expect: coherency, unit: roaches, value: true}
  - {expect: coherency, unit: roaches, value: false, out: [r3]}
```

``charge`` asks the query on the state at that point (the file's system decides the dice);
``charged`` reads what the ``charge`` action number ``action`` did.
"""

from __future__ import annotations

from typing import Annotated, Iterator, Literal, Optional, Self

from pydantic import Field, model_validator

from tapeline.rules.state import GameState
from tapeline.rules.systems import rules_for

from ..limits import MAX_LIST
from ..schema import ActionIndex, ChargeModifier, Flag, Id, IdList
from ..validate import Static, target_problems
from ..vocab import Ref, ReplayContext
from .common import ExpectBase, Numeric


class ChargeQuery(ExpectBase, Numeric):
    """``value`` (``distance``, ``min_roll``, ``probability``) of a charge, compared with
    ``equals`` / ``at_least`` / ``at_most``; or ``reachable`` (a legal end spot exists)."""

    expect: Literal["charge"]
    unit: Id
    targets: Annotated[list[Id], Field(min_length=1, max_length=MAX_LIST)]
    leader: Optional[Id] = None
    modifier: ChargeModifier = 0
    value: Optional[Literal["distance", "min_roll", "probability"]] = None
    reachable: Optional[Flag] = None

    @model_validator(mode="after")
    def _what(self) -> Self:
        if (self.value is None) == (self.reachable is None):
            raise ValueError("give exactly one of value (with equals / at_least / at_most) or reachable")
        return self

    def static_problems(self, ctx: Static) -> Iterator[tuple[str, str]]:
        yield from target_problems(self.targets)

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [(f"targets.{i}", "unit", t) for i, t in enumerate(self.targets)]
        return out + ([("leader", "model", self.leader, self.unit)] if self.leader else [])

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        _rc, o = rules_for(state.system).charge_reach(state, self.unit, self.targets, self.leader, self.modifier)
        if self.reachable is not None:
            got = o["distance"] is not None
            return got == self.reachable, f"reachable={got}" + (f" ({o['distance']:.6g}\")" if got else "")
        assert self.value is not None  # exactly one of value and reachable (the validator)
        return self.compare_named(self.value, o[self.value], "none (no legal end spot, or no roll succeeds)")


class Charged(ExpectBase):
    """The outcome of ``charge`` action number ``action``: ``success``, ``contact`` (the
    Leading Model ended in base contact with the nominated model: StarCraft), ``removed``."""

    expect: Literal["charged"]
    action: ActionIndex
    success: Optional[Flag] = None
    contact: Optional[Flag] = None
    removed: Optional[IdList] = None

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("action", "action", self.action, "charge")]
        return out + [(f"removed.{i}", "casualty", m) for i, m in enumerate(self.removed or ())]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        got = (ctx.results.get(self.action) or {}).get("charge")
        if got is None:
            return False, f"action {self.action} made no charge"
        ok, parts = True, []
        for name in ("success", "contact", "removed"):
            want = getattr(self, name)
            if want is None:
                continue
            have = got.get(name, [] if name == "removed" else None)
            ok &= have == want
            parts.append(f"{name}={have}")
        parts.append(f"roll {got.get('roll')}, distance {got.get('distance')}")
        return ok, ", ".join(parts)


class CoherencyCheck(ExpectBase):
    """Is the unit in coherency (StarCraft §4.4 leader-anchored; Heresy / 40k 2" chain)?
    ``out`` optionally lists exactly the models out of coherency."""

    expect: Literal["coherency"]
    unit: Id
    leader: Optional[Id] = None
    value: Flag = True
    out: Optional[IdList] = None

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        return (out + ([("leader", "model", self.leader, self.unit)] if self.leader else [])
                + [(f"out.{i}", "model", m, self.unit) for i, m in enumerate(self.out or ())])

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        c = rules_for(state.system).coherency(state, self.unit, self.leader)
        ok = c.ok == self.value
        if self.out is not None:
            ok &= sorted(c.out) == sorted(self.out)
        return ok, c.explain()

