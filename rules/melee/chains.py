"""A unit's losses as a chain of states, wounds and attack dice as moves along it: the arrays
the exact engine (:func:`~tapeline.rules.melee.combat.round_odds`) pushes.

A unit's models are taken in a fixed casualty order and Damage never carries over, so its losses
only ever go forward along one **chain** of states, one :class:`~tapeline.rules.melee.wounds.Losses`
(models removed, damage on the next) per wound it can lose: :class:`Chain` lists them from the
unit's losses at the start of the round. Identical models need no more than their count: a
unit of 100 two-Wound Legionaries has 201 states, whichever of them fell.

* **One wound** of some kind is a :class:`Move` along the chain: from each state, on to the state
  :func:`~tapeline.rules.melee.wounds.take` gives, with the chance that the model there neither
  saves nor mitigates it (:func:`~tapeline.rules.melee.wounds.unsaved_chance`), else nowhere —
  the very functions the dice engine reads (:func:`~tapeline.rules.melee.wounds.allocate_dice`).
* **One attack die** gives at most one wound: a wound of kind k with chance r_k
  (:func:`per_die`: the hit roll, then the wound roll, of
  :func:`~tapeline.rules.melee.strike.strike_distribution` for one die). With one kind the
  ``n`` dice of a group are ``n`` independent folded moves: from each state on with chance
  r · unsaved chance there (:meth:`Move.folded`), so the losses after them are the start pushed
  through that move ``n`` times — the binomial of the wounds and their saves at once.
* **Several kinds** are taken in kind order (§A.7: wounds with a modified rule after the
  ordinary ones), so the wounds of the last kind come after all the others. Given ``w`` of them
  (binomial, r_last), the other ``n − w`` dice are wounds of the first kinds with chances
  r_k / (1 − r_last): the losses are Σ_w Bin(w; n, r_last) · [``n − w`` dice of the first
  kinds] · T_last^w, summed by Horner's rule over ``w`` (:func:`after_dice`) — multinomial by
  convolution, never a table of every vector of wound counts.

Everything is array arithmetic over all the starting states and dice counts asked at once.
Nothing is remembered between calls.

>>> from tapeline.rules.melee.charts import faces_at_least
>>> from tapeline.rules.melee.strike import wound_category
>>> from tapeline.rules.melee.wounds import Defender
>>> ch = Chain((Defender("sergeant", 2, save=3), Defender("legionary", 1, save=3)))
>>> [tuple(s) for s in ch.states]                   # (models removed, damage on the next)
[(0, 0), (0, 1), (1, 0), (2, 0)]
>>> a = Against("squad", faces_at_least(4), faces_at_least(4, yes=wound_category(0)))
>>> [round(r, 6) for r, _move in ch.strikes(a)]    # hit 4+, wound 4+: 1/4 a die
[0.25]
>>> d = after_dice(ch.strikes(a), ch.size, np.array([0]), np.array([2]))[0]
>>> d.round(6).tolist()                               # each die unsaved 1/12: (11/12)², 2 · 11/12 · 1/12, (1/12)²
[0.840278, 0.152778, 0.006944, 0.0]
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numpy.typing import NDArray

from .strike import Against, WoundKind, strike_distribution
from .wounds import Losses, Order, current, take, unsaved_chance, wounds_lost

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]
Bool = NDArray[np.bool_]

#: The most floats one batch of :func:`after_dice` holds at once for its table of the first
#: kinds' losses (32 MB); larger batches are taken a few starting states at a time.
BATCH_FLOATS = 4_000_000


class Move:
    """From each state ``i`` of a chain: on to state ``i + jump[i]`` with chance ``go[i]``,
    else stay."""

    def __init__(self, go: Floats, jump: Ints) -> None:
        self.go = go
        self.jump = jump
        self.stay = 1.0 - go
        # the states that move by j, each with its chance (one slice per distance)
        self._legs = [(int(j), (go * (jump == j))[:-int(j)]) for j in np.unique(jump[go > 0])]

    def after(self, x: Floats) -> Floats:
        """``x`` (distributions over the chain's states, last axis) after the move."""
        y = x * self.stay
        for j, go in self._legs:
            y[..., j:] += x[..., :-j] * go
        return y

    def folded(self, r: float) -> "Move":
        """One attack die that brings this wound with chance ``r``."""
        return Move(self.go * r, self.jump)

    def same(self, other: "Move") -> bool:
        """The same move (the same chances, the same destinations where it can move)."""
        return bool(np.array_equal(self.go, other.go) and np.array_equal(self.jump[self.go > 0], other.jump[other.go > 0]))

    def idle(self) -> bool:
        """Moves nowhere from any state (a wound every model saves)."""
        return not bool(self.go.any())


class Chain:
    """One unit's states of losses from ``start`` on, in its casualty order ``order``: state 0
    is ``start``, each further state one more wound lost, the last every model removed."""

    def __init__(self, order: Order, start: Losses = Losses()) -> None:
        self.order = order
        self.start = start
        states = [start]
        r, d = start.removed, start.damage + 1
        while r < len(order):
            states += [Losses(r, k) for k in range(d, order[r].wounds)]
            r, d = r + 1, 0
            if r == len(order):
                states.append(Losses(r, 0))
        self.states: tuple[Losses, ...] = tuple(states)
        self.index = {s: i for i, s in enumerate(states)}
        self.size = len(states)
        #: models removed, wounds lost, whether a model is left, in each state
        self.removed: Ints = np.array([s.removed for s in states], dtype=np.int64)
        self.lost: Ints = np.array([wounds_lost(order, s) for s in states], dtype=np.int64)
        self.has_models = self.removed < len(order)

    def wound(self, kind: WoundKind) -> Move:
        """One wound of ``kind`` on the model each state leaves next (:func:`take`, with its
        :func:`unsaved_chance`)."""
        go = np.zeros(self.size)
        jump = np.zeros(self.size, dtype=np.int64)
        for i, s in enumerate(self.states):
            m = current(self.order, s)
            if m is not None:
                go[i] = unsaved_chance(m, kind)
                jump[i] = self.index[take(self.order, s, kind)] - i
        return Move(go, jump)

    def dice(self, models: Sequence[tuple[str, int]], span: int) -> Ints:
        """The attack dice of ``models`` (``(model id, dice)``) still on the table in each of
        the first ``span`` states (a model not in the order always is)."""
        position = {d.id: i for i, d in enumerate(self.order)}
        removed = self.removed[:span]
        out = np.zeros(span, dtype=np.int64)
        for m, n in models:
            i = position.get(m)
            out += int(n) * (removed <= i if i is not None else True)
        return out

    def reachable(self, against: Against) -> Bool:
        """In each state, does ``against`` stand — one of its ``foes`` still on the table (a
        model not in the order always is), or, without foes, a model of the unit left?"""
        if against.foes is None:
            return self.has_models
        position = {d.id: i for i, d in enumerate(self.order)}
        if any(m not in position for m in against.foes):
            return np.ones(self.size, dtype=bool)
        last = max((position[m] for m in against.foes), default=-1)
        return self.removed <= last

    def strikes(self, against: Against) -> list[tuple[float, Move]]:
        """What one attack die of ``against`` does to this unit: per wound kind, in kind order,
        its chance (:func:`per_die`) and its move. A kind every model saves is a miss;
        neighbouring kinds with the same move are one (a Breaching AP 2 against a save AP 3
        already denies: taking them in either order is the same)."""
        out: list[tuple[float, Move]] = []
        for r, kind in zip(per_die(against), against.kinds):
            move = self.wound(kind)
            if r == 0 or move.idle():
                continue
            if out and out[-1][1].same(move):
                out[-1] = (out[-1][0] + r, out[-1][1])
            else:
                out.append((r, move))
        return out


def per_die(against: Against) -> tuple[float, ...]:
    """P(one attack die brings a wound of kind k), for each kind: the hit roll and the wound roll
    for one die (:func:`~tapeline.rules.melee.strike.strike_distribution`), which bring at most
    one wound."""
    out = [0.0] * len(against.kinds)
    for wounds, p in strike_distribution(against, 1).items():
        if sum(wounds) > 1:  # pragma: no cover - the hit and wound rolls give one wound at most
            raise ValueError(f"one attack die of {against.target} brings {sum(wounds)} wounds")
        for k, c in enumerate(wounds):
            if c:
                out[k] += p
    return tuple(out)


def binomials(n_max: int, r: float) -> Floats:
    """``[n, w]``: P(w successes in n trials of chance r), for n up to ``n_max`` (a trial added
    at a time: the convolution of the one-trial distribution)."""
    out = np.zeros((n_max + 1, n_max + 1))
    out[0, 0] = 1.0
    for n in range(1, n_max + 1):
        out[n] = out[n - 1] * (1.0 - r)
        out[n, 1:] += out[n - 1, :-1] * r
    return out


def after_dice(strikes: Sequence[tuple[float, Move]], size: int, starts: Ints, counts: Ints) -> Floats:
    """Row ``i``: the distribution over a chain's ``size`` states after ``counts[i]`` attack
    dice (each bringing a wound of kind k with chance ``strikes[k][0]``, taken in kind order)
    from state ``starts[i]``."""
    out = np.zeros((len(starts), size))
    if not strikes or len(starts) == 0 or int(counts.max()) == 0:
        out[np.arange(len(starts)), starts] = 1.0
        return out
    firsts, rows = np.unique(starts, return_inverse=True)
    per_start = (int(counts.max()) + 1) * size
    chunk = max(1, BATCH_FLOATS // per_start)
    for lo in range(0, len(firsts), chunk):
        sel = (rows >= lo) & (rows < lo + chunk)
        out[sel] = _after(strikes, size, firsts[lo:lo + chunk], rows[sel] - lo, counts[sel])
    # from a state no wound can move (no model left, or every wound saved there) nothing moves:
    # exactly, not through weights that sum to 1 but for the rounding
    still = ~np.any([m.go[starts] > 0 for _, m in strikes], axis=0)
    out[still] = 0.0
    out[np.flatnonzero(still), starts[still]] = 1.0
    return out


def _after(strikes: Sequence[tuple[float, Move]], size: int, firsts: Ints, rows: Ints, counts: Ints) -> Floats:
    """:func:`after_dice` for the rows from ``firsts[rows[i]]``."""
    n_max = int(counts.max())
    if len(strikes) == 1:
        return _sequences(strikes, size, firsts, n_max)[rows, counts]
    *earlier, (r_last, last) = strikes
    rest = 1.0 - r_last
    sub = _sequences([(r / rest if rest > 0 else 0.0, m) for r, m in earlier], size, firsts, n_max)
    bino = binomials(n_max, r_last)
    acc = np.zeros((len(rows), size))
    for w in range(n_max, -1, -1):  # Horner's rule: acc · T_last + Bin(w; n, r) · [n − w dice of the first kinds]
        if w < n_max:
            acc = last.after(acc)
        live = counts >= w
        acc[live] += bino[counts[live], w][:, None] * sub[rows[live], counts[live] - w]
    return acc


def _sequences(strikes: Sequence[tuple[float, Move]], size: int, firsts: Ints, m_max: int) -> Floats:
    """``[u, m]``: the distribution after ``m`` dice from state ``firsts[u]``, for every ``m`` up
    to ``m_max``: with one kind, the folded move applied again and again; with more, every
    ``(u, m)`` through :func:`_after`."""
    if not strikes:
        out = np.zeros((len(firsts), m_max + 1, size))
        out[np.arange(len(firsts)), :, firsts] = 1.0
        return out
    if len(strikes) == 1:
        r, move = strikes[0]
        die = move.folded(r)
        out = np.empty((len(firsts), m_max + 1, size))
        x = np.zeros((len(firsts), size))
        x[np.arange(len(firsts)), firsts] = 1.0
        out[:, 0] = x
        for m in range(1, m_max + 1):
            x = die.after(x)
            out[:, m] = x
        return out
    rows = np.repeat(np.arange(len(firsts)), m_max + 1)
    counts = np.tile(np.arange(m_max + 1), len(firsts))
    return _after(strikes, size, firsts, rows, counts).reshape(len(firsts), m_max + 1, size)
