"""After a 40k 3rd edition combat round: morale, fall back, advance, sweeping advance,
consolidation and the moves of a drawn combat (seed "Loser Checks Morale", "Winners Advancing &
Consolidating", "Drawn Combats", "Multiple Combats"; §B.9). Every move is a real path checked by
the path validator (:mod:`tapeline.rules.unit_move`, :mod:`tapeline.rules.classic40k.assault`).

* **Morale** (:func:`morale`): each losing unit takes a Leadership test (2D6 ≤ Ld, setting
  ``c40k_morale_modifier``). Passed: the combat is drawn and goes on next turn. Failed: it
  **falls back 2D6"** (one roll for the unit), each model by its shortest route towards its own
  table edge (setting ``home_edges``; a side not named: the edge nearest the unit), round
  impassable terrain and other models, not ending touching an enemy; a model that reaches the
  edge stops there. It gains the status ``falling_back``. Setting ``c40k_sweeping_advance:
  initiative`` (trial rules / 4th edition): on a failed test both sides roll D6 + Initiative
  (each unit's majority Initiative, the lowest when there is no majority); a winning unit's
  total equal or higher destroys the loser outright, else it falls back.
* **Advance** (:func:`advance`, the 1998 "pursuit" reading): a winning unit whose opposing
  units *all* fell back (or were destroyed), and which did not win on the tiebreaker, rolls
  2D6: each model moves that far after the fleeing enemy — half as far when its route touches
  difficult terrain. If any model can reach base contact with a fleeing unit, that unit is
  destroyed and the advance becomes a **Sweeping Advance**: the models move their full roll
  on (towards the point the file gives, else the nearest other enemy model); base contact with
  a fresh enemy is a new assault next turn (status ``sweeping_advance``; models not in contact
  simply moved — "partial contact").
* **Consolidate** (:func:`consolidate`): a winning unit whose opposing units all fell back or
  were destroyed — the only option after a tiebreak win — moves each model up to 3" in any
  direction, ignoring difficult terrain, not ending in base contact with an enemy: to the spots
  the file gives (each by its shortest legal path, checked), or towards a point.
* **Drawn combats** (:func:`drawn_combat_move`): after a draw (or a passed morale test), the
  models of a unit not in base contact move up to 6" into base contact with the enemy of the
  combat — enemy models not yet in base contact first (tapeline's reading of "priority given to
  models not already engaged") — as many as possible (the assault's search), the rest as close
  as they can, in coherency.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Optional, Sequence

import shapely

from tapeline.board.coherency import chain_coherency
from tapeline.board.measure import gap, gap_matrix
from tapeline.board.paths import Path, Reach
from tapeline.board.table import Figure
from tapeline.board.units import TOUCH

from ..charge_geometry import MoveRules, end_region, near_group, radius
from ..contact_charge import contact_rules
from ..dice import Dice
from ..errors import IllegalAction
from ..melee.loadout import model_line
from ..state import GameState
from ..table_edges import edge_line, home_edge
from ..unit_move import CHAIN_LINK, CONTACT_SLACK, Goal, ModelMove, explicit_moves, move_models
from .assault import _Model, _models, difficult_pieces, place_contacts, plan_contacts, touches_difficult
from .resolution import CombatResult, morale_target
from .rounds import RESULTS_KEY, last_result

RULE_MORALE = "40k 3rd Loser Checks Morale"
RULE_ADVANCE = "40k 3rd Advance"
RULE_CONSOLIDATE = "40k 3rd Consolidate"
RULE_DRAWN = "40k 3rd Drawn Combats"
CONSOLIDATE_MOVE = 3.0
DRAWN_MOVE = 6.0
CONTACT = 10 * TOUCH


def _setting(state: GameState, name: str, default: Any) -> Any:
    return state.settings.get(name, default) if state.settings else default


def _update(state: GameState, res: CombatResult, **changes: object) -> GameState:
    """Keep extra bookkeeping on the combat's recorded result (its JSON)."""
    d = res.as_json()
    table = dict(state.turn.get(RESULTS_KEY) or {})
    old = table.get(res.units[0]) or {}
    merged = {**old, **d, **changes}
    for u in res.units:
        table[u] = merged
    return state.with_turn(RESULTS_KEY, table)


def _recorded(state: GameState, unit_id: str) -> dict[str, Any]:
    return dict((state.turn.get(RESULTS_KEY) or {}).get(unit_id) or {})


def _with_status(state: GameState, unit_id: str, add: Sequence[str] = (), drop: Sequence[str] = ()) -> GameState:
    u = state.unit(unit_id)
    return state.with_unit(replace(u, status=frozenset((set(u.status) | set(add)) - set(drop))))


def unit_initiative(state: GameState, unit_id: str) -> int:
    """The unit's Initiative for a D6 + I roll: its models' majority value, the lowest when no
    value is held by more models than any other (§B.9)."""
    u = state.unit(unit_id)
    vals = [int(model_line(u, m).get("initiative") or 0) for m in u.models]
    counts = {v: vals.count(v) for v in set(vals)}
    top = max(counts.values())
    best = [v for v, c in counts.items() if c == top]
    return best[0] if len(best) == 1 else min(vals)


# --- morale and fall back ------------------------------------------------------------------------


def morale(state: GameState, unit_id: str, dice: Dice) -> tuple[GameState, list[dict[str, Any]]]:
    """The losing unit's Leadership test, and its fall back (or destruction) on a failure."""
    res = last_result(state, unit_id, RULE_MORALE)
    side = state.unit(unit_id).side
    if res.winner is None:
        raise IllegalAction(RULE_MORALE, f"{unit_id}'s combat was drawn: nobody checks morale")
    if side != res.loser:
        raise IllegalAction(RULE_MORALE, f"{unit_id} won its combat: only the loser checks morale")
    if not state.unit(unit_id).models:
        raise IllegalAction(RULE_MORALE, f"{unit_id} has no models left")
    done = _recorded(state, unit_id).get("morale") or {}
    if unit_id in done:
        raise IllegalAction(RULE_MORALE, f"{unit_id} has already taken its morale test for this combat")
    ld, tn = morale_target(state, unit_id, res.margin)
    rolls = dice.roll(2, f"Leadership test ({unit_id}, Ld {ld}{f', {tn - ld:+d} for losing by {res.margin}' if tn != ld else ''})")
    passed = sum(rolls) <= tn
    events = dice.take_events()
    events.append({"type": "morale", "unit": unit_id, "leadership": ld, "target": tn, "rolls": rolls, "passed": passed})
    entry: dict[str, Any] = {"leadership": ld, "target": tn, "rolls": rolls, "passed": passed}
    if passed:
        events.append({"type": "note", "unit": unit_id, "note": "the test is passed: the combat is drawn and goes on next turn"})
        done = {**done, unit_id: entry}
        return _update(state, res, morale=done), events
    new = state
    if _setting(state, "c40k_sweeping_advance", "pursuit") == "initiative":
        new, evs, destroyed = _initiative_sweep(new, res, unit_id, dice)
        events += evs
        entry["swept"] = destroyed
        if destroyed:
            done = {**done, unit_id: entry}
            return _update(new, res, morale=done), events
    fb = dice.roll(2, f"fall back ({unit_id}, 2D6\")")
    events += dice.take_events()
    new, moves, edge = fall_back_move(new, unit_id, float(sum(fb)))
    new = _with_status(new, unit_id, add=("falling_back",))
    events.append({"type": "fall_back", "unit": unit_id, "distance": sum(fb), "edge": edge, "moves": [m.as_json() for m in moves]})
    entry.update({"fell_back": sum(fb), "edge": edge})
    done = {**done, unit_id: entry}
    return _update(new, res, morale=done), events


def _initiative_sweep(state: GameState, res: CombatResult, unit_id: str, dice: Dice) -> tuple[GameState, list[dict[str, Any]], bool]:
    """Trial rules / 4th edition: D6 + I each; the loser is destroyed if a winning unit's total
    is equal or higher (§B.9 (ii)/(iii); derived case 9)."""
    winners = [u for u in res.units if state.has_unit(u) and state.unit(u).side == res.winner and state.unit(u).models]
    li = unit_initiative(state, unit_id)
    lr = dice.roll(1, f"sweeping advance: {unit_id} D6 + I{li}")[0]
    best: Optional[int] = None
    for w in winners:
        wi = unit_initiative(state, w)
        wr = dice.roll(1, f"sweeping advance: {w} D6 + I{wi}")[0]
        best = max(best or 0, wr + wi)
    events = dice.take_events()
    destroyed = best is not None and best >= lr + li
    events.append({"type": "sweeping_advance", "unit": unit_id, "loser_total": lr + li, "winner_total": best, "destroyed": destroyed})
    if destroyed:
        gone = list(state.unit(unit_id).models)
        state = state.without_models(unit_id, gone)
        events.append({"type": "casualties", "unit": unit_id, "models": gone, "why": "caught by a sweeping advance"})
    return state, events, destroyed


def fall_back_move(state: GameState, unit_id: str, distance: float) -> tuple[GameState, list[ModelMove], str]:
    """Each model moves ``distance`` by its shortest route towards its own table edge (nearest
    the edge first), round impassable terrain and other models, not ending touching an enemy;
    difficult terrain does not slow it (tapeline's reading: the rules give no penalty)."""
    edge = home_edge(state, unit_id)
    line = edge_line(state, edge)
    enemies = [f for e in state.enemies_of(unit_id) for f in state.figures_of(e.id)]

    def rules_of(st: GameState, f: Figure) -> MoveRules:
        r = contact_rules(st, unit_id, f, ())
        return replace(r, keep_away=tuple((e, 0.0) for e in enemies))

    order = sorted(state.figures_of(unit_id), key=lambda f: (float(shapely.distance(line, shapely.Point(f.at))), f.id))
    new, moves = move_models(state, unit_id, [f.id for f in order], distance, rules_of, Goal(shapes=(line,)), link=None)
    return new, moves, edge


# --- advance, sweeping advance, consolidate -----------------------------------------------------


def _opponents(state: GameState, res: CombatResult, unit_id: str) -> list[str]:
    side = state.unit(unit_id).side
    return [u for u in res.units if state.has_unit(u) and state.unit(u).side != side]


def _may_move_on(state: GameState, unit_id: str, rule: str) -> tuple[CombatResult, list[str]]:
    """The winner's checks shared by advance and consolidate; returns the result and the
    opposing units that fell back (still on the table)."""
    res = last_result(state, unit_id, rule)
    side = state.unit(unit_id).side
    if res.winner != side:
        raise IllegalAction(rule, f"{unit_id} did not win its combat" + (" (it was drawn)" if res.winner is None else ""))
    rec = _recorded(state, unit_id)
    if unit_id in (rec.get("moved_on") or []):
        raise IllegalAction(rule, f"{unit_id} has already advanced or consolidated after this combat")
    fled: list[str] = []
    for u in _opponents(state, res, unit_id):
        us = state.unit(u)
        if not us.models:
            continue
        if "falling_back" not in us.status:
            raise IllegalAction(rule, f"{u} did not fall back: a winning unit advances or consolidates only when every opposing unit "
                                      "falls back (\"Multiple Combats\")")
        fled.append(u)
    return res, fled


def _mark_moved_on(state: GameState, res: CombatResult, unit_id: str) -> GameState:
    rec = _recorded(state, unit_id)
    return _update(state, res, moved_on=list(rec.get("moved_on") or []) + [unit_id])


def advance(state: GameState, unit_id: str, dice: Dice,
            toward: Optional[Sequence[float]] = None) -> tuple[GameState, list[dict[str, Any]]]:
    """Advance 2D6" after the fleeing enemy (see the module notes)."""
    if _setting(state, "c40k_sweeping_advance", "pursuit") != "pursuit":
        raise IllegalAction(RULE_ADVANCE, "with setting c40k_sweeping_advance: initiative the sweeping advance is the D6 + Initiative "
                                          "roll at the loser's morale test; the winner may consolidate")
    res, fled = _may_move_on(state, unit_id, RULE_ADVANCE)
    if res.tiebreak:
        raise IllegalAction(RULE_ADVANCE, f"{unit_id} won on the tiebreaker: consolidating is its only option")
    rolls = dice.roll(2, f"advance ({unit_id}, 2D6\")")
    events = dice.take_events()
    roll = float(sum(rolls))
    goal = [f for u in fled for f in state.figures_of(u)]
    models = _models(state, unit_id, fled, allowance=roll)
    caught: list[str] = []
    allowance: dict[str, float] = {}
    rules: dict[str, MoveRules] = {}
    for m in models:
        allowance[m.fig.id], rules[m.fig.id], reached = _pursuit(state, m, goal, roll)
        if reached:
            caught.append(m.fig.id)
    new = state
    events.append({"type": "advance", "unit": unit_id, "roll": int(roll), "caught_by": caught})
    if caught or not fled:
        for u in fled:
            gone = list(new.unit(u).models)
            new = new.without_models(u, gone)
            events.append({"type": "casualties", "unit": u, "models": gone, "why": "caught by the advance: destroyed"})
        foes = [e.id for e in new.enemies_of(unit_id)]
        fresh = [f for e in foes for f in new.figures_of(e)]
        # the sweep may end in contact with any enemy: each model's rules with every enemy a target
        sweep = {m.fig.id: m for m in _models(new, unit_id, foes, allowance=roll)}
        rules = {mid: (sweep[mid].through_rules if allowance[mid] < roll else sweep[mid].clear_rules) for mid in rules}
        if toward is not None:
            target = Goal(shapes=(shapely.Point(*toward),))
        elif fresh:
            target = Goal(tuple(fresh))
        else:
            target = Goal(shapes=tuple(shapely.Point(f.at) for f in goal))
        order = sorted(new.figures_of(unit_id), key=lambda f: (target.gap(f), f.id))
        new, moves = move_models(new, unit_id, [f.id for f in order], lambda f: allowance[f.id], lambda st, f: rules[f.id],
                                 target, link=CHAIN_LINK)
        hit = sorted({e.unit for mv in moves for e in fresh if abs(gap(new.figure(mv.model), e)) <= CONTACT})
        events.append({"type": "sweeping_advance", "unit": unit_id, "moves": [m.as_json() for m in moves], "fresh_contact": hit})
        if hit:
            new = _with_status(new, unit_id, add=("sweeping_advance",))
            events.append({"type": "note", "unit": unit_id, "note": f"in contact with {', '.join(hit)}: a new assault next turn"})
    else:
        order = sorted(state.figures_of(unit_id), key=lambda f: (min((gap(f, g) for g in goal), default=0.0), f.id))
        new, moves = move_models(new, unit_id, [f.id for f in order], lambda f: allowance[f.id], lambda st, f: rules[f.id],
                                 Goal(tuple(goal)), link=CHAIN_LINK)
        events.append({"type": "pursuit", "unit": unit_id, "moves": [m.as_json() for m in moves]})
    return _mark_moved_on(new, res, unit_id), events


def _pursuit(state: GameState, m: _Model, goal: Sequence[Figure], roll: float) -> tuple[float, MoveRules, bool]:
    """(allowance, move rules, reaches contact) for one advancing model: the full roll by a
    route round difficult terrain, or half of it by a route that touches difficult terrain."""
    def route(reach: Optional[Reach], rules: MoveRules) -> Optional[Path]:
        if reach is None or not goal:
            return None
        return reach.to_region(end_region(state, m.fig, rules, [near_group(radius(m.fig), goal, CONTACT_SLACK)]))

    clear = route(m.clear, m.clear_rules)
    through = route(m.through, m.through_rules)
    half = roll / 2.0
    options: list[tuple[float, float, MoveRules, bool]] = []
    if clear is not None:
        options.append((max(0.0, clear.length - roll), roll, m.clear_rules, clear.length <= roll + TOUCH))
    if through is not None:
        a = half if touches_difficult(state, m.fig, through.points()) else roll
        options.append((max(0.0, through.length - a), a, m.through_rules, through.length <= a + TOUCH))
    if not options:
        a = half if difficult_pieces(state) and m.clear is None else roll
        return a, (m.clear_rules if m.clear is not None else m.through_rules), False
    _, a, rules, reached = min(options, key=lambda o: (o[0], -o[1]))
    return a, rules, reached


def consolidate(state: GameState, unit_id: str, moves: Optional[Mapping[str, Sequence[float]]] = None,
                toward: Optional[Sequence[float]] = None) -> tuple[GameState, list[dict[str, Any]]]:
    """Consolidate up to 3" in any direction, ignoring difficult terrain (see the module notes)."""
    res, _fled = _may_move_on(state, unit_id, RULE_CONSOLIDATE)
    enemies = [f for e in state.enemies_of(unit_id) for f in state.figures_of(e.id)]

    def rules_of(st: GameState, f: Figure) -> MoveRules:
        return replace(contact_rules(st, unit_id, f, ()), keep_away=tuple((e, 0.0) for e in enemies))

    if moves:
        new, out = explicit_moves(state, unit_id, dict(moves), lambda f: CONSOLIDATE_MOVE, rules_of, RULE_CONSOLIDATE,
                                  "consolidate (up to 3\")")
        coh = chain_coherency(new.figures_of(unit_id), CHAIN_LINK)
        if not coh.ok:
            raise IllegalAction(RULE_CONSOLIDATE, f"consolidate: the unit would end out of coherency ({coh.explain()})")
    elif toward is not None:
        target = Goal(shapes=(shapely.Point(*toward),))
        order = sorted(state.figures_of(unit_id), key=lambda f: (target.gap(f), f.id))
        new, out = move_models(state, unit_id, [f.id for f in order], CONSOLIDATE_MOVE, rules_of, target, link=CHAIN_LINK)
    else:
        new, out = state, []
    events: list[dict[str, Any]] = [{"type": "consolidate", "unit": unit_id, "moves": [m.as_json() for m in out]}]
    return _mark_moved_on(new, res, unit_id), events


# --- drawn combats -------------------------------------------------------------------------------


def drawn_combat_move(state: GameState, unit_id: str) -> tuple[GameState, list[dict[str, Any]]]:
    """Drawn combat: the unit's models not in base contact move up to 6" into base contact (see
    the module notes)."""
    res = last_result(state, unit_id, RULE_DRAWN)
    held = (_recorded(state, unit_id).get("morale") or {})
    drawn = res.winner is None or any(v.get("passed") for v in held.values())
    if not drawn:
        raise IllegalAction(RULE_DRAWN, f"{unit_id}'s combat was not drawn: its loser has not passed a morale test")
    foes = [u for u in _opponents(state, res, unit_id) if state.unit(u).models]
    if not foes or not state.unit(unit_id).models:
        raise IllegalAction(RULE_DRAWN, f"{unit_id} has no enemy left in its combat")
    goal = [f for u in foes for f in state.figures_of(u)]
    mine = state.figures_of(unit_id)
    touching = gap_matrix(mine, goal) <= CONTACT
    todo = [f.id for i, f in enumerate(mine) if not touching[i].any()]
    if not todo:
        return state, [{"type": "drawn_combat_move", "unit": unit_id, "moves": [], "note": "every model is in base contact"}]
    # enemy models already in base contact with anyone of the other side
    side = state.unit(unit_id).side
    allies = [f for u in state.units if u.side == side for f in state.figures_of(u.id)]
    engaged: set[str] = set()
    if allies:
        g = gap_matrix(goal, allies)
        engaged = {goal[i].id for i in range(len(goal)) if g[i].min() <= CONTACT}
    fresh = [f for f in goal if f.id not in engaged]
    models = _models(state, unit_id, foes, allowance=DRAWN_MOVE, models=todo, avoid_difficult=False)
    by_id = {m.fig.id: m for m in models}
    stationary = [f for f in mine if f.id not in todo]
    placed: list[Figure] = list(stationary)
    moves: list[ModelMove] = []
    if fresh:
        first = plan_contacts(state, unit_id, foes, None, tuple(f.id for f in stationary), models, goal=fresh)
        more, placed = place_contacts(state, by_id, first.spots, None, placed, goal)
        moves += more
    rest = [m for m in models if m.fig.id not in {mv.model for mv in moves}]
    if rest:
        second = plan_contacts(state.with_figures(placed), unit_id, foes, None, tuple(f.id for f in placed), rest, goal=goal)
        more, placed = place_contacts(state, by_id, second.spots, None, placed, goal)
        moves += more
    new = state.with_figures(placed)
    left = [m.fig.id for m in models if m.fig.id not in {mv.model for mv in moves}]
    if left:
        anchors = [f.id for f in mine if f.id not in left]
        left.sort(key=lambda mid: (min(gap(state.figure(mid), g) for g in goal), mid))
        new, more = move_models(new, unit_id, left, DRAWN_MOVE, lambda st, f: by_id[f.id].through_rules, Goal(tuple(goal)), anchors=anchors)
        moves += more
    return new, [{"type": "drawn_combat_move", "unit": unit_id, "moves": [m.as_json() for m in moves],
                  "in_contact": [m.model for m in moves if m.contact]}]


__all__ = ["morale", "fall_back_move", "advance", "consolidate", "drawn_combat_move", "unit_initiative"]
