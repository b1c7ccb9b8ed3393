"""The rule systems by name, as the scenario file's ``system:`` gives them."""

from __future__ import annotations

import importlib
from types import ModuleType

SYSTEMS = ("starcraft", "heresy", "classic40k")


def system(name: str) -> ModuleType:
    """The package of a rule system: ``system("starcraft").engaged(state, a, b)``."""
    if name not in SYSTEMS:
        raise KeyError(name)
    return importlib.import_module(f"tapeline.rules.{name}")
