"""A model's close combat line from its unit's ``stats``: characteristics, wargear, weapons.

The file gives a unit's stat line once (``stats``) with one model's differences under
``stats.models`` (a sergeant's Attacks, a character's wargear), the kit every model carries
under ``stats.wargear``, and weapon profiles under ``stats.melee_weapons`` that add to or
override the rule system's own armoury (by name).

>>> from tapeline.rules.state import UnitState, frozen_map
>>> u = UnitState("squad", "red", ("s1", "s2"), stats=frozen_map({"attacks": 1, "wargear": ["bolt-pistol"],
...     "models": {"s1": {"attacks": 2, "wargear": ["power-fist"]}}}))
>>> model_line(u, "s1")["attacks"], model_line(u, "s2")["attacks"], wargear(u, "s1"), wargear(u, "s2")
(2, 1, ['power-fist'], ['bolt-pistol'])
"""

from __future__ import annotations

from typing import Any, Mapping

from ..state import UnitState
from .weapons import MeleeWeapon


def model_line(unit: UnitState, model: str) -> dict[str, Any]:
    """The unit's stats with ``stats.models[model]`` laid over them (``models`` dropped): a
    stat line as :attr:`~tapeline.rules.state.UnitState.stats` holds it."""
    line = {k: v for k, v in unit.stats.items() if k != "models"}
    line.update({k: v for k, v in ((unit.stats.get("models") or {}).get(model) or {}).items() if v is not None})
    return line


def wargear(unit: UnitState, model: str) -> list[str]:
    """The names of the model's wargear (its own list if it has one, else the unit's)."""
    return list(model_line(unit, model).get("wargear") or [])


def armoury(unit: UnitState, base: Mapping[str, MeleeWeapon]) -> dict[str, MeleeWeapon]:
    """The system's weapons with the file's ``melee_weapons`` added (same name: the file wins)."""
    out = dict(base)
    for name, spec in (unit.stats.get("melee_weapons") or {}).items():
        out[name] = MeleeWeapon.from_spec(name, spec)
    return out
