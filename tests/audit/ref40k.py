"""An independent reference for one round of a 40k 3rd edition close combat, written from the
seed text for the audit (it imports nothing of tapeline's rules).

The round is given by hand: each fighting model with its Initiative slot, its attacks and, per
enemy unit it may strike (in order of preference: its target, then fresh opponents), the to-hit
and to-wound scores read off the seed's charts by the test author; each unit's models in the
order casualties are taken (base contact, then within 2", then the rest), each with its Wounds,
armour save and invulnerable save.

Two independent engines read it:

* :func:`exact` — a Markov chain over single attack dice: within a slot every model strikes with
  the models alive at the start of the slot; each attack hits, wounds, and is saved (or not) by
  the model next in the casualty order; casualties are removed when the slot ends;
* :func:`simulate` — a plain seeded Monte Carlo rolling every die with ``random.Random``.

Both give the distribution of each unit's casualties and the chance each side wins (more wounds
inflicted; enemy destroyed wins outright; equal wounds: a roll-off, equal rolls drawn).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import product
from typing import Optional


def p_at_least(tn: Optional[int]) -> float:
    """P(one D6 scores ``tn`` or more); a 1 always fails; ``None``: impossible."""
    if tn is None or tn > 6:
        return 0.0
    return (7 - max(2, tn)) / 6


@dataclass(frozen=True)
class Model:
    id: str
    wounds: int = 1
    save: Optional[int] = None          # armour save (None: none)
    invulnerable: Optional[int] = None

    def save_on(self, ignores_armour: bool) -> Optional[int]:
        opts = [s for s in ((None if ignores_armour else self.save), self.invulnerable) if s is not None and s <= 6]
        return min(opts) if opts else None


@dataclass(frozen=True)
class Option:
    """One enemy unit a fighter may strike, with the scores read off the charts; ``foes``: its
    models within 2" of the fighter, of which one must still stand for the fighter to strike
    the unit (seed "Removing Casualties": a model whose foe falls strikes a fresh opponent;
    ``None``: any model of the unit will do)."""

    unit: str
    hit: Optional[int]
    wound: Optional[int]
    ignores_armour: bool = False
    foes: Optional[tuple] = None


@dataclass(frozen=True)
class Fighter:
    model: str
    unit: str
    slot: int                     # lower strikes earlier; equal slots strike simultaneously
    attacks: int
    options: tuple                # Option, ... (first: its target; then fresh opponents)


@dataclass
class Unit:
    id: str
    side: str
    order: list                   # Model, ... in casualty order


@dataclass
class Round:
    units: list
    fighters: list
    sides: tuple = field(default=())

    def __post_init__(self):
        if not self.sides:
            s = []
            for u in self.units:
                if u.side not in s:
                    s.append(u.side)
            self.sides = tuple(s)


# state: tuple over units of (models removed, damage on the next model)


def _alive(rnd: Round, state: tuple, model: str) -> bool:
    for i, u in enumerate(rnd.units):
        ids = [m.id for m in u.order]
        if model in ids:
            return ids.index(model) >= state[i][0]
    return True


def _has_models(rnd: Round, state: tuple, unit: str) -> bool:
    i = [u.id for u in rnd.units].index(unit)
    return state[i][0] < len(rnd.units[i].order)


def _wound(rnd: Round, state: tuple, unit: str) -> tuple:
    """One unsaved wound on the unit's next model."""
    i = [u.id for u in rnd.units].index(unit)
    removed, dmg = state[i]
    order = rnd.units[i].order
    if removed >= len(order):
        return state
    dmg += 1
    new = (removed + 1, 0) if dmg >= order[removed].wounds else (removed, dmg)
    return state[:i] + (new,) + state[i + 1:]


def _current(rnd: Round, state: tuple, unit: str) -> Optional[Model]:
    i = [u.id for u in rnd.units].index(unit)
    removed = state[i][0]
    return rnd.units[i].order[removed] if removed < len(rnd.units[i].order) else None


def _strikes(rnd: Round, begin: tuple, slot: int) -> list:
    """(option, attacks) for every model of the slot alive at its start."""
    out = []
    for f in rnd.fighters:
        if f.slot != slot or not _alive(rnd, begin, f.model):
            continue
        opt = next((o for o in f.options if _has_models(rnd, begin, o.unit)
                    and (o.foes is None or any(_alive(rnd, begin, m) for m in o.foes))), None)
        if opt is not None:
            out.append((opt, f.attacks))
    return out


def exact(rnd: Round) -> dict:
    """{state: probability} after the round."""
    start = tuple((0, 0) for _ in rnd.units)
    dist = {start: 1.0}
    for slot in sorted({f.slot for f in rnd.fighters}):
        new: dict = defaultdict(float)
        for begin, p in dist.items():
            inner = {begin: p}
            for opt, n in _strikes(rnd, begin, slot):
                pw = p_at_least(opt.hit) * p_at_least(opt.wound)
                for _ in range(n):
                    nxt: dict = defaultdict(float)
                    for s, q in inner.items():
                        m = _current(rnd, s, opt.unit)
                        if m is None:
                            nxt[s] += q
                            continue
                        unsaved = pw * (1 - p_at_least(m.save_on(opt.ignores_armour)))
                        nxt[_wound(rnd, s, opt.unit)] += q * unsaved
                        nxt[s] += q * (1 - unsaved)
                    inner = nxt
            for s, q in inner.items():
                new[s] += q
        dist = dict(new)
    return dist


def simulate(rnd: Round, n: int, seed: int) -> list:
    """``n`` rounds rolled die by die: the list of final states."""
    rng = random.Random(seed)
    d6 = lambda: rng.randint(1, 6)  # noqa: E731
    start = tuple((0, 0) for _ in rnd.units)
    out = []
    for _ in range(n):
        state = start
        for slot in sorted({f.slot for f in rnd.fighters}):
            begin = state
            for opt, k in _strikes(rnd, begin, slot):
                for _a in range(k):
                    if opt.hit is None or d6() < max(2, opt.hit):
                        continue
                    if opt.wound is None or d6() < max(2, opt.wound):
                        continue
                    m = _current(rnd, state, opt.unit)
                    if m is None:
                        continue
                    sv = m.save_on(opt.ignores_armour)
                    if sv is not None and d6() >= max(2, sv):
                        continue
                    state = _wound(rnd, state, opt.unit)
        out.append(state)
    return out


def removed(rnd: Round, state: tuple, unit: str) -> int:
    return state[[u.id for u in rnd.units].index(unit)][0]


def wounds_lost(rnd: Round, state: tuple, unit: str) -> int:
    i = [u.id for u in rnd.units].index(unit)
    r, d = state[i]
    return sum(m.wounds for m in rnd.units[i].order[:r]) + d


def casualties_pmf(rnd: Round, dist: dict, unit: str) -> list:
    size = len(next(u for u in rnd.units if u.id == unit).order)
    out = [0.0] * (size + 1)
    for s, p in dist.items():
        out[removed(rnd, s, unit)] += p
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return out


ROLL_OFF = tuple(sum(f(a, b) for a, b in product(range(1, 7), repeat=2)) / 36
                 for f in (lambda a, b: a > b, lambda a, b: a == b, lambda a, b: a < b))


def verdict(rnd: Round, state: tuple) -> dict:
    """{side: P(wins), "draw": P} for one final state (the roll-off enumerated)."""
    a, b = rnd.sides
    lost = {a: 0, b: 0}
    alive = {a: False, b: False}
    for u in rnd.units:
        lost[u.side] += wounds_lost(rnd, state, u.id)
        alive[u.side] |= _has_models(rnd, state, u.id)
    inflicted = {a: lost[b], b: lost[a]}
    if not alive[a] and not alive[b]:
        return {a: 0.0, b: 0.0, "draw": 1.0}
    if not alive[b]:
        return {a: 1.0, b: 0.0, "draw": 0.0}
    if not alive[a]:
        return {a: 0.0, b: 1.0, "draw": 0.0}
    if inflicted[a] > inflicted[b]:
        return {a: 1.0, b: 0.0, "draw": 0.0}
    if inflicted[b] > inflicted[a]:
        return {a: 0.0, b: 1.0, "draw": 0.0}
    return {a: ROLL_OFF[0], b: ROLL_OFF[2], "draw": ROLL_OFF[1]}


def result(rnd: Round, dist: dict) -> dict:
    out: dict = defaultdict(float)
    for s, p in dist.items():
        for k, v in verdict(rnd, s).items():
            out[k] += p * v
    return dict(out)


def mc_result(rnd: Round, states: list) -> dict:
    return result(rnd, {s: c / len(states) for s, c in _counts(states).items()})


def mc_casualties(rnd: Round, states: list, unit: str) -> list:
    return casualties_pmf(rnd, {s: c / len(states) for s, c in _counts(states).items()}, unit)


def _counts(states: list) -> dict:
    c: dict = defaultdict(int)
    for s in states:
        c[s] += 1
    return c
