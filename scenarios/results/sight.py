"""``tapeline los``'s answer, :class:`Sight` (see :mod:`tapeline.scenarios.results`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

from . import JSON, Point, Result


@dataclass(frozen=True)
class Sight(Result):
    """``tapeline los``: ``visible``; a ``witness`` segment from A's base to B's base when
    there is one; otherwise ``blocked_by`` (``{terrain, reason}`` each); ``clearance`` of the
    witness from the nearest blocking piece (StarCraft)."""

    command: ClassVar[str] = "los"
    a: str = ""
    b: str = ""
    visible: bool = False
    witness: Optional[tuple[Point, Point]] = None
    blocked_by: tuple[JSON, ...] = ()
    clearance: Optional[float] = None
    detail: str = ""

    def __bool__(self) -> bool:
        return self.visible
