"""``tapeline path``'s answer, :class:`PathCheck` (see :mod:`tapeline.scenarios.results`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

from . import JSON, Result


@dataclass(frozen=True)
class PathCheck(Result):
    """``tapeline path``: whether the proposed path is ``legal``, its ``length`` and the first
    ``violation`` along it (``{kind, at, detail, obstacle}``), with the clearance used, and the
    level the model ends on (``ends_on``: a terrain id, ``None`` for the ground)."""

    command: ClassVar[str] = "path"
    model: str = ""
    legal: bool = False
    length: float = 0.0
    clearance: float = 0.0
    violation: Optional[JSON] = None
    max: Optional[float] = None
    grass_crossed: Optional[tuple[str, ...]] = None
    ends_on: Optional[str] = None
