"""What the sight rules of every system share: prepared blockers per table, base-to-piece gaps
as a matrix, and turning a witness search into :class:`board.sight.Sight` answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import numpy as np
import shapely

from tapeline.board.measure import gap
from tapeline.board.table import Figure, Table

if TYPE_CHECKING:  # the sight-line engine is loaded by the functions that use it
    from tapeline.board.sight import Blockers, Sight

#: Every reason a system gives for a blocked sight line (``Sight.blocked_by``): StarCraft's
#: Full Cover, Direct Cover, Dead Zone and HIDDEN (§7.1, §11), true line of sight's height.
BLOCK_REASONS = ("full_cover", "direct_cover", "dead_zone", "hidden", "height")

_CACHE: dict[int, tuple[Table, Blockers]] = {}


def blockers(table: Table) -> Blockers:
    """The table's footprints prepared for sight tests (cached per table)."""
    hit = _CACHE.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    if len(_CACHE) > 16:
        _CACHE.clear()
    from tapeline.board.sight import Blockers

    bl = Blockers(table.pieces)
    _CACHE[id(table)] = (table, bl)
    return bl


def piece_gaps(figs: Sequence[Figure], table: Table) -> np.ndarray:
    """Signed-enough gaps ``[model, piece]`` from each base to each footprint.

    Exact for round bases (centre distance to the footprint minus the radius; circular pieces
    use their exact circle); ovals use :func:`board.measure.gap`. Inside a footprint the value
    is ``-radius`` or less — only comparisons with positive limits (within 1") are made.
    """
    pieces = table.pieces
    out = np.zeros((len(figs), len(pieces)))
    if not len(figs) or not pieces:
        return out
    c = np.array([f.at for f in figs], float)
    r = np.array([f.base.radius if f.is_round else np.nan for f in figs])
    pts = shapely.points(c)
    fps = np.array([p.footprint for p in pieces], dtype=object)
    out = shapely.distance(pts[:, None], fps[None, :]) - r[:, None]
    for j, p in enumerate(pieces):
        if p.circle is not None:
            x, y, rr = p.circle
            out[:, j] = np.hypot(c[:, 0] - x, c[:, 1] - y) - rr - r
    for i in np.nonzero(np.isnan(r))[0]:
        for j, p in enumerate(pieces):
            out[i, j] = gap(figs[i], p.footprint)
    return out


def own_stacks(figs: Sequence[Figure], table: Table) -> np.ndarray:
    """``[model, piece]``: the piece is in the stack the model stands on (never blocks it)."""
    idx = {p.id: j for j, p in enumerate(table.pieces)}
    out = np.zeros((len(figs), len(table.pieces)), bool)
    for i, f in enumerate(figs):
        for p in table.stack(f.on):
            out[i, idx[p.id]] = True
    return out


def relevant(fa: Figure, fb: Figure, table: Table, mask: np.ndarray) -> list[int]:
    """Indices of masked pieces that cut the convex hull of the two bases."""
    from tapeline.board.sight import frames, hulls

    ca, ma = frames([fa])
    cb, mb = frames([fb])
    hl = hulls(ca, ma, cb, mb)[0]
    return [int(j) for j in table.tree.query(hl, predicate="intersects") if mask[j]]


def sight_answer(table: Table, fa: Figure, fb: Figure, found: bool, witness: np.ndarray,
                 mask: np.ndarray, reasons: list, absolute: list[tuple],
                 with_clearance: bool = True) -> Sight:
    """A :class:`Sight` from one pair's search: witness and clearance, or the blockers."""
    from tapeline.board.sight import Sight, clearance

    if absolute:
        return Sight(False, None, absolute, None, "; ".join(_say(t, r) for t, r in absolute))
    if found:
        seg = [[float(v) for v in witness[0]], [float(v) for v in witness[1]]]
        pieces = [table.pieces[j] for j in np.nonzero(mask)[0]]
        cl = clearance(seg, pieces) if with_clearance else None
        msg = "clear sight line" + (f", {cl:.6g}\" from the nearest blocking piece" if cl is not None else "")
        return Sight(True, seg, [], cl, msg)
    rel = relevant(fa, fb, table, mask)
    blocked = [(table.pieces[j].id, r) for j in rel
               for r in ((reasons[j],) if isinstance(reasons[j], str) else reasons[j])]
    return Sight(False, None, blocked, None, "every sight line is blocked: " + "; ".join(_say(t, r) for t, r in blocked))


def _say(t, r) -> str:
    return f"{t} ({r})" if t else r
