"""Warhammer 40,000 3rd: the exact fight odds against icepool and against a Monte Carlo.

Case: ten charging Space Marines (bolt pistol and close combat weapon: 3 Attacks each; the
Sergeant with a power fist and a bolt pistol, 3 Attacks at S8 striking last) against twenty Orks
(nineteen Boyz and a Nob, W2 A3, power klaw), every model within 2" — Initiative steps 4, 2 and
last. tapeline works out the round's joint distribution (:func:`tapeline.rules.melee.combat.round_odds`)
and reads off the casualties and the result (:func:`tapeline.rules.classic40k.resolution.result_odds`);
the peers: icepool (:mod:`benchmarks.icepool_fight`, the same dice model in its public API) and
the strongest Monte Carlo sampler of the same round (:mod:`benchmarks.combat_mc`: each attack one
folded Bernoulli trial), extrapolated to the samples that give the exact answer's 3 and 4
decimals.
"""

from __future__ import annotations

import time

import numpy as np

import tapeline
from benchmarks import agree, installed
from benchmarks.combat_mc import QUICK_SIZES, SIZES, Sampler, compare, mean, report
from benchmarks.timing import best
from tapeline.rules.classic40k.melee import Choices, build_round
from tapeline.rules.classic40k.resolution import ROLL_OFF, result_odds
from tapeline.rules.melee.combat import round_odds

D25 = 25 / 25.4


def _file() -> str:
    marines = ", ".join(f"{{id: m{i + 1}, at: [{4 + 1.2 * i:.2f}, 10]}}" for i in range(10))
    boyz = ", ".join(f"{{id: o{i + 1}, at: [{4 + 1.2 * i:.2f}, {10 + D25:.6f}]}}" for i in range(10))
    boyz += ", " + ", ".join(f"{{id: o{i + 11}, at: [{4.6 + 1.2 * i:.2f}, {11.25 + D25:.6f}]}}" for i in range(9))
    boyz += f", {{id: nob, at: [{4.6 + 1.2 * 9:.2f}, {11.25 + D25:.6f}]}}"
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
    rnd = build_round(st, "marines", CHOICES)
    return st, rnd


def exact(rnd) -> dict:
    """tapeline: the joint distribution, each unit's casualties, the result (roll-off included)."""
    o = round_odds(rnd.combat)
    res = result_odds(o, rnd.sides)
    return {"win": res["imperium"], "draw": res["draw"], "m": o.removed_pmf("marines").as_list(),
            "o": o.removed_pmf("orks").as_list(), "odds": o}


def peer(c) -> dict:
    """icepool: the same answers from its final distribution (the result the peer's own reading:
    wounds inflicted, a side destroyed loses outright, equal wounds roll off)."""
    from benchmarks.icepool_fight import final_states

    dist = final_states(c)
    w = {u.id: np.concatenate([[0], np.cumsum([d.wounds for d in u.order])]) for u in c.units}
    n_m, n_o = len(c.unit("marines").order), len(c.unit("orks").order)
    cm, co = [0.0] * (n_m + 1), [0.0] * (n_o + 1)
    win = draw = 0.0
    for (sm, so), p in dist.items():
        cm[sm[0]] += p
        co[so[0]] += p
        lost_m, lost_o = w["marines"][sm[0]] + sm[1], w["orks"][so[0]] + so[1]
        dead_m, dead_o = sm[0] == n_m, so[0] == n_o
        if dead_m and dead_o:
            draw += p
        elif dead_o or dead_m:
            win += p if dead_o else 0.0
        elif lost_o != lost_m:
            win += p if lost_o > lost_m else 0.0
        else:
            win += p * ROLL_OFF[0]
            draw += p * ROLL_OFF[1]
    return {"win": win, "draw": draw, "m": cm, "o": co, "dist": dist}


def _difference(ex: dict, pe: dict) -> float:
    mine = {tuple((s.removed, s.damage) for s in st): p for st, p in ex["odds"].dist.items()}
    theirs = pe["dist"]
    d = max(abs(mine.get(k, 0.0) - theirs.get(k, 0.0)) for k in set(mine) | set(theirs))
    for key in ("m", "o"):
        a, b = ex[key], pe[key]
        d = max([d] + [abs((a[i] if i < len(a) else 0.0) - (b[i] if i < len(b) else 0.0)) for i in range(max(len(a), len(b)))])
    return max(d, abs(ex["win"] - pe["win"]), abs(ex["draw"] - pe["draw"]))


def monte_carlo(sampler: Sampler, c, n: int, rng: np.random.Generator) -> dict:
    """The round ``n`` times at once, then the assault result: wounds inflicted, an enemy
    destroyed wins outright, equal wounds roll off (equal rolls: drawn)."""
    removed, damage, units = sampler.run(n, rng)
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
    """The section; ``quick``: one run each and two small Monte Carlo runs, which must agree with
    the exact answer within sampling error (and icepool, where it is installed, to 1e-12)."""
    st, rnd = setup()
    c = rnd.combat
    t_exact, ex = best(lambda: exact(rnd), repeat=1 if quick else 21, clock=time.process_time)
    lines = ["## 40k 3rd: exact fight odds vs icepool and Monte Carlo (`rules/classic40k/odds.py`)", "",
             "Ten charging Space Marines (3 Attacks each; a Sergeant with a power fist and pistol, S8, last)",
             "against twenty Orks (nineteen Boyz and a Nob, W2 A3, power klaw), every model within 2\": Initiative",
             "steps 4, 2 and last. tapeline: `round_odds` on the round's `Combat`, the casualties and",
             "`result_odds` (the roll-off included). CPU time, the best of several runs."]
    if installed("icepool"):
        t_pe, pe = best(lambda: peer(c), repeat=1 if quick else 5, clock=time.process_time)
        diff = _difference(ex, pe)
        agree(diff <= 1e-12, f"tapeline and icepool differ by {diff:.2e}")
        r = t_pe / t_exact
        lines += ["", "| method | CPU time | largest difference |", "|---|---:|---:|",
                  f"| tapeline exact | {t_exact * 1e3:.2f} ms | — |",
                  f"| icepool 2.1, the same dice model (`benchmarks/icepool_fight.py`) | {t_pe * 1e3:.2f} ms | {diff:.1e} |", "",
                  f"icepool / tapeline = {r:.1f}×. Goal: faster than icepool — {'met' if r > 1 else 'not met'}."]
    else:
        lines += ["", "icepool is not installed here (it is in the `bench` extra): tapeline's side only."]
    sampler = Sampler(c)
    rng = np.random.default_rng(2026)
    cmp = compare({k: ex[k] for k in ("win", "draw", "m", "o")}, t_exact, lambda n: monte_carlo(sampler, c, n, rng),
                  QUICK_SIZES if quick else SIZES)
    big = cmp["rows"][-1][3]
    lines += report(None, ["Against Monte Carlo: the strongest sampler of the same round (`benchmarks/combat_mc.py`: each",
                           "attack one folded Bernoulli trial, a group's unsaved wounds by kind one multinomial draw; the",
                           "roll-off rolled). Error: the largest deviation from the exact P(Marines win), P(draw) and every",
                           "casualty probability."], cmp,
                    [("P(Marines win)", ex["win"], big["win"]), ("P(draw)", ex["draw"], big["draw"]),
                     ("mean Marine casualties", mean(ex["m"]), mean(big["m"])), ("mean Ork casualties", mean(ex["o"]), mean(big["o"]))])
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(run())
