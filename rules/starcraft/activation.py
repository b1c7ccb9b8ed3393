"""The round's activations: Phase 2 Assault and Phase 3 Combat (§8.2.1, §8.6, §8.8; §7.3.2
Activation Markers).

A replay may run without any of this (actions then resolve freely, one after another). Once a
``phase`` action starts a phase, the state carries a :class:`RoundState` and every game action
is an activation checked against it:

* **Phase 2 (Assault, §8.6)**: every unit on the table has its Activation Marker on the
  Movement side (Phase 1 is over), units still in Reserves excepted (they cannot act). The
  First Player Marker holder decides who starts; then the players alternate, one unit and one
  action per turn — Run, Hold, Charge or Ranged Attack — after which its marker turns to the
  Assault side. A player may Pass instead of activating; their units that did not activate are
  marked (Assault side) and they make no more activations this phase while the other finishes.
  **The first player to Pass takes the First Player Marker** for Phase 3. A successful Charge by
  a unit with IMPACT is followed at once by its ``impact``.
* **Phase 3 (Combat, §8.8)**: only Engaged units activate and every one must (Flying units
  never take part); the First Player Marker holder decides who starts; players alternate, one
  Engaged unit per turn (Close Ranks, then its Close Combat Attack); its marker is then
  removed. A player may Pass only with no Engaged unit left to activate; the phase ends when
  both have passed. A unit freed by a fight (no model within 1" of an enemy) that had not
  activated is no longer bound to fight (it effectively Passes, §8.8.1 step 5). An Engaged
  BURROWED unit must activate but attacks only after Close Ranks; without it, it Holds.

Acting out of turn, twice, after passing, with a unit in Reserves, with the wrong kind of action
for the phase, or passing with Engaged units left, is an :class:`IllegalAction` naming the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional, Sequence

from ..errors import IllegalAction
from ..state import GameState, frozen_map
from .casualties import is_engaged
from .impact import impact_of

ASSAULT, COMBAT, OVER = "assault", "combat", "over"
#: What each activation kind is, per phase.
PHASE2_ACTIONS = ("run", "hold", "charge", "ranged_attack")
PHASE3_ACTIONS = ("close_ranks", "fight", "hold")
R_ACT, R_PASS, R_COMBAT, R_IMPACT = "§8.6 Activations", "§8.2.1 Pass", "§8.8 Combat phase", "§11 IMPACT"


@dataclass(frozen=True)
class RoundState:
    """Where the round stands: ``phase``, whose ``turn`` it is, who has ``passed`` (in order),
    each unit's Activation Marker (``markers``: ``movement`` / ``assault``; absent: none or
    removed), the First Player Marker holder, a unit in the middle of its activation
    (``active``: Close Ranks done, attack to come) and a unit whose IMPACT must come next."""

    number: int
    phase: str
    sides: tuple[str, ...]
    first_player: str
    turn: Optional[str]
    passed: tuple[str, ...] = ()
    markers: Mapping[str, str] = field(default_factory=lambda: frozen_map({}))
    reserves: frozenset[str] = frozenset()
    active: Optional[str] = None
    pending_impact: Optional[str] = None
    first_to_pass: Optional[str] = None

    def as_json(self) -> dict[str, Any]:
        return {"round": self.number, "phase": self.phase, "first_player": self.first_player, "turn": self.turn,
                "passed": list(self.passed), "markers": dict(self.markers), "reserves": sorted(self.reserves),
                "active": self.active}


def sides_of(state: GameState) -> tuple[str, ...]:
    return tuple(dict.fromkeys(u.side for u in state.units))


def _round(state: GameState) -> Optional[RoundState]:
    rs = state.round
    return rs if isinstance(rs, RoundState) else None


def _with(state: GameState, rs: RoundState) -> GameState:
    return replace(state, round=rs)


def must_fight(state: GameState, side: str) -> list[str]:
    """The side's units still to activate in Phase 3: a marker left and Engaged now."""
    rs = _round(state)
    assert rs is not None  # asked only while a phase is in progress
    return [u.id for u in state.units if u.side == side and rs.markers.get(u.id) and u.models
            and not u.flying and is_engaged(state, u.id)]


def start(state: GameState, phase: str, first_player: Optional[str] = None, starts: Optional[str] = None,
          reserves: Sequence[str] = ()) -> tuple[GameState, list[dict[str, Any]]]:
    """Begin Phase 2 (``assault``, a new round) or Phase 3 (``combat``, after Phase 2)."""
    sides = sides_of(state)
    if len(sides) != 2:
        raise IllegalAction(R_ACT, f"a round needs exactly two players; the file has sides {', '.join(sides) or 'none'}")
    prev = _round(state)
    for s in (first_player, starts):
        if s is not None and s not in sides:
            raise IllegalAction(R_ACT, f"no player {s!r} (players: {', '.join(sides)})")
    if phase == ASSAULT:
        if prev is not None and prev.phase != OVER:
            raise IllegalAction(R_ACT, f"round {prev.number} is still in its {prev.phase} phase")
        first = first_player or (prev.first_player if prev else None)
        if first is None:
            raise IllegalAction(R_ACT, "name the player holding the First Player Marker (first_player)")
        for r in reserves:
            if not state.has_unit(r):
                raise IllegalAction(R_ACT, f"no unit {r!r}")
        markers = {u.id: "movement" for u in state.units if u.models and u.id not in reserves}
        rs = RoundState((prev.number + 1) if prev else 1, ASSAULT, sides, first, starts or first,
                        markers=frozen_map(markers), reserves=frozenset(reserves))
    elif phase == COMBAT:
        if prev is None or prev.phase != ASSAULT or len(prev.passed) < 2:
            raise IllegalAction(R_COMBAT, "the Combat phase follows an Assault phase in which both players have passed")
        first = first_player or prev.first_to_pass or prev.first_player
        if first_player is not None and prev.first_to_pass and first_player != prev.first_to_pass:
            raise IllegalAction(R_PASS, f"{prev.first_to_pass} passed first in Phase 2 and holds the First Player Marker")
        markers = {u.id: "assault" for u in state.units if u.models and not u.flying and is_engaged(state, u.id)}
        rs = RoundState(prev.number, COMBAT, sides, first, starts or first, markers=frozen_map(markers),
                        reserves=prev.reserves)
    else:
        raise IllegalAction(R_ACT, f"unknown phase {phase!r}: assault or combat")
    state = _with(state, rs)
    ev: dict[str, Any] = {"type": "phase", "round": rs.number, "phase": rs.phase, "first_player": rs.first_player, "turn": rs.turn,
          "activations": sorted(rs.markers)}
    if phase == COMBAT:
        ev["must_fight"] = {s: must_fight(state, s) for s in sides}
    return state, [ev]


def _other(rs: RoundState, side: str) -> str:
    return next(s for s in rs.sides if s != side)


def before(state: GameState, unit_id: str, kind: str) -> GameState:
    """Check that ``unit_id`` may make an activation of ``kind`` now (no-op outside a round)."""
    rs = _round(state)
    if rs is None:
        return state
    if rs.pending_impact and not (kind == "impact" and unit_id == rs.pending_impact):
        raise IllegalAction(R_IMPACT, f"{rs.pending_impact}'s IMPACT resolves right after its successful Charge: resolve it first")
    if kind == "impact":
        if rs.pending_impact != unit_id:
            raise IllegalAction(R_IMPACT, f"IMPACT resolves right after a successful Charge, and {unit_id} has just made none")
        return state
    if rs.phase == OVER:
        raise IllegalAction(R_ACT, f"round {rs.number} is over: start the next with a phase action")
    if not state.has_unit(unit_id):
        raise IllegalAction(R_ACT, f"no unit {unit_id!r}")
    side = state.unit(unit_id).side
    if rs.active and unit_id != rs.active:
        raise IllegalAction(R_COMBAT, f"{rs.active} is in the middle of its activation: its Close Combat Attack comes next")
    if side in rs.passed:
        raise IllegalAction(R_PASS, f"{side} has passed and makes no more activations this phase")
    if side != rs.turn:
        raise IllegalAction(R_ACT if rs.phase == ASSAULT else R_COMBAT, f"it is {rs.turn}'s turn, not {side}'s")
    if rs.phase == ASSAULT:
        if kind not in PHASE2_ACTIONS:
            raise IllegalAction(R_ACT, f"Phase 2 activations are Run, Hold, Charge or Ranged Attack, not {kind.replace('_', ' ')}")
        if unit_id in rs.reserves:
            raise IllegalAction(R_ACT, f"{unit_id} is in Reserves and cannot act this phase")
        if rs.markers.get(unit_id) != "movement":
            raise IllegalAction(R_ACT, f"{unit_id} has already activated this phase (its marker is on the Assault side)")
        return state
    if kind not in PHASE3_ACTIONS:
        raise IllegalAction(R_COMBAT, f"Phase 3 activations are Close Combat Attacks (with Close Ranks), not {kind.replace('_', ' ')}")
    if unit_id == rs.active:
        if kind == "close_ranks":
            raise IllegalAction("§8.8.1 Close Ranks", f"{unit_id} has already Closed Ranks in this activation")
        if kind == "hold":
            raise IllegalAction(R_COMBAT, f"{unit_id} has Closed Ranks (no longer BURROWED): its Close Combat Attack follows")
        return state
    if not rs.markers.get(unit_id) and is_engaged(state, unit_id):
        raise IllegalAction(R_COMBAT, f"{unit_id} has already fought this phase")
    if not is_engaged(state, unit_id):
        raise IllegalAction(R_COMBAT, f"{unit_id} is not Engaged: only Engaged units activate in the Combat phase")
    if kind == "hold" and "burrowed" not in state.unit(unit_id).status:
        raise IllegalAction(R_COMBAT, f"every Engaged unit must fight: {unit_id} cannot Hold in the Combat phase")
    return state


def after(state: GameState, unit_id: str, kind: str, success: bool = True) -> tuple[GameState, list[dict[str, Any]]]:
    """Record the activation (no-op outside a round): flip or remove the marker, pass the turn."""
    rs = _round(state)
    if rs is None:
        return state, []
    if kind == "impact":
        return _with(state, replace(rs, pending_impact=None)), []
    if kind == "close_ranks":
        return _with(state, replace(rs, active=unit_id)), []
    side = state.unit(unit_id).side
    markers = dict(rs.markers)
    events: list[dict[str, Any]] = []
    if rs.phase == ASSAULT:
        markers[unit_id] = "assault"
    else:
        markers.pop(unit_id, None)
        for u in state.units:  # freed units that had not fought effectively Pass (§8.8.1 step 5)
            if u.id in markers and not is_engaged(state, u.id):
                markers.pop(u.id)
                if u.models:
                    events.append({"type": "freed", "unit": u.id,
                                   "why": "no longer Engaged: it does not fight this phase (§8.8.1 step 5)"})
    other = _other(rs, side)
    turn = other if other not in rs.passed else side
    pending = None
    if kind == "charge" and success:
        if impact_of(state, unit_id) is not None:
            pending = unit_id
    rs = replace(rs, markers=frozen_map(markers), turn=turn, active=None, pending_impact=pending)
    events.append({"type": "activated", "unit": unit_id, "action": kind, "phase": rs.phase, "next_turn": turn})
    return _with(state, rs), events


def pass_turn(state: GameState, side: str) -> tuple[GameState, list[dict[str, Any]]]:
    """``side`` Passes (§8.2.1; Phase 3: only with no Engaged unit left to activate)."""
    rs = _round(state)
    if rs is None or rs.phase == OVER:
        raise IllegalAction(R_PASS, "no phase is in progress: start one with a phase action")
    if side not in rs.sides:
        raise IllegalAction(R_PASS, f"no player {side!r} (players: {', '.join(rs.sides)})")
    if rs.pending_impact:
        raise IllegalAction(R_IMPACT, f"{rs.pending_impact}'s IMPACT resolves right after its successful Charge: resolve it first")
    if rs.active:
        raise IllegalAction(R_COMBAT, f"{rs.active} is in the middle of its activation: its Close Combat Attack comes next")
    if side in rs.passed:
        raise IllegalAction(R_PASS, f"{side} has already passed this phase")
    if side != rs.turn:
        raise IllegalAction(R_PASS, f"it is {rs.turn}'s turn, not {side}'s")
    markers = dict(rs.markers)
    events: list[dict[str, Any]] = []
    if rs.phase == ASSAULT:
        marked = [u for u, m in markers.items() if m == "movement" and state.unit(u).side == side]
        for u in marked:
            markers[u] = "assault"
        events.append({"type": "pass", "side": side, "phase": rs.phase, "marked": marked})
    else:
        left = must_fight(state, side)
        if left:
            raise IllegalAction(R_COMBAT, f"{side} still has Engaged units to activate ({', '.join(left)}): a player passes only with none left")
        events.append({"type": "pass", "side": side, "phase": rs.phase})
    passed = rs.passed + (side,)
    first = rs.first_to_pass or side
    other = _other(rs, side)
    if len(passed) == 2:
        phase, turn = (OVER if rs.phase == COMBAT else rs.phase), None
        new_first = first if rs.phase == ASSAULT else rs.first_player
        events.append({"type": "phase_end", "round": rs.number, "phase": rs.phase}
                      | ({"first_player_marker": first} if rs.phase == ASSAULT else {}))
        rs = replace(rs, phase=phase, turn=turn, passed=passed, markers=frozen_map(markers), first_to_pass=first,
                     first_player=new_first)
    else:
        rs = replace(rs, turn=other, passed=passed, markers=frozen_map(markers), first_to_pass=first)
    return _with(state, rs), events
