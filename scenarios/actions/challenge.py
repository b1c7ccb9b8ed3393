"""``challenge``: a Horus Heresy 3rd challenge (§A.6), Declare to Glory, with dice.

```yaml
actions:
  - action: challenge
    challenger: sgt-a            # a Command, Champion or Paragon model of the active side
    acceptor: champ-b            # the enemy model that accepts; or refuse: true
    disgrace: champ-b            # refused: the enemy model made Disgraced (default: the first eligible)
    gambits: {sgt-a: [finishing_blow], champ-b: [guard_up]}   # one per round (null: none), at most `rounds`
    weapons: {sgt-a: power sword}                             # the weapon each duellist declares
    rounds: 1                    # rounds fought at most while both live (default 1)
    heroic_intervention: false   # the reactive player's challenge (a Reaction, §A.4)
    active: loyalist             # the active side (default: the side that charged this turn)
```
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Iterator, Literal, Optional, Self

from pydantic import Field, model_validator

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..schema import Flag, Id, Strict
from ..validate import Static
from ..vocab import Ref, ReplayContext


class Challenge(Strict):
    needs: ClassVar[tuple[str, ...]] = ("challenge",)
    action: Literal["challenge"]
    challenger: Id
    acceptor: Optional[Id] = None
    refuse: Flag = False
    disgrace: Optional[Id] = None
    gambits: Annotated[dict[Id, Annotated[list[Optional[Id]], Field(max_length=20)]], Field(max_length=2)] = {}
    weapons: Annotated[dict[Id, Id], Field(max_length=2)] = {}
    banned: Annotated[dict[Id, Id], Field(max_length=2)] = {}
    rounds: Annotated[int, Field(strict=True, ge=1, le=20)] = 1
    heroic_intervention: Flag = False
    active: Optional[Id] = None

    @model_validator(mode="after")
    def _one(self) -> Self:
        if (self.acceptor is None) != self.refuse:
            raise ValueError("give an acceptor, or refuse: true")
        return self

    def static_problems(self, ctx: Static) -> Iterator[tuple[str, str]]:
        """One Gambit per duellist and round (§A.6 Face-Off): a list longer than ``rounds``
        names Gambits for rounds the challenge never fights."""
        for m, gs in self.gambits.items():
            if len(gs) > self.rounds:
                yield (f"gambits.{m}", f"{len(gs)} Gambits for {m} in a challenge of {self.rounds} round"
                       f"{'s' if self.rounds != 1 else ''}: a duellist chooses one Gambit per round (HH3 §A.6 Face-Off)")

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("challenger", "model", self.challenger)]
        out += [("acceptor", "model", self.acceptor)] if self.acceptor else []
        out += [("disgrace", "model", self.disgrace)] if self.disgrace else []
        out += [(f"gambits.{m}", "model", m) for m in self.gambits] + [(f"weapons.{m}", "model", m) for m in self.weapons]
        out += [(f"weapons.{m}", "melee_weapon", w, m) for m, w in self.weapons.items()]
        out += [(f"banned.{m}", "model", m) for m in self.banned] + [(f"banned.{m}", "gambit", g) for m, g in self.banned.items()]
        out += [(f"gambits.{m}.{i}", "gambit", g) for m, gs in self.gambits.items() for i, g in enumerate(gs) if g is not None]
        return out + ([("active", "side", self.active)] if self.active is not None else [])

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        opts = {"disgrace": self.disgrace, "gambits": self.gambits, "weapons": self.weapons, "rounds": self.rounds,
                "banned": self.banned, "heroic_intervention": self.heroic_intervention, "active": self.active}
        new, events, duel = rules_for(state.system).challenge(state, self.challenger, self.acceptor, ctx.dice, opts)
        ctx.record({"challenge": duel})
        return new, events
