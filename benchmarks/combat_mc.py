"""A vectorised numpy Monte Carlo of one round of close combat, the benchmarks' peer for the
exact engine (:mod:`tapeline.rules.melee`).

It reads a :class:`~tapeline.rules.melee.combat.Combat` — the same face tables, casualty orders
and Initiative steps — and rolls every die of ``n`` rounds at once: each Strike Group's attack
dice (from the models alive at the start of its step), the hits' wound dice, then each wound's
save on the model the casualty order gives, Damage that does not carry over. Each group strikes
its first target option (the benchmark cases have one enemy unit).
"""

from __future__ import annotations

import numpy as np

from tapeline.rules.melee.combat import Combat
from tapeline.rules.melee.strike import HIT, MISS


def simulate(c: Combat, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, dict]:
    """The round ``n`` times at once: per group every attack die, the hits' wound dice, then
    each wound's save on the model the casualty order gives. Returns (models removed, damage
    on the next model) per unit and sample, and each unit's row."""
    units = {u.id: i for i, u in enumerate(c.units)}
    removed = np.zeros((len(c.units), n), dtype=np.int16)
    damage = np.zeros((len(c.units), n), dtype=np.int16)
    wounds = [np.array([d.wounds for d in u.order] + [1]) for u in c.units]
    for step in c.steps:
        begin = removed.copy()
        for g in step.groups:
            ui = units[g.unit]
            pos = {d.id: k for k, d in enumerate(c.units[ui].order)}
            per = np.array([a for _, a in g.dice])
            where = np.array([pos[m] for m, _ in g.dice])
            alive = where[None, :] >= begin[ui][:, None]
            ndice = (alive * per[None, :]).sum(axis=1)
            a = g.against[0]
            ti = units[a.target]
            kinds = len(a.kinds)
            cnt = np.zeros((kinds, n), dtype=np.int32)
            m = int(ndice.max()) if n else 0
            if m == 0:
                continue
            hf = np.array(a.hit_faces)[rng.integers(0, 6, (n, m))]
            hf[np.arange(m)[None, :] >= ndice[:, None]] = MISS
            hits = (hf == HIT).sum(axis=1)
            for k in range(kinds):
                cnt[k] += (hf == 2 + k).sum(axis=1)
            mh = int(hits.max())
            if mh:
                wf = np.array(a.wound_faces)[rng.integers(0, 6, (n, mh))]
                wf[np.arange(mh)[None, :] >= hits[:, None]] = MISS
                for k in range(kinds):
                    cnt[k] += (wf == 2 + k).sum(axis=1)
            order = c.units[ti].order
            for k, kind in enumerate(a.kinds):
                tn = np.array([(d.save_on(kind) or 7) for d in order] + [7])
                for j in range(int(cnt[k].max())):
                    act = (j < cnt[k]) & (removed[ti] < len(order))
                    front = np.minimum(removed[ti], len(order))
                    save = rng.integers(1, 7, n)
                    unsaved = act & ~((save != 1) & (save >= tn[front]))
                    damage[ti] += np.where(unsaved, max(1, kind.damage), 0).astype(np.int16)
                    dead = unsaved & (damage[ti] >= wounds[ti][front])
                    removed[ti] += dead
                    damage[ti][dead] = 0
    return removed, damage, units


#: The exact answers are printed to 4 decimals: Monte Carlo must reach a standard error of 5e-5.
TARGET_SE = 5e-5


def _flat(d: dict) -> dict:
    """{name: value} with every list spread into name[k]."""
    out = {}
    for k, v in d.items():
        if isinstance(v, (list, tuple, np.ndarray)):
            for i, x in enumerate(v):
                out[f"{k}[{i}]"] = float(x)
        else:
            out[k] = float(v)
    return out


#: The Monte Carlo sample sizes of a section, and of its quick profile.
SIZES = (1_000, 100_000, 400_000)
QUICK_SIZES = (1_000, 20_000)


def compare(ex: dict, t_exact: float, mc, sizes=SIZES, target_se: float = TARGET_SE) -> dict:
    """Run ``mc(n)`` at each size against the exact answers ``ex`` (probabilities by name, lists
    allowed) and extrapolate the sample count — and the time — that reaches ``target_se`` on the
    least certain probability. The largest run must agree with every exact probability within
    sampling error (:func:`benchmarks.sampled_agree`)."""
    from benchmarks import sampled_agree
    from benchmarks.timing import best

    fe = _flat(ex)
    rows = []
    for n in sizes:
        t, got = best(lambda: mc(n), repeat=1)
        fg = _flat(got)
        err = max(abs(fg.get(k, 0.0) - v) for k, v in fe.items())
        rows.append((n, t, err, got))
    sampled_agree([fg.get(k, 0.0) for k in fe], list(fe.values()), sizes[-1], "fight", labels=list(fe))
    worst = max(p * (1 - p) for p in fe.values())
    n_equal = int(np.ceil(worst / target_se ** 2))
    t_equal = rows[-1][1] / rows[-1][0] * n_equal
    return {"rows": rows, "n_equal": n_equal, "t_equal": t_equal, "ratio": t_equal / t_exact, "t_exact": t_exact, "se": target_se}


def report(title: str, intro: list, cmp: dict, side_by_side: list) -> str:
    """The benchmark's section: the timing table, the side-by-side answers (``(label, exact,
    Monte Carlo)``) and the ratio at equal accuracy."""
    big_n = cmp["rows"][-1][0]
    lines = [title, ""] + intro + ["", "| method | samples | time | max error |", "|---|---:|---:|---:|",
                                    f"| tapeline exact | — | {cmp['t_exact'] * 1e3:.1f} ms | 0 (float rounding) |"]
    for n, t, err, _ in cmp["rows"]:
        lines.append(f"| Monte Carlo | {n:,} | {t * 1e3:.0f} ms | {err:.4f} |")
    lines += [f"| Monte Carlo, extrapolated to ±{cmp['se']:g} (4 decimals) | {cmp['n_equal']:,} | {cmp['t_equal']:.0f} s | ≈{cmp['se']:g} |",
              "", f"| | exact | Monte Carlo ({big_n:,}) |", "|---|---:|---:|"]
    lines += [f"| {label} | {a:.4f} | {b:.4f} |" for label, a, b in side_by_side]
    r = cmp["ratio"]
    lines += ["", f"Ratio at equal accuracy (4 decimals): Monte Carlo / exact = {r:,.0f}× "
                  f"({'the exact answer is faster' if r > 1 else 'Monte Carlo is faster'})."]
    return "\n".join(lines)


def mean(pmf) -> float:
    return float(sum(k * p for k, p in enumerate(pmf)))
