"""True line of sight by heights, shared by Horus Heresy 3rd and Warhammer 40,000 3rd.

Both games trace sight from the model's point of view over the real terrain. tapeline models
that with footprints and heights (spec: a piece's ``height``, a model's ``height``):

* a model's **eye** is the top of the model: the height of the terrain stack it stands on
  (``on:``) plus its own height — from the file (``height:``), else a default by unit type
  (:data:`DEFAULT_HEIGHTS`, keyed by the unit's ``stats.unit_type``; "infantry" when absent);
* a piece's **top** is its height plus the heights of the pieces it stands on;
* a sight line runs from the top of one model to the top of the other, straight, over a 2D
  segment from base to base (eye height constant over the base: the highest point of a model
  gives the best view, and bases are small); a piece blocks the segment where that line runs
  below the piece's top over the piece's footprint (reason ``height``).

A piece blocks sight only as its traits and height say (spec): ``no_sight_block`` never blocks,
``blocks_sight`` blocks at any height (treated as infinitely tall), otherwise a piece of height
0 blocks nothing. Pieces a model stands on never block its own trace. Models in base contact
always see each other (HH3 "Base to Base Contact", §A.1; the same is assumed for 40k 3rd).

**Area terrain** (setting ``los_area_terrain``): a model standing *inside* a piece's footprint
(its base overlaps the footprint; it is not ``on`` it), e.g. in a wood or ruin:

* ``see_out`` (default): that piece does not block sight lines to or from the model — it sees
  out and is seen, as the 40k 3rd / HH convention of models at the edge of area terrain;
* ``height``: the piece blocks by height like any other; the model sees only over it or from
  the part of its base outside the footprint.

Exactness: with every blocking piece either lower than both eyes (dropped) or higher than both
(a plain 2D obstacle) the search of :mod:`board.sight` is exact. A piece between the two eye
heights blocks only the part of each segment near the lower model; :mod:`board.sightheights`
adds the candidate lines for that case (the point where the line reaches the piece's top lying
on an edge, with a corner or a tangent; and clear "islands"). Every witness is verified; the
cases not proven complete are listed in docs/line-of-sight.md ("What is not proven").
"""

from __future__ import annotations

import math
from typing import Iterable, Optional, Sequence

import numpy as np
from numpy.typing import NDArray

from tapeline.board.measure import contact, gap_matrix
from tapeline.board.sight import Sight, find_witnesses
from tapeline.board.table import Figure
from tapeline.board.units import TOUCH

from .sightcommon import blockers, own_stacks, piece_gaps, sight_answer
from .state import GameState

#: Default model heights in inches by unit type (28–32 mm scale, to the top of the head or
#: hull), used when a model gives no ``height``. Override per model in the file.
DEFAULT_HEIGHTS = {
    "infantry": 1.25,
    "character": 1.25,
    "jump": 1.5,
    "jump-infantry": 1.5,
    "bike": 1.25,
    "cavalry": 1.75,
    "beast": 1.0,
    "artillery": 1.0,
    "monstrous": 2.5,
    "dreadnought": 2.5,
    "walker": 2.5,
    "automata": 2.0,
    "vehicle": 2.5,
    "super-heavy": 4.0,
    "knight": 5.0,
    "titan": 8.0,
    "swarm": 0.5,
}
AREA_TERRAIN_SETTINGS = ("see_out", "height")


def model_height(state: GameState, model_id: str) -> float:
    """The model's own height: its ``height`` or the default for its unit type."""
    f = state.figure(model_id)
    if f.height is not None:
        return float(f.height)
    kind = str(state.unit(f.unit).stats.get("unit_type") or "infantry").lower()
    return DEFAULT_HEIGHTS.get(kind, DEFAULT_HEIGHTS["infantry"])


def eye(state: GameState, model_id: str) -> float:
    """Height of the top of the model above the table (terrain it stands on included)."""
    f = state.figure(model_id)
    return state.table.stack_height(f.on) + model_height(state, model_id)


def piece_tops(state: GameState) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """Each piece's top height (``inf`` for ``blocks_sight``) and whether it can block at all."""
    t = state.table
    tops = np.array([math.inf if p.has("blocks_sight") else t.stack_height(p.id) for p in t.pieces], float)
    can = np.array([(p.has("blocks_sight") or p.height > 0) and not p.has("no_sight_block") for p in t.pieces], bool)
    return tops, can


def _facts(state: GameState, figs: Sequence[Figure]) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """``[model, piece]``: the piece is in the model's own stack; the piece cannot block the
    model's sight lines for it stands inside its footprint (``los_area_terrain: see_out``)."""
    own = own_stacks(figs, state.table)
    if state.settings.get("los_area_terrain", "see_out") == "see_out":
        return own, piece_gaps(figs, state.table) < 0
    return own, np.zeros(own.shape, bool)


Facts = tuple[NDArray[np.bool_], NDArray[np.bool_]]


def _mask(state: GameState, figs_a: Sequence[Figure], figs_b: Sequence[Figure], ia: NDArray[np.intp], ib: NDArray[np.intp],
          za: NDArray[np.float64], zb: NDArray[np.float64],
          facts: Optional[tuple[Facts, Facts]] = None) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """``[pair, piece]``: the piece may block the pair ``(figs_a[ia[k]], figs_b[ib[k]])``, eyes at
    ``za[k]`` and ``zb[k]``; and each piece's top. ``facts``: both lists' :func:`_facts`, when
    already known."""
    tops, can = piece_tops(state)
    (own_a, inside_a), (own_b, inside_b) = facts if facts is not None else (_facts(state, figs_a), _facts(state, figs_b))
    mask = can & ~own_a[ia] & ~own_b[ib] & (tops > np.minimum(za, zb)[:, None]) & ~inside_a[ia] & ~inside_b[ib]
    return mask, tops


def visible(state: GameState, a: str, b: str) -> Sight:
    """True line of sight between models ``a`` and ``b`` (reciprocal), with the witness or the
    pieces that block (reason ``height``)."""
    fa, fb = state.figure(a), state.figure(b)
    if a == b:
        return Sight(True, [list(fa.at), list(fa.at)], [], None, "a model always sees itself")
    if contact(fa, fb).ok:
        return Sight(True, [list(fa.at), list(fb.at)], [], None, "base contact: always in sight (HH3 §A.1)")
    za, zb = np.array([eye(state, a)]), np.array([eye(state, b)])
    z = np.zeros(1, int)
    mask, tops = _mask(state, [fa], [fb], z, z, za, zb)
    found, wit = find_witnesses([fa], [fb], blockers(state.table), mask, heights=(za, zb, tops))
    reasons = ["height"] * len(state.table.pieces)
    return sight_answer(state.table, fa, fb, bool(found[0]), wit[0], mask[0], reasons, [], with_clearance=False)


def sight_matrix(state: GameState, fa: Sequence[Figure], fb: Sequence[Figure]) -> NDArray[np.bool_]:
    """``[i, j]``: figure ``fa[i]`` sees figure ``fb[j]`` (one batched search, no per-pair loop)."""
    if not fa or not fb:
        return np.zeros((len(fa), len(fb)), bool)
    ia, ib = np.divmod(np.arange(len(fa) * len(fb)), len(fb))
    return sight_pairs(state, fa, fb, ia, ib).reshape(len(fa), len(fb))


#: Entries of the ``[pair, piece]`` arrays :func:`sight_pairs` holds at once (the pairs searched
#: together: this many over the number of pieces, at least :data:`MIN_CHUNK`): a bound on memory
#: whatever the table, and few rounds of the search on a usual one.
PAIR_PIECES = 1_000_000
MIN_CHUNK = 2_000


def _chunk(pieces: int) -> int:
    return max(MIN_CHUNK, PAIR_PIECES // max(pieces, 1))


def sight_pairs(state: GameState, fa: Sequence[Figure], fb: Sequence[Figure], ia: NDArray[np.intp],
                ib: NDArray[np.intp]) -> NDArray[np.bool_]:
    """``[k]``: figures ``fa[ia[k]]`` and ``fb[ib[k]]`` see each other, as :func:`visible`
    decides: the models' eyes and the pieces' tops once, then the pairs :func:`_chunk` at a
    time through the same batched search (a table analysis asks millions)."""
    out = np.zeros(len(ia), bool)
    if not len(ia):
        return out
    eyes_a = np.array([eye(state, f.id) for f in fa])
    eyes_b = np.array([eye(state, f.id) for f in fb])
    touching = np.abs(gap_matrix(fa, fb, upto=TOUCH)) <= TOUCH
    bl = blockers(state.table)
    facts = (_facts(state, fa), _facts(state, fb))
    step = _chunk(len(state.table.pieces))
    for lo in range(0, len(ia), step):
        a, b = ia[lo:lo + step], ib[lo:lo + step]
        za, zb = eyes_a[a], eyes_b[b]
        mask, tops = _mask(state, fa, fb, a, b, za, zb, facts)
        found, _ = find_witnesses(fa, fb, bl, mask, heights=(za, zb, tops), pairs=(a, b))
        out[lo:lo + step] = found | touching[a, b]
    return out


def visibility_matrix(state: GameState, unit_a: str, unit_b: str) -> NDArray[np.bool_]:
    """``[i, j]``: model ``i`` of ``unit_a`` sees model ``j`` of ``unit_b``."""
    return sight_matrix(state, state.figures_of(unit_a), state.figures_of(unit_b))


def visible_to_group(state: GameState, firing_model_ids: Iterable[str], target_unit: str) -> set[str]:
    """Models of ``target_unit`` seen by at least one firing model (the union)."""
    fa = [state.figure(m) for m in firing_model_ids]
    fb = state.figures_of(target_unit)
    if not fa or not fb:
        return set()
    seen = sight_matrix(state, fa, fb).any(axis=0)
    return {fb[j].id for j in np.flatnonzero(seen)}
