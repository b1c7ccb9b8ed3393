"""What a resolved StarCraft Charge did (§8.7.7): :func:`rules.starcraft.charge.resolve`'s
answer. A module of its own, loaded by a resolved charge only (a reach and its odds need none of
it: docs/performance.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .charge import ChargeReach


@dataclass(frozen=True)
class ChargeOutcome:
    reach: ChargeReach
    roll: int
    rolls: tuple
    success: bool
    end: Optional[tuple] = None
    path: list = field(default_factory=list)
    target_model: Optional[str] = None
    contact: bool = False
    end_gap: Optional[float] = None
    placed: dict = field(default_factory=dict)
    removed: tuple = ()
    out_of_coherency: tuple = ()
    grass_removed: tuple = ()
    target_models: dict = field(default_factory=dict)   # target unit -> nominated model
    end_gaps: dict = field(default_factory=dict)        # nominated model -> Leading Model's gap to it
