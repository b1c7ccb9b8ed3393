"""``morale``: 40k 3rd edition — a losing unit's Leadership test, and its fall back on a fail.

```yaml
actions:
  - {action: morale, unit: orks}      # a unit on the losing side of its last fight
```

2D6 ≤ Leadership (setting ``c40k_morale_modifier: per_wound``: −1 per wound the combat was
lost by). Passed: the combat is drawn and goes on next turn. Failed: the unit falls back 2D6"
towards its table edge (setting ``home_edges``), each model by its checked path, and gains the
status ``falling_back`` — or, with setting ``c40k_sweeping_advance: initiative``, is destroyed
when a winning unit's D6 + Initiative equals or beats its own (docs/close-combat-40k.md).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..schema import Id, Strict
from ..vocab import Ref, ReplayContext


class Morale(Strict):
    needs: ClassVar[tuple[str, ...]] = ("morale",)
    action: Literal["morale"]
    unit: Id

    def refs(self) -> list[Ref]:
        return [("unit", "unit", self.unit)]

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        ctx.dice.take_events()
        new, events = rules_for(state.system).morale(state, self.unit, ctx.dice)
        ctx.record({"morale": next((e for e in events if e.get("type") == "morale"), {})})
        return new, events
