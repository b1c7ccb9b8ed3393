"""``advance`` and ``consolidate``: 40k 3rd edition — what a winning unit does when its enemy
falls back.

```yaml
actions:
  - {action: advance, unit: marines}                       # 2D6" after the fleeing enemy
  - {action: advance, unit: marines, toward: [20, 30]}     # a sweeping advance goes on towards here
  - {action: consolidate, unit: marines, moves: {m1: [12, 14], m2: [13, 14.5]}}   # spots, up to 3" each
  - {action: consolidate, unit: marines, toward: [15, 20]} # every model up to 3" towards a point
```

Both need the unit to have won its last fight and every opposing unit of that combat to have
fallen back (or been destroyed); a tiebreak winner may only consolidate; each unit does one of
them once. ``advance`` rolls 2D6 (halved for a model whose route touches difficult terrain): a
model reaching the fleeing unit destroys it and the unit sweeps on its full roll; contact with a
fresh enemy is a new assault next turn (status ``sweeping_advance``). ``consolidate`` ignores
difficult terrain and may not end in base contact with an enemy; without ``moves`` or
``toward`` the models stay where they are. Every move is checked by the path validator
(docs/close-combat-40k.md).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Optional

from pydantic import Field

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..schema import XY, Id, Strict
from ..vocab import Ref, ReplayContext


class Advance(Strict):
    needs: ClassVar[tuple[str, ...]] = ("advance",)
    action: Literal["advance"]
    unit: Id
    toward: Optional[XY] = None

    def refs(self) -> list[Ref]:
        return [("unit", "unit", self.unit)]

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        ctx.dice.take_events()
        return rules_for(state.system).advance(state, self.unit, ctx.dice, self.toward)


class Consolidate(Strict):
    needs: ClassVar[tuple[str, ...]] = ("consolidate",)
    action: Literal["consolidate"]
    unit: Id
    moves: Annotated[dict[Id, XY], Field(max_length=2000)] = {}
    toward: Optional[XY] = None

    def refs(self) -> list[Ref]:
        return [("unit", "unit", self.unit), *((f"moves.{m}", "model", m) for m in self.moves)]

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        return rules_for(state.system).consolidate(state, self.unit, self.moves, self.toward)
