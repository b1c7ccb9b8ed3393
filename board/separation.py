"""Pieces across the band between two bases: a pair settled as blocked in arrays.

Most blocked pairs of a visibility matrix are blocked by a single piece standing across the
band between the two bases (a wall, a block, a rock, an L-shaped ruin), most others by two.
:func:`separated` recognises the first without building any candidate sight line, and with
:func:`windows` the second, so the exact witness search of :mod:`board.sight` runs only on the
pairs they cannot settle. The tests are *sufficient*, never necessary: a pair they do not settle
is searched as before, so they can only save time, never change a verdict.

**The lemma.** Let A and B be disjoint compact convex sets (two bases), H the convex hull of
their union and h_X(m) = max over X of m·x the support function. Let x⁺, x⁻ and y be points and
m⁺, m⁻ unit vectors such that

1. x⁺ is beyond H in direction m⁺ — m⁺·x⁺ ≥ max(h_A(m⁺), h_B(m⁺)) — and x⁻ beyond H in
   direction m⁻; and m⁺·(x⁺ − x⁻) > 0, m⁻·(x⁻ − x⁺) > 0;
2. A and B lie strictly on opposite sides of the line ℓ through x⁺ and x⁻;
3. the triangle Δ = (x⁺, y, x⁻) misses A and B (y = x⁺ allowed: Δ is then the segment).

Then every segment from a point of A to a point of B meets the path [x⁺, y] ∪ [y, x⁻].

*Proof.* Let s run from a ∈ A to b ∈ B. By (2) it crosses ℓ, at a point z of H (H is convex).
A point of ℓ beyond x⁺, x⁺ + t(x⁺ − x⁻) with t > 0, has m⁺·p > m⁺·x⁺ ≥ h_H(m⁺) by (1), so it
is not in H; the same beyond x⁻: so z lies on [x⁺, x⁻]. If y lies on ℓ, [x⁺, y] ∪ [y, x⁻]
covers [x⁺, x⁻] and holds z. Otherwise Δ is a true triangle with [x⁺, x⁻] as one side; say y is
on B's side of ℓ (the other case is the same with s run from b). If z is x⁺ or x⁻ it is on the
path. Else s enters Δ through z, coming from A's side, and ends at b, which is not in Δ (3):
it leaves Δ convex through its boundary, not through the side on ℓ again (s crosses ℓ once),
so through [x⁺, y] or [y, x⁻]. ∎

**Use.** If a blocking piece contains such a path, every sight line between the two bases
crosses that piece and the pair is blocked. The paths tried, for the pieces that block the
pair's centre segment (a piece that blocks every sight line blocks that one):

* a convex part K of the footprint (a polygon is cut into convex parts once per table,
  :func:`convex_parts`, two ways; a round piece is its exact circle): x⁺ and x⁻ the points of K
  farthest along m⁺ and m⁻, y = x⁺ — the segment [x⁺, x⁻] lies in K;
* two overlapping convex parts K, K′ of one footprint (an L-shaped ruin's two arms): x⁺ in K,
  x⁻ in K′ as above, y a point of K ∩ K′ — [x⁺, y] lies in K, [y, x⁻] in K′.

m⁺ and m⁻ are the outward normals of (approximations of) the two outer common tangents of the
bases: the lemma holds for any unit vectors, and with those (1) asks no more than that the piece
reaches past both tangents. Every support function is exact (a base is c + M·(unit disc):
h(m) = m·c + |Mᵀm|), and (3) is tested in each base's own frame, where it is a disc.

**Two pieces** (:func:`windows`). Take a chord [x⁺, x⁻] of one piece whose line ℓ has A and
B strictly on either side, and extend it along ℓ past H on both sides, to points meeting (1):
the *gate*. As in the proof, every sight line s crosses the gate, at a point z. If z is on the
chord, s meets the piece. Otherwise z lies on a *window* W, the part of the gate past x⁺ or past
x⁻, and s contains the segment from z to its end in B, and the one from its end in A to z. W is
a segment, held by a thin ellipse — a compact convex set, as the lemma asks — so if another
piece holds a path of the lemma for W and B, or for A and W, that segment, and s with it, meets
that piece. When every window of a gate is closed so, the pair is blocked: two walls staggered
across the band, a rock beside a block.

**Through a window.** A sight line s from a ∈ A to b ∈ B through a point z of a window W (held
by its thin ellipse E) goes on past z in line with a: b = z + t(z − a) for some t ≥ 0. So b, and
the whole segment from z to b, lies in the cone C = {e + t(e − a′) : e ∈ E, a′ ∈ A, t ≥ 0} — a
convex set: λ((1 + t₁)e₁ − t₁a₁) + (1 − λ)((1 + t₂)e₂ − t₂a₂) is (1 + t)e − ta with
t = λt₁ + (1 − λ)t₂, e the mix of e₁ and e₂ in the weights λ(1 + t₁) and (1 − λ)(1 + t₂), a that
of a₁ and a₂ in the weights λt₁ and (1 − λ)t₂ — and that segment runs from E to B′, the closure
of the part of B inside C, a compact convex set. The lemma for E and B′ (in place of A and B)
settles it; its conditions may use bounds of B′'s support function, since a piece that reaches
past a bound reaches past the support, and B in place of B′ in (2) and (3): B′ ⊂ B. The cone's
support function is h_C(m) = sup over t ≥ 0 of (1 + t)h_E(m) + t·h_A(−m)
= h_E(m) + t(h_E(m) + h_A(−m)): h_E(m) where E lies behind A along m (h_E(m) + h_A(−m) ≤ 0),
unbounded elsewhere. So along such an m the hull of E and B′ reaches no further than E itself
(:func:`through`), and a piece need only reach past the line that bounds the lines from A
through the window, not past all of B: where that line cuts B, the steep segments from the
window to B's far side, which no sight line from A contains, no longer keep the window open.
The same with A and B swapped, for the segment from a to z. The directions m tried are the
outer normals of the lines that bound the cone (:func:`board.sight._window_lines`), each
checked: E must lie behind A along it by ``DELTA`` (and the conditions then hold for A grown
by ``DELTA / 2``, as below).

**Floating point.** Every part K is eroded by ``SIGHT_TOL + DELTA`` (so it lies ``DELTA``
inside the tolerance-shrunk footprint the search tests candidates with) and every condition is
asked with a margin of ``DELTA`` = 1e-7" — far above every rounding error involved
(coordinates of at most a few hundred inches, errors near 1e-13). The conditions then hold
exactly for the bases grown by ``DELTA / 2``, which contain the ends of every candidate segment
the search could try (chord ends lie within 1e-9" of their base, :func:`board.sight.chords`),
so each candidate crosses K, well inside the footprint, and the search would call it blocked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np
import shapely

from .arrays import Bools, Floats, Geoms, Ints, copies, lengths

#: The margin of every condition, and how far the parts are eroded beyond the sight tolerance.
DELTA = 1e-7


def convex_parts(ring: Floats) -> list[Floats]:
    """Convex polygons (counter-clockwise rings, not closed) whose union is the simple polygon
    ``ring`` (counter-clockwise, not closed).

    A reflex corner is cut away along its incoming edge, continued into the polygon to the first
    edge it meets: the corner is convex in one part and a straight angle in the other, and the
    cut's far end is convex in both, so each cut removes a reflex corner and adds none. (Plain
    Python: a footprint has a handful of corners.)
    """
    todo: list[list[tuple[float, float]]] = [_dedupe([(x, y) for x, y in np.asarray(ring, float).tolist()])]
    out: list[Floats] = []
    while todo:
        r = todo.pop()
        n = len(r)
        i = next((i for i in range(n) if _turn(r[i - 1], r[i], r[(i + 1) % n]) < 0), None)
        if i is None:
            out.append(np.array(r, float))
            continue
        (px, py), (dx, dy) = r[i], (r[i][0] - r[i - 1][0], r[i][1] - r[i - 1][1])
        best, k, x = math.inf, -1, r[i]
        for j in range(n):  # the first edge j (r[j] to r[j+1]) the cut from r[i] along d meets
            if j in (i, (i - 1) % n):
                continue
            (ax, ay), (bx, by) = r[j], r[(j + 1) % n]
            ex, ey, qx, qy = bx - ax, by - ay, ax - px, ay - py
            den = dx * ey - dy * ex
            if den == 0:
                continue
            t, s = (qx * ey - qy * ex) / den, (qx * dy - qy * dx) / den
            if 1e-12 < t < best and 0 <= s <= 1:
                best, k, x = t, j, (px + t * dx, py + t * dy)
        first = [r[(i + j) % n] for j in range((k - i) % n + 1)] + [x]  # r[i] ... r[k], then x
        second = [x] + [r[(k + 1 + j) % n] for j in range((i - k - 1) % n + 1)]  # x, r[k+1] ... r[i]
        todo += [_dedupe(first), _dedupe(second)]
    return out


def _turn(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
    """The turn at ``b`` from ``a`` to ``c``: positive left, negative right (reflex, for a
    counter-clockwise ring), 0 straight up to a relative 1e-12."""
    ux, uy, wx, wy = b[0] - a[0], b[1] - a[1], c[0] - b[0], c[1] - b[1]
    cross = ux * wy - uy * wx
    return 0.0 if abs(cross) <= 1e-12 * math.hypot(ux, uy) * math.hypot(wx, wy) else cross


def _dedupe(r: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The ring without repeated consecutive corners."""
    keep = [p for k, p in enumerate(r) if math.hypot(p[0] - r[k - 1][0], p[1] - r[k - 1][1]) > 1e-12]
    return keep or r[:1]


def _both_ways(ring: Floats) -> tuple[list[Floats], list[Floats]]:
    """:func:`convex_parts` of a polygon with a reflex corner, cutting each reflex corner along
    its incoming edge, and along its outgoing edge (the same cuts on the mirror image): an L's
    two arms each come out whole once, one from each way, and overlap."""
    flip = np.array([-1.0, 1.0])
    return convex_parts(ring), [(p * flip)[::-1] for p in convex_parts((ring * flip)[::-1])]


def _flat(rings: Sequence[Floats]) -> tuple[Floats, Ints, Ints, Ints]:
    """The corners of ``rings`` in one array: ``(xy, ring of each, index of the previous corner,
    index of the next)``."""
    cnt = np.array([len(r) for r in rings], np.intp)
    start = np.cumsum(cnt) - cnt
    ring = np.repeat(np.arange(len(rings)), cnt)
    k = np.arange(cnt.sum()) - start[ring]
    xy = np.vstack(rings) if len(rings) else np.zeros((0, 2))
    return xy, ring, start[ring] + (k - 1) % cnt[ring], start[ring] + (k + 1) % cnt[ring]


def padded(ring: Ints, count: int) -> Ints:
    """Indices that lay out per-corner values (sorted by ``ring``, of ``count`` rings) as
    ``(rings, most corners)``, each ring padded by repeating its last corner (which changes no
    maximum, minimum or half-plane test); a ring without corners gets the last corner of all."""
    cnt = np.bincount(ring, minlength=count)
    start = np.cumsum(cnt) - cnt
    k = np.minimum(np.arange(max(int(cnt.max(initial=0)), 1))[None, :], np.maximum(cnt - 1, 0)[:, None])
    out: Ints = np.minimum(start[:, None] + k, max(len(ring) - 1, 0))
    return out


class Cores:
    """What a piece must cover to settle a pair, prepared once per table: the convex parts of
    each polygon footprint eroded by ``erode`` (``piece[q]``; ``corners[q, v]`` and the half-planes
    ``normal[q, e]·x ≤ offset[q, e]``, padded; sorted by piece); the pairs of parts of one piece,
    cut the two ways (:func:`_both_ways`), that overlap, with a point common to both
    (``link_piece``, ``link``, ``link_y``); and each round piece's circle eroded (``circles``,
    NaN rows for polygons).

    ``footprints[j]`` for ``j`` in ``polygons`` are the polygon pieces (those with holes are left
    out). A convex part is eroded exactly by moving each edge in: corner k moves by
    ``-erode·(n₋ + n₊)/(1 + n₋·n₊)`` (n₋, n₊ the outward unit normals of its two edges); a part
    whose eroded edges would not keep their directions (an edge shorter than the erosion) is
    dropped."""

    def __init__(self, footprints: Geoms, polygons: Ints, circles: Floats, erode: float):
        fps = footprints[polygons]
        solid = shapely.get_num_interior_rings(fps) == 0
        fps, polygons = fps[solid], polygons[solid]
        ext = shapely.get_exterior_ring(fps)
        xy, idx = shapely.get_coordinates(ext, return_index=True)
        rings = [r[:-1] if ccw else r[:-1][::-1] for r, ccw in zip(np.split(xy, np.cumsum(np.bincount(idx, minlength=len(fps)))[:-1]),
                                                                  shapely.is_ccw(ext))]
        # convex rings are their own part; the others are cut two ways
        flat, ring, prv, nxt = _flat(rings)
        u, w = flat - flat[prv], flat[nxt] - flat
        convex = np.ones(len(rings), bool)
        np.logical_and.at(convex, ring, u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0] > 0)
        raw: list[Floats] = []
        piece: list[int] = []
        cross: list[tuple[int, int]] = []  # (part cut one way, part cut the other) of one piece
        for r, j, c in zip(rings, polygons, convex):
            one, other = ([r], []) if c else _both_ways(r)
            cross += [(len(raw) + a, len(raw) + len(one) + b) for a in range(len(one)) for b in range(len(other))]
            raw += one + other
            piece += [int(j)] * (len(one) + len(other))
        # erode every part: each edge moved in by `erode`
        flat, ring, prv, nxt = _flat(raw)
        e = flat[nxt] - flat
        n = np.column_stack([e[:, 1], -e[:, 0]]) / np.hypot(e[:, 0], e[:, 1])[:, None]  # edge k: corner k to k+1
        n_in = n[prv]  # the edge arriving at each corner
        moved = flat - erode * (n_in + n) / (1 + np.einsum("ij,ij->i", n_in, n))[:, None]
        keep = np.ones(len(raw), bool)
        np.logical_and.at(keep, ring, np.einsum("ij,ij->i", moved[nxt] - moved, e) > 0)
        offset = np.einsum("ij,ij->i", n, moved)
        q = np.nonzero(keep)[0]
        at = np.full(len(raw), -1)
        at[q] = np.arange(len(q))
        self.piece: Ints = np.array(piece, np.intp)[q]
        at_corner = padded(ring, len(raw))[q]
        self.corners: Floats = moved[at_corner]
        self.normal: Floats = n[at_corner]
        self.offset: Floats = offset[at_corner]
        # overlapping parts: a point of both, the mean of the corners of each inside the other
        ab = at[np.array(cross, np.intp).reshape(-1, 2)]
        ab = ab[(ab >= 0).all(axis=1)]
        ys, ok = [], np.zeros(len(ab), bool)
        if len(ab):
            pts = np.concatenate([self.corners[ab[:, 0]], self.corners[ab[:, 1]]], axis=1)  # (pairs, 2V, 2)
            side = [np.einsum("pek,pvk->pve", self.normal[ab[:, i]], pts) <= self.offset[ab[:, i], None, :] for i in (0, 1)]
            both = side[0].all(axis=2) & side[1].all(axis=2)
            ok = both.any(axis=1)
            ys = [(pts * both[:, :, None]).sum(axis=1) / np.maximum(both.sum(axis=1), 1)[:, None]]
        ab, y = ab[ok], (ys[0][ok] if ys else np.zeros((0, 2)))
        link, link_y = np.vstack([ab, ab[:, ::-1]]).reshape(-1, 2), np.vstack([y, y])
        order = np.argsort(self.piece[link[:, 0]], kind="stable")
        self.link_piece: Ints = self.piece[link[order, 0]]
        self.link: Ints = link[order].astype(np.intp)
        self.link_y: Floats = link_y[order]
        self.circles = circles - [0.0, 0.0, erode]


def _rows(keys: Ints, sorted_keys: Ints) -> tuple[Ints, Ints]:
    """``(row, k)``: every index ``k`` of ``sorted_keys`` equal to ``keys[row]``."""
    lo = np.searchsorted(sorted_keys, keys, "left")
    cnt = np.searchsorted(sorted_keys, keys, "right") - lo
    row = np.repeat(np.arange(len(keys)), cnt)
    return row, np.repeat(lo, cnt) + (np.arange(cnt.sum()) - np.repeat(np.cumsum(cnt) - cnt, cnt))


def support(c: Floats, m: Floats, w: Floats) -> Floats:
    """Support values ``h(w) = w·c + |Mᵀw|`` of the bases ``c + M·(unit disc)`` (rows)."""
    return np.asarray(np.einsum("ij,ij->i", w, c) + lengths(np.einsum("nji,nj->ni", m, w)), float)


def _hull_reach(a: Base, b: Base, mp: Floats, mm: Floats) -> tuple[Floats, Floats]:
    """The support of the hull of ``a`` and ``b`` (rows) along ``mp`` and along ``mm``."""
    h = support(np.concatenate([a.c, b.c, a.c, b.c]), np.concatenate([a.m, b.m, a.m, b.m]), np.concatenate([mp, mp, mm, mm]))
    hp, hm = np.maximum(*np.split(h[:2 * len(mp)], 2)), np.maximum(*np.split(h[2 * len(mp):], 2))
    return hp, hm


def _farthest(corners: Floats, w: Floats) -> Floats:
    """The corner of each polygon (rows, padded) farthest along ``w``."""
    k = np.argmax(np.einsum("rvk,rk->rv", corners, w), axis=1)
    return np.asarray(corners[np.arange(len(k)), k], float)


def _triangle_misses(p: Floats, q: Floats, r: Floats, a: Base, b: Base, k: Ints) -> Bools:
    """Whether triangles ``(p, q, r)`` (rows; degenerate ones allowed) miss both bases ``a[k]``
    and ``b[k]`` grown by ``DELTA`` (in a base's frame, where it is the unit disc, a disc of
    radius 1 + ``DELTA``/inner): no edge comes that near the base's centre, nor holds it inside.
    The three edges and the two bases in one array (``(3, 2n, 2)``)."""
    c, minv = np.concatenate([a.c[k], b.c[k]]), np.concatenate([a.inv[k], b.inv[k]])
    grow = DELTA / np.concatenate([a.inner[k], b.inner[k]])
    pa, qa, ra = (np.einsum("nij,nj->ni", minv, np.concatenate([x, x]) - c) for x in (p, q, r))
    u, v = np.stack([pa, qa, ra]), np.stack([qa, ra, pa])  # edge i runs from u[i] to v[i]
    e = v - u
    L2 = np.einsum("kij,kij->ki", e, e)
    t = np.clip(-np.einsum("kij,kij->ki", u, e) / np.where(L2 > 0, L2, 1), 0, 1)
    w = u + t[..., None] * e  # each edge's point nearest the centre
    far = (np.hypot(w[..., 0], w[..., 1]) > 1 + grow).all(axis=0)
    # the centre inside the triangle: on the same side of all three edges
    s = u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]
    inside = (s >= 0).all(axis=0) | (s <= 0).all(axis=0)
    misses: Bools = far & ~inside
    return misses[:len(p)] & misses[len(p):]


def _paths(cores: Cores, mp: Floats, mm: Floats, piece: Ints, links: bool = True) -> tuple[Ints, Floats, Floats, Floats]:
    """The paths of the lemma each piece holds: ``(row, x⁺, x⁻, y)`` — for a round piece and
    each convex part, its points farthest along ``mp[row]`` and ``mm[row]`` (y = x⁺: the chord
    between them lies in the part); for two overlapping parts (not without ``links``), one
    point of each and y in both."""
    rows, xp, xm, ys = [], [], [], []
    disc = cores.circles[piece]  # a disc: its farthest points along m+ and m-
    k = np.nonzero(~np.isnan(disc[:, 2]))[0]
    o, r = disc[k, :2], disc[k, 2:]
    rows.append(k)
    xp.append(o + r * mp[k])
    xm.append(o + r * mm[k])
    ys.append(xp[-1])
    row, q = _rows(piece, cores.piece)  # each convex part alone
    rows.append(row)
    corners = cores.corners[q]
    xp.append(_farthest(corners, mp[row]))
    xm.append(_farthest(corners, mm[row]))
    ys.append(xp[-1])
    if not links:
        return np.concatenate(rows), np.concatenate(xp), np.concatenate(xm), np.concatenate(ys)
    row, li = _rows(piece, cores.link_piece)  # two overlapping parts
    rows.append(row)
    xp.append(_farthest(cores.corners[cores.link[li, 0]], mp[row]))
    xm.append(_farthest(cores.corners[cores.link[li, 1]], mm[row]))
    ys.append(cores.link_y[li])
    return np.concatenate(rows), np.concatenate(xp), np.concatenate(xm), np.concatenate(ys)


def _sides(a: Base, b: Base, k: Ints, p: Floats, n: Floats) -> Bools:
    """Condition (2): the bases ``a[k]`` and ``b[k]`` lie strictly on opposite sides of the line
    through ``p`` and ``n`` (rows), by their support values along ±w, w the line's normal."""
    d = n - p
    L = np.hypot(d[:, 0], d[:, 1])
    w = np.column_stack([-d[:, 1], d[:, 0]]) / np.where(L > 0, L, 1)[:, None]
    s = np.einsum("ij,ij->i", w, p)
    ww = np.concatenate([w, w])  # A's rows, then B's
    wc = np.einsum("ij,ij->i", ww, np.concatenate([a.c[k], b.c[k]]))
    r = lengths(np.einsum("nji,nj->ni", np.concatenate([a.m[k], b.m[k]]), ww))
    below, above = wc + r < copies(s, 2) - DELTA, -wc + r < copies(-s, 2) - DELTA
    m = len(k)
    out: Bools = (L > 0) & ((below[:m] & above[m:]) | (above[:m] & below[m:]))
    return out


def separated(cores: Cores, a: Base, b: Base, mp: Floats, mm: Floats, piece: Ints,
              reach: Optional[tuple[Floats, Floats]] = None) -> Bools:
    """Rows ``k``: does piece ``piece[k]`` hold a path of the lemma for the bases ``a`` and ``b``
    (rows ``k`` of each), with the outward directions ``mp[k]``, ``mm[k]`` (unit)? Then it
    blocks every sight line between them.

    ``reach``: bounds of the support of the hull H along ``mp`` and ``mm`` to use in condition
    (1) instead of those of ``a`` and ``b`` — smaller ones where only a part of ``b`` matters
    (:func:`through`)."""
    out = np.zeros(len(piece), bool)
    if not len(piece):
        return out
    reach_p, reach_m = (r + DELTA for r in (_hull_reach(a, b, mp, mm) if reach is None else reach))
    k, p, n, y = _paths(cores, mp, mm, piece)
    # (1): past both tangents; the rows that fail are dropped before the dearer tests
    ok = (np.einsum("ij,ij->i", mp[k], p) >= reach_p[k]) & (np.einsum("ij,ij->i", mm[k], n) >= reach_m[k])
    ok &= (np.einsum("ij,ij->i", mp[k], p - n) > 0) & (np.einsum("ij,ij->i", mm[k], n - p) > 0)
    k, p, n, y = k[ok], p[ok], n[ok], y[ok]
    ok = _sides(a, b, k, p, n)  # (2)
    k, p, n, y = k[ok], p[ok], n[ok], y[ok]
    # (3): the triangle misses both bases
    ok = _triangle_misses(p, y, n, a, b, k)
    out[k[ok]] = True
    return out


def through(e: Base, s: Base, q: Base, m: Floats) -> Floats:
    """A bound of the support along ``m`` (rows) of the hull of a window ``e`` and of the part
    of ``s`` that lines from ``q`` through ``e`` reach: ``h_E(m)`` where ``e`` lies behind ``q``
    along ``m`` by ``DELTA`` or more (``h_E(m) + h_Q(−m) ≤ −DELTA``: that part of ``s`` lies in
    the cone of such lines, which lies behind ``e``'s own support line), else
    ``max(h_E(m), h_S(m))`` (the module's "Through a window")."""
    he = support(e.c, e.m, m)
    behind = he + support(q.c, q.m, -m) <= -DELTA
    return np.where(behind, he, np.maximum(he, support(s.c, s.m, m)))


#: The half width of the thin ellipse that stands for a window (a segment), inches.
WINDOW_WIDTH = 1e-5


def windows(cores: Cores, a: Base, b: Base, mp: Floats, mm: Floats, piece: Ints) -> tuple[Ints, Ints, Base]:
    """The windows that a piece leaves on a gate between two bases (the two-piece corollary).

    For each row ``k`` and each chord [x⁺, x⁻] of a round piece or convex part of ``piece[k]``
    (:func:`_paths`) whose line ℓ has the bases on either side (2): the gate is ℓ from beyond
    the bases' hull H on one side to beyond it on the other (condition (1) of the lemma, met by
    extending the chord along ℓ); every sight line crosses the gate (proof of the lemma), at a
    point of the chord — in the piece — or of a *window*, the part of the gate past x⁺ or past
    x⁻. Returns ``(gate row, gate, windows)``: for every window, the row and a number for its
    gate (windows of one gate share it), and the windows themselves as thin ellipses (half width
    ``WINDOW_WIDTH``, each holding its segment): a sight line through a window contains a
    segment from the window to B, and one from A to the window.
    """
    reach_p, reach_m = (r + DELTA for r in _hull_reach(a, b, mp, mm))
    k, p, n, _ = _paths(cores, mp, mm, piece, links=False)  # (a path through two parts is no chord)
    ok = _sides(a, b, k, p, n)
    k, p, n = k[ok], p[ok], n[ok]
    d = n - p
    d = d / np.hypot(d[:, 0], d[:, 1])[:, None]  # along ℓ, from x⁺ towards x⁻
    up, dn = -np.einsum("ij,ij->i", mp[k], d), np.einsum("ij,ij->i", mm[k], d)
    good = (up > 0) & (dn > 0)  # ℓ leaves H past each end (the lemma's m⁺·(x⁺ − x⁻) > 0 ...)
    k, p, n, d, up, dn = k[good], p[good], n[good], d[good], up[good], dn[good]
    tp = np.maximum(0.0, (reach_p[k] - np.einsum("ij,ij->i", mp[k], p)) / up)
    tm = np.maximum(0.0, (reach_m[k] - np.einsum("ij,ij->i", mm[k], n)) / dn)
    gate = np.arange(len(k))
    ends = [(p, p - tp[:, None] * d, tp > 0), (n, n + tm[:, None] * d, tm > 0)]
    w0 = np.concatenate([e[0][e[2]] for e in ends])
    w1 = np.concatenate([e[1][e[2]] for e in ends])
    row = np.concatenate([k[e[2]] for e in ends])
    gate = np.concatenate([gate[e[2]] for e in ends])
    u = w1 - w0
    half = np.hypot(u[:, 0], u[:, 1]) / 2
    u = u / np.where(half > 0, 2 * half, 1)[:, None]
    half = half + DELTA  # (it holds its ends with room)
    m = np.stack([np.column_stack([half * u[:, 0], half * u[:, 1]]),
                  np.column_stack([-WINDOW_WIDTH * u[:, 1], WINDOW_WIDTH * u[:, 0]])], axis=2)
    inv = np.linalg.inv(m) if len(m) else m
    return row, gate, Base((w0 + w1) / 2, m, inv, np.full(len(row), WINDOW_WIDTH), half)


@dataclass(frozen=True)
class Base:
    """Bases, one a row: centres ``c``, shape matrices ``m`` (base = c + M·(unit disc)), their
    inverses ``inv``, and the radii of the discs inside and around each base (``inner``: a round
    base's radius, an oval's half width; ``reach``: the radius, an oval's half length)."""

    c: Floats
    m: Floats
    inv: Floats
    inner: Floats
    reach: Floats

    def __getitem__(self, rows: Ints) -> "Base":
        return Base(self.c[rows], self.m[rows], self.inv[rows], self.inner[rows], self.reach[rows])

    @staticmethod
    def join(*parts: "Base") -> "Base":
        """The rows of ``parts``, one after the other."""
        return Base(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("c", "m", "inv", "inner", "reach")))
