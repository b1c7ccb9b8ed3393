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

from dataclasses import replace
from typing import Literal

from tapeline.rules.state import frozen_map

from ..schema import Strict

ONE_TURN = {"heresy": frozenset({"disgraced", "rushed", "disembarked", "disordered"}),
            "classic40k": frozenset({"charged", "fired_heavy", "deep_struck"})}


class EndTurn(Strict):
    action: Literal["end_turn"]

    def refs(self):
        return []

    def apply(self, state, ctx):
        events = [{"type": "end_turn", "forgotten": sorted(state.turn)}]
        for u in state.units:
            one_turn = ONE_TURN.get(state.system, frozenset())
            gone = sorted(set(u.status) & one_turn)
            if gone:
                state = state.with_unit(replace(u, status=frozenset(set(u.status) - one_turn)))
                events.append({"type": "status", "unit": u.id, "lost": gone, "why": "end of the turn"})
        return replace(state, turn=frozen_map({})), events
