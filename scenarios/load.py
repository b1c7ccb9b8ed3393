"""Loading a scenario file into a :class:`rules.state.GameState`, with located errors.

Every problem is reported with its place in the file (``units[2].models[0].at (line 14)``):
unreadable text, unknown keys, wrong types, non-finite numbers, duplicate ids, dangling
references (``profile``, ``on``, ``leader``), bad polygons, models off the table, bases
overlapping each other or impassable terrain, a model or piece standing ``on`` a piece it does
not overlap, and every reference of an action or expectation (:mod:`scenarios.validate`).

Hostile sizes are refused before any work: the reader's limits (:mod:`scenarios.yamlio`: bytes,
nesting, values, integer digits), then the counts of :mod:`scenarios.schema` (models, pieces,
polygon vertices, actions, expectations, rolls, board size, coordinates) — docs/reliability.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Optional, Union, Unpack, cast

import numpy as np
import pydantic
import shapely

from tapeline.board.arrays import Geoms
from tapeline.board.bases import Base, OvalBase, RoundBase
from tapeline.board.errors import GeometryError
from tapeline.board.levels import GROUND_NAME, LevelError, Levels
from tapeline.board.measure import gap, region_gap
from tapeline.board.table import Figure, Table
from tapeline.board.terrain import Join, Piece, PieceFacts
from tapeline.board.units import TOUCH
from tapeline.rules.dice import Dice, RecordedDice, SeededDice
from tapeline.rules.state import GameState, UnitState, frozen_map
from tapeline.rules.systems import RuleSystem, UnitEntry, UnitProblem, rules_for

from . import schema, validate, yamlio
from .errors import ScenarioError, escape_controls
from .limits import MAX_MODELS, MAX_VERTICES
from .schema import BaseSize, Footprint, Scenario, TerrainSpec
from .zones import Zone, off_table_by
from .suggest import hint
from .validate import Location


@dataclass(frozen=True)
class Loaded:
    """A loaded scenario: the validated file, the initial state and the dice it asks for."""

    file: str
    spec: Scenario
    state: GameState
    #: the file's ``zones:`` (deployment zones, objectives), in file order
    zones: tuple[Zone, ...] = ()

    def strict(self) -> "Loaded":
        """The same scenario in strict mode (setting ``strict_choices``: a choice left to its
        default is an error listing the legal options; :mod:`tapeline.rules.choices`)."""
        if self.spec.settings.strict_choices:
            return self
        settings = self.spec.settings.model_copy(update={"strict_choices": True})
        state = replace(self.state, settings=frozen_map(dict(self.state.settings) | {"strict_choices": True}))
        return replace(self, spec=self.spec.model_copy(update={"settings": settings}), state=state)

    def dice(self) -> Dice:
        d = self.spec.dice
        if d is None:
            return SeededDice(0)
        if d.rolls is not None:
            return RecordedDice(d.rolls)
        assert d.seed is not None  # exactly one of seed and rolls (the validator)
        return SeededDice(d.seed)


def _loc(path: Location) -> str:
    """``units[2].models[0].at``; a key of the file is written with its control characters
    escaped (a location is printed)."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{escape_controls(str(p))}" if out else escape_controls(str(p)))
    return out or "file"


class _Problems:
    def __init__(self, file: str, node: Optional[yamlio.Where]):
        self.file, self.node = file, node
        self.items: list[tuple[str, str]] = []

    def add(self, path: Location, message: str) -> None:
        line = yamlio.line_of(self.node, path) if self.node is not None else None
        self.items.append((_loc(path) + (f" (line {line})" if line else ""), message))

    def raise_if_any(self) -> None:
        if self.items:
            raise ScenarioError(self.file, self.items)


def _clean_loc(loc: Location) -> Location:
    """Drop pydantic's union-member names from an error location."""
    out: list[Union[str, int]] = []
    for i, p in enumerate(loc):
        if isinstance(p, str) and (p.startswith("function-") or p in ("tagged-union", "union")):
            continue
        if i >= 2 and isinstance(loc[i - 1], int) and loc[0] in ("actions", "expect") and i == 2:
            continue  # the discriminator tag right after the list index
        if p in ("float", "int", "str", "tuple[float, float]", "list[...]", "bool", "literal['E','BT','FT']"):
            continue
        if isinstance(p, str) and ("[" in p or p.startswith("constrained-")):
            continue
        out.append(p)
    return tuple(out)


#: The suffixes of a scenario file (in any case): YAML or JSON, as the format says.
SUFFIXES = (".yaml", ".yml", ".json")


def read(path: str | Path) -> Loaded:
    """Load and validate a scenario file; raises :class:`ScenarioError`. Only a regular file
    (:func:`scenarios.yamlio.read_text`) named ``.yaml``, ``.yml`` or ``.json`` is read: the
    suffix says which of the two the text is, and any other is refused, not guessed."""
    file = str(path)
    try:
        text = yamlio.read_text(file)
    except yamlio.TextError as e:
        raise ScenarioError(file, [(e.location, e.message)]) from None
    suffix = Path(file).suffix
    if suffix.lower() not in SUFFIXES:
        said = f"unknown file suffix {escape_controls(suffix)!r}" if suffix else "no file suffix"
        raise ScenarioError(file, [("file", f"{said}: a scenario file ends in .yaml or .yml (YAML) or .json (JSON)")])
    return parse(text, file, is_json=suffix.lower() == ".json")


def parse(text: str, file: str = "<scenario>", is_json: bool = False) -> Loaded:
    try:
        data, where = yamlio.parse(text, is_json)
    except yamlio.TextError as e:
        raise ScenarioError(file, [(e.location, e.message)]) from None
    probs = _Problems(file, where)
    if not isinstance(data, dict):
        probs.add((), "the file must hold a mapping with tapeline, system, board, units ...")
        probs.raise_if_any()
    _check_sizes(data, probs)
    probs.raise_if_any()
    try:
        spec = schema.validate(data)
    except pydantic.ValidationError as e:
        for loc, msg in schema_problems(e.errors(include_url=False)):
            probs.add(loc, msg)
        probs.raise_if_any()
    state = build_state(spec, probs)
    probs.raise_if_any()
    assert state is not None  # none only with problems, raised just now
    zones = _zones(spec, state.table, probs)
    probs.raise_if_any()
    for path, message in validate.problems(spec, state):
        probs.add(path, message)
    probs.raise_if_any()
    return Loaded(file, spec, state, zones)


def schema_problems(errors: Sequence[Mapping[str, Any]]) -> list[tuple[Location, str]]:
    """pydantic's errors as (location, message). Where a value may take several forms (a
    number or a list, say) and one form came closer, the other forms' "wrong type" errors are
    left out: ``speed: []`` reports the list that is too short, not that it is no integer."""
    items = [(_clean_loc(tuple(err["loc"])), err) for err in errors]
    specific = [loc for loc, err in items if not err["type"].endswith("_type")]
    out = []
    for loc, err in items:
        if err["type"].endswith("_type") and any(s[: len(loc)] == loc for s in specific):
            continue
        if (loc, _clean_msg(err)) not in out:
            out.append((loc, _clean_msg(err)))
    return out


def _clean_msg(err: Mapping[str, Any]) -> str:
    if err["type"] == "extra_forbidden":
        return "unknown key (check the spelling)"
    msg: str = err["msg"]
    return msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")


def _count(data: Any, key: str) -> int:
    v = data.get(key) if isinstance(data, dict) else None
    return len(v) if isinstance(v, list) else 0


def _check_sizes(data: dict[str, Any], probs: _Problems) -> None:
    """The limits that span several lists (the schema bounds each list on its own)."""
    units = data.get("units")
    units = units if isinstance(units, list) else []
    n_models = sum(_count(u, "models") for u in units if isinstance(u, dict))
    if n_models > MAX_MODELS:
        probs.add(("units",), f"{n_models} models in all; the limit is {MAX_MODELS}")
    terrain = [t for key in ("terrain", "zones") if isinstance(data.get(key), list) for t in data[key]]
    nv = sum(
        len(t["footprint"]["polygon"])
        for t in terrain
        if isinstance(t, dict) and isinstance(t.get("footprint"), dict) and isinstance(t["footprint"].get("polygon"), list)
    )
    if nv > MAX_VERTICES:
        probs.add(("terrain",), f"{nv} polygon vertices in all (terrain and zones); the limit is {MAX_VERTICES}")


def _first_dup(ids: list[str]) -> dict[int, str]:
    seen: set[str] = set()
    dups: dict[int, str] = {}
    for i, x in enumerate(ids):
        if x in seen:
            dups[i] = x
        seen.add(x)
    return dups


def _pieces(spec: Scenario, probs: _Problems) -> list[Piece]:
    ids = [t.id for t in spec.terrain]
    for i, x in _first_dup(ids).items():
        probs.add(("terrain", i, "id"), f"duplicate terrain id {x!r}")
    pieces = []
    for i, t in enumerate(spec.terrain):
        if t.on is not None and t.on not in ids:
            probs.add(("terrain", i, "on"), f"no terrain piece with id {t.on!r}" + hint(t.on, ids))
        if t.on == t.id:
            probs.add(("terrain", i, "on"), "a piece cannot stand on itself")
        kw = PieceFacts(size=t.size, height=t.height, on=t.on, traits=frozenset(t.traits), joins=_joins(t, i, ids, probs))
        try:
            pieces.append(footprint_piece(t.id, t.footprint, **kw))
        except GeometryError as e:
            probs.add(("terrain", i, "footprint"), str(e).split(": ", 1)[-1])
    # a piece stands on one it overlaps
    built = {p.id: p for p in pieces}
    for i, t in enumerate(spec.terrain):
        below = built.get(t.on) if t.on is not None else None
        if below is not None and t.id in built and t.on != t.id:
            if shapely.intersection(built[t.id].footprint, below.footprint).area <= 0:
                probs.add(("terrain", i, "on"), f"{t.id} stands on {t.on} but does not overlap it")
    # stacking cycles
    by = {t.id: t.on for t in spec.terrain}
    for i, t in enumerate(spec.terrain):
        seen: set[str] = set()
        cur: Optional[str] = t.id
        while cur is not None and cur in by:
            if cur in seen:
                probs.add(("terrain", i, "on"), f"stacking loops back to {cur!r}")
                break
            seen.add(cur)
            cur = by[cur]
    return pieces


def footprint_piece(id: str, fp: Footprint, **kw: Unpack[PieceFacts]) -> Piece:
    """The piece of footprint ``fp`` (a rect, a polygon or a circle; a :class:`GeometryError`
    for an impossible one): a terrain piece's, and a zone's shape."""
    if fp.rect is not None:
        return Piece.rect(id, *fp.rect, **kw)
    if fp.circle is not None:
        return Piece.disc(id, *fp.circle, **kw)
    assert fp.polygon is not None  # exactly one of rect, polygon, circle (the validator)
    return Piece.poly(id, fp.polygon, **kw)


def _zones(spec: Scenario, table: Table, probs: _Problems) -> tuple[Zone, ...]:
    """The file's ``zones:``: unique ids, a side some unit has (any side in a file without
    units: a bare layout), a footprint that is a shape and lies on the table."""
    for i, x in _first_dup([z.id for z in spec.zones]).items():
        probs.add(("zones", i, "id"), f"duplicate zone id {x!r}")
    sides = sorted({u.side for u in spec.units})
    out = []
    for i, z in enumerate(spec.zones):
        if sides and z.side not in sides:
            probs.add(("zones", i, "side"), f"no unit has side {z.side!r} (sides: {', '.join(sides)})" + hint(z.side, sides))
        try:
            shape = footprint_piece(z.id, z.footprint)
        except GeometryError as e:
            probs.add(("zones", i, "footprint"), str(e).split(": ", 1)[-1])
            continue
        off = off_table_by(shape, table)
        if off > TOUCH:
            probs.add(("zones", i, "footprint"), f"zone {z.id} lies off the table by {off:.6g}\"")
        out.append(Zone(z.id, z.side, shape))
    return tuple(out)


def _joins(t: TerrainSpec, i: int, ids: list[str], probs: _Problems) -> tuple[Join, ...]:
    """A piece's ``joins`` as :class:`board.terrain.Join` values (``ground`` is the ground)."""
    if t.joins is None:
        return ()
    if "access_point" not in t.traits:
        probs.add(("terrain", i, "joins"), "only an Access Point joins levels: add the trait access_point")
        return ()
    out = []
    for j, js in enumerate(t.joins):
        names: list[Optional[str]] = []
        for k, name in enumerate(js.levels):
            if name == GROUND_NAME:
                names.append(None)
            elif name in ids:
                names.append(name)
            else:
                probs.add(("terrain", i, "joins", j, "levels", k), f"no terrain piece with id {name!r} (or {GROUND_NAME!r} for the ground)")
        if len(names) == 2:
            out.append(Join(names[0], names[1], tuple(js.at) if js.at else None))
    return tuple(out)


def _check_levels(spec: Scenario, table: Table, probs: _Problems) -> None:
    """Every ``joins`` entry names two levels that share an edge where it says (a located
    error otherwise)."""
    if not any(p.has("access_point") for p in table.pieces):
        return
    try:
        Levels(table)
    except LevelError as e:
        i = next(k for k, t in enumerate(spec.terrain) if t.id == e.piece)
        probs.add(("terrain", i, "joins", e.index), e.message)


def _base(size: BaseSize, facing: float) -> Base:
    if isinstance(size, tuple):
        return OvalBase(size[0], size[1], facing)
    return RoundBase(size)


def build_state(spec: Scenario, probs: _Problems) -> Optional[GameState]:
    """Check the static part's references and geometry and make the initial state."""
    pieces = _pieces(spec, probs)
    table = Table(spec.board.width, spec.board.height, tuple(pieces))
    if not probs.items:
        _check_levels(spec, table, probs)
    rules = rules_for(spec.system)
    terrain_ids = {t.id for t in spec.terrain}
    unit_ids = [u.id for u in spec.units]
    for i, x in _first_dup(unit_ids).items():
        probs.add(("units", i, "id"), f"duplicate unit id {x!r}")
    model_ids = [(i, j, m.id) for i, u in enumerate(spec.units) for j, m in enumerate(u.models)]
    seen: set[str] = set()
    for i, j, mid in model_ids:
        if mid in seen:
            probs.add(("units", i, "models", j, "id"), f"duplicate model id {mid!r}")
        seen.add(mid)

    units: list[UnitState] = []
    figures: dict[str, Figure] = {}
    where: dict[str, tuple[int, int]] = {}
    for i, u in enumerate(spec.units):
        stats = u.stats.model_dump(exclude_none=True) if u.stats is not None else {}
        try:
            info = rules.unit_info(UnitEntry(u.id, u.profile, u.size, u.base, u.tags, stats))
        except UnitProblem as e:
            probs.add(("units", i) + (e.field if isinstance(e.field, tuple) else (e.field,)), e.message)
            continue
        for bad in sorted(set(u.status) - rules.statuses):
            probs.add(("units", i, "status"), f"unknown status {bad!r} for {spec.system} (known: {', '.join(sorted(rules.statuses))})")
        if u.tags is not None and rules.tags is not None:
            for bad in sorted({t.lower() for t in u.tags} - rules.tags):
                probs.add(("units", i, "tags"), f"unknown Combat Tag {bad!r} (known: {', '.join(sorted(rules.tags))})")
        own_ids = {m.id for m in u.models}
        for mid in (u.stats.models or {}) if u.stats is not None else ():
            if mid not in own_ids:
                probs.add(("units", i, "stats", "models", mid), f"{mid!r} is not a model of unit {u.id!r}")
        if u.leader is not None and u.leader not in {m.id for m in u.models}:
            probs.add(("units", i, "leader"), f"leader {u.leader!r} is not a model of unit {u.id!r}"
                      + hint(u.leader, [m.id for m in u.models]))
        for path, msg in rules.unit_problems(info.stats):  # the profile's kit and the file's
            probs.add(("units", i) + tuple(path), msg)
        for path, msg in _trait_problems(rules, stats):
            probs.add(("units", i, "stats") + path, msg)
        for j, m in enumerate(u.models):
            size = m.base if m.base is not None else info.base
            if size is None:
                probs.add(("units", i, "models", j, "base"), "no base size: give base here, on the unit, or a profile")
                continue
            if m.on is not None and m.on not in terrain_ids:
                probs.add(("units", i, "models", j, "on"), f"no terrain piece with id {m.on!r}" + hint(m.on, terrain_ids))
                continue
            try:
                base = _base(tuple(size) if isinstance(size, (list, tuple)) else size, m.facing)
            except GeometryError as e:
                probs.add(("units", i, "models", j, "base"), str(e))
                continue
            height = m.height if m.height is not None else info.height
            fig = Figure(m.id, u.id, u.side, base, float(m.at[0]), float(m.at[1]), m.on, height)
            figures[m.id] = fig
            where[m.id] = (i, j)
            if not table.on_table(fig):
                probs.add(("units", i, "models", j, "at"), f"model {m.id} is off the table by {-table.edge_margin(fig):.6g}\"")
            elif m.on is not None and m.on in table.by_id:
                g = region_gap(fig, table.piece(m.on).footprint)
                if g >= -TOUCH:
                    probs.add(("units", i, "models", j, "on"), f"the base of {m.id} stands on {m.on} but does not overlap it (gap {g:.6g}\")")
        units.append(
            UnitState(
                id=u.id, side=u.side, models=tuple(m.id for m in u.models), profile=info.profile,
                size=info.size, tags=frozenset(info.tags), status=frozenset(u.status), leader=u.leader,
                stats=frozen_map(info.stats), started_with=len(u.models),
            )
        )
    if probs.items:
        return None
    _check_overlaps(table, list(figures.values()), where, rules.impassable, probs)
    return GameState(spec.system, table, tuple(units), frozen_map(figures), frozen_map(spec.settings.model_dump()))


#: Where a weapon profile of ``stats`` lists its traits: StarCraft's ``keywords``, Horus Heresy's
#: and 40k's ``traits``.
_TRAIT_FIELDS = {"weapons": "keywords", "melee_weapons": "traits", "ranged_weapons": "traits"}


def _trait_problems(rules: RuleSystem, stats: Mapping[str, Any]) -> list[tuple[Location, str]]:
    """Every weapon trait of the unit's profiles that the system does not read (a typo such as
    ``breeching`` would otherwise be ignored), with the closest it knows."""
    out: list[tuple[Location, str]] = []
    for profiles, known in rules.weapon_traits.items():
        field = _TRAIT_FIELDS[profiles]
        word = "keyword" if field == "keywords" else "trait"
        for wname, spec in (stats.get(profiles) or {}).items():
            for t in spec.get(field) or {}:
                if t in known:
                    continue
                if known:
                    msg = f"unknown weapon {word} {t!r}{hint(t, known)} ({rules.name} reads: {', '.join(sorted(known))})"
                else:
                    msg = f"unknown weapon {word} {t!r}: system {rules.name} reads no {word}s of {profiles}"
                out.append(((profiles, wname, field, t), msg))
    return out


def _check_overlaps(table: Table, figs: list[Figure], where: Mapping[str, tuple[int, int]],
                    impassable: Callable[[Piece], bool], probs: _Problems) -> None:
    """Bases overlapping each other or impassable terrain by more than :data:`TOUCH`.

    Only pairs whose bounding discs overlap are measured (a spatial index finds them): no base
    reaches farther from its centre than ``base.reach``, so every other pair has a gap of at
    least ``centre distance − reach − reach ≥ 0``. Round pairs are measured in closed form, a
    pair with an oval by :func:`board.measure.gap`; problems come in the order of the pairs.
    """
    if not figs:
        return
    for a, b, g in _overlapping_pairs(figs):
        i, j = where[figs[b].id]
        probs.add(("units", i, "models", j, "at"), f"base of {figs[b].id} overlaps {figs[a].id} by {-g:.6g}\"")
    blocking = [k for k, p in enumerate(table.pieces) if impassable(p)]
    if not blocking:
        return
    boxes = shapely.box(*np.array([(f.x - f.base.reach, f.y - f.base.reach, f.x + f.base.reach, f.y + f.base.reach)
                                   for f in figs]).T)
    fig_idx, piece_idx = table.tree.query(boxes)  # footprints whose envelope meets the base's box
    near: dict[int, set[int]] = {}
    for fi, pi in zip(fig_idx.tolist(), piece_idx.tolist()):
        near.setdefault(fi, set()).add(pi)
    blocked = set(blocking)
    for k, f in enumerate(figs):
        cand = sorted(near.get(k, set()) & blocked)
        if not cand:
            continue
        allowed = {p.id for p in table.stack(f.on)}
        for pi in cand:
            p = table.pieces[pi]
            if p.id in allowed or not shapely.intersects(f.polygon, p.footprint):
                continue
            depth = -region_gap(f, p.footprint)
            if depth > TOUCH:
                i, j = where[f.id]
                probs.add(("units", i, "models", j, "at"), f"base of {f.id} overlaps impassable terrain {p.id} by {depth:.6g}\"")


def _overlapping_pairs(figs: list[Figure]) -> list[tuple[int, int, float]]:
    """``(a, b, gap)`` for every pair ``a < b`` of bases overlapping by more than TOUCH, in order."""
    centres = np.array([f.at for f in figs], dtype=float).reshape(-1, 2)
    reach = np.array([f.base.reach for f in figs], dtype=float)
    points = cast(Geoms, shapely.points(centres))
    a, b = shapely.STRtree(points).query(points, predicate="dwithin", distance=2 * float(reach.max()))
    keep = a < b
    a, b = a[keep], b[keep]
    d = np.linalg.norm(centres[a] - centres[b], axis=1)
    close = d - reach[a] - reach[b] < -TOUCH  # else the gap is at least -TOUCH
    a, b, d = a[close], b[close], d[close]
    order = np.lexsort((b, a))
    out = []
    for x, y, dist in zip(a[order].tolist(), b[order].tolist(), d[order].tolist()):
        fa, fb = figs[x], figs[y]
        g = dist - fa.base.radius - fb.base.radius if fa.is_round and fb.is_round else gap(fa, fb)
        if g < -TOUCH:
            out.append((x, y, g))
    return out
