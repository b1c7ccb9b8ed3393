"""A bundled catalogue of stat lines, as Horus Heresy 3rd and 40k 3rd share it: each system's
``catalogue.yaml`` (read by its ``catalogue`` module) names profiles by their printed names in
lower case with spaces replaced by hyphens, each a flat mapping of the file format's ``stats``
fields plus ``name`` (printed), ``base`` (mm), ``tags`` and ``subtypes``.

A unit's ``profile:`` gives the unit's stat line; a model's own ``stats.models.ID.profile`` gives
that model's (a Sergeant in a squad). The merge order is StarCraft's (``rules/starcraft/system.py``):
the profile's values first, the file's own values over them, key by key (a file's ``wargear``
replaces the profile's list); a unit's ``base``, ``size`` and ``tags`` given in the file win
over the profile's. A model profile gives the model's characteristics and kit (the fields a
``stats.models`` entry has), the model's own values override them, its ``subtypes`` add to the
profile's, and the weapons the profile defines join the unit's definitions (the unit's own of
the same name win).

>>> cat = {"squad": {"name": "Squad", "base": 32, "tags": ["infantry"], "attacks": 1,
...                  "wargear": ["bolter"]},
...        "sarge": {"name": "Sarge", "attacks": 2, "leadership": 8, "subtypes": ["sergeant"]}}
>>> info = merge("Test", cat, UnitEntry("u", "squad", stats={"leadership": 7,
...     "models": {"s1": {"profile": "sarge", "subtypes": []}}}))
>>> info.base, info.tags, info.stats["attacks"], info.stats["models"]["s1"]
(32, ['infantry'], 1, {'attacks': 2, 'leadership': 8, 'subtypes': ['sergeant']})
"""

from __future__ import annotations

import difflib
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Optional

import yaml

from .systems import UnitEntry, UnitInfo, UnitProblem

#: What a profile holds besides stats: the printed name and the unit-level defaults.
UNIT_FIELDS = ("name", "base", "tags", "size")
#: The fields a model's own entry (``stats.models.ID``) may take from a profile.
MODEL_FIELDS = frozenset({"movement", "initiative", "weapon_skill", "ballistic_skill", "strength", "toughness", "wounds",
                          "attacks", "leadership", "cool", "willpower", "intelligence", "save", "invulnerable",
                          "armour_rear", "unit_type", "subtypes", "wargear"})
#: Weapon definitions a model profile brings to its unit.
WEAPON_FIELDS = ("melee_weapons", "ranged_weapons")


def key(name: str) -> str:
    """Catalogue key of a printed name: ``"Legion Tactical Squad"`` → ``"legion-tactical-squad"``."""
    return "-".join(str(name).strip().lower().split())


@lru_cache(maxsize=4)
def read(path: Path) -> Mapping[str, Mapping[str, Any]]:
    """A catalogue file's entries by key, read once per process."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return data or {}


def unknown(title: str, name: str, known: Mapping[str, Any]) -> str:
    """``no <title> catalogue entry 'x'; closest: a, b`` (or the entries there are)."""
    near = difflib.get_close_matches(key(name), list(known), n=3, cutoff=0.5)
    if near:
        return f"no {title} catalogue entry {name!r}; closest: {', '.join(near)}"
    return f"no {title} catalogue entry {name!r} (entries: {', '.join(sorted(known)) or 'none'})"


def _card(title: str, cat: Mapping[str, Mapping[str, Any]], name: str, where: tuple[Any, ...]) -> tuple[str, dict[str, Any]]:
    k = key(name)
    if k not in cat:
        raise UnitProblem(where, unknown(title, name, cat))
    return k, dict(cat[k])


def merge(title: str, cat: Mapping[str, Mapping[str, Any]], entry: UnitEntry) -> UnitInfo:
    """The unit's rules data: its profile (if any) with the file's values over it, and each
    model's own profile resolved the same way (:class:`UnitProblem` for an unknown one)."""
    card: dict[str, Any] = {}
    prof: Optional[str] = None
    if entry.profile is not None:
        prof, card = _card(title, cat, entry.profile, ("profile",))
    stats = {k: v for k, v in card.items() if k not in UNIT_FIELDS}
    stats.update(entry.stats)
    if entry.stats.get("models"):
        stats["models"] = {mid: _model(title, cat, mid, dict(own), stats) for mid, own in entry.stats["models"].items()}
    return UnitInfo(
        profile=prof,
        size=entry.size if entry.size is not None else int(card.get("size") or 0),
        tags=[t.lower() for t in (entry.tags if entry.tags is not None else card.get("tags") or [])],
        base=entry.base if entry.base is not None else card.get("base"),
        stats=stats,
    )


def _model(title: str, cat: Mapping[str, Mapping[str, Any]], mid: str, own: dict[str, Any],
           unit_stats: dict[str, Any]) -> dict[str, Any]:
    """One model's line: its profile's model fields, its own values over them; the profile's
    weapon definitions join the unit's (the unit's own win)."""
    name = own.pop("profile", None)
    if name is None:
        return own
    _, card = _card(title, cat, name, ("stats", "models", mid, "profile"))
    line = {k: v for k, v in card.items() if k in MODEL_FIELDS}
    subtypes = list(line.get("subtypes") or []) + [s for s in own.pop("subtypes", None) or [] if s not in (line.get("subtypes") or [])]
    line.update(own)
    if subtypes:
        line["subtypes"] = subtypes
    for field in WEAPON_FIELDS:
        if card.get(field):
            unit_stats[field] = {**card[field], **(unit_stats.get(field) or {})}
    return line


# --- the listing `tapeline units` prints ------------------------------------------------------

#: The characteristics a listing shows, in the order the rulebooks print them.
STAT_ORDER = ("movement", "weapon_skill", "ballistic_skill", "strength", "toughness", "wounds", "initiative", "attacks",
              "leadership", "cool", "willpower", "intelligence", "save", "invulnerable", "unit_type")


def notation(mod: Any, letter: str) -> str:
    """A melee weapon's modifier as the books print it: the letter, ``+1``, ``-3``, ``x2``, ``4``."""
    if mod.op == "keep":
        return letter
    if mod.op == "+":
        return f"{mod.value:+d}"
    return f"x{mod.value}" if mod.op == "x" else str(mod.value)


def melee_row(key_: str, w: Any) -> dict[str, Any]:
    """One melee weapon profile (:class:`~tapeline.rules.melee.weapons.MeleeWeapon`) as plain data."""
    return {"key": key_, "name": w.name, "kind": "melee", "initiative": notation(w.initiative, "I"),
            "attacks": notation(w.attacks, "A"), "strength": notation(w.strength, "S"), "ap": w.ap, "damage": w.damage,
            "ignores_armour": w.ignores_armour, "strikes_last": w.strikes_last, "traits": dict(w.traits)}


def ranged_row(key_: str, spec: Mapping[str, Any]) -> dict[str, Any]:
    """One ranged weapon profile (a catalogue's ``ranged_weapons`` entry) as plain data."""
    return {"key": key_, "name": spec.get("name", key_), "kind": "ranged", "range": spec["range"],
            "firepower": spec.get("firepower", 1), "strength": spec["strength"], "ap": spec.get("ap"),
            "damage": spec.get("damage", 1), "traits": dict(spec.get("traits") or {})}


def listing(cat: Mapping[str, Mapping[str, Any]], melee: Any) -> list[dict[str, Any]]:
    """Every profile of ``cat``: its stats, base, tags, wargear and weapon profiles; ``melee(name,
    defined)`` gives the system's melee profile a wargear name stands for (``None``: kit)."""
    out = []
    for k, card in cat.items():
        defined = {n: s for n, s in (card.get("melee_weapons") or {}).items()}
        weapons = [ranged_row(n, s) for n, s in (card.get("ranged_weapons") or {}).items()]
        named = {w["key"] for w in weapons}
        for n in list(card.get("wargear") or []) + [n for n in defined if n not in (card.get("wargear") or [])]:
            if n in named:
                continue
            w = melee(n, defined)
            if w is not None:
                weapons.append(melee_row(n, w))
                named.add(n)
        out.append({"key": k, "name": card.get("name", k),
                    "stats": {s: card[s] for s in STAT_ORDER if card.get(s) is not None},
                    "base": card.get("base"), "tags": list(card.get("tags") or []),
                    "subtypes": list(card.get("subtypes") or []), "wargear": list(card.get("wargear") or []),
                    "weapons": weapons})
    return out
