"""``tapeline template``'s answer, :class:`Template` (see :mod:`tapeline.scenarios.results`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar, Optional

from . import JSON, Point, Result


@dataclass(frozen=True)
class Template(Result):
    """``tapeline template``: the ``template`` placed (``{shape, centre, radius}`` for a disc,
    ``{shape, polygon}`` and its exact circles for a teardrop) and every model it ``covered``
    (``{model, unit, full, margin, overlap, inside}``). Placed by hand: ``near_misses``. Fired
    by a StarCraft template weapon: the ``target_point``, the ``affected`` models by unit, the
    ``excluded`` ones with their reason, and each Batch with its dice and exact odds."""

    command: ClassVar[str] = "template"
    template: JSON = field(default_factory=lambda: MappingProxyType({}))
    covered: tuple[JSON, ...] = ()
    near_misses: tuple[JSON, ...] = ()
    unit: Optional[str] = None
    weapon: Optional[str] = None
    firing_model: Optional[str] = None
    target_model: Optional[str] = None
    primary: Optional[str] = None
    target_point: Optional[Point] = None
    level: Optional[str] = None
    affected: Optional[JSON] = None
    excluded: Optional[tuple[JSON, ...]] = None
    template_casualties: Optional[str] = None
    batches: Optional[tuple[JSON, ...]] = None

    def covered_ids(self) -> tuple[str, ...]:
        """The covered models, in file order."""
        return tuple(str(c["model"]) for c in self.covered)
