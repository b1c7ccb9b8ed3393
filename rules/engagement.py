"""What every system's engagement answer looks like."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from tapeline.board.measure import Verdict


@dataclass(frozen=True)
class Engagement:
    """Do two models engage each other?

    ``in_range`` is the plain distance test against the system's engagement distance (with its
    margin); ``engaged`` adds the system's exceptions, and ``reason`` names the one that
    prevented it (``None`` when engaged, or when simply out of range).
    """

    engaged: bool
    in_range: Verdict
    reason: Optional[str] = None
    detail: str = ""
