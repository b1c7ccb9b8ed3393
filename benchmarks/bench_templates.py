"""Template coverage: tapeline's exact margins vs the shapely-polygon way.

1,000 bases on a 54" × 36" table and 100 template placements (50 Blasts of 3", 50 Flamers of
8" × 0.75" × 2.5" at random spots and aims). For every placement × base: covered (the base
overlaps the template's interior) and full (wholly under it).

* tapeline: :func:`board.templates.verdicts` — one vectorised call for all 100 × 1,000 pairs:
  the exact margins (round bases in closed form, ovals at their critical angles) of the pairs
  whose bounding circles meet; also :func:`board.templates.margins`, every pair's margins;
* peer: the usual way — bases and templates as shapely polygons (``buffer`` of the circles,
  a teardrop as the convex hull of its two buffered circles, shapely's default 8 segments per
  quarter circle), then ``intersects`` and ``contains`` per placement (vectorised over bases,
  the template prepared).

Reported: best-of-5 times, their ratio, and how many verdicts the polygons get wrong against
the exact ones — on the random table, and on 1,000 bases set 0.002" inside or outside a
Blast's reach, where an argument about "is it under?" actually happens.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from benchmarks import agree
from benchmarks.timing import best
from tapeline.board.templates import DEFAULT_SHAPES, margins, place, verdicts
from tapeline.board.units import TOUCH

MM = 25.4
N_BASES, N_BLAST, N_FLAME = 1000, 50, 50


def _templates(rng, n_blast: int = N_BLAST, n_flame: int = N_FLAME):
    out = [place(DEFAULT_SHAPES["blast"], tuple(rng.uniform((2, 2), (52, 34)))) for _ in range(n_blast)]
    for _ in range(n_flame):
        tip = rng.uniform((2, 2), (52, 34))
        ang = rng.uniform(0, 2 * math.pi)
        out.append(place(DEFAULT_SHAPES["flamer"], tuple(tip), (tip[0] + math.cos(ang), tip[1] + math.sin(ang))))
    return out


def _arrays(tpls):
    return (np.array([t.p1 for t in tpls]), np.array([t.r1 for t in tpls]),
            np.array([t.p2 for t in tpls]), np.array([t.r2 for t in tpls]))


def exact(tpls, q, a, b, phi):
    return verdicts(*_arrays(tpls), q, a, b, phi)


def exact_margins(tpls, q, a, b, phi):
    ov, ins, _ = margins(*_arrays(tpls), q, a, b, phi)
    cov = ov > TOUCH
    return cov, cov & (ins >= -TOUCH)


def _template_polygon(t):
    if t.kind == "disc":
        return shapely.buffer(shapely.Point(t.p1), t.r1)
    return shapely.convex_hull(shapely.union(shapely.buffer(shapely.Point(t.p1), t.r1),
                                             shapely.buffer(shapely.Point(t.p2), t.r2)))


def _base_polygons(q, a, b, phi):
    circles = shapely.buffer(shapely.points(q), 1.0)  # unit circles, then scaled and rotated
    out = []
    for c, x, y, p in zip(circles, a, b, phi):
        ring = shapely.get_coordinates(c) - shapely.get_coordinates(shapely.centroid(c))
        rot = np.array([[math.cos(p), -math.sin(p)], [math.sin(p), math.cos(p)]])
        out.append(shapely.Polygon(ring * (x, y) @ rot.T + shapely.get_coordinates(shapely.centroid(c))))
    return np.array(out, dtype=object)


def polygons(tpls, bases):
    cov = np.zeros((len(tpls), len(bases)), bool)
    full = np.zeros_like(cov)
    for i, t in enumerate(tpls):
        poly = _template_polygon(t)
        shapely.prepare(poly)
        cov[i] = shapely.intersects(poly, bases)
        full[i] = shapely.contains(poly, bases)
    return cov, full


def _row(name, t, wrong):
    return f"| {name} | {t * 1e3:.1f} | {wrong} |"


def run(quick: bool = False) -> str:
    """The section; ``quick``: 200 bases, 20 placements, one run each. Either way the two exact
    calls must give the same verdicts, and the verdicts near a Blast's thresholds those of the
    distance between centres."""
    n_bases, n_blast, n_flame = (200, 10, 10) if quick else (N_BASES, N_BLAST, N_FLAME)
    repeat, repeat_ovals = (1, 1) if quick else (5, 2)
    rng = np.random.default_rng(2026)
    tpls = _templates(rng, n_blast, n_flame)
    q = rng.uniform((0.5, 0.5), (53.5, 35.5), (n_bases, 2))
    r = rng.choice([25, 32, 40, 50], n_bases) / MM / 2
    zero = np.zeros(n_bases)
    t_ex, (cov, full) = best(lambda: exact(tpls, q, r, r, zero), repeat)
    t_mg, (cov_m, full_m) = best(lambda: exact_margins(tpls, q, r, r, zero), repeat)
    agree((cov_m == cov).all() and (full_m == full).all(), "templates: verdicts() and margins() disagree")
    polys = _base_polygons(q, r, r, zero)
    t_pg, (pc, pf) = best(lambda: polygons(tpls, polys), repeat)
    wrong = int((pc != cov).sum() + (pf != full).sum())
    # ovals: 100×40 mm (Hydralisk) at random facings
    a, b = np.full(n_bases, 50 / MM), np.full(n_bases, 20 / MM)
    phi = rng.uniform(0, 2 * math.pi, n_bases)
    t_exo, (covo, fullo) = best(lambda: exact(tpls, q, a, b, phi), repeat_ovals)
    opolys = _base_polygons(q, a, b, phi)
    t_pgo, (pco, pfo) = best(lambda: polygons(tpls, opolys), repeat_ovals)
    wrong_o = int((pco != covo).sum() + (pfo != fullo).sum())
    # the argument: bases 0.002" inside or outside a Blast's reach (covered or not), and 0.002"
    # inside or outside wholly under it
    blast = place(DEFAULT_SHAPES["blast"], (27.0, 18.0))
    ang = rng.uniform(0, 2 * math.pi, n_bases)
    rr = rng.choice([25, 32, 40], n_bases) / MM / 2
    sign = rng.choice([-1.0, 1.0], n_bases)
    edge = np.where(np.arange(n_bases) % 2 == 0, 1.5 + rr, 1.5 - rr) + sign * 0.002
    qc = np.array(blast.p1) + edge[:, None] * np.column_stack([np.cos(ang), np.sin(ang)])
    cc, fc = exact([blast], qc, rr, rr, np.zeros(n_bases))
    pcc, pfc = polygons([blast], _base_polygons(qc, rr, rr, np.zeros(n_bases)))
    # independent check of the exact verdicts: the base centre's distance to the Blast's centre
    d = np.hypot(*(qc - np.array(blast.p1)).T)
    agree((cc[0] == (d < 1.5 + rr - TOUCH)).all() and (fc[0] == (d + rr <= 1.5 + TOUCH)).all(),
          "templates: exact Blast verdicts disagree with the distances between centres")
    wrong_c = int((pcc != cc).sum() + (pfc != fc).sum())
    n = n_bases * len(tpls)
    ratio = t_ex / t_pg
    return "\n".join([
        "## Template coverage: exact margins vs shapely polygons (`board/templates.py`)",
        "",
        f"{n_bases:,} bases on a 54\" × 36\" table, {len(tpls)} placements ({n_blast} Blasts 3\", {n_flame} Flamers"
        f" 8\" × 0.75\" × 2.5\"): {n:,} covered / wholly-under verdicts each. Peer: bases and templates as buffered"
        " shapely polygons (8 segments per quarter circle), `intersects` and `contains` per placement, vectorised"
        f" over the bases, template prepared. Best of {repeat} runs (ovals: {repeat_ovals}).",
        "",
        "| method | time (ms) | verdicts that differ from exact |",
        "|---|---:|---:|",
        _row("round bases (25–50 mm): tapeline exact verdicts, one `verdicts` call", t_ex, 0),
        _row("round bases: tapeline exact margins of every pair, one `margins` call", t_mg, 0),
        _row("round bases: shapely polygons", t_pg, wrong),
        _row("100×40 mm ovals: tapeline exact (critical angles by companion-matrix roots)", t_exo, 0),
        _row("100×40 mm ovals: shapely polygons", t_pgo, wrong_o),
        _row(f"{n_bases:,} round bases 0.002\" from a Blast's thresholds: shapely polygons", 0, wrong_c).replace("| 0.0 |", "| — |"),
        "",
        f"Round bases, time ratio exact / polygons: **{ratio:.2f}** (target ≤ 1: exact and at least as fast)"
        f" — **{'met' if ratio <= 1 else 'not met'}**. Ovals: {t_exo / t_pgo:.1f}× the polygons' time"
        " (exact roots of a quartic per base and circle; tables hold few ovals).",
        f"The polygons' errors come from their inscribed outlines (up to r(1 − cos(π/32)) ≈ 0.0048 r short of"
        f" the true circle): near a threshold they call {wrong_c} of {2 * n_bases:,} verdicts wrong, and"
        " `intersects` counts a base that only touches the outline as covered (tapeline: touching is not covered).",
    ])


if __name__ == "__main__":  # pragma: no cover
    print(run())
