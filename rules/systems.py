"""The rule systems by name, as the scenario file's ``system:`` gives them.

A system's package names what every system offers (``engaged``, ``visible``,
``visibility_matrix``, ``ENGAGEMENT_RANGE`` ...) and loads the module behind each name on first
use (:func:`lazy_names`), so a question about engagement does not load the sight-line engine.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Callable

SYSTEMS = ("starcraft", "heresy", "classic40k")


def system(name: str) -> ModuleType:
    """The package of a rule system: ``system("starcraft").engaged(state, a, b)``."""
    if name not in SYSTEMS:
        raise KeyError(name)
    return importlib.import_module(f"tapeline.rules.{name}")


def lazy_names(package: str, where: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` (PEP 562) for names defined in its modules:
    ``where`` maps a name to the module (relative, ``".engagement"``) that defines it; the module
    is imported when the name is first asked for (a name that is the module's own names the module)."""

    def __getattr__(name: str) -> Any:
        if name in where:
            module = importlib.import_module(where[name], package)
            value = module if module.__name__.rsplit(".", 1)[-1] == name else getattr(module, name)
            setattr(importlib.import_module(package), name, value)
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(vars(importlib.import_module(package))) | set(where))

    return __getattr__, __dir__
