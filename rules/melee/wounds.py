"""Taking wounds: one at a time, in a unit's casualty order, each with its save.

A unit's models are taken in a fixed **casualty order** (the system and the defending player
decide it: 40k 3rd base contact first, then within 2"; Horus Heresy a wounded model first).
:class:`Losses` is the unit's state: how many models of that order are gone and how much damage
the next one has taken. Each wound (§A.7 step 8, seed "Armour Saves"):

1. goes to the next model of the order (none left: the wound is lost);
2. that model takes one save — the better of its armour save (unless the attack ignores armour
   or its AP is as good) and its invulnerable save (:func:`~tapeline.rules.melee.charts.save_on`);
3. if unsaved, an optional damage mitigation roll (Feel No Pain style) may still discard it;
4. the model loses the wound's Damage; at 0 Wounds it is removed. Damage never carries over to
   another model.

:func:`allocate_dice` and :func:`allocate_distribution` read the same :func:`unsaved_faces` and
:func:`take` — the random resolution and the exact distribution cannot drift apart.

>>> marines = tuple(Defender(f"m{i}", 1, save=3) for i in range(3))
>>> d = allocate_distribution(marines, Losses(), (WoundKind(),), (2,))
>>> round(d[Losses(0, 0)], 6), round(d[Losses(2, 0)], 6)    # two wounds, 3+ save: none lost (2/3)², both (1/3)²
(0.444444, 0.111111)
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping, NamedTuple, Optional, Sequence, TypedDict

from ..dice import Dice
from .charts import faces_at_least, save_on
from .strike import Faces, WoundKind, _multinomial, strike_distribution

SAVED, UNSAVED = 1, 0


@dataclass(frozen=True)
class Defender:
    """One model as a target: its Wounds, armour save, invulnerable save and damage mitigation
    (target numbers; ``None`` for none)."""

    id: str
    wounds: int = 1
    save: Optional[int] = None
    invulnerable: Optional[int] = None
    mitigation: Optional[int] = None

    def save_on(self, kind: WoundKind) -> Optional[int]:
        return save_on(self.save, self.invulnerable, kind.ap, kind.ignores_armour)


class Losses(NamedTuple):
    """One unit's state in a combat: the first ``removed`` models of its casualty order are
    gone; the next one has lost ``damage`` wounds. (A named tuple: the exact engine hashes and
    compares millions of them; ordered as ``(removed, damage)``.)"""

    removed: int = 0
    damage: int = 0


#: A unit's models as targets, in casualty order (the first taken first).
Order = tuple[Defender, ...]
#: The kinds of wound a strike can inflict, in the order their counts are given.
Kinds = tuple[WoundKind, ...]


def current(order: Order, losses: Losses) -> Optional[Defender]:
    """The model the next wound goes to (``None``: none left)."""
    return order[losses.removed] if losses.removed < len(order) else None


def take(order: Order, losses: Losses, kind: WoundKind) -> Losses:
    """An unsaved wound of ``kind`` on the current model."""
    m = current(order, losses)
    if m is None:
        return losses
    dmg = losses.damage + max(1, int(kind.damage))
    return Losses(losses.removed + 1, 0) if dmg >= m.wounds else Losses(losses.removed, dmg)


def wounds_lost(order: Order, losses: Losses) -> int:
    """Wounds the unit has lost in all (removed models' Wounds plus the current damage)."""
    return sum(m.wounds for m in order[: losses.removed]) + losses.damage


def unsaved_faces(m: Defender, kind: WoundKind) -> Faces:
    """The save roll's face table: :data:`SAVED` or :data:`UNSAVED` for each face."""
    return faces_at_least(m.save_on(kind), yes=SAVED, no=UNSAVED)


def mitigation_faces(m: Defender) -> Faces:
    return faces_at_least(m.mitigation, yes=SAVED, no=UNSAVED)


@lru_cache(maxsize=4096)
def unsaved_chance(m: Defender, kind: WoundKind) -> float:
    """P(a wound of ``kind`` on ``m`` is neither saved nor mitigated).

    Remembered (``functools.lru_cache``: at most 4,096 chances, the least recently used dropped
    first; safe between threads; :func:`forget` clears it): the exact engine asks it for every
    state of a unit's losses, with a handful of models and kinds."""
    return unsaved_faces(m, kind).count(UNSAVED) / 6.0 * mitigation_faces(m).count(UNSAVED) / 6.0


class WoundsMemo:
    """What the exact engine remembers of taking wounds: for a casualty order and its wound
    kinds, each kind's :func:`unsaved_chance` per model and, by the losses they start from, the
    distribution of the unit's :class:`Losses` after each sequence of wounds worked out (every
    prefix of a sequence is kept: a fight asks for the wounds of every outcome of its strike
    roll, which share their first wounds). A sequence is worked out from the longest of its
    prefixes already kept, one wound at a time — the same steps, in the same order, as from the
    start: the same floats, whatever was asked before.

    **Bound**: ``limit`` entries (a losses state and its chance: about 120 bytes each, so some
    60 MB at the default :data:`LIMIT`). When more are held as a new sequence is to be worked
    out, everything is forgotten and the memory fills again; the sequences one call works out
    are kept whole, so it may pass the limit by that one call's. :meth:`clear` forgets at once.

    **Threads**: one lock serialises every look-up with the work it does, so one memo may be
    shared between threads. The distributions it hands out are never changed afterwards: read
    them only.

    The engine's functions (:func:`allocate_distribution`,
    :func:`~tapeline.rules.melee.combat.round_distribution`,
    :func:`~tapeline.rules.melee.combat.round_odds`) take one as ``memo``; by default they share
    :data:`MEMO`, created below, whose contents :func:`forget` clears.
    """

    #: Entries kept at most by default.
    LIMIT = 500_000

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        #: Entries held now (the sum of the sizes of the distributions kept).
        self.entries = 0
        self._kept: dict[tuple[Order, Kinds], _Kept] = {}
        self._lock = threading.Lock()

    def distribution(self, order: Order, start: Losses, kinds: Kinds, wounds: Sequence[int]) -> Mapping[Losses, float]:
        """The distribution of the unit's losses after ``wounds[k]`` wounds of ``kinds[k]``,
        from ``start`` (see :func:`allocate_distribution`)."""
        counts = tuple(int(n) for n in wounds)
        with self._lock:
            kept = self._kept.get((order, kinds))
            if kept is None:
                kept = self._kept[(order, kinds)] = _Kept([None] * len(kinds), {})
            after = kept.after.get(start)
            if after is None:
                after = kept.after[start] = {}
            got = after.get(counts)
            if got is not None:
                return got
            # walk back, one wound at a time (the last one taken first), to a sequence worked out
            w, back = list(counts), []
            while True:
                k = next((i for i in range(len(w) - 1, -1, -1) if w[i] > 0), None)
                if k is None:
                    dist = {start: 1.0}
                    break
                w[k] -= 1
                back.append(k)
                found = after.get(tuple(w))
                if found is not None:
                    dist = found
                    break
            if self.entries > self.limit:
                self._kept.clear()
                self.entries = 0
                kept = self._kept[(order, kinds)] = _Kept(kept.chances, {start: {}})
                after = kept.after[start]
            for k in reversed(back):
                chances = kept.chances[k]
                if chances is None:
                    chances = kept.chances[k] = tuple(unsaved_chance(m, kinds[k]) for m in order)
                dist = _one_wound(order, dist, kinds[k], chances)
                w[k] += 1
                after[tuple(w)] = dist
                self.entries += len(dist)
            return dist

    def clear(self) -> None:
        """Forget every sequence kept."""
        with self._lock:
            self._kept.clear()
            self.entries = 0


class _Kept(NamedTuple):
    """A :class:`WoundsMemo`'s entry for one casualty order and its wound kinds: each kind's
    unsaved chance per model (``None`` until needed); by starting losses, the distribution
    after each sequence of wounds (wounds by kind) worked out."""

    chances: list[Optional[tuple[float, ...]]]
    after: dict[Losses, dict[tuple[int, ...], dict[Losses, float]]]


#: The memo the exact engine's questions share unless a caller passes its own (one per
#: process; :func:`forget` clears it).
MEMO = WoundsMemo()


def allocate_distribution(order: Order, start: Losses, kinds: Kinds, wounds: Sequence[int],
                          memo: WoundsMemo = MEMO) -> Mapping[Losses, float]:
    """Exact distribution of the unit's :class:`Losses` after ``wounds[k]`` wounds of
    ``kinds[k]``, taken in kind order: one wound after another, from the distribution after the
    longest sequence of the same first wounds that ``memo`` already holds (the same steps, in the
    same order, as from the start: the same floats). The mapping returned is shared: read it only."""
    return memo.distribution(order, start, kinds, wounds)


def _one_wound(order: Order, dist: Mapping[Losses, float], kind: WoundKind,
               chances: tuple[float, ...]) -> dict[Losses, float]:
    """The distribution after one more wound of ``kind`` (``chances``: each model's
    :func:`unsaved_chance`; the step :func:`take` takes, written out)."""
    n, dmg = len(order), max(1, int(kind.damage))
    new: defaultdict[Losses, float] = defaultdict(float)
    for losses, q in dist.items():
        i = losses[0]
        if i >= n:
            new[losses] += q
            continue
        u = chances[i]
        if u > 0:
            d = losses[1] + dmg
            new[Losses(i + 1, 0) if d >= order[i].wounds else Losses(i, d)] += q * u
        if u < 1:
            new[losses] += q * (1 - u)
    return dict(new)


def _uniform(order: Order, losses: Losses, kind: WoundKind) -> bool:
    """Every model still to be taken faces the same save and mitigation: a batch of saves is
    then the same as one at a time."""
    rest = order[losses.removed:]
    return len({(unsaved_faces(m, kind), mitigation_faces(m)) for m in rest}) <= 1


class SaveLog(TypedDict, total=False):
    """One line of :func:`allocate_dice`'s log: a batch of saves (``wounds`` taken on one model
    with ``save_on``, ``unsaved`` of them, the models ``removed``), or the wounds ``lost`` for
    want of a model to take them (and the ``reason``)."""

    wounds: int
    save_on: Optional[int]
    unsaved: int
    removed: list[str]
    lost: int
    reason: str


def allocate_dice(order: Order, start: Losses, kinds: Kinds, wounds: Sequence[int], dice: Dice,
                  label: str = "") -> tuple[Losses, list[SaveLog]]:
    """Take the wounds with real dice. Saves are rolled together while every model left faces
    the same save (the same distribution as one at a time), else one wound at a time."""
    losses = start
    log: list[SaveLog] = []
    tag = f" ({label})" if label else ""
    for kind, n in zip(kinds, wounds):
        left = int(n)
        while left > 0:
            m = current(order, losses)
            if m is None:
                log.append({"lost": left, "reason": "no model left to take them"})
                break
            batch = left if _uniform(order, losses, kind) else 1
            tn = m.save_on(kind)
            unsaved = batch
            if tn is not None and tn <= 6:
                vals = dice.roll(batch, f"save {tn}+{tag}{' ' + kind.label if kind.label else ''}")
                unsaved = sum(1 for v in vals if unsaved_faces(m, kind)[v - 1] == UNSAVED)
            if unsaved and m.mitigation is not None and m.mitigation <= 6:
                vals = dice.roll(unsaved, f"damage mitigation {max(2, m.mitigation)}+{tag}")
                unsaved = sum(1 for v in vals if mitigation_faces(m)[v - 1] == UNSAVED)
            before = losses
            for _ in range(unsaved):
                losses = take(order, losses, kind)
            log.append({"wounds": batch, "save_on": tn, "unsaved": unsaved,
                        "removed": [d.id for d in order[before.removed:losses.removed]]})
            left -= batch
    return losses, log


def forget() -> None:
    """Forget all the exact engine remembers between questions (the dice tables' distributions,
    the unsaved chances, the sequences of wounds :data:`MEMO` keeps): the next question is worked
    out afresh (the benchmarks time a fresh question this way)."""
    for f in (_multinomial, strike_distribution, unsaved_chance):
        f.cache_clear()
    MEMO.clear()
