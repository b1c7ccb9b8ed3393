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

from dataclasses import dataclass, field
from typing import Any, Collection, Optional, Sequence

from tapeline.board.measure import gap
from tapeline.board.table import Figure
from tapeline.board.units import TOUCH

from .charge_geometry import Group, MoveRules, Plan, best_plan, near_group, radius
from .charge_odds import ChargeOdds
from .state import GameState
from .unit_move import CHAIN_LINK, CONTACT_SLACK, ModelMove, move_models

__all__ = ["CHAIN_LINK", "CONTACT_SLACK", "ContactCharge", "contact_rules", "plan_contact", "move_in", "move_unit", "resolve_contact"]


def contact_rules(state: GameState, unit_id: str, fig: Figure, targets: Sequence[str], extra_pieces: Collection[str] = ()) -> MoveRules:
    """Path and end rules for one model of ``unit_id`` charging ``targets``."""
    rho = radius(fig)
    own = {p.id for p in state.table.stack(fig.on)}
    blocked = tuple(p for p in state.table.pieces if p.id not in own and (p.has("impassable") or p.id in extra_pieces))
    others = tuple(f for f in state.all_figures() if f.unit != unit_id)
    side = state.unit(unit_id).side
    keep = tuple((f, 0.0) for f in others if f.unit not in targets and state.unit(f.unit).side != side)
    return MoveRules(rho, rho, blocked, others, tuple(p for p in blocked), others, keep)


def contact_groups(state: GameState, fig: Figure, targets: Sequence[str]) -> list[Group]:
    return [near_group(radius(fig), state.figures_of(targets[0]), CONTACT_SLACK)]


def plan_contact(state: GameState, unit_id: str, targets: Sequence[str], leader: Optional[str] = None,
                 extra_pieces: Collection[str] = ()) -> Optional[Plan]:
    """The best initial charger's shortest route into base contact (``None``: no model to move)."""
    figs = state.figures_of(unit_id) if leader is None else [state.figure(leader)]
    return best_plan(state, figs, lambda f: contact_rules(state, unit_id, f, targets, extra_pieces), lambda f: contact_groups(state, f, targets))


@dataclass(frozen=True)
class ContactCharge:
    """The ``charge`` answer for a base-contact system."""

    unit: str
    targets: tuple[str, ...]
    leader: Optional[str]
    plan: Optional[Plan]
    odds: ChargeOdds
    allowed: bool = True
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)  # the system's own entries, JSON-ready

    @property
    def distance(self) -> Optional[float]:
        return None if self.plan is None else self.plan.distance

    @property
    def path(self) -> list[tuple[float, float]]:
        return [] if self.plan is None or self.plan.path is None else self.plan.path.points()

    @property
    def end(self) -> Optional[tuple[float, float]]:
        return None if self.plan is None or self.plan.path is None else self.plan.path.end


def gate(what: str, distance: float, limit: float, rule: str) -> dict[str, Any]:
    """The distance test that decides whether a unit may charge, JSON-ready, with its words:
    ``what`` the test (``"within"``, ``"in sight and within"``), the ``distance`` measured, the
    ``limit`` and the margin (negative beyond it).

    >>> gate("within", 4.5, 6.0, "§X")["text"], gate("within", 6.25, 6.0, "§X")["text"]
    ('within 6" by 1.5"', 'beyond 6" by 0.25"')
    """
    margin = limit - distance
    words = f'{what} {limit:g}" by {round(margin, 6):g}"' if margin >= -TOUCH else f'beyond {limit:g}" by {round(-margin, 6):g}"'
    return {"text": words, "distance": round(distance, 9), "limit": limit, "margin": round(margin, 9), "rule": rule}


def charge_order(state: GameState, unit_id: str, first: str, targets: Sequence[str]) -> list[str]:
    """The order a unit's models move in a charge: the initial charger, then the others nearest
    the targets first (straight-line gap; ties by id) — the rules let the player pick any
    order; this is tapeline's documented default."""
    tf = [f for t in targets for f in state.figures_of(t)]
    rest = sorted((f for f in state.figures_of(unit_id) if f.id != first), key=lambda f: (min(gap(f, t) for t in tf), f.id))
    return [first] + [f.id for f in rest]


def move_unit(state: GameState, unit_id: str, first: str, targets: Sequence[str], allowance: float) -> tuple[GameState, list[ModelMove]]:
    """Every model of the unit moves up to ``allowance`` inches towards the targets, the
    initial model ``first`` by its shortest route, the rest as close as possible in coherency
    with a model already moved, each path checked by the validator (:mod:`rules.unit_move`)."""
    goal = [f for t in targets for f in state.figures_of(t)]
    order = charge_order(state, unit_id, first, targets)
    return move_models(state, unit_id, order, allowance, lambda st, f: contact_rules(st, unit_id, f, targets), goal)


def move_in(state: GameState, unit_id: str, cc: ContactCharge, allowance: float) -> tuple[GameState, dict[str, object]]:
    """Move the initial charger along its route into base contact and bring the rest in, each
    within ``allowance`` along its own checked path (:func:`move_unit`); a model that cannot
    move legally stays where it is (reported)."""
    assert cc.plan is not None  # a charge moves in only along a route it has
    new, moves = move_unit(state, unit_id, cc.plan.leader, cc.targets, allowance)
    lead = next(m for m in moves if m.model == cc.plan.leader)
    placed = {m.model: m.end for m in moves if m.model != cc.plan.leader and m.how != "stayed"}
    stayed = sorted(m.model for m in moves if m.how == "stayed")
    in_contact = [m.model for m in moves if m.contact]
    return new, {"end": lead.end, "placed": placed, "stayed": stayed, "in_contact": in_contact, "moves": [m.as_json() for m in moves]}


def resolve_contact(state: GameState, unit_id: str, cc: ContactCharge, rolls: Sequence[int], fail_note: str,
                    no_roll_allowance: float = 0.0) -> tuple[GameState, dict[str, object]]:
    """Resolve a base-contact charge with the dice: on a failure nothing moves (``fail_note``
    says what follows); on a success the chargers move in with the rolled allowance (or
    ``no_roll_allowance`` when the charge needed no roll)."""
    result = cc.odds.dice.result(rolls)
    ok = cc.odds.succeeds(result)
    info: dict[str, object] = {"roll": result, "rolls": list(rolls), "success": ok, "charge": cc}
    if not ok:
        info["note"] = fail_note
        return state, info
    allowance = cc.odds.base + result if cc.odds.dice.dice else max(no_roll_allowance, cc.odds.base + result)
    new, moved = move_in(state, unit_id, cc, allowance)
    info.update(moved)
    return new, info
