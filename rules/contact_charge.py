"""Charges into base contact, shared by Horus Heresy 3rd (§A.3) and Warhammer 40,000 3rd (§B.1).

Both games charge into **base contact**; a model moves as its base, so the clearance radius is
the base itself (an oval: its longest semi-axis, conservative). The path avoids impassable
terrain (trait ``impassable``) and every model not of the charging unit; the goal region is
"in base contact with some model of the target unit", overlapping nothing, wholly on the
table, and not touching a model of a non-target enemy unit. The shortest route picks the
initial charger ("the nearest model by the shortest route").

The system modules (:mod:`rules.heresy.charge`, :mod:`rules.classic40k.charge`) decide the dice
and how far the charge may go; this module holds the geometry and the resolution they share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional, Sequence

from tapeline.board.measure import gap
from tapeline.board.placement import place_around
from tapeline.board.units import TOUCH

from .charge_geometry import MoveRules, Plan, best_plan, near_group, radius
from .charge_odds import ChargeOdds
from .state import GameState

#: "Base contact" goal: the centre within this of touching (far below TOUCH).
CONTACT_SLACK = 1e-7
#: 40k 3rd and Horus Heresy unit coherency: 2" between models (HH Skirmish: 3").
CHAIN_LINK = 2.0


def contact_rules(state: GameState, unit_id: str, fig, targets: Sequence[str], extra_pieces: Sequence = ()) -> MoveRules:
    """Path and end rules for one model of ``unit_id`` charging ``targets``."""
    rho = radius(fig)
    own = {p.id for p in state.table.stack(fig.on)}
    blocked = tuple(p for p in state.table.pieces if p.id not in own and (p.has("impassable") or p.id in extra_pieces))
    others = tuple(f for f in state.all_figures() if f.unit != unit_id)
    side = state.unit(unit_id).side
    keep = tuple((f, 0.0) for f in others if f.unit not in targets and state.unit(f.unit).side != side)
    return MoveRules(rho, rho, blocked, others, tuple(p for p in blocked), others, keep)


def contact_groups(state: GameState, fig, targets: Sequence[str]) -> list:
    return [near_group(radius(fig), state.figures_of(targets[0]), CONTACT_SLACK)]


def plan_contact(state: GameState, unit_id: str, targets: Sequence[str], leader: Optional[str] = None, extra_pieces: Sequence = ()) -> Plan:
    figs = state.figures_of(unit_id) if leader is None else [state.figure(leader)]
    return best_plan(state, figs, lambda f: contact_rules(state, unit_id, f, targets, extra_pieces), lambda f: contact_groups(state, f, targets))


@dataclass(frozen=True)
class ContactCharge:
    """The ``charge`` answer for a base-contact system."""

    unit: str
    targets: tuple
    leader: Optional[str]
    plan: Optional[Plan]
    odds: ChargeOdds
    allowed: bool = True
    reason: str = ""
    details: dict = field(default_factory=dict)

    @property
    def distance(self) -> Optional[float]:
        return None if self.plan is None else self.plan.distance

    @property
    def path(self) -> list:
        return [] if self.plan is None or self.plan.path is None else self.plan.path.points()

    @property
    def end(self):
        return None if self.plan is None or self.plan.path is None else self.plan.path.end


def move_in(state: GameState, unit_id: str, cc: ContactCharge, allowance: float) -> tuple[GameState, dict]:
    """Move the initial charger along its path into base contact and bring the rest in:
    each as close to the target as possible (base contact first), within ``allowance`` of
    where it stands and within 2" of a model already moved; a model that cannot is left
    where it is (reported)."""
    lead = state.figure(cc.plan.leader)
    end = cc.plan.path.end
    moved = lead.moved(end[0], end[1], None)
    new = state.with_figures([moved])
    targets = [f for t in cc.targets for f in state.figures_of(t)]
    rest = sorted((f for f in state.figures_of(unit_id) if f.id != lead.id), key=lambda f: (min(gap(f, t) for t in targets), f.id))
    others = [f for f in state.all_figures() if f.unit != unit_id]
    pieces = [p for p in state.table.pieces if p.has("impassable")]
    side = state.unit(unit_id).side
    keep = [(f, 0.0) for f in others if f.unit not in cc.targets and state.unit(f.unit).side != side]
    pl = place_around(moved, rest, state.table, others, pieces, targets, keep, math.inf, None, 2.0, CHAIN_LINK, allowance)
    new = new.with_figures([f.moved(*pl.positions[f.id], None) for f in rest if f.id in pl.positions])
    in_contact = [f.id for f in new.figures_of(unit_id) if any(abs(gap(f, t)) <= 10 * TOUCH for t in targets)]
    return new, {"end": end, "placed": dict(pl.positions), "stayed": sorted(pl.unplaced), "in_contact": in_contact}


def resolve_contact(state: GameState, unit_id: str, cc: ContactCharge, rolls: Sequence[int], fail_note: str,
                    no_roll_allowance: float = 0.0) -> tuple[GameState, dict]:
    """Resolve a base-contact charge with the dice: on a failure nothing moves (``fail_note``
    says what follows); on a success the chargers move in with the rolled allowance (or
    ``no_roll_allowance`` when the charge needed no roll)."""
    result = cc.odds.dice.result(rolls)
    ok = cc.odds.succeeds(result)
    info = {"roll": result, "rolls": list(rolls), "success": ok, "charge": cc}
    if not ok:
        info["note"] = fail_note
        return state, info
    allowance = cc.odds.base + result if cc.odds.dice.dice else max(no_roll_allowance, cc.odds.base + result)
    new, moved = move_in(state, unit_id, cc, allowance)
    info.update(moved)
    return new, info
