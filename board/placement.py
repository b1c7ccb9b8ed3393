"""Setting the rest of a unit around its Leading Model, under constraints and a priority.

After the Leading Model has moved, the other models are *set* (StarCraft TMG §4.3, §8.7.7):
they ignore what lies between, but each must end legally — wholly on the table, overlapping no
base and no footprint it may not stand on, not within a given distance of given enemies — and
in coherency (wholly within ``radius`` of the Leading Model, with a clear link to a model
already set). Among legal spots the priority decides (charge: **A** base contact with a
declared target, **B** within ``contact_range`` of one, **C** as close as possible to the
Leading Model), ties broken by closeness to the Leading Model.

Candidate spots are finite and exact where it matters: rings of spots in base contact with each
target and each model already set (every 5°), the spots touching *two* bases at once (pairwise
ring intersections, the tight packings), and rings at ``contact_range``. Models are set one at
a time in the order given (greedy: a legal answer that follows the priority, not a global
optimum). A model with no legal spot in coherency is set as close as possible with a link and
reported out of coherency; with no linked legal spot at all it is reported unplaced (StarCraft
§4.4: removed as a casualty).

With levels (:mod:`board.levels`), a spot is on the level its centre's cell belongs to, the
footprints it may not overlap are those of that level (``pieces_on(level)``), and the chosen
level is reported (:attr:`Placement.on`); links crossing the edges between levels away from an
Access Point are ``link_clear``'s to refuse (they are walls of the link space).

Bases are handled as discs (an oval as the disc of its longest semi-axis: conservative).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence, Union, cast

import numpy as np
import shapely
from numpy.typing import NDArray

from .arrays import Bools, Floats, Geoms
from .bases import RoundBase
from .coherency import LinkTest
from .levels import Levels
from .plane import circle_intersections
from .table import Figure, Table
from .terrain import Piece
from .units import TOUCH

_EPS = 1e-7  # spots "in base contact" are set this far apart (far below TOUCH)

#: ``pieces_on(level)``: the footprints a base ending on ``level`` may not overlap.
PiecesOn = Callable[[Optional[str]], Sequence[Piece]]


def _radius(f: Figure) -> float:
    return f.base.radius if isinstance(f.base, RoundBase) else f.base.reach


@dataclass(frozen=True)
class Placement:
    positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    tiers: dict[str, str] = field(default_factory=dict)       # "A" | "B" | "C"
    out_of_coherency: tuple[str, ...] = ()
    unplaced: dict[str, str] = field(default_factory=dict)    # why not
    on: dict[str, Optional[str]] = field(default_factory=dict)  # the level it stands on (with levels)


def _ring(c: Union[Sequence[float], Floats], R: float, step_deg: float) -> Floats:
    t = np.radians(np.arange(0.0, 360.0, step_deg))
    return np.column_stack([c[0] + R * np.cos(t), c[1] + R * np.sin(t)])


class Surroundings:
    """What every spot a model may be set at is generated from and checked against: the
    Leading Model (already at its end spot), the bases that do not move (``fixed``: the Leading
    Model, ``blockers``, ``stay``), the ``targets``, the ``keep_away`` bases with their
    distances, the table and its footprints (by level, with ``levels``)."""

    def __init__(self, leader: Figure, table: Table, blockers: Sequence[Figure] = (), pieces: Sequence[Piece] = (),
                 targets: Sequence[Figure] = (), keep_away: Sequence[tuple[Figure, float]] = (), radius: float = 3.0,
                 contact_range: float = 1.0, stay: Sequence[Figure] = (), levels: Optional[Levels] = None,
                 pieces_on: Optional[PiecesOn] = None):
        self.leader, self.table, self.radius, self.contact_range = leader, table, radius, contact_range
        self.pieces, self.levels, self.pieces_on = pieces, levels, pieces_on
        self.stay = list(stay)
        fixed = [leader] + list(blockers) + self.stay
        self.fc = np.array([f.at for f in fixed], dtype=float).reshape(-1, 2)
        self.fr = np.array([_radius(f) for f in fixed])
        self.tc = np.array([f.at for f in targets], dtype=float).reshape(-1, 2)
        self.tr = np.array([_radius(f) for f in targets])
        self.kc = np.array([f.at for f, _ in keep_away], dtype=float).reshape(-1, 2)
        self.kr = np.array([_radius(f) + d for f, d in keep_away])
        self.lr = _radius(leader)
        self._trees: dict[Optional[str], Optional[tuple[shapely.STRtree, Geoms]]] = {}

    def _tree_of(self, level: Optional[str]) -> Optional[tuple[shapely.STRtree, Geoms]]:
        if level not in self._trees:
            # (with levels, pieces_on is given)
            on = self.pieces if self.levels is None else cast(PiecesOn, self.pieces_on)(level)
            polys = np.array([p.footprint for p in on], dtype=np.object_)
            self._trees[level] = (shapely.STRtree(polys), polys) if len(polys) else None
        return self._trees[level]

    def contact_circles(self, r: float, placed: Sequence[tuple[tuple[float, float], float]]) -> list[tuple[float, float, float]]:
        """The circles a centre of a base of radius ``r`` runs on when it touches a model in
        ``placed`` (``(centre, radius)``) or a target: ``(x, y, R)``."""
        circles = [(x, y, r + pr + _EPS) for (x, y), pr in placed]
        return circles + [(c[0], c[1], r + rt + _EPS) for c, rt in zip(self.tc, self.tr)]

    def near_fixed(self, r: float) -> list[tuple[float, float, float]]:
        """Contact circles round the fixed bases near the Leading Model (for the spots that
        touch two bases at once)."""
        return [(c[0], c[1], r + rf + _EPS) for c, rf in zip(self.fc, self.fr)
                if math.dist(c, self.leader.at) < self.radius + 2 * r + rf + 1]

    def candidates(self, r: float, placed: Sequence[tuple[tuple[float, float], float]],
                   extra: Sequence[Floats] = ()) -> Floats:
        """The candidate centres for a base of radius ``r`` with ``placed`` models set: rings
        of contact spots round each placed model and target (every 5°), rings at half and all of
        ``contact_range`` round each target (every 10°), the spots touching two bases at once,
        and ``extra`` points; unique to 1e-9."""
        circles = self.contact_circles(r, placed)
        cand = [_ring((x, y), R, 5.0) for x, y, R in circles]
        cand += [_ring(c, r + rt + self.contact_range * f, 10.0) for c, rt in zip(self.tc, self.tr) for f in (0.5, 1.0 - 1e-6)]
        cand.append(circle_intersections(np.array(circles + self.near_fixed(r), dtype=float).reshape(-1, 3)))
        cand += list(extra)
        return cast(Floats, np.unique(np.round(np.concatenate(cand), 9), axis=0))

    def legal(self, P: Floats, r: float, others: Sequence[tuple[tuple[float, float], float]] = ()) -> tuple[Floats, NDArray[np.object_]]:
        """The centres of ``P`` where a base of radius ``r`` may legally end — wholly on the
        table, overlapping no fixed base, none of ``others`` (``(centre, radius)``: models set
        since) and no footprint of its level, not within its distance of a ``keep_away`` base —
        and the level each stands on."""
        ok, lv = self.legal_mask(P, r, others)
        return P[ok], lv[ok]

    def legal_mask(self, P: Floats, r: float, others: Sequence[tuple[tuple[float, float], float]] = ()) -> tuple[Bools, NDArray[np.object_]]:
        """:meth:`legal` as a mask over ``P``, and the level of every centre."""
        table = self.table
        ok = (P[:, 0] - r >= -TOUCH) & (P[:, 1] - r >= -TOUCH) & (table.width - P[:, 0] - r >= -TOUCH) & (table.height - P[:, 1] - r >= -TOUCH)
        allc = np.concatenate([self.fc, np.array([p for p, _ in others], dtype=float).reshape(-1, 2)])
        allr = np.concatenate([self.fr, np.array([pr for _, pr in others])])
        if len(allc):
            d = np.linalg.norm(P[:, None, :] - allc[None, :, :], axis=2) - allr[None, :] - r
            ok &= d.min(axis=1) >= -TOUCH
        if len(self.kc):
            d = np.linalg.norm(P[:, None, :] - self.kc[None, :, :], axis=2) - self.kr[None, :] - r
            ok &= d.min(axis=1) > TOUCH
        levels = self.levels
        lv = np.array(levels.surface_at(P), dtype=object) if levels is not None else np.full(len(P), None, dtype=object)
        for level in set(lv[ok].tolist()) if ok.any() else ():
            tp = self._tree_of(level)
            if tp is None:
                continue
            idx = np.nonzero(ok & np.array([x == level for x in lv.tolist()], dtype=bool))[0]
            gi, pi = tp[0].query(shapely.points(P[idx]), predicate="dwithin", distance=r)
            if len(gi):
                dd = shapely.distance(shapely.points(P[idx][gi]), tp[1][pi])
                bad = np.unique(gi[dd < r - TOUCH])
                ok[idx[bad]] = False
        return ok, lv

    def wholly(self, P: Floats, r: float) -> Bools:
        """Which centres keep a base of radius ``r`` wholly within ``radius`` of the Leading Model."""
        return cast(Bools, np.hypot(*(P - np.array(self.leader.at)).T) + r - self.lr <= self.radius + TOUCH)

    def target_gaps(self, P: Floats, r: float) -> Floats:
        """Each centre's edge-to-edge gap to the nearest target (``inf`` without targets)."""
        if not len(self.tc):
            return np.full(len(P), np.inf)
        return cast(Floats, (np.linalg.norm(P[:, None, :] - self.tc[None, :, :], axis=2) - self.tr[None, :] - r).min(axis=1))


def place_around(
    leader: Figure,
    movers: Sequence[Figure],
    table: Table,
    blockers: Sequence[Figure] = (),
    pieces: Sequence[Piece] = (),
    targets: Sequence[Figure] = (),
    keep_away: Sequence[tuple[Figure, float]] = (),
    radius: float = 3.0,
    link_clear: Optional[LinkTest] = None,
    contact_range: float = 1.0,
    link_max: Optional[float] = None,
    max_move: Optional[float] = None,
    stay: Sequence[Figure] = (),
    support_contact: bool = False,
    levels: Optional[Levels] = None,
    pieces_on: Optional[PiecesOn] = None,
) -> Placement:
    """Set ``movers`` around ``leader`` (already at its end spot); see the module notes.

    ``link_max``: a link also needs an edge-to-edge gap of at most this (chain coherency, e.g.
    2"); ``max_move``: a model may end at most this far (centre displacement) from where it
    stands — a necessary condition for a move of that length; ``levels`` /
    ``pieces_on(level)``: a spot's footprints to avoid are those of its level (instead of
    ``pieces``).

    ``stay``: models of the unit that do not move (pinned): they block like any base and count
    as already set for links. ``support_contact``: tier **B** is base contact with a model of
    the unit that is itself within ``contact_range`` of a target (StarCraft Close Ranks, §8.8.1)
    instead of being within ``contact_range`` of a target.
    """
    ground = Surroundings(leader, table, blockers, pieces, targets, keep_away, radius, contact_range, stay, levels, pieces_on)
    tc, tr = ground.tc, ground.tr
    lr = ground.lr
    placed = [(leader.at, lr)] + [(f.at, _radius(f)) for f in stay]

    def near_target(c: tuple[float, float], rad: float) -> bool:
        if not len(tc):
            return False
        return bool((np.hypot(*(tc - np.asarray(c)).T) - tr - rad).min() <= contact_range + TOUCH)

    supports = [(c, rad) for c, rad in placed if near_target(c, rad)]
    pos: dict[str, tuple[float, float]] = {}
    tiers: dict[str, str] = {}
    out: list[str] = []
    unplaced: dict[str, str] = {}
    on: dict[str, Optional[str]] = {}
    for m in movers:
        r = _radius(m)
        P, lv = ground.legal(ground.candidates(r, placed), r, placed[1 + len(stay):])
        if not len(P):
            unplaced[m.id] = "no legal spot: every spot overlaps a base or terrain, leaves the table or comes too near an enemy"
            continue
        if max_move is not None:
            near = np.hypot(*(P - np.array(m.at)).T) <= max_move + TOUCH
            P, lv = P[near], lv[near]
        pc = np.array([p for p, _ in placed], dtype=float)
        prad = np.array([pr for _, pr in placed])
        link = np.ones((len(P), len(pc)), dtype=bool)
        if link_max is not None:
            link &= np.linalg.norm(P[:, None, :] - pc[None, :, :], axis=2) - prad[None, :] - r <= link_max + TOUCH
        if link_clear is not None and len(P):
            a = np.repeat(P, len(pc), axis=0)
            b = np.tile(pc, (len(P), 1))
            link &= np.asarray(link_clear(a, b), dtype=np.bool_).reshape(len(P), len(pc))
        linked = link.any(axis=1)
        P, lv = P[linked], lv[linked]
        if not len(P):
            unplaced[m.id] = "no legal spot with a clear coherency link to the models already set"
            continue
        dl = np.hypot(*(P - np.array(leader.at)).T)
        wholly = ground.wholly(P, r)
        if len(tc):
            gt = ground.target_gaps(P, r)
            if support_contact:
                sc = np.array([c for c, _ in supports], dtype=float).reshape(-1, 2)
                sr = np.array([rad for _, rad in supports])
                gs = (np.linalg.norm(P[:, None, :] - sc[None, :, :], axis=2) - sr[None, :] - r).min(axis=1) if len(sc) else np.full(len(P), np.inf)
                tier = np.where(gt <= 10 * TOUCH, 0, np.where(gs <= 10 * TOUCH, 1, 2))
            else:
                tier = np.where(gt <= 10 * TOUCH, 0, np.where(gt <= contact_range + TOUCH, 1, 2))
        else:
            tier = np.full(len(P), 2)
        if wholly.any():
            P, dl, tier, lv = P[wholly], dl[wholly], tier[wholly], lv[wholly]
        else:
            out.append(m.id)
            tier = np.full(len(P), 2)
        k = int(np.lexsort((dl, tier))[0])
        x, y = float(P[k, 0]), float(P[k, 1])
        pos[m.id] = (x, y)
        tiers[m.id] = "ABC"[int(tier[k])]
        on[m.id] = lv[k]
        placed.append(((x, y), r))
        if near_target((x, y), r):
            supports.append(((x, y), r))
    return Placement(pos, tiers, tuple(out), unplaced, on)
