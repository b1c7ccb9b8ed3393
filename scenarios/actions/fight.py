"""``fight``: one round of close combat with dice (Horus Heresy 3rd §A.7, 40k 3rd).

```yaml
actions:
  - action: fight
    unit: loyal                       # any unit of the combat
    weapons: {a1: power sword}        # optional: a model's melee weapon (default its first)
    targets: {a3: traitors}           # optional: the unit a model attacks (40k: or split its
                                      #   attacks, {a4: {orks: 2, grots: 1}})
    casualties: {traitors: [t2, t1]}  # optional: the defender's picks, in order (checked)
    active: loyalist                  # Horus Heresy, optional: the active side (default: the side that charged)
    strike_order: [traitors power fist, loyal chainsword]   # Horus Heresy, optional: the Active
                                      #   Player's order of Strike Groups in each Initiative step
                                      #   (default: the active side's first, each unit's in file order)
    pile_in: true                     # Horus Heresy, optional: the pile-in moves of each step (default yes)
    charged: [marines]                # 40k, optional: units that assaulted this turn (+1 Attack;
                                      #   units with the status `charged` count too)
```

Every Initiative step's Strike Groups, rolls, allocations and casualties are events (Horus
Heresy: its pile-ins too; 40k: then the assault result, with the tiebreaker roll-off);
``ctx.results[index]["fight"]`` holds the summary (for the ``fought`` expectation). The 40k
result is kept in the state for ``morale``, ``advance``, ``consolidate``
(docs/close-combat-40k.md).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Iterator, Literal, Optional, Union

from pydantic import Field

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..limits import MAX_SPLIT_ATTACKS, MAX_SPLIT_UNITS
from ..schema import Flag, Id, Strict, Text
from ..validate import Static
from ..vocab import Ref, ReplayContext

Ids = Annotated[list[Id], Field(max_length=2000)]
Split = Annotated[dict[Id, Annotated[int, Field(strict=True, ge=0, le=MAX_SPLIT_ATTACKS)]], Field(max_length=MAX_SPLIT_UNITS)]


class Fight(Strict):
    needs: ClassVar[tuple[str, ...]] = ("fight",)
    action: Literal["fight"]
    unit: Id
    weapons: Annotated[dict[Id, Id], Field(max_length=2000)] = {}
    targets: Annotated[dict[Id, Union[Id, Split]], Field(max_length=2000)] = {}
    casualties: Annotated[dict[Id, Ids], Field(max_length=50)] = {}
    active: Optional[Id] = None
    pile_in: Flag = True
    charged: Ids = []
    strike_order: Annotated[list[Annotated[Text, Field(min_length=1)]], Field(max_length=200)] = []

    def static_problems(self, ctx: Static) -> Iterator[tuple[str, str]]:
        """Options of another system's fight (Horus Heresy's ``active`` in a 40k file ...)."""
        yield from rules_for(ctx.state.system).option_problems(
            "fight", {"active": self.active, "pile_in": self.pile_in, "charged": self.charged, "targets": self.targets,
                      "strike_order": self.strike_order})

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [(f"charged.{i}", "unit", u) for i, u in enumerate(self.charged)]
        out += [(f"weapons.{m}", "model", m) for m in self.weapons]
        out += [(f"weapons.{m}", "melee_weapon", w, m) for m, w in self.weapons.items()]
        out += [(f"targets.{m}", "model", m) for m in self.targets]
        for m, t in self.targets.items():
            out += [(f"targets.{m}", "unit", u) for u in ([t] if isinstance(t, str) else t)]
        out += [(f"strike_order.{i}", "strike_group", g) for i, g in enumerate(self.strike_order)]
        out += [(f"casualties.{u}", "unit", u) for u in self.casualties]
        out += [(f"casualties.{u}.{i}", "model", m, u) for u, ms in self.casualties.items() for i, m in enumerate(ms)]
        return out + ([("active", "side", self.active)] if self.active is not None else [])

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        ctx.dice.take_events()
        new, events, summary = rules_for(state.system).fight(state, self.unit, ctx.dice, self.weapons, self.targets,
                                                             self.casualties, self.active, self.pile_in, self.charged,
                                                             self.strike_order)
        ctx.record({"fight": summary})
        return new, events
