"""``pile_in``: Horus Heresy 3rd pile-in moves (§A.7): models not in base contact move up to
their Initiative into base contact with an eligible enemy, each along its own checked path.
40k 3rd: the moves of a drawn combat (seed "Drawn Combats"): after a draw or a passed morale
test, the unit's models not in base contact move up to 6" into base contact, enemy models not
yet in base contact first, as many as possible, the rest as close as they can
(docs/close-combat-40k.md; ``models`` and ``moves`` are Horus Heresy options).

```yaml
actions:
  - {action: pile_in, unit: loyal}                  # every model not in base contact
  - {action: pile_in, unit: loyal, models: [a3]}    # only these
  - {action: pile_in, unit: loyal, moves: {a3: [12.5, 10.2]}}   # to these spots, checked
```

Spots given with ``moves`` are checked: the shortest legal path at most the model's Initiative,
a legal end spot, and base contact with an eligible enemy whenever the model could reach one —
else an illegal action naming §A.7.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Iterator, Literal, Optional

from pydantic import Field

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..schema import XY, Id, Strict
from ..validate import Static
from ..vocab import Ref, ReplayContext


class PileIn(Strict):
    needs: ClassVar[tuple[str, ...]] = ("pile_in",)
    action: Literal["pile_in"]
    unit: Id
    models: Optional[Annotated[list[Id], Field(max_length=2000)]] = None
    moves: Annotated[dict[Id, XY], Field(max_length=2000)] = {}

    def static_problems(self, ctx: Static) -> Iterator[tuple[str, str]]:
        """Options of another system's pile-in (Horus Heresy's ``models`` and ``moves`` in a 40k file)."""
        yield from rules_for(ctx.state.system).option_problems("pile_in", {"models": self.models, "moves": self.moves})

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [(f"models.{i}", "model", m) for i, m in enumerate(self.models or ())]
        return out + [(f"moves.{m}", "model", m) for m in self.moves]

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        return rules_for(state.system).pile_in(state, self.unit, self.models, self.moves)
