"""Horus Heresy 3rd weapons (§A.7, §A.11): the armoury, which weapons a model carries, Combat
Initiative, ranged profiles.

Melee profiles are the shared :class:`rules.melee.weapons.MeleeWeapon`: **IM** (Initiative),
**AM** (Attacks) and **SM** (Strength) are :class:`rules.melee.weapons.Modifier` values — the
letter (unchanged), ``+n`` / ``-n``, ``xn`` or a bare number that replaces the characteristic —
with AP, Damage and traits (``shred: 6``, ``breaching: 5``, ``rending: 6``, ``critical_hit: 6``,
``duellists_edge: 1``, Impact (X) as ``impact_strength`` / ``impact_attacks`` /
``impact_weapon_skill`` / ``impact_initiative``). **Combat Initiative** is Initiative through IM; any status on the unit
sets it to 1 (official examples with I 4: +2 → 6, −1 → 3, x2 → 8, 2 → 2, I → 4).

A model carries the weapons its ``wargear`` names (its own list, else the unit's), looked up in
the file's ``melee_weapons`` / ``ranged_weapons`` and then :data:`ARMOURY`; with no ``wargear``
it carries every profile the unit's ``melee_weapons`` / ``ranged_weapons`` define. It fights with
one melee weapon: the file's choice, else the first it carries; none at all: the **basic close
combat weapon** (IM I, AM A, SM S, no AP, Damage 1 — the fuller transcription's reading; the
other has IM 1, SM S−1, docs/heresy-assault.md). A weapon with several profiles is defined once
per profile, under its own key (``frost blade (fast)``): Strike Groups split by key.

>>> [combat_initiative(4, m) for m in ("+2", "-1", "x2", "2", "I")]
[6, 3, 8, 2, 4]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional, Sequence, TypeVar, Union

from .. import choices
from ..errors import IllegalAction
from ..melee.loadout import model_line
from ..melee.weapons import MeleeWeapon, Modifier
from ..state import UnitState

RULE = "HH3 §A.7 weapons"


def _w(name: str, im: Optional[str] = None, sm: Optional[str] = None, ap: Optional[int] = None, d: int = 1,
       **traits: int) -> MeleeWeapon:
    return MeleeWeapon(name, strength=Modifier.parse(sm), initiative=Modifier.parse(im), ap=ap, damage=d,
                       traits=MappingProxyType(traits))


#: Impact (X) (§A.11): after a successful charge that was not Disordered, +1 to characteristic X
#: for melee attacks for the rest of the Assault phase. One trait per characteristic, its value
#: null (``impact_strength: null`` is Impact (S)).
IMPACT_TRAITS = MappingProxyType({"impact_strength": "strength", "impact_attacks": "attacks",
                                  "impact_weapon_skill": "weapon_skill", "impact_initiative": "initiative"})
#: The traits a melee profile may carry, each read by the rules: Shred, Breaching, Rending and
#: Critical Hit by the Wound Tests (:mod:`rules.heresy.melee`), Duellist's Edge by a challenge's
#: Focus roll (:mod:`rules.heresy.challenge`), Impact (X) by the fighter's characteristics.
MELEE_TRAITS = frozenset({"shred", "breaching", "rending", "critical_hit", "duellists_edge"} | set(IMPACT_TRAITS))
#: The traits a ranged profile may carry: Assault (Volleys) and the Wound Tests' traits.
RANGED_TRAITS = frozenset({"assault", "shred", "breaching", "rending", "critical_hit"})

#: Legiones Astartes melee profiles (§A.11, docs/heresy-assault.md); a file may override any.
ARMOURY = MappingProxyType({
    "chainsword": _w("chainsword", ap=5, shred=6),
    "power sword": _w("power sword", ap=3, breaching=6),
    "power axe": _w("power axe", im="-1", sm="+1", ap=3, breaching=5),
    "power maul": _w("power maul", im="-1", sm="+2", ap=3, breaching=6),
    "lightning claw": _w("lightning claw", ap=3, rending=6, breaching=6),
    "thunder hammer": _w("thunder hammer", im="-2", sm="+3", ap=2, d=2),
    "power fist": _w("power fist", im="-3", sm="+4", ap=2, d=2),
})
BASIC = MeleeWeapon("basic close combat weapon")


def norm(name: str) -> str:
    """A weapon name as compared: any case, hyphens or underscores for spaces (``power-fist``,
    ``Power Fist`` and ``power fist`` are one weapon; the spec's naming convention)."""
    return " ".join(str(name).lower().replace("-", " ").replace("_", " ").split())


_BY_NORM = {norm(k): k for k in ARMOURY}


def _lookup(name: str, file: Mapping[str, Any]) -> Optional[str]:
    """The key ``name`` stands for: the file's own profile of that name, else the armoury's."""
    if name in file:
        return name
    n = norm(name)
    return next((k for k in file if norm(k) == n), None) or _BY_NORM.get(n)


#: Wargear tapeline knows but that is not a weapon profile.
KIT: frozenset[str] = frozenset()


def combat_initiative(initiative: int, im: Union[Modifier, str, int, None], has_status: bool = False) -> int:
    """Combat Initiative (§A.7): I through the weapon's IM; 1 for a unit with any status."""
    return 1 if has_status else Modifier.parse(im).apply(int(initiative))


@dataclass(frozen=True)
class RangedProfile:
    """One ranged weapon profile (Volleys, Overwatch, Gun Down)."""

    name: str
    range: float = 0.0
    firepower: int = 1
    strength: int = 4
    ap: Optional[int] = None
    damage: int = 1
    traits: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.name

    @property
    def assault(self) -> bool:
        return "assault" in self.traits


def _names(unit: UnitState, model: str, key: str) -> list[str]:
    line = model_line(unit, model)
    if line.get("wargear") is not None:
        return list(line["wargear"])
    return list((unit.stats.get(key) or {}).keys()) + ([] if key != "melee_weapons" else [])


def melee_options(unit: UnitState, model: str) -> list[tuple[str, MeleeWeapon]]:
    """``(key, profile)`` of the melee weapons ``model`` carries; none → the basic weapon."""
    file = unit.stats.get("melee_weapons") or {}
    out: list[tuple[str, MeleeWeapon]] = []
    for n in _names(unit, model, "melee_weapons"):
        k = _lookup(n, file)
        if k is not None and k in file:
            out.append((k, MeleeWeapon.from_spec(k, file[k])))
        elif k is not None:
            out.append((k, ARMOURY[k]))
    return out or [(BASIC.name, BASIC)]


def melee_problem(unit: UnitState, model: str, wanted: str) -> Optional[str]:
    """Why ``model`` of ``unit`` carries no melee weapon ``wanted`` (what :func:`choose` would
    refuse in a fight or a challenge; ``None``: it carries one)."""
    try:
        choose(melee_options(unit, model), wanted, model, "melee weapon")
    except IllegalAction as e:
        return str(e)  # the message and the rule, as the fight refuses it
    return None


def ranged_options(unit: UnitState, model: str) -> list[RangedProfile]:
    """The ranged weapons ``model`` carries."""
    file = unit.stats.get("ranged_weapons") or {}
    out: list[RangedProfile] = []
    for name in _names(unit, model, "ranged_weapons"):
        n = next((k for k in file if norm(k) == norm(name)), None)
        if n is not None:
            spec = dict(file[n])
            out.append(RangedProfile(n, float(spec["range"]), int(spec.get("firepower", 1)), int(spec["strength"]), spec.get("ap"),
                                     int(spec.get("damage", 1)), dict(spec.get("traits") or {})))
    return out


def known(name: str, file_weapons: Iterable[str] = ()) -> bool:
    """Is ``name`` a weapon or kit the system or the file defines (wargear check)?"""
    n = norm(name)
    return n in _BY_NORM or n in {norm(k) for k in KIT} or n in {norm(f) for f in file_weapons} or n == norm(BASIC.name)


#: A weapon option: a melee weapon's ``(key, profile)`` or a ranged profile.
Option = TypeVar("Option", tuple[str, MeleeWeapon], RangedProfile)


def choose(options: Sequence[Option], wanted: Optional[str], model_id: str, what: str, settings: Any = None) -> Option:
    """The option named ``wanted`` (a key or a label) among ``options`` (``(key, profile)`` pairs
    or profiles); none named → the first, the reading ``weapon.<model>`` (the file's
    ``settings`` in strict mode: an error listing them, :mod:`rules.choices`)."""
    keys = [o[0] if isinstance(o, tuple) else o.label for o in options]
    if wanted is None:
        first = choices.default(settings, f"weapon.{model_id}", keys[0], keys, RULE, f"the {what} {model_id} uses",
                                "weapons")
        return options[keys.index(first)]
    for k, o in zip(keys, options):
        if norm(wanted) == norm(k):
            return o
    raise IllegalAction(RULE, f"{model_id} has no {what} {wanted!r} (it has {', '.join(keys)})")
