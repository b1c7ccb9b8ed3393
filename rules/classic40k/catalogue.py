"""The bundled Warhammer 40,000 3rd edition unit catalogue (``catalogue.yaml``, with each entry's
source): Space Marines and their Veteran Sergeant, Ork Boyz and their Nob, read the way the
StarCraft catalogue is (:mod:`tapeline.rules.stat_catalogue`): a file's ``profile: space-marine``
gives the unit's stat line, ``stats.models.ID.profile: veteran-sergeant`` a model's, and the
file's own values override them.

>>> catalogue()["space-marine"]["leadership"], catalogue()["nob"]["wounds"]
(8, 2)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Optional

from .. import stat_catalogue
from ..melee.weapons import MeleeWeapon
from ..systems import UnitEntry, UnitInfo
from .weapons import WEAPONS

#: The catalogue file, beside this module (package data, read directly).
SOURCE = Path(__file__).with_name("catalogue.yaml")
TITLE = "Warhammer 40,000 3rd edition"


def catalogue() -> Mapping[str, Mapping[str, Any]]:
    """The raw catalogue entries, by key."""
    return stat_catalogue.read(SOURCE)


def unit_info(entry: UnitEntry) -> UnitInfo:
    """The unit's profile and its models' profiles with the file's values over them."""
    return stat_catalogue.merge(TITLE, catalogue(), entry)


def _melee(name: str, defined: Mapping[str, Any]) -> Optional[MeleeWeapon]:
    if name in defined:
        return MeleeWeapon.from_spec(name, defined[name])
    return WEAPONS.get(name)


def listing() -> list[dict[str, Any]]:
    """Every profile with its stats and weapon profiles (``tapeline units classic40k``)."""
    return stat_catalogue.listing(catalogue(), _melee)
