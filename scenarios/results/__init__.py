"""Answers as typed, immutable values: one class per query, with exactly the command's JSON keys.

Each query is computed once, by the ``query(loaded, args)`` function of its command module, as
the JSON object the command prints. :meth:`Result.from_json` turns that object into a frozen
dataclass — strictly: a key that is not a field is an error, so a command cannot grow a key the
Python value lacks — and :meth:`Result.as_json` gives the very same object back (same keys,
same order). The command prints ``as_json()`` of the value the Python API returns, so the two
cannot drift.

Nested objects are read-only mappings and lists are tuples; ``as_json()`` turns them back
into dicts and lists.

Each command's class is in a module of its own (``results/measure.py`` ...), loaded when the
class is first named (``results.Measure``, ``from tapeline.scenarios.results import Measure``):
a command makes only the class it answers with, not every one (docs/performance.md).

>>> from tapeline.scenarios.results import Measure
>>> m = Measure.from_json({"a": "m1", "b": "z1", "gap": 0.5, "contact": False})
>>> m.gap, m.contact, m.engaged
(0.5, False, None)
>>> m.as_json()
{'a': 'm1', 'b': 'z1', 'gap': 0.5, 'contact': False}
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

if TYPE_CHECKING:
    from .attack import Attack as Attack
    from .charge import Charge as Charge
    from .fight import Fight as Fight
    from .measure import Measure as Measure
    from .models import Models as Models
    from .pathcheck import PathCheck as PathCheck
    from .replay import Replay as Replay
    from .sight import Sight as Sight
    from .template import Template as Template

Point = tuple[float, float]
JSON = Mapping[str, Any]


def freeze(value: Any) -> Any:
    """Dicts become read-only mappings and lists tuples, all the way down."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """The inverse of :func:`freeze`: plain dicts and lists, ready for ``json.dumps``."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class Result:
    """Base of every answer: built from the command's JSON object, and back.

    ``str(result)`` is the command's human-readable answer.
    """

    #: the ``tapeline`` sub-command that prints this answer
    command: ClassVar[str] = ""
    _keys: tuple[str, ...] = field(default=(), repr=False, compare=False)

    @classmethod
    def from_json(cls, obj: JSON) -> Self:
        """The value for a command's JSON object; every key must be a field of ``cls``."""
        names = {f.name for f in dataclasses.fields(cls)} - {"_keys"}
        extra = [k for k in obj if k not in names]
        if extra:
            raise TypeError(f"{cls.__name__} has no field for the key(s) {', '.join(map(repr, extra))}: "
                            f"add them to {cls.__name__} in scenarios/results/")
        return cls(_keys=tuple(obj), **{k: freeze(v) for k, v in obj.items()})

    def as_json(self) -> dict[str, Any]:
        """The command's JSON object: the same keys, in the same order."""
        return {k: thaw(getattr(self, k)) for k in self._keys}

    def __str__(self) -> str:
        from importlib import import_module

        module = import_module(f"tapeline.scenarios.commands.{self.command}")
        human = getattr(module, "human", None)
        if human is None:
            return json.dumps(self.as_json(), indent=2, ensure_ascii=False)
        return str(human(self.as_json()))


@dataclass(frozen=True)
class Answer(Result):
    """A command's answer without a class of its own yet: its JSON object as a read-only
    mapping (``answer["key"]``, ``answer.data``)."""

    data: JSON = field(default_factory=lambda: MappingProxyType({}))
    name: str = ""

    @classmethod
    def of(cls, command: str, obj: JSON) -> "Answer":
        return cls(_keys=("data",), data=freeze(obj), name=command)

    def as_json(self) -> dict[str, Any]:
        return dict(thaw(self.data))

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __str__(self) -> str:
        return json.dumps(self.as_json(), indent=2, ensure_ascii=False)


ResultT = TypeVar("ResultT", bound=Result)

#: Each command's typed answer: the class and the module (of this package) defining it; commands
#: not listed answer with :class:`Answer`.
CLASSES: dict[str, tuple[str, str]] = {
    "measure": ("Measure", "measure"),
    "los": ("Sight", "sight"),
    "charge": ("Charge", "charge"),
    "path": ("PathCheck", "pathcheck"),
    "attack": ("Attack", "attack"),
    "template": ("Template", "template"),
    "fight": ("Fight", "fight"),
    "models": ("Models", "models"),
    "replay": ("Replay", "replay"),
}
_MODULE_OF = dict(CLASSES.values())


def __getattr__(name: str) -> Any:
    """A command's class, from its module on first use; ``BY_COMMAND``: every one of them."""
    if name in _MODULE_OF:
        cls = getattr(import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
        globals()[name] = cls
        return cls
    if name == "BY_COMMAND":
        return {command: __getattr__(cls_name) for command, (cls_name, _) in CLASSES.items()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:
    #: The typed answer of each command (commands not listed answer with :class:`Answer`).
    BY_COMMAND: dict[str, type[Result]]


def result(command: str, obj: JSON) -> Result:
    """The typed value of ``command``'s JSON answer ``obj``."""
    entry = CLASSES.get(command)
    if entry is None:
        return Answer.of(command, obj)
    cls: type[Result] = __getattr__(entry[0])
    return cls.from_json(obj)
