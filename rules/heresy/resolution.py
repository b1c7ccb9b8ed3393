"""Horus Heresy 3rd Resolution sub-phase (§A.10): Combat Resolution Points, the winner, the
loser's Panic Check, Massacre, and the Aftermath options each unit may choose.

1. **Combat Resolution Points**, one total per player (side) over all its units in the combat:
   +1 per enemy model removed as a casualty in this Fight sub-phase (challenge duellists
   included); +1 for the side that controls the most models in the combat (a Paragon or a
   Walker counts as its base Wounds; a tie gives it to nobody); the challenge's Glory
   (:mod:`rules.heresy.challenge`); points from wargear and special rules (given by the file).
2. **Winner**: the higher total; a tie is a draw (no Panic Check).
3. **Panic Check**: the loser takes one Leadership Check with a penalty equal to the
   difference; failed, every losing model becomes Routed. Not taken if every losing unit is
   already Routed. The unit tested is the losing unit with the best Leadership to test (a
   Sergeant's or Command model's value may stand for the unit, :mod:`rules.heresy.checks`).
4. **Aftermath** (:data:`OPTIONS`): the loser declares first. A unit with a Routed model must
   Fall Back; a Vehicle may only Hold; a Pinned unit may not Pursue or Disengage; Disengage is
   for the losing side only; Pursue and Gun Down are for the winning side when every enemy
   unit of the combat has fallen back; Consolidate when every enemy unit fell back or
   disengaged.

**Massacre**: if every model of one side in the combat was removed during this round, the
other side skips the comparison, is no longer locked, and must Consolidate.

Worked example: A kills 3 and has 7 models left, B kills 1 and has 4 → A 4,
B 1: A wins by 3; B's Panic Check with LD 7 is against 4 (case 25).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from ..dice import Dice
from ..errors import IllegalAction
from ..state import GameState
from .challenge import end_duel
from .checks import model_stat, take_check, unit_characteristic
from .combat import combat_of, is_vehicle
from .statuses import gain_status

RULE = "HH3 §A.10 Resolution"
OPTIONS = ("hold", "disengage", "fall_back", "gun_down", "pursue", "consolidate")


def model_count(state: GameState, unit_id: str) -> int:
    """Models a unit counts for "the most models" (§A.10): a Paragon or a Walker counts as its
    base Wounds."""
    u = state.unit(unit_id)
    n = 0
    for m in u.models:
        t = (model_stat(state, m, "unit_type") or "").lower()
        if t in ("paragon", "walker"):
            n += int(model_stat(state, m, "wounds") or 1)
        else:
            n += 1
    return n


@dataclass
class Resolution:
    """The outcome of a combat's Resolution: points per side (with the breakdown), the winner
    and loser (``None`` for a draw), the difference, Massacre."""

    combat: list[str]
    points: dict[str, int]
    breakdown: dict[str, dict[str, int]]
    winner: Optional[str]
    loser: Optional[str]
    difference: int
    massacre: bool = False
    panic: Optional[dict[str, Any]] = None
    events: list[dict[str, Any]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"combat": self.combat, "points": self.points, "breakdown": self.breakdown, "winner": self.winner,
                "loser": self.loser, "difference": self.difference, "massacre": self.massacre, "panic": self.panic}


def sides_of(state: GameState, units: Sequence[str]) -> list[str]:
    out: list[str] = []
    for u in units:
        s = state.unit(u).side
        if s not in out:
            out.append(s)
    return out


def points(state: GameState, units: Sequence[str], casualties: Mapping[str, int], glory: Mapping[str, int],
           bonus: Mapping[str, int]) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Combat Resolution Points per side (§A.10 step 1) and their breakdown.

    ``casualties``: models removed per unit in this Fight sub-phase; ``glory``: the challenge's
    points per side; ``bonus``: points from wargear and special rules per side."""
    sides = sides_of(state, units)
    counts = {s: sum(model_count(state, u) for u in units if state.unit(u).side == s) for s in sides}
    best = max(counts.values()) if counts else 0
    most = [s for s in sides if counts[s] == best]
    pts: dict[str, int] = {}
    br: dict[str, dict[str, int]] = {}
    for s in sides:
        kills = sum(int(casualties.get(u, 0)) for u in units if state.unit(u).side != s)
        b = {"casualties": kills, "most_models": 1 if len(most) == 1 and most[0] == s else 0,
             "challenge": int(glory.get(s, 0)), "special": int(bonus.get(s, 0)), "models": counts[s]}
        br[s] = b
        pts[s] = b["casualties"] + b["most_models"] + b["challenge"] + b["special"]
    return pts, br


def resolve_combat(state: GameState, unit_id: str, dice: Dice, bonus: Optional[Mapping[str, int]] = None,
                   panic_unit: Optional[str] = None, units: Optional[Sequence[str]] = None) -> tuple[GameState, Resolution]:
    """Steps 1–3 for the combat ``unit_id`` is in (or the units given): CRP, winner, Panic Check."""
    units = list(units) if units is not None else recorded_combat(state, unit_id)
    cas = state.turn.get("fight_casualties") or {}
    glory = state.turn.get("glory") or {}
    sides = sides_of(state, units)
    if len(sides) < 2:
        raise IllegalAction(RULE, f"{unit_id} is not in a combat")
    pts, br = points(state, units, cas, glory, bonus or {})
    alive = {s: sum(len(state.unit(u).models) for u in units if state.unit(u).side == s) for s in sides}
    dead = [s for s in sides if alive[s] == 0]
    if len(dead) == 1:
        winner = next(s for s in sides if s not in dead)
        res = Resolution(units, pts, br, winner, dead[0], 0, massacre=True)
        res.events.append({"type": "resolution", **res.as_json()})
        return state, res
    ranked = sorted(sides, key=lambda s: -pts[s])
    if len(sides) == 2 and pts[ranked[0]] == pts[ranked[1]]:
        res = Resolution(units, pts, br, None, None, 0)
        res.events.append({"type": "resolution", **res.as_json()})
        return state, res
    winner, loser = ranked[0], ranked[1]
    diff = pts[winner] - pts[loser]
    res = Resolution(units, pts, br, winner, loser, diff)
    res.events.append({"type": "resolution", **res.as_json()})
    state = panic_check(state, res, dice, panic_unit)
    return state, res


def recorded_combat(state: GameState, unit_id: str) -> list[str]:
    """The units of the combat ``unit_id`` fought in this phase (as the Fight sub-phase recorded
    it, so units wiped out still count), else the combat it is in now."""
    for c in state.turn.get("combats") or ():
        if unit_id in c:
            return [u for u in c if state.has_unit(u)]
    return combat_of(state, unit_id)


def panic_check(state: GameState, res: Resolution, dice: Dice, panic_unit: Optional[str] = None) -> GameState:
    """§A.10 step 3: the loser's Leadership Check at −difference; failed → all its models Routed."""
    losing = [u for u in res.combat if state.unit(u).side == res.loser and state.unit(u).models]
    if not losing:
        return state
    if all("routed" in state.unit(u).status for u in losing):
        res.panic = {"taken": False, "why": "every losing unit is already Routed"}
        return state
    if panic_unit is not None:
        if panic_unit not in losing:
            raise IllegalAction(RULE, f"{panic_unit} is not a losing unit of this combat (one of {', '.join(losing)})")
        tester = panic_unit
    else:
        tester = max(losing, key=lambda u: (unit_characteristic(state, u, "leadership")[0], -losing.index(u)))
    dice.take_events()
    chk = take_check(state, tester, "leadership", dice, "Panic Check", -res.difference)
    res.events += dice.take_events() + [chk.as_event("Panic Check")]
    res.panic = {"taken": True, "unit": tester, "target": chk.target, "rolls": list(chk.rolls), "passed": chk.passed}
    if not chk.passed:
        for u in losing:
            state, ev = gain_status(state, u, "routed", f"failed the Panic Check by {res.loser} (§A.10)")
            res.events += ev
    return state


def allowed_options(state: GameState, unit_id: str, res: Resolution, chosen: Mapping[str, str]) -> list[str]:
    """The Aftermath options ``unit_id`` may choose, given what the other units chose (§A.10)."""
    u = state.unit(unit_id)
    if res.massacre and u.side == res.winner:
        return ["consolidate"]
    if "routed" in u.status:
        return ["fall_back"]
    if is_vehicle(state, unit_id):
        return ["hold"]
    opts = ["hold", "fall_back"]
    pinned = "pinned" in u.status
    if res.loser == u.side and not pinned:
        opts.append("disengage")
    if res.winner == u.side:
        enemies = [e for e in res.combat if state.unit(e).side != u.side and state.has_unit(e)]
        fled = all(chosen.get(e) == "fall_back" or not state.unit(e).models for e in enemies)
        left = all(chosen.get(e) in ("fall_back", "disengage") or not state.unit(e).models for e in enemies)
        if fled:
            opts.append("gun_down")
            if not pinned:
                opts.append("pursue")
        if left:
            opts.append("consolidate")
    return opts


def declaration_order(state: GameState, res: Resolution, active_side: Optional[str] = None) -> list[str]:
    """The loser's units first, then the others (a draw: the active side chooses who declares
    first; tapeline's default is the side that is not active, so the active player sees it)."""
    units = [u for u in res.combat if state.has_unit(u) and state.unit(u).models]
    first = res.loser
    if first is None:
        sides = sides_of(state, units)
        first = next((s for s in sides if s != active_side), sides[0]) if sides else None
    return [u for u in units if state.unit(u).side == first] + [u for u in units if state.unit(u).side != first]


def resolution(state: GameState, unit_id: str, dice: Dice, bonus: Optional[Mapping[str, int]] = None,
               panic_unit: Optional[str] = None) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    """The ``resolution`` action: the duellists return to their units (:func:`~.challenge.end_duel`),
    then :func:`resolve_combat`; what it found is kept for every unit of the combat (the
    Aftermath and the ``combat_result`` expectation read it). Returns the new state, the events
    and the resolution."""
    state, events = end_duel(state)
    dice.take_events()
    new, res = resolve_combat(state, unit_id, dice, bonus, panic_unit)
    done = dict(new.turn.get("resolutions") or {})
    for u in res.combat:
        done[u] = res.as_json()
    new = new.with_turn("resolutions", done)
    return new, events + res.events, res.as_json()


def combat_record(state: GameState, unit_id: str) -> dict[str, Any] | str:
    """What the last resolution of ``unit_id``'s combat found (or why there is none): the
    winner, the points, Massacre and the Panic Check (``passed``, ``failed``, ``none``)."""
    got = (state.turn.get("resolutions") or {}).get(unit_id)
    if got is None:
        return f"{unit_id}'s combat has not been resolved"
    p = got.get("panic")
    panic = "none" if not p or not p.get("taken") else ("passed" if p["passed"] else "failed")
    detail = f"points {got['points']}, winner {got['winner'] or 'none (draw)'}, massacre {got['massacre']}, panic {got.get('panic')}"
    return {"winner": got["winner"], "points": got["points"], "massacre": got["massacre"], "panic": panic, "detail": detail}
