"""Line of Sight and Visible in StarCraft TMG (§7.1; glossary LINE OF SIGHT, VISIBLE).

Sight is traced top-down from any part of one base to any part of the other (§7.1). For each
pair of models the rules decide which pieces *would* block a trace that crosses them; the
shared exact search (:mod:`board.sight`) then looks for one trace that crosses none of them.
Pieces are judged one at a time (§7.1: Sizes and proximities of different pieces never add up),
so "blocks this pair" is a per-piece property and the search is exact.

A piece blocks the pair when it is Blocking Terrain (Effective Size ≥ 1, §7.1) and

* **Full Cover** (§7.1.1): its Effective Size is at least both models' Effective Sizes — not
  when either model is Flying (§7.1.4);
* **Direct Cover** (§7.1.1): a model is within 1" of it (base to footprint) and its Effective
  Size is at least that model's — never for a Flying model (§7.1.4: a flyer counts as taller
  than any terrain), still for the other model of the pair; **Close Quarters**: if both models
  are within 1" of the piece and within 3" of each other, Direct Cover does not apply.

Pieces in either model's own stack (what it stands on) never block (§7.1.2). Besides the trace:

* **Elevation Dead Zone** (§7.1.1): a model on HIGH GROUND and a GROUND LEVEL model within 1"
  of the foot of that same piece do not see each other, unless within 3" of each other (Close
  Quarters; the high model is on the piece, so always within 1" of it). Flying models are on
  no elevation level (§8.5.3), so the Dead Zone never involves them.
* **HIDDEN** / **BURROWED** (glossary): not Visible beyond 4" (BURROWED gains HIDDEN; it also
  counts as Size 0, see :func:`rules.starcraft.elevation.effective_size`). Applied both ways,
  as Visible is reciprocal (§7.1).

Every rule above is symmetric in the two models, and the search is symmetric, so Visible comes
out reciprocal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

import numpy as np

from tapeline.board.arrays import Bools, Floats, Ints
from tapeline.board.sight import Sight, find_witnesses
from tapeline.board.table import Figure
from tapeline.board.units import TOUCH

from ..sightcommon import blockers, own_stacks, pair_gaps, piece_gaps, sight_answer
from ..state import GameState
from . import terrain as sc_terrain
from .elevation import Level, level, level_of_surface, size_on, standing_piece

DIRECT_COVER_RANGE = 1.0
CLOSE_QUARTERS_RANGE = 3.0
HIDDEN_RANGE = 4.0
FULL, DIRECT = 1, 2
_REASON = {FULL: "full_cover", DIRECT: "direct_cover"}
#: The only questions asked of a pair's gap (Close Quarters, HIDDEN): exact values elsewhere
#: are not needed (:func:`rules.sightcommon.pair_gaps`).
_PAIR_LIMITS = (CLOSE_QUARTERS_RANGE + TOUCH, HIDDEN_RANGE + TOUCH)


@dataclass(frozen=True)
class _Models:
    """Per-model facts for a list of figures (one pass over models, not pairs)."""

    figs: list[Figure]
    es: Floats
    flying: Bools
    hidden: Bools
    level: Ints
    high_stack: Ints  # [model, piece]: place in the HIGH GROUND stack the model stands on (-1: not in it)
    gaps: Floats  # [model, piece]
    own: Bools  # [model, piece]


def _models(state: GameState, figs: Sequence[Figure]) -> _Models:
    t = state.table
    idx = {p.id: j for j, p in enumerate(t.pieces)}
    es: list[int] = []
    fly: list[bool] = []
    hid: list[bool] = []
    lev: list[int] = []
    hs = np.full((len(figs), len(t.pieces)), -1, np.intp)
    for i, f in enumerate(figs):
        u = state.unit(f.unit)
        on = None if u.flying else standing_piece(t, f)  # (a Flying model stands on nothing, §7.1.4)
        es.append(size_on(t, u, on))
        fly.append(u.flying)
        hid.append(bool({"hidden", "burrowed"} & set(u.status)))
        lv = level_of_surface(t, None if on is None else on.id)
        lev.append(int(lv) if not u.flying else -1)
        sp = on if lv == Level.HIGH else None
        for k, p in enumerate(t.stack(sp.id) if sp is not None else []):
            hs[i, idx[p.id]] = k
    return _Models(list(figs), np.array(es, float), np.array(fly, bool), np.array(hid, bool),
                   np.array(lev, int), hs, piece_gaps(figs, t, (DIRECT_COVER_RANGE + TOUCH,)),
                   own_stacks(figs, t))


def _piece_facts(state: GameState) -> tuple[Floats, Bools]:
    t = state.table
    es = np.array([sc_terrain.effective_size(t, p) for p in t.pieces], float)
    blk = np.array([sc_terrain.blocking(t, p) for p in t.pieces], bool)
    return es, blk


#: A pair's absolute blocks: ``(piece id or None, reason)`` (Dead Zone, HIDDEN).
Absolute = list[tuple[Optional[str], str]]


@dataclass(frozen=True)
class _Absolute:
    """The blocks of each pair that no sight line lifts: HIDDEN beyond 4" (``hidden``), and the
    Dead Zone with the piece of the high model's stack it comes from (``dead_zone``, -1: none)."""

    hidden: Bools
    dead_zone: Ints

    def any(self) -> Bools:
        """Which pairs are blocked whatever the sight lines."""
        out: Bools = self.hidden | (self.dead_zone >= 0)
        return out

    def of(self, k: int, ids: Sequence[str]) -> Absolute:
        """Pair ``k``'s blocks, as :func:`visible` reports them (``ids``: the pieces' ids)."""
        out: Absolute = [(None, "hidden")] if self.hidden[k] else []
        if self.dead_zone[k] >= 0:
            out.append((ids[int(self.dead_zone[k])], "dead_zone"))
        return out


def _pair_rules(state: GameState, ma: _Models, ia: Ints, mb: _Models, ib: Ints,
                gaps: Optional[Floats] = None) -> tuple[Bools, Ints, _Absolute]:
    """For pairs (``ma.figs[ia[k]]``, ``mb.figs[ib[k]]``): blocking mask and reason per piece,
    and each pair's absolute blocks (Dead Zone, HIDDEN). ``gaps``: the bases' gaps ``[a, b]``
    (:func:`rules.sightcommon.pair_gaps` with this module's limits) when already known."""
    pes, pblk = _piece_facts(state)
    ga, gb = ma.gaps[ia], mb.gaps[ib]
    w1a, w1b = ga <= DIRECT_COVER_RANGE + TOUCH, gb <= DIRECT_COVER_RANGE + TOUCH
    esa, esb = ma.es[ia][:, None], mb.es[ib][:, None]
    fa, fb = ma.flying[ia][:, None], mb.flying[ib][:, None]
    if gaps is None and len(ia):
        gaps = pair_gaps(ma.figs, mb.figs, _PAIR_LIMITS)
    d_ab = gaps[ia, ib] if gaps is not None and len(ia) else np.zeros(0)
    close = (d_ab <= CLOSE_QUARTERS_RANGE + TOUCH)[:, None]
    full = (pes >= esa) & (pes >= esb) & ~fa & ~fb
    direct = ((w1a & ~fa & (pes >= esa)) | (w1b & ~fb & (pes >= esb))) & ~(w1a & w1b & close)
    own = ma.own[ia] | mb.own[ib]
    mask = pblk & (full | direct) & ~own
    reason = (full * FULL | direct * DIRECT) * mask
    hidden = (ma.hidden[ia] | mb.hidden[ib]) & (d_ab > HIDDEN_RANGE + TOUCH)
    # Dead Zone: the first piece of the high model's stack whose foot the low model is within 1" of.
    la, lb = ma.level[ia], mb.level[ib]
    a_high = (la == Level.HIGH) & (lb == Level.GROUND)
    b_high = (lb == Level.HIGH) & (la == Level.GROUND)
    place = np.where(a_high[:, None], ma.high_stack[ia], np.where(b_high[:, None], mb.high_stack[ib], -1))
    near = np.where(a_high[:, None], gb, ga) <= DIRECT_COVER_RANGE + TOUCH
    cand = (place >= 0) & near & (d_ab > CLOSE_QUARTERS_RANGE + TOUCH)[:, None]
    first = np.argmin(np.where(cand, place, np.iinfo(np.intp).max), axis=1) if cand.shape[1] else np.zeros(len(ia), np.intp)
    dead = np.where(cand.any(axis=1), first, -1)
    return mask, reason, _Absolute(hidden, dead)


def _search(state: GameState, ma: _Models, ia: Ints, mb: _Models,
            ib: Ints, gaps: Optional[Floats] = None) -> tuple[Bools, Floats, Bools, Ints, _Absolute]:
    mask, reason, absolute = _pair_rules(state, ma, ia, mb, ib, gaps)
    live = ~absolute.any()
    found = np.zeros(len(ia), bool)
    wit = np.full((len(ia), 2, 2), np.nan)
    if live.any():
        f, w = find_witnesses(ma.figs, mb.figs, blockers(state.table), mask[live], pairs=(ia[live], ib[live]))
        found[live], wit[live] = f, w
    return found, wit, mask, reason, absolute


def visible(state: GameState, a: str, b: str) -> Sight:
    """Is model ``b`` Visible to model ``a`` (and so ``a`` to ``b``, §7.1)? With the witness
    sight line, or every piece that blocks with its reason (``full_cover``, ``direct_cover``,
    ``dead_zone``, ``hidden``)."""
    fa, fb = state.figure(a), state.figure(b)
    if a == b:
        return Sight(True, [list(fa.at), list(fa.at)], [], None, "a model always sees itself")
    ma, mb = _models(state, [fa]), _models(state, [fb])
    z = np.zeros(1, int)
    found, wit, mask, reason, absolute = _search(state, ma, z, mb, z)
    reasons = [tuple(_REASON[k] for k in (FULL, DIRECT) if int(r) & k) for r in reason[0]]
    return sight_answer(state.table, fa, fb, bool(found[0]), wit[0], mask[0], reasons,
                        absolute.of(0, [p.id for p in state.table.pieces]))


@dataclass(frozen=True)
class SightMatrix:
    """Which models of one unit (rows) see which of another (columns)."""

    rows: tuple[str, ...]
    cols: tuple[str, ...]
    visible: Bools
    witness: Floats

    def seen_by(self, row_id: str) -> list[str]:
        i = self.rows.index(row_id)
        return [c for c, v in zip(self.cols, self.visible[i]) if v]


def sight_matrix(state: GameState, figs_a: Sequence[Figure], figs_b: Sequence[Figure]) -> SightMatrix:
    """Visibility of every model of ``figs_a`` against every model of ``figs_b``: one batched
    search over all pairs (no per-pair geometry in Python)."""
    ma, mb = _models(state, figs_a), _models(state, figs_b)
    ia, ib = np.divmod(np.arange(len(figs_a) * len(figs_b)), max(len(figs_b), 1))
    found, wit, *_ = _search(state, ma, ia, mb, ib)
    shape = (len(figs_a), len(figs_b))
    return SightMatrix(tuple(f.id for f in figs_a), tuple(f.id for f in figs_b),
                       found.reshape(shape), wit.reshape(shape + (2, 2)))


#: Entries of the ``[pair, piece]`` arrays :func:`sight_pairs` holds at once (the pairs searched
#: together: this many over the number of pieces, at least :data:`MIN_CHUNK`): a bound on memory
#: whatever the table, and few rounds of the search on a usual one.
PAIR_PIECES = 1_000_000
MIN_CHUNK = 2_000


def _chunk(pieces: int) -> int:
    return max(MIN_CHUNK, PAIR_PIECES // max(pieces, 1))


def sight_pairs(state: GameState, figs_a: Sequence[Figure], figs_b: Sequence[Figure], ia: Ints, ib: Ints) -> Bools:
    """``[k]``: ``figs_a[ia[k]]`` and ``figs_b[ib[k]]`` are Visible to each other (§7.1), exactly
    as :func:`visible` decides for the two: each model's facts once, then the pairs
    :func:`_chunk` at a time through the same batched search (a table analysis asks
    millions)."""
    ma, mb = _models(state, figs_a), _models(state, figs_b)
    gaps = pair_gaps(ma.figs, mb.figs, _PAIR_LIMITS) if len(ia) else None
    out = np.zeros(len(ia), bool)
    step = _chunk(len(state.table.pieces))
    for lo in range(0, len(ia), step):
        sl = slice(lo, lo + step)
        out[sl] = _search(state, ma, ia[sl], mb, ib[sl], gaps)[0]
    return out


def visibility_matrix(state: GameState, unit_a: str, unit_b: str) -> SightMatrix:
    """Which models of ``unit_b`` each model of ``unit_a`` can see (§7.1)."""
    return sight_matrix(state, state.figures_of(unit_a), state.figures_of(unit_b))


def visible_to_group(state: GameState, firing_model_ids: Iterable[str], target_unit: str) -> set[str]:
    """Models of ``target_unit`` Visible to at least one of the firing models: the union the
    casualty cap needs (§8.7.4; rules digest §9.6)."""
    firing = [state.figure(m) for m in firing_model_ids]
    targets = state.figures_of(target_unit)
    if not firing or not targets:
        return set()
    m = sight_matrix(state, firing, targets)
    seen: Bools = np.any(m.visible, axis=0)
    return {c for c, v in zip(m.cols, seen) if v}


def high_ground_cover(state: GameState, target_unit: str, firing_model_ids: Iterable[str]) -> bool:
    """HIGH GROUND Cover (§7.1.3): every model of the target unit stands with its whole base on
    HIGH GROUND, the target is not Flying, and the attack comes from a lower elevation — at
    least one attacking model (Flying ones never count) is not entirely on HIGH GROUND."""
    u = state.unit(target_unit)
    figs = state.figures_of(target_unit)
    if u.flying or not figs:
        return False
    if any(level(state.table, f) != Level.HIGH for f in figs):
        return False
    for m in firing_model_ids:
        f = state.figure(m)
        if state.unit(f.unit).flying:
            continue
        if level(state.table, f) != Level.HIGH:
            return True
    return False
