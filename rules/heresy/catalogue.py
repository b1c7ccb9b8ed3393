"""The bundled Horus Heresy 3rd edition unit catalogue (``catalogue.yaml``, with each entry's
source): the Legion Tactical and Assault Squads and their Sergeants, read the way the StarCraft
catalogue is (:mod:`tapeline.rules.stat_catalogue`): a file's ``profile: legion-tactical-squad``
gives the unit's stat line, ``stats.models.ID.profile: legion-sergeant`` a model's, and the
file's own values override them.

>>> catalogue()["legion-tactical-squad"]["movement"], catalogue()["assault-sergeant"]["leadership"]
(7, 8)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Optional

from .. import stat_catalogue
from ..melee.weapons import MeleeWeapon
from ..systems import UnitEntry, UnitInfo
from .weapons import ARMOURY, _lookup

#: The catalogue file, beside this module (package data, read directly).
SOURCE = Path(__file__).with_name("catalogue.yaml")
TITLE = "Horus Heresy 3rd edition"


def catalogue() -> Mapping[str, Mapping[str, Any]]:
    """The raw catalogue entries, by key."""
    return stat_catalogue.read(SOURCE)


def unit_info(entry: UnitEntry) -> UnitInfo:
    """The unit's profile and its models' profiles with the file's values over them."""
    return stat_catalogue.merge(TITLE, catalogue(), entry)


def _melee(name: str, defined: Mapping[str, Any]) -> Optional[MeleeWeapon]:
    k = _lookup(name, defined)
    if k is None:
        return None
    return MeleeWeapon.from_spec(k, defined[k]) if k in defined else ARMOURY[k]


def listing() -> list[dict[str, Any]]:
    """Every profile with its stats and weapon profiles (``tapeline units heresy``)."""
    return stat_catalogue.listing(catalogue(), _melee)
