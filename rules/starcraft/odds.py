"""Exact odds of StarCraft TMG attacks (§8.7.4): distributions, not samples.

:func:`propagate` carries a probability distribution over :class:`~rules.starcraft.attack.Pools`
through the same :class:`~rules.starcraft.attack.Step` objects the dice resolution uses: for
each pool state a step rolls ``count(state)`` dice, whose summed worth is the n-fold
convolution of one die's face distribution, and ``then`` gives the next state. Casualties go
through :func:`rules.starcraft.casualties.allocate`, the same arithmetic as the replay.

Several Batches at one target combine in order (§8.7.3): the state between Batches is the set
of models removed so far and the Damage Marker, so a later Batch sees the casualties and the
carried-over damage of the earlier ones.

>>> from tapeline.rules.starcraft.attack import BatchSpec
>>> spec = BatchSpec(groups=((18, 3, "to hit"),), surge_dice="D3", surge_applies=True, armour=6)
>>> o = batch_odds(spec, hp=1, removable=[f"z{i}" for i in range(18)])
>>> round(o.hits.mean, 6), round(o.damage.mean, 4), round(o.kills.at_least(7), 4), round(o.kills.at_least(10), 4)
(12.0, 10.3333, 0.9699, 0.6596)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ..pmf import PMF
from .attack import BatchSpec, Pools, Step
from .casualties import allocate


def propagate(steps: Sequence[Step], start: Pools = Pools()) -> dict[Pools, float]:
    """The exact distribution of the pools after ``steps``."""
    dist: dict[Pools, float] = {start: 1.0}
    for step in steps:
        new: dict[Pools, float] = defaultdict(float)
        for pools, pr in dist.items():
            out = step.outcomes(step.count(pools))
            for k, q in zip(out.values.tolist(), out.p.tolist()):
                if q > 0.0:
                    new[step.then(pools, k)] += pr * q
        dist = dict(new)
    return dist


def marginal(dist: dict[Pools, float], field: str) -> PMF:
    acc: dict[int, float] = defaultdict(float)
    for pools, pr in dist.items():
        acc[getattr(pools, field)] += pr
    return PMF.from_dict(acc)


@dataclass(frozen=True)
class BatchTarget:
    """What casualties depend on: the removable models in the order they would be taken (the
    documented default choice), HP per model, the unit's Shield, CONCENTRATED FIRE cap."""

    removable: tuple[str, ...]
    hp: int
    shield: int = 0
    cap: Optional[int] = None


@dataclass
class AttackOdds:
    """Exact distributions of one attack (one or more Batches at one target, in order)."""

    hits: PMF
    damage_dice: PMF
    damage: PMF
    kills: PMF
    marker: PMF
    dice: int

    def summary(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "mean_hits": self.hits.mean,
            "mean_damage_dice": self.damage_dice.mean,
            "mean_damage": self.damage.mean,
            "mean_kills": self.kills.mean,
            "hits_pmf": self.hits.as_list(),
            "damage_dice_pmf": self.damage_dice.as_list(),
            "damage_pmf": self.damage.as_list(),
            "kills_pmf": self.kills.as_list(),
            "kills_at_least": self.kills.at_least_list(),
            "marker_pmf": self.marker.as_list(),
        }


def attack_odds(batches: Sequence[tuple[BatchSpec, BatchTarget]], marker: int = 0,
                removed_before: int = 0) -> AttackOdds:
    """Combine Batches at one target in order; ``marker`` is the Damage Marker before the
    attack, ``removed_before`` how many of the unit's models were already removed (the Shield
    rides on the first model only while it lives)."""
    hits, dice_pmf, dmg = PMF.point(0), PMF.point(0), PMF.point(0)
    states: dict[tuple[tuple[str, ...], int], float] = {((), int(marker)): 1.0}
    for spec, tgt in batches:
        final = propagate(spec.steps())
        hits = hits + marginal(final, "hits")
        dd = marginal(final, "damage")
        dice_pmf = dice_pmf + dd
        step = spec.damage_step
        dmg = dmg + dd.map(step.dealt)
        new: dict[tuple[tuple[str, ...], int], float] = defaultdict(float)
        for (gone, mk), pr in states.items():
            avail = [m for m in tgt.removable if m not in gone]
            bonus = tgt.shield if (tgt.shield and not gone and not removed_before) else 0
            for d, q in zip(dd.values.tolist(), dd.p.tolist()):
                if q <= 0.0:
                    continue
                a = allocate(step.dealt(d) + mk, tgt.hp, len(avail), bonus, tgt.cap)
                new[(gone + tuple(avail[: a.kills]), a.marker)] += pr * q
        states = dict(new)
    kills: dict[int, float] = defaultdict(float)
    markers: dict[int, float] = defaultdict(float)
    for (gone, mk), pr in states.items():
        kills[len(gone)] += pr
        markers[mk] += pr
    total_dice = sum(spec.dice for spec, _ in batches)
    return AttackOdds(hits, dice_pmf, dmg, PMF.from_dict(kills), PMF.from_dict(markers), total_dice)


def batch_odds(spec: BatchSpec, hp: int, removable: Sequence[str], shield: int = 0,
               cap: Optional[int] = None, marker: int = 0) -> AttackOdds:
    """One Batch at one target."""
    return attack_odds([(spec, BatchTarget(tuple(removable), hp, shield, cap))], marker)
