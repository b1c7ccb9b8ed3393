"""d6 tests against tables, shared by Horus Heresy 3rd and 40k 3rd close combat.

A test needs a target number (TN) on one D6: ``None`` means it cannot succeed. A TN becomes a
**face table** — for each face 1..6, the category it falls in — which is what the dice engine
and the exact engine both read (:mod:`tapeline.rules.melee.strike`).

The **wound chart** (S vs T) is the same in both games (§A.8 "Wound table", §B.6)::

    S − T ≥ 2: 2+    +1: 3+    0: 4+    −1: 5+    −2, −3: 6+    ≤ −4: no effect

>>> [wound_chart(4, t) for t in (2, 3, 4, 5, 6, 7, 8)]
[2, 3, 4, 5, 6, 6, None]
>>> faces_at_least(4)
(0, 0, 0, 1, 1, 1)
>>> save_on(3, None, ap=None, ignores_armour=True), save_on(2, 5, ap=None, ignores_armour=True)
(None, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

#: The best target number a D6 test can have: a natural 1 always fails.
BEST_TN = 2


def wound_chart(strength: int, toughness: int) -> Optional[int]:
    """The D6 score needed to wound (§A.8, §B.6); ``None``: the hit has no effect."""
    d = int(strength) - int(toughness)
    if d >= 2:
        return 2
    if d == 1:
        return 3
    if d == 0:
        return 4
    if d == -1:
        return 5
    if d >= -3:
        return 6
    return None


def faces_at_least(tn: Optional[int], yes: int = 1, no: int = 0) -> tuple[int, ...]:
    """Face table of a test needing ``tn``+ (clamped to 2+: a natural 1 always fails; above 6
    or ``None``: never succeeds)."""
    if tn is None or tn > 6:
        return (no,) * 6
    t = max(BEST_TN, int(tn))
    return tuple(yes if v >= t else no for v in range(1, 7))


def save_on(save: Optional[int], invulnerable: Optional[int], ap: Optional[int] = None,
            ignores_armour: bool = False) -> Optional[int]:
    """The save a wound allows: the better of the armour save (unless the attack ignores armour
    or its AP is equal to or better than the save, §A.9) and the invulnerable save (always
    allowed). ``None``: no save. A save of 7 (or ``None``) is no save."""
    best = None
    if save is not None and save <= 6 and not ignores_armour and (ap is None or ap > save):
        best = save
    if invulnerable is not None and invulnerable <= 6:
        best = invulnerable if best is None else min(best, invulnerable)
    return None if best is None else max(BEST_TN, best)


@dataclass(frozen=True)
class Charts:
    """What a rule system's close combat reads off its tables.

    ``hit_on(attacker WS, defender WS)`` and ``wound_on(S, T)`` return a target number or
    ``None``; ``max_characteristic`` caps a modified characteristic (a power fist's doubled
    Strength, 40k 3rd: "to a maximum of 10").
    """

    name: str
    hit_on: Callable[[int, int], Optional[int]]
    wound_on: Callable[[int, int], Optional[int]] = wound_chart
    max_characteristic: int = 10
