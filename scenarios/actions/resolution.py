"""``resolution`` and ``aftermath``: the Horus Heresy 3rd Resolution sub-phase (§A.10).

```yaml
actions:
  - {action: resolution, unit: loyal}                      # CRP, winner, the loser's Panic Check
  - {action: resolution, unit: loyal, bonus: {loyalist: 1}, panic_unit: traitors}
  - action: aftermath
    unit: loyal
    choices: {traitors: fall_back, loyal: pursue}          # one option per unit (defaults: docs)
    gun_down: {loyal: traitors}                            # the fleeing unit a Gun Down shoots
    moves: {loyal: {a1: [12, 10]}}                         # spots for a Hold's pile-in or a Consolidation (checked)
```

``resolution`` returns the duellists to their units, totals the Combat Resolution Points, names
the winner and rolls the loser's Panic Check; ``aftermath`` takes each unit's option, the loser's
first, and makes the moves (every path checked). The ``combat_result`` expectation reads what
``resolution`` found.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Optional

from pydantic import Field

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..schema import XY, Id, Strict
from ..vocab import Ref, ReplayContext

Option = Literal["hold", "disengage", "fall_back", "gun_down", "pursue", "consolidate"]


class ResolutionAction(Strict):
    needs: ClassVar[tuple[str, ...]] = ("resolution",)
    action: Literal["resolution"]
    unit: Id
    bonus: Annotated[dict[Id, Annotated[int, Field(strict=True, ge=-100, le=100)]], Field(max_length=20)] = {}
    panic_unit: Optional[Id] = None

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [(f"bonus.{s}", "side", s) for s in self.bonus]
        return out + ([("panic_unit", "unit", self.panic_unit)] if self.panic_unit else [])

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        new, events, res = rules_for(state.system).resolution(state, self.unit, ctx.dice, self.bonus, self.panic_unit)
        ctx.record({"resolution": res})
        return new, events


class Aftermath(Strict):
    needs: ClassVar[tuple[str, ...]] = ("aftermath",)
    action: Literal["aftermath"]
    unit: Id
    choices: Annotated[dict[Id, Option], Field(max_length=50)] = {}
    gun_down: Annotated[dict[Id, Id], Field(max_length=50)] = {}
    moves: Annotated[dict[Id, Annotated[dict[Id, XY], Field(max_length=2000)]], Field(max_length=50)] = {}

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [(f"choices.{u}", "unit", u) for u in self.choices]
        out += [(f"moves.{u}", "unit", u) for u in self.moves] + [(f"moves.{u}.{m}", "model", m) for u, ms in self.moves.items() for m in ms]
        return out + [(f"gun_down.{u}", "unit", u) for u in self.gun_down] + [(f"gun_down.{u}", "unit", t) for u, t in self.gun_down.items()]

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        new, events, chosen = rules_for(state.system).aftermath(state, self.unit, ctx.dice, self.choices, self.gun_down,
                                                                self.moves)
        ctx.record({"aftermath": chosen})
        return new, events
