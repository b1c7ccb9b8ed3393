"""``tapeline replay``'s answer, :class:`Replay` (see :mod:`tapeline.scenarios.results`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar

from . import JSON, Result


@dataclass(frozen=True)
class Replay(Result):
    """``tapeline replay``: ``ok`` when every expectation holds, the event log (every die and
    every verdict), each expectation's verdict, and the ``final`` state."""

    command: ClassVar[str] = "replay"
    ok: bool = False
    events: tuple[JSON, ...] = ()
    expectations: tuple[JSON, ...] = ()
    final: JSON = field(default_factory=lambda: MappingProxyType({}))
