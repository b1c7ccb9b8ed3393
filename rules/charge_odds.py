"""Charge dice, shared by the three systems: exact distributions, the smallest roll, the odds.

A charge reaches ``base + roll`` inches, where ``base`` is a fixed part (StarCraft TMG: Speed
plus modifiers, §8.7.7; Horus Heresy: 0 after the Set-up Move, §A.3; 40k 3rd: 0, the roll *is*
the move through difficult terrain, §B.1) and ``roll`` comes from one of a few dice schemes:

* ``D6``: one die (StarCraft Charge Roll);
* ``best of 2D6``: two dice, keep the higher (StarCraft Metabolic Boost / Zealot Charge; Horus
  Heresy's "2D6, discard the lower"; 40k 3rd difficult terrain "2D6, use the highest");
* ``none``: no roll: the move is ``base`` exactly (40k 3rd's plain 6" assault move).

The charge succeeds when ``base + roll ≥ distance`` (up to the 1e-6" touching tolerance).
Distributions are :class:`rules.pmf.PMF` (exact); the same :class:`ChargeDice` turns rolled
dice into a result, so the random resolution and the odds cannot drift apart.

>>> o = charge_odds(7.0, 4, D6)                 # the rules guide: Speed 4, 7" to cover
>>> o.min_roll, o.fraction, o.reach_min, o.reach_max, o.reach_mean
(3, '2/3', 5, 10, 7.5)
>>> charge_odds(7.0, 4 - 2, D6).fraction        # Concussive Shells (−2): needs a 5
'1/3'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Callable, Optional, Sequence, TypedDict, Union

from tapeline.board.units import TOUCH

from .pmf import PMF


@dataclass(frozen=True)
class ChargeDice:
    """A dice scheme: how many D6 are rolled, how they make one result, its distribution."""

    name: str
    dice: int
    pmf: PMF
    reduce: Callable[[Sequence[int]], int]

    def result(self, rolls: Sequence[int]) -> int:
        return int(self.reduce(rolls)) if self.dice else 0


D6 = ChargeDice("D6", 1, PMF.die(6), lambda r: r[0])
BEST_OF_2D6 = ChargeDice("best of 2D6", 2, PMF.best_of(2, 6), max)
NO_ROLL = ChargeDice("none", 0, PMF.point(0), lambda r: 0)


class ReachJSON(TypedDict):
    min: Union[int, float]
    max: Union[int, float]
    mean: float


class ChargeOddsJSON(TypedDict):
    """:meth:`ChargeOdds.as_json`: the fields of the charge answer's ``odds``."""

    dice: str
    base: float
    min_roll: Optional[int]
    probability: float
    probability_fraction: str
    reach: ReachJSON


@dataclass(frozen=True)
class ChargeOdds:
    """``min_roll``: the smallest dice result that succeeds (``None``: none does, or no roll
    is made); ``probability``: exact chance of success; the reach's min, max and mean."""

    distance: Optional[float]
    base: float
    dice: ChargeDice
    min_roll: Optional[int]
    probability: float
    reach: PMF

    @property
    def fraction(self) -> str:
        f = Fraction(self.probability).limit_denominator(46656)
        return f"{f.numerator}/{f.denominator}" if f.denominator != 1 else str(f.numerator)

    @property
    def reach_min(self) -> Union[int, float]:
        return _num(self.reach.lo + self.base - int(self.base))

    @property
    def reach_max(self) -> Union[int, float]:
        return _num(self.reach.hi + self.base - int(self.base))

    @property
    def reach_mean(self) -> float:
        return self.reach.mean + self.base - int(self.base)

    def succeeds(self, result: int) -> bool:
        return self.distance is not None and self.base + result >= self.distance - TOUCH

    def as_json(self) -> ChargeOddsJSON:
        return {
            "dice": self.dice.name,
            "base": self.base,
            "min_roll": self.min_roll,
            "probability": self.probability,
            "probability_fraction": self.fraction,
            "reach": {"min": self.reach_min, "max": self.reach_max, "mean": self.reach_mean},
        }


def _num(x: float) -> Union[int, float]:
    return int(x) if float(x).is_integer() else float(x)


def charge_odds(distance: Optional[float], base: float, dice: ChargeDice) -> ChargeOdds:
    """Odds of covering ``distance`` inches with ``base + roll`` (``distance`` ``None``: no
    legal end spot exists, the charge cannot succeed)."""
    reach = dice.pmf + int(math.floor(base))
    if distance is None:
        return ChargeOdds(None, base, dice, None, 0.0, reach)
    need = distance - base - TOUCH
    if dice.dice == 0:
        ok = need <= 0
        return ChargeOdds(distance, base, dice, None, 1.0 if ok else 0.0, reach)
    faces = dice.pmf.values[dice.pmf.p > 0]
    good = faces[faces >= need]
    min_roll = int(good.min()) if len(good) else None
    p = Fraction(0) if min_roll is None else exact_at_least(dice, min_roll)
    return ChargeOdds(distance, base, dice, min_roll, float(p), reach)


def exact_at_least(dice: ChargeDice, k: int) -> Fraction:
    """P(result ≥ k) as a fraction, by enumerating every face combination (6ⁿ, n ≤ 2); it
    agrees with the PMF (tests) and gives 2/3 exactly, not 0.666...7 from a float sum."""
    combos = list(product(range(1, 7), repeat=dice.dice))
    return Fraction(sum(dice.result(c) >= k for c in combos), len(combos))
