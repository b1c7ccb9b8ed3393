"""Combat expectations (StarCraft TMG §8.6–§8.8): ``close_combat``, ``fight_dice``, ``ranks``,
``unit_engaged``, ``activation``, ``round``.

```yaml
expect:
  - {expect: close_combat, action: 3, target: marauders, value: kills, equals: 1}  # what a close_combat
                                                                              #   or impact action did
  - {expect: fight_dice, unit: zerglings, dice: {marauders: 6, marines: 4}, surge_to: marauders}
  - {expect: ranks, unit: zerglings, fighting: [A], supporting: [B]}
  - {expect: unit_engaged, unit: zerglings, with: marines, value: false}
  - {expect: activation, unit: marines, marker: assault}                      # movement | assault | none
  - {expect: round, phase: combat, turn: zerg, first_player: zerg}
```

* ``close_combat`` — a count of the ``close_combat`` or ``impact`` action number ``action`` at one
  ``target`` unit, summed over its Batches: ``dice`` (attack dice), ``hits``, ``surge``,
  ``moved_by_surge``, ``saved``, ``evaded``, ``damage_dice``, ``damage``, ``kills``, ``marker``;
  or ``casualties: [ids]`` (exactly those, in order).
* ``fight_dice`` — the unit's Close Combat Attack as the board stands (default choices, or
  ``assign``): attack dice per target unit, optionally the Surge target.
* ``ranks`` — the Fighting and Supporting Rank as the board stands (each compared as a set).
* ``unit_engaged`` — the unit is (not) Engaged (§7.2), with any enemy unit or with ``with``.
* ``activation`` — the unit's Activation Marker in the round (``none``: no marker, or removed).
* ``round`` — the round's ``phase`` (assault, combat, over), whose ``turn``, the First Player
  Marker holder, who has ``passed``.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, Optional, Self

from pydantic import Field, model_validator

from tapeline.rules.state import GameState
from tapeline.rules.systems import rules_for

from ..schema import ActionIndex, Flag, Id
from ..vocab import Ref, ReplayContext
from .common import ExpectBase, Numeric

Index = ActionIndex
FIGHT_VALUES = Literal["dice", "hits", "surge", "moved_by_surge", "saved", "evaded", "damage_dice", "damage",
                       "kills", "marker"]


def _fight(ctx: ReplayContext, action: int) -> Optional[dict[str, Any]]:
    got = ctx.results.get(action) or {}
    found: Optional[dict[str, Any]] = got.get("fight") or got.get("impact")
    return found


class CloseCombatExpect(ExpectBase, Numeric):
    expect: Literal["close_combat"]
    action: Index
    target: Id
    value: Optional[FIGHT_VALUES] = None
    casualties: Optional[Annotated[list[Id], Field(max_length=200)]] = None

    @model_validator(mode="after")
    def _one(self) -> Self:
        if (self.value is None) == (self.casualties is None):
            raise ValueError("give exactly one of value, casualties")
        return self

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("action", "action", self.action), ("target", "unit", self.target)]
        return (out
                + [(f"casualties.{i}", "casualty", m) for i, m in enumerate(self.casualties or ())])

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        f = _fight(ctx, self.action)
        if f is None:
            return False, f"action {self.action} made no Close Combat Attack or IMPACT"
        parts = [p for p in f["parts"] if p["target"] == self.target]
        if not parts:
            return False, f"action {self.action} struck no blow at {self.target}"
        if self.casualties is not None:
            got = [m for p in parts for m in p.get("casualties", [])]
            return got == list(self.casualties), f"casualties {got}"
        assert self.value is not None  # exactly one of value and casualties (the validator)
        if self.value == "dice":
            return self.compare_named("dice", sum(p.get("attack_dice", p.get("dice", 0)) for p in parts), "")
        vals = [p.get(self.value) for p in parts]
        if all(v is None for v in vals):
            return self.compare_named(self.value, None, "not rolled here")
        if self.value in ("marker",):
            return self.compare_named(self.value, vals[-1], "")
        return self.compare_named(self.value, sum(v or 0 for v in vals), "")


class FightDice(ExpectBase):
    needs: ClassVar[tuple[str, ...]] = ("declare_close_combat",)
    expect: Literal["fight_dice"]
    unit: Id
    dice: Annotated[dict[Id, Annotated[int, Field(strict=True, ge=0, le=100_000)]], Field(max_length=20)]
    surge_to: Optional[Id] = None
    assign: Annotated[dict[Id, Id], Field(max_length=200)] = {}

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [(f"dice.{t}", "unit", t) for t in self.dice]
        out += [(f"assign.{m}", "model", m) for m in self.assign]
        return out + ([("surge_to", "unit", self.surge_to)] if self.surge_to else [])

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        cc = rules_for(state.system).declare_close_combat(state, self.unit, self.assign)
        got = cc.dice()
        ok = got == dict(self.dice) and (self.surge_to is None or cc.surge_to == self.surge_to)
        return ok, f"dice {got}, Surge Die to {cc.surge_to}"


class RanksExpect(ExpectBase):
    needs: ClassVar[tuple[str, ...]] = ("ranks",)
    expect: Literal["ranks"]
    unit: Id
    fighting: Optional[Annotated[list[Id], Field(max_length=200)]] = None
    supporting: Optional[Annotated[list[Id], Field(max_length=200)]] = None

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        return out + [("fighting", "model", m) for m in self.fighting or ()] + \
            [("supporting", "model", m) for m in self.supporting or ()]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        rk = rules_for(state.system).ranks(state, self.unit)
        ok = (self.fighting is None or set(self.fighting) == set(rk.fighting_rank)) and \
             (self.supporting is None or set(self.supporting) == set(rk.supporting_rank))
        return ok, f"Fighting Rank {rk.fighting_rank}, Supporting Rank {rk.supporting_rank}"


class UnitEngaged(ExpectBase):
    needs: ClassVar[tuple[str, ...]] = ("engaged_units",)
    expect: Literal["unit_engaged"]
    unit: Id
    with_: Optional[Id] = Field(default=None, alias="with")
    value: Flag = True

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        return out + ([("with", "unit", self.with_)] if self.with_ else [])

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        units = rules_for(state.system).engaged_units(state, self.unit)
        got = (self.with_ in units) if self.with_ else bool(units)
        return got == self.value, f"Engaged with {', '.join(sorted(units)) or 'no unit'}"


class Activation(ExpectBase):
    needs: ClassVar[tuple[str, ...]] = ("start_phase",)
    expect: Literal["activation"]
    unit: Id
    marker: Literal["movement", "assault", "none"]

    def refs(self) -> list[Ref]:
        return [("unit", "unit", self.unit)]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        rs = getattr(state, "round", None)
        if rs is None:
            return False, "no round in progress (no phase action yet)"
        got = rs.markers.get(self.unit, "none")
        return got == self.marker, f"marker {got} (round {rs.number}, {rs.phase})"


class Round(ExpectBase):
    needs: ClassVar[tuple[str, ...]] = ("start_phase",)
    expect: Literal["round"]
    phase: Optional[Literal["assault", "combat", "over"]] = None
    turn: Optional[Id] = None
    first_player: Optional[Id] = None
    passed: Optional[Annotated[list[Id], Field(max_length=2)]] = None
    number: Optional[Annotated[int, Field(strict=True, ge=1, le=1000)]] = None

    def refs(self) -> list[Ref]:
        out: list[Ref] = [(f, "side", getattr(self, f)) for f in ("turn", "first_player") if getattr(self, f) is not None]
        return (out
                + [(f"passed.{i}", "side", s) for i, s in enumerate(self.passed or ())])

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        rs = getattr(state, "round", None)
        if rs is None:
            return False, "no round in progress (no phase action yet)"
        ok = all(want is None or want == got for want, got in (
            (self.phase, rs.phase), (self.turn, rs.turn), (self.first_player, rs.first_player),
            (self.passed, list(rs.passed)), (self.number, rs.number)))
        return ok, f"round {rs.number}, {rs.phase} phase, turn {rs.turn}, First Player Marker {rs.first_player}, passed {list(rs.passed)}"
