"""What the sight rules of every system share: prepared blockers per table, base-to-piece gaps
as a matrix, and turning a witness search into :class:`board.sight.Sight` answers."""

from __future__ import annotations

from typing import Optional, Sequence, Union, cast

import numpy as np
import shapely
from numpy.typing import NDArray

from tapeline.board.bases import RoundBase
from tapeline.board.measure import gap
from tapeline.board.sight import Blockers, Sight, clearance, frames, hulls
from tapeline.board.table import Figure, Table

#: Every reason a system gives for a blocked sight line (``Sight.blocked_by``): StarCraft's
#: Full Cover, Direct Cover, Dead Zone and HIDDEN (§7.1, §11), true line of sight's height.
BLOCK_REASONS = ("full_cover", "direct_cover", "dead_zone", "hidden", "height")

#: The blockers of the tables last asked, by ``id`` (each kept with its table, so an id is not
#: reused while kept): at most 17, then all forgotten at once. Safe between threads (a race
#: only prepares a table twice).
_CACHE: dict[int, tuple[Table, Blockers]] = {}


def blockers(table: Table) -> Blockers:
    """The table's footprints prepared for sight tests (cached per table)."""
    hit = _CACHE.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    if len(_CACHE) > 16:
        _CACHE.clear()
    bl = Blockers(table.pieces)
    _CACHE[id(table)] = (table, bl)
    return bl


#: A blocked pair's reasons, by piece: one reason, or several (StarCraft: Full and Direct Cover).
Reasons = Sequence[Union[str, Sequence[str]]]


def _radii(figs: Sequence[Figure]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Each base's smallest and largest distance from centre to edge (equal for round bases):
    the base contains the disc of the first radius and lies in the disc of the second."""
    lo = np.array([f.base.radius if isinstance(f.base, RoundBase) else min(f.base.a, f.base.b) for f in figs], float)
    hi = np.array([f.base.reach for f in figs], float)
    return lo, hi


def _undecided(lower: NDArray[np.float64], upper: NDArray[np.float64], limits: Sequence[float]) -> NDArray[np.bool_]:
    """Where ``gap ≤ t`` is not settled by the bounds for some limit ``t``."""
    out = np.zeros(lower.shape, bool)
    for t in limits:
        out |= (lower <= t) & (t < upper)
    return out


def piece_gaps(figs: Sequence[Figure], table: Table, limits: Optional[Sequence[float]] = None) -> NDArray[np.float64]:
    """Signed-enough gaps ``[model, piece]`` from each base to each footprint.

    Exact for round bases (centre distance to the footprint minus the radius; circular pieces
    use their exact circle); ovals use :func:`board.measure.gap`. Inside a footprint the value
    is ``-radius`` or less — only comparisons with positive limits (within 1") are made.

    ``limits`` (each ≥ 0): the caller only asks ``gap ≤ t`` for these ``t``; an oval's exact
    gap is then worked out only where bounds do not already settle every such question, and
    elsewhere the lower bound stands in — it answers every ``≤ t`` the same way. The bounds:
    for a polygon piece, the discs inside and around the oval (its two semi-axes); for a round
    piece, the distance from the piece's centre to the oval's polygon less the radii of the
    circles inside and around the piece's polygon (they differ by a millionth of the radius).
    """
    pieces = table.pieces
    out: NDArray[np.float64] = np.zeros((len(figs), len(pieces)))
    if not len(figs) or not pieces:
        return out
    c = np.array([f.at for f in figs], float)
    lo, hi = _radii(figs)
    pts = shapely.points(c)
    assert isinstance(pts, np.ndarray)  # (n, 2) coordinates: n points (the stubs cannot tell one point)
    fps = np.array([p.footprint for p in pieces], dtype=object)
    circ = np.array([p.circle is not None for p in pieces], bool)
    oval = np.array([not f.is_round for f in figs], bool)
    # Round bases: the centre's distance to each polygon footprint, and to the exact circle of
    # a round piece, less the radius. Ovals: bounds of the gap gap() works out (to the inscribed
    # polygon of the oval), from the discs inside and around the base for a polygon piece, and
    # for a round piece (a polygon of many corners between two circles) from the circles
    # inside and around the piece's polygon and the distance of its centre to the oval's.
    dfp = np.zeros(out.shape)
    dfp[:, ~circ] = shapely.distance(pts[:, None], fps[None, ~circ])
    lower, upper = dfp - hi[:, None], dfp - lo[:, None]
    out = lower.copy()
    ovals = [figs[i].polygon for i in np.flatnonzero(oval).tolist()] if circ.any() else []
    for j in np.flatnonzero(circ):
        x, y, rr = cast(tuple[float, float, float], pieces[int(j)].circle)
        out[:, j] = np.hypot(c[:, 0] - x, c[:, 1] - y) - rr - hi
        if ovals:
            inner, outer = pieces[int(j)].circle_bounds
            dpt = shapely.distance(shapely.Point(x, y), ovals)
            lower[oval, j], upper[oval, j] = dpt - outer, np.maximum(dpt - inner, 0)
    out[oval] = lower[oval]
    need = oval[:, None] & np.ones(out.shape, bool)
    if limits is not None:
        assert min(limits) >= 0, "bounds settle only limits >= 0"
        need &= _undecided(lower, upper, limits)
    for i, j in zip(*np.nonzero(need)):
        out[i, j] = gap(figs[i], pieces[j].footprint)
    return out


def pair_gaps(figs_a: Sequence[Figure], figs_b: Sequence[Figure], limits: Sequence[float]) -> NDArray[np.float64]:
    """Gaps ``[a, b]`` between bases for callers that only ask ``gap ≤ t`` for ``limits`` (each
    ≥ 0): exact for two round bases (:func:`board.measure.gap_matrix`'s formula); where an oval
    is involved, exact (:func:`board.measure.gap`) only where the discs inside and around each
    base leave some ``≤ t`` open, else the inner bound, which answers them all the same way."""
    ca = np.array([f.at for f in figs_a], float).reshape(-1, 2)
    cb = np.array([f.at for f in figs_b], float).reshape(-1, 2)
    loa, hia = _radii(figs_a)
    lob, hib = _radii(figs_b)
    d = np.linalg.norm(ca[:, None, :] - cb[None, :, :], axis=2)
    out: NDArray[np.float64] = d - hia[:, None] - hib[None, :]
    assert min(limits) >= 0, "bounds settle only limits >= 0"
    need = _undecided(out, d - loa[:, None] - lob[None, :], limits)
    need &= (loa != hia)[:, None] | (lob != hib)[None, :]
    for i, j in zip(*np.nonzero(need)):
        out[i, j] = gap(figs_a[i], figs_b[j])
    return out


def own_stacks(figs: Sequence[Figure], table: Table) -> NDArray[np.bool_]:
    """``[model, piece]``: the piece is in the stack the model stands on (never blocks it)."""
    idx = {p.id: j for j, p in enumerate(table.pieces)}
    out = np.zeros((len(figs), len(table.pieces)), bool)
    for i, f in enumerate(figs):
        for p in table.stack(f.on):
            out[i, idx[p.id]] = True
    return out


def relevant(fa: Figure, fb: Figure, table: Table, mask: NDArray[np.bool_]) -> list[int]:
    """Indices of masked pieces that cut the convex hull of the two bases."""
    ca, ma = frames([fa])
    cb, mb = frames([fb])
    hl = hulls(ca, ma, cb, mb)[0]
    return [int(j) for j in table.tree.query(hl, predicate="intersects") if mask[j]]


def sight_answer(table: Table, fa: Figure, fb: Figure, found: bool, witness: NDArray[np.float64],
                 mask: NDArray[np.bool_], reasons: Reasons, absolute: list[tuple[Optional[str], str]],
                 with_clearance: bool = True) -> Sight:
    """A :class:`Sight` from one pair's search: witness and clearance, or the blockers."""
    if absolute:
        return Sight(False, None, absolute, None, "; ".join(_say(t, r) for t, r in absolute))
    if found:
        seg = [[float(v) for v in witness[0]], [float(v) for v in witness[1]]]
        pieces = [table.pieces[j] for j in np.nonzero(mask)[0]]
        cl = clearance(seg, pieces) if with_clearance else None
        msg = "clear sight line" + (f", {cl:.6g}\" from the nearest blocking piece" if cl is not None else "")
        return Sight(True, seg, [], cl, msg)
    rel = relevant(fa, fb, table, mask)
    blocked = [(table.pieces[j].id, r) for j in rel for r in _each(reasons[j])]
    return Sight(False, None, blocked, None, "every sight line is blocked: " + "; ".join(_say(t, r) for t, r in blocked))


def _each(why: Union[str, Sequence[str]]) -> Sequence[str]:
    """A piece's reasons as a sequence (one reason, or several)."""
    return (why,) if isinstance(why, str) else why


def _say(t: Optional[str], r: str) -> str:
    return f"{t} ({r})" if t else r
