"""``tapeline attack``'s answer, :class:`Attack` (see :mod:`tapeline.scenarios.results`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from . import JSON, Result


@dataclass(frozen=True)
class Attack(Result):
    """``tapeline attack``: which models fire, which target models may be removed, the attack
    dice, and the exact distributions (index k holds P(value = k)) and means of hits, damage
    dice, damage and kills; ``kills_at_least[k]`` is P(kills ≥ k); one entry per Batch in
    ``batches``."""

    command: ClassVar[str] = "attack"
    unit: str = ""
    target: str = ""
    firing_models: tuple[str, ...] = ()
    visible_targets: tuple[str, ...] = ()
    dice: int = 0
    mean_hits: float = 0.0
    mean_damage_dice: float = 0.0
    mean_damage: float = 0.0
    mean_kills: float = 0.0
    hits_pmf: tuple[float, ...] = ()
    damage_dice_pmf: tuple[float, ...] = ()
    damage_pmf: tuple[float, ...] = ()
    kills_pmf: tuple[float, ...] = ()
    kills_at_least: tuple[float, ...] = ()
    marker_pmf: tuple[float, ...] = ()
    batches: tuple[JSON, ...] = ()
