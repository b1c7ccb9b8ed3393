"""Exact sight lines between two bases among blocking footprints (docs/geometry.md §1).

The question: is there a straight segment from a point of base A to a point of base B that
avoids the *interior* of every blocking footprint? (Touching a boundary — grazing a corner,
running along an edge — does not block.)

**Reduction.** Every such segment lies on a line L meeting both bases; the part of L that every
segment on L must contain is S(L), between the two inner chord ends (a point when the chords
overlap). So B is visible from A iff S(L) is clear for some L.

**Finitely many candidates.** Slide a clear line sideways until it is stopped, then turn it about
the contact until it is stopped again; it stays clear. A line is stopped by a *point feature*
(a convex corner of a blocker, or a point where a blocker's outline crosses a base outline) or
by a *curve feature* (tangency to base A, to base B, or to a circular blocker). So some clear
line, if any exists, is fixed by two features:

* point–point: the line through both;
* point–curve: the two tangents from the point to the curve;
* curve–curve: the four common tangents (two outer, two inner).

plus the centre-to-centre line, tried first. Bases are handled exactly as ellipses (a round
base is an ellipse with equal axes): a base is ``c + M·(unit disc)``, so tangents from a point
and chords are closed-form through ``M⁻¹``; common tangents are roots of a support-function
equation found by bracketing on a grid and bisection to float precision. Circular terrain is its
exact circle (tested by centre–segment distance, so a tangent line is clear).

**Vectorised.** Features and candidates of *all* requested pairs are flat numpy arrays keyed by
pair; relevant terrain comes from an STRtree query with the convex hull of each pair; every
candidate segment is tested in one STRtree query against the (tolerance-shrunk) footprints and
the per-pair blocking mask the rule system supplies. A first cheap stage (centre line and common
tangents) settles most visible pairs; only the rest get the full candidate set
(:func:`search_witnesses`).

**The easy pairs first.** :func:`find_witnesses`, what the rule systems call, settles most pairs
of a matrix before that search, each way sound on its own so that the verdicts are the search's:
a clear centre segment; one or two pieces across the band between the bases
(:mod:`board.separation`: every sight line crosses them); near-tangent lines and lines past the
pieces' ends, clear of the footprints grown by ``DELTA``.

**Heights.** Optionally each pair has eye heights ``za``, ``zb`` (at A's and B's end) and each
piece a top height: a piece then blocks a segment only where the straight sight line from
``za`` to ``zb`` runs below the piece's top over its footprint. With pieces all lower than both
eyes or all higher, this is exactly the 2D problem above; with a piece between the two eye
heights the same candidate lines are tested with the 3D rule and, for pairs still open, the
extra families of :mod:`board.sightheights` (every returned witness is verified; what remains
unproven is listed in docs/line-of-sight.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Optional, Sequence, Union, cast

import numpy as np
import shapely
from numpy.typing import ArrayLike
from shapely.geometry.base import BaseGeometry

from .arrays import Bools, Floats, Geoms, Ints, copies, lengths
from .bases import RoundBase
from .separation import DELTA, WINDOW_WIDTH, Base, Cores, padded, separated, support, through, windows
from .sightheights import Conditions, SightGeometry, partial_candidates
from .table import Figure
from .terrain import Piece

#: Footprints are shrunk by this much before the blocking test, so a line touching a boundary
#: (computed through a corner in floating point) is clear. Far below the 1e-6" contact tolerance.
SIGHT_TOL = 1e-9
_GRID_N = 720
_GRID = np.linspace(0.0, 2 * math.pi, _GRID_N, endpoint=False)
_STEP = _GRID[1]
#: Rounds of the tangents' bisection in which every bracket is sure to move (:func:`_support_tangents`).
BISECT_FREE = 40
_HULL_K = 32
_HULL_U = np.column_stack([np.cos(2 * np.pi * np.arange(_HULL_K) / _HULL_K),
                           np.sin(2 * np.pi * np.arange(_HULL_K) / _HULL_K)]) / math.cos(math.pi / _HULL_K)

#: Eye heights per pair, at A's end and at B's, and each piece's top (:func:`find_witnesses`).
Heights = tuple[Floats, Floats, Floats]


@dataclass(frozen=True)
class Sight:
    """A sight-line verdict with its evidence.

    ``witness`` is one clear segment ``[[x, y], [x, y]]`` from A's base to B's base (or
    ``None``); ``blocked_by`` lists ``(piece id or None, reason)``; ``clearance`` is how far the
    witness stays from the nearest blocking footprint (inches), ``detail`` a sentence.
    """

    visible: bool
    witness: Optional[list[list[float]]] = None
    blocked_by: Sequence[tuple[Optional[str], str]] = field(default_factory=list)
    clearance: Optional[float] = None
    detail: str = ""

    def __bool__(self) -> bool:
        return self.visible

    def as_dict(self) -> dict[str, object]:
        return {
            "visible": self.visible,
            "witness": self.witness,
            "blocked_by": [{"terrain": t, "reason": r} for t, r in self.blocked_by],
            "clearance": self.clearance,
            "detail": self.detail,
        }


# --- bases as ellipses --------------------------------------------------------------------


def frames(figs: Sequence[Figure]) -> tuple[Floats, Floats]:
    """Centres ``(n, 2)`` and shape matrices ``M`` ``(n, 2, 2)``: base = c + M·(unit disc)."""
    c = np.array([f.at for f in figs], dtype=float).reshape(-1, 2)
    m = np.zeros((len(figs), 2, 2))
    for i, f in enumerate(figs):
        if isinstance(f.base, RoundBase):
            m[i, 0, 0] = m[i, 1, 1] = f.base.radius
        else:
            a, b, p = f.base.a, f.base.b, f.base.phi
            m[i] = [[a * math.cos(p), -b * math.sin(p)], [a * math.sin(p), b * math.cos(p)]]
    return c, m


def _mv(m: Floats, v: Floats) -> Floats:
    return cast(Floats, np.einsum("nij,nj->ni", m, v))


def _mtv(m: Floats, v: Floats) -> Floats:
    return cast(Floats, np.einsum("nji,nj->ni", m, v))


def _support_point(c: Floats, m: Floats, n: Floats) -> tuple[Floats, Floats]:
    """Support value ``h`` and the touching point of the curve with outward normal ``n``."""
    w = _mtv(m, n)
    h = lengths(w)
    return h, c + _mv(m, w / h[:, None])


def tangents_from(p: Floats, c: Floats, m: Floats, minv: Optional[Floats] = None) -> tuple[Floats, Floats, Bools]:
    """The two tangent points from points ``p`` to curves ``(c, M)`` (rows), and validity
    (``p`` strictly outside); ``minv``: the inverses of ``M``, when known."""
    if minv is None:
        minv = cast(Floats, np.linalg.inv(m))  # (float64 in, float64 out)
    q = _mv(minv, p - c)
    r = lengths(q)
    ok = r > 1 + 1e-12
    alpha = np.arctan2(q[:, 1], q[:, 0])
    beta = np.arccos(np.clip(1 / np.maximum(r, 1e-300), -1, 1))
    out = []
    for s in (1, -1):
        u = np.column_stack([np.cos(alpha + s * beta), np.sin(alpha + s * beta)])
        out.append(c + _mv(m, u))
    return out[0], out[1], ok


def common_tangents(ca: Floats, ma: Floats, cb: Floats, mb: Floats) -> tuple[Floats, Floats, Bools]:
    """Up to four common tangent lines per row: (points (n, 4, 2), directions (n, 4, 2), ok).

    Columns 0–1 are the outer tangents, 2–3 the inner ones, each pair in increasing angle of
    the line's normal. Two circles have them in closed form; a pair with an oval finds them as
    roots of the support-function equation (bracketed on a grid, then bisected).
    """
    n = len(ca)
    pts = np.full((n, 4, 2), np.nan)
    dirs = np.full((n, 4, 2), np.nan)
    ok = np.zeros((n, 4), bool)
    ra, rb = _circle_radius(ma), _circle_radius(mb)
    rnd = ~np.isnan(ra) & ~np.isnan(rb)
    if rnd.any():
        i = np.nonzero(rnd)[0]
        pts[i], dirs[i], ok[i] = _circle_tangents(ca[i], ra[i], cb[i], rb[i])
    if not rnd.all():
        i = np.nonzero(~rnd)[0]
        pts[i], dirs[i], ok[i] = _support_tangents(ca[i], ma[i], cb[i], mb[i])
    return pts, dirs, ok


def _circle_radius(m: Floats) -> Floats:
    """The radius where ``M`` is a circle's (a multiple of the identity), else NaN."""
    r = m[:, 0, 0]
    circ = (m[:, 0, 1] == 0) & (m[:, 1, 0] == 0) & (m[:, 1, 1] == r)
    return np.where(circ, r, np.nan)


def _circle_tangents(ca: Floats, ra: Floats, cb: Floats, rb: Floats) -> tuple[Floats, Floats, Bools]:
    """Common tangents of circles: the normal ``n(t)`` of a tangent solves
    ``(cA − cB)·n + rA ± rB = 0`` — ``t = θ ± arccos((rA ± rB)/D)`` with ``θ`` the direction
    from A to B and ``D`` the centre distance."""
    n = len(ca)
    d = cb - ca
    D = np.hypot(d[:, 0], d[:, 1])
    th = np.arctan2(d[:, 1], d[:, 0])
    pts = np.full((n, 4, 2), np.nan)
    dirs = np.full((n, 4, 2), np.nan)
    ok = np.zeros((n, 4), bool)
    for k, sign in enumerate((-1.0, 1.0)):  # outer: rA - rB ; inner: rA + rB
        q = ra + sign * rb
        good = np.abs(q) < D
        al = np.arccos(np.clip(q / np.where(D > 0, D, 1.0), -1.0, 1.0))
        t = np.sort(np.mod(np.stack([th - al, th + al], axis=1), 2 * math.pi), axis=1)
        for j in range(2):
            nn = np.column_stack([np.cos(t[:, j]), np.sin(t[:, j])])
            pts[:, 2 * k + j] = ca + ra[:, None] * nn
            dirs[:, 2 * k + j] = np.column_stack([-nn[:, 1], nn[:, 0]])
            ok[:, 2 * k + j] = good
    return pts, dirs, ok


def _support_tangents(ca: Floats, ma: Floats, cb: Floats, mb: Floats) -> tuple[Floats, Floats, Bools]:
    n = len(ca)
    nx, ny = np.cos(_GRID), np.sin(_GRID)
    d = ca - cb
    wa = np.einsum("kji,jg->kig", ma, np.vstack([nx, ny]))  # (n, 2, G): M^T n
    wb = np.einsum("kji,jg->kig", mb, np.vstack([nx, ny]))
    ha, hb = lengths(wa), lengths(wb)
    proj = d[:, :1] * nx + d[:, 1:] * ny
    # Bracket the four roots of each row on the grid: columns 2k + j, the j-th sign change of
    # k = 0 (outer: hA - hB) or k = 1 (inner: hA + hB) ...
    los, flos, goods, signs = [], [], [], []
    for sign in (-1.0, 1.0):
        f = proj + ha + sign * hb
        chg = np.sign(f) != np.sign(np.roll(f, -1, axis=1))
        order = np.argsort(~chg, axis=1, kind="stable")[:, :2]
        for j in range(2):
            idx = order[:, j]
            goods.append(chg[np.arange(n), idx])
            los.append(_GRID[idx])
            flos.append(f[np.arange(n), idx])
            signs.append(np.full(n, sign))
    # ... then bisect all four at once (rows: column-major blocks of n), where there is a root.
    good = np.concatenate(goods)
    g = np.flatnonzero(good)
    lo, flo, sg = np.concatenate(los)[g], np.concatenate(flos)[g], np.concatenate(signs)[g]
    hi = lo + _STEP
    d4, ma4, mb4 = copies(d, 4), copies(ma, 4), copies(mb, 4)
    # fval(t) = d·n + |Aᵀn| ± |Bᵀn| with n = (cos t, sin t), written out entry by entry (the
    # same products and sums as the matrix and norm calls): the five sums x·cos t + y·sin t —
    # the two entries of Aᵀn, of Bᵀn, and d·n — as one array operation each step
    k0 = np.stack([ma4[g, 0, 0], ma4[g, 0, 1], mb4[g, 0, 0], mb4[g, 0, 1], d4[g, 0]])
    k1 = np.stack([ma4[g, 1, 0], ma4[g, 1, 1], mb4[g, 1, 0], mb4[g, 1, 1], d4[g, 1]])

    def fval(t: Floats) -> Floats:
        w = k0 * np.cos(t) + k1 * np.sin(t)
        sq = w[:4] * w[:4]
        root = np.sqrt(sq[0::2] + sq[1::2])
        return cast(Floats, (w[4] + root[0]) + sg * root[1])

    # The sign at ``lo`` never changes (``lo`` moves only to a midpoint of the same sign). Once
    # no bracket moves, each is two neighbouring floats and the rounds left would not move them.
    # That cannot happen in the first BISECT_FREE rounds: a bracket is then still _STEP / 2^40 =
    # 7.9e-15 wide or more, about nine floats where they lie farthest apart (near 2π), so its
    # midpoint lies strictly inside and the bracket moves; the test is made from there on.
    side = np.sign(flo)
    for k in range(48):
        mid = 0.5 * (lo + hi)
        same = np.sign(fval(mid)) == side
        if k >= BISECT_FREE:
            before = lo.copy(), hi.copy()
        np.copyto(lo, mid, where=same)  # (lo and hi are this function's own arrays)
        np.copyto(hi, mid, where=~same)
        if k >= BISECT_FREE and np.array_equal(lo, before[0]) and np.array_equal(hi, before[1]):
            break
    t = np.full(4 * n, np.nan)  # (no root: no tangent, NaN)
    t[g] = 0.5 * (lo + hi)
    nn = np.column_stack([np.cos(t), np.sin(t)])
    _, touch = _support_point(copies(ca, 4), ma4, nn)
    pts = touch.reshape(4, n, 2).transpose(1, 0, 2)
    dirs = np.column_stack([-nn[:, 1], nn[:, 0]]).reshape(4, n, 2).transpose(1, 0, 2)
    ok = np.stack(goods, axis=1)
    return np.ascontiguousarray(pts), np.ascontiguousarray(dirs), ok


def outer_and_inner_tangents(ca: Floats, ma: Floats, cb: Floats, mb: Floats, ra: Floats, rb: Floats,
                             steps: int = 3, inner: bool = True) -> tuple[Floats, Floats, Floats]:
    """Close approximations of the four common tangents of two bases, cheaply (rows).

    Returns lines ``(p, d)`` of shape (n, 4, 2), each through a point of A (``p``) and a point
    of B (``p + d``) — columns 0–1 the outer tangents, 2–3 the inner ones (not made without
    ``inner``: (n, 2, 2)) — and the unit normals (n, 2, 2) of the two outer lines, pointing away
    from the bases. Started from the common
    tangents of the inscribed discs (radii ``ra``, ``rb``; exact for round bases: the closed
    form of :func:`_circle_tangents`) and, where a base is an oval, refined by ``steps`` rounds
    of: the points of the two bases farthest along the normal (for an inner tangent, B's along
    the opposite normal), and the normal of the line through them. Any line through a point of
    each base is a fair candidate sight line, so the approximation is never wrong, only less
    often clear.
    """
    n = len(ca)
    dd = cb - ca
    D = np.hypot(dd[:, 0], dd[:, 1])
    th = np.arctan2(dd[:, 1], dd[:, 0])
    q = np.stack([ra - rb, ra + rb][:2 if inner else 1])  # outer: both along n; inner: B along -n
    al = np.arccos(np.clip(q / np.where(D > 0, D, 1.0), -1.0, 1.0))
    t = np.stack([th + al, th - al], axis=1).reshape(-1)  # blocks of n rows: outer +, outer -, inner +, inner -
    k = 2 * len(q)
    nv = np.column_stack([np.cos(t), np.sin(t)])
    s = np.repeat(np.array([1.0, 1.0, -1.0, -1.0][:k]), n)[:, None]
    c4a, m4a, c4b, m4b = copies(ca, k), copies(ma, k), copies(cb, k), copies(mb, k)
    pa, e, line_normal = _tangent_round(c4a, m4a, c4b, m4b, s, nv)
    # two round bases: the discs' tangents are the bases' own; the rounds go on for ovals only
    rows = np.nonzero(copies(np.isnan(_circle_radius(ma)) | np.isnan(_circle_radius(mb)), k))[0]
    if steps and len(rows):
        args, nr = (c4a[rows], m4a[rows], c4b[rows], m4b[rows], s[rows]), line_normal[rows]
        for _ in range(steps):
            pr, er, nr = _tangent_round(*args, nr)
        pa[rows], e[rows], line_normal[rows] = pr, er, nr
    p = pa.reshape(k, n, 2).transpose(1, 0, 2)
    d = e.reshape(k, n, 2).transpose(1, 0, 2)
    normals = line_normal.reshape(k, n, 2).transpose(1, 0, 2)[:, :2]
    return np.ascontiguousarray(p), np.ascontiguousarray(d), np.ascontiguousarray(normals)


def _tangent_round(ca: Floats, ma: Floats, cb: Floats, mb: Floats, s: Floats, n: Floats) -> tuple[Floats, Floats, Floats]:
    """One round of :func:`outer_and_inner_tangents`: the points of A and B farthest along ``n``
    (B's along ``s·n``, s = ±1), the line through them (``p``, ``d``) and its normal on ``n``'s
    side (``n`` itself where the two points coincide)."""
    _, touch = _support_point(np.concatenate([ca, cb]), np.concatenate([ma, mb]), np.concatenate([n, s * n]))
    pa, pb = touch[:len(n)], touch[len(n):]
    d = pb - pa
    L = np.hypot(d[:, 0], d[:, 1])
    perp = np.column_stack([-d[:, 1], d[:, 0]]) / np.where(L > 0, L, 1.0)[:, None]
    perp *= np.where(np.einsum("ij,ij->i", perp, n) < 0, -1.0, 1.0)[:, None]
    return pa, d, np.where((L > 0)[:, None], perp, n)


def chords(p: Floats, d: Floats, c: Floats, m: Floats, minv: Optional[Floats] = None) -> tuple[Floats, Floats, Bools]:
    """Parameters ``t0 ≤ t1`` where lines ``p + t·d`` (unit ``d``) meet curves ``(c, M)``
    (``minv``: the inverses of ``M``, when known)."""
    if minv is None:
        minv = cast(Floats, np.linalg.inv(m))  # (float64 in, float64 out)
    pp, dd = _mv(minv, p - c), _mv(minv, d)
    a = np.einsum("ij,ij->i", dd, dd)
    b = np.einsum("ij,ij->i", pp, dd)
    cc = np.einsum("ij,ij->i", pp, pp) - 1
    disc = b * b - a * cc
    ok = (disc >= -1e-9 * a) & (a > 0)
    s = np.sqrt(np.maximum(disc, 0))
    a = np.where(a > 0, a, 1.0)
    return (-b - s) / a, (-b + s) / a, ok


def segment_ellipse_crossings(e0: Floats, e1: Floats, c: Floats, m: Floats) -> tuple[Floats, Ints]:
    """Points where segments ``e0→e1`` cross curves ``(c, M)`` (rows): (points, segment row)."""
    minv = cast(Floats, np.linalg.inv(m))  # (float64 in, float64 out)
    p, d = _mv(minv, e0 - c), _mv(minv, e1 - e0)
    a = np.einsum("ij,ij->i", d, d)
    b = np.einsum("ij,ij->i", p, d)
    cc = np.einsum("ij,ij->i", p, p) - 1
    disc = b * b - a * cc
    pts, rows = [], []
    for s in (-1, 1):
        t = (-b + s * np.sqrt(np.maximum(disc, 0))) / np.where(a > 0, a, 1)
        good = (disc >= 0) & (t >= 0) & (t <= 1) & (a > 0)
        pts.append(e0[good] + t[good, None] * (e1[good] - e0[good]))
        rows.append(np.nonzero(good)[0])
    return np.vstack(pts), np.concatenate(rows)


# --- grouping helpers ----------------------------------------------------------------------


def combos(gl: Ints, gr: Ints, same: bool = False) -> tuple[Ints, Ints]:
    """All index pairs ``(i, j)`` with ``gl[i] == gr[j]`` (both sorted); ``i < j`` if ``same``."""
    lo = np.searchsorted(gr, gl, "left")
    hi = np.searchsorted(gr, gl, "right")
    if same:
        lo = np.arange(len(gl)) + 1
    cnt = np.maximum(hi - lo, 0)
    i = np.repeat(np.arange(len(gl)), cnt)
    start = np.repeat(np.cumsum(cnt) - cnt, cnt)
    j = lo[i] + (np.arange(cnt.sum()) - start)
    return i, j


# --- the search ----------------------------------------------------------------------------


@dataclass
class _Cands:
    pair: list[Ints] = field(default_factory=list)
    p: list[Floats] = field(default_factory=list)
    d: list[Floats] = field(default_factory=list)

    def add(self, pair: Ints, p: Floats, d: Floats, ok: Optional[Bools] = None) -> None:
        p, d = p.reshape(-1, 2), d.reshape(-1, 2)
        if ok is not None:
            pair, p, d = pair[ok], p[ok], d[ok]
        self.pair.append(np.asarray(pair, dtype=np.int64))
        self.p.append(p.reshape(-1, 2))
        self.d.append(d.reshape(-1, 2))

    def arrays(self) -> tuple[Ints, Floats, Floats]:
        if not self.pair:
            return np.zeros(0, np.int64), np.zeros((0, 2)), np.zeros((0, 2))
        return np.concatenate(self.pair), np.concatenate(self.p), np.concatenate(self.d)


def boxes_meet(p: Floats, q: Floats, box: Floats) -> Bools:
    """Whether the box of each segment ``p → q`` (``(..., 2)``) meets the boxes ``box``
    (``(x0, y0, x1, y1)`` along the last axis), touching included, the two broadcast."""
    lo, hi = np.minimum(p, q), np.maximum(p, q)
    out: Bools = ((lo[..., 0] <= box[..., 2]) & (hi[..., 0] >= box[..., 0])
                  & (lo[..., 1] <= box[..., 3]) & (hi[..., 1] >= box[..., 1]))
    return out


class Footprints:
    """Polygon footprints prepared for testing many segments: each segment's box is compared
    with theirs in arrays, and only the segments some box meets are made into geometries and
    asked of the prepared footprint.

    ``order`` lists the footprints as an STRtree over them reports its hits — depth first, a
    fixed order of its leaves, for any query — which is the order the search has always tried
    the pieces of one segment in (so a witness is the one it always was). Not ``ordered``:
    in the order given, for a test that only asks whether a segment is blocked."""

    #: Entries of the ``[segment, footprint]`` box test made at once (a bound on its memory).
    CHUNK = 2_000_000

    def __init__(self, geoms: Geoms, ordered: bool = True):
        self.geoms = geoms
        shapely.prepare(geoms)
        if ordered and len(geoms):
            self.order: Ints = shapely.STRtree(geoms).query(shapely.box(*shapely.total_bounds(geoms)))
        else:
            self.order = np.arange(len(geoms))
        self.box: Floats = shapely.bounds(geoms[self.order]).reshape(-1, 4)

    def hits(self, s0: Floats, s1: Floats, allowed: Bools, pair: Ints, piece: Ints) -> tuple[Ints, Ints]:
        """``(row, k)`` for every segment ``s0[row] → s1[row]`` that meets ``geoms[k]`` where
        ``allowed[pair[row], piece[k]]``: rows in order, within a row in :attr:`order`."""
        step = max(1, self.CHUNK // max(len(self.order), 1))
        piece = piece[self.order][None, :]
        rows, cols = [], []
        for a in range(0, len(s0), step):
            c = slice(a, a + step)
            meet = allowed[pair[c, None], piece] & boxes_meet(s0[c, None], s1[c, None], self.box)
            r, k = np.nonzero(meet)
            rows.append(r + a)
            cols.append(k)
        row, k = (np.concatenate(rows), self.order[np.concatenate(cols)]) if rows else (np.zeros(0, np.intp),) * 2
        first = np.ones(len(row), bool)  # the segments some box meets (rows in order), made once each
        first[1:] = row[1:] != row[:-1]
        need, at = row[first], np.cumsum(first) - 1
        lines = cast(Geoms, shapely.linestrings(np.stack([s0[need], s1[need]], axis=1)))
        deg = lengths(s1[need] - s0[need]) < 1e-12
        if deg.any():  # S(L) shrunk to a point (the chords overlap)
            lines[deg] = shapely.points(s0[need][deg])
        ok = shapely.intersects(self.geoms[k], lines[at])
        return row[ok], k[ok]


class Blockers:
    """The footprints of a table prepared for sight tests (shrunk, indexed, vertices found).

    What only some searches need — the corners and edges (the exact search's features), the
    footprints grown by ``DELTA`` and the eroded convex parts (:func:`find_witnesses`' first
    passes) — is made when first asked for and kept with the table's other preparations."""

    def __init__(self, pieces: Sequence[Piece]):
        self.pieces = tuple(pieces)
        n = len(self.pieces)
        self.is_circle = np.array([p.circle is not None for p in self.pieces], bool)
        self.footprints = np.array([p.footprint for p in self.pieces], dtype=object)
        self.tree = shapely.STRtree(self.footprints) if n else None
        poly_idx = np.nonzero(~self.is_circle)[0]
        self.poly_idx = poly_idx
        shrunk: Union[Geoms, list[BaseGeometry]] = shapely.buffer(self.footprints[poly_idx], -SIGHT_TOL, join_style="mitre") if len(poly_idx) else []
        self.shrunk = np.array(shrunk, dtype=object)
        self.shrunk_outlines = Footprints(self.shrunk)
        self.circles = np.array([p.circle if p.circle else (np.nan,) * 3 for p in self.pieces], float).reshape(n, 3)

    @cached_property
    def grown_outlines(self) -> Footprints:
        """The polygon footprints grown by ``DELTA`` (round joins of at most 45°, corners on the
        arc: every point within 0.92 ``DELTA`` of a footprint is inside), listed like
        ``shrunk``: a segment clear of them is clear of the footprints by a margin."""
        grown = shapely.buffer(self.footprints[self.poly_idx], DELTA, quad_segs=2) if len(self.poly_idx) else self.shrunk
        return Footprints(np.asarray(grown, dtype=object), ordered=False)

    def box_meets(self, p: Floats, q: Floats, piece: Ints) -> Bools:
        """Whether the box of each segment ``p[k] → q[k]`` meets that of ``piece[k]``'s footprint
        (a segment that misses it misses the piece)."""
        return boxes_meet(p, q, self._boxes[piece])

    @cached_property
    def circle_boxes(self) -> tuple[Ints, Floats]:
        """The round pieces, and the box of each circle grown by 2 ``DELTA`` (a segment whose box
        misses it is farther than that from the circle)."""
        circ = np.nonzero(self.is_circle)[0]
        x, y, r = self.circles[circ].T
        far = r + 2 * DELTA
        return circ, np.column_stack([x - far, y - far, x + far, y + far])

    @cached_property
    def _boxes(self) -> Floats:
        return cast(Floats, shapely.bounds(self.footprints).reshape(-1, 4))

    @cached_property
    def cores(self) -> Cores:
        """What a piece must cover to settle a pair as blocked (:mod:`board.separation`): the
        convex parts of each polygon, and each circle, eroded by ``SIGHT_TOL + DELTA``."""
        return Cores(self.footprints, self.poly_idx, self.circles, SIGHT_TOL + DELTA)

    def meets(self, geoms: Geoms, piece: Ints) -> Bools:
        """Which convex polygons ``geoms[k]`` meet the footprint of ``piece[k]``: shapely's
        ``intersects``, but a round piece's polygon of many corners is first bounded by the
        circles inside and around it (a millionth of the radius apart), so it is rarely needed."""
        out = np.zeros(len(piece), bool)
        test = ~self.is_circle[piece]
        circ = np.flatnonzero(~test)
        if len(circ):
            j = piece[circ]
            d = shapely.distance(shapely.points(self.circles[j, :2]), geoms[circ])
            inner, outer = self._circle_bounds[j].T
            out[circ] = d < inner - SIGHT_TOL
            test[circ] = (d >= inner - SIGHT_TOL) & (d <= outer + SIGHT_TOL)
        out[test] = shapely.intersects(geoms[test], self.footprints[piece[test]])
        return out

    @cached_property
    def _circle_bounds(self) -> Floats:
        """``[piece, (inner, outer)]``: :attr:`Piece.circle_bounds` of each round piece (NaN for
        a polygon)."""
        return np.array([p.circle_bounds if p.circle else (np.nan, np.nan) for p in self.pieces], float).reshape(-1, 2)

    @property
    def vx(self) -> Floats:
        """The convex corners of the polygon pieces, sorted by piece (``vpiece``)."""
        return self._corners[0]

    @property
    def vpiece(self) -> Ints:
        return self._corners[1]

    @property
    def e0(self) -> Floats:
        """Every outline's edges, from ``e0`` to ``e1``, sorted by piece (``epiece``)."""
        return self._edges[0]

    @property
    def e1(self) -> Floats:
        return self._edges[1]

    @property
    def epiece(self) -> Ints:
        return self._edges[3]

    @cached_property
    def corner_rings(self) -> Floats:
        """Each polygon piece's convex corners ``(piece, corner, 2)``, padded by repeating its
        last (a round piece's row unused)."""
        vx = self.vx
        out: Floats = vx[padded(self.vpiece, len(self.pieces))] if len(vx) else np.zeros((len(self.pieces), 1, 2))
        return out

    @cached_property
    def _corners(self) -> tuple[Floats, Ints]:
        ring, nxt, prv, piece = _rings(self.footprints[self.poly_idx], self.poly_idx)
        u, w = ring - prv, nxt - ring
        convex = u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0] > 0
        return ring[convex], piece[convex]

    @cached_property
    def _edges(self) -> tuple[Floats, Floats, Floats, Ints]:
        return _rings(self.footprints, np.arange(len(self.footprints)))


def _rings(footprints: Geoms, pieces: Ints) -> tuple[Floats, Floats, Floats, Ints]:
    """The corners of the footprints' outer rings, each ring counter-clockwise from its first
    corner (a clockwise ring from its last): ``(corner, next corner, previous corner, piece)``."""
    ext = shapely.get_exterior_ring(footprints)
    if not len(ext):
        empty = np.zeros((0, 2))
        return empty, empty, empty, np.zeros(0, np.int64)
    xy, idx = shapely.get_coordinates(ext, return_index=True)  # each ring closed: its first corner again last
    end = np.r_[idx[1:] != idx[:-1], True]
    cw = ~shapely.is_ccw(ext)
    if cw.any():  # a clockwise ring [c0, c1 ... c(n-1), c0] becomes [c(n-1) ... c1, c0, c(n-1)]
        order = np.arange(len(xy))
        start = np.r_[True, end[:-1]]
        for s0, s1 in zip(np.nonzero(start & cw[idx])[0], np.nonzero(end & cw[idx])[0]):
            order[s0:s1 + 1] = np.r_[np.arange(s1 - 1, s0 - 1, -1), s1 - 1]
        xy = xy[order]
    keep = np.nonzero(~end)[0]  # the corners; the next of each is at the next place
    ring = idx[keep]
    first = np.r_[True, ring[1:] != ring[:-1]]
    prv = np.where(first, (np.nonzero(end)[0] - 1)[ring], keep - 1)
    return xy[keep], xy[keep + 1], xy[prv], np.asarray(pieces, np.int64)[ring]


def hulls(ca: Floats, ma: Floats, cb: Floats, mb: Floats) -> Geoms:
    """Convex hulls of circumscribed 32-gons of both bases (a superset of hull(A ∪ B))."""
    pa = ca[:, None, :] + np.einsum("nij,kj->nki", ma, _HULL_U)
    pb = cb[:, None, :] + np.einsum("nij,kj->nki", mb, _HULL_U)
    return cast(Geoms, shapely.convex_hull(shapely.multipoints(np.concatenate([pa, pb], axis=1))))


def outlines(c: Floats, m: Floats) -> Geoms:
    """Circumscribed 32-gon of each base (for coarse overlap tests)."""
    pts = c[:, None, :] + np.einsum("nij,kj->nki", m, _HULL_U)
    return cast(Geoms, shapely.polygons(np.concatenate([pts, pts[:, :1]], axis=1)))


def _segments(pair: Ints, p: Floats, d: Floats, ca: Floats, ma: Floats, cb: Floats, mb: Floats,
              far: Optional[Ints] = None, inv: Optional[tuple[Floats, Floats]] = None) -> tuple[Floats, Floats, Bools]:
    """S(L) for candidate lines: (P0 on A's side, P1 on B's side, ok).

    ``far`` (per pair: 0 none, 1 A, 2 B) extends the segment to the *far* chord end of that
    base instead of the inner one — with heights, reaching back over the lower model's base
    raises the sight line everywhere between the two bases. ``inv``: the inverses of ``ma`` and
    ``mb``, when known.
    """
    nrm = lengths(d)
    good = nrm > 0
    d = d / np.where(good, nrm, 1)[:, None]
    n = len(pair)  # the chords of A, then of B, in one call
    t0, t1, ok = chords(np.concatenate([p, p]), np.concatenate([d, d]), np.concatenate([ca[pair], cb[pair]]),
                        np.concatenate([ma[pair], mb[pair]]), None if inv is None else np.concatenate([inv[0][pair], inv[1][pair]]))
    a0, a1, oka, b0, b1, okb = t0[:n], t1[:n], ok[:n], t0[n:], t1[n:], ok[n:]
    before, after = a1 < b0, b1 < a0
    ta = np.where(before, a1, np.where(after, a0, np.maximum(a0, b0)))
    tb = np.where(before, b0, np.where(after, b1, np.maximum(a0, b0)))
    if far is not None:
        f = far[pair]
        ta = np.where((f == 1) & before, a0, np.where((f == 1) & after, a1, ta))
        tb = np.where((f == 2) & before, b1, np.where((f == 2) & after, b0, tb))
    return p + ta[:, None] * d, p + tb[:, None] * d, good & oka & okb


def _blocked(bl: Blockers, pair: Ints, s0: Floats, s1: Floats, block: Bools, heights: Optional[Heights],
             hits: Optional[list[tuple[Ints, Ints]]] = None, grown: bool = False) -> Bools:
    """Which segments meet the interior of a piece that blocks their pair.

    ``hits``, when given, receives ``(segment rows, pieces)``: every piece that blocks a
    segment over its whole length (with heights, a piece taller than both eyes). ``grown``
    (without heights or ``hits``): test against the footprints grown by ``DELTA`` instead, so a segment
    called clear stays ``DELTA`` (or, at a rounded corner, 0.99 ``DELTA``) from every piece."""
    assert not (grown and heights is not None), "the grown test is a 2D test"
    assert not (grown and hits is not None), "the grown footprints are not in the search's order"
    n = len(pair)
    out = np.zeros(n, bool)
    if n == 0 or not len(bl.pieces):
        return out
    if heights is not None:
        za, zb, tops = heights
    if len(bl.poly_idx):
        si, ti = (bl.grown_outlines if grown else bl.shrunk_outlines).hits(s0, s1, block, pair, bl.poly_idx)
        pi = bl.poly_idx[ti]
        if heights is not None and len(si):
            t0, t1, full = _low_part(za[pair[si]], zb[pair[si]], tops[pi])
            part = ~full & (t1 > t0)
            hit = full.copy()
            if part.any():
                q0 = s0[si[part]] + t0[part, None] * (s1[si[part]] - s0[si[part]])
                q1 = s0[si[part]] + t1[part, None] * (s1[si[part]] - s0[si[part]])
                hit[part] = shapely.intersects(bl.shrunk[ti[part]], shapely.linestrings(np.stack([q0, q1], axis=1)))
            if hits is not None:
                hits.append((si[full], pi[full]))
            si = si[hit]
        elif hits is not None:
            hits.append((si, pi))
        out[si] = True
    circ, box = bl.circle_boxes  # round pieces, by the distance to their exact circle
    if len(circ):
        near = boxes_meet(s0[:, None], s1[:, None], box)
        rows, k = np.nonzero(block[pair[:, None], circ[None, :]] & near)
        j = circ[k]
        if hits is None:  # (with hits, every row: a segment may be blocked by more than one piece)
            rows, j = rows[~out[rows]], j[~out[rows]]
        a, b = s0[rows], s1[rows]
        full = live = np.ones(len(rows), bool)
        if heights is not None:
            t0, t1, full = _low_part(za[pair[rows]], zb[pair[rows]], tops[j])
            a, b = a + t0[:, None] * (b - a), a + t1[:, None] * (b - a)
            live = t1 > t0
        r = bl.circles[j, 2]
        hit = live & (_point_segment_distance(bl.circles[j, :2], a, b) < (r + DELTA if grown else r - SIGHT_TOL))
        out[rows[hit]] = True
        if hits is not None:
            hits.append((rows[hit & full], j[hit & full]))
    return out


def _low_part(za: Floats, zb: Floats, top: Floats) -> tuple[Floats, Floats, Bools]:
    """Fraction ``[t0, t1]`` of a segment (A end at 0) where the sight line runs below ``top``."""
    full = (za < top) & (zb < top)
    none = (za >= top) & (zb >= top)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.clip((top - za) / (zb - za), 0, 1)
    t0 = np.where(full, 0.0, np.where(none, 0.0, np.where(za < top, 0.0, s)))
    t1 = np.where(full, 1.0, np.where(none, 0.0, np.where(za < top, s, 1.0)))
    return t0, t1, full


def _point_segment_distance(c: Floats, a: Floats, b: Floats) -> Floats:
    ab = b - a
    L2 = np.einsum("ij,ij->i", ab, ab)
    t = np.clip(np.einsum("ij,ij->i", c - a, ab) / np.where(L2 > 0, L2, 1), 0, 1)
    return lengths(a + t[:, None] * ab - c)


def find_witnesses(figs_a: Sequence[Figure], figs_b: Sequence[Figure], bl: Blockers, block: ArrayLike,
                   heights: Optional[Heights] = None, pairs: Optional[tuple[Ints, Ints]] = None) -> tuple[Bools, Floats]:
    """Witness search for many pairs at once, the easy pairs settled first.

    Pair ``k`` is ``figs_a[k]``, ``figs_b[k]``, or with ``pairs = (ia, ib)`` it is
    ``figs_a[ia[k]]``, ``figs_b[ib[k]]`` (a matrix names each model once). ``block[k, j]`` says
    piece ``j`` of ``bl`` may block pair ``k`` (the rule system's decision). ``heights`` is
    optional ``(za, zb, tops)``: eye heights per pair and piece tops. Returns ``(found (n,),
    witness (n, 2, 2))``, each witness running from A's base to B's base (NaN where none).

    The verdicts are those of the exact search (:func:`search_witnesses`); the pairs it would
    settle quickly are settled first, in arrays over all pairs at once, and only the rest are
    searched:

    1. the centre line: where its S(L) is clear it is the witness (the search's own first
       candidate, so the same witness);
    2. one piece across the band between the two bases: a piece that blocks the centre segment
       and holds a path that every sight line between the bases must cross
       (:mod:`board.separation`) settles the pair as blocked — the search would find no clear
       candidate, as every candidate is such a sight line;
    3. the outer near-tangent lines (:func:`outer_and_inner_tangents`), tested against the
       footprints *grown* by ``DELTA``: one that is clear is a sight line clear of every
       blocking footprint by a margin, so (§1 of docs/geometry.md) a clear candidate of the
       search exists too and its verdict is also "visible";
    4. the inner near-tangent lines, and lines past the ends of the pieces on the centre
       segment (:func:`_corner_lines`), tested as in 3;
    5. two pieces between them: a gate through the piece on the centre segment, whose windows
       other pieces close (:func:`_two_pieces`) — blocked, as in 2.

    Passes 3 and 4 are tried only for two bases apart (the discs around them disjoint) and
    without heights: a piece between the two eyes can leave clear lines the search does not
    prove it finds (docs/line-of-sight.md, "What is not proven"), so there only the search's
    own candidates are tried; 5 is left to the search with heights too. (A pair that 5 settles
    has no clear line, so 4 finds none for it: the order changes no witness, and 5, the dearer,
    sees fewer pairs.)
    """
    sr = _Search(figs_a, figs_b, bl, block, heights, pairs)
    if not sr.n:
        return sr.found, sr.wit
    pair, piece = sr.centre()
    todo = np.nonzero(~sr.done)[0]
    a, b = sr.a[todo], sr.b[todo]
    p, d, normal = outer_and_inner_tangents(a.c, a.m, b.c, b.m, a.inner, b.inner)
    row = np.full(sr.n, -1)
    row[todo] = np.arange(len(todo))
    t = row[pair]
    pair, piece, t = pair[t >= 0], piece[t >= 0], t[t >= 0]  # (with heights a far segment may be the witness)
    blocked = separated(bl.cores, sr.a[pair], sr.b[pair], normal[t, 0], normal[t, 1], piece)
    sr.done[pair[blocked]] = True
    if heights is None:
        apart = np.hypot(*(b.c - a.c).T) > a.reach + b.reach
        c = _Cands()  # the outer lines first (most often clear) ...
        c.add(np.repeat(todo, 2), p[:, :2], d[:, :2], np.repeat(apart, 2))
        sr.run(c, grown=True)
        if not sr.done.all():
            still = ~sr.done[pair] & apart[t]
            c = _corner_lines(sr, pair[still], piece[still], normal[t[still]])  # ... the inner with the lines past the ends
            c.add(np.repeat(todo, 2), p[:, 2:], d[:, 2:], np.repeat(apart, 2))
            sr.run(c, grown=True)
        still = ~sr.done[pair]
        sr.done[_two_pieces(sr, pair[still], piece[still], normal[t[still]])] = True
    sr.exact(centre=False)
    return sr.found, sr.wit


def _corner_lines(sr: "_Search", pair: Ints, piece: Ints, normal: Floats) -> _Cands:
    """Lines past the ends of a piece that blocks the centre segment (``pair``, ``piece``, the
    outer normals ``normal``): through a point just beyond its corner farthest along each outer
    normal (3 ``DELTA`` out: clear of the grown footprint), tangent to A and to B — the
    search's corner–tangent lines, nudged off the corner — and, for a round piece, the common
    tangents of its circle (grown by 3 ``DELTA``) with A and with B."""
    c = _Cands()
    bl = sr.bl
    circ = np.nonzero(bl.is_circle[piece])[0]  # a round piece: its common tangents with A and with B
    if len(circ):
        o = bl.circles[piece[circ]]
        grown = o[:, 2] + 3 * DELTA
        disc = Base(o[:, :2], np.eye(2)[None] * grown[:, None, None], np.eye(2)[None] / grown[:, None, None], grown, grown)
        base = Base.join(sr.a[pair[circ]], sr.b[pair[circ]])  # with A, then with B: one call, row by row
        disc = Base.join(disc, disc)
        p, d, _ = outer_and_inner_tangents(disc.c, disc.m, base.c, base.m, disc.inner, base.inner, steps=2)
        c.add(copies(np.repeat(pair[circ], 4), 2), p, d)
    x = [np.where(bl.is_circle[piece][:, None], bl.circles[piece, :2] + bl.circles[piece, 2:] * m,
                  _farthest_corner(bl.corner_rings[piece], m)) + 3 * DELTA * m for m in (normal[:, 0], normal[:, 1])]
    a, b = sr.a[pair], sr.b[pair]  # the tangents from each point to A, then to B, for each normal
    xs = np.concatenate([x[0], x[0], x[1], x[1]])
    t1, t2, ok = tangents_from(xs, np.concatenate([a.c, b.c, a.c, b.c]), np.concatenate([a.m, b.m, a.m, b.m]),
                               np.concatenate([a.inv, b.inv, a.inv, b.inv]))
    # for each of the four blocks of points, the lines to the first tangent points, then the second
    n = len(pair)
    ends = np.stack([t1, t2]).reshape(2, 4, n, 2).transpose(1, 0, 2, 3)
    start = xs.reshape(4, 1, n, 2)
    c.add(copies(pair, 8), np.broadcast_to(start, ends.shape), ends - start, np.repeat(ok.reshape(4, 1, n), 2, axis=1).reshape(-1))
    return c


def _farthest_corner(corners: Floats, m: Floats) -> Floats:
    """The corner of each ring (rows, padded) farthest along ``m``."""
    k = np.argmax(np.einsum("rvk,rk->rv", corners, m), axis=1)
    return cast(Floats, corners[np.arange(len(k)), k])


def _two_pieces(sr: "_Search", pair: Ints, piece: Ints, normal: Floats) -> Ints:
    """The pairs two pieces block between them (:func:`board.separation.windows`): a piece that
    blocks the centre segment (``pair``, ``piece``, the outer normals ``normal``) leaves
    windows on a gate every sight line crosses, and each window is closed by a piece that
    blocks every segment from it to B, or from A to it (the lemma again, the window a base) —
    every such segment in line with the other base, the only ones a sight line contains
    (:mod:`board.separation`, "Through a window")."""
    if not len(pair):
        return np.zeros(0, np.intp)
    row, gate, win = windows(sr.bl.cores, sr.a[pair], sr.b[pair], normal[:, 0], normal[:, 1], piece)
    if not len(row):
        return np.zeros(0, np.intp)
    wp = pair[row]  # each window's pair; candidates: every piece blocking it, either way round ...
    w, j = np.nonzero(sr.block[wp])
    # ... that meets the segment between the centres (a piece that holds a path every segment
    # from the window to B crosses meets that one), by the boxes: window to B, then A to window
    to_b, from_a = sr.bl.box_meets(win.c[w], sr.b.c[wp[w]], j), sr.bl.box_meets(sr.a.c[wp[w]], win.c[w], j)
    wb, jb, wa, ja = w[to_b], j[to_b], w[from_a], j[from_a]
    # each window e with the base s it is to be closed from, and the base q on the sight line's
    # other side: only the part of s in line with q through e matters (separation, "Through a window")
    wk, jk = np.concatenate([wb, wa]), np.concatenate([jb, ja])
    e, s, q = win[wk], Base.join(sr.b[wp[wb]], sr.a[wp[wa]]), Base.join(sr.a[wp[wb]], sr.b[wp[wa]])
    outer, cone, valid = _window_lines(e, s, q)
    # the directions tried on each side: the outer tangent of e and s, and the cone's line on
    # that side where it holds; every combination of one on each side
    plus = np.einsum("rkj,rj->rk", cone, outer[:, 0]) > np.einsum("rkj,rj->rk", cone, outer[:, 1])
    every = np.ones(len(wk), bool)
    on_p = np.stack([every, valid[:, 0] & plus[:, 0], valid[:, 1] & plus[:, 1]])  # [direction, row]
    on_m = np.stack([every, valid[:, 0] & ~plus[:, 0], valid[:, 1] & ~plus[:, 1]])
    i, k, r = np.nonzero(on_p[:, None] & on_m[None, :])
    up, dn = np.stack([outer[:, 0], cone[:, 0], cone[:, 1]])[i, r], np.stack([outer[:, 1], cone[:, 0], cone[:, 1]])[k, r]
    e, s, q = e[r], s[r], q[r]
    reach = (through(e, s, q, up), through(e, s, q, dn))
    closed = np.zeros(len(row), bool)
    closed[wk[r][separated(sr.bl.cores, e, s, up, dn, jk[r], reach)]] = True
    gates, first = np.unique(gate, return_index=True)  # (the windows of a gate share its row)
    shut = np.bincount(gate, weights=~closed)[gates] == 0
    settled: Ints = pair[row[first[shut]]]
    return settled


def _window_lines(e: Base, s: Base, q: Base) -> tuple[Floats, Floats, Bools]:
    """For windows ``e`` (rows), with the base ``s`` each is to be closed from and the base
    ``q`` on the sight lines' other side: the outer normals ``(rows, 2, 2)`` of the two outer
    tangents of ``e`` and ``s``; those of the two lines that bound the lines from ``q`` through
    ``e`` — each with ``q`` on its outer side, the window and the lines past it on the other;
    and whether each of these holds (``(rows, 2)``): ``e`` behind ``q`` along it by ``DELTA``
    (:func:`board.separation.through`).

    A window is a thin ellipse about a segment, so each line is a tangent from an end of its
    long axis: to ``s``, the one that has the other end on its inner side (the outer tangent,
    to about the window's width — any direction is sound, :func:`board.separation.separated`
    checks what it needs); to ``q`` scaled by a little more than the window's width (so that the
    window lies behind it), the one from the end for which the window holds."""
    n = len(e.c)
    axis = e.m[:, :, 0]  # (the long half-axis)
    ends = [e.c + axis, e.c - axis]
    grow = 1 + 4 * WINDOW_WIDTH / q.inner
    to = Base.join(s, s, q, q)  # from each end to s, then from each end to q: blocks [h] of n rows
    pts = np.concatenate(ends + ends)
    t1, t2, ok = tangents_from(pts, to.c, np.concatenate([s.m, s.m, q.m * grow[:, None, None], q.m * grow[:, None, None]]))
    d = np.stack([t1, t2]) - pts  # [k, row]: the tangent from each point on side k
    nv = np.stack([d[..., 1], -d[..., 0]], axis=-1) / np.maximum(np.hypot(d[..., 0], d[..., 1]), 1e-300)[..., None]
    nv *= np.where(np.einsum("kij,ij->ki", nv, to.c - pts) < 0, -1.0, 1.0)[..., None]  # towards the base
    nv, ok, pts = nv.reshape(2, 4, n, 2), ok.reshape(4, n), pts.reshape(4, n, 2)
    # the outer tangents, from the end that has the other end on its inner side
    out = -nv[:, :2]  # (away from s)
    holds = ok[:2] & (np.einsum("khij,hij->khi", out, pts[1::-1] - pts[:2]) <= 0)
    # the cone's lines, from the end for which the window lies behind q
    cone = nv[:, 2:]
    flat = cone.reshape(-1, 2)
    behind = support(copies(e.c, 4), copies(e.m, 4), flat) + support(copies(q.c, 4), copies(q.m, 4), -flat)
    valid = ok[2:] & (behind.reshape(2, 2, n) <= -DELTA)
    pick = [np.where(h[:, 0, :, None], x[:, 0], np.where(h[:, 1, :, None], x[:, 1], 0.0)) for h, x in ((holds, out), (valid, cone))]
    outer: Floats = pick[0].transpose(1, 0, 2)
    cone_normals: Floats = pick[1].transpose(1, 0, 2)
    held: Bools = np.any(valid, axis=1).T
    return outer, cone_normals, held


def search_witnesses(figs_a: Sequence[Figure], figs_b: Sequence[Figure], bl: Blockers, block: ArrayLike,
                     heights: Optional[Heights] = None, pairs: Optional[tuple[Ints, Ints]] = None) -> tuple[Bools, Floats]:
    """The exact witness search itself, on every pair (arguments and answer as
    :func:`find_witnesses`, which gives the same verdicts faster).

    Stage 1: the centre line and the four common tangents of A and B. Stage 2, for the pairs
    still open: the point features (convex corners of the blocking pieces in the pair's hull,
    crossings of their outlines with the base outlines) and the curve features (A, B, round
    pieces), and the tangents from each point to each curve and the common tangents of two
    curves. Stage 3: the lines through two point features. Stage 4 (heights): the families of
    :mod:`board.sightheights` for a piece between the two eye heights.
    """
    sr = _Search(figs_a, figs_b, bl, block, heights, pairs)
    if sr.n:
        sr.exact(centre=True)
    return sr.found, sr.wit


def _bases(figs: Sequence[Figure], rows: Ints) -> Base:
    """The bases of ``figs[rows]``, each figure's frame (and its inverse) worked out once."""
    c, m = frames(figs)
    inv = cast(Floats, np.linalg.inv(m)) if len(m) else m
    inner = np.array([f.base.radius if isinstance(f.base, RoundBase) else min(f.base.a, f.base.b) for f in figs], float)
    reach = np.array([f.base.reach for f in figs], float)
    return Base(c, m, inv, inner.reshape(-1), reach.reshape(-1))[rows]


class _Search:
    """One batched witness search: the two bases of every pair (``a``, ``b``; with their centres
    and shape matrices also as ``ca, ma, cb, mb``), the blockers and the rules' mask; which
    pairs are ``done`` (a witness found, or settled as blocked) and the witnesses found."""

    def __init__(self, figs_a: Sequence[Figure], figs_b: Sequence[Figure], bl: Blockers, block: ArrayLike,
                 heights: Optional[Heights], pairs: Optional[tuple[Ints, Ints]]):
        if pairs is None:
            pairs = (np.arange(len(figs_a)), np.arange(len(figs_b)))
        ia, ib = (np.asarray(x, np.intp) for x in pairs)
        n = self.n = len(ia)
        self.bl, self.heights = bl, heights
        self.found = np.zeros(n, bool)
        self.done = np.zeros(n, bool)
        self.wit = np.full((n, 2, 2), np.nan)
        self.block = np.asarray(block, bool).reshape(n, len(bl.pieces))
        self.a, self.b = _bases(figs_a, ia), _bases(figs_b, ib)
        self.ca, self.ma, self.cb, self.mb = self.a.c, self.a.m, self.b.c, self.b.m
        self.inv = (self.a.inv, self.b.inv)
        # S(L) to the inner chord ends, and (heights) to the far end of the lower model's chord
        self.variants: list[Optional[Ints]] = [None]
        if heights is not None:
            za, zb = np.asarray(heights[0], float), np.asarray(heights[1], float)
            self.variants.append(np.where(za < zb, 1, np.where(zb < za, 2, 0)))

    def run(self, cands: _Cands, hits: Optional[list[tuple[Ints, Ints]]] = None, grown: bool = False) -> None:
        """Test the candidate lines of the pairs not done; the first clear one of a pair is its
        witness. ``hits`` and ``grown``: see :func:`_blocked`."""
        pair0, p0, d0 = cands.arrays()
        live = ~self.done[pair0]
        if not live.any():
            return
        pair0, p0, d0 = pair0[live], p0[live], d0[live]
        parts = []
        for far in self.variants:
            s0, s1, ok = _segments(pair0, p0, d0, self.ca, self.ma, self.cb, self.mb, far, self.inv)
            parts.append((pair0[ok], s0[ok], s1[ok]))
        pair, s0, s1 = parts[0] if len(parts) == 1 else (np.concatenate(x) for x in zip(*parts))
        rows: Optional[list[tuple[Ints, Ints]]] = [] if hits is not None else None
        clear = ~_blocked(self.bl, pair, s0, s1, self.block, self.heights, rows, grown)
        if hits is not None and rows:
            hits += [(pair[r], j) for r, j in rows]
        idx = np.nonzero(clear)[0]
        first_pair, first = np.unique(pair[idx], return_index=True)
        sel = idx[first]
        self.found[first_pair] = self.done[first_pair] = True
        self.wit[first_pair, 0] = s0[sel]
        self.wit[first_pair, 1] = s1[sel]

    def centre(self) -> tuple[Ints, Ints]:
        """The centre line of every pair; ``(pair, piece)`` for each piece that blocks a centre
        segment over its whole length."""
        c0 = _Cands()
        c0.add(np.arange(self.n), self.ca, self.cb - self.ca)
        hits: list[tuple[Ints, Ints]] = [(np.zeros(0, np.intp), np.zeros(0, np.intp))]
        self.run(c0, hits)
        return np.concatenate([h[0] for h in hits]), np.concatenate([h[1] for h in hits]).astype(np.intp)

    def exact(self, centre: bool) -> None:
        """Stages 1–4 (:func:`search_witnesses`) for the pairs not done; with ``centre`` the
        centre line is among stage 1's candidates (the others have had it)."""
        bl, block, heights = self.bl, self.block, self.heights
        ca, ma, cb, mb = self.ca, self.ma, self.cb, self.mb
        found, run, variants = self.found, self.run, self.variants
        if heights is not None:
            za, zb = np.asarray(heights[0], float), np.asarray(heights[1], float)
        todo = np.nonzero(~self.done)[0]
        if not len(todo):
            return
        if not len(bl.pieces):  # stage 1 alone
            c1 = _Cands()
            if centre:
                c1.add(todo, ca[todo], cb[todo] - ca[todo])
            tp, td, tok = common_tangents(ca[todo], ma[todo], cb[todo], mb[todo])
            c1.add(np.repeat(todo, 4), tp, td, tok.ravel())
            run(c1)
            return
        # The features of stage 2 are gathered for every pair to search (``rest``), before stage 1
        # runs, so that the common tangents of both stages are found in one batch; a pair that
        # stage 1 settles skips the later candidates (``run`` tests only pairs not done).
        rest = todo
        hl = hulls(ca[rest], ma[rest], cb[rest], mb[rest])
        hi, pj = cast(shapely.STRtree, bl.tree).query(hl)  # the boxes (there are pieces), then the rules' mask
        keep = block[rest[hi], pj]
        hi, pj = hi[keep], pj[keep]
        keep = bl.meets(hl[hi], pj)
        hi, pj = hi[keep], pj[keep]
        order = np.lexsort((pj, hi))
        hi, pj = hi[order], pj[order]
        rel_pair = rest[hi]
        # point features: convex vertices inside the hull
        vs = np.searchsorted(bl.vpiece, pj, "left")
        ve = np.searchsorted(bl.vpiece, pj, "right")
        cnt = ve - vs
        rr = np.repeat(np.arange(len(hi)), cnt)
        vi = vs[rr] + (np.arange(cnt.sum()) - np.repeat(np.cumsum(cnt) - cnt, cnt))
        inside = shapely.intersects_xy(hl[hi[rr]], bl.vx[vi, 0], bl.vx[vi, 1]) if len(vi) else np.zeros(0, bool)
        pt_pairs = [rel_pair[rr][inside]]
        pt_xys = [bl.vx[vi][inside]]
        # point features: crossings of blocker outlines with base outlines
        for c, m in ((ca, ma), (cb, mb)):
            ol = outlines(c[rel_pair], m[rel_pair])
            near = bl.meets(ol, pj)
            if near.any():
                nr = np.nonzero(near)[0]
                es = np.searchsorted(bl.epiece, pj[nr], "left")
                ee = np.searchsorted(bl.epiece, pj[nr], "right")
                ec = ee - es
                r2 = np.repeat(nr, ec)
                ei = np.repeat(es, ec) + (np.arange(ec.sum()) - np.repeat(np.cumsum(ec) - ec, ec))
                prs = rel_pair[r2]
                xy, rows = segment_ellipse_crossings(bl.e0[ei], bl.e1[ei], c[prs], m[prs])
                pt_pairs.append(prs[rows])
                pt_xys.append(xy)
        pt_pair = np.concatenate(pt_pairs)
        pt_xy = np.vstack(pt_xys)
        o = np.argsort(pt_pair, kind="stable")
        pt_pair, pt_xy = pt_pair[o], pt_xy[o]
        # curve features: A, B, circular blockers
        circ = bl.is_circle[pj]
        cv_pair = np.concatenate([rest, rest, rel_pair[circ]])
        cv_kind = np.concatenate([np.zeros(len(rest), int), np.ones(len(rest), int), np.full(int(circ.sum()), 2)])
        cc = bl.circles[pj[circ]]
        cv_c = np.vstack([ca[rest], cb[rest], cc[:, :2]])
        cv_m = np.concatenate([ma[rest], mb[rest], np.eye(2)[None] * cc[:, 2, None, None]])
        o = np.argsort(cv_pair, kind="stable")
        cv_pair, cv_kind, cv_c, cv_m = cv_pair[o], cv_kind[o], cv_c[o], cv_m[o]

        # the common tangents: of A and B (stage 1), and of the other pairs of curves (stage 2)
        i, j = combos(cv_pair, cv_pair, same=True)
        sel = ~((cv_kind[i] < 2) & (cv_kind[j] < 2))
        i, j = i[sel], j[sel]
        tp, td, tok = common_tangents(np.vstack([ca[todo], cv_c[i]]), np.concatenate([ma[todo], cv_m[i]]),
                                      np.vstack([cb[todo], cv_c[j]]), np.concatenate([mb[todo], cv_m[j]]))
        # Stage 1: centre line and the four common tangents of A and B.
        c1 = _Cands()
        if centre:
            c1.add(todo, ca[todo], cb[todo] - ca[todo])
        k = len(todo)
        c1.add(np.repeat(todo, 4), tp[:k], td[:k], tok[:k].ravel())
        run(c1)
        # Stage 2: point–curve tangents, and the common tangents of the other pairs of curves.
        c2 = _Cands()
        i2, j2 = combos(pt_pair, cv_pair)
        t1, t2, ok = tangents_from(pt_xy[i2], cv_c[j2], cv_m[j2])
        c2.add(pt_pair[i2], pt_xy[i2], t1 - pt_xy[i2], ok)
        c2.add(pt_pair[i2], pt_xy[i2], t2 - pt_xy[i2], ok)
        if len(i):
            c2.add(np.repeat(cv_pair[i], 4), tp[k:], td[k:], tok[k:].ravel())
        run(c2)
        # point–point, the quadratic part, last
        c3 = _Cands()
        i, j = combos(pt_pair, pt_pair, same=True)
        c3.add(pt_pair[i], pt_xy[i], pt_xy[j] - pt_xy[i])
        run(c3)
        if heights is not None and not self.done.all():
            # Stage 4: a piece between the two eye heights (board/sightheights.py).
            cond = _partial_conditions(bl, rel_pair, pj, found, heights)
            if len(cond[0]):
                c4 = _Cands()
                geom: SightGeometry = (lambda pr, p, d: _segments(pr, p, d, ca, ma, cb, mb, variants[1], self.inv),
                                       za < zb, ca, ma, cb, mb, tangents_from, combos)
                partial_candidates(pt_pair, pt_xy, cv_pair, cv_c, cv_m, cond, geom, c4.add)
                run(c4)


def _partial_conditions(bl: Blockers, rel_pair: Ints, pj: Ints, found: Bools, heights: Heights) -> Conditions:
    """``(pair, s, kind, a, b, piece)`` for each edge (kind 0, ``a → b``) or circle (kind 1,
    centre ``a``, radius ``b[:, 0]``) of a piece whose top lies strictly between the pair's eyes;
    ``s`` is where the sight line reaches the top, as a fraction from the low model."""
    za, zb, tops = (np.asarray(h, float) for h in heights)
    zlo, zhi = np.minimum(za, zb)[rel_pair], np.maximum(za, zb)[rel_pair]
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (tops[pj] - zlo) / (zhi - zlo)
    part = (zhi > zlo) & (s > 0) & (s < 1) & ~found[rel_pair]
    circ = part & bl.is_circle[pj]
    poly = np.nonzero(part & ~bl.is_circle[pj])[0]
    es = np.searchsorted(bl.epiece, pj[poly], "left")
    ec = np.searchsorted(bl.epiece, pj[poly], "right") - es
    r = np.repeat(poly, ec)
    ei = np.repeat(es, ec) + (np.arange(ec.sum()) - np.repeat(np.cumsum(ec) - ec, ec))
    cc = bl.circles[pj[circ]]
    piece = np.concatenate([pj[r], pj[circ]])
    pair = np.concatenate([rel_pair[r], rel_pair[circ]])
    ss = np.concatenate([s[r], s[circ]])
    kind = np.concatenate([np.zeros(len(r), int), np.ones(len(cc), int)])
    a = np.vstack([bl.e0[ei], cc[:, :2]])
    b = np.vstack([bl.e1[ei], np.column_stack([cc[:, 2], np.zeros(len(cc))])])
    o = np.argsort(pair, kind="stable")
    return pair[o], ss[o], kind[o], a[o], b[o], piece[o]


def clearance(seg: Sequence[Sequence[float]], pieces: Sequence[Piece]) -> Optional[float]:
    """Distance from a witness segment to the nearest of ``pieces`` (None if there are none)."""
    if not pieces:
        return None
    line = shapely.LineString(seg)
    return float(min(_piece_distance(line, p) for p in pieces))


def _piece_distance(line: shapely.LineString, p: Piece) -> float:
    if p.circle is not None:
        x, y, r = p.circle
        return max(0.0, float(shapely.distance(line, shapely.Point(x, y))) - r)
    return float(shapely.distance(line, p.footprint))
