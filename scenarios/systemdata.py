"""What the loader needs from each rule system: its statuses and Combat Tags, which terrain is
impassable, and how a unit entry (profile + overrides) becomes rules data.

Each system's rules modules (catalogue, armoury, weapons) are imported when a file of that
system needs them, not when this module is: a StarCraft file loads no Horus Heresy code."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from tapeline.board.terrain import Piece


@dataclass
class UnitInfo:
    profile: Optional[str]
    size: int
    tags: list[str]
    base: Any
    stats: dict
    height: Optional[float] = None


@dataclass(frozen=True)
class SystemData:
    statuses: frozenset
    tags: Optional[frozenset]
    impassable: Callable[[Piece], bool]
    unit_info: Callable[[Any], UnitInfo]
    #: Further checks of a unit entry: ``check_unit(unit_spec)`` -> [(path inside the unit, message)].
    check_unit: Optional[Callable[[Any], list]] = None


def _file_stats(u) -> dict:
    return u.stats.model_dump(exclude_none=True) if u.stats is not None else {}


def _starcraft_unit(u) -> UnitInfo:
    from tapeline.rules.starcraft.catalogue import catalogue, key

    entry: dict = {}
    prof = None
    if u.profile is not None:
        prof = key(u.profile)
        if prof not in catalogue():
            raise KeyError("profile", f"no StarCraft TMG catalogue entry {u.profile!r}")
        entry = dict(catalogue()[prof])
    stats = {k: v for k, v in entry.items() if k not in ("base", "tags", "size")}
    stats.update(_file_stats(u))
    return UnitInfo(
        profile=prof,
        size=u.size if u.size is not None else int(entry.get("size") or 0),
        tags=[t.lower() for t in (u.tags if u.tags is not None else entry.get("tags") or [])],
        base=u.base if u.base is not None else entry.get("base"),
        stats=stats,
    )


def _no_catalogue(system: str):
    def unit_info(u) -> UnitInfo:
        if u.profile is not None:
            raise KeyError("profile", f"system {system} has no bundled catalogue; give the unit's stats instead")
        return UnitInfo(None, u.size or 0, [t.lower() for t in u.tags or []], u.base, _file_stats(u))

    return unit_info


def _wargear_names(known: Callable[[str, Any], bool]):
    """Check that every wargear name of a unit entry is known to the system or the file."""

    def check(u) -> list:
        st = u.stats
        if st is None:
            return []
        mine = set(st.melee_weapons or {}) | set(getattr(st, "ranged_weapons", None) or {})
        out = []
        lists = [(("stats", "wargear"), st.wargear or [])]
        lists += [(("stats", "models", m, "wargear"), ms.wargear or []) for m, ms in (st.models or {}).items()]
        for path, names in lists:
            for i, n in enumerate(names):
                if not known(n, mine):
                    out.append((path + (i,), f"unknown wargear {n!r} (define it under stats.melee_weapons)"))
        return out

    return check


def _trait_impassable(p: Piece) -> bool:
    return p.has("impassable")


def _starcraft_impassable(p: Piece) -> bool:
    from tapeline.rules.starcraft.terrain import impassable

    return impassable(p)


def _heresy_known(name: str, mine) -> bool:
    from tapeline.rules.heresy.weapons import known

    return known(name, mine)


def _c40k_known(name: str, mine) -> bool:
    from tapeline.rules.classic40k.armoury import known

    return known(name, mine)


SYSTEM_DATA = {
    "starcraft": SystemData(
        statuses=frozenset({"burrowed", "hidden", "stationary", "siege_mode", "stimpack", "guardian_shield", "concussed"}),
        tags=frozenset({"armoured", "biological", "light", "mechanical", "psionic", "flying", "ground"}),
        impassable=_starcraft_impassable,
        unit_info=_starcraft_unit,
    ),
    "heresy": SystemData(
        statuses=frozenset({"pinned", "suppressed", "stunned", "routed", "disgraced", "rushed", "embarked", "disembarked", "disordered"}),
        tags=None,
        impassable=_trait_impassable,
        unit_info=_no_catalogue("heresy"),
        check_unit=_wargear_names(_heresy_known),
    ),
    "classic40k": SystemData(
        statuses=frozenset({"falling_back", "pinned", "gone_to_ground", "fired_heavy", "deep_struck", "charged", "in_cover",
                            "sweeping_advance"}),
        tags=None,
        impassable=_trait_impassable,
        unit_info=_no_catalogue("classic40k"),
        check_unit=_wargear_names(_c40k_known),
    ),
}
