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

import itertools
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Optional, Required, Sequence, TypedDict

import numpy as np
from numpy.typing import NDArray

from ..dice import Dice
from ..pmf import PMF
from .chains import Bool, Chain, Floats, Ints, after_dice
from .strike import Against, RollLog, StrikeGroup, roll_strike
from .wounds import Defender, Losses, Order, SaveLog, allocate_dice, wounds_lost

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

    def reachable(self, losses: Losses, against: Against) -> bool:
        """Does ``against`` stand in this state: one of its ``foes`` on the table, or without
        foes a model of the unit (:meth:`Chain.reachable <tapeline.rules.melee.chains.Chain.reachable>`)?"""
        if against.foes is None:
            return self.has_models(losses)
        return any(self.alive(losses, m) for m in against.foes)

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
        """The first target option that still stands — its unit has a model, or one of its
        ``foes`` (``None``: no foe left within reach)."""
        for a in group.against:
            i = self.index.get(a.target)
            if i is not None and self.units[i].reachable(state[i], a):
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
        for g, models, n, a in _pooled(combat, step, begin):
            entry: GroupLog = {"unit": g.unit, "group": g.label, "models": models, "attacks": n, "target": a.target if a else None}
            if n == 0 or a is None:
                entry["note"] = "no attacks" if n == 0 else "no enemy model left within reach to strike"
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


def _pooled(combat: Combat, step: InitiativeStep,
            begin: State) -> list[tuple[StrikeGroup, list[str], int, Optional[Against]]]:
    """The step's rolls at its start: per group (the groups of one :class:`~tapeline.rules.melee.strike.Pool`
    striking the same target together), the models still there, their attack dice and the
    target option (``None``: no foe left)."""
    rolls: dict[object, tuple[StrikeGroup, list[str], int, Optional[Against]]] = {}
    for k, g in enumerate(step.groups):
        u = combat.unit(g.unit)
        models = [m for m, _ in g.dice if u.alive(begin[combat.index[g.unit]], m)]
        n, a = combat.attack_dice(g, begin), combat.against(g, begin)
        key: object = k if g.pool is None else (g.pool.key, a.target if a else None)
        if key in rolls:
            first, had, m, _a = rolls[key]
            rank = {x: i for i, x in enumerate(g.pool.models if g.pool else ())}
            rolls[key] = (first, sorted(had + models, key=lambda x: rank.get(x, len(rank))), m + n, _a)
        else:
            rolls[key] = (g, models, n, a)
    return list(rolls.values())


# --- the exact engine ---------------------------------------------------------------------------


def _support(joint: Floats, axis: int) -> Ints:
    """The states of unit ``axis`` with some chance in ``joint``."""
    others = tuple(k for k in range(joint.ndim) if k != axis)
    return np.flatnonzero(joint.sum(axis=others) > 0)


@dataclass(frozen=True)
class _Group:
    """A Strike Group as the exact engine reads it: the attacker's axis, its attack dice in each
    of the attacker's states, its target options (the option and the target's axis) and, in
    each state of the target, whether the option stands (:meth:`Chain.reachable`)."""

    attacker: int
    dice: Ints
    options: tuple[tuple[Against, int], ...]
    stands: tuple[Bool, ...]

    @property
    def chooses(self) -> bool:
        """Does the option it strikes depend on the state (several options, or foes)? With one
        option of a whole unit, it strikes it: from a state with no model left its dice move
        nothing."""
        return len(self.options) > 1 or any(a.foes is not None for a, _t in self.options)


def _classes(groups: Sequence[_Group], chains: Sequence[Chain], spans: Sequence[int], axis: int,
             support: Ints) -> list[Ints]:
    """The states of unit ``axis`` (among ``support``) split by what the step's groups read off
    it at the start of the step: a group's attack dice if it is the attacker, whether a model is
    left if it is one of several target options. Every state of a class strikes alike."""
    cols = [g.dice for g in groups if g.attacker == axis]
    cols += [stands[:spans[axis]].astype(np.int64) for g in groups if g.chooses
             for (_a, t), stands in zip(g.options, g.stands) if t == axis]
    if not cols:
        return [support]
    keys = np.stack(cols, axis=1)[support]
    _u, label = np.unique(keys, axis=0, return_inverse=True)
    label = label.reshape(-1)
    return [support[label == c] for c in range(int(label.max()) + 1)]


def _push(combat: Combat, chains: Sequence[Chain], spans: Sequence[int], step: InitiativeStep, joint: Floats) -> Floats:
    """The joint distribution after ``step``: the states are split into classes that strike
    alike (the models each group has at the start of the step, the options left to it); in each
    class every group's wounds are taken along its target's axis as one array operation (the
    losses after its dice from each starting state, :func:`~tapeline.rules.melee.chains.after_dice`,
    worked out once for the step for every dice count and starting state it meets)."""
    U = joint.ndim
    groups: list[_Group] = []
    for g in step.groups:
        ai = combat.index[g.unit]
        options = tuple((a, combat.index[a.target]) for a in g.against if a.target in combat.index)
        groups.append(_Group(ai, chains[ai].dice(g.dice, spans[ai]), options, tuple(chains[t].reachable(a) for a, t in options)))
    support = [_support(joint, u) for u in range(U)]
    classes = [_classes(groups, chains, spans, u, support[u]) for u in range(U)]

    def strikes(gi: int, rep: Sequence[int]) -> Optional[tuple[int, int]]:
        """(option, dice) of group ``gi`` in a class whose first states are ``rep`` (``None``: no
        attacks, or no option standing: :attr:`_Group.chooses`)."""
        g = groups[gi]
        n = int(g.dice[rep[g.attacker]])
        if not g.chooses:
            o: Optional[int] = 0
        else:
            o = next((k for k, ((_a, t), stands) in enumerate(zip(g.options, g.stands)) if stands[rep[t]]), None)
        return None if n == 0 or o is None else (o, n)

    # the combinations of classes with some chance: each class's first state, its states on
    # every axis, its block of the joint distribution
    blocks: list[tuple[list[int], list[Ints], Floats]] = []
    for combo in itertools.product(*classes):
        at = [np.asarray(cl) for cl in combo]
        block = joint[np.ix_(*at)]
        if block.any():
            blocks.append(([int(cl[0]) for cl in combo], at, block))
    # the losses each group's dice bring from the states its target may be in at that point of
    # the step: the target's states at the start of the step, or any later one after an earlier
    # group of the step struck the same unit
    moves: list[dict[tuple[int, int], tuple[Ints, Floats]]] = []
    struck: set[int] = set()
    for gi, grp in enumerate(groups):
        wanted: dict[int, set[int]] = {}
        for first, _at, _block in blocks:
            got = strikes(gi, first)
            if got is not None:
                wanted.setdefault(got[0], set()).add(got[1])
        table: dict[tuple[int, int], tuple[Ints, Floats]] = {}
        for o, ns in wanted.items():
            a, t = grp.options[o]
            rows = support[t] if t not in struck else np.arange(int(support[t].min()), spans[t])
            counts = np.array(sorted(ns), dtype=np.int64)
            after = after_dice(chains[t].strikes(a), chains[t].size, np.tile(rows, len(counts)), np.repeat(counts, len(rows)))
            for k, n in enumerate(counts):
                table[(o, int(n))] = (rows, after[k * len(rows):(k + 1) * len(rows)])
        moves.append(table)
        struck |= {t for _a, t in grp.options}
    out = np.zeros_like(joint)
    for first, at, block in blocks:
        for gi in range(len(groups)):
            got = strikes(gi, first)
            if got is None:
                continue
            t = groups[gi].options[got[0]][1]
            rows, after = moves[gi][got]
            live = _support(block, t)
            block = np.moveaxis(np.tensordot(block.take(live, axis=t), after[np.searchsorted(rows, at[t][live])], axes=([t], [0])), -1, t)
            at[t] = np.arange(spans[t])
        out[np.ix_(*at)] += block
    return out


def round_odds(combat: Combat) -> "RoundOdds":
    """The round's exact joint distribution over every unit's losses, pushed through its steps
    (:func:`_push`), and what is read off it. A unit no group strikes keeps its start."""
    chains = tuple(Chain(u.order, u.start) for u in combat.units)
    struck = {a.target for step in combat.steps for g in step.groups for a in g.against}
    spans = tuple(ch.size if u.id in struck else 1 for u, ch in zip(combat.units, chains))
    joint = np.zeros(spans)
    joint[(0,) * len(spans)] = 1.0
    for step in combat.steps:
        joint = _push(combat, chains, spans, step, joint)
    return RoundOdds(combat, chains, joint)


def round_distribution(combat: Combat) -> dict[State, float]:
    """The exact joint distribution over the state (one Losses per unit) after the round: every
    state with a chance (:attr:`RoundOdds.dist`)."""
    return round_odds(combat).dist


@dataclass(eq=False)
class RoundOdds:
    """The exact distribution of a round and what is read off it.

    ``joint``: the chance of each combination of the units' states, axis ``k`` for unit ``k`` of
    :attr:`Combat.units` along its :class:`~tapeline.rules.melee.chains.Chain` (index 0: its losses
    at the start; a unit no group strikes has that one state). :attr:`dist` lists the states
    with a chance as :data:`State` tuples; :meth:`values` and :meth:`chance` read a question off
    the array at once."""

    combat: Combat
    chains: tuple[Chain, ...]
    joint: Floats

    @cached_property
    def dist(self) -> dict[State, float]:
        """``{state: chance}`` for every state with a chance (in the order of the array)."""
        where = np.nonzero(self.joint)
        chance = self.joint[where]
        picked = [[ch.states[i] for i in idx.tolist()] for ch, idx in zip(self.chains, where)]
        return {tuple(col): float(p) for col, p in zip(zip(*picked), chance.tolist())}

    def states(self, unit: str) -> tuple[Losses, ...]:
        """The states of ``unit`` along its axis of :attr:`joint`."""
        i = self.combat.index[unit]
        return self.chains[i].states[: self.joint.shape[i]]

    def values(self, unit: str, per_state: Sequence[float] | NDArray[Any]) -> NDArray[Any]:
        """``per_state`` (one value per state of ``unit``, :meth:`states`) laid along the unit's
        axis, to combine with :attr:`joint` and other units' values by broadcasting."""
        i = self.combat.index[unit]
        shape = [1] * self.joint.ndim
        shape[i] = self.joint.shape[i]
        return np.asarray(per_state).reshape(shape)

    def chance(self, mask: NDArray[Any]) -> float:
        """The chance of the states where ``mask`` (broadcast against :attr:`joint`) holds."""
        return float(self.joint[np.broadcast_to(mask, self.joint.shape)].sum())

    def marginal(self, unit: str) -> Floats:
        """The chance of each state of ``unit`` (:meth:`states`)."""
        return _marginal(self.joint, self.combat.index[unit])

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

    def _by(self, unit: str, per_state: Ints) -> PMF:
        i = self.combat.index[unit]
        return PMF(np.bincount(per_state[: self.joint.shape[i]], weights=self.marginal(unit)).astype(np.float64))

    def removed_pmf(self, unit: str) -> PMF:
        ch = self.chains[self.combat.index[unit]]
        return self._by(unit, ch.removed - ch.start.removed)

    def wounds_lost_pmf(self, unit: str) -> PMF:
        ch = self.chains[self.combat.index[unit]]
        return self._by(unit, ch.lost - ch.lost[0])


def _marginal(joint: Floats, axis: int) -> Floats:
    others = tuple(k for k in range(joint.ndim) if k != axis)
    out: Floats = joint.sum(axis=others)
    return out


__all__ = ["Combat", "CombatUnit", "Defender", "GroupLog", "InitiativeStep", "RoundLog", "RoundOdds", "State", "StepLog", "resolve_round",
           "round_distribution", "round_odds"]
