"""Extra sight-line candidates for pieces whose top lies between the two eye heights.

Used by :func:`board.sight.find_witnesses` (stage 4) when eye heights are given. Notation: for
a pair, the *low* model has the lower eye; for a line L (oriented low → high) let P(L) be the
far end of the low base's chord and Q(L) the near end of the high base's chord (the best 3D
choice: moving P back or Q back raises the sight line everywhere between the bases). A piece
with top ``h`` strictly between the eyes has ratio ``s = (h - z_low) / (z_high - z_low)``; the
line runs below ``h`` exactly on the sub-segment ``[P, E]`` with ``E(L) = P + s·(Q - P)``, so the
piece blocks L iff ``[P, E]`` meets the interior of its footprint.

A clear line pushed until it is stopped ends up touching a constraint: a footprint corner on
``[P, E]`` or a base / circle tangent (the 2D features of :mod:`board.sight`), or ``E(L)`` on an
edge of a partial piece (or on its circle). Following the boundary of the clear set of lines
from such a contact, the first other contact met gives a finite candidate. New families, each a
one-parameter problem with a 1-D root search:

* ``E`` on an edge or circle, and the line through a point feature ``w`` (convex corner or
  outline crossing, or any corner of a partial piece): by angle θ over exactly the range of
  lines through ``w`` meeting both bases (64 samples, sign changes bisected to float precision);
* ``E`` on an edge or circle, and the line tangent to a base or a circular blocker: by the
  angle φ of the touching point (720 samples over the turn, bisected);
* ``E`` on an edge of one partial piece and ``E'`` on an edge of another: for ``P`` at angle α
  on the low outline both are linear in ``Q`` (2×2 solve); root where ``Q`` is on the high
  outline (720 samples);
* islands — a clear region whose boundary is a loop of "E on one edge" lines holds a maximum of
  ``n·E``; as ``n·E = (1 - s)·n·P + s·n·Q`` separates, that is the line through the two bases'
  farthest points along the edge's outward normal ``n`` (closed form). For a circle, the
  maximum of ``|E - c|`` has both bases' normals parallel to ``E - c``: a root in their angle.

See docs/line-of-sight.md for the derivation and what is not proven.
"""

from __future__ import annotations

import math
from typing import Callable, Protocol, cast

import numpy as np

from .arrays import Bools, Floats, Ints, lengths

_G_POINT = 64
_G_CURVE = 720
_BISECT = 44
_CHUNK = 400_000

#: The partial-height conditions of the pairs (:func:`board.sight._partial_conditions`),
#: sorted by pair: ``(pair, s, kind, a, b, piece)``.
Conditions = tuple[Ints, Floats, Ints, Floats, Floats, Ints]
#: ``add(pair, p, d)``: candidate lines through ``p`` along ``d`` (rows) for their pairs.
Add = Callable[[Ints, Floats, Floats], None]
#: A one-parameter family of items (:func:`_solve`): the condition ``(g, ok)`` and the line
#: ``(p, d)`` of items ``k`` at parameters ``t``.
Condition = Callable[[Ints, Floats], tuple[Floats, Bools]]
Lines = Callable[[Ints, Floats], tuple[Floats, Floats]]


class TangentsFrom(Protocol):
    """:func:`board.sight.tangents_from`."""

    def __call__(self, p: Floats, c: Floats, m: Floats) -> tuple[Floats, Floats, Bools]: ...


class Combos(Protocol):
    """:func:`board.sight.combos`."""

    def __call__(self, gl: Ints, gr: Ints, same: bool = ...) -> tuple[Ints, Ints]: ...


#: What :func:`partial_candidates` needs of the sight search (:mod:`board.sight`, which imports
#: this module, hands it over): ``segments(pair, p, d) -> (s0, s1, ok)`` (the far/near
#: segment), which end is low (``lowA``), the bases ``ca, ma, cb, mb``, and its helpers
#: ``tangents_from`` and ``combos``.
SightGeometry = tuple[Callable[[Ints, Floats, Floats], tuple[Floats, Floats, Bools]], Bools, Floats, Floats, Floats, Floats,
                      TangentsFrom, Combos]


def _wrap(a: Floats) -> Floats:
    return (a + math.pi / 2) % math.pi - math.pi / 2


def _arc(w: Floats, c: Floats, m: Floats, tangents_from: TangentsFrom) -> tuple[Floats, Floats]:
    """Line directions (angle mod π) through points ``w`` meeting curves ``(c, M)``: (lo, hi)."""
    t1, t2, ok = tangents_from(w, c, m)
    mid = np.arctan2(c[:, 1] - w[:, 1], c[:, 0] - w[:, 0])
    d1 = _wrap(np.arctan2(t1[:, 1] - w[:, 1], t1[:, 0] - w[:, 0]) - mid)
    d2 = _wrap(np.arctan2(t2[:, 1] - w[:, 1], t2[:, 0] - w[:, 0]) - mid)
    lo = np.where(ok, mid + np.minimum(d1, d2), mid - math.pi / 2)
    hi = np.where(ok, mid + np.maximum(d1, d2), mid + math.pi / 2)
    return lo, hi


def partial_candidates(pair_of_pt: Ints, pt_xy: Floats, cv_pair: Ints, cv_c: Floats, cv_m: Floats, cond: Conditions,
                       geom: SightGeometry, add: Add) -> None:
    """Add candidate lines ``add(pair, p, d)`` for every point / curve feature of a pair crossed
    with every partial-height condition of that pair.

    ``cond``: ``(pair, s, kind, a, b, piece)`` sorted by pair — ``kind`` 0: edge ``a → b``; 1:
    circle centre ``a``, radius ``b[:, 0]``. ``geom``: ``(segments, lowA, ca, ma, cb, mb, tangents_from,
    combos)`` where ``segments(pair, p, d)`` returns the far/near segment ``(s0, s1, ok)``.
    """
    segments, low_a, ca, ma, cb, mb, tangents_from, combos = geom
    c_pair, c_s, c_kind, c_a, c_b, c_piece = cond
    if not len(c_pair):
        return

    def gval(ci: Ints, pair: Ints, p: Floats, d: Floats) -> tuple[Floats, Bools]:
        s0, s1, ok = segments(pair, p, d)
        la = low_a[pair][:, None]
        lo_pt, hi_pt = np.where(la, s0, s1), np.where(la, s1, s0)
        e = lo_pt + c_s[ci, None] * (hi_pt - lo_pt)
        a, b = c_a[ci], c_b[ci]
        g_edge = (b[:, 0] - a[:, 0]) * (e[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (e[:, 0] - a[:, 0])
        g_circ = np.einsum("ij,ij->i", e - a, e - a) - b[:, 0] ** 2
        return np.where(c_kind[ci] == 0, g_edge, g_circ), ok

    # every corner of a partial piece is a point feature (E passing a reflex corner joins two
    # edges' stretches)
    own = c_kind == 0
    pair_of_pt = np.concatenate([pair_of_pt, c_pair[own]])
    pt_xy = np.vstack([pt_xy, c_a[own]])
    # E reaches an edge from outside only if P is on its outer side: drop edges whose outer
    # half-plane misses the low base entirely
    e = c_b - c_a
    nrm = np.column_stack([e[:, 1], -e[:, 0]])
    la = low_a[c_pair]
    lc, lm = np.where(la[:, None], ca[c_pair], cb[c_pair]), np.where(la[:, None, None], ma[c_pair], mb[c_pair])
    reach = lengths(np.einsum("nji,nj->ni", lm, nrm)) + np.einsum("ij,ij->i", nrm, lc - c_a)
    keep = (c_kind != 0) | (reach > 0)
    c_pair, c_s, c_kind, c_a, c_b, c_piece = (x[keep] for x in (c_pair, c_s, c_kind, c_a, c_b, c_piece))
    o = np.argsort(pair_of_pt, kind="stable")
    pair_of_pt, pt_xy = pair_of_pt[o], pt_xy[o]
    i, j = combos(pair_of_pt, c_pair)
    if len(i):
        w = pt_xy[i]
        pr = pair_of_pt[i]
        loa, hia = _arc(w, ca[pr], ma[pr], tangents_from)
        lob, hib = _arc(w, cb[pr], mb[pr], tangents_from)
        shift = np.round(((lob + hib) - (loa + hia)) / (2 * math.pi)) * math.pi
        lob, hib = lob - shift, hib - shift
        lo, hi = np.maximum(loa, lob), np.minimum(hia, hib)
        keep = hi > lo
        w, pr, ci, lo, hi = w[keep], pr[keep], j[keep], lo[keep], hi[keep]

        def point_lines(k: Ints, t: Floats) -> tuple[Floats, Floats]:
            return w[k], np.column_stack([np.cos(t), np.sin(t)])

        _solve(len(w), lo, hi, _G_POINT, lambda k, t: gval(ci[k], pr[k], *point_lines(k, t)),
               point_lines, pr, add)

    # lines tangent to curve features
    i, j = combos(cv_pair, c_pair)
    if len(i):
        cc, mm, pr = cv_c[i], cv_m[i], cv_pair[i]

        def curve_lines(k: Ints, t: Floats) -> tuple[Floats, Floats]:
            u = np.column_stack([np.cos(t), np.sin(t)])
            v = np.column_stack([-np.sin(t), np.cos(t)])
            return cc[k] + np.einsum("nij,nj->ni", mm[k], u), np.einsum("nij,nj->ni", mm[k], v)

        n = len(i)
        _solve(n, np.zeros(n), np.full(n, 2 * math.pi), _G_CURVE,
               lambda k, t: gval(j[k], pr[k], *curve_lines(k, t)), curve_lines, pr, add)

    # E on an edge of one partial piece and E' on an edge of another: for P at angle α on the
    # low outline both conditions are linear in Q, so Q(α) is a 2×2 solve; root: Q on the high
    # outline.
    ed = np.nonzero(c_kind == 0)[0]
    i, j = combos(c_pair[ed], c_pair[ed], same=True)
    i, j = ed[i], ed[j]
    keep = c_piece[i] != c_piece[j]
    i, j = i[keep], j[keep]
    if len(i):
        pr = c_pair[i]
        la = low_a[pr][:, None, None]
        lc, lm = np.where(la[:, :, 0], ca[pr], cb[pr]), np.where(la, ma[pr], mb[pr])
        hc, hm = np.where(la[:, :, 0], cb[pr], ca[pr]), np.where(la, mb[pr], ma[pr])
        hinv = np.linalg.inv(hm)

        def normal(k: Ints) -> Floats:
            e = c_b[k] - c_a[k]
            return np.column_stack([e[:, 1], -e[:, 0]])

        n1, n2 = normal(i), normal(j)
        k1, k2 = np.einsum("ij,ij->i", n1, c_a[i]), np.einsum("ij,ij->i", n2, c_a[j])
        s1, s2 = c_s[i], c_s[j]
        det = s1 * s2 * (n1[:, 0] * n2[:, 1] - n1[:, 1] * n2[:, 0])
        scale = s1 * s2 * lengths(n1) * lengths(n2)
        live = np.abs(det) > 1e-9 * scale
        i, j, pr = i[live], j[live], pr[live]
        lc, lm, hc, hinv = lc[live], lm[live], hc[live], hinv[live]
        n1, n2, k1, k2, s1, s2, det = n1[live], n2[live], k1[live], k2[live], s1[live], s2[live], det[live]

        def ends2(k: Ints, t: Floats) -> tuple[Floats, Floats]:
            p = lc[k] + np.einsum("nij,nj->ni", lm[k], np.column_stack([np.cos(t), np.sin(t)]))
            r1 = k1[k] - (1 - s1[k]) * np.einsum("ij,ij->i", n1[k], p)
            r2 = k2[k] - (1 - s2[k]) * np.einsum("ij,ij->i", n2[k], p)
            a11, a12, a21, a22 = s1[k] * n1[k, 0], s1[k] * n1[k, 1], s2[k] * n2[k, 0], s2[k] * n2[k, 1]
            q = np.column_stack([(r1 * a22 - r2 * a12) / det[k], (a11 * r2 - a21 * r1) / det[k]])
            return p, q

        def g_two(k: Ints, t: Floats) -> tuple[Floats, Bools]:
            p, q = ends2(k, t)
            v = np.einsum("nij,nj->ni", hinv[k], q - hc[k])
            return np.einsum("ij,ij->i", v, v) - 1, np.ones(len(k), bool)

        def line_two(k: Ints, t: Floats) -> tuple[Floats, Floats]:
            p, q = ends2(k, t)
            return p, q - p

        m = len(i)
        _solve(m, np.zeros(m), np.full(m, 2 * math.pi), _G_CURVE, g_two, line_two, pr, add)

    # the line pushing E farthest out of the piece (a clear island bounded by one edge or circle)
    edge = c_kind == 0
    if edge.any():
        e = c_b[edge] - c_a[edge]
        nrm = np.column_stack([e[:, 1], -e[:, 0]])  # outward: rings are counter-clockwise
        pr = c_pair[edge]
        p = _support(ca[pr], ma[pr], nrm)
        add(pr, p, _support(cb[pr], mb[pr], nrm) - p)
    circ = np.nonzero(~edge)[0]
    if len(circ):
        pr = c_pair[circ]

        def ends(k: Ints, t: Floats) -> tuple[Floats, Floats, Floats]:
            nn = np.column_stack([np.cos(t), np.sin(t)])
            return nn, _support(ca[pr[k]], ma[pr[k]], nn), _support(cb[pr[k]], mb[pr[k]], nn)

        def g_circ(k: Ints, t: Floats) -> tuple[Floats, Bools]:
            nn, pa, pb = ends(k, t)
            la = low_a[pr[k]][:, None]
            lo_pt, hi_pt = np.where(la, pa, pb), np.where(la, pb, pa)
            v = lo_pt + c_s[circ[k], None] * (hi_pt - lo_pt) - c_a[circ[k]]
            return nn[:, 0] * v[:, 1] - nn[:, 1] * v[:, 0], np.einsum("ij,ij->i", nn, v) > 0

        def line_circ(k: Ints, t: Floats) -> tuple[Floats, Floats]:
            _, pa, pb = ends(k, t)
            return pa, pb - pa

        m = len(circ)
        _solve(m, np.zeros(m), np.full(m, 2 * math.pi), _G_CURVE, g_circ, line_circ, pr, add)


def _solve(n: int, lo: Floats, hi: Floats, grid: int, g_of: Condition, line_of: Lines, pair: Ints, add: Add) -> None:
    """Sign changes of ``g_of(item, t) -> (g, ok)`` on a grid of each item's parameter range
    ``[lo, hi]``, bisected to float precision; the line ``line_of(item, t) -> (p, d)`` at both
    ends of each final bracket is added as a candidate."""
    step = max(1, _CHUNK // grid)
    u = np.linspace(0.0, 1.0, grid)
    for s in range(0, n, step):
        k = np.arange(s, min(n, s + step))
        t = lo[k, None] + (hi[k] - lo[k])[:, None] * u[None, :]
        g, ok = g_of(np.repeat(k, grid), t.ravel())
        g, ok = g.reshape(len(k), grid), ok.reshape(len(k), grid)
        sg = np.sign(g)
        chg = ok[:, :-1] & ok[:, 1:] & (sg[:, :-1] * sg[:, 1:] <= 0)
        r, c = np.nonzero(chg)
        if not len(r):
            continue
        item = k[r]
        a, b, ga = t[r, c], t[r, c + 1], g[r, c]
        for _ in range(_BISECT):
            mid = 0.5 * (a + b)
            gm, okm = g_of(item, mid)
            same = ~okm | (np.sign(gm) == np.sign(ga))
            a = np.where(same, mid, a)
            ga = np.where(same, gm, ga)
            b = np.where(same, b, mid)
        for t_root in (a, b):
            p, d = line_of(item, t_root)
            add(pair[item], p, d)


def _support(c: Floats, m: Floats, n: Floats) -> Floats:
    """Touching point of curves ``(c, M)`` with outward normal ``n`` (rows)."""
    w = np.einsum("nji,nj->ni", m, n)
    return cast(Floats, c + np.einsum("nij,nj->ni", m, w / lengths(w)[:, None]))
