"""The ``actions:`` and ``expect:`` vocabularies, collected from their modules.

Each module in :mod:`scenarios.actions` defines classes (:mod:`scenarios.plain`) decorated with
:func:`action` (a field ``action: Literal["name"]`` and a method ``apply(state, ctx)`` returning
the new state and its events); each module in :mod:`scenarios.expectations` defines models
decorated with :func:`expectation` (a field ``expect: Literal["name"]`` and a method
``check(state, ctx)`` returning ``(ok, detail)``). Adding a word to the vocabulary is adding a
module; nothing else changes.

Modules are imported on use: :func:`words` lists which module defines which word by reading the
modules' text (cheap: nothing is imported), and :func:`models` imports only the modules of the
words a file uses. A word the listing cannot place (defined in an unusual way) is still found:
:func:`models` then answers ``None`` and the caller loads everything (:func:`load_all`).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Optional

from tapeline.rules.dice import Dice

from .plain import Plain, annotation_of

ACTIONS_MODELS: dict[str, type[Plain]] = {}
EXPECT_MODELS: dict[str, type[Plain]] = {}


def _tag(cls: type[Plain], field_name: str) -> str:
    return annotation_of(cls, field_name).__args__[0]


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


#: The two vocabularies: the key naming an entry's word, its package and its registry.
KINDS = {
    "action": ("tapeline.scenarios.actions", ACTIONS_MODELS),
    "expect": ("tapeline.scenarios.expectations", EXPECT_MODELS),
}

_loaded = False


def _modules(pkg_name: str) -> list[tuple[str, Optional[Path]]]:
    """The modules of a vocabulary package, sorted by name, with their source file (or None)."""
    pkg = importlib.import_module(pkg_name)
    out = []
    for m in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        folder = getattr(m.module_finder, "path", None)
        out.append((m.name, Path(folder) / f"{m.name}.py" if folder else None))
    return out


def load_all() -> None:
    """Import every module of both vocabularies (each registers its words)."""
    global _loaded
    if _loaded:
        return
    for pkg_name, _ in KINDS.values():
        for name, _ in _modules(pkg_name):
            importlib.import_module(f"{pkg_name}.{name}")
    _loaded = True


@lru_cache(maxsize=None)
def words(kind: str) -> dict[str, str]:
    """``{word: module}`` for one vocabulary (``"action"`` or ``"expect"``): :func:`read_words`'
    listing, as kept in the schema snapshot where there is one (:mod:`scenarios.schemasnap`,
    made from the same sources), else read now."""
    from . import schemasnap

    snap = schemasnap.snapshot()
    listing = snap.get("listing", {}).get(kind) if snap is not None else None
    return dict(listing) if listing is not None else read_words(kind)


def read_words(kind: str) -> dict[str, str]:
    """``{word: module}`` for one vocabulary, read from the modules' text: each
    ``<kind>: Literal["word"]`` field names a word of that module."""
    pkg_name, _ = KINDS[kind]
    pattern = re.compile(rf"^\s+{kind}:\s*Literal\[\s*[\"']([^\"']+)[\"']\s*\]", re.M)
    out: dict[str, str] = {}
    for name, path in _modules(pkg_name):
        try:
            text = path.read_text(encoding="utf-8") if path is not None else ""
        except OSError:
            continue
        for word in pattern.findall(text):
            out.setdefault(word, f"{pkg_name}.{name}")
    return out


def models(kind: str, used: Iterable[str]) -> Optional[dict[str, type[Plain]]]:
    """The registered models of the words ``used`` (importing only their modules), or ``None``
    when one of them is not placed by :func:`words` or its module does not register it."""
    _, table = KINDS[kind]
    where = words(kind)
    out = {}
    for word in used:
        if word not in table:
            if word not in where:
                return None
            importlib.import_module(where[word])
        if word not in table:
            return None
        out[word] = table[word]
    return out


@dataclass
class ReplayContext:
    """What actions and expectations see besides the state: the dice, the file's settings,
    the index of the action being resolved and what earlier actions produced (``results``,
    by action index)."""

    dice: Dice
    settings: Any
    index: Optional[int] = None
    results: dict[int, dict] = field(default_factory=dict)
