"""The 40k 3rd edition close combat weapons and kit tapeline knows by name (seed "Special Close
Combat Attacks"). A file may add profiles or override these under ``stats.melee_weapons``.

* ``close-combat-weapon`` (also ``chainsword``, ``combat-knife``) and pistols (``pistol``,
  ``bolt-pistol``, ``laspistol``, ``plasma-pistol``): no bonus to Strength; two of them (one in
  each hand) give +1 Attack.
* ``power-weapon`` (``power-sword``, ``power-axe``): ignores armour saves.
* ``power-fist`` (``power-claw``): doubles Strength to a maximum of 10, ignores armour saves,
  always strikes last. With a second close combat weapon (a pistol included) it earns the +1
  Attack for two weapons like any other pair (the seed: "bonuses for wielding two close combat
  weapons"); setting ``c40k_fist_extra_attack: second_fist`` reads it the later editions' way,
  only with a second fist or claw (:func:`weapons`).
* Kit: ``frag-grenades`` (defenders in cover lose their first strike against the unit),
  ``krak-grenades`` (no effect in close combat).

Monstrous creatures (``unit_type: monstrous_creature`` or the tag ``monstrous``) ignore armour
saves with every close combat attack.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Iterable, Mapping

from ..melee.weapons import MeleeWeapon, Modifier

_PLAIN = ("close-combat-weapon", "chainsword", "combat-knife", "pistol", "bolt-pistol", "laspistol", "plasma-pistol")
_POWER = ("power-weapon", "power-sword", "power-axe")
_FIST = ("power-fist", "power-claw")

WEAPONS = MappingProxyType({
    **{n: MeleeWeapon(n) for n in _PLAIN},
    **{n: MeleeWeapon(n, ignores_armour=True) for n in _POWER},
    **{n: MeleeWeapon(n, strength=Modifier("x", 2), ignores_armour=True, strikes_last=True) for n in _FIST},
})
#: The same with the ``second_fist`` reading: a fist or claw pairs only with a second one.
_SECOND_FIST = MappingProxyType({**WEAPONS, **{n: replace(WEAPONS[n], two_weapons="pair") for n in _FIST}})
#: Wargear that is not a weapon.
KIT = frozenset({"frag-grenades", "krak-grenades"})
#: What a model with no close combat weapon fights with: its own characteristics.
BARE_HANDS = MeleeWeapon("close combat attack", two_weapons="none")
MONSTROUS = ("monstrous_creature", "monstrous-creature", "monstrous")


def weapons(fist_reading: str = "any_weapon") -> Mapping[str, MeleeWeapon]:
    """The armoury under a reading of setting ``c40k_fist_extra_attack``: ``any_weapon`` (a fist
    and any other close combat weapon give +1 Attack) or ``second_fist`` (only two fists)."""
    return _SECOND_FIST if fist_reading == "second_fist" else WEAPONS


def known(name: str, file_weapons: Iterable[str] = ()) -> bool:
    return name in WEAPONS or name in KIT or name in file_weapons
