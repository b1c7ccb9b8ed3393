"""The three pools of a StarCraft TMG attack (§8.7.4), each step written once.

A Batch's dice travel Attack Pool → Armour Pool → Damage Pool. Each step of that journey is a
:class:`Step`: how many dice it rolls in the current :class:`Pools`, what one die's face is worth
(``face``: 1 for a success, 0 for a failure; the Surge Die's face is its result) and how the
pools change given the sum of those worths (``then``). Two engines read the same steps:

* :func:`roll_pools` rolls real dice (seeded or recorded; every roll an event with its purpose);
* :func:`rules.starcraft.odds.propagate` carries an exact distribution over pool states, the
  outcome of ``n`` dice being the n-fold convolution of the face distribution.

So the random resolution and the exact odds cannot drift apart: there is no second copy of a
rule. Steps, in the rulebook's order:

1. Roll to Hit (one group per distinct modifier: LONG RANGE dice roll separately, §8.7.3),
   target numbers clamped to 2+…6+, natural 6 hits, natural 1 misses (§3);
2. PRECISION (X): up to X failed attack dice join the Armour Pool (§11);
3. the Surge Die (D3 = a D6 halved rounding up, D3+1, D6), rolled with the attack dice;
4. Resolve Surge: if the target has the Surge Type tag, up to the Surge result dice move from
   the Armour Pool to the Damage Pool; CRITICAL HIT (X) moves X more; DODGE (X) reduces the
   number moved by X (§8.7.4 step 2, §11);
5. Armour Rolls: successes are saved; TOUGH (X) turns up to X failures into saves (§8.7.4 step 3);
6. Evade Rolls, only when eligible: each success removes a die from the Damage Pool; Evade "-"
   never rolls (§8.7.4 step 4, §5.1);
7. Damage (:class:`DamageStep`, §8.7.4 step 5): the Damage Pool's dice × DMG, less what
   damage-reduction abilities take off, is the damage the Batch adds to the Damage Marker.

>>> spec = BatchSpec(groups=((18, 3, "to hit"),), surge_dice="D3", surge_applies=True, armour=6)
>>> from tapeline.rules.dice import RecordedDice
>>> pools, log = roll_pools(spec.steps(), RecordedDice([6] * 12 + [1] * 6 + [5] + [6] * 3 + [1] * 7))
>>> pools.hits, pools.damage                 # 12 hits, Surge 3, 3 of 9 saved: 3 + 6 in Damage Pool
(12, 9)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable, Optional

from ..dice import Dice
from ..pmf import PMF

TARGET_BEST, TARGET_WORST = 2, 6

SURGE_FACES: dict[str, Callable[[int], int]] = {
    "D3": lambda v: (v + 1) // 2,
    "D3+1": lambda v: (v + 1) // 2 + 1,
    "D6": lambda v: v,
}


def clamp_target(target: int) -> int:
    """Modified target numbers never go beyond 2+ or 6+ (§3.4)."""
    return min(TARGET_WORST, max(TARGET_BEST, int(target)))


def modified(target: Optional[int], modifier: int) -> Optional[int]:
    """A target number after a modifier (+X easier, −X harder), clamped; ``None`` stays ``None``
    (a Null Value "-" can never be rolled, whatever the modifier, §3.6)."""
    return None if target is None else clamp_target(int(target) - int(modifier))


def succeeds(face: int, target: Optional[int]) -> bool:
    """One die against a target number: natural 6 always succeeds (every target is clamped to 6+
    at worst, §3.4), natural 1 always fails (§3)."""
    if target is None or face == 1:
        return False
    return face >= clamp_target(target)


@dataclass(frozen=True)
class Pools:
    """Where a Batch's dice are: ``attack`` dice rolled to hit, ``hits`` that reached the Armour
    Pool (PRECISION included), the pending ``surge`` result, and the ``armour`` and ``damage``
    pools."""

    attack: int = 0
    hits: int = 0
    surge: int = 0
    armour: int = 0
    damage: int = 0


@dataclass(frozen=True, eq=False)
class Step:
    """One resolution step: ``count(pools)`` dice, each worth ``face(v)``, then ``then(pools, sum)``.

    A step that rolls nothing has ``count`` 0 and is called with sum 0. ``needs``: the target
    number each die is rolled against (clamped, §3.4), for a step whose dice each succeed or
    fail; ``None`` for a die read as a number (the Surge Die). The event log carries it.
    """

    purpose: str
    count: Callable[[Pools], int]
    face: Callable[[int], int]
    then: Callable[[Pools, int], Pools]
    sides: int = 6
    needs: Optional[int] = None

    def outcomes(self, n: int) -> PMF:
        """Exact distribution of the summed worth of ``n`` dice (n-fold convolution)."""
        return _outcomes(self, n)


@lru_cache(maxsize=4096)
def _outcomes(step: Step, n: int) -> PMF:
    return PMF.of_faces(step.face, step.sides).power(n)


def _none(_: int) -> int:
    return 0


def _needs(target: Optional[int]) -> Optional[int]:
    """What one die of a success roll needs: the clamped target (a natural 1 fails anyway, §3)."""
    return None if target is None else clamp_target(target)


# --- the steps ---------------------------------------------------------------------------------


def hit_step(n: int, target: Optional[int], purpose: str = "to hit") -> Step:
    """Roll ``n`` attack dice against ``target``; hits go to the Armour Pool (§8.7.4 step 1)."""
    return Step(
        purpose,
        count=lambda p: n if target is not None else 0,
        face=lambda v: int(succeeds(v, target)),
        then=lambda p, s: replace(p, attack=p.attack + (n if target is not None else 0), hits=p.hits + s, armour=p.armour + s),
        needs=_needs(target),
    )


def precision_step(x: int) -> Step:
    """PRECISION (X): up to X failed attack dice move to the Armour Pool as hits (§11; per Batch)."""

    def then(p: Pools, _: int) -> Pools:
        extra = min(x, p.attack - p.hits)
        return replace(p, hits=p.hits + extra, armour=p.armour + extra)

    return Step("precision", count=lambda p: 0, face=_none, then=then)


def surge_die_step(kind: str) -> Step:
    """The Surge Die, rolled with the attack dice; its result is how many dice Surge moves."""
    face = SURGE_FACES[kind]
    return Step(f"surge die ({kind})", count=lambda p: 1, face=face, then=lambda p, s: replace(p, surge=s))


def fixed_surge_step(n: int) -> Step:
    """Template weapons (§8.7.6): no Surge Die is rolled — the Surge result *is* ``n``, the
    number of affected models of the primary unit."""
    return Step("surge (template, not rolled)", count=lambda p: 0, face=_none, then=lambda p, s: replace(p, surge=n))


def resolve_surge_step(applies: bool, critical_hit: int = 0, dodge: int = 0) -> Step:
    """Resolve Surge (§8.7.4 step 2): move up to the Surge result (only if the target has the
    Surge Type tag) plus CRITICAL HIT (X) dice from the Armour Pool to the Damage Pool, never
    more than are there; DODGE (X) reduces the number moved by X, to no less than 0."""

    def then(p: Pools, _: int) -> Pools:
        by_surge = min(p.surge if applies else 0, p.armour)
        by_crit = min(critical_hit, p.armour - by_surge)
        moved = max(0, by_surge + by_crit - dodge)
        return replace(p, surge=0, armour=p.armour - moved, damage=p.damage + moved)

    return Step("resolve surge", count=lambda p: 0, face=_none, then=then)


def armour_step(target: Optional[int], tough: int = 0) -> Step:
    """Armour Rolls (§8.7.4 step 3): each success is saved; TOUGH (X) turns up to X failures into
    saves; failures move to the Damage Pool. Armour "-" is never rolled (§3.6): no die is spent
    and only TOUGH saves."""

    def then(p: Pools, s: int) -> Pools:
        saved = s + min(tough, p.armour - s)
        return replace(p, armour=0, damage=p.damage + p.armour - saved)

    return Step("armour", count=lambda p: p.armour if target is not None else 0,
                face=lambda v: int(succeeds(v, target)), then=then, needs=_needs(target))


def evade_step(target: Optional[int]) -> Step:
    """Evade Rolls (§8.7.4 step 4): each success removes a die from the Damage Pool (Surge dice
    included, FAQ); ``None`` (not eligible, or Evade "-") rolls nothing."""
    return Step(
        "evade",
        count=lambda p: p.damage if target is not None else 0,
        face=lambda v: int(succeeds(v, target)),
        then=lambda p, s: replace(p, damage=p.damage - s),
        needs=_needs(target),
    )


@dataclass(frozen=True)
class DamageStep:
    """§8.7.4 step 5: "Multiply the remaining dice by the weapon's Damage and add any earlier
    damage on the Damage Marker: that is the Total Damage. Apply abilities that reduce it."

    ``reduction`` is the damage such abilities take off one Batch's damage. tapeline's reading
    (docs/attacks.md): the reduction takes off the damage this Batch deals, never the damage
    already on the Damage Marker (a reduction does not heal), and not below 0. Both engines
    read this object: the replay for the damage it rolled, the exact odds for every outcome.

    >>> DamageStep(damage=2, reduction=3).dealt(4), DamageStep(damage=2, reduction=3).dealt(1)
    (5, 0)
    """

    damage: int = 1
    reduction: int = 0

    def dealt(self, dice: int) -> int:
        """The damage ``dice`` left in the Damage Pool deal, after the reduction."""
        return max(0, int(dice) * self.damage - self.reduction)


# --- a Batch as numbers --------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchSpec:
    """Everything about one Batch that the dice depend on, already worked out from the board.

    ``groups``: ``(dice, hit target, purpose)`` per group rolled separately (in range; LONG
    RANGE at −1). ``evade`` is the Evade target number when the target is eligible, else
    ``None``. ``damage`` is DMG per die (PIERCE applied). ``surge_fixed``: a template
    weapon's Surge result, not rolled (§8.7.6); ``None`` otherwise. ``reduction``: the
    damage-reduction abilities' total (§8.7.4 step 5, :class:`DamageStep`).
    """

    groups: tuple[tuple[int, Optional[int], str], ...]
    surge_dice: Optional[str] = None
    surge_applies: bool = False
    armour: Optional[int] = None
    damage: int = 1
    evade: Optional[int] = None
    precision: int = 0
    critical_hit: int = 0
    dodge: int = 0
    tough: int = 0
    surge_fixed: Optional[int] = None
    reduction: int = 0

    @property
    def damage_step(self) -> DamageStep:
        """Step 5: DMG per die and the damage reduction (§8.7.4)."""
        return DamageStep(self.damage, self.reduction)

    @property
    def dice(self) -> int:
        """Attack dice in the pool (the Surge Die not counted)."""
        return sum(n for n, _, _ in self.groups)

    def steps(self) -> list[Step]:
        out = [hit_step(n, t, purpose) for n, t, purpose in self.groups if n > 0]
        if self.precision:
            out.append(precision_step(self.precision))
        if self.surge_dice:
            out.append(surge_die_step(self.surge_dice))
        elif self.surge_fixed is not None:
            out.append(fixed_surge_step(self.surge_fixed))
        has_surge = bool(self.surge_dice) or self.surge_fixed is not None
        out.append(resolve_surge_step(self.surge_applies and has_surge, self.critical_hit, self.dodge))
        out.append(armour_step(self.armour, self.tough))
        out.append(evade_step(self.evade))
        return out


@dataclass
class StepLog:
    purpose: str
    values: list[int]
    outcome: int
    pools: Pools
    needs: Optional[int] = None


def roll_pools(steps: list[Step], dice: Dice, start: Pools = Pools()) -> tuple[Pools, list[StepLog]]:
    """Resolve the steps with real dice; every roll is recorded by ``dice`` with its purpose."""
    p, log = start, []
    for step in steps:
        n = step.count(p)
        values = dice.roll(n, step.purpose, step.sides)  # no die (and no event) for n = 0
        outcome = sum(step.face(v) for v in values)
        p = step.then(p, outcome)
        log.append(StepLog(step.purpose, values, outcome, p, step.needs))
    return p, log


def roll_logged(steps: list[Step], dice: Dice, start: Pools = Pools(),
                **tags: object) -> tuple[Pools, list[StepLog], list[dict[str, object]]]:
    """:func:`roll_pools`, and the dice's roll events of these steps, each with its step's
    ``outcome``, what each die ``needs`` (the target number, for a roll of successes: to hit,
    IMPACT, armour, evade; none for the Surge Die) and ``tags`` (e.g. the target of a split
    Batch) — what the event log shows."""
    dice.take_events()
    pools, log = roll_pools(steps, dice, start)
    rolls = iter(dice.take_events())
    events = []
    for entry in log:
        if entry.values:
            ev = next(rolls)
            ev["outcome"] = entry.outcome
            if entry.needs is not None:
                ev["needs"] = entry.needs
            ev.update(tags)
            events.append(ev)
    return pools, log, events
