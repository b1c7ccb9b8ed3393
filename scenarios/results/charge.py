"""``tapeline charge``'s answer, :class:`Charge` (see :mod:`tapeline.scenarios.results`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

from . import JSON, Point, Result


@dataclass(frozen=True)
class Charge(Result):
    """``tapeline charge``: the path length the Leading Model needs to a legal end spot
    (``distance``, None when none can be reached), the smallest roll that makes it
    (``min_roll``), the exact ``probability``, the ``path`` and its ``end``. StarCraft adds
    ``speed``, ``modifier``, ``reach``, ``grass_crossed`` and ``notes``; the other systems
    ``allowed``, ``reason`` and ``details``. With a roll: ``success`` and the outcome ``roll``."""

    command: ClassVar[str] = "charge"
    system: str = ""
    unit: str = ""
    targets: tuple[str, ...] = ()
    leader: Optional[str] = None
    distance: Optional[float] = None
    min_roll: Optional[int] = None
    probability: float = 0.0
    probability_fraction: str = ""
    dice: str = ""
    path: tuple[Point, ...] = ()
    end: Optional[Point] = None
    speed: Optional[int] = None
    modifier: Optional[int] = None
    reach: Optional[JSON] = None
    grass_crossed: Optional[tuple[str, ...]] = None
    notes: Optional[tuple[str, ...]] = None
    allowed: Optional[bool] = None
    reason: Optional[str] = None
    details: Optional[JSON] = None
    success: Optional[bool] = None
    roll: Optional[JSON] = None
