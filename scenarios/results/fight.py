"""``tapeline fight``'s answer, :class:`Fight` (see :mod:`tapeline.scenarios.results`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar, Optional

from . import JSON, Result


@dataclass(frozen=True)
class Fight(Result):
    """``tapeline fight``: who fights (``fighters``: unit → model ids) and the exact odds.
    StarCraft (the unit's Close Combat Attack as the board stands): ``fighting_rank``,
    ``supporting_rank``, the target unit each striker attacks (``assign``) with which weapon,
    ``dice`` and ``odds`` per target unit, ``surge_to``, ``evade``, and with ``--charged`` the
    ``impact`` of IMPACT (X). Horus Heresy / 40k 3rd (one
    whole round of the combat, Initiative step by step): ``combat`` (its units), ``steps``,
    ``expected_casualties``, ``casualties_pmf``, ``result`` (unit → P(wins), ``draw``); 40k
    adds each model's ``attacks``, the wounds' distributions, ``falls_back`` and the
    ``readings`` used."""

    command: ClassVar[str] = "fight"
    system: str = ""
    unit: str = ""
    fighters: JSON = field(default_factory=lambda: MappingProxyType({}))
    fighting_rank: Optional[tuple[str, ...]] = None
    supporting_rank: Optional[tuple[str, ...]] = None
    assign: Optional[JSON] = None
    weapons: Optional[JSON] = None
    dice: Optional[JSON] = None
    surge_to: Optional[str] = None
    evade: Optional[JSON] = None
    odds: Optional[JSON] = None
    casualty_priority_range: Optional[str] = None
    impact: Optional[JSON] = None
    combat: Optional[tuple[str, ...]] = None
    charged: Optional[tuple[str, ...]] = None
    attacks: Optional[JSON] = None
    active_side: Optional[str] = None
    initiative_steps: Optional[tuple[int, ...]] = None
    steps: Optional[tuple[JSON, ...]] = None
    expected_casualties: Optional[JSON] = None
    casualties_pmf: Optional[JSON] = None
    expected_wounds: Optional[JSON] = None
    wounds_pmf: Optional[JSON] = None
    result: Optional[JSON] = None
    sides: Optional[JSON] = None
    falls_back: Optional[JSON] = None
    readings: Optional[JSON] = None
    excluded: Optional[tuple[str, ...]] = None
