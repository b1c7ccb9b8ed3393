"""The bundled StarCraft TMG unit catalogue (``catalogue.yaml``) as typed profiles.

A scenario names an entry with ``profile: marine``; the file's own values (``size``, ``base``,
``tags``, ``stats``) override the catalogue's. Names are the printed names in lower case with
spaces replaced by hyphens; :func:`key` also accepts the printed name in any case.

>>> p = unit_profile("Marine")
>>> p.hp, p.speed_for(models=1), p.weapon("C-14 Rifle").roa
(2, 7, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence, Union

import yaml

from ..errors import IllegalAction
from ..state import GameState

DICE_EXPR = ("D3", "D3+1", "D6")


def key(name: str) -> str:
    """Catalogue key of a printed name: ``"Quad K12"`` → ``"quad-k12"``."""
    return "-".join(name.strip().lower().split())


#: The catalogue file, beside this module (package data; read directly: importing
#: importlib.resources would cost a command more than reading the file).
SOURCE = Path(__file__).with_name("catalogue.yaml")


@lru_cache(maxsize=1)
def catalogue() -> Mapping[str, Mapping[str, Any]]:
    """The raw catalogue entries, by key: the YAML file's data, read once per process."""
    return yaml.load(SOURCE.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # type: ignore[no-any-return]


#: The weapon keywords (§11) a profile may carry: those the rules read (``Weapon.kw``), and
#: INSTANT, which takes Reactions away — tapeline models none, so it changes nothing here.
KEYWORDS = frozenset({"ability_template", "anti_evade", "bulky", "concentrated_fire", "critical_hit", "indirect_fire",
                      "instant", "long_range", "pierce", "pinpoint", "precision", "sidearm", "specialist"})


@dataclass(frozen=True)
class Weapon:
    """A weapon profile (§5.1): Phase, RNG, Target, RoA, Hit, Surge type and die, DMG, keywords."""

    key: str
    name: str
    phase: str
    range: Union[float, str]  # inches, or a template or special range (BT, FT, E, X)
    target: str
    roa: int
    hit: Optional[int]
    damage: int
    surge: tuple[str, ...] = ()
    surge_dice: Optional[str] = None
    keywords: Mapping[str, Any] = field(default_factory=dict)
    upgrade: bool = False

    def kw(self, name: str, default: Any = None) -> Any:
        return self.keywords.get(name, default)


@dataclass(frozen=True)
class UnitProfile:
    """A unit card's stat line (§5.1)."""

    key: str
    name: str
    speed: Optional[tuple[int, ...]]
    armour: Optional[int]
    evade: Optional[int]
    hp: Optional[int]
    shield: int
    size: Optional[int]
    tags: frozenset[str]
    base: Union[float, Sequence[float], None]  # mm: a round base's diameter, an oval's length and width
    supply: tuple[tuple[int, int, int], ...]
    abilities: frozenset[str]
    impact: Optional[tuple[int, int]]
    weapons: Mapping[str, Weapon]

    def speed_for(self, models: int, started_with: Optional[int] = None) -> Optional[int]:
        """Split Speed "a/b": the second value only for a unit down to one model or that
        started as a single model (§5.1); ``None`` for Null Speed "-"."""
        if not self.speed:
            return None
        single = models <= 1 or (started_with is not None and started_with <= 1)
        return self.speed[-1] if single else self.speed[0]

    def supply_for(self, models: int) -> int:
        for lo, hi, s in self.supply:
            if lo <= models <= hi:
                return s
        return self.supply[-1][2] if self.supply and models > self.supply[-1][1] else 0

    def weapon(self, name: str) -> Weapon:
        return self.weapons[key(name)]

    def has(self, ability: str) -> bool:
        return ability in self.abilities


def _weapon(k: str, d: Mapping[str, Any]) -> Weapon:
    return Weapon(
        key=k,
        name=d.get("name", k),
        phase=d["phase"],
        range=d["range"],
        target=d.get("target", "ground"),
        roa=int(d["roa"]),
        hit=d.get("hit"),
        damage=int(d.get("damage", 1)),
        surge=tuple(d.get("surge") or ()),
        surge_dice=d.get("surge_dice"),
        keywords=dict(d.get("keywords") or {}),
        upgrade=bool(d.get("upgrade", False)),
    )


def make_profile(k: str, d: Mapping[str, Any]) -> UnitProfile:
    """A profile from a raw mapping (a catalogue entry with the file's overrides merged in)."""
    speed = d.get("speed")
    if isinstance(speed, int):
        speed = [speed]
    return UnitProfile(
        key=k,
        name=d.get("name", k),
        speed=tuple(speed) if speed else None,
        armour=d.get("armour"),
        evade=d.get("evade"),
        hp=d.get("hp"),
        shield=int(d.get("shield") or 0),
        size=d.get("size"),
        tags=frozenset(t.lower() for t in d.get("tags") or ()),
        base=d.get("base"),
        supply=tuple(tuple(b) for b in d.get("supply") or ()),
        abilities=frozenset(d.get("abilities") or ()),
        impact=tuple(d["impact"]) if d.get("impact") else None,
        weapons={wk: _weapon(wk, wd) for wk, wd in (d.get("weapons") or {}).items()},
    )


def unit_weapon(state: GameState, unit_id: str, weapon: str) -> Weapon:
    """The weapon ``weapon`` (printed name or key) of unit ``unit_id``'s profile (§5.1), or an
    :class:`IllegalAction` naming the weapons it has."""
    u = state.unit(unit_id)
    prof = make_profile(u.profile or u.id, u.stats)
    w = prof.weapons.get(key(weapon))
    if w is None:
        have = ", ".join(sorted(prof.weapons)) or "none"
        raise IllegalAction("§5.1 weapon profiles", f"unit {unit_id} has no weapon {weapon!r} (has: {have})")
    return w


def unit_profile(name: str, overrides: Optional[Mapping[str, Any]] = None) -> UnitProfile:
    """The catalogue profile ``name`` (printed name or key), with ``overrides`` applied."""
    k = key(name)
    raw = dict(catalogue()[k])
    if overrides:
        raw.update({kk: v for kk, v in overrides.items() if v is not None})
    return make_profile(k, raw)
