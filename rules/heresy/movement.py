"""Horus Heresy 3rd moves made by the assault rules (§A.7, §A.10, §A.4), each model along its own
path checked by the validator (:mod:`rules.unit_move`).

* **Pile-in** (§A.7): a model not in base contact moves up to its current Initiative into base
  contact with an eligible enemy (one in the same combat, the unit it charged, a unit that
  charged its unit), else as close as it can. Each model moves on its own (the rule asks for no
  coherency); nearest first.
* **Consolidate** (§A.10): each model up to its Initiative, ending in coherency and at least 2"
  from every enemy model; tapeline's default direction is towards the nearest enemy model (the
  seed's "towards the nearest enemy"), stopping 2" from it.
* **Disengage** (§A.10): each model moves away from the enemies of the combat (it may move
  through them) to the nearest spot more than 2" from all of them — at most its Movement, or
  the least more that gets it there; ending out of coherency or in base contact: Routed.
* **Fall Back** (§A.5, §A.10): the unit gains Routed; each model moves its Initiative + one D6
  for the unit (Cavalry 2D6) by its shortest route towards its own table edge, not ending within
  1" of an enemy (it stops short), whatever its coherency. A model that reaches the edge stops
  there; when one has, the unit takes a Leadership Check: failed, it is removed; passed, it
  loses Routed and gains Suppressed (tapeline's reading of when that check is taken).
* **Pursue** (§A.10): one D6 for the unit; each model moves its Initiative + that D6 towards the
  nearest model of the unit that fell back; base contact is a successful charge.
* **Evade** (§A.4): a Light or Cavalry target moves each model up to its Initiative directly
  away from the charging unit, ending in coherency.

The table edge a side falls back to is setting ``home_edges`` (``{side: bottom | top | left |
right}``); a side not named uses the edge nearest the unit.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Callable, Mapping, Optional, Sequence

import shapely

from tapeline.board.coherency import chain_coherency
from tapeline.board.errors import GeometryError
from tapeline.board.measure import gap, gap_matrix
from tapeline.board.paths import Reach
from tapeline.board.table import Figure

from ..charge_geometry import MoveRules, end_region, space_for
from ..contact_charge import contact_rules
from ..errors import IllegalAction
from ..state import GameState
from ..table_edges import EDGES, edge_line, home_edge  # noqa: F401  (re-exported)
from ..unit_move import CHAIN_LINK, Goal, ModelMove, as_goal, explicit_moves, move_models
from .checks import model_stat, model_subtypes
from .combat import CONTACT, combat_of, locked_with



#: ``rules_of(state, fig)``: one model's path and end rules (:func:`rules.unit_move.move_models`).
RulesOf = Callable[[GameState, Figure], MoveRules]


def _order(state: GameState, unit_id: str, toward: Sequence[Figure]) -> list[str]:
    figs = state.figures_of(unit_id)
    if not toward:
        return [f.id for f in figs]
    return [f.id for f in sorted(figs, key=lambda f: (min(gap(f, t) for t in toward), f.id))]


def _stat(state: GameState, model_id: str, name: str, default: int = 0) -> int:
    v = model_stat(state, model_id, name)
    return int(v) if v is not None else default


def eligible_enemies(state: GameState, unit_id: str) -> list[str]:
    """Units a model of ``unit_id`` may pile in towards (§A.7): enemies in its combat, the unit
    it charged this phase, units that charged it."""
    out = [u for u in combat_of(state, unit_id) if state.unit(u).side != state.unit(unit_id).side]
    for a, t in state.turn.get("charges") or ():
        if a == unit_id and t not in out:
            out.append(t)
        if t == unit_id and a not in out:
            out.append(a)
    return [u for u in out if state.has_unit(u) and state.unit(u).models]


def pile_in(state: GameState, unit_id: str, models: Optional[Sequence[str]] = None, enemies: Optional[Sequence[str]] = None,
            budget_of: Optional[Callable[[Figure], float]] = None) -> tuple[GameState, list[ModelMove]]:
    """Pile-in moves (§A.7) for ``models`` of the unit (default: every model not in base
    contact with an enemy). Returns the state and the :class:`rules.unit_move.ModelMove` list."""
    enemies = list(enemies) if enemies is not None else eligible_enemies(state, unit_id)
    goal = [f for e in enemies for f in state.figures_of(e)]
    if not goal:
        return state, []
    want = set(models) if models is not None else None
    todo = [m for m in _order(state, unit_id, goal) if (want is None or m in want)
            and float(gap_matrix([state.figure(m)], goal).min()) > CONTACT]
    if not todo:
        return state, []
    budget = budget_of or (lambda f: _stat(state, f.id, "initiative"))
    return move_models(state, unit_id, todo, budget, lambda st, f: contact_rules(st, unit_id, f, enemies), goal, link=None)


def _enemy_figs(state: GameState, unit_id: str) -> list[Figure]:
    return [f for e in state.enemies_of(unit_id) for f in state.figures_of(e.id)]


def consolidate(state: GameState, unit_id: str) -> tuple[GameState, list[ModelMove]]:
    """Consolidate (§A.10): up to Initiative, towards the nearest enemy, ending in coherency and
    at least 2" from every enemy model."""
    enemies = _enemy_figs(state, unit_id)

    def rules_of(st: GameState, f: Figure) -> MoveRules:
        r = contact_rules(st, unit_id, f, ())
        return replace(r, keep_away=tuple((e, 2.0) for e in enemies))

    goal = Goal(tuple(enemies), standoff=2.0)
    return move_models(state, unit_id, _order(state, unit_id, enemies), lambda f: _stat(state, f.id, "initiative"), rules_of, goal)


def disengage(state: GameState, unit_id: str) -> tuple[GameState, list[ModelMove], bool]:
    """Disengage (§A.10): every model to the nearest spot more than 2" from the combat's enemies.
    Returns the state, the moves and whether the unit must become Routed (a model out of
    coherency or still in base contact)."""
    foes = [u for u in combat_of(state, unit_id) if state.unit(u).side != state.unit(unit_id).side]
    foe_figs = [f for u in foes for f in state.figures_of(u)]

    def rules_of(st: GameState, f: Figure) -> MoveRules:
        r = contact_rules(st, unit_id, f, ())
        path_figs = tuple(x for x in r.path_figures if x.unit not in foes)
        return replace(r, path_figures=path_figs, keep_away=tuple(r.keep_away) + tuple((e, 2.0) for e in foe_figs))

    def budget(f: Figure) -> float:
        return max(_stat(state, f.id, "movement"), _escape_length(state, unit_id, f, rules_of))

    new, moves = move_models(state, unit_id, [m for m in _order(state, unit_id, foe_figs)][::-1], budget, rules_of, Goal(), link=None)
    routed = not chain_coherency(new.figures_of(unit_id), CHAIN_LINK).ok or bool(locked_with(new, unit_id))
    return new, moves, routed


def _escape_length(state: GameState, unit_id: str, fig: Figure, rules_of: RulesOf) -> float:
    """The length of the shortest move that takes ``fig`` out to a legal spot (Disengage:
    "extend it by the minimum amount needed")."""
    r = rules_of(state, fig)
    try:
        p = Reach(space_for(state, r), fig.at).to_region(end_region(state, fig, r, []))
    except GeometryError:
        return 0.0
    return 0.0 if p is None else p.length


def fall_back_move(state: GameState, unit_id: str,
                   distance_of: Callable[[Figure], float]) -> tuple[GameState, list[ModelMove], str]:
    """Each model moves ``distance_of(fig)`` towards its own table edge (§A.5), not ending within
    1" of an enemy; returns the state, the moves and the edge."""
    edge = home_edge(state, unit_id)
    line = edge_line(state, edge)
    enemies = _enemy_figs(state, unit_id)

    def rules_of(st: GameState, f: Figure) -> MoveRules:
        r = contact_rules(st, unit_id, f, ())
        return MoveRules(r.rho, r.edge, r.path_pieces, r.path_figures, r.end_pieces, r.end_figures, tuple((e, 1.0) for e in enemies))

    order = sorted((f for f in state.figures_of(unit_id)), key=lambda f: (shapely.distance(line, shapely.Point(f.at)), f.id))
    new, moves = move_models(state, unit_id, [f.id for f in order], distance_of, rules_of, Goal(shapes=(line,)), link=None)
    return new, moves, edge


def is_cavalry(state: GameState, unit_id: str) -> bool:
    u = state.unit(unit_id)
    return "cavalry" in u.tags or (u.stats.get("unit_type") or "").lower() == "cavalry" or any(
        "cavalry" in model_subtypes(state, m) for m in u.models)


def pursue_move(state: GameState, unit_id: str, fleeing: Sequence[str], roll: int) -> tuple[GameState, list[ModelMove]]:
    """Pursue (§A.10): each model moves its Initiative + ``roll`` towards the nearest model of
    the fleeing unit(s); base contact is a successful charge."""
    goal = [f for u in fleeing for f in state.figures_of(u)]
    if not goal:
        return state, []
    return move_models(state, unit_id, _order(state, unit_id, goal), lambda f: _stat(state, f.id, "initiative") + roll,
                       lambda st, f: contact_rules(st, unit_id, f, list(fleeing)), goal, link=None)


def evade_move(state: GameState, unit_id: str, charger: str) -> tuple[GameState, list[ModelMove]]:
    """Evade (§A.4): each model up to its Initiative away from the charging unit — towards the
    point where the line from the charger's centre through the unit's centre meets the table's
    edge (1" in) — ending in coherency."""
    cf = state.figures_of(charger)
    cx, cy = sum(f.x for f in cf) / len(cf), sum(f.y for f in cf) / len(cf)
    mf = state.figures_of(unit_id)
    mx, my = sum(f.x for f in mf) / len(mf), sum(f.y for f in mf) / len(mf)
    d = math.hypot(mx - cx, my - cy) or 1.0
    ux, uy = (mx - cx) / d, (my - cy) / d
    W, H = state.table.width, state.table.height
    ts = [t for t in ((W - 1 - mx) / ux if ux > 0 else None, (1 - mx) / ux if ux < 0 else None,
                      (H - 1 - my) / uy if uy > 0 else None, (1 - my) / uy if uy < 0 else None) if t is not None and t > 0]
    t = min(ts) if ts else 0.0
    far = shapely.Point(mx + t * ux, my + t * uy)
    order = sorted(mf, key=lambda f: (-math.hypot(f.x - cx, f.y - cy), f.id))
    return move_models(state, unit_id, [f.id for f in order], lambda f: _stat(state, f.id, "initiative"),
                       lambda st, f: contact_rules(st, unit_id, f, ()), Goal(shapes=(far,)))




def check_pile_in(state: GameState, unit_id: str, moves: Mapping[str, Sequence[float]],
                  enemies: Optional[Sequence[str]] = None) -> tuple[GameState, list[ModelMove]]:
    """Pile-in moves given by the file (§A.7): each at most the model's Initiative along a legal
    path, ending in base contact with an eligible enemy whenever the model can reach one."""
    rule = "HH3 §A.7 pile-in"
    enemies = list(enemies) if enemies is not None else eligible_enemies(state, unit_id)
    goal = [f for e in enemies for f in state.figures_of(e)]
    could: dict[str, bool] = {}
    for m in moves:
        if m in state.unit(unit_id).models:
            _s, mvs = move_models(state, unit_id, [m], _stat(state, m, "initiative"), lambda st, f: contact_rules(st, unit_id, f, enemies), goal, link=None)
            could[m] = bool(mvs) and mvs[0].contact
    new, out = explicit_moves(state, unit_id, moves, lambda f: _stat(state, f.id, "initiative"),
                              lambda st, f: contact_rules(st, unit_id, f, enemies), rule, "pile-in")
    g = as_goal(goal)
    for mv in out:
        gap_left = g.gap(new.figure(mv.model))
        if could.get(mv.model) and gap_left > CONTACT:
            raise IllegalAction(rule, f"{mv.model} can reach base contact with {', '.join(enemies)} within its Initiative, so its pile-in must end there "
                                      f"({gap_left:.6g}\" short)")
    return new, out


def check_consolidate(state: GameState, unit_id: str,
                      moves: Mapping[str, Sequence[float]]) -> tuple[GameState, list[ModelMove]]:
    """Consolidation moves given by the file (§A.10): at most Initiative, ending at least 2" from
    every enemy model and in coherency."""
    enemies = _enemy_figs(state, unit_id)

    def rules_of(st: GameState, f: Figure) -> MoveRules:
        return replace(contact_rules(st, unit_id, f, ()), keep_away=tuple((e, 2.0) for e in enemies))

    new, out = explicit_moves(state, unit_id, moves, lambda f: _stat(state, f.id, "initiative"), rules_of, "HH3 §A.10 Consolidate", "consolidate")
    coh = chain_coherency(new.figures_of(unit_id), CHAIN_LINK)
    if not coh.ok:
        raise IllegalAction("HH3 §A.10 Consolidate", f"consolidate: the unit would end out of coherency ({coh.explain()})")
    return new, out


def pile_in_action(state: GameState, unit_id: str, models: Optional[Sequence[str]] = None,
                   moves: Optional[Mapping[str, Sequence[float]]] = None) -> tuple[GameState, list[dict[str, Any]]]:
    """The ``pile_in`` action: the unit's models not in base contact pile in (only ``models``
    when given), or move to the spots ``moves`` gives, each checked (§A.7)."""
    if moves:
        new, done = check_pile_in(state, unit_id, moves)
        return new, [{"type": "pile_in", "unit": unit_id, "moves": [m.as_json() for m in done]}]
    for m in models or ():
        if m not in state.unit(unit_id).models:
            raise IllegalAction("HH3 §A.7 pile-in", f"{m} is not a model of {unit_id} on the table")
    new, done = pile_in(state, unit_id, models)
    return new, [{"type": "pile_in", "unit": unit_id, "moves": [m.as_json() for m in done]}]
