"""Horus Heresy 3rd edition Charge sub-phase geometry and odds (§A.3).

1. One enemy unit is declared; at least one charger must see a target model, and the closest
   such pair (base to base) must be within **12"** (a range limit, not a move allowance).
2. **Set-up Move**: its distance comes from Initiative + Movement (Heavy: Movement alone)
   through :data:`SETUP_TABLE`; none when the charge is Disordered (a model with a status, or
   the unit disembarked: status ``disordered``). If it brings a model into base contact the
   charge succeeds at once.
3. **Charge roll**: 2D6, discard the lower die; the charge succeeds when the roll covers the
   remaining distance to base contact.

Geometry (shared with 40k, :mod:`rules.contact_charge`): the initial charger is the model with
the shortest route to base contact with the target unit; "remaining distance" is that route's
length minus the Set-up Move (the route, not the straight gap, so a success can always be
moved). Line of sight comes from the system's ``visible`` (true line of sight by heights).
"""

from __future__ import annotations

from typing import Optional, Sequence

from tapeline.board.measure import gap_matrix
from tapeline.board.units import TOUCH

from ..charge_odds import BEST_OF_2D6, NO_ROLL, charge_odds
from ..contact_charge import ContactCharge, plan_contact, resolve_contact
from ..errors import IllegalAction
from ..state import GameState
from ..systems import system

RULE = "HH3 §A.3 Charge"
MAX_RANGE = 12.0
#: (lowest Initiative + Movement, Set-up Move inches), §A.3 table.
SETUP_TABLE = ((20, 6), (14, 5), (12, 4), (10, 3), (7, 2), (1, 1))
NO_CHARGE = ("pinned", "routed")
DISORDERING = ("stunned", "suppressed", "disordered")


def setup_move(movement: int, initiative: int, heavy: bool = False) -> int:
    """Set-up Move distance (§A.3 table): ``setup_move(7, 4) == 3`` (a Legionary)."""
    s = movement if heavy else movement + initiative
    for lo, d in SETUP_TABLE:
        if s >= lo:
            return d
    return 0


def _stat(u, name: str) -> int:
    v = u.stats.get(name)
    if v is None:
        raise IllegalAction(RULE, f"unit {u.id} needs stats.{name} for a Horus Heresy charge")
    return int(v)


def _check(state: GameState, unit_id: str, targets: Sequence[str]) -> None:
    u = state.unit(unit_id)
    if len(targets) != 1:
        raise IllegalAction(RULE, "a Horus Heresy charge declares exactly one target unit")
    t = targets[0]
    if not state.has_unit(t) or state.unit(t).side == u.side:
        raise IllegalAction(RULE, f"{t!r} is not an enemy unit")
    bad = sorted(set(u.status) & set(NO_CHARGE))
    if bad:
        raise IllegalAction(RULE, f"{unit_id} is {', '.join(bad)} and cannot charge")
    if (u.stats.get("unit_type") or "").lower() == "vehicle":
        raise IllegalAction(RULE, "vehicles can never charge")


def sight_and_range(state: GameState, unit_id: str, target: str) -> tuple[Optional[float], Optional[tuple]]:
    """The closest base-to-base distance between a charger and a target model that see each
    other (``None`` when no pair does), and that pair."""
    sysmod = system(state.system)
    fa, fb = state.figures_of(unit_id), state.figures_of(target)
    g = gap_matrix(fa, fb)
    vis = sysmod.visibility_matrix(state, unit_id, target)
    if not vis.any():
        return None, None
    g = g.copy()
    g[~vis] = float("inf")
    i, j = divmod(int(g.argmin()), g.shape[1])
    return max(0.0, float(g[i, j])), (fa[i].id, fb[j].id)


def reach(state: GameState, unit_id: str, targets: Sequence[str], leader: Optional[str] = None, modifier: int = 0) -> ContactCharge:
    targets = tuple(targets)
    _check(state, unit_id, targets)
    u = state.unit(unit_id)
    disordered = bool(set(u.status) & set(DISORDERING))
    heavy = "heavy" in u.tags or (u.stats.get("unit_type") or "").lower() == "heavy"
    setup = 0 if disordered else setup_move(_stat(u, "movement"), _stat(u, "initiative"), heavy)
    los, pair = sight_and_range(state, unit_id, targets[0])
    plan = plan_contact(state, unit_id, targets, leader)
    details = {"setup_move": setup, "disordered": disordered, "closest_los_distance": los, "closest_los_pair": pair,
               "charge_roll": "2D6, discard the lower"}
    reason, allowed = "", True
    if los is None:
        allowed, reason = False, "no charger can see a model of the target unit (§A.3 step 2)"
    elif los > MAX_RANGE + TOUCH:
        allowed, reason = False, f"the closest pair that see each other is {los:.6g}\" apart, beyond 12\" (§A.3 step 2)"
    dist = plan.distance
    if not allowed or dist is None:
        odds = charge_odds(None, setup + modifier, BEST_OF_2D6)
    elif dist <= setup + TOUCH:
        odds = charge_odds(dist, setup, NO_ROLL)
        details["note"] = "the Set-up Move reaches base contact: the charge succeeds at once"
    else:
        odds = charge_odds(dist, setup + modifier, BEST_OF_2D6)
    return ContactCharge(unit_id, targets, plan.leader, plan, odds, allowed, reason, details)


def resolve(state: GameState, unit_id: str, targets: Sequence[str], rolls: Sequence[int], leader: Optional[str] = None,
            modifier: int = 0, target_models=None):
    cc = reach(state, unit_id, targets, leader, modifier)
    if not cc.allowed:
        raise IllegalAction(RULE, cc.reason)
    return resolve_contact(state, unit_id, cc, rolls, "charge failed: no move; the unit takes a Cool Check (Stunned on a fail)")
