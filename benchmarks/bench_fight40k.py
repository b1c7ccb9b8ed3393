"""Warhammer 40,000 3rd: the exact fight distribution vs a seeded Monte Carlo, side by side.

Case: ten charging Space Marines (bolt pistol and close combat weapon: 3 Attacks each; the
Sergeant with a power fist and a bolt pistol, 3 Attacks at S8 striking last) against twelve
Ork Boyz and a Nob (W2, A3, power klaw), every model within 2" — Initiative steps 4, 2 and
last. tapeline computes
the exact joint distribution of the round (:func:`tapeline.rules.classic40k.odds.fight_answer`);
the peer is a vectorised numpy Monte Carlo of the same round (:mod:`benchmarks.combat_mc`: the
same face tables, casualty orders and steps, every die rolled, the tiebreaker's roll-off too),
run at growing sizes and extrapolated to the sample count that gives the exact answer's 4
decimals.
"""

from __future__ import annotations

import numpy as np

import tapeline
from benchmarks.combat_mc import QUICK_SIZES, SIZES, compare, mean, report, simulate
from benchmarks.timing import best
from tapeline.rules.classic40k.melee import Choices, build_round
from tapeline.rules.classic40k.odds import fight_answer

D25 = 25 / 25.4


def _file() -> str:
    marines = ", ".join(f"{{id: m{i + 1}, at: [{4 + 1.2 * i:.2f}, 10]}}" for i in range(10))
    boyz = ", ".join(f"{{id: o{i + 1}, at: [{4 + 1.2 * i:.2f}, {10 + D25:.6f}]}}" for i in range(10))
    boyz += f", {{id: o11, at: [5.5, {11.3 + D25:.6f}]}}, {{id: o12, at: [7.3, {11.3 + D25:.6f}]}}, {{id: nob, at: [9.1, {11.3 + D25:.6f}]}}"
    return f"""
tapeline: 1
system: classic40k
board: {{width: 24, height: 20}}
units:
  - id: marines
    side: imperium
    base: 25
    stats: {{weapon_skill: 4, strength: 4, toughness: 4, wounds: 1, initiative: 4, attacks: 1, leadership: 8, save: 3,
            wargear: [bolt-pistol, close-combat-weapon], models: {{m5: {{wargear: [power-fist, bolt-pistol], leadership: 9}}}}}}
    models: [{marines}]
  - id: orks
    side: orks
    base: 25
    stats: {{weapon_skill: 4, strength: 3, toughness: 4, wounds: 1, initiative: 2, attacks: 2, leadership: 7, save: 6,
            wargear: [close-combat-weapon], models: {{nob: {{wounds: 2, attacks: 3, strength: 4, wargear: [power-claw]}}}}}}
    models: [{boyz}]
"""


CHOICES = Choices(charged=("marines",))


def setup():
    st = tapeline.parse_text(_file(), "<bench>").state
    return st, build_round(st, "marines", CHOICES).combat


def exact(st) -> dict:
    a = fight_answer(st, "marines", CHOICES)
    return {"win": a["sides"]["imperium"], "draw": a["result"]["draw"], "m": a["casualties_pmf"]["marines"],
            "o": a["casualties_pmf"]["orks"]}


def monte_carlo(c, n: int, rng: np.random.Generator) -> dict:
    """The round ``n`` times at once, then the assault result: wounds inflicted, an enemy
    destroyed wins outright, equal wounds roll off (equal rolls: drawn)."""
    removed, damage, units = simulate(c, n, rng)
    lost = {}
    for u in c.units:
        i = units[u.id]
        cum = np.concatenate([[0], np.cumsum([d.wounds for d in u.order])])
        lost[u.id] = cum[np.minimum(removed[i], len(u.order))] + damage[i]
    m_all, o_all = len(c.unit("marines").order), len(c.unit("orks").order)
    km, ko = removed[units["marines"]], removed[units["orks"]]
    wm, wo = lost["orks"], lost["marines"]          # wounds inflicted by each side
    dm, do = km >= m_all, ko >= o_all
    a, b = rng.integers(1, 7, n), rng.integers(1, 7, n)
    win = np.where(do & ~dm, True, np.where(dm, False, np.where(wm != wo, wm > wo, a > b)))
    draw = (dm & do) | (~dm & ~do & (wm == wo) & (a == b))
    return {"win": win.mean(), "draw": draw.mean(), "m": np.bincount(km, minlength=m_all + 1) / n,
            "o": np.bincount(ko, minlength=o_all + 1) / n}


def run(quick: bool = False) -> str:
    """The section; ``quick``: the exact answer once and two small Monte Carlo runs, which must
    agree with it within sampling error either way."""
    st, c = setup()
    t_exact, ex = best(lambda: exact(st), repeat=1 if quick else 3)
    rng = np.random.default_rng(2026)
    cmp = compare(ex, t_exact, lambda n: monte_carlo(c, n, rng), QUICK_SIZES if quick else SIZES)
    big = cmp["rows"][-1][3]
    return report(
        "## 40k 3rd: exact fight distribution vs Monte Carlo (`rules/classic40k/odds.py`)",
        ["Ten charging Space Marines (3 Attacks each; a Sergeant with a power fist and pistol, S8, last)",
         "against twelve Ork Boyz and a Nob (W2 A3, power klaw), every model within 2\": Initiative steps 4,",
         "2 and last.",
         "Exact: the shared engine's joint distribution (`tapeline fight`), worked out afresh each run (all",
         "it remembers between questions forgotten first). Peer: a vectorised numpy Monte",
         "Carlo of the same round (same face tables, casualty orders and steps; the roll-off rolled). Error:",
         "the largest deviation from the exact P(Marines win), P(draw) and every casualty probability."],
        cmp,
        [("P(Marines win)", ex["win"], big["win"]), ("P(draw)", ex["draw"], big["draw"]),
         ("mean Marine casualties", mean(ex["m"]), mean(big["m"])), ("mean Ork casualties", mean(ex["o"]), mean(big["o"]))])


if __name__ == "__main__":  # pragma: no cover
    print(run())
