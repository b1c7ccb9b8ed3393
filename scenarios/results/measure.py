"""``tapeline measure``'s answer, :class:`Measure` (see :mod:`tapeline.scenarios.results`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

from . import Result


@dataclass(frozen=True)
class Measure(Result):
    """``tapeline measure``: gap (edge to edge, inches; 0 in contact, negative = overlap),
    base contact, Engagement Range and engagement under the system's rules, with the margin
    to the engagement distance and, when the models do not engage, the reason."""

    command: ClassVar[str] = "measure"
    a: str = ""
    b: str = ""
    gap: float = 0.0
    contact: bool = False
    engagement_range: Optional[bool] = None
    engaged: Optional[bool] = None
    engagement_distance: Optional[float] = None
    margin: Optional[float] = None
    reason: Optional[str] = None
    detail: Optional[str] = None
