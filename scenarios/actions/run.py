"""``run``: a StarCraft TMG Move or Run with its Leading Model's path checked (§8.5.2, §8.7.1).

```yaml
actions:
  - {action: run, unit: marines, leader: m1, path: [[12, 9], [15, 9]]}
  - {action: run, unit: marines, leader: m1, path: [[15, 9]], set: {m2: [15, 10.5]}}
```

The Leading Model's centre follows ``path`` (from where it stands, through each point) and may
travel at most the unit's Speed, under Gap Clearance, round impassable terrain and other units'
models, changing level only through an Access Point (§8.5.3), and may not end within 1" of an
enemy Ground unit (docs/movement.md). Each model ends standing on the level its centre is on. Only an
Unengaged unit may Move or Run. The rest are then set in coherency: at the spots given in
``set``, checked, or by default as close to the Leading Model as they legally can
(board/placement.py); one with no legal linked spot is removed (§4.4). Grass crossed by the
Leading Model's path or ended on is removed (§7.1).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..limits import MAX_LIST, MAX_MODELS
from ..schema import XY, Id, Strict
from ..vocab import Ref, ReplayContext


class Run(Strict):
    needs: ClassVar[tuple[str, ...]] = ("run",)
    activation: ClassVar[str] = "run"
    action: Literal["run"]
    unit: Id
    leader: Id
    path: Annotated[list[XY], Field(min_length=1, max_length=MAX_LIST)]
    set: Annotated[dict[Id, XY], Field(max_length=MAX_MODELS)] = {}

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit), ("leader", "model", self.leader, self.unit)]
        return out + [(f"set.{m}", "model", m, self.unit) for m in self.set]

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        new, events, summary = rules_for(state.system).run(state, self.unit, self.leader, self.path, self.set)
        ctx.record({"run": summary})
        return new, events
