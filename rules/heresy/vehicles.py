"""Horus Heresy 3rd Vehicles struck in melee (§A.7 steps 6 and 10, §A.8): glancing hits and the
Vehicle Damage roll.

Against a Vehicle there is no Wound Test: each hit makes an **Armour Penetration Test**, D6 +
Strength against the Armour Value of the facing hit — in melee always the **rear** armour
(``armour_rear``). Above it the hit is **penetrating** (allocated like a wound, no armour save,
Hull Points lost by the weapon's Damage: :mod:`rules.heresy.melee`); equal to it, **glancing**: no
damage, but the glancing hits are held until the step's **Remove Casualties** (§A.7 step 10),
where the Vehicle Damage table is rolled **once per glancing hit** (D6):

======  ==========
D6      the vehicle
======  ==========
1–2     Stunned
3–4     Pinned
5–6     Suppressed
======  ==========

Each result is gained as a Tactical Status (§A.5: one the vehicle has changes nothing). A
vehicle destroyed in the same step (its Hull Points gone) has no roll: it is removed. The status
changes nothing in the round itself — a Vehicle never strikes in the Fight sub-phase and
statuses score no Combat Resolution Points — so the exact fight odds are those of the round
without the rolls.

>>> [DAMAGE_TABLE[r] for r in range(1, 7)]
['stunned', 'stunned', 'pinned', 'pinned', 'suppressed', 'suppressed']
>>> glancing_hits(8, 10, [2, 3, 2, 1])
2
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Sequence

from ..dice import Dice
from ..state import GameState
from .charts import penetration
from .statuses import gain_status

RULE = "HH3 §A.8 Vehicle Damage"
#: The Vehicle Damage table for a glancing hit: D6 result → the status gained.
DAMAGE_TABLE = MappingProxyType({1: "stunned", 2: "stunned", 3: "pinned", 4: "pinned", 5: "suppressed", 6: "suppressed"})


def glancing_hits(strength: int, armour: int, penetration_rolls: Sequence[int]) -> int:
    """How many of the Armour Penetration rolls are glancing hits (D6 + S equal to the AV)."""
    return sum(penetration(strength, v, armour) == "glancing" for v in penetration_rolls)


def vehicle_damage(state: GameState, unit_id: str, glancing: int, dice: Dice) -> tuple[GameState, list[dict[str, Any]]]:
    """Roll the Vehicle Damage table once per glancing hit on ``unit_id`` (§A.7 step 10): each
    result's status gained; none for a vehicle no longer on the table."""
    if glancing <= 0 or not state.unit(unit_id).models:
        return state, []
    dice.take_events()
    rolls = dice.roll(glancing, f"Vehicle Damage ({unit_id}, {glancing} glancing hit{'s' if glancing != 1 else ''})")
    events = dice.take_events()
    results = [DAMAGE_TABLE[r] for r in rolls]
    events.append({"type": "vehicle_damage", "unit": unit_id, "glancing_hits": glancing, "rolls": list(rolls), "results": results})
    for r, status in zip(rolls, results):
        state, ev = gain_status(state, unit_id, status, f"Vehicle Damage roll {r} for a glancing hit ({RULE})")
        events += ev
    return state, events
