"""Warhammer 40,000 3rd edition assault moves (§B.1).

A unit charges an enemy unit within reach of a **6"** assault move into base contact, avoiding
impassable terrain and unwanted contact with other enemy units. Models charging into, out of
or through **difficult terrain** roll 2D6 and use the highest die as their maximum move.

Geometry (:mod:`rules.contact_charge`): the shortest route to base contact for the best
charger is found twice — once treating difficult pieces as obstacles (a route that needs no
roll), once letting the path cross them. If the clear route is within 6" the charge needs no
roll; otherwise, if the crossing route is shorter and crosses difficult terrain, it succeeds
when the highest of 2D6 covers it (and never beyond 6"); otherwise it cannot reach.
Several targets must each be within 2" of another target (§B.1); the distance is to the first.
"""

from __future__ import annotations

from typing import Optional, Sequence

import shapely

from tapeline.board.measure import gap_matrix
from tapeline.board.units import TOUCH

from ..charge_odds import BEST_OF_2D6, NO_ROLL, charge_odds
from ..contact_charge import ContactCharge, plan_contact, resolve_contact
from ..errors import IllegalAction
from ..state import GameState

RULE = "40k 3rd §B.1 Assault"
ASSAULT_MOVE = 6.0


def _check(state: GameState, unit_id: str, targets: Sequence[str]) -> None:
    u = state.unit(unit_id)
    if not targets:
        raise IllegalAction(RULE, "declare at least one target unit")
    for t in targets:
        if not state.has_unit(t) or state.unit(t).side == u.side:
            raise IllegalAction(RULE, f"{t!r} is not an enemy unit")
    if "falling_back" in u.status:
        raise IllegalAction(RULE, f"{unit_id} is falling back and cannot assault")
    if len(targets) > 1:
        for t in targets:
            others = [o for o in targets if o != t]
            near = min(float(gap_matrix(state.figures_of(t), state.figures_of(o)).min()) for o in others)
            if near > 2.0 + TOUCH:
                raise IllegalAction(RULE, f"target {t} is {near:.6g}\" from the other targets: several targets must each be within 2\" of another")


def _crosses(state: GameState, path_points, ids) -> list[str]:
    if not path_points:
        return []
    line = shapely.LineString(path_points) if len(path_points) > 1 else shapely.Point(path_points[0])
    return [p.id for p in state.table.pieces if p.id in ids and shapely.intersects(line, p.footprint)]


def reach(state: GameState, unit_id: str, targets: Sequence[str], leader: Optional[str] = None, modifier: int = 0) -> ContactCharge:
    targets = tuple(targets)
    _check(state, unit_id, targets)
    difficult = {p.id for p in state.table.pieces if p.has("difficult")}
    clear = plan_contact(state, unit_id, targets, leader, extra_pieces=difficult)
    through = plan_contact(state, unit_id, targets, leader)
    details = {"assault_move": ASSAULT_MOVE, "clear_route": clear.distance, "difficult_crossed": []}
    if clear.distance is not None and clear.distance <= ASSAULT_MOVE + TOUCH:
        return ContactCharge(unit_id, targets, clear.leader, clear, charge_odds(clear.distance, ASSAULT_MOVE, NO_ROLL), True, "", details)
    crossed = _crosses(state, through.path.points(), difficult) if through.path is not None else []
    details["difficult_crossed"] = crossed
    if through.distance is not None and crossed:
        details["note"] = "difficult terrain on the path: 2D6, use the highest, as the maximum move"
        odds = charge_odds(through.distance, modifier, BEST_OF_2D6)
        return ContactCharge(unit_id, targets, through.leader, through, odds, True, "", details)
    plan = through if through.distance is not None else clear
    odds = charge_odds(plan.distance if plan.distance is not None else None, ASSAULT_MOVE, NO_ROLL)
    return ContactCharge(unit_id, targets, plan.leader, plan, odds, True, "" if plan.distance is not None else "no route into base contact", details)


def resolve(state: GameState, unit_id: str, targets: Sequence[str], rolls: Sequence[int], leader: Optional[str] = None,
            modifier: int = 0, target_models=None):
    cc = reach(state, unit_id, targets, leader, modifier)
    return resolve_contact(state, unit_id, cc, rolls, "the assault falls short: no combat follows", ASSAULT_MOVE)
