"""``close_ranks``: StarCraft TMG Close Ranks (§8.8.1 step 1), the optional first step of a
Close Combat Attack.

```yaml
actions:
  - {action: close_ranks, unit: zerglings}                        # Leading Model and spots by default
  - {action: close_ranks, unit: zerglings, leader: z3, path: [[11, 9]], set: {z4: [12, 8.7]}}
```

The Leading Model (default: the unpinned model nearest an enemy its unit is Engaged with)
follows ``path`` (checked: at most 3", the standard movement rules) or, by default, goes as
close to the enemy as 3" allows; it must end closer to the unit(s) it is Engaged with. The rest
are reset in coherency (``set`` gives spots, each checked; by default base contact with enemies
wherever possible, else with a squadmate within 1" of the enemy); models already in base
contact do not move. It may neither engage a new unit nor Disengage (rules/starcraft/close_ranks.py).
In a Combat phase it begins the unit's activation: its ``close_combat`` (or, for a unit that
cannot attack, ``hold``) follows.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Optional

from pydantic import Field

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..schema import XY, Id, Strict
from ..vocab import Ref, ReplayContext


class CloseRanks(Strict):
    needs: ClassVar[tuple[str, ...]] = ("close_ranks",)
    activation: ClassVar[str] = "close_ranks"
    action: Literal["close_ranks"]
    unit: Id
    leader: Optional[Id] = None
    path: Optional[Annotated[list[XY], Field(min_length=1, max_length=100)]] = None
    set: Annotated[dict[Id, XY], Field(max_length=200)] = {}

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [(f"set.{m}", "model", m) for m in self.set]
        return out + ([("leader", "model", self.leader)] if self.leader else [])

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        new, events, summary = rules_for(state.system).close_ranks(state, self.unit, self.leader, self.path, self.set)
        ctx.record({"close_ranks": summary})
        return new, events
