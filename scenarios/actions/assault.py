"""``assault``: 40k 3rd edition — move a unit into an assault (the ``charge`` action does the
same with its defaults).

```yaml
actions:
  - {action: assault, unit: marines, targets: [orks]}
  - {action: assault, unit: marines, targets: [orks, grots],
     moves: {m1: [[12, 11.5]], m2: [[13, 12], [13.2, 12.9]]}}   # paths for these models (checked)
```

Every model moves by its own path checked by the validator: at most 6" (the highest of 2D6,
rolled for the unit, for a model whose path touches difficult terrain), as many models as
possible ending in base contact (docs/close-combat-40k.md). ``moves`` gives a model's centre
path (the points after where it stands); the rest are moved by the default search, and the
assault is refused when the given paths leave fewer models in contact than possible. A unit
that may not assault (beyond 6", falling back, pinned, already fighting, ...) is an illegal
action naming the rule. On success the unit gains the status ``charged`` (+1 Attack this turn).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..schema import XY, Id, Strict
from ..vocab import Ref, ReplayContext

Path_ = Annotated[list[XY], Field(min_length=1, max_length=100)]


class Assault(Strict):
    needs: ClassVar[tuple[str, ...]] = ("assault",)
    action: Literal["assault"]
    unit: Id
    targets: Annotated[list[Id], Field(min_length=1, max_length=20)]
    moves: Annotated[dict[Id, Path_], Field(max_length=2000)] = {}

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [(f"targets.{i}", "unit", t) for i, t in enumerate(self.targets)]
        return out + [(f"moves.{m}", "model", m) for m in self.moves]

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        new, events, ev = rules_for(state.system).assault(state, self.unit, self.targets, ctx.dice, self.moves)
        ctx.record({"assault": ev})
        return new, events
