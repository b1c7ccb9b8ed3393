"""Horus Heresy 3rd Tests and Checks (§A.2): d6 modifiers, 2D6 Checks, a unit's characteristic.

* **Check** (Leadership, Cool, Willpower, Intelligence): roll 2D6, pass when the total is at
  most the target number (the characteristic after modifiers). Double 1 always passes, double 6
  always fails ("rule of doubles"); a characteristic of 0 fails with no roll.
* A **unit's** target number is the lowest value of that characteristic among its models; a
  Sergeant or Command model's value may be used instead (:func:`unit_characteristic`: tapeline
  uses it when the unit has one — the player's better choice — and names the model).
* **Modifiers**: a per-die modifier is clamped to 1..6 (``modified_die(4, +1) == 5``); a
  modifier to a roll's total has a floor of 0 (``modified_total([2, 4], -2) == 4``).

>>> passes((4, 4), 7), passes((1, 1), 2), passes((6, 6), 12)
(False, True, False)
>>> check_probability(7)            # 2D6 ≤ 7: 21 of 36
0.5833333333333334
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any, Optional, Sequence

from ..dice import Dice
from ..errors import IllegalAction
from ..state import GameState

RULE = "HH3 §A.2 Checks"
#: Sub-types whose characteristics a unit may use for its Checks (§A.2).
LEADING_SUBTYPES = ("sergeant", "command", "paragon")
NAMES = {"leadership": "Leadership", "cool": "Cool", "willpower": "Willpower", "intelligence": "Intelligence"}


def modified_die(value: int, modifier: int) -> int:
    """A die's value after a per-die modifier, clamped to 1..6 (§A.2)."""
    return min(6, max(1, int(value) + int(modifier)))


def modified_total(values: Sequence[int], modifier: int) -> int:
    """A roll's total after a modifier to the total, never below 0 (§A.2)."""
    return max(0, sum(int(v) for v in values) + int(modifier))


def passes(values: Sequence[int], target: int) -> bool:
    """A 2D6 Check against ``target`` (the characteristic after modifiers), rule of doubles."""
    d1, d2 = int(values[0]), int(values[1])
    if d1 == 1 and d2 == 1:
        return True
    if d1 == 6 and d2 == 6:
        return False
    return d1 + d2 <= target


def check_probability(target: int, characteristic: Optional[int] = None) -> float:
    """Exact chance of passing a Check against ``target`` (0 when the characteristic is 0)."""
    return float(check_fraction(target, characteristic))


def check_fraction(target: int, characteristic: Optional[int] = None) -> Fraction:
    if characteristic is not None and characteristic <= 0:
        return Fraction(0)
    return Fraction(sum(passes(r, target) for r in product(range(1, 7), repeat=2)), 36)


@dataclass(frozen=True)
class CheckResult:
    """One Check: what was tested, against what, the dice and the verdict."""

    unit: str
    characteristic: str
    value: int
    modifier: int
    target: int
    rolls: tuple[int, ...]
    passed: bool
    model: Optional[str] = None
    why: str = ""

    def as_event(self, purpose: str) -> dict[str, Any]:
        ev: dict[str, Any] = {"type": "check", "purpose": purpose, "unit": self.unit, "characteristic": self.characteristic,
              "value": self.value, "modifier": self.modifier, "target": self.target, "rolls": list(self.rolls),
              "passed": self.passed}
        if self.model:
            ev["model"] = self.model
        if self.why:
            ev["why"] = self.why
        return ev


def model_stat(state: GameState, model_id: str, name: str) -> Any:
    """A model's characteristic: its own override in ``stats.models`` if any, else the unit's
    (as the file gives it: a number, a name, a list)."""
    u = state.unit_of(model_id)
    own = (u.stats.get("models") or {}).get(model_id) or {}
    return own.get(name, u.stats.get(name))


def model_subtypes(state: GameState, model_id: str) -> frozenset[str]:
    """A model's sub-types: the unit's tags plus its own ``subtypes`` override."""
    u = state.unit_of(model_id)
    own = (u.stats.get("models") or {}).get(model_id) or {}
    return frozenset(u.tags) | frozenset(t.lower() for t in own.get("subtypes") or ())


def unit_characteristic(state: GameState, unit_id: str, name: str) -> tuple[int, Optional[str]]:
    """The value a unit tests ``name`` against, and the model whose value it is (§A.2): a
    Sergeant, Command or Paragon model's if the unit has one (the highest such), else the
    lowest among its models."""
    u = state.unit(unit_id)
    vals: list[tuple[int, str]] = []
    for m in u.models:
        v = model_stat(state, m, name)
        if v is not None:
            vals.append((int(v), m))
    if not vals:
        raise IllegalAction(RULE, f"unit {unit_id} needs stats.{name} for a {NAMES.get(name, name)} Check")
    leaders = [(v, m) for v, m in vals if model_subtypes(state, m) & set(LEADING_SUBTYPES)]
    if leaders:
        return max(leaders, key=lambda t: (t[0], -u.models.index(t[1])))
    v, m = min(vals, key=lambda t: (t[0], u.models.index(t[1])))
    return v, (m if name in ((u.stats.get("models") or {}).get(m) or {}) else None)


def take_check(state: GameState, unit_id: str, name: str, dice: Dice, purpose: str, modifier: int = 0) -> CheckResult:
    """Roll a unit's Check on ``name`` with ``modifier`` on the target number (§A.2)."""
    value, model = unit_characteristic(state, unit_id, name)
    target = value + int(modifier)
    if value <= 0:
        return CheckResult(unit_id, name, value, modifier, target, (), False, model, f"{NAMES.get(name, name)} 0: fails with no roll")
    rolls = tuple(dice.roll(2, f"{NAMES.get(name, name)} Check ({unit_id}, {purpose})"))
    ok = passes(rolls, target)
    why = "double 1 always passes" if rolls == (1, 1) else "double 6 always fails" if rolls == (6, 6) else \
        f"{sum(rolls)} {'≤' if ok else '>'} {target}"
    return CheckResult(unit_id, name, value, modifier, target, rolls, ok, model, why)
