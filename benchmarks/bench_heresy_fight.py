"""Horus Heresy 3rd: the exact fight odds against icepool and against a Monte Carlo, side by side.

1. **N v N against icepool** (:mod:`benchmarks.icepool_fight`, the same dice model in icepool's
   public API): N Legionaries (W2, Sv 3+, 2 or 4 Attacks, basic close combat weapons, I4) against
   N traitors (the same at I3) in base contact in two lines: two Initiative steps, the second
   side striking with the models the first left it. Both work out the whole joint distribution
   of the round and read off each unit's casualties and the chance each side wins on Combat
   Resolution Points (§A.10); the answers must agree (to 1e-12) at every size. CPU time of each,
   the growth of tapeline's time and memory with N fitted as a power of N.
2. **A mixed round against icepool and Monte Carlo**: ten Legionaries (chainswords; a Sergeant
   with a power fist, W2) against ten traitors (chainswords; a Champion with a lightning claw,
   W2 A3) — Initiative steps 4 and 1, Shred, Rending, Breaching. The Monte Carlo is the strongest
   sampler of the same round (:mod:`benchmarks.combat_mc`: each attack one folded Bernoulli
   trial), extrapolated to the samples that give the exact answer's 3 and 4 decimals.
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np

import tapeline
from benchmarks import agree, installed
from benchmarks.combat_mc import QUICK_SIZES, SIZES, Sampler, compare, mean, report
from benchmarks.timing import best
from tapeline.rules.heresy import melee
from tapeline.rules.melee.combat import round_odds

R32 = 16 / 25.4
#: N v N sizes and Attacks of the icepool comparison, and of its quick profile.
NVN = (5, 10, 20, 35, 50, 80, 100)
QUICK_NVN = (5, 10)
ATTACKS = (2, 4)
#: The goal of issue 22: faster than icepool at every size, 100v100 A4 under this.
GOAL_100 = 0.5


def _unit(uid: str, side: str, n: int, y: float, stats: str, gear: str, special: str = "") -> str:
    ms = "\n".join(f"      - {{id: {uid}{i + 1}, at: [{2 + 1.3 * i:.2f}, {y:.6f}]}}" for i in range(n))
    return (f"  - id: {uid}\n    side: {side}\n    base: 32\n    stats: {{movement: 7, weapon_skill: 4, ballistic_skill: 4, "
            f"strength: 4, toughness: 4, leadership: 7, cool: 7, save: 3, {stats}, wargear: [{gear}], models: {{{special}}}}}\n"
            f"    models:\n{ms}\n")


def nvn_file(n: int, attacks: int) -> str:
    """N v N in base contact: W2, basic close combat weapons, Initiative 4 against 3."""
    return (f"tapeline: 1\nsystem: heresy\nboard: {{width: {1.3 * n + 4:.1f}, height: 10}}\nunits:\n"
            + _unit("a", "loyal", n, 4, f"wounds: 2, initiative: 4, attacks: {attacks}", "")
            + _unit("b", "traitor", n, 4 + 2 * R32, f"wounds: 2, initiative: 3, attacks: {attacks}", ""))


def mixed_file() -> str:
    """Ten a side: chainswords, a power fist Sergeant and a lightning claw Champion (W2)."""
    return ("tapeline: 1\nsystem: heresy\nboard: {width: 30, height: 20}\nunits:\n"
            + _unit("a", "loyal", 10, 2, "wounds: 1, initiative: 4, attacks: 1", "chainsword",
                    "a1: {wounds: 2, attacks: 2, wargear: [power fist]}")
            + _unit("b", "traitor", 10, 2 + 2 * R32, "wounds: 1, initiative: 4, attacks: 1", "chainsword",
                    "b1: {wounds: 2, attacks: 3, wargear: [lightning claw]}"))


def setup(text: str):
    """The state, the round and its Combat (the pile-ins left out: the bases start in contact)."""
    st = tapeline.parse_text(text, "<bench>").state
    rnd = melee.build_round(st, "a")
    return st, rnd, melee.combat(st, rnd, [st] * len(rnd.initiatives))


def exact(st, rnd, c) -> dict:
    """tapeline: the joint distribution, each unit's casualties, the chance each side wins."""
    o = round_odds(c)
    res = melee.outcome_odds(st, rnd, o)
    return {"a": o.removed_pmf("a").as_list(0), "b": o.removed_pmf("b").as_list(0), "win": res["win"]["loyal"],
            "draw": res["draw"], "odds": o}


def _crp(na: int, nb: int, ka: int, kb: int) -> str:
    """The peer's own Combat Resolution: 'a', 'b' or 'draw' with ``na``/``nb`` models left and
    ``ka``/``kb`` lost (Massacre; the casualties inflicted, +1 for the most models)."""
    if nb == 0 and na > 0:
        return "a"
    if na == 0 and nb > 0:
        return "b"
    pa, pb = kb + (na > nb), ka + (nb > na)
    return "a" if pa > pb else "b" if pb > pa else "draw"


def peer(c) -> dict:
    """icepool: the same answers from its final distribution."""
    from benchmarks.icepool_fight import final_states

    dist = final_states(c)
    n_a, n_b = len(c.unit("a").order), len(c.unit("b").order)
    ca, cb, res = [0.0] * (n_a + 1), [0.0] * (n_b + 1), {"a": 0.0, "b": 0.0, "draw": 0.0}
    for (sa, sb), p in dist.items():
        ca[sa[0]] += p
        cb[sb[0]] += p
        res[_crp(n_a - sa[0], n_b - sb[0], sa[0], sb[0])] += p
    return {"a": ca, "b": cb, "win": res["a"], "draw": res["draw"], "dist": dist}


def _difference(ex: dict, pe: dict) -> float:
    """The largest difference between the two answers: every state's chance, every casualty
    probability, P(win), P(draw)."""
    mine = {tuple((s.removed, s.damage) for s in st): p for st, p in ex["odds"].dist.items()}
    theirs = pe["dist"]
    d = max(abs(mine.get(k, 0.0) - theirs.get(k, 0.0)) for k in set(mine) | set(theirs))
    for key in ("a", "b"):
        a, b = ex[key], pe[key]
        d = max([d] + [abs((a[i] if i < len(a) else 0.0) - (b[i] if i < len(b) else 0.0)) for i in range(max(len(a), len(b)))])
    return max(d, abs(ex["win"] - pe["win"]), abs(ex["draw"] - pe["draw"]))


def _peak(f) -> float:
    """The peak memory (MB, tracemalloc: numpy's arrays included) of one run of ``f``."""
    tracemalloc.start()
    f()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def _fit(ns, ys) -> float:
    """The exponent of the power of N that fits ``ys`` best (least squares in logs)."""
    return float(np.polyfit(np.log(ns), np.log(ys), 1)[0])


def nvn(sizes, with_peer: bool, quick: bool) -> dict:
    rows = []
    for n in sizes:
        for k in ATTACKS:
            st, rnd, c = setup(nvn_file(n, k))
            t_ex, ex = best(lambda: exact(st, rnd, c), repeat=1 if quick else 5, clock=time.process_time)
            mem = _peak(lambda: exact(st, rnd, c))
            row = {"n": n, "a": k, "states": int(np.count_nonzero(ex["odds"].joint)), "t": t_ex, "mem": mem}
            if with_peer:
                t_pe, pe = best(lambda: peer(c), repeat=1 if quick or n > 35 else 3, clock=time.process_time)
                diff = _difference(ex, pe)
                agree(diff <= 1e-12, f"{n}v{n} A{k}: tapeline and icepool differ by {diff:.2e}")
                row.update(t_peer=t_pe, diff=diff)
            rows.append(row)
    return {"rows": rows}


def run(quick: bool = False) -> str:
    """The section; ``quick``: the two smallest sizes, one run each, and two small Monte Carlo
    runs, which must agree with the exact answer within sampling error (and icepool, where it is
    installed, to 1e-12)."""
    with_peer = installed("icepool")
    out = nvn(QUICK_NVN if quick else NVN, with_peer, quick)
    rows = out["rows"]
    lines = ["## Horus Heresy: exact fight odds vs icepool and Monte Carlo (`rules/heresy/melee.py`)", "",
             "N Legionaries (W2, Sv 3+, basic close combat weapons, 2 or 4 Attacks, Initiative 4) against N",
             "traitors (the same at Initiative 3), in base contact: two Initiative steps, the traitors striking",
             "with the models the first step left them. Each side works out the round's whole joint distribution",
             "and reads off both units' casualties and the chance each side wins (Combat Resolution Points,",
             "§A.10). tapeline: `round_odds` and `outcome_odds` on the round's `Combat`; icepool 2.1: the same",
             "dice model in its public API (`benchmarks/icepool_fight.py`: each attack one die with the hit,",
             "wound and save folded in, `n @` that die, the joint state pushed through the steps with `map`).",
             "CPU time, the best of several runs; the answers agree to 1e-12 at every size (largest",
             "difference shown).", "",
             "| N v N | Attacks | states | tapeline | icepool | icepool / tapeline | largest difference | tapeline peak memory |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        peer_cells = (f"{r['t_peer'] * 1e3:.1f} ms | {r['t_peer'] / r['t']:.1f}× | {r['diff']:.1e}" if with_peer
                      else "— | — | —")
        lines.append(f"| {r['n']}v{r['n']} | {r['a']} | {r['states']:,} | {r['t'] * 1e3:.2f} ms | {peer_cells} | {r['mem']:.2f} MB |")
    big = [r for r in rows if r["a"] == 4 and r["n"] >= 20]
    if len(big) >= 2:
        ns = [r["n"] for r in big]
        lines += ["", f"Growth (A4, N = {ns[0]}–{ns[-1]}, fitted power of N): tapeline's time ~N^{_fit(ns, [r['t'] for r in big]):.2f}, "
                      f"its peak memory ~N^{_fit(ns, [r['mem'] for r in big]):.2f}"
                      + (f"; icepool's time ~N^{_fit(ns, [r['t_peer'] for r in big]):.2f}." if with_peer else ".")]
    if with_peer:
        slowest = min(r["t_peer"] / r["t"] for r in rows)
        top = next((r for r in rows if r["n"] == 100 and r["a"] == 4), None)
        met = slowest > 1 and (top is None or top["t"] < GOAL_100)
        lines += ["", f"Goal: faster than icepool at every size from 5v5 to 100v100, and 100v100 A4 under {GOAL_100:g} s: "
                      f"{'met' if met else 'not met'} (the smallest ratio {slowest:.1f}×"
                      + (f"; 100v100 A4 {top['t'] * 1e3:.1f} ms" if top else "") + ")."]
    else:
        lines += ["", "icepool is not installed here (it is in the `bench` extra): tapeline's side only."]

    st, rnd, c = setup(mixed_file())
    t_exact, ex = best(lambda: exact(st, rnd, c), repeat=1 if quick else 9, clock=time.process_time)
    mixed = ["", "### A mixed round", "",
             "Ten Legionaries (chainswords; a Sergeant with a power fist, W2) against ten traitors (chainswords;",
             "a Champion with a lightning claw, W2 A3), Initiative steps 4 and 1: Shred, Rending, Breaching, two",
             "wound kinds in a group, a two-Wound model on each side."]
    if with_peer:
        t_pe, pe = best(lambda: peer(c), repeat=1 if quick else 3, clock=time.process_time)
        diff = _difference(ex, pe)
        agree(diff <= 1e-12, f"the mixed round: tapeline and icepool differ by {diff:.2e}")
        mixed += ["", f"icepool: {t_pe * 1e3:.1f} ms, tapeline {t_exact * 1e3:.2f} ms ({t_pe / t_exact:.1f}×; largest difference {diff:.1e})."]
    sampler = Sampler(c)
    rng = np.random.default_rng(2025)
    cmp = compare({"win": ex["win"], "draw": ex["draw"], "a": ex["a"], "b": ex["b"]}, t_exact,
                  lambda n: monte_carlo(sampler, n, rng), QUICK_SIZES if quick else SIZES)
    mc = cmp["rows"][-1][3]
    mixed += report(None, ["Against Monte Carlo: the strongest sampler of the same round (`benchmarks/combat_mc.py`: each",
                         "attack one folded Bernoulli trial, a group's unsaved wounds by kind one multinomial draw),",
                         "CPU time. Error: the largest deviation from the exact P(loyalists win), P(draw) and every",
                         "casualty probability of both units."], cmp,
                    [("P(loyalists win)", ex["win"], mc["win"]), ("P(draw)", ex["draw"], mc["draw"]),
                     ("mean loyalist casualties", mean(ex["a"]), mean(mc["a"])), ("mean traitor casualties", mean(ex["b"]), mean(mc["b"]))])
    return "\n".join(lines + mixed)


def monte_carlo(sampler: Sampler, n: int, rng: np.random.Generator) -> dict:
    """The round ``n`` times at once, then the Combat Resolution Points."""
    removed, _damage, units = sampler.run(n, rng)
    ka, kb = removed[units["a"]], removed[units["b"]]
    na, nb = 10 - ka, 10 - kb
    a_pts = kb + (na > nb)
    b_pts = ka + (nb > na)
    massacre = (na == 0) != (nb == 0)       # one side wiped out: the other wins
    win = np.where(massacre, nb == 0, a_pts > b_pts)
    draw = ~massacre & (a_pts == b_pts)
    return {"a": np.bincount(ka, minlength=11) / n, "b": np.bincount(kb, minlength=11) / n, "win": win.mean(), "draw": draw.mean()}


if __name__ == "__main__":  # pragma: no cover
    print(run())
