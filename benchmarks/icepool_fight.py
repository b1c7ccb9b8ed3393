"""icepool's model of one round of close combat: the peer of the exact fight odds.

icepool (https://pypi.org/project/icepool/) is the standard exact dice-probability library:
dice are distributions with integer weights, combined by convolution (``n @ die``: the sum of
``n`` dice) and by mapping (``die.map(f)``, where ``f`` may return a die: a mixture). This module
writes the same fight with its public API, reading only what a player would: the face tables of
each Strike Group (hit roll, wound roll), the target's saves, Wounds and casualty order, and the
Initiative steps. It is the same dice model as tapeline's, written the way icepool is used:

* one attack is one die: the hit roll, the wound roll and the save folded into one outcome —
  nothing, or an unsaved wound of some kind — exactly (integer weights over 6³ or 6⁴);
* a group's ``n`` attacks are ``n @`` that die: the unsaved wounds by kind (binomial or
  multinomial, by convolution; with several kinds each outcome is one whole number with a digit
  per kind, icepool's integer sums being much faster than its vectors), each sum worked out from
  the largest smaller one already known (memoised); neighbouring kinds with the same effect on
  the target (the same Damage, the same save) are one;
* the combat's state — for every unit, models removed and damage on the next — is the outcome
  of one die, pushed through the steps with ``map``: in each state the groups strike with the
  models alive at the start of the step, their wounds are taken in the casualty order, kind by
  kind, Damage never carrying over.

Folding the save into the attack needs every model a wound can reach to face the same save
for that kind (and the same damage mitigation): :func:`check` refuses a combat that does not.
Each group strikes its first target option that stands (the benchmark cases have one enemy unit).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

import icepool

from tapeline.rules.melee.combat import Combat
from tapeline.rules.melee.strike import HIT, MISS, Against, WoundKind

#: A unit's state: (models removed, damage on the next model).
Unit = tuple[int, int]


def _save_tn(save: Optional[int], invulnerable: Optional[int], kind: WoundKind) -> Optional[int]:
    """The peer's own reading of the save a wound allows (the better of armour, unless AP is as
    good or the attack ignores it, and the invulnerable save; a natural 1 always fails)."""
    best = None
    if save is not None and save <= 6 and not kind.ignores_armour and (kind.ap is None or kind.ap > save):
        best = save
    if invulnerable is not None and invulnerable <= 6:
        best = invulnerable if best is None else min(best, invulnerable)
    return None if best is None else max(2, best)


def _passes(tn: Optional[int]) -> int:
    """Faces of a d6 that pass a test on ``tn``+ (out of 6)."""
    return 0 if tn is None else 7 - max(2, tn)


def check(c: Combat) -> None:
    """Refuse a combat the folded model cannot take: a unit whose models face different saves or
    mitigation for some wound kind that may reach them."""
    for step in c.steps:
        for g in step.groups:
            a = g.against[0]
            order = c.unit(a.target).order
            for kind in a.kinds:
                seen = {(_save_tn(d.save, d.invulnerable, kind), d.mitigation) for d in order}
                if len(seen) > 1:
                    raise ValueError(f"{a.target}: models face different saves against {kind}: icepool's folded model needs one")


def _effects(a: Against, order) -> list[tuple[int, Fraction]]:
    """The wound kinds of ``a`` as the target's models take them, in kind order: (damage, chance
    that one such wound is neither saved nor mitigated). Neighbouring kinds with the same effect
    are one (AP 3 and a Breaching AP 2 against a 3+ save: no save either way)."""
    d = order[0]
    out: list[tuple[int, Fraction]] = []
    for kind in a.kinds:
        through = Fraction(6 - _passes(_save_tn(d.save, d.invulnerable, kind)), 6) * Fraction(6 - _passes(d.mitigation), 6)
        out.append((max(1, kind.damage), through))
    return out


def attack_die(a: Against, order) -> tuple[icepool.Die, list[int]]:
    """One attack as one die over effect numbers — 0 nothing, e + 1 an unsaved wound of effect
    e (the hit roll, the wound roll for a hit, then the save and the mitigation roll) — and the
    damage of each effect, in the order the wounds are taken."""
    effects = _effects(a, order)
    merged: list[tuple[int, Fraction]] = []
    index = []
    for e in effects:
        if not merged or merged[-1] != e:
            merged.append(e)
        index.append(len(merged) - 1)

    def unsaved(kind_index: int) -> icepool.Die:
        e = index[kind_index]
        through = merged[e][1]
        return icepool.Die({e + 1: through.numerator, 0: through.denominator - through.numerator})

    def wound(face: int) -> icepool.Die | int:
        cat = a.wound_faces[face - 1]
        return 0 if cat == MISS else unsaved(cat - 2)

    def hit(face: int) -> icepool.Die | int:
        cat = a.hit_faces[face - 1]
        if cat == MISS:
            return 0
        if cat == HIT:
            return icepool.d6.map(wound)
        return unsaved(cat - 2)

    return icepool.d6.map(hit).simplify(), [dmg for dmg, _ in merged]


class Peer:
    """The round of ``c`` in icepool: :meth:`run` gives the die over the final states.

    In a step, every group whose target option stands (its unit has a model left, and one of
    its ``foes`` where it names them: 40k 3rd's fresh opponent within 2") rolls its living
    models' attacks; the groups with the same attack die against the same target roll as one
    pool (one ``n @ die``), as a player would roll them. Casualties go in the unit's order, so
    whether a foe stands is read off the count removed."""

    def __init__(self, c: Combat) -> None:
        check(c)
        self.c = c
        self.units = [u.id for u in c.units]
        self.wounds = [[d.wounds for d in u.order] for u in c.units]
        self.position = [{d.id: i for i, d in enumerate(u.order)} for u in c.units]
        # per attack (target and tables): the die, its effects' damage, the base of the code
        # (more than the most dice of that attack in one step) and the sums of n dice so far
        most: dict[tuple, int] = {}
        for step in c.steps:
            here: dict[tuple, int] = {}
            for g in step.groups:
                for a in g.against:
                    here[self._key(a)] = here.get(self._key(a), 0) + sum(n for _, n in g.dice)
            for k, n in here.items():
                most[k] = max(most.get(k, 0), n)
        self._most = most
        self._attacks: dict[tuple, tuple[icepool.Die, list[int], int, dict[int, icepool.Die]]] = {}

    @staticmethod
    def _key(a: Against) -> tuple:
        return (a.target, a.hit_faces, a.wound_faces, a.kinds)

    def _attack(self, a: Against):
        """The attack die of ``a`` (one outcome per wound effect, encoded as one whole number: the
        count of effect e in base ``n_max + 1`` digit e), the damage of each effect, the base, and
        the sums of n dice worked out so far."""
        key = self._key(a)
        if key not in self._attacks:
            one, damages = attack_die(a, self.c.unit(a.target).order)
            base = self._most[key] + 1
            encoded = one.map(lambda x: 0 if x == 0 else base ** (x - 1))
            self._attacks[key] = (encoded, damages, base, {0: icepool.Die([0])})
        return self._attacks[key]

    def _wounds(self, a: Against, n: int) -> icepool.Die:
        """The unsaved wounds of ``n`` attacks (``n @`` the attack die), each sum worked out from
        the largest one already known (icepool adds dice one at a time)."""
        one, _damages, _base, sums = self._attack(a)
        if n not in sums:
            m = max(k for k in sums if k < n)
            sums[n] = sums[m] + (n - m) @ one
        return sums[n]

    def _alive_dice(self, ui: int, g, removed: int) -> int:
        pos = self.position[ui]
        return sum(n for m, n in g.dice if pos.get(m, len(pos)) >= removed)

    def _stands(self, a: Against, state: tuple[Unit, ...]) -> bool:
        ti = self.units.index(a.target)
        removed, pos = state[ti][0], self.position[ti]
        if removed >= len(self.wounds[ti]):
            return False
        return a.foes is None or any(pos[f] >= removed for f in a.foes if f in pos)

    def _take(self, ti: int, unit: Unit, damages: list[int], base: int, code: int) -> Unit:
        """The unit's state after the unsaved wounds ``code`` (effect by effect, in kind order)."""
        removed, damage = unit
        w = self.wounds[ti]
        for dmg in damages:
            code, n = divmod(code, base)
            for _ in range(n):
                if removed >= len(w):
                    return (removed, 0)
                damage += dmg
                if damage >= w[removed]:
                    removed, damage = removed + 1, 0
        return (removed, damage)

    def _step(self, si: int, state: tuple[Unit, ...]) -> icepool.Die | tuple[Unit, ...]:
        """The die of the state after step ``si`` from ``state``."""
        pools: dict[tuple, tuple[Against, int]] = {}  # attack -> (its option, dice), in order
        for g in self.c.steps[si].groups:
            a = next((a for a in g.against if self._stands(a, state)), None)
            n = self._alive_dice(self.units.index(g.unit), g, state[self.units.index(g.unit)][0])
            if a is None or n == 0:
                continue
            k = self._key(a)
            pools[k] = (a, pools[k][1] + n if k in pools else n)
        if not pools:
            return state
        dice, takes = [], []
        for a, n in pools.values():
            _one, damages, base, _sums = self._attack(a)
            dice.append(self._wounds(a, n))
            takes.append((self.units.index(a.target), damages, base))

        def after(*codes: int) -> tuple[Unit, ...]:
            new = list(state)
            for (ti, damages, base), code in zip(takes, codes):
                new[ti] = self._take(ti, new[ti], damages, base, code)
            return tuple(new)

        return icepool.map(after, *dice, star=False)

    def run(self) -> icepool.Die:
        die = icepool.Die([tuple((0, 0) for _ in self.units)])
        for si in range(len(self.c.steps)):
            die = die.map(lambda s, si=si: self._step(si, s), star=False)
        return die


def final_states(c: Combat) -> dict[tuple[Unit, ...], float]:
    """``{final state: probability}`` of the round, as icepool works it out (floats at the end)."""
    die = Peer(c).run()
    total = die.denominator()
    return {s: q / total for s, q in die.items()}
