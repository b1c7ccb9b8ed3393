"""``end_turn``: the turn is over — what the rules keep for one turn is forgotten.

```yaml
actions:
  - {action: end_turn}
```

Horus Heresy: each side's Reaction points and the units that reacted, the phase's charges,
challenges, fights and resolutions, Glory points; the Disgraced status (it clears in the End
phase with no check) and the one-turn states ``rushed`` and ``disembarked``. Statuses that need a
check to lose (Pinned, Suppressed, Stunned, Routed) stay. 40k 3rd: the combats' results and the
one-turn statuses ``charged`` (it assaulted this turn), ``fired_heavy``, ``deep_struck``.
"""

from __future__ import annotations

from typing import Literal

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..schema import Strict
from ..vocab import Ref, ReplayContext


class EndTurn(Strict):
    action: Literal["end_turn"]

    def refs(self) -> list[Ref]:
        return []

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        return rules_for(state.system).end_turn(state)
