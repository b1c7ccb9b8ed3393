"""A Strike Group's dice: the hit roll, then the wound roll, each step written once.

Each die of a step falls in a **category** given by its face (a face table of six entries):

* :data:`MISS` (0): nothing;
* :data:`HIT` (1): a hit, which goes on to the wound roll;
* ``wound_category(k)`` (2 + k): a wound of :class:`WoundKind` number ``k`` of the target option.

The hit roll's table may send a face straight to a wound (Horus Heresy Rending or Critical Hit:
a natural hit roll that wounds automatically); the wound roll's table may give different faces
different kinds (Breaching: AP 2 on a natural 6; Shred: +1 Damage). 40k 3rd uses one kind per
weapon and plain "n+" tables. Two engines read the same :class:`Roll` steps:

* :func:`roll_strike` rolls real dice (each roll an event with its purpose);
* :func:`strike_distribution` carries the exact distribution: ``n`` dice of one step fall into
  the categories multinomially (a convolution of the one-die distribution). One attack die
  brings at most one wound, so the exact engine needs it for one die only
  (:func:`~tapeline.rules.melee.chains.per_die`).

>>> from tapeline.rules.melee.charts import faces_at_least
>>> a = Against("orks", faces_at_least(3), faces_at_least(5, yes=wound_category(0)), (WoundKind(),), 3, 5)
>>> d = strike_distribution(a, 2)          # 2 attacks hitting on 3+, wounding on 5+: (2/3 · 1/3) each
>>> round(d[(0,)], 6), round(d[(2,)], 6)   # P(no wound) = (7/9)², P(two) = (2/9)²
(0.604938, 0.049383)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable, Iterator, Mapping, Optional, Sequence, TypedDict

import numpy as np
from numpy.typing import NDArray

from ..dice import Dice

MISS, HIT = 0, 1

#: A face table: the category of each face 1..6 (index face − 1).
Faces = tuple[int, ...]
#: How many dice fell in each category (index: the category).
Counts = tuple[int, ...]


def wound_category(k: int) -> int:
    """The category of a wound of kind ``k`` in a face table."""
    return 2 + k


@dataclass(frozen=True)
class WoundKind:
    """What one wound carries into the save and the damage: its AP (``None``: none), whether it
    ignores armour, its Damage; ``label`` names it in the log (e.g. ``"breaching"``)."""

    ap: Optional[int] = None
    damage: int = 1
    ignores_armour: bool = False
    label: str = ""


@dataclass(frozen=True)
class StrikePools:
    """Where a Strike Group's dice are: attack dice, hits waiting for the wound roll, wounds by kind."""

    attacks: int = 0
    hits: int = 0
    wounds: tuple[int, ...] = ()


@dataclass(frozen=True, eq=False)
class Roll:
    """One step: ``count(pools)`` dice; each face's category from ``faces`` (index face − 1);
    ``then(pools, counts)`` with the number of dice in each category."""

    purpose: str
    count: Callable[[StrikePools], int]
    faces: Faces
    then: Callable[[StrikePools, Counts], StrikePools]

    @property
    def categories(self) -> int:
        return max(self.faces) + 1 if self.faces else 1

    def categorise(self, values: Sequence[int]) -> Counts:
        out = [0] * self.categories
        for v in values:
            out[self.faces[v - 1]] += 1
        return tuple(out)

    def outcomes(self, n: int) -> Mapping[Counts, float]:
        """Exact distribution of the category counts of ``n`` dice (multinomial; shared: read
        it only)."""
        return _multinomial(self.faces, n)


def _multinomial(faces: Faces, n: int) -> dict[Counts, float]:
    """``{category counts: probability}`` for ``n`` dice, the dice added one at a time (a
    convolution of the one-die distribution): after each die, the probability of the count
    vector K is the sum over the categories i that can occur, from the last to the first, of
    P(K − e_i before the die) · p_i. The vectors are listed in descending lexicographic order.

    The sums and products are carried on an array over the count vectors (numpy: the same
    IEEE operations in the same order, so the same floats as adding the dice one by one to a
    mapping, :func:`_multinomial_by_dice`, which answers where the array would be too large)."""
    c = max(faces) + 1
    p = [faces.count(k) / 6.0 for k in range(c)]
    live = [k for k in range(c) if p[k]]
    if (n + 1) ** (len(live) - 1) > _DENSE_LIMIT:
        return _multinomial_by_dice(faces, n)
    # axis j of the array: the count of category live[j + 1] (live[0]'s count is what is left)
    dist: NDArray[np.float64] = np.zeros((n + 1,) * (len(live) - 1))
    dist[(0,) * (len(live) - 1)] = 1.0
    for _ in range(n):
        new = np.zeros_like(dist)
        for j in range(len(live) - 1, -1, -1):
            if j == 0:
                new = new + dist * p[live[0]]  # K − e_live[0]: the same other counts
            else:
                term = np.zeros_like(dist)
                src = [slice(None)] * dist.ndim
                dst = [slice(None)] * dist.ndim
                src[j - 1], dst[j - 1] = slice(0, n), slice(1, n + 1)
                term[tuple(dst)] = dist[tuple(src)] * p[live[j]]
                new = new + term
        dist = new
    out: dict[Counts, float] = {}
    for rest in _descending(n, len(live) - 1):
        counts = [0] * c
        counts[live[0]] = n - sum(rest)
        for j, k in enumerate(rest):
            counts[live[j + 1]] = k
        out[tuple(counts)] = float(dist[rest])
    return out


#: The largest array :func:`_multinomial` carries ((n + 1) to the number of categories less one).
_DENSE_LIMIT = 4_000_000


def _descending(n: int, m: int) -> Iterator[tuple[int, ...]]:
    """The last ``m`` counts of every vector of ``m + 1`` counts summing to ``n``, in descending
    lexicographic order of the whole vector: the first count from ``n`` down (so the others'
    sum up from 0), the others in descending lexicographic order among themselves."""
    for total in range(n + 1):
        yield from _compositions(total, m)


def _compositions(total: int, m: int) -> Iterator[tuple[int, ...]]:
    """Every ``m`` counts summing to ``total``, in descending lexicographic order."""
    if m == 0:
        if total == 0:
            yield ()
        return
    if m == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for tail in _compositions(total - first, m - 1):
            yield (first,) + tail


def _multinomial_by_dice(faces: Faces, n: int) -> dict[Counts, float]:
    """:func:`_multinomial` by adding the dice one at a time to a mapping."""
    c = max(faces) + 1
    p = [faces.count(k) / 6.0 for k in range(c)]
    dist: dict[Counts, float] = {(0,) * c: 1.0}
    for _ in range(n):
        new: defaultdict[Counts, float] = defaultdict(float)
        for counts, q in dist.items():
            for k in range(c):
                if p[k]:
                    nc = counts[:k] + (counts[k] + 1,) + counts[k + 1:]
                    new[nc] += q * p[k]
        dist = dict(new)
    return dist


def _add(w: tuple[int, ...], counts: Counts) -> tuple[int, ...]:
    """The wounds by kind ``w`` with the counts' wound categories (after miss and hit) added."""
    extra = counts[2:]
    return tuple(a + b for a, b in zip(w, extra)) + w[len(extra):]


@dataclass(frozen=True)
class Against:
    """One target option of a Strike Group: the target unit and the dice tables against it.

    ``hit_faces`` / ``wound_faces``: category of each face 1..6; ``kinds``: the wound kinds the
    tables can produce; ``hit_on`` / ``wound_on``: the plain target numbers, for display;
    ``foes``: the target's models the strikers may strike (40k 3rd: those within 2" of them,
    seed "Removing Casualties") — the option stands while one of them is on the table (``None``:
    while the unit has a model).
    """

    target: str
    hit_faces: Faces
    wound_faces: Faces
    kinds: tuple[WoundKind, ...] = (WoundKind(),)
    hit_on: Optional[int] = None
    wound_on: Optional[int] = None
    foes: Optional[frozenset[str]] = None

    def steps(self, label: str = "") -> list[Roll]:
        """The hit roll, then the wound roll for the hits (§A.7 steps 5–6, seed "Rolling To
        Hit", "Rolling To Wound")."""
        tag = f" ({label})" if label else ""
        # the pools are made directly: the exact engine makes one for every outcome of every
        # roll, and through dataclasses.replace the distributions of up to 40 dice with two wound
        # kinds take 1.4 to 1.7 times as long
        hit = Roll(f"to hit{tag}", lambda p: p.attacks, self.hit_faces,
                   lambda p, c: StrikePools(p.attacks, p.hits + (c[HIT] if len(c) > HIT else 0), _add(p.wounds, c)))
        wound = Roll(f"to wound{tag}", lambda p: p.hits, self.wound_faces,
                     lambda p, c: StrikePools(p.attacks, 0, _add(p.wounds, c)))
        return [hit, wound]

    def start(self, n: int) -> StrikePools:
        return StrikePools(n, 0, (0,) * len(self.kinds))


@dataclass(frozen=True)
class Pool:
    """Strike Groups of one step that roll their dice as one when they strike the same target:
    groups told apart only by their options' ``foes`` (40k 3rd: models of one weapon near
    different enemy models). ``key`` tells the pools of a step apart; ``models``: every model of
    the pool, in the order the log lists them. A pool's groups have one wound kind each, so
    taking their dice one group after another (the exact engine) is rolling them together."""

    key: int
    models: tuple[str, ...]


@dataclass(frozen=True)
class StrikeGroup:
    """Models of one unit striking together in one Initiative step with the same dice.

    ``dice``: ``(model id, attack dice)`` per striking model; ``against``: target options in
    order of preference — the group strikes the first that still stands at the start of the
    step (its unit has a model, or one of its ``foes``: a model whose foe has fallen strikes a
    fresh opponent, seed "Removing Casualties"); ``label`` names the group in the log; ``info``:
    what the system wants shown (weapon, Initiative, save ...); ``pool``: the groups it rolls
    with (:class:`Pool`).
    """

    unit: str
    label: str
    dice: tuple[tuple[str, int], ...]
    against: tuple[Against, ...]
    info: dict[str, object] = field(default_factory=dict, compare=False, hash=False)
    pool: Optional[Pool] = None

    @property
    def models(self) -> tuple[str, ...]:
        return tuple(m for m, _ in self.dice)


class RollLog(TypedDict):
    """One step of :func:`roll_strike`: its purpose, the number of dice, their values and how
    many fell in each category."""

    step: str
    dice: int
    values: list[int]
    counts: list[int]


def roll_strike(against: Against, n: int, dice: Dice, label: str = "") -> tuple[tuple[int, ...], list[RollLog]]:
    """Roll ``n`` attack dice through the steps: (wounds by kind, per-step log)."""
    p = against.start(n)
    log: list[RollLog] = []
    for step in against.steps(label):
        k = step.count(p)
        values: list[int] = dice.roll(k, step.purpose) if k > 0 else []
        counts = step.categorise(values)
        p = step.then(p, counts)
        log.append({"step": step.purpose, "dice": k, "values": values, "counts": list(counts)})
    return p.wounds, log


def strike_distribution(against: Against, n: int) -> Mapping[tuple[int, ...], float]:
    """Exact distribution of the wounds by kind from ``n`` attack dice (same steps). The exact
    engine reads it for one die (:func:`~tapeline.rules.melee.chains.per_die`)."""
    dist = {against.start(n): 1.0}
    for step in against.steps():
        new: defaultdict[StrikePools, float] = defaultdict(float)
        for p, q in dist.items():
            for counts, r in step.outcomes(step.count(p)).items():
                new[step.then(p, counts)] += q * r
        dist = dict(new)
    out: defaultdict[tuple[int, ...], float] = defaultdict(float)
    for p, q in dist.items():
        out[p.wounds] += q
    return dict(out)
