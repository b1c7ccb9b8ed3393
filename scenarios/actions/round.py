"""The round's bookkeeping (StarCraft TMG §8.2.1, §8.6, §8.8): ``phase``, ``pass``, ``hold``.

```yaml
actions:
  - {action: phase, phase: assault, first_player: zerg}     # Phase 2 of a new round
  - {action: charge, unit: zerglings, targets: [marines]}   # zerg's activation
  - {action: hold, unit: marines}                           # terran's activation: it does nothing
  - {action: pass, side: zerg}                              # zerg passes first: First Player Marker
  - {action: pass, side: terran}
  - {action: phase, phase: combat}                          # Phase 3: the first to pass starts
  - {action: close_combat, unit: zerglings}
  - {action: pass, side: terran}                            # only with no Engaged unit left
```

``phase`` starts Phase 2 (``assault``: a new round; every unit on the table has an Activation
Marker on the Movement side except those named in ``reserves``) or Phase 3 (``combat``: every
Engaged unit must fight). ``first_player`` names the First Player Marker holder (needed for the
first round; in Phase 3 it is the player who passed first in Phase 2), ``starts`` the player the
holder lets start (default: the holder). From then on ``run``, ``charge``, ``shoot``, ``hold``,
``close_ranks``, ``close_combat`` and ``impact`` are activations checked against the round
(rules/starcraft/activation.py). Without a ``phase`` action, actions resolve freely in file
order as before.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Optional

from pydantic import Field

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..schema import Id, Strict
from ..vocab import Ref, ReplayContext


class Phase(Strict):
    """Start Phase 2 (Assault) or Phase 3 (Combat)."""
    needs: ClassVar[tuple[str, ...]] = ("start_phase",)

    action: Literal["phase"]
    phase: Literal["assault", "combat"]
    first_player: Optional[Id] = None
    starts: Optional[Id] = None
    reserves: Annotated[list[Id], Field(max_length=200)] = []

    def refs(self) -> list[Ref]:
        out: list[Ref] = [(f"reserves.{i}", "unit", u) for i, u in enumerate(self.reserves)]
        return out + [(f, "side", getattr(self, f)) for f in ("first_player", "starts") if getattr(self, f) is not None]

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        return rules_for(state.system).start_phase(state, self.phase, self.first_player, self.starts, self.reserves)


class Pass(Strict):
    """A player Passes (§8.2.1)."""
    needs: ClassVar[tuple[str, ...]] = ("pass_turn",)

    action: Literal["pass"]
    side: Id

    def refs(self) -> list[Ref]:
        return [("side", "side", self.side)]

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        return rules_for(state.system).pass_turn(state, self.side)


class Hold(Strict):
    """Hold (§8.7.2): the unit's activation, doing nothing (Phase 3: only an Engaged BURROWED
    unit that does not Close Ranks, which therefore does not attack)."""
    needs: ClassVar[tuple[str, ...]] = ("hold",)

    activation: ClassVar[str] = "hold"
    action: Literal["hold"]
    unit: Id

    def refs(self) -> list[Ref]:
        return [("unit", "unit", self.unit)]

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        return rules_for(state.system).hold(state, self.unit)
