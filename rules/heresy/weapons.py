"""Horus Heresy 3rd weapons (§A.7, §A.11): melee and ranged profiles, characteristic modifiers,
Combat Initiative, and which weapon a model uses.

A melee profile modifies the wielder's characteristics: **IM** (Initiative), **AM** (Attacks)
and **SM** (Strength) are each written as

* ``I`` / ``A`` / ``S`` (or omitted): unchanged;
* ``+n`` / ``-n``: added / subtracted;
* ``xn``: multiplied;
* ``n`` (a bare number): replaces the characteristic.

**Combat Initiative** is the model's Initiative through the weapon's IM; any status on the unit
(§A.5) sets it to 1. Official examples with I 4: +2 → 6, −1 → 3, x2 → 8, 2 → 2, I → 4.

A model with no melee weapon fights with the **basic close combat weapon**: IM I, AM A, SM S,
no AP, Damage 1 (the reading of the fuller rulebook transcription; the other has IM 1, SM S−1 —
docs/heresy-assault.md).

Traits are a mapping ``name → value`` (``shred: 6``, ``breaching: 5``, ``rending: 6``,
``critical_hit: 6``, ``precision: 6``, ``duellists_edge: 1``, ``assault: null`` …).

>>> [combat_initiative(4, m) for m in ("+2", "-1", "x2", "2", "I")]
[6, 3, 8, 2, 4]
>>> apply_modifier(4, "+4"), apply_modifier(4, "x2"), apply_modifier(1, "-3")
(8, 8, 0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Union

from ..errors import IllegalAction

RULE = "HH3 §A.7 weapons"
_MOD = re.compile(r"^\s*([IASias]|[+\-−x×*]?\s*\d{1,3})\s*$")
Mod = Union[int, str, None]


def valid_modifier(mod: Mod) -> bool:
    return mod is None or isinstance(mod, int) or bool(_MOD.match(str(mod)))


def apply_modifier(value: int, mod: Mod) -> int:
    """A characteristic through a weapon's modifier (never below 0)."""
    if mod is None:
        return int(value)
    if isinstance(mod, int):
        return max(0, mod)
    s = str(mod).strip().replace("−", "-").replace("×", "x").replace("*", "x").replace(" ", "")
    if s.upper() in ("I", "A", "S"):
        return int(value)
    if s[0] == "+":
        return max(0, int(value) + int(s[1:]))
    if s[0] == "-":
        return max(0, int(value) - int(s[1:]))
    if s[0] in "xX":
        return max(0, int(value) * int(s[1:]))
    return max(0, int(s))


def combat_initiative(initiative: int, im: Mod, has_status: bool = False) -> int:
    """Combat Initiative (§A.7): I through the weapon's IM; 1 for a unit with any status."""
    return 1 if has_status else apply_modifier(initiative, im)


@dataclass(frozen=True)
class MeleeProfile:
    """One melee weapon profile (a weapon with several profiles has one per profile)."""

    name: str
    profile: Optional[str] = None
    initiative: Mod = "I"
    attacks: Mod = "A"
    strength: Mod = "S"
    ap: Optional[int] = None
    damage: int = 1
    traits: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.name if self.profile is None else f"{self.name} ({self.profile})"

    def trait(self, name: str, default=None):
        return self.traits.get(name, default)


@dataclass(frozen=True)
class RangedProfile:
    """One ranged weapon profile (Volleys, Overwatch, Gun Down)."""

    name: str
    profile: Optional[str] = None
    range: float = 0.0
    firepower: int = 1
    strength: Mod = 4
    ap: Optional[int] = None
    damage: int = 1
    traits: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.name if self.profile is None else f"{self.name} ({self.profile})"

    @property
    def assault(self) -> bool:
        return "assault" in self.traits


BASIC = MeleeProfile("basic close combat weapon")


def _profiles(entries, cls) -> list:
    out = []
    for e in entries or ():
        e = dict(e)
        out.append(cls(**{k: v for k, v in e.items() if k in cls.__dataclass_fields__}))
    return out


def _own(stats: Mapping, model_id: str) -> Mapping:
    return (stats.get("models") or {}).get(model_id) or {}


def melee_weapons(stats: Mapping, model_id: str) -> list[MeleeProfile]:
    """A model's melee profiles: its own list if it has one, else the unit's; none → the basic
    close combat weapon."""
    own = _own(stats, model_id).get("melee_weapons")
    found = _profiles(own if own is not None else stats.get("melee_weapons"), MeleeProfile)
    return found or [BASIC]


def ranged_weapons(stats: Mapping, model_id: str) -> list[RangedProfile]:
    own = _own(stats, model_id).get("ranged_weapons")
    return _profiles(own if own is not None else stats.get("ranged_weapons"), RangedProfile)


def choose(options: list, wanted: Optional[str], model_id: str, what: str, strict: bool = False):
    """The profile named ``wanted`` (``name`` or ``name (profile)`` or ``name/profile``) among
    ``options``; none named → the first (strict mode: an error listing the options)."""
    if wanted is None:
        if strict and len(options) > 1:
            raise IllegalAction(RULE, f"choose the {what} {model_id} uses: one of {', '.join(o.label for o in options)}")
        return options[0]
    key = wanted.strip().lower().replace("/", " (").rstrip(")")
    for o in options:
        lab = o.label.lower().rstrip(")")
        if key in (lab, o.name.lower()) or wanted.lower() == o.label.lower():
            return o
    raise IllegalAction(RULE, f"{model_id} has no {what} {wanted!r} (it has {', '.join(o.label for o in options)})")
