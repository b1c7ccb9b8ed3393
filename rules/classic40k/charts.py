"""Warhammer 40,000 3rd edition close combat charts (§B.5, §B.6).

To hit (attacker WS against defender WS): **3+** if the attacker's WS is higher, **4+** if it is
equal or lower, **5+** if the defender's WS is more than double the attacker's. 40k never hits
on 2+ or 6+ in close combat (unlike Horus Heresy 3rd). To wound: the shared S vs T chart.

>>> [hit_on(4, 3), hit_on(3, 4), hit_on(4, 4)]          # derived case 1
[3, 4, 4]
>>> [hit_on(2, 5), hit_on(1, 2), hit_on(1, 3)]          # derived case 2
[5, 4, 5]
"""

from __future__ import annotations

from ..melee.charts import Charts, wound_chart


def hit_on(attacker_ws: int, defender_ws: int) -> int:
    """The close combat to-hit score (§B.5)."""
    if attacker_ws > defender_ws:
        return 3
    return 5 if defender_ws > 2 * attacker_ws else 4


CHARTS = Charts("40k 3rd", hit_on, wound_chart, max_characteristic=10)
