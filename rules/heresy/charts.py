"""Horus Heresy 3rd lookup tables (§A.8): melee hit, ranged hit, wound, armour penetration.

**Melee Hit Test** (attacker WS against defender WS): equal → 4+; attacker higher → 3+, at least
double → 2+; defender higher → 5+, at least double → 6+. Both transcriptions of the rulebook
agree on the cells that matter most (4 v 4 = 4+, 5 v 4 = 3+, 4 v 3 = 3+, 4 v 2 = 2+, 3 v 4 = 5+,
2 v 4 = 6+); the rule matches the fuller one in 99 of 100 cells, the odd one (10 v 5, 3+ there)
reading as 2+ by the rule. tapeline uses the rule; setting ``hh_ws_table: transcription`` takes
that one cell as 3+ (docs/heresy-assault.md).

**Ranged Hit Test** (BS; Volleys and Overwatch): normal BS 1–5 → 6+ … 2+, BS 6–9 → 2+ with a
Critical Hit on 6+ … 3+, BS 10 → automatic; Snap Shots BS 1 → never, 2–3 → 6+, 4–5 → 5+, 6–7 →
4+, 8–9 → 3+, 10 → 2+.

**Wound Test** (S against T): S − T ≥ 2 → 2+, +1 → 3+, 0 → 4+, −1 → 5+, −2 or −3 → 6+, ≤ −4 → no
wound possible ("−", ``None``) — the shared chart, :func:`rules.melee.charts.wound_chart`.

**Armour Penetration** (vehicles): D6 + S against the Armour Value: below → nothing, equal →
Glancing, above → Penetrating.

A natural 1 always fails a Hit, Wound or Save Test (§A.2); the saves themselves are the shared
engine's (:func:`rules.melee.charts.save_on`).

>>> melee_hit_tn(4, 4), melee_hit_tn(5, 4), melee_hit_tn(4, 5), melee_hit_tn(4, 2), melee_hit_tn(2, 4), melee_hit_tn(3, 6)
(4, 3, 5, 2, 6, 6)
>>> [wound_tn(4, t) for t in (4, 6, 7, 8)], wound_tn(5, 4), wound_tn(8, 4)
([4, 6, 6, None], 3, 2)
"""

from __future__ import annotations

from typing import Optional

from ..melee.charts import save_on
from ..melee.charts import wound_chart as wound_tn

__all__ = ["melee_hit_tn", "ranged_hit", "wound_tn", "penetration", "armour_save_allowed", "TRANSCRIPTION_CELLS"]

#: Melee Hit Test: the 10 v 5 cell of the fuller rulebook transcription (the rule gives 2+).
TRANSCRIPTION_CELLS = {(10, 5): 3}


def melee_hit_tn(att_ws: int, def_ws: int, reading: str = "rule") -> int:
    """The score needed on 1D6 to hit in melee (§A.8 Melee Hit Test)."""
    a, d = int(att_ws), int(def_ws)
    if reading == "transcription" and (a, d) in TRANSCRIPTION_CELLS:
        return TRANSCRIPTION_CELLS[(a, d)]
    if a == d:
        return 4
    if a > d:
        return 2 if a >= 2 * d else 3
    return 6 if d >= 2 * a else 5


def ranged_hit(bs: int, snap: bool = False) -> tuple[Optional[int], Optional[int], bool]:
    """(target number, Critical Hit on this natural roll or higher, automatic hit) for a Ranged
    Hit Test (§A.8); target ``None`` means the shot cannot hit (Snap Shot at BS 1)."""
    b = max(0, int(bs))
    if snap:
        table = {0: None, 1: None, 2: 6, 3: 6, 4: 5, 5: 5, 6: 4, 7: 4, 8: 3, 9: 3}
        return (table[b] if b < 10 else 2), None, False
    if b <= 0:
        return None, None, False
    if b <= 5:
        return 7 - b, None, False
    if b <= 9:
        return 2, 12 - b, False
    return 2, 1, True


def penetration(strength: int, roll: int, armour: int) -> str:
    """Armour Penetration (§A.8): ``none``, ``glancing`` or ``penetrating``."""
    total = int(strength) + int(roll)
    return "none" if total < armour else "glancing" if total == armour else "penetrating"


def armour_save_allowed(save: Optional[int], ap: Optional[int]) -> bool:
    """An armour save is not allowed when the AP is at or below the save's number (§A.9)."""
    return save_on(save, None, ap) is not None
