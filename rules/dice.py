"""Dice from one interface: seeded (reproducible) or recorded (a list of real rolls).

Every roll is recorded as an event with its purpose, so a replay's log shows each die.

>>> d = SeededDice(7)
>>> vals = d.roll(3, "to hit")
>>> len(vals), all(1 <= v <= 6 for v in vals)
(3, True)
>>> d.take_events()[0]["purpose"]
'to hit'
>>> r = RecordedDice([6, 1])
>>> r.roll(2, "armour")
[6, 1]
"""

from __future__ import annotations

import random
from typing import Iterable

from .errors import IllegalAction


class OutOfRolls(IllegalAction):
    def __init__(self, purpose: str, needed: int, left: int) -> None:
        super().__init__("dice", f"ran out of recorded dice rolling {needed} for {purpose!r} ({left} left)")


class Dice:
    """Base class: subclasses provide :meth:`_draw`; :meth:`roll` records the event."""

    def __init__(self) -> None:
        self._events: list[dict[str, object]] = []

    def roll(self, n: int, purpose: str, sides: int = 6) -> list[int]:
        """Roll ``n`` dice with ``sides`` faces for ``purpose``; returns the results in order."""
        if n <= 0:
            return []
        values = self._draw(n, sides, purpose)
        for v in values:
            if not 1 <= v <= sides:
                raise IllegalAction("dice", f"recorded roll {v} is not a D{sides} result ({purpose})")
        self._events.append({"type": "roll", "purpose": purpose, "dice": f"{n}D{sides}", "values": list(values)})
        return list(values)

    def take_events(self) -> list[dict[str, object]]:
        """The roll events since the last call (and forget them): ``{"type": "roll", "purpose":
        ..., "dice": "3D6", "values": [...]}`` each, for the caller to add to (an outcome, a
        target)."""
        ev, self._events = self._events, []
        return ev

    def _draw(self, n: int, sides: int, purpose: str) -> list[int]:  # pragma: no cover
        raise NotImplementedError


class SeededDice(Dice):
    """Pseudo-random dice from a seed: the same seed gives the same rolls, on every platform."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self._rng = random.Random(seed)

    def _draw(self, n: int, sides: int, purpose: str) -> list[int]:
        return [self._rng.randrange(sides) + 1 for _ in range(n)]


class RecordedDice(Dice):
    """Real rolls, used in order; running out is an :class:`IllegalAction` (naming the action)."""

    def __init__(self, rolls: Iterable[int]) -> None:
        super().__init__()
        self._rolls = list(rolls)
        self._next = 0

    def _draw(self, n: int, sides: int, purpose: str) -> list[int]:
        left = len(self._rolls) - self._next
        if left < n:
            raise OutOfRolls(purpose, n, left)
        out = self._rolls[self._next : self._next + n]
        self._next += n
        return out

    @property
    def remaining(self) -> int:
        return len(self._rolls) - self._next
