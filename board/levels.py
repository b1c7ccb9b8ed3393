"""Levels: the surfaces models stand on, and the Access Points that join them.

Seen from above, every point of the table lies in exactly one **cell**: the top of the highest
standing surface over it, or the ground. A surface's cell is its footprint less the footprints
of the surfaces above it, so two levels never cover the same point and the planes of the
levels ("one plane per level, joined at Access Points") can share one drawing:

* a **door** is a piece of the edge between two cells that an Access Point joins — the moving
  centre crosses it from one level to the other;
* every other piece of an edge between two cells is a **wall**: the centre keeps its clearance
  radius from it exactly as from an impassable footprint (:func:`Levels.obstacles`), so a path
  never changes level away from an Access Point, and a door is a gap like any other (Gap
  Clearance applies to it: a door narrower than twice the clearance cannot be passed).

With the walls among its obstacles, :class:`board.space.Space` *is* the layered configuration
space: :mod:`board.paths` climbs and descends with no change, :mod:`board.pathcheck` reports a
path crossing a wall as a change of level at the point where it crosses, and the cell a point
lies in (:meth:`Levels.surface_at`) says which level a centre stands on.

Which pieces are surfaces is a fact of the pieces (:func:`surface_ids`): Size 1+ pieces that
are ``standable``, that are Access Points themselves (a ramp: Mid Ground, entered and left only
through its Access Points), that an Access Point's ``joins`` names, or that an Access Point
without ``joins`` touches (a hill a ladder leads up). A rule system may add more (StarCraft:
the pieces the moving model already stands on).

Where an Access Point joins two levels (:class:`board.terrain.Join`): along its ``at`` polyline
(a door on the edge between them), or, without ``at``, wherever that edge lies within the
Access Point's footprint. Without ``joins`` an Access Point joins the level below it to every
surface whose edge it touches, and — when it is a surface itself — first the level below it to
itself (a ramp is then entered from the ground anywhere along its free edges: give ``joins``
to say exactly where its bottom and top are).

>>> from tapeline.board.table import Table
>>> from tapeline.board.terrain import Piece
>>> hill = Piece.rect("hill", 10, 0, 10, 10, size=3)
>>> ladder = Piece.rect("ladder", 9, 4, 1, 2, traits=frozenset({"access_point"}))
>>> lv = Levels(Table(20, 10, (hill, ladder)))
>>> lv.surfaces, [(d.a, d.b, round(d.line.length, 6)) for d in lv.doors]
(('hill',), [(None, 'hill', 2.0)])
>>> lv.surface_at([[5, 5], [15, 5]])
[None, 'hill']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, cast

import numpy as np
import shapely
from numpy.typing import ArrayLike
from shapely.geometry.base import BaseGeometry

from .errors import GeometryError
from .space import Obstacle
from .table import Table
from .terrain import Join, Piece

#: The ground's level id.
GROUND = None
#: How a file names the ground in an Access Point's ``joins``.
GROUND_NAME = "ground"
#: An Access Point (or an ``at`` polyline) closer than this to an edge touches it.
TOUCHING = 1e-6
#: Walls stop this short of a door's ends and of the table edge.
_CUT = 1e-9


class LevelError(GeometryError):
    """A ``joins`` entry that names no real edge: ``piece``, ``index`` (of ``joins``) and why."""

    def __init__(self, piece: str, index: int, message: str):
        self.piece, self.index, self.message = piece, index, message
        super().__init__(f"terrain {piece}: joins[{index}]: {message}")


@dataclass(frozen=True)
class Door:
    """Where Access Point ``via`` joins level ``a`` to level ``b`` (piece ids; ``None`` the
    ground): ``line``, lying on the edge between their cells."""

    via: str
    a: Optional[str]
    b: Optional[str]
    line: BaseGeometry

    def joins(self, x: Optional[str], y: Optional[str]) -> bool:
        return {self.a, self.b} == {x, y}


@dataclass(frozen=True)
class Wall:
    """A piece of edge between two cells that no Access Point opens: ``upper`` is the higher
    level beside it, ``lower`` the other."""

    upper: str
    lower: Optional[str]
    line: shapely.LineString


def _lines(geom: BaseGeometry) -> BaseGeometry:
    """The line parts of ``geom`` (an intersection may hold points too), merged."""
    parts = [q for g in shapely.get_parts(geom) for q in shapely.get_parts(g)]
    parts = [q for q in parts if shapely.get_type_id(q) in (1, 2) and not q.is_empty]
    if not parts:
        return shapely.MultiLineString([])
    return shapely.line_merge(shapely.MultiLineString([shapely.LineString(shapely.get_coordinates(p)) for p in parts]))


def _touches(ap: Piece, p: Piece) -> bool:
    """Does ``ap``'s footprint reach ``p``'s edge along a length (not only at a point)?"""
    return bool(shapely.length(_lines(shapely.intersection(shapely.boundary(p.footprint), shapely.buffer(ap.footprint, TOUCHING)))) > 1e-9)


def surface_ids(table: Table, extra: Iterable[str] = ()) -> frozenset[str]:
    """Ids of the pieces one stands on as a level of its own (see the module notes); ``extra``
    adds pieces (of Size 1+) for one mover."""
    more = set(extra)
    aps = [p for p in table.pieces if p.has("access_point")]
    named = {x for ap in aps for j in ap.joins for x in (j.a, j.b) if x is not None}
    out = set()
    for p in table.pieces:
        if p.size < 1:
            continue
        if p.has("standable") or p.has("access_point") or p.id in named or p.id in more:
            out.add(p.id)
        elif any(not ap.joins and ap.id != p.id and p.id not in {q.id for q in table.stack(ap.id)} and _touches(ap, p) for ap in aps):
            out.add(p.id)
    return frozenset(out)


def base_level(table: Table, piece: Piece, surfaces: frozenset[str]) -> Optional[str]:
    """The level a piece stands on: the first surface down its stack, else the ground."""
    for p in table.stack(piece.on):
        if p.id in surfaces:
            return p.id
    return GROUND


def inferred_joins(table: Table, ap: Piece, surfaces: frozenset[str]) -> tuple[Join, ...]:
    """The joins of an Access Point without ``joins`` (see the module notes)."""
    lower = base_level(table, ap, surfaces)
    below = {p.id for p in table.stack(ap.id)}
    touched = [p.id for p in table.pieces if p.id in surfaces and p.id not in below and _touches(ap, p)]
    if ap.id in surfaces:
        return (Join(lower, ap.id),) + tuple(Join(ap.id, s) for s in touched)
    return tuple(Join(lower, s) for s in touched if s != lower)


class Levels:
    """The table's cells, doors and walls for the surfaces ``surfaces`` (default
    :func:`surface_ids`). Raises :class:`LevelError` for a ``joins`` entry naming no edge.

    The levels are kept with the table (:attr:`board.table.Table.levels`), where
    :func:`levels_of` looks first: the levels a file's check builds are those a move's question
    then uses."""

    def __init__(self, table: Table, surfaces: Optional[Iterable[str]] = None):
        self.table = table
        sids = surface_ids(table) if surfaces is None else frozenset(surfaces)
        index = {p.id: i for i, p in enumerate(table.pieces)}
        # top first: higher Effective Size, then deeper in a stack, then later in the file
        order = sorted((table.piece(s) for s in sids), key=lambda p: (table.stack_size(p.id), len(table.stack(p.id)), index[p.id]), reverse=True)
        self.surfaces: tuple[str, ...] = tuple(p.id for p in sorted(order, key=lambda p: index[p.id]))
        self.rank: dict[Optional[str], int] = {p.id: len(order) - k for k, p in enumerate(order)}  # ground: 0
        self.rank[GROUND] = 0
        self.cells: dict[Optional[str], BaseGeometry] = {}
        covered: BaseGeometry = shapely.Polygon()
        board = table.outline
        for p in order:
            self.cells[p.id] = shapely.difference(shapely.intersection(p.footprint, board), covered)
            covered = shapely.union(covered, p.footprint)
        self.cells[GROUND] = shapely.difference(board, covered)
        self._bounds = {k: shapely.boundary(c) for k, c in self.cells.items()}
        ids = [k for k in self.cells if k is not GROUND]
        self._cell_ids = ids
        self._tree = shapely.STRtree([self.cells[k] for k in ids]) if ids else None
        self.doors: tuple[Door, ...] = tuple(self._doors(sids))
        self.walls: tuple[Wall, ...] = tuple(self._walls())
        table.levels.keep_levels(sids, self)

    # --- construction ----------------------------------------------------------------------

    def _doors(self, sids: frozenset[str]) -> list[Door]:
        out = []
        for ap in self.table.pieces:
            if not ap.has("access_point"):
                continue
            explicit = bool(ap.joins)
            joins = ap.joins if explicit else inferred_joins(self.table, ap, sids)
            for i, j in enumerate(joins):
                for x in (j.a, j.b):
                    if x is not None and x not in self.cells:
                        raise LevelError(ap.id, i, f"{x} is not a level one can stand on (Size 1+)")
                if j.a == j.b:
                    raise LevelError(ap.id, i, "an Access Point joins two different levels")
                shared = _lines(shapely.intersection(self._bounds[j.a], self._bounds[j.b]))
                exact = shapely.LineString(j.at) if j.at else ap.footprint
                line = _lines(shapely.intersection(shared, exact))
                if shapely.length(line) <= 1e-9:  # not exactly on the edge: within TOUCHING of it
                    limit = shapely.buffer(shapely.LineString(j.at) if j.at else ap.footprint, TOUCHING)
                    line = _lines(shapely.intersection(shared, limit))
                if shapely.length(line) <= 1e-9:
                    if explicit:
                        what = "the given at" if j.at else f"the footprint of {ap.id}"
                        raise LevelError(ap.id, i, f"{_name(j.a)} and {_name(j.b)} share no edge along {what}")
                    continue
                out.append(Door(ap.id, j.a, j.b, line))
        return out

    def _walls(self) -> list[Wall]:
        edges = shapely.union_all([b for k, b in self._bounds.items() if k is not GROUND])
        cut = [shapely.boundary(self.table.outline)] + [d.line for d in self.doors]
        edges = _lines(shapely.difference(_lines(edges), shapely.buffer(shapely.union_all(cut), _CUT)))
        out = []
        for line in shapely.get_parts(edges):
            if shapely.length(line) <= 1e-12:
                continue
            up, low = self._sides(line)
            out.append(Wall(cast(str, up), low, line))  # (a wall borders a surface's cell: up is one)
        return out

    def _sides(self, line: BaseGeometry) -> tuple[Optional[str], Optional[str]]:
        """The two cells beside a piece of edge, higher first (probed beside its longest segment)."""
        xy = shapely.get_coordinates(line)
        k = int(np.argmax(np.hypot(*(xy[1:] - xy[:-1]).T)))
        a, b = xy[k], xy[k + 1]
        m, d = (a + b) / 2, (b - a) / np.hypot(*(b - a))
        n = np.array([-d[1], d[0]]) * 1e-5
        s = self.surface_at([m + n, m - n])
        s = sorted(set(s), key=lambda x: -self.rank[x]) + [GROUND]
        return s[0], s[1]

    # --- queries ---------------------------------------------------------------------------

    def surface_at(self, pts: ArrayLike) -> list[Optional[str]]:
        """For each point, the level its cell belongs to (a piece id, ``None`` for the ground);
        a point on an edge counts as the higher cell."""
        pts = np.asarray(pts, dtype=float).reshape(-1, 2)
        out: list[Optional[str]] = [GROUND] * len(pts)
        if self._tree is None or not len(pts):
            return out
        gi, ci = self._tree.query(shapely.points(pts), predicate="intersects")
        for g, c in zip(gi.tolist(), ci.tolist()):
            k = self._cell_ids[c]
            if out[g] is GROUND or self.rank[k] > self.rank[out[g]]:
                out[g] = k
        return out

    def doors_between(self, a: Optional[str], b: Optional[str]) -> list[Door]:
        return [d for d in self.doors if d.joins(a, b)]

    def connected(self, start: Optional[str]) -> list[Optional[str]]:
        """The levels one can reach from ``start`` through Access Points (``start`` first, then
        in the order of :attr:`surfaces`, the ground as ``None``): the doors' graph only — whether
        a base fits through a door is the path search's question."""
        seen, todo = {start}, [start]
        while todo:
            here = todo.pop()
            for d in self.doors:
                for x, y in ((d.a, d.b), (d.b, d.a)):
                    if x == here and y not in seen:
                        seen.add(y)
                        todo.append(y)
        return [start] + [lv for lv in (GROUND, *self.surfaces) if lv in seen and lv != start]

    def obstacles(self, rho: float) -> list[Obstacle]:
        """The walls as :class:`board.space.Obstacle` s of kind ``"level"`` (id: the higher
        level beside the wall), grown by ``rho``."""
        return [Obstacle(w.upper, "level", w.line, float(rho)) for w in self.walls]


def _name(level: Optional[str]) -> str:
    return "the ground" if level is None else level


def levels_of(table: Table, extra: Iterable[str] = ()) -> Levels:
    """:class:`Levels` of ``table`` with the surfaces :func:`surface_ids` finds (and
    ``extra``), built once per set of surfaces and kept with the table
    (:class:`board.table.LevelsCache`)."""
    asked = frozenset(extra)
    sids = table.levels.surfaces(asked)
    if sids is None:
        sids = surface_ids(table, asked)
        table.levels.keep_surfaces(asked, sids)
    kept = table.levels.levels(sids)
    return kept if kept is not None else Levels(table, sids)


__all__ = ["GROUND", "GROUND_NAME", "Door", "Wall", "Levels", "LevelError", "levels_of", "surface_ids", "inferred_joins", "base_level"]
