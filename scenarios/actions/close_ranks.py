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

from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft.close_ranks import close_ranks

from ..schema import XY, Id, Strict


class CloseRanks(Strict):
    activation: ClassVar[str] = "close_ranks"
    action: Literal["close_ranks"]
    unit: Id
    leader: Optional[Id] = None
    path: Optional[Annotated[list[XY], Field(min_length=1, max_length=100)]] = None
    set: Annotated[dict[Id, XY], Field(max_length=200)] = {}

    def refs(self):
        out = [("unit", "unit", self.unit)] + [(f"set.{m}", "model", m) for m in self.set]
        return out + ([("leader", "model", self.leader)] if self.leader else [])

    def apply(self, state, ctx):
        if state.system != "starcraft":
            raise IllegalAction("§8.8.1 Close Ranks", "close_ranks is a StarCraft TMG action (system starcraft)")
        new, cr = close_ranks(state, self.unit, self.leader, self.path, self.set)
        ev = {"type": "close_ranks", "unit": self.unit, "leader": cr.leader, "length": round(cr.length, 9),
              "end": [round(cr.path[-1][0], 9), round(cr.path[-1][1], 9)],
              "gap_before": round(cr.gap_before, 9), "gap_after": round(cr.gap_after, 9),
              "pinned": list(cr.pinned), "placed": {m: [round(x, 9), round(y, 9)] for m, (x, y) in cr.placed.items()},
              "tiers": dict(cr.tiers), "base_contact": cr.contacts_after, "coherency": cr.coherent}
        events = [ev]
        if cr.removed:
            events.append({"type": "removed", "unit": self.unit, "models": list(cr.removed), "why": "no legal linked spot (§4.4)"})
        if "burrowed" in state.unit(self.unit).status:
            events.append({"type": "status", "unit": self.unit, "lost": "burrowed", "why": "Close Ranks removes BURROWED (§11)"})
        if ctx.index is not None:
            ctx.results[ctx.index] = {"close_ranks": {"leader": cr.leader, "path": cr.path, "length": cr.length,
                                                      "placed": dict(cr.placed), "pinned": list(cr.pinned),
                                                      "contacts_before": cr.contacts_before,
                                                      "contacts_after": cr.contacts_after}}
        return new, events
