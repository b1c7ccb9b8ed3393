"""``fight``: one round of close combat with dice (Horus Heresy 3rd §A.7).

```yaml
actions:
  - action: fight
    unit: loyal                       # any unit of the combat
    weapons: {a1: power sword}        # optional: a model's melee weapon (default its first)
    targets: {a3: traitors}           # optional: the unit a model Engaged with several attacks
    casualties: {traitors: [t2, t1]}  # optional: the defender's picks, in order (checked)
    active: loyalist                  # optional: the active side (default: the side that charged)
    pile_in: true                     # optional: the pile-in moves of each step (default yes)
```

Every Initiative step's pile-ins, Strike Groups, rolls, allocations and casualties are events;
``ctx.results[index]["fight"]`` holds the summary (for the ``fought`` expectation).
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from ..schema import Flag, Id, Strict
from ..vocab import action
from . import require_system

Ids = Annotated[list[Id], Field(max_length=2000)]


@action
class Fight(Strict):
    action: Literal["fight"]
    unit: Id
    weapons: Annotated[dict[Id, Id], Field(max_length=2000)] = {}
    targets: Annotated[dict[Id, Id], Field(max_length=2000)] = {}
    casualties: Annotated[dict[Id, Ids], Field(max_length=50)] = {}
    active: Optional[Id] = None
    pile_in: Flag = True

    def refs(self):
        out = [("unit", "unit", self.unit)]
        out += [(f"weapons.{m}", "model", m) for m in self.weapons]
        out += [(f"targets.{m}", "model", m) for m in self.targets] + [(f"targets.{m}", "unit", u) for m, u in self.targets.items()]
        out += [(f"casualties.{u}", "unit", u) for u in self.casualties]
        out += [(f"casualties.{u}.{i}", "model", m) for u, ms in self.casualties.items() for i, m in enumerate(ms)]
        return out

    def apply(self, state, ctx):
        require_system(state, ("heresy",), "fight")
        from tapeline.rules.heresy.melee import fight_round

        ctx.dice.take_events()
        new, events, summary = fight_round(state, self.unit, ctx.dice, self.weapons, self.targets, self.casualties,
                                           self.active, self.pile_in)
        ctx.results[ctx.index] = {"fight": summary}
        return new, events
