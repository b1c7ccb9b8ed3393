"""``charge``: declare, roll and resolve a charge under the file's system.

```yaml
actions:
  - {action: charge, unit: roaches, targets: [marines]}                  # dice from the file
  - {action: charge, unit: loyal, targets: [traitors], overwatch: true,   # Horus Heresy: the target
     weapons: {t1: bolter}, casualties: {loyal: [a3, a2]}}               #   reacts with Overwatch
  - {action: charge, unit: loyal, targets: [traitors], shield: true}      #   or with Shield (+1 T)
  - {action: charge, unit: zerglings, targets: [marines, medics], leader: z3,
     target_models: {marines: m2}, modifier: -2}
  - {action: charge, unit: zealots, targets: [marauders], leader: z1, set: {z2: [10.6, 11.1]}}
```

StarCraft (§8.7.7): Speed + D6 (or the higher of 2D6), success if the Leading Model can reach
a legal end spot; it is set in base contact with the nominated target model when the roll
allows, else as close as possible within 1"; the rest are set in coherency (priority A/B/C):
at the spots in ``set`` (some or all of them; each checked — a legal end spot, coherency, the
priority — a refusal located at ``set.<model>``), the others by the default, which puts the
most in base contact with the targets, then within 1" (rules/starcraft/charge_followers.py);
a model with no legal linked spot is removed (§4.4). Horus Heresy (§A.3): the Set-up Move
(kept whatever follows), then 2D6 discard the lower, the charge move, and a Cool Check after a
failure (Stunned on a fail); 40k 3rd (§B.1): the 6" assault move, 2D6 highest through difficult
terrain. A failed charge makes no charge move. ``ctx.results[index]`` holds the outcome for
``expect: charged``.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Iterator, Literal, Optional

from pydantic import Field

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..limits import MAX_MODELS
from ..schema import XY, ChargeModifier, Flag, Id, Strict
from ..validate import Static, target_problems
from ..vocab import Ref, ReplayContext


class Charge(Strict):
    activation: ClassVar[str] = "charge"
    action: Literal["charge"]
    unit: Id
    targets: Annotated[list[Id], Field(min_length=1, max_length=50)]
    leader: Optional[Id] = None
    target_models: Annotated[dict[Id, Id], Field(max_length=50)] = {}
    modifier: ChargeModifier = 0
    # Horus Heresy §A.3 step 4 (Volleys and the Overwatch Reaction)
    volley: Optional[Flag] = None
    target_volley: Optional[Flag] = None
    overwatch: Optional[Flag] = None
    evade: Optional[Flag] = None
    shield: Optional[Flag] = None   # the Legiones Astartes Shield reaction (+1 Toughness for the phase)
    weapons: Annotated[dict[Id, Id], Field(max_length=MAX_MODELS)] = {}
    casualties: Annotated[dict[Id, Annotated[list[Id], Field(min_length=0, max_length=MAX_MODELS)]],
                          Field(max_length=20)] = {}
    # StarCraft §8.7.7 step 4: spots for the rest of the unit
    set: Annotated[dict[Id, XY], Field(max_length=MAX_MODELS)] = {}

    def options(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in ("volley", "target_volley", "overwatch", "evade", "shield") if getattr(self, k) is not None}
        if self.weapons:
            out["weapons"] = dict(self.weapons)
        if self.casualties:
            out["casualties"] = {k: list(v) for k, v in self.casualties.items()}
        if self.set:
            out["set"] = {m: (float(x), float(y)) for m, (x, y) in self.set.items()}
        return out

    def static_problems(self, ctx: Static) -> Iterator[tuple[str, str]]:
        yield from target_problems(self.targets)
        yield from rules_for(ctx.state.system).option_problems("charge", self.options())
        yield from rules_for(ctx.state.system).charge_problems(ctx.state, self.unit, self.targets, self.options())
        for t in self.target_models:
            if t not in self.targets:
                yield f"target_models.{t}", f"{t!r} is not a declared target of the charge (targets: {', '.join(self.targets)})"
        if self.set and not rules_for(ctx.state.system).charge_sets_rest:
            yield "set", "set: gives spots for the rest of a StarCraft charging unit (§8.7.7 step 4), not a rule of this system"
        if self.leader is not None and self.leader in self.set:
            yield f"set.{self.leader}", f"{self.leader} is the Leading Model: it goes where the charge takes it, not to a spot of set:"

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [(f"targets.{i}", "unit", t) for i, t in enumerate(self.targets)]
        if self.leader:
            out.append(("leader", "model", self.leader, self.unit))
        out += [(f"target_models.{t}", "model", m, t) for t, m in self.target_models.items()]
        out += [(f"weapons.{m}", "model", m) for m in self.weapons]
        out += [(f"casualties.{u}", "unit", u) for u in self.casualties]
        out += [(f"casualties.{u}.{i}", "model", m, u) for u, ms in self.casualties.items() for i, m in enumerate(ms)]
        out += [(f"set.{m}", "model", m, self.unit) for m in self.set]
        return out

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        rules = rules_for(state.system)
        _rc, info = rules.charge_reach(state, self.unit, self.targets, self.leader, self.modifier)
        new, res, events = rules.charge(state, self.unit, self.targets, ctx.dice, self.leader, self.modifier, self.target_models,
                                        self.options())
        ev = {"type": "charge", "unit": self.unit, "targets": list(self.targets), "distance": info["distance"],
              "min_roll": info["min_roll"], "probability": info["probability"]}
        ev.update({k: res[k] for k in ("success", "roll", "leader", "end") if k in res})
        for k in ("path", "placed", "removed", "stayed", "out_of_coherency", "contact", "target_model", "target_models", "grass_removed", "at_once", "note"):
            if res.get(k):
                ev[k] = res[k]
        ctx.record({"charge": {**info, **res}})
        return new, events + [ev]
