"""``tapeline models``'s answer, :class:`Models` (see :mod:`tapeline.scenarios.results`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from . import JSON, Result


@dataclass(frozen=True)
class Models(Result):
    """``tapeline models``: every unit (side, profile, statuses, Leading Model, Damage Marker,
    casualties) with its models (position, base, what it stands on, level)."""

    command: ClassVar[str] = "models"
    system: str = ""
    units: tuple[JSON, ...] = ()

    def ids(self) -> tuple[str, ...]:
        """Every model id on the table, in file order."""
        return tuple(str(m["id"]) for u in self.units for m in u["models"])
