"""A vectorised numpy Monte Carlo of one round of close combat, the benchmarks' sampling peer for
the exact engine (:mod:`tapeline.rules.melee`): the strongest sampler of the same dice model.

It reads a :class:`~tapeline.rules.melee.combat.Combat` — the same face tables, casualty orders
and Initiative steps — and samples ``n`` rounds at once, not die by die: each attack is one
folded Bernoulli trial (the hit roll, the wound roll and the save in one chance per wound kind,
worked out by the sampler itself from the face tables and the target's saves), so a group's
unsaved wounds by kind are one multinomial draw per round from the dice it has at the start of
its step; the wounds are then taken in kind order along the casualty order by table look-up
(Damage never carries over). Folding the save needs every model of the target unit to face the
same save and mitigation for each kind (checked). Each group strikes its first target option
(the benchmark cases have one enemy unit).
"""

from __future__ import annotations

import numpy as np

from tapeline.rules.melee.combat import Combat
from tapeline.rules.melee.strike import HIT, Against


def _passes(tn) -> int:
    return 0 if tn is None or tn > 6 else 7 - max(2, tn)


def _unsaved(a: Against, order) -> list[tuple[float, int]]:
    """Per wound kind of ``a``: (P(one attack is an unsaved wound of that kind), its Damage)."""
    out = []
    for k, kind in enumerate(a.kinds):
        seen = {(d.save_on(kind), d.mitigation) for d in order}
        if len(seen) > 1:
            raise ValueError(f"{a.target}: models face different saves against {kind}: the folded sampler needs one")
        save, fnp = seen.pop() if seen else (None, None)
        direct = a.hit_faces.count(2 + k) / 6
        via = a.hit_faces.count(HIT) / 6 * a.wound_faces.count(2 + k) / 6
        out.append(((direct + via) * (6 - _passes(save)) / 6 * (6 - _passes(fnp)) / 6, max(1, kind.damage)))
    return out


class _Chain:
    """A unit's states as wounds lost along its casualty order (index 0: none), with the table
    of the state after ``v`` unsaved wounds of Damage ``d`` from each state."""

    def __init__(self, wounds: list[int]) -> None:
        self.cum = np.concatenate([[0], np.cumsum(wounds)]).astype(np.int64)
        self.size = int(self.cum[-1]) + 1
        idx = np.arange(self.size)
        self.removed = np.searchsorted(self.cum, idx, side="right") - 1
        self.damage = idx - self.cum[np.minimum(self.removed, len(wounds))]
        self._w = np.array(wounds + [1])
        self._tables: dict[tuple[int, int], np.ndarray] = {}

    def table(self, dmg: int, v_max: int) -> np.ndarray:
        """``[i, v]``: the state after ``v`` unsaved wounds of Damage ``dmg`` from state ``i``."""
        key = (dmg, v_max)
        if key not in self._tables:
            r, d = self.removed, self.damage
            alive = r < len(self._w) - 1
            nxt = np.where(alive, np.where(d + dmg >= self._w[r], self.cum[np.minimum(r + 1, len(self.cum) - 1)], np.arange(self.size) + dmg),
                           np.arange(self.size))
            cols = [np.arange(self.size)]
            for _ in range(v_max):
                cols.append(nxt[cols[-1]])
            self._tables[key] = np.stack(cols, axis=1)
        return self._tables[key]


class Sampler:
    """The folded sampler of one combat (the chains and each group's chances worked out once)."""

    def __init__(self, c: Combat) -> None:
        self.c = c
        self.units = {u.id: i for i, u in enumerate(c.units)}
        self.chains = [_Chain([d.wounds for d in u.order]) for u in c.units]
        self.groups = []
        for step in c.steps:
            gs = []
            for g in step.groups:
                a = g.against[0]
                ui, ti = self.units[g.unit], self.units[a.target]
                pos = {d.id: k for k, d in enumerate(c.units[ui].order)}
                where = np.array([pos.get(m, len(pos)) for m, _ in g.dice])
                per = np.array([n for _, n in g.dice])
                gs.append((ui, ti, where, per, _unsaved(a, c.units[ti].order)))
            self.groups.append(gs)

    def run(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, dict]:
        """``n`` rounds at once: (models removed, damage on the next model) per unit and round,
        and each unit's row."""
        state = np.zeros((len(self.chains), n), dtype=np.int64)
        for gs in self.groups:
            begin = state.copy()
            for ui, ti, where, per, kinds in gs:
                removed = self.chains[ui].removed[begin[ui]]
                dice = ((where[None, :] >= removed[:, None]) * per[None, :]).sum(axis=1)
                q = [p for p, _ in kinds]
                counts = rng.multinomial(dice, q + [max(0.0, 1.0 - sum(q))])
                for k, (_p, dmg) in enumerate(kinds):
                    table = self.chains[ti].table(dmg, int(per.sum()))
                    state[ti] = table[state[ti], counts[:, k]]
        removed = np.stack([ch.removed[s] for ch, s in zip(self.chains, state)])
        damage = np.stack([ch.damage[s] for ch, s in zip(self.chains, state)])
        return removed, damage, self.units


#: The exact answers are printed to 4 decimals: Monte Carlo must reach a standard error of 5e-5
#: for them, and of 5e-4 for 3 decimals.
TARGETS = ((4, 5e-5), (3, 5e-4))


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
SIZES = (1_000, 100_000, 1_000_000)
QUICK_SIZES = (1_000, 20_000)


def compare(ex: dict, t_exact: float, mc, sizes=SIZES) -> dict:
    """Run ``mc(n)`` at each size (CPU time) against the exact answers ``ex`` (probabilities by
    name, lists allowed) and extrapolate the sample count — and the time — that reaches each
    target standard error of :data:`TARGETS` on the least certain probability. The largest run
    must agree with every exact probability within sampling error (:func:`benchmarks.sampled_agree`)."""
    import time

    from benchmarks import sampled_agree
    from benchmarks.timing import best

    fe = _flat(ex)
    rows = []
    for n in sizes:
        t, got = best(lambda: mc(n), repeat=1, clock=time.process_time)
        fg = _flat(got)
        err = max(abs(fg.get(k, 0.0) - v) for k, v in fe.items())
        rows.append((n, t, err, got))
    sampled_agree([fg.get(k, 0.0) for k in fe], list(fe.values()), sizes[-1], "fight", labels=list(fe))
    worst = max(p * (1 - p) for p in fe.values())
    equal = []
    for decimals, se in TARGETS:
        n_equal = int(np.ceil(worst / se ** 2))
        t_equal = rows[-1][1] / rows[-1][0] * n_equal
        equal.append((decimals, se, n_equal, t_equal, t_equal / t_exact))
    return {"rows": rows, "equal": equal, "t_exact": t_exact}


def report(title, intro: list, cmp: dict, side_by_side: list) -> list[str]:
    """The Monte Carlo part of a section (under ``title`` unless ``None``): the timing table, the
    side-by-side answers (``(label, exact, Monte Carlo)``) and the ratios at equal accuracy (3
    and 4 decimals)."""
    big_n = cmp["rows"][-1][0]
    lines = ([] if title is None else [title]) + [""] + intro + ["", "| method | samples | CPU time | max error |", "|---|---:|---:|---:|",
                                    f"| tapeline exact | — | {cmp['t_exact'] * 1e3:.2f} ms | 0 (float rounding) |"]
    for n, t, err, _ in cmp["rows"]:
        lines.append(f"| Monte Carlo, folded | {n:,} | {t * 1e3:.0f} ms | {err:.4f} |")
    for decimals, se, n_equal, t_equal, _r in cmp["equal"]:
        lines.append(f"| Monte Carlo, extrapolated to ±{se:g} ({decimals} decimals) | {n_equal:,} | {t_equal:.2f} s | ≈{se:g} |")
    lines += ["", f"| | exact | Monte Carlo ({big_n:,}) |", "|---|---:|---:|"]
    lines += [f"| {label} | {a:.4f} | {b:.4f} |" for label, a, b in side_by_side]
    lines += [""] + [f"Ratio at equal accuracy ({d} decimals): Monte Carlo / exact = {r:,.0f}× "
                     f"({'the exact answer is faster' if r > 1 else 'Monte Carlo is faster'})." for d, _se, _n, _t, r in cmp["equal"]]
    return lines


def mean(pmf) -> float:
    return float(sum(k * p for k, p in enumerate(pmf)))
