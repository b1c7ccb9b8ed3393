"""Exact probability distributions over small whole numbers, as numpy arrays.

A :class:`PMF` holds ``p[k] = P(X = offset + k)``. Distributions combine by convolution
(sums), by elementwise max (best of), and by mapping; every result is exact up to float
rounding (no sampling).

>>> d6 = PMF.die(6)
>>> round(d6.mean, 6)
3.5
>>> round((d6 + 4).at_least(7), 6)        # Speed 4 + D6 reaches 7": 4/6
0.666667
>>> round(PMF.best_of(2, 6).mean, 6)      # 2D6, keep the higher
4.472222
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Mapping, Union

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class PMF:
    p: NDArray[np.float64]
    offset: int = 0

    # --- construction -----------------------------------------------------------------------

    @staticmethod
    def point(v: int) -> "PMF":
        return PMF(np.array([1.0]), int(v))

    @staticmethod
    def die(sides: int = 6) -> "PMF":
        """A fair die 1..sides."""
        return PMF(np.full(sides, 1.0 / sides), 1)

    @staticmethod
    def d3() -> "PMF":
        """D3: a D6 halved rounding up (§3)."""
        return PMF.die(3)

    @staticmethod
    def from_dict(d: Mapping[int, float]) -> "PMF":
        lo, hi = min(d), max(d)
        p = np.zeros(hi - lo + 1)
        for k, v in d.items():
            p[k - lo] += float(v)
        return PMF(p, lo)

    @staticmethod
    def best_of(n: int, sides: int = 6) -> "PMF":
        """The highest of ``n`` dice: P(max ≤ k) = (k/s)^n."""
        k = np.arange(0, sides + 1, dtype=float)
        cdf = (k / sides) ** n
        return PMF(np.diff(cdf), 1)

    @staticmethod
    def binomial(n: int, q: float) -> "PMF":
        """Number of successes in ``n`` independent trials with chance ``q`` each."""
        return PMF(np.array([1.0 - q, q])).power(n)

    @staticmethod
    def of_faces(f: Callable[[int], int], sides: int = 6) -> "PMF":
        """The distribution of ``f(face)`` for one fair die: the exact image of a per-die rule.

        >>> PMF.of_faces(lambda v: int(v >= 3)).prob(1)   # a 3+ roll succeeds 4 times in 6
        0.6666666666666666
        """
        return PMF.die(sides).map(f)

    # --- combination ------------------------------------------------------------------------

    def power(self, n: int) -> "PMF":
        """The sum of ``n`` independent copies (n-fold convolution, by repeated squaring)."""
        if n < 0:
            raise ValueError("n must be non-negative")
        out, base = PMF.point(0), self
        while n:
            if n & 1:
                out = out + base
            n >>= 1
            if n:
                base = base + base
        return out

    def scaled(self, k: int) -> "PMF":
        """The distribution of ``k·X`` (e.g. damage dice × DMG)."""
        return self.map(lambda x: k * x)

    def __add__(self, other: Union["PMF", int]) -> "PMF":
        if isinstance(other, PMF):
            return PMF(np.convolve(self.p, other.p), self.offset + other.offset)
        return PMF(self.p, self.offset + int(other))

    __radd__ = __add__

    def __sub__(self, k: int) -> "PMF":
        return PMF(self.p, self.offset - int(k))

    def map(self, f: Callable[[int], int]) -> "PMF":
        """Distribution of ``f(X)`` for an integer-valued ``f``."""
        out: dict[int, float] = {}
        for k, v in enumerate(self.p):
            if v:
                y = int(f(self.offset + k))
                out[y] = out.get(y, 0.0) + float(v)
        return PMF.from_dict(out) if out else PMF.point(0)

    def mix(self, kernel: Callable[[int], "PMF"]) -> "PMF":
        """Σ_x P(X = x) · kernel(x), where ``kernel(x)`` is a PMF (compound distribution)."""
        acc: dict[int, float] = {}
        for k, v in enumerate(self.p):
            if v:
                sub = kernel(self.offset + k)
                for j, w in enumerate(sub.p):
                    if w:
                        y = sub.offset + j
                        acc[y] = acc.get(y, 0.0) + float(v) * float(w)
        return PMF.from_dict(acc)

    # --- reading ----------------------------------------------------------------------------

    @property
    def values(self) -> NDArray[np.int_]:
        return np.arange(self.offset, self.offset + len(self.p))

    @property
    def mean(self) -> float:
        return float(np.dot(self.values, self.p))

    @property
    def lo(self) -> int:
        nz = np.nonzero(self.p > 0)[0]
        return int(self.offset + nz[0]) if len(nz) else self.offset

    @property
    def hi(self) -> int:
        nz = np.nonzero(self.p > 0)[0]
        return int(self.offset + nz[-1]) if len(nz) else self.offset

    def prob(self, k: int) -> float:
        i = k - self.offset
        return float(self.p[i]) if 0 <= i < len(self.p) else 0.0

    def at_least(self, k: float) -> float:
        """P(X ≥ k)."""
        return float(self.p[self.values >= k - 1e-12].sum())

    def as_list(self, start: int = 0) -> list[float]:
        """``[P(X = start), P(X = start + 1), ...]`` up to the highest value."""
        return [self.prob(k) for k in range(start, self.hi + 1)]

    def at_least_list(self, start: int = 0) -> list[float]:
        return [self.at_least(k) for k in range(start, self.hi + 1)]

    def total(self) -> float:
        return float(self.p.sum())

    @property
    def variance(self) -> float:
        return float(np.dot((self.values - self.mean) ** 2, self.p))

    def cdf(self, k: float) -> float:
        """P(X ≤ k)."""
        return float(self.p[self.values <= k + 1e-12].sum())


def as_fraction(x: float, max_den: int = 1_000_000) -> Fraction:
    return Fraction(x).limit_denominator(max_den)
