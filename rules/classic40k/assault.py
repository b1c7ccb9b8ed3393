"""Moving into an assault, 40k 3rd edition (seed "Moving Into An Assault", "Terrain Effects",
"Who Can Fight"; §B.1).

* **Who may assault**: a unit within 6" of an enemy unit (the nearest two bases, edge to edge),
  not already fighting (no model within 2" of an enemy), not falling back, pinned or gone to
  ground, and not having fired heavy or rapid-fire weapons while stationary (status
  ``fired_heavy``) or arrived by deep strike this turn (``deep_struck``). Several units may be
  assaulted at once when each is within 2" of another of them.
* **The move**: each model moves up to 6" by its own shortest legal path (round impassable
  terrain and every model not of its unit; it may pass through its own unit's models). A model
  whose path goes into, out of or through difficult terrain — its base touches a ``difficult``
  piece anywhere along the way — moves at most the highest of 2D6, rolled once for the unit when
  a model needs it (a route round the difficult terrain within 6" needs no roll).
* **As many models into contact as possible**: the end spots in base contact come from the
  exact search of :mod:`tapeline.rules.contact_search` (candidate spots on each target model's
  contact ring, depth-first over the models, nearest first); every other model then moves as
  close as it can towards the enemy, in coherency (2") with a model already moved
  (:func:`tapeline.rules.unit_move.move_models`). No base ends touching an enemy unit that was
  not assaulted. Every path is checked by the path validator (:func:`board.pathcheck.check_path`)
  with the model's allowance and the end-spot rules.
* A file may give models' paths itself (``moves``): each is checked the same way, and the
  assault is refused if fewer models end in base contact than the search shows possible.
* If no model reaches base contact the assault falls short: the models still move (as close as
  they can), but no combat follows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Optional, Sequence, TypedDict

import shapely
from shapely.geometry.base import BaseGeometry

from tapeline.board.errors import GeometryError
from tapeline.board.measure import gap, gap_matrix, region_gap
from tapeline.board.pathcheck import Violation, check_end, check_path
from tapeline.board.paths import Leg, Path, Reach
from tapeline.board.space import Space
from tapeline.board.table import Figure
from tapeline.board.terrain import Piece
from tapeline.board.units import TOUCH

from ..charge_geometry import MoveRules, end_region, near_group, radius, space_for
from ..contact_search import Blocker, Mover, SearchResult, Spot, most_contacts
from ..dice import Dice
from ..errors import IllegalAction
from ..state import GameState
from ..unit_move import CHAIN_LINK, CONTACT_SLACK, ModelMove, move_models
from .engagement import FIGHT_DISTANCE

RULE = "40k 3rd Moving Into An Assault"
ASSAULT_MOVE = 6.0
#: Statuses that forbid an assault, with the reason.
NO_ASSAULT = {
    "falling_back": "is falling back",
    "pinned": "is pinned",
    "gone_to_ground": "has gone to ground",
    "fired_heavy": "fired heavy or rapid-fire weapons while stationary this turn",
    "deep_struck": "arrived by deep strike this turn",
}


#: A model's way to a spot: its path, the allowance it is measured against and the move rules
#: of the space it runs in (round difficult terrain, or through it).
Way = tuple[Path, float, MoveRules]


def difficult_pieces(state: GameState) -> tuple[Piece, ...]:
    return tuple(p for p in state.table.pieces if p.has("difficult"))


def touches_difficult(state: GameState, fig: Figure, points: Sequence[Sequence[float]]) -> list[str]:
    """The difficult pieces a base touches moving along ``points`` (its centre's polyline),
    starting and ending spots included: into, out of or through (seed "Terrain Effects")."""
    pieces = difficult_pieces(state)
    if not pieces:
        return []
    line: BaseGeometry = shapely.LineString(points) if len(points) > 1 else shapely.Point(points[0])
    r = radius(fig)
    return [p.id for p in pieces if float(shapely.distance(line, p.footprint)) < r - TOUCH]


def check_eligible(state: GameState, unit_id: str, targets: Sequence[str]) -> None:
    """Raise :class:`IllegalAction` naming the rule when ``unit_id`` may not assault ``targets``."""
    if not state.has_unit(unit_id) or not state.unit(unit_id).models:
        raise IllegalAction(RULE, f"{unit_id!r} has no models on the table")
    u = state.unit(unit_id)
    if not targets:
        raise IllegalAction(RULE, "declare at least one enemy unit to assault")
    for t in targets:
        if not state.has_unit(t) or state.unit(t).side == u.side or not state.unit(t).models:
            raise IllegalAction(RULE, f"{t!r} is not an enemy unit on the table")
    for s, why in NO_ASSAULT.items():
        if s in u.status:
            raise IllegalAction(RULE, f"{unit_id} {why} and may not assault")
    mine = state.figures_of(unit_id)
    for e in state.enemies_of(unit_id):
        g = float(gap_matrix(mine, state.figures_of(e.id)).min())
        if g <= FIGHT_DISTANCE + TOUCH:
            raise IllegalAction(RULE, f"{unit_id} is already in close combat ({g:.6g}\" from {e.id}) and may not assault")
    for t in targets:
        g = float(gap_matrix(mine, state.figures_of(t)).min())
        if g > ASSAULT_MOVE + TOUCH:
            raise IllegalAction(RULE, f"{t} is {g:.6g}\" from {unit_id}: only a unit within 6\" of the enemy can assault it "
                                      f"(beyond by {g - ASSAULT_MOVE:.6g}\")")
    if len(targets) > 1:
        for t in targets:
            near = min(float(gap_matrix(state.figures_of(t), state.figures_of(o)).min()) for o in targets if o != t)
            if near > 2.0 + TOUCH:
                raise IllegalAction(RULE, f"target {t} is {near:.6g}\" from the other targets: several units may be assaulted "
                                          "together only when each is within 2\" of another")


@dataclass
class _Model:
    """One assaulting model's two configuration spaces: round difficult terrain (6", no roll)
    and through it (the roll)."""

    fig: Figure
    clear_rules: MoveRules
    through_rules: MoveRules
    clear: Optional[Reach]
    through: Optional[Reach]
    allowance: float = ASSAULT_MOVE
    cache: dict[tuple[float, float, Optional[int]], Optional[Way]] = field(default_factory=dict)

    def path_to(self, x: float, y: float, roll: Optional[int]) -> Optional[Way]:
        """(path, allowance, space rules) of the model's best legal path to ``(x, y)`` within
        its allowance, or ``None``."""
        key = (round(x, 12), round(y, 12), roll)
        if key in self.cache:
            return self.cache[key]
        out: Optional[Way] = None
        d = math.hypot(x - self.fig.x, y - self.fig.y)
        if self.clear is not None and d <= self.allowance + 1e-9:
            p = _path(self.clear, x, y)
            if p is not None and p.length <= self.allowance + 1e-9:
                out = (p, self.allowance, self.clear_rules)
        if out is None and roll is not None and self.through is not None and d <= roll + 1e-9:
            p = _path(self.through, x, y)
            if p is not None and p.length <= roll + 1e-9:
                out = (p, float(roll), self.through_rules)
        self.cache[key] = out
        return out


def _path(reach: Reach, x: float, y: float) -> Optional[Path]:
    """The shortest path to a point: the straight segment when it is clear, else the graph's."""
    sp = reach.space
    if sp.point_margin([(x, y)])[0][0] >= 0 and sp.clear_segments([reach.start], [(x, y)])[0]:
        return Path(reach.start, (Leg("line", reach.start, (x, y)),), math.dist(reach.start, (x, y)))
    return reach.to_point((x, y))


def _rules(state: GameState, unit_id: str, fig: Figure, targets: Sequence[str], avoid: Sequence[Piece]) -> MoveRules:
    rho = radius(fig)
    own = {p.id for p in state.table.stack(fig.on)}
    blocked = tuple(p for p in state.table.pieces if p.id not in own and (p.has("impassable") or p in avoid))
    others = tuple(f for f in state.all_figures() if f.unit != unit_id)
    side = state.unit(unit_id).side
    keep = tuple((f, 0.0) for f in others if f.unit not in targets and state.unit(f.unit).side != side)
    impassable = tuple(p for p in state.table.pieces if p.id not in own and p.has("impassable"))
    return MoveRules(rho, rho, blocked, others, impassable, others, keep)


def _models(state: GameState, unit_id: str, targets: Sequence[str], allowance: float = ASSAULT_MOVE,
            models: Optional[Sequence[str]] = None, avoid_difficult: bool = True) -> list[_Model]:
    """Each model's spaces: round difficult terrain (``allowance``) and through it (the roll).
    ``avoid_difficult`` false: difficult terrain is no obstacle at all (one space)."""
    diff = difficult_pieces(state) if avoid_difficult else ()
    spaces: dict[tuple[float, float, tuple[Piece, ...], tuple[Figure, ...]], Space] = {}
    out: list[_Model] = []
    for f in state.figures_of(unit_id):
        if models is not None and f.id not in models:
            continue
        cr, tr = _rules(state, unit_id, f, targets, diff), _rules(state, unit_id, f, targets, ())
        reaches: list[Optional[Reach]] = []
        for rules in (cr, tr):
            key = (rules.rho, rules.edge, rules.path_pieces, rules.path_figures)
            sp = spaces.get(key)
            if sp is None:
                sp = spaces[key] = space_for(state, rules)
            try:
                reaches.append(Reach(sp, f.at))
            except GeometryError:
                reaches.append(None)
        out.append(_Model(f, cr, tr, reaches[0], reaches[1], float(allowance)))
    return out


def _contact_route(state: GameState, m: _Model, targets: Sequence[str], through: bool) -> Optional[Path]:
    reach = m.through if through else m.clear
    if reach is None:
        return None
    rules = m.through_rules if through else m.clear_rules
    goal = [f for t in targets for f in state.figures_of(t)]
    return reach.to_region(end_region(state, m.fig, rules, [near_group(radius(m.fig), goal, CONTACT_SLACK)]))


def needs_roll(state: GameState, unit_id: str, targets: Sequence[str], models: Optional[list[_Model]] = None) -> bool:
    """Does a model need difficult terrain to reach base contact (the roll is then made)?"""
    if not difficult_pieces(state):
        return False
    for m in models or _models(state, unit_id, targets):
        clear = _contact_route(state, m, targets, False)
        if clear is not None and clear.length <= ASSAULT_MOVE + TOUCH:
            continue
        through = _contact_route(state, m, targets, True)
        if through is not None and through.length <= ASSAULT_MOVE + TOUCH and touches_difficult(state, m.fig, through.points()):
            return True
    return False


def _blockers(state: GameState, unit_id: str, targets: Sequence[str]) -> list[Blocker]:
    side = state.unit(unit_id).side
    out: list[Blocker] = []
    for f in state.all_figures():
        if f.unit == unit_id:
            continue
        ok = f.unit in targets or state.unit(f.unit).side == side
        out.append(Blocker(f.x, f.y, radius(f), ok))
    for p in state.table.pieces:
        if p.has("impassable") and p.circle is not None:
            out.append(Blocker(p.circle[0], p.circle[1], p.circle[2], True))
    return out


def _legal_end(state: GameState, unit_id: str) -> Callable[[Mover, float, float], bool]:
    polys = [p for p in state.table.pieces if p.has("impassable") and p.circle is None]

    def legal(mover: Mover, x: float, y: float) -> bool:
        f = mover.fig.moved(x, y, None)
        return all(region_gap(f, p.footprint) >= -TOUCH for p in polys if p.id not in {q.id for q in state.table.stack(mover.fig.on)})

    return legal


class SearchSummary(TypedDict):
    """What the search for the most models in base contact found."""

    contacts_possible: int
    nodes: int
    exhaustive: bool


@dataclass
class AssaultMove:
    """What the assault move did."""

    roll: Optional[int]
    rolls: list[int]
    contacts: list[str]
    moves: list[ModelMove]
    search: SearchSummary
    success: bool

    def as_json(self) -> dict[str, Any]:
        return {"roll": self.roll, "rolls": list(self.rolls), "success": self.success, "in_contact": list(self.contacts),
                "moves": [m.as_json() for m in self.moves], "search": dict(self.search)}


def _validated(state: GameState, m: _Model, path: Path, allowance: float, rules: MoveRules, placed: Sequence[Figure], how: str,
               goal: Sequence[Figure]) -> Optional[ModelMove]:
    pts = path.points()
    poly_len = sum(math.dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1))
    space = space_for(state, rules)
    own = [p for p in placed if p.id != m.fig.id]
    end = path.end

    def end_check(x: float, y: float) -> Optional[Violation]:
        return check_end(state.table, m.fig.moved(x, y, None), tuple(rules.end_figures) + tuple(own), rules.end_pieces, rules.keep_away)

    chk = check_path(space, pts, allowance + max(0.0, poly_len - path.length), end_check)
    if not chk.legal:
        return None
    moved = m.fig.moved(end[0], end[1], None)
    g = min((gap(moved, t) for t in goal), default=0.0)
    linked = not own or min(gap(moved, o) for o in own) <= CHAIN_LINK + TOUCH
    return ModelMove(m.fig.id, m.fig.at, (end[0], end[1]), tuple(pts), path.length, how, chk, max(0.0, g), linked)


def plan_contacts(state: GameState, unit_id: str, targets: Sequence[str], roll: Optional[int], fixed: Sequence[str] = (),
                  models: Optional[list[_Model]] = None, goal: Optional[Sequence[Figure]] = None) -> SearchResult:
    """The search for the most models in base contact with ``goal`` (default: every model of
    ``targets``); ``fixed``: models already placed."""
    models = models if models is not None else _models(state, unit_id, targets)
    goal = list(goal) if goal is not None else [f for t in targets for f in state.figures_of(t)]
    movers: list[Mover] = []
    for m in models:
        if m.fig.id in fixed:
            continue
        mm = m

        def reach(x: float, y: float, mm: _Model = mm) -> bool:
            return mm.path_to(x, y, roll) is not None

        movers.append(Mover(m.fig, max(m.allowance, float(roll or 0)), reach))
    blockers = _blockers(state, unit_id, targets)
    for fid in fixed:
        f = state.figure(fid)
        blockers.append(Blocker(f.x, f.y, radius(f), True))
    W, H = state.table.width, state.table.height
    return most_contacts(movers, goal, blockers, (0.0, 0.0, W, H), _legal_end(state, unit_id))


def place_contacts(state: GameState, by_id: Mapping[str, _Model], spots: Mapping[str, Spot], roll: Optional[int],
                   placed: Sequence[Figure], goal: Sequence[Figure]) -> tuple[list[ModelMove], list[Figure]]:
    """Move the models the search put in base contact to their spots, nearest first, each path
    checked by the validator (a model whose path fails stays for the followers' pass)."""
    moves: list[ModelMove] = []
    out = list(placed)
    for mid, (x, y, _tid) in sorted(spots.items(), key=lambda kv: math.hypot(kv[1][0] - by_id[kv[0]].fig.x, kv[1][1] - by_id[kv[0]].fig.y)):
        m = by_id[mid]
        found = m.path_to(x, y, roll)
        mv = _validated(state, m, found[0], found[1], found[2], out, "contact", goal) if found else None
        if mv is None:
            continue
        moves.append(mv)
        out.append(m.fig.moved(mv.end[0], mv.end[1], None))
    return moves, out


def assault_move(state: GameState, unit_id: str, targets: Sequence[str], dice: Optional[Dice] = None,
                 given: Optional[Mapping[str, Sequence[Sequence[float]]]] = None,
                 roll: Optional[int] = None) -> tuple[GameState, AssaultMove]:
    """Move ``unit_id`` into an assault on ``targets`` (see the module notes); ``given``: model
    → its centre's path (points after its start) as the file gives it; ``roll``: the highest
    of the 2D6 when known (else rolled with ``dice`` if a model needs it)."""
    targets = tuple(targets)
    check_eligible(state, unit_id, targets)
    models = _models(state, unit_id, targets)
    by_id = {m.fig.id: m for m in models}
    rolls: list[int] = [] if roll is None else [roll]
    if roll is None and needs_roll(state, unit_id, targets, models):
        if dice is None:
            raise IllegalAction(RULE, "a model must cross difficult terrain: give the roll (the highest of 2D6)")
        rolls = dice.roll(2, f"assault through difficult terrain ({unit_id}, 2D6 take the highest)")
        roll = max(rolls)
    goal = [f for t in targets for f in state.figures_of(t)]
    moves: list[ModelMove] = []
    placed: list[Figure] = []
    new = state
    given = dict(given or {})
    for mid, pts in given.items():
        if mid not in by_id:
            raise IllegalAction(RULE, f"{mid} is not a model of {unit_id}")
        mv = _given_move(state, by_id[mid], pts, roll, placed, goal)
        moves.append(mv)
        placed.append(by_id[mid].fig.moved(mv.end[0], mv.end[1], None))
    best = plan_contacts(state, unit_id, targets, roll, (), models)
    if given:
        done = sum(1 for mv in moves if mv.contact)
        others = plan_contacts(state.with_figures(placed), unit_id, targets, roll, tuple(given), models=[m for m in models if m.fig.id not in given])
        if done + len(others.spots) < len(best.spots):
            raise IllegalAction("40k 3rd Who Can Fight", f"the assaulting player must move as many models into contact as possible: "
                                                         f"{len(best.spots)} can reach base contact, these moves allow {done + len(others.spots)}")
        best = others
    search: SearchSummary = {"contacts_possible": len(best.spots), "nodes": best.nodes, "exhaustive": best.exhaustive}
    more, placed = place_contacts(state, by_id, best.spots, roll, placed, goal)
    moves += more
    new = state.with_figures(placed)
    # everyone else: as close as possible, in coherency with a model already moved
    rest = [m for m in models if m.fig.id not in {mv.model for mv in moves}]
    rest.sort(key=lambda m: (min(gap(m.fig, t) for t in goal), m.fig.id))
    if rest:
        budget, rules_of = _follower_rules(state, unit_id, targets, rest, roll)
        new, more = move_models(new, unit_id, [m.fig.id for m in rest], lambda f: budget[f.id], lambda st, f: rules_of[f.id],
                                goal, anchors=[mv.model for mv in moves])
        moves += more
    contacts = [mv.model for mv in moves if mv.contact]
    return new, AssaultMove(roll, rolls, contacts, moves, search, bool(contacts))


def _follower_rules(state: GameState, unit_id: str, targets: Sequence[str], rest: Sequence[_Model],
                    roll: Optional[int]) -> tuple[dict[str, float], dict[str, MoveRules]]:
    budget: dict[str, float] = {}
    rules_of: dict[str, MoveRules] = {}
    for m in rest:
        use_through = m.clear is None
        if not use_through and roll is not None:
            c = _contact_route(state, m, targets, False)
            t = _contact_route(state, m, targets, True)
            use_through = t is not None and (c is None or (t.length < c.length and bool(touches_difficult(state, m.fig, t.points()))))
        if use_through and roll is None:
            budget[m.fig.id], rules_of[m.fig.id] = 0.0, m.clear_rules
        elif use_through and roll is not None:
            budget[m.fig.id], rules_of[m.fig.id] = float(roll), m.through_rules
        else:
            budget[m.fig.id], rules_of[m.fig.id] = ASSAULT_MOVE, m.clear_rules
    return budget, rules_of


def _given_move(state: GameState, m: _Model, pts: Sequence[Sequence[float]], roll: Optional[int], placed: Sequence[Figure],
                goal: Sequence[Figure]) -> ModelMove:
    """A model's path as the file gives it, checked: 6" clear of difficult terrain, or the
    roll when it touches difficult terrain."""
    points = [m.fig.at] + [(float(p[0]), float(p[1])) for p in pts]
    hits = touches_difficult(state, m.fig, points)
    if hits and roll is None:
        raise IllegalAction(RULE, f"{m.fig.id}'s path touches difficult terrain ({', '.join(hits)}) but no model of the unit needs it to reach the enemy")
    allowance = float(roll) if hits and roll is not None else ASSAULT_MOVE
    rules = m.through_rules if hits else m.clear_rules
    space = space_for(state, rules)
    own = list(placed)

    def end_check(x: float, y: float) -> Optional[Violation]:
        return check_end(state.table, m.fig.moved(x, y, None), tuple(rules.end_figures) + tuple(own), rules.end_pieces, rules.keep_away)

    chk = check_path(space, points, allowance, end_check)
    if not chk.legal:
        v = chk.violation
        assert v is not None  # an illegal path names its violation
        raise IllegalAction(RULE, f"{m.fig.id}'s assault path is illegal: {v.kind} at ({v.at[0]:.6g}, {v.at[1]:.6g}): {v.detail}")
    end = points[-1]
    moved = m.fig.moved(end[0], end[1], None)
    g = min((gap(moved, t) for t in goal), default=0.0)
    linked = not own or min(gap(moved, o) for o in own) <= CHAIN_LINK + TOUCH
    return ModelMove(m.fig.id, m.fig.at, end, tuple(points), chk.length, "given", chk, max(0.0, g), linked)


def mark_charged(state: GameState, unit_id: str) -> GameState:
    """The unit assaulted this turn (+1 Attack in the fight; cover counts against it)."""
    u = state.unit(unit_id)
    return state.with_unit(replace(u, status=frozenset(set(u.status) | {"charged"})))


def assault(state: GameState, unit_id: str, targets: Sequence[str], dice: Dice,
            moves: Mapping[str, Sequence[Sequence[float]]]) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    """The ``assault`` action: :func:`assault_move` (paths given for some models in ``moves``),
    the unit marked as having charged when it makes contact. Returns the new state, the dice
    events and the assault event (also the action's summary)."""
    dice.take_events()
    new, am = assault_move(state, unit_id, targets, dice, {m: [tuple(p) for p in pts] for m, pts in moves.items()})
    events = dice.take_events()
    if am.success:
        new = mark_charged(new, unit_id)
    ev: dict[str, Any] = {"type": "assault", "unit": unit_id, "targets": list(targets), **am.as_json()}
    if not am.success:
        ev["note"] = "the assault falls short: the models moved, but no combat follows"
    return new, events + [ev], ev
