"""One round of close combat in Initiative steps: the dice engine and the exact engine.

A :class:`Combat` is everything the dice depend on, already worked out from the board by the
rule system: the units with their casualty orders (:class:`CombatUnit`) and the
:class:`InitiativeStep` list in the order they strike (40k 3rd: models in cover first, then
Initiative from highest to lowest, power fists last; Horus Heresy: Combat Initiative from
highest to lowest). In each step every :class:`~tapeline.rules.melee.strike.StrikeGroup` strikes
with the models it had **at the start of the step** (simultaneous strikes), and the casualties
are removed at the end of the step, before the next strikes.

The state of the combat is one :class:`~tapeline.rules.melee.wounds.Losses` per unit.
:func:`resolve_round` rolls it with dice; :func:`round_distribution` pushes the exact joint
distribution over those states through the same steps — never the product of per-side answers,
since an earlier step's casualties remove later attackers.

>>> from tapeline.rules.melee.charts import faces_at_least
>>> from tapeline.rules.melee.strike import Against, StrikeGroup, WoundKind, wound_category
>>> from tapeline.rules.melee.wounds import Defender
>>> hits_all = lambda target: Against(target, faces_at_least(2), faces_at_least(2, yes=wound_category(0)))
>>> a = CombatUnit("a", "red", (Defender("a1"),))
>>> b = CombatUnit("b", "blue", (Defender("b1"),))
>>> fast = InitiativeStep("I5", (StrikeGroup("a", "a1", (("a1", 1),), (hits_all("b"),)),))
>>> slow = InitiativeStep("I3", (StrikeGroup("b", "b1", (("b1", 1),), (hits_all("a"),)),))
>>> o = round_odds(Combat((a, b), (fast, slow)))
>>> round(o.removed_pmf("b").prob(1), 6), round(o.removed_pmf("a").prob(1), 6)   # 25/36; 11/36 · 25/36
(0.694444, 0.212191)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, ItemsView, Optional, Required, TypedDict

from ..dice import Dice
from ..pmf import PMF
from .strike import Against, RollLog, StrikeGroup, roll_strike, strike_distribution
from .wounds import MEMO, Defender, Losses, Order, SaveLog, WoundsMemo, allocate_dice, allocate_distribution, wounds_lost

#: The combat's state: one :class:`~tapeline.rules.melee.wounds.Losses` per unit, in the order
#: of :attr:`Combat.units`.
State = tuple[Losses, ...]


@dataclass(frozen=True)
class CombatUnit:
    """A unit in the combat: its side, its models as targets in **casualty order** (every
    model that may be removed, the first taken first), and its losses before the round."""

    id: str
    side: str
    order: Order
    start: Losses = Losses()

    @cached_property
    def position(self) -> dict[str, int]:
        return {d.id: i for i, d in enumerate(self.order)}

    def alive(self, losses: Losses, model: str) -> bool:
        """Is ``model`` still on the table in this state? (models not in the order always are)"""
        i = self.position.get(model)
        return i is None or i >= losses.removed

    def has_models(self, losses: Losses) -> bool:
        return losses.removed < len(self.order)

    def removed(self, before: Losses, after: Losses) -> list[str]:
        return [d.id for d in self.order[before.removed:after.removed]]


@dataclass(frozen=True)
class InitiativeStep:
    """Strike Groups that strike simultaneously; ``label`` / ``info`` describe the step
    (Initiative value, "in cover", "last")."""

    label: str
    groups: tuple[StrikeGroup, ...]
    info: dict[str, object] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Combat:
    units: tuple[CombatUnit, ...]
    steps: tuple[InitiativeStep, ...]

    @cached_property
    def index(self) -> dict[str, int]:
        return {u.id: i for i, u in enumerate(self.units)}

    def unit(self, unit_id: str) -> CombatUnit:
        return self.units[self.index[unit_id]]

    def start(self) -> State:
        return tuple(u.start for u in self.units)

    def attack_dice(self, group: StrikeGroup, state: State) -> int:
        """The group's attack dice from the models it still has in ``state``."""
        u = self.unit(group.unit)
        losses = state[self.index[u.id]]
        return sum(int(n) for m, n in group.dice if u.alive(losses, m))

    def against(self, group: StrikeGroup, state: State) -> Optional[Against]:
        """The first target option whose unit still has a model (``None``: no foe left)."""
        for a in group.against:
            i = self.index.get(a.target)
            if i is not None and self.units[i].has_models(state[i]):
                return a
        return None

    def sides(self) -> list[str]:
        out: list[str] = []
        for u in self.units:
            if u.side not in out:
                out.append(u.side)
        return out


# --- the dice engine ---------------------------------------------------------------------------


class GroupLog(TypedDict, total=False):
    """One Strike Group in :func:`resolve_round`'s log: who struck (the models still there),
    with how many attack dice, at which target; then either a ``note`` (no attacks, no enemy
    left) or the target numbers, the dice of each step (``rolls``), the wounds by kind, the
    saves and the wounds the target lost; with ``collect_events``, the roll ``events``."""

    unit: Required[str]
    group: Required[str]
    models: Required[list[str]]
    attacks: Required[int]
    target: Required[Optional[str]]
    note: str
    hit_on: Optional[int]
    wound_on: Optional[int]
    rolls: list[RollLog]
    wounds: list[int]
    saves: list[SaveLog]
    wounds_lost: int
    events: list[dict[str, object]]


class StepLog(TypedDict):
    """One Initiative step in :func:`resolve_round`'s log: its groups and the models removed
    at its end, by unit."""

    step: str
    groups: list[GroupLog]
    removed: dict[str, list[str]]


@dataclass
class RoundLog:
    """What :func:`resolve_round` did: the final state and, per step, per group, the dice."""

    state: State
    steps: list[StepLog]


def resolve_round(combat: Combat, dice: Dice, collect_events: bool = False) -> RoundLog:
    """Fight one round with dice (every roll recorded by ``dice`` with its purpose). With
    ``collect_events`` each group's roll events are taken from ``dice`` into its log entry
    (``"events"``), so a caller can interleave them with its own."""
    state = combat.start()
    out: list[StepLog] = []
    for step in combat.steps:
        begin = state
        groups: list[GroupLog] = []
        for g in step.groups:
            n = combat.attack_dice(g, begin)
            a = combat.against(g, begin)
            entry: GroupLog = {"unit": g.unit, "group": g.label, "models": [m for m, _ in g.dice if combat.unit(g.unit).alive(begin[combat.index[g.unit]], m)],
                     "attacks": n, "target": a.target if a else None}
            if n == 0 or a is None:
                entry["note"] = "no attacks" if n == 0 else "no enemy model left to strike"
                groups.append(entry)
                continue
            wounds, rolls = roll_strike(a, n, dice, f"{g.label} vs {a.target}")
            ti = combat.index[a.target]
            tu = combat.units[ti]
            after, saves = allocate_dice(tu.order, state[ti], a.kinds, wounds, dice, a.target)
            entry.update({"hit_on": a.hit_on, "wound_on": a.wound_on, "rolls": rolls, "wounds": list(wounds), "saves": saves,
                          "wounds_lost": wounds_lost(tu.order, after) - wounds_lost(tu.order, state[ti])})
            if collect_events:
                entry["events"] = dice.take_events()
            state = state[:ti] + (after,) + state[ti + 1:]
            groups.append(entry)
        removed = {u.id: u.removed(begin[i], state[i]) for i, u in enumerate(combat.units) if u.removed(begin[i], state[i])}
        out.append({"step": step.label, "groups": groups, "removed": removed})
    return RoundLog(state, out)


# --- the exact engine ---------------------------------------------------------------------------


def _step(combat: Combat, step: InitiativeStep, begin: State, memo: WoundsMemo) -> dict[State, float]:
    """Exact distribution of the state after ``step`` from ``begin`` (the wounds taken through
    ``memo``)."""
    sub = {begin: 1.0}
    for g in step.groups:
        n = combat.attack_dice(g, begin)
        a = combat.against(g, begin)
        if n == 0 or a is None:
            continue
        W = strike_distribution(a, n)
        ti = combat.index[a.target]
        tu = combat.units[ti]
        new: defaultdict[State, float] = defaultdict(float)
        # the target's losses after w, by its losses before (states share them)
        taken: dict[Losses, list[tuple[float, ItemsView[Losses, float]]]] = {}
        for s, q in sub.items():
            head, tail = s[:ti], s[ti + 1:]
            by_w = taken.get(s[ti])
            if by_w is None:
                by_w = taken[s[ti]] = [(r, allocate_distribution(tu.order, s[ti], a.kinds, w, memo).items()) for w, r in W.items()]
            for r, after_dist in by_w:
                qr = q * r  # (q * r) * r2, as the product is read left to right
                for after, r2 in after_dist:
                    new[head + (after,) + tail] += qr * r2
        sub = dict(new)
    return sub


def round_distribution(combat: Combat, memo: WoundsMemo = MEMO) -> dict[State, float]:
    """The exact joint distribution over the state (one Losses per unit) after the round.
    ``memo``: what the engine remembers of taking wounds (:class:`~tapeline.rules.melee.wounds.WoundsMemo`;
    by default the one every question shares, :data:`~tapeline.rules.melee.wounds.MEMO`)."""
    dist = {combat.start(): 1.0}
    for step in combat.steps:
        new: defaultdict[State, float] = defaultdict(float)
        for s, p in dist.items():
            for t, q in _step(combat, step, s, memo).items():
                new[t] += p * q
        dist = dict(new)
    return dist


@dataclass
class RoundOdds:
    """The exact distribution of a round and what is read off it."""

    combat: Combat
    dist: dict[State, float]

    def pmf(self, f: Callable[[State], int]) -> PMF:
        acc: defaultdict[int, float] = defaultdict(float)
        for s, p in self.dist.items():
            acc[int(f(s))] += p
        return PMF.from_dict(acc)

    def probability(self, pred: Callable[[State], bool]) -> float:
        return float(sum(p for s, p in self.dist.items() if pred(s)))

    def removed(self, state: State, unit: str) -> int:
        """Models of ``unit`` removed during the round in ``state``."""
        i = self.combat.index[unit]
        return state[i].removed - self.combat.units[i].start.removed

    def wounds_lost(self, state: State, unit: str) -> int:
        """Wounds ``unit`` lost during the round in ``state``."""
        i = self.combat.index[unit]
        u = self.combat.units[i]
        return wounds_lost(u.order, state[i]) - wounds_lost(u.order, u.start)

    def removed_pmf(self, unit: str) -> PMF:
        return self.pmf(lambda s: self.removed(s, unit))

    def wounds_lost_pmf(self, unit: str) -> PMF:
        return self.pmf(lambda s: self.wounds_lost(s, unit))


def round_odds(combat: Combat, memo: WoundsMemo = MEMO) -> RoundOdds:
    """The round's exact distribution (:func:`round_distribution`) and what is read off it."""
    return RoundOdds(combat, round_distribution(combat, memo))


__all__ = ["Combat", "CombatUnit", "Defender", "GroupLog", "InitiativeStep", "RoundLog", "RoundOdds", "State", "StepLog", "resolve_round",
           "round_distribution", "round_odds"]
