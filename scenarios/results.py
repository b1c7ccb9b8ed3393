"""Answers as typed, immutable values: one class per query, with exactly the command's JSON keys.

Each query is computed once, by the ``query(loaded, args)`` function of its command module, as
the JSON object the command prints. :meth:`Result.from_json` turns that object into a frozen
dataclass — strictly: a key that is not a field is an error, so a command cannot grow a key the
Python value lacks — and :meth:`Result.as_json` gives the very same object back (same keys,
same order). The command prints ``as_json()`` of the value the Python API returns, so the two
cannot drift.

Nested objects are read-only mappings and lists are tuples; ``as_json()`` turns them back
into dicts and lists.

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
from typing import Any, ClassVar, Optional, Self, TypeVar



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
                            f"add them to {cls.__name__} in scenarios/results.py")
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


@dataclass(frozen=True)
class Charge(Result):
    """``tapeline charge``: the path length the Leading Model needs to a legal end spot
    (``distance``, None when none can be reached), the smallest roll that makes it
    (``min_roll``), the exact ``probability``, the ``path`` and its ``end``. StarCraft adds
    ``speed``, ``modifier``, ``reach``, ``grass_crossed`` and ``notes``; the other systems
    ``allowed``, ``reason`` and ``details``. With a roll: ``success`` and the outcome ``roll``."""

    command: ClassVar[str] = "charge"
    system: str = ""
    unit: str = ""
    targets: tuple[str, ...] = ()
    leader: Optional[str] = None
    distance: Optional[float] = None
    min_roll: Optional[int] = None
    probability: float = 0.0
    probability_fraction: str = ""
    dice: str = ""
    path: tuple[Point, ...] = ()
    end: Optional[Point] = None
    speed: Optional[int] = None
    modifier: Optional[int] = None
    reach: Optional[JSON] = None
    grass_crossed: Optional[tuple[str, ...]] = None
    notes: Optional[tuple[str, ...]] = None
    allowed: Optional[bool] = None
    reason: Optional[str] = None
    details: Optional[JSON] = None
    success: Optional[bool] = None
    roll: Optional[JSON] = None


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


@dataclass(frozen=True)
class Attack(Result):
    """``tapeline attack``: which models fire, which target models may be removed, the attack
    dice, and the exact distributions (index k holds P(value = k)) and means of hits, damage
    dice, damage and kills; ``kills_at_least[k]`` is P(kills ≥ k); one entry per Batch in
    ``batches``."""

    command: ClassVar[str] = "attack"
    unit: str = ""
    target: str = ""
    firing_models: tuple[str, ...] = ()
    visible_targets: tuple[str, ...] = ()
    dice: int = 0
    mean_hits: float = 0.0
    mean_damage_dice: float = 0.0
    mean_damage: float = 0.0
    mean_kills: float = 0.0
    hits_pmf: tuple[float, ...] = ()
    damage_dice_pmf: tuple[float, ...] = ()
    damage_pmf: tuple[float, ...] = ()
    kills_pmf: tuple[float, ...] = ()
    kills_at_least: tuple[float, ...] = ()
    marker_pmf: tuple[float, ...] = ()
    batches: tuple[JSON, ...] = ()


@dataclass(frozen=True)
class Template(Result):
    """``tapeline template``: the ``template`` placed (``{shape, centre, radius}`` for a disc,
    ``{shape, polygon}`` and its exact circles for a teardrop) and every model it ``covered``
    (``{model, unit, full, margin, overlap, inside}``). Placed by hand: ``near_misses``. Fired
    by a StarCraft template weapon: the ``target_point``, the ``affected`` models by unit, the
    ``excluded`` ones with their reason, and each Batch with its dice and exact odds."""

    command: ClassVar[str] = "template"
    template: JSON = field(default_factory=lambda: MappingProxyType({}))
    covered: tuple[JSON, ...] = ()
    near_misses: tuple[JSON, ...] = ()
    unit: Optional[str] = None
    weapon: Optional[str] = None
    firing_model: Optional[str] = None
    target_model: Optional[str] = None
    primary: Optional[str] = None
    target_point: Optional[Point] = None
    level: Optional[str] = None
    affected: Optional[JSON] = None
    excluded: Optional[tuple[JSON, ...]] = None
    template_casualties: Optional[str] = None
    batches: Optional[tuple[JSON, ...]] = None

    def covered_ids(self) -> tuple[str, ...]:
        """The covered models, in file order."""
        return tuple(str(c["model"]) for c in self.covered)


@dataclass(frozen=True)
class Fight(Result):
    """``tapeline fight``: who fights (``fighters``: unit → model ids) and the exact odds.
    StarCraft (the unit's Close Combat Attack as the board stands): ``fighting_rank``,
    ``supporting_rank``, the target unit each striker attacks (``assign``) with which weapon,
    ``dice`` and ``odds`` per target unit, ``surge_to``, ``evade``, and with ``--charged`` the
    ``impact`` of IMPACT (X). Horus Heresy / 40k 3rd (one
    whole round of the combat, Initiative step by step): ``combat`` (its units), ``steps``,
    ``expected_casualties``, ``casualties_pmf``, ``result`` (unit → P(wins), ``draw``); 40k
    adds each model's ``attacks``, the wounds' distributions, ``falls_back`` and the
    ``readings`` used."""

    command: ClassVar[str] = "fight"
    system: str = ""
    unit: str = ""
    fighters: JSON = field(default_factory=lambda: MappingProxyType({}))
    fighting_rank: Optional[tuple[str, ...]] = None
    supporting_rank: Optional[tuple[str, ...]] = None
    assign: Optional[JSON] = None
    weapons: Optional[JSON] = None
    dice: Optional[JSON] = None
    surge_to: Optional[str] = None
    evade: Optional[JSON] = None
    odds: Optional[JSON] = None
    casualty_priority_range: Optional[str] = None
    impact: Optional[JSON] = None
    combat: Optional[tuple[str, ...]] = None
    charged: Optional[tuple[str, ...]] = None
    attacks: Optional[JSON] = None
    active_side: Optional[str] = None
    initiative_steps: Optional[tuple[int, ...]] = None
    steps: Optional[tuple[JSON, ...]] = None
    expected_casualties: Optional[JSON] = None
    casualties_pmf: Optional[JSON] = None
    expected_wounds: Optional[JSON] = None
    wounds_pmf: Optional[JSON] = None
    result: Optional[JSON] = None
    sides: Optional[JSON] = None
    falls_back: Optional[JSON] = None
    readings: Optional[JSON] = None
    excluded: Optional[tuple[str, ...]] = None


@dataclass(frozen=True)
class Models(Result):
    """``tapeline models``: every unit (side, profile, statuses, Leading Model, Damage Marker,
    casualties) with its models (position, base, what it stands on, level)."""

    command: ClassVar[str] = "models"
    system: str = ""
    units: tuple[JSON, ...] = ()

    def ids(self) -> tuple[str, ...]:
        """Every model id on the table, in file order."""
        return tuple(str(m["id"]) for u in self.units for m in u["models"])


@dataclass(frozen=True)
class Replay(Result):
    """``tapeline replay``: ``ok`` when every expectation holds, the event log (every die and
    every verdict), each expectation's verdict, and the ``final`` state."""

    command: ClassVar[str] = "replay"
    ok: bool = False
    events: tuple[JSON, ...] = ()
    expectations: tuple[JSON, ...] = ()
    final: JSON = field(default_factory=lambda: MappingProxyType({}))


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

#: The typed answer of each command (commands not listed answer with :class:`Answer`).
BY_COMMAND: dict[str, type[Result]] = {
    c.command: c for c in (Measure, Sight, Charge, PathCheck, Attack, Template, Fight, Models, Replay)
}


def result(command: str, obj: JSON) -> Result:
    """The typed value of ``command``'s JSON answer ``obj``."""
    cls = BY_COMMAND.get(command)
    return Answer.of(command, obj) if cls is None else cls.from_json(obj)
