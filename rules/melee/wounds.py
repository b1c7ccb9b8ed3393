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
:func:`take` — the random resolution and the exact distribution cannot drift apart; so does the
exact engine's chain of a unit's losses (:class:`~tapeline.rules.melee.chains.Chain`).

>>> marines = tuple(Defender(f"m{i}", 1, save=3) for i in range(3))
>>> d = allocate_distribution(marines, Losses(), (WoundKind(),), (2,))
>>> round(d[Losses(0, 0)], 6), round(d[Losses(2, 0)], 6)    # two wounds, 3+ save: none lost (2/3)², both (1/3)²
(0.444444, 0.111111)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Mapping, NamedTuple, Optional, Sequence, TypedDict

from ..dice import Dice
from .charts import faces_at_least, save_on
from .strike import Faces, WoundKind

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


def unsaved_chance(m: Defender, kind: WoundKind) -> float:
    """P(a wound of ``kind`` on ``m`` is neither saved nor mitigated)."""
    return unsaved_faces(m, kind).count(UNSAVED) / 6.0 * mitigation_faces(m).count(UNSAVED) / 6.0


def allocate_distribution(order: Order, start: Losses, kinds: Kinds, wounds: Sequence[int]) -> dict[Losses, float]:
    """Exact distribution of the unit's :class:`Losses` after ``wounds[k]`` wounds of
    ``kinds[k]``, taken in kind order, one wound after another (:func:`take` with the
    :func:`unsaved_chance` of the model it reaches): the states with a chance."""
    dist: dict[Losses, float] = {start: 1.0}
    for kind, n in zip(kinds, wounds):
        chances = tuple(unsaved_chance(m, kind) for m in order)
        for _ in range(int(n)):
            dist = _one_wound(order, dist, kind, chances)
    return {s: p for s, p in dist.items() if p > 0}


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
