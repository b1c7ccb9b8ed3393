"""40k 3rd edition assault results and the loser's morale (seed "Determine Assault Results",
"Loser Checks Morale", §B.8–B.9).

* Each side totals the **wounds it inflicted** (wounds its enemies lost this round, across every
  unit of the combat, "Multiple Combats"); the side with more wins.
* **Enemy destroyed**: a side whose enemies in the combat are all removed wins outright, even
  with fewer wounds (both wiped out: a draw).
* **Tiebreaker**: equal wounds — each side rolls a D6; the higher wins (a tiebreak win), equal
  rolls mean the combat is drawn.
* **Morale**: every losing unit takes a Leadership test, 2D6 ≤ Ld (the highest Leadership
  among the unit's models left after the round: a leader's while he stands); setting
  ``c40k_morale_modifier``: ``none`` (the 1998 rules' plain test, default) or ``per_wound`` (the
  trial rules / 4th edition: −1 Ld per wound the combat was lost by). A pass: the combat is
  drawn, fighting goes on next turn; a fail: the unit falls back 2D6".

The exact chances read the round's joint distribution (:class:`~tapeline.rules.melee.combat.RoundOdds`);
the roll-off's 15/36 – 6/36 – 15/36 is enumerated, not assumed. Each state of the distribution
says which models of each unit are left (the first ``removed`` of its casualty order are gone),
so the chance to fall back tests, in each state, the Leadership of that state's survivors — the
one the replay's morale test reads off the board after the round.

>>> [round(p, 6) for p in ROLL_OFF]                # first side higher, equal, second higher
[0.416667, 0.166667, 0.416667]
>>> round(leadership_pass(8), 6), round(leadership_pass(8 - 2), 6)   # derived case 8: Ld 8, Ld 6
(0.722222, 0.416667)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence

from ..dice import Dice
from ..errors import IllegalAction
from ..melee.combat import Combat, CombatUnit, RoundOdds, State
from ..melee.loadout import model_line
from ..melee.wounds import wounds_lost
from ..state import GameState

RULE = "40k 3rd Determine Assault Results"
RULE_MORALE = "40k 3rd Loser Checks Morale"

_PAIRS = list(product(range(1, 7), repeat=2))
#: P(first side's D6 higher), P(equal), P(second higher) in a roll-off.
ROLL_OFF = (sum(a > b for a, b in _PAIRS) / 36, sum(a == b for a, b in _PAIRS) / 36, sum(a < b for a, b in _PAIRS) / 36)


def leadership_pass(ld: int) -> float:
    """P(2D6 ≤ ``ld``), by enumeration."""
    return sum(a + b <= ld for a, b in _PAIRS) / 36


@dataclass(frozen=True)
class Outcome:
    """How one state of the combat ends: wounds inflicted by each side, who was wiped out, and
    the verdict before any roll-off: ``winner`` (a side), ``None`` with ``tie`` (roll off) or
    ``None`` without (drawn: both wiped out)."""

    wounds: dict[str, int]
    destroyed: tuple[str, ...]
    winner: Optional[str]
    tie: bool
    outright: bool = False


def outcome(combat: Combat, sides: Sequence[str], state: State) -> Outcome:
    """The verdict for one final state of the round."""
    lost = {s: 0 for s in sides}
    alive = {s: False for s in sides}
    for u, losses in zip(combat.units, state):
        lost[u.side] += wounds_lost(u.order, losses) - wounds_lost(u.order, u.start)
        alive[u.side] |= u.has_models(losses)
    a, b = sides
    inflicted = {a: lost[b], b: lost[a]}
    destroyed = tuple(s for s in sides if not alive[s])
    if len(destroyed) == 2:
        return Outcome(inflicted, destroyed, None, False, True)
    if destroyed:
        return Outcome(inflicted, destroyed, a if destroyed[0] == b else b, False, True)
    if inflicted[a] != inflicted[b]:
        return Outcome(inflicted, destroyed, a if inflicted[a] > inflicted[b] else b, False)
    return Outcome(inflicted, destroyed, None, True)


def result_odds(odds: RoundOdds, sides: Sequence[str]) -> dict[str, float]:
    """{side: P(wins the combat), "draw": P}, roll-off included."""
    a, b = sides
    out = {a: 0.0, b: 0.0, "draw": 0.0}
    for st, p in odds.dist.items():
        o = outcome(odds.combat, sides, st)
        if o.winner is not None:
            out[o.winner] += p
        elif o.tie:
            out[a] += p * ROLL_OFF[0]
            out["draw"] += p * ROLL_OFF[1]
            out[b] += p * ROLL_OFF[2]
        else:
            out["draw"] += p
    return out


def leadership_values(state: GameState, unit_id: str) -> dict[str, Optional[int]]:
    """Each model's Leadership (``None``: its line gives none), by model id."""
    u = state.unit(unit_id)
    out: dict[str, Optional[int]] = {}
    for m in u.models:
        v = model_line(u, m).get("leadership")
        out[m] = int(v) if v is not None else None
    return out


def highest_leadership(values: Iterable[Optional[int]]) -> Optional[int]:
    """The Leadership a unit tests on, from its models' values: the highest given (``None``:
    none given)."""
    given = [v for v in values if v is not None]
    return max(given) if given else None


def unit_leadership(state: GameState, unit_id: str) -> int:
    """The Leadership a unit tests on: its highest (a leader's) among its models left."""
    ld = highest_leadership(leadership_values(state, unit_id).values())
    if ld is None:
        raise IllegalAction(RULE_MORALE, f"unit {unit_id} needs stats.leadership for its morale test")
    return ld


def morale_modifier(state: GameState, margin: int) -> int:
    """What the test's target changes by for a combat lost by ``margin`` wounds (setting
    ``c40k_morale_modifier``)."""
    mode = state.settings.get("c40k_morale_modifier", "none") if state.settings else "none"
    return -int(margin) if mode == "per_wound" else 0


def morale_target(state: GameState, unit_id: str, margin: int) -> tuple[int, int]:
    """(Leadership, modified target) for a losing unit; ``margin`` is how many wounds the
    combat was lost by."""
    ld = unit_leadership(state, unit_id)
    return ld, ld + morale_modifier(state, margin)


def survivors_leadership(unit: CombatUnit, values: Mapping[str, Optional[int]]) -> list[Optional[int]]:
    """``[k]``: the Leadership ``unit`` tests on once the first ``k`` models of its casualty
    order are gone (:func:`highest_leadership` of the models left; ``values``: each model's,
    as :func:`leadership_values` gives them; a model not in the order is always left)."""
    order = [d.id for d in unit.order]
    rest = highest_leadership(v for m, v in values.items() if m not in unit.position)
    out: list[Optional[int]] = [rest]
    for m in reversed(order):
        out.append(highest_leadership((out[-1], values.get(m))))
    return out[::-1]


def falls_back_odds(odds: RoundOdds, sides: Sequence[str], state: GameState) -> dict[str, Optional[float]]:
    """{unit: P(its side loses the combat and it fails its Leadership test)}, the test taken in
    each final state of the round on the Leadership of the unit's models left in that state
    (:func:`survivors_leadership`), as the replay's morale test reads it after the casualties
    are removed. ``None`` for a unit without a Leadership value, or one that may have to test
    when no model left has one (the replay's test would be refused)."""
    out: dict[str, Optional[float]] = {}
    ld_left: dict[str, list[Optional[int]]] = {}
    for u in odds.combat.units:
        values = leadership_values(state, u.id)
        out[u.id] = None if highest_leadership(values.values()) is None else 0.0
        ld_left[u.id] = survivors_leadership(u, values)
    a, b = sides
    for st, p in odds.dist.items():
        o = outcome(odds.combat, sides, st)
        for loser, chance in _losers(o, a, b):
            margin = o.wounds[a if loser == b else b] - o.wounds[loser]
            modifier = morale_modifier(state, max(0, margin))
            for u, losses in zip(odds.combat.units, st):
                so_far = out[u.id]
                if u.side == loser and u.has_models(losses) and so_far is not None:
                    ld = ld_left[u.id][losses.removed]
                    out[u.id] = None if ld is None else so_far + p * chance * (1 - leadership_pass(ld + modifier))
    return out


def _losers(o: Outcome, a: str, b: str) -> Iterator[tuple[str, float]]:
    if o.winner is not None:
        if not o.destroyed:
            yield (b if o.winner == a else a), 1.0
    elif o.tie:
        yield b, ROLL_OFF[0]
        yield a, ROLL_OFF[2]


@dataclass(frozen=True)
class CombatResult:
    """The result of one fought round (what the replay keeps for morale and the moves after)."""

    units: tuple[str, ...]
    sides: tuple[str, ...]
    wounds: dict[str, int]
    winner: Optional[str]
    loser: Optional[str]
    margin: int
    tiebreak: bool
    outright: bool
    destroyed: tuple[str, ...]
    rolls: dict[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"units": list(self.units), "sides": list(self.sides), "wounds": dict(self.wounds), "winner": self.winner,
                "loser": self.loser, "margin": self.margin, "tiebreak": self.tiebreak, "outright": self.outright,
                "destroyed": list(self.destroyed), "rolls": dict(self.rolls)}

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> "CombatResult":
        return CombatResult(tuple(d["units"]), tuple(d["sides"]), dict(d["wounds"]), d["winner"], d["loser"], int(d["margin"]),
                            bool(d["tiebreak"]), bool(d["outright"]), tuple(d["destroyed"]), dict(d.get("rolls") or {}))


def decide(combat: Combat, units: Sequence[str], sides: Sequence[str], state: State, dice: Dice) -> CombatResult:
    """The result of a round fought with dice (a roll-off when the wounds are equal)."""
    o = outcome(combat, sides, state)
    a, b = sides
    rolls: dict[str, int] = {}
    winner, tiebreak = o.winner, False
    if o.tie:
        ra = dice.roll(1, f"tiebreaker roll-off ({a})")[0]
        rb = dice.roll(1, f"tiebreaker roll-off ({b})")[0]
        rolls = {a: ra, b: rb}
        if ra != rb:
            winner, tiebreak = (a if ra > rb else b), True
    loser = None if winner is None else (b if winner == a else a)
    margin = 0 if winner is None or loser is None else o.wounds[winner] - o.wounds[loser]
    return CombatResult(tuple(units), tuple(sides), o.wounds, winner, loser, max(0, margin), tiebreak, o.outright, o.destroyed, rolls)
