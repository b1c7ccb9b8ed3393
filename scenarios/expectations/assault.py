"""Assault expectations (Horus Heresy 3rd, 40k 3rd): ``fight_odds``, ``combat_result``, ``glory``.

```yaml
expect:
  - {expect: fight_odds, unit: loyal, value: win, of: loyal, equals: 0.4918, tol: 1e-4}
  - {expect: fight_odds, unit: loyal, value: draw, equals: 0}
  - {expect: fight_odds, unit: loyal, value: expected_casualties, of: traitors, equals: 0.2494, tol: 1e-4}
  - {expect: fight_odds, unit: loyal, value: casualties, of: traitors, k: 0, equals: 0.7703, tol: 1e-4}
  - {expect: fight_odds, unit: loyal, value: win, of: loyal, strike_order: [loyal power fist], at_least: 0.4}
  - {expect: fight_odds, unit: loyal, value: win, of: loyal, casualties: {traitors: [t2, t1]}, weapons: {a1: power sword},
     targets: {a3: traitors}, at_least: 0.4}
  - {expect: combat_result, unit: loyal, winner: loyalist, points: {loyalist: 4, traitor: 1}}
  - {expect: combat_result, unit: loyal, draw: true}
  - {expect: combat_result, unit: loyal, massacre: true, panic: failed}
  - {expect: glory, action: 1, points: {loyalist: 3}, slain: [champ-b]}
```

``fight_odds`` asks the ``fight`` query (exact) of the state at that point, with the choices
of the ``fight`` action, spelt as there: ``weapons``, ``targets`` (one unit per model),
``casualties`` (the defender's order) and, Horus Heresy, ``strike_order`` (the Active Player's
order of Strike Groups). In strict mode a choice it leaves open is refused at the expectation,
as the question's (docs/choices.md); ``combat_result`` reads
what the last ``resolution`` action found for the unit's combat; ``glory`` what ``challenge``
action number ``action`` scored. For 40k 3rd, ``combat_result`` reads the last ``fight`` of the
unit's combat: ``points`` are the wounds each side inflicted, ``massacre`` an enemy destroyed
(an outright win), ``tiebreak`` a win on the roll-off, ``panic`` the losing unit's morale test
(``morale`` action).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, ClassVar, Iterator, Literal, Optional, Self

from pydantic import Field, model_validator

from tapeline.rules.state import GameState
from tapeline.rules.systems import FightChoices, rules_for

from ..schema import ActionIndex, Flag, Id, Text
from ..vocab import Ref, ReplayContext
from .common import ExpectBase, Numeric

if TYPE_CHECKING:
    from ..validate import Static

Points = Annotated[dict[Id, Annotated[int, Field(strict=True, ge=-1000, le=1000)]], Field(max_length=20)]


class FightOdds(ExpectBase, Numeric):
    """An exact answer of the ``fight`` query: ``win`` (``of``: a unit or side), ``draw``,
    ``expected_casualties`` or ``casualties`` (``k``: P(exactly k)) of unit ``of``."""

    expect: Literal["fight_odds"]
    unit: Id
    value: Literal["win", "draw", "expected_casualties", "casualties"]
    of: Optional[Id] = None
    k: Optional[Annotated[int, Field(strict=True, ge=0, le=2000)]] = None
    charged: Optional[Id] = None
    strike_order: Annotated[list[Annotated[Text, Field(min_length=1)]], Field(max_length=200)] = []
    weapons: Annotated[dict[Id, Id], Field(max_length=2000)] = {}
    targets: Annotated[dict[Id, Id], Field(max_length=2000)] = {}
    casualties: Annotated[dict[Id, Annotated[list[Id], Field(max_length=2000)]], Field(max_length=50)] = {}

    @model_validator(mode="after")
    def _need(self) -> Self:
        if self.value != "draw" and self.of is None:
            raise ValueError(f"value {self.value} needs of")
        if self.value == "casualties" and self.k is None:
            raise ValueError("value casualties needs k")
        return self

    def static_problems(self, ctx: Static) -> Iterator[tuple[str, str]]:
        """A ``strike_order`` outside Horus Heresy."""
        yield from rules_for(ctx.state.system).option_problems("fight", {"strike_order": self.strike_order})

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit)]
        out += [("charged", "unit", self.charged)] if self.charged else []
        out += [(f"strike_order.{i}", "strike_group", g) for i, g in enumerate(self.strike_order)]
        out += [(f"weapons.{m}", "model", m) for m in self.weapons]
        out += [(f"weapons.{m}", "melee_weapon", w, m) for m, w in self.weapons.items()]
        out += [(f"targets.{m}", "model", m) for m in self.targets] + [(f"targets.{m}", "unit", t) for m, t in self.targets.items()]
        out += [(f"casualties.{u}", "unit", u) for u in self.casualties]
        out += [(f"casualties.{u}.{i}", "model", m, u) for u, ms in self.casualties.items() for i, m in enumerate(ms)]
        return out + ([("of", "unit", self.of)] if self.of and self.value != "win" else [])

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        rules = rules_for(state.system)
        rules.refuse_options("fight", {"strike_order": self.strike_order})
        o = rules.fight_odds(state, self.unit, FightChoices(
            assign=self.targets, weapons=self.weapons, charged=self.charged, strike_order=tuple(self.strike_order),
            casualties={u: tuple(ms) for u, ms in self.casualties.items()}))
        if self.value == "draw":
            v = o["result"]["draw"]
        elif self.value == "win":
            v = o["result"].get(self.of, o["sides"].get(self.of))
        elif self.value == "expected_casualties":
            v = o["expected_casualties"].get(self.of)
        else:
            assert self.k is not None  # value casualties needs k (the validator)
            pmf = o["casualties_pmf"].get(self.of)
            v = None if pmf is None else (pmf[self.k] if self.k < len(pmf) else 0.0)
        return self.compare_named(self.value + (f" of {self.of}" if self.of else ""), v, "not in this combat")


class CombatResult(ExpectBase):
    """What the ``resolution`` of the unit's combat found: ``winner`` (a side), ``draw``,
    ``points`` per side, ``massacre``, ``panic`` (``passed``, ``failed`` or ``none``)."""
    needs: ClassVar[tuple[str, ...]] = ("combat_result",)

    expect: Literal["combat_result"]
    unit: Id
    winner: Optional[Id] = None
    draw: Optional[Flag] = None
    points: Optional[Points] = None
    massacre: Optional[Flag] = None
    panic: Optional[Literal["passed", "failed", "none"]] = None
    tiebreak: Optional[Flag] = None

    def refs(self) -> list[Ref]:
        return [("unit", "unit", self.unit)]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        got = rules_for(state.system).combat_result(state, self.unit)
        if isinstance(got, str):
            return False, got
        ok = True
        if self.winner is not None:
            ok &= got["winner"] == self.winner
        if self.draw is not None:
            ok &= (got["winner"] is None) == self.draw
        if self.points is not None:
            ok &= all(got["points"].get(s) == v for s, v in self.points.items())
        if self.massacre is not None:
            ok &= got["massacre"] == self.massacre
        if self.tiebreak is not None:
            ok &= got.get("tiebreak", False) == self.tiebreak
        if self.panic is not None:
            ok &= got["panic"] == self.panic
        return ok, got["detail"]


class Glory(ExpectBase):
    """What ``challenge`` action number ``action`` scored: ``points`` per side, ``slain``,
    ``disgraced``."""

    expect: Literal["glory"]
    action: ActionIndex
    points: Optional[Points] = None
    slain: Optional[Annotated[list[Id], Field(max_length=2)]] = None
    disgraced: Optional[Id] = None

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("action", "action", self.action, "challenge")]
        return (out
                + [(f"slain.{i}", "casualty", m) for i, m in enumerate(self.slain or ())]
                + ([("disgraced", "casualty", self.disgraced)] if self.disgraced else []))

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        got = (ctx.results.get(self.action) or {}).get("challenge")
        if got is None:
            return False, f"action {self.action} made no challenge"
        ok = True
        if self.points is not None:
            ok &= all(got["glory"].get(s, 0) == v for s, v in self.points.items())
        if self.slain is not None:
            ok &= sorted(got["slain"]) == sorted(self.slain)
        if self.disgraced is not None:
            ok &= got["disgraced"] == self.disgraced
        return ok, f"glory {got['glory']}, slain {got['slain']}, disgraced {got['disgraced']}"
