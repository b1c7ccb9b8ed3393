"""Melee weapon profiles: characteristic modifiers, AP, Damage and special rules.

A :class:`Modifier` says what a weapon does to one of the wielder's characteristics, in the
notation both rulebooks print (§A.7 "Combat Initiative"):

* the characteristic's own letter (``"S"``, ``"I"``, ``"A"``) or ``None``: unchanged;
* ``"+n"`` / ``"-n"``: add or subtract;
* ``"xn"``: multiply (a 40k power fist: ``"x2"``, capped at 10 by the system's chart);
* a bare number: replaces the characteristic.

>>> Modifier.parse("x2").apply(4, cap=10), Modifier.parse("x2").apply(6, cap=10)
(8, 10)
>>> Modifier.parse("-3").apply(4), Modifier.parse(2).apply(4), Modifier.parse("I").apply(4)
(1, 2, 4)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Optional, Union

#: Characteristic letters that mean "as the model" (§A.7: "I" leaves Initiative unchanged).
LETTERS = frozenset({"S", "I", "A", "WS", "T", "W"})
_MOD = re.compile(r"^\s*([+\-x×*]?)\s*(\d{1,3})\s*$")


@dataclass(frozen=True)
class Modifier:
    """``op`` is ``"keep"``, ``"="`` (replace), ``"+"`` (add, ``value`` may be negative) or
    ``"x"`` (multiply)."""

    op: str = "keep"
    value: int = 0

    @staticmethod
    def parse(v: Union[None, int, str, "Modifier"]) -> "Modifier":
        if v is None or isinstance(v, Modifier):
            return v or KEEP
        if isinstance(v, bool):
            raise ValueError(f"not a characteristic modifier: {v!r}")
        if isinstance(v, int):
            return Modifier("=", int(v))
        s = str(v).strip()
        if s.upper() in LETTERS:
            return KEEP
        m = _MOD.match(s)
        if not m:
            raise ValueError(f"not a characteristic modifier: {v!r} (use +n, -n, xn, a number or the letter)")
        sign, n = m.group(1), int(m.group(2))
        if sign == "":
            return Modifier("=", n)
        if sign in "x×*":
            return Modifier("x", n)
        return Modifier("+", n if sign == "+" else -n)

    def apply(self, base: int, cap: Optional[int] = None, floor: int = 0) -> int:
        if self.op == "keep":
            out = base
        elif self.op == "=":
            out = self.value
        elif self.op == "+":
            out = base + self.value
        else:
            out = base * self.value
        if cap is not None and self.op != "keep":
            out = min(out, cap)
        return max(floor, int(out))

    def __str__(self) -> str:
        return {"keep": "as the model", "=": str(self.value), "+": f"{self.value:+d}", "x": f"x{self.value}"}[self.op]


KEEP = Modifier()


@dataclass(frozen=True)
class MeleeWeapon:
    """One melee weapon profile.

    ``ap`` ``None``: no AP (armour saves as normal); ``ignores_armour``: no armour save at all
    (40k power weapons, power fists, monstrous creatures; invulnerable saves still allowed).
    ``strikes_last``: always in the last step, whatever Initiative or cover (40k power fist).
    ``two_weapons``: how the weapon counts for "+1 Attack for two close combat weapons" —
    ``"any"`` (with any other close combat weapon, a pistol included), ``"pair"`` (only with a
    second weapon of the same name), ``"none"`` (never). ``traits``: further special rules by
    name with their value (e.g. Horus Heresy ``{"shred": 6}``), read by the rule system.
    """

    name: str
    strength: Modifier = KEEP
    attacks: Modifier = KEEP
    initiative: Modifier = KEEP
    ap: Optional[int] = None
    damage: int = 1
    ignores_armour: bool = False
    strikes_last: bool = False
    two_weapons: str = "any"
    traits: Mapping[str, Optional[int]] = field(default_factory=lambda: MappingProxyType({}))

    @staticmethod
    def from_spec(name: str, spec: Mapping[str, Any]) -> "MeleeWeapon":
        """A profile from a plain mapping (the file's ``melee_weapons`` entry, as the unit's
        ``stats`` hold it: :attr:`~tapeline.rules.state.UnitState.stats`)."""
        return MeleeWeapon(
            name=str(spec.get("name") or name),
            strength=Modifier.parse(spec.get("strength")),
            attacks=Modifier.parse(spec.get("attacks")),
            initiative=Modifier.parse(spec.get("initiative")),
            ap=spec.get("ap"),
            damage=int(spec.get("damage", 1) or 1),
            ignores_armour=bool(spec.get("ignores_armour", False)),
            strikes_last=bool(spec.get("strikes_last", False)),
            two_weapons=str(spec.get("two_weapons", "any")),
            traits=MappingProxyType(dict(spec.get("traits") or {})),
        )
