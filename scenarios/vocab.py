"""The ``actions:`` and ``expect:`` vocabularies, collected from their modules.

Each module in :mod:`scenarios.actions` defines pydantic models decorated with
:func:`action` (a field ``action: Literal["name"]`` and a method ``apply(state, ctx)`` returning
the new state and its events); each module in :mod:`scenarios.expectations` defines models
decorated with :func:`expectation` (a field ``expect: Literal["name"]`` and a method
``check(state, ctx)`` returning ``(ok, detail)``). Adding a word to the vocabulary is adding a
module; nothing else changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Optional

from pydantic import BaseModel

from tapeline.rules.dice import Dice

ACTIONS_MODELS: dict[str, type[BaseModel]] = {}
EXPECT_MODELS: dict[str, type[BaseModel]] = {}


def _tag(cls: type[BaseModel], field_name: str) -> str:
    ann = cls.model_fields[field_name].annotation
    return ann.__args__[0]


def _register(table: dict, tag: str, cls, what: str):
    old = table.get(tag)
    if old is not None and (old.__module__, old.__qualname__) != (cls.__module__, cls.__qualname__):
        raise RuntimeError(f"{what} {tag!r} is registered twice: {old.__module__}.{old.__qualname__} and {cls.__module__}.{cls.__qualname__}")
    table[tag] = cls
    return cls


def action(cls):
    """Register an action model under its ``action`` literal (a name registered twice is an
    error: one word, one meaning)."""
    return _register(ACTIONS_MODELS, _tag(cls, "action"), cls, "action")


def expectation(cls):
    """Register an expectation model under its ``expect`` literal."""
    return _register(EXPECT_MODELS, _tag(cls, "expect"), cls, "expectation")


_loaded = False


def load_all() -> None:
    global _loaded
    if _loaded:
        return
    for pkg_name in ("tapeline.scenarios.actions", "tapeline.scenarios.expectations"):
        pkg = importlib.import_module(pkg_name)
        for m in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            importlib.import_module(f"{pkg_name}.{m.name}")
    _loaded = True


@dataclass
class ReplayContext:
    """What actions and expectations see besides the state: the dice, the file's settings,
    the index of the action being resolved and what earlier actions produced (``results``,
    by action index)."""

    dice: Dice
    settings: Any
    index: Optional[int] = None
    results: dict[int, dict] = field(default_factory=dict)
