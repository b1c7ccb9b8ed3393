"""The charge question's answer, as JSON-ready values: what the three systems share.

Every system answers ``charge`` with the same head — ``system``, ``unit``, ``targets``,
``leader``, ``distance`` (the path the Leading Model needs), ``min_roll``, ``probability`` (and
as a fraction), ``dice``, ``path`` and ``end`` — and adds its own keys: StarCraft its Speed,
modifier, reach and the Grass crossed (:mod:`tapeline.rules.starcraft.charge`); Horus Heresy and
40k, which charge into base contact, whether the unit may charge at all, why not, and their
details (:func:`contact_reach`). Points and lengths are rounded to 1e-9".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional, Protocol

from .charge_geometry import Plan
from .charge_odds import ChargeOdds
from .contact_charge import ContactCharge


class ChargeFacts(Protocol):
    """What every system's charge reach object offers the answer's head (StarCraft's
    :class:`~tapeline.rules.starcraft.charge.ChargeReach`, the contact systems'
    :class:`~tapeline.rules.contact_charge.ContactCharge`)."""

    @property
    def targets(self) -> Sequence[str]: ...
    @property
    def plan(self) -> Optional[Plan]: ...
    @property
    def odds(self) -> ChargeOdds: ...
    @property
    def distance(self) -> Optional[float]: ...
    @property
    def path(self) -> Sequence[Sequence[float]]: ...
    @property
    def end(self) -> Optional[Sequence[float]]: ...


def xy(p: Optional[Sequence[float]]) -> Optional[list[float]]:
    """A point as ``[x, y]`` rounded to 1e-9 (``None`` stays ``None``)."""
    return None if p is None else [round(float(p[0]), 9), round(float(p[1]), 9)]


def num(x: Optional[float]) -> Optional[float]:
    """A length rounded to 1e-9 (``None`` stays ``None``)."""
    return None if x is None else round(float(x), 9)


def head(system: str, unit: str, rc: ChargeFacts) -> dict[str, Any]:
    """The keys every system's charge answer starts with, read off its reach object ``rc``
    (``targets``, ``plan``, ``distance``, ``odds``, ``path``, ``end``)."""
    odds = rc.odds
    return {
        "system": system,
        "unit": unit,
        "targets": list(rc.targets),
        "leader": rc.plan.leader if rc.plan is not None else None,
        "distance": num(rc.distance),
        "min_roll": odds.min_roll,
        "probability": odds.probability,
        "probability_fraction": odds.fraction,
        "dice": odds.dice.name,
        "path": [xy(p) for p in rc.path],
        "end": xy(rc.end),
    }


def contact_reach(system: str, unit: str, rc: ContactCharge) -> dict[str, Any]:
    """The charge answer of a system that charges into base contact (Horus Heresy, 40k)."""
    out = head(system, unit, rc)
    out.update({"allowed": rc.allowed, "reason": rc.reason,
                "details": {k: (xy(v) if k == "end" else v) for k, v in rc.details.items()}})
    return out


#: Keys of a contact charge's outcome passed on as they are, when present.
CONTACT_EXTRAS = ("note", "at_once", "setup", "moves", "compared_with", "cool_check", "ended", "search")


def contact_outcome(res: Mapping[str, Any]) -> dict[str, Any]:
    """What a resolved contact charge did, from the system's result (``charge``: the reach
    object; ``success``, ``roll``, ``rolls``, ``end``, ``placed``, ``stayed``, ``in_contact`` ...)."""
    cc = res["charge"]
    out = {
        "success": res["success"], "roll": res["roll"], "rolls": res["rolls"],
        "distance": num(cc.distance), "min_roll": cc.odds.min_roll, "probability": cc.odds.probability,
        "leader": res.get("leader", cc.plan.leader if cc.plan else None),
        "end": xy(res.get("end")) if res["success"] else None,
        "path": [xy(p) for p in cc.path] if res["success"] else [],
        "placed": {k: xy(v) for k, v in res.get("placed", {}).items()},
        "stayed": res.get("stayed", []), "in_contact": res.get("in_contact", []),
    }
    for k in CONTACT_EXTRAS:
        if k in res:
            out[k] = res[k]
    return out
