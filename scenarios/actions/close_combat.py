"""``close_combat`` and ``impact``: a StarCraft TMG Close Combat Attack (§8.8.1) and the IMPACT
dice after a successful Charge (§11 IMPACT).

```yaml
actions:
  - action: close_combat
    unit: zerglings
    assign: {z5: marauders}          # optional: the unit a striking model attacks
    weapons: {z1: claws}             # optional: the Combat weapon a model uses
    surge_to: marauders              # optional: the one target the Surge Die goes to
    precision_split: {marauders: 2}  # optional: how PRECISION is split between targets
    casualties: {marauders: [mr]}    # optional: the defenders' choices, in order, each checked
  - action: impact
    unit: zealots                    # right after its successful charge
    split: {q1: {marines: 2, medics: 1}}   # optional: how a model splits its X dice
    casualties: {marines: [m3]}
```

``close_combat`` declares and rolls the unit's Close Combat Attack (rules/starcraft/melee.py);
``targets`` optionally limits it to some of the units it is Engaged with. Batch modifiers as
for ``shoot`` (``hit``, ``armour``, ``evade``, ``extra_dice``, ``precision`` (extra PRECISION),
``critical_hit``, ``tough``, ``dodge``, ``concentrated_fire``, ``grant_evade``). After casualties, every unit of the fight with no model left
within 1" of an enemy is Unengaged at once (event ``unengaged``). In a Combat phase
(``phase`` action) it is the unit's activation and must be its turn.

``impact`` rolls the unit's IMPACT dice at the units it charged (rules/starcraft/impact.py);
it must follow that unit's successful ``charge`` (in a round: immediately).
``ctx.results[index]`` holds per-target results for ``expect: close_combat``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, ClassVar, Literal, Optional, Union

from pydantic import Field

from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..schema import Count, Id, Strict
from ..vocab import Ref, ReplayContext
from .shoot import PoolModifiers

Choices = Annotated[dict[Id, Annotated[list[Id], Field(max_length=200)]], Field(max_length=20)]


def _choice_refs(prefix: str, choices: Mapping[str, Sequence[str]]) -> list[Ref]:
    out: list[Ref] = []
    for t, ms in choices.items():
        out.append((f"{prefix}.{t}", "unit", t))
        out += [(f"{prefix}.{t}.{i}", "model", m, t) for i, m in enumerate(ms)]
    return out


class CloseCombat(PoolModifiers):
    """The Close Combat Attack of ``unit`` (§8.8.1 steps 2–5)."""
    needs: ClassVar[tuple[str, ...]] = ("close_combat",)

    activation: ClassVar[str] = "fight"
    action: Literal["close_combat"]
    unit: Id
    targets: Optional[Annotated[list[Id], Field(min_length=1, max_length=20)]] = None
    assign: Annotated[dict[Id, Id], Field(max_length=200)] = {}
    weapons: Annotated[dict[Id, Id], Field(max_length=200)] = {}
    surge_to: Optional[Union[Id, Annotated[list[Id], Field(min_length=1, max_length=20)]]] = None
    precision_split: Annotated[dict[Id, Count], Field(max_length=20)] = {}
    casualties: Choices = {}

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [(f"targets.{i}", "unit", t) for i, t in enumerate(self.targets or ())]
        out += [(f"assign.{m}", "model", m) for m in self.assign] + [(f"assign.{m}", "unit", t) for m, t in self.assign.items()]
        out += [(f"weapons.{m}", "model", m) for m in self.weapons]
        out += [(f"weapons.{m}", "melee_weapon", w, m) for m, w in self.weapons.items()]
        surge = [self.surge_to] if isinstance(self.surge_to, str) else list(self.surge_to or ())
        out += [("surge_to", "unit", t) for t in surge]
        out += [(f"precision_split.{t}", "unit", t) for t in self.precision_split]
        return out + _choice_refs("casualties", self.casualties)

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        new, events, summary = rules_for(state.system).close_combat(
            state, self.unit, ctx.dice, self.targets, self.assign, self.weapons, self.surge_to, self.precision_split,
            self.modifiers(), self.casualties, ctx.settings)
        ctx.record({"fight": summary})
        return new, events


class Impact(Strict):
    """IMPACT (X) Y of ``unit`` right after its successful Charge (§11 IMPACT)."""
    needs: ClassVar[tuple[str, ...]] = ("impact",)

    activation: ClassVar[str] = "impact"
    action: Literal["impact"]
    unit: Id
    targets: Optional[Annotated[list[Id], Field(min_length=1, max_length=20)]] = None
    split: Annotated[dict[Id, Annotated[dict[Id, Count], Field(max_length=20)]], Field(max_length=200)] = {}
    casualties: Choices = {}

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [(f"targets.{i}", "unit", t) for i, t in enumerate(self.targets or ())]
        for m, parts in self.split.items():
            out.append((f"split.{m}", "model", m))
            out += [(f"split.{m}.{t}", "unit", t) for t in parts]
        return out + _choice_refs("casualties", self.casualties)

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        new, events, summary = rules_for(state.system).impact(state, self.unit, ctx.dice, _last_charge(ctx, self.unit), self.targets,
                                            self.split, self.casualties, ctx.settings)
        ctx.record({"impact": summary})
        return new, events


def _last_charge(ctx: ReplayContext, unit: str) -> list[str]:
    """The targets of ``unit``'s successful charge, if it is the file's latest charge (else none)."""
    for i in sorted((k for k in ctx.results if ctx.index is None or k < ctx.index), reverse=True):
        got = ctx.results[i]
        if "charge" in got:
            c = got["charge"]
            if c.get("unit") == unit and c.get("success"):
                return list(c.get("targets") or [])
            break
    return []
