"""StarCraft TMG Charge (§8.7.7): reach, exact odds, resolution and placement.

1. An Unengaged Ground unit declares Ground targets (no line of sight needed).
2. Charge Roll Distance = Speed + 1D6 (split Speed "4/7": the second value for a unit of one
   model, §5.1), with modifiers (Concussive Shells: DEBUFF Speed (2), i.e. −2; the unit status
   ``concussed`` applies it too) and "roll 2D6 and use the higher" abilities (Zergling
   Metabolic Boost, Zealot Charge: ability ``metabolic-boost``, ``charge`` or
   ``charge_best_of_two``).
3. It succeeds iff the Leading Model can legally end Wholly Within the Charge Roll Distance of
   its start, measured along the real path (Gap Clearance, around impassable obstacles): within
   1" of every declared target unit, overlapping nothing, wholly on the table, not within 1" of
   an undeclared enemy unit. For a round base moved by translation, "wholly within D of its
   start along the path" is the centre's path length ≤ D (the path reference point is the
   base's centre: setting ``path_reference``). The path climbs and descends through Access
   Points only (§8.5.3), so the goal is built for every level the Leading Model may end on,
   with its whole base on it, Engaged with every target from there (§7.2: High Ground and
   Ground Level never engage, Mid Ground another level only beside a shared Access Point;
   :mod:`rules.starcraft.charge_goal`).
4. The Leading Model is set in base contact with the nominated target model (one per target
   unit; with several, in contact with every one if the roll allows, else the spot that
   minimises the largest gap to them) if the rolled distance allows, else as close as possible
   within 1"; the rest are set in coherency with
   priority A base contact with declared targets, B within 1" of them, C close to the Leading
   Model; none within 1" of an undeclared enemy — at the spots the player gives, each checked,
   the others by the default that puts the most in base contact, then within 1"
   (:mod:`rules.starcraft.charge_followers`). A model that cannot be set legally with a link
   is removed (§4.4). Grass the Leading Model's path crosses, or a model ends on, is removed
   (§7.1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence

from tapeline.board.errors import GeometryError
from tapeline.board.measure import gap
from tapeline.board.regions import Region
from tapeline.board.table import Figure
from tapeline.board.units import TOUCH

from ..charge_answer import head, num, xy
from ..charge_geometry import Group, MoveRules, Plan, best_plan, closest_within, end_regions, radius
from ..charge_odds import BEST_OF_2D6, D6, ChargeDice, ChargeOdds, charge_odds
from .. import choices
from ..errors import IllegalAction
from ..state import GameState
from . import charge_followers as followers
from . import charge_goal as goal
from .elevation import Level, level
from .engagement import units_engaged
from .movement import ENGAGEMENT_RANGE, grass_crossed, grass_ended_on, move_rules, speed, without_grass

RULE = "§8.7.7 Charge"
BEST_OF_TWO = ("metabolic-boost", "charge", "charge_best_of_two")
CONCUSSIVE_SHELLS = -2
#: How many times a charge's goal search may be repeated after the full §7.2 check of its end
#: spot adds a shadow (several pieces separating the bases together; charge_goal.verify).
MAX_VERIFY_ROUNDS = 6
#: What a goal depends on besides the move rules: the base's radius and the extra shadows
#: (by target model: the shadows' ids).
RegionsKey = tuple[float, tuple[tuple[str, tuple[int, ...]], ...]]


@dataclass(frozen=True)
class ChargeReach:
    """Everything the ``charge`` query answers (the spec's JSON keys and more)."""

    unit: str
    targets: tuple[str, ...]
    leader: str
    speed: int
    modifier: int
    plan: Plan
    odds: ChargeOdds
    grass: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def distance(self) -> Optional[float]:
        return self.plan.distance

    @property
    def path(self) -> list[tuple[float, float]]:
        return [] if self.plan.path is None else self.plan.path.points()

    @property
    def end(self) -> Optional[tuple[float, float]]:
        return None if self.plan.path is None else self.plan.path.end


@dataclass(frozen=True)
class ChargeOutcome:
    """What a resolved Charge did: the roll, success, where the Leading Model ended and by
    which path, the nominated models (one per target unit) and the gaps to them, where the rest
    were set, who was removed (no legal linked spot, §4.4), and the Grass removed (§7.1)."""

    reach: ChargeReach
    roll: int
    rolls: tuple[int, ...]
    success: bool
    end: Optional[tuple[float, float]] = None
    path: list[tuple[float, float]] = field(default_factory=list)
    target_model: Optional[str] = None
    contact: bool = False
    end_gap: Optional[float] = None
    placed: dict[str, tuple[float, float]] = field(default_factory=dict)
    removed: tuple[str, ...] = ()
    out_of_coherency: tuple[str, ...] = ()
    grass_removed: tuple[str, ...] = ()
    target_models: dict[str, str] = field(default_factory=dict)   # target unit -> nominated model
    end_gaps: dict[str, float] = field(default_factory=dict)      # nominated model -> Leading Model's gap to it
    tiers: dict[str, str] = field(default_factory=dict)           # the rest: model -> priority tier A | B | C
    placement: dict[str, Any] = field(default_factory=dict)       # how the rest were set (charge_followers.Followers)


def engageable(state: GameState, target: str, mover: Optional[Figure] = None, on: goal.On = goal.HERE) -> list[Figure]:
    """The target unit's models a charger can engage from level ``on`` (a piece id, ``None``
    the ground; default: the level it stands on) (§7.2: High Ground and Ground Level never
    engage; Mid Ground and another level only beside a shared Access Point); without a
    ``mover``, from Ground Level."""
    if mover is None:
        return [f for f in state.figures_of(target) if level(state.table, f) != Level.HIGH]
    return goal.engageable(state, mover, target, on)


def end_levels(rules: MoveRules, start: goal.On = goal.HERE) -> list[Optional[str]]:
    """The levels a move under ``rules`` may end on: the ground, then every surface — with
    ``start`` (the level the mover stands on), only those its Access Points lead to (§8.5.3)."""
    if rules.levels is None:
        return [None]
    if start is goal.HERE:
        return [None] + list(rules.levels.surfaces)
    return rules.levels.connected(start)


def goal_regions(state: GameState, unit_id: str, targets: Sequence[str], fig: Figure, rules: Optional[MoveRules] = None,
                 extra: Optional[goal.Extra] = None, nominees: Sequence[Figure] = (),
                 k: Optional[float] = None) -> list[tuple[Optional[str], Region]]:
    """``(level, region)``: where ``fig`` of ``unit_id`` may end a Charge at ``targets`` — for
    each level, its whole base on it, Engaged with a model of every target from there
    (:mod:`rules.starcraft.charge_goal`); with ``nominees``, also within ``k`` of each."""
    if rules is None:
        undeclared = [e.id for e in state.enemies_of(unit_id) if e.id not in targets and not e.flying]
        rules = move_rules(state, unit_id, fig, keep_away_from=undeclared)
    extra = {} if extra is None else extra
    memo = goal.GoalMemo()  # the levels often see the same pieces round a target (charge_goal.shadows)
    if nominees and k is None:
        raise TypeError("goal_regions: nominees need the gap k")
    near = (k or 0.0) + 1e-9

    def goals(lv: Optional[str]) -> list[list[Group]]:
        groups = [goal.group(state, fig, t, extra, on=lv, memo=memo) for t in targets]
        groups += [tuple(goal.members(state, fig, nf, near, extra.get(nf.id, ()), on=lv, memo=memo)) for nf in nominees]
        return [groups] if all(groups) else []

    return end_regions(state, fig, rules, goals)


def charge_dice(state: GameState, unit_id: str) -> ChargeDice:
    abilities = state.unit(unit_id).stats.get("abilities") or ()
    return BEST_OF_2D6 if any(a in abilities for a in BEST_OF_TWO) else D6


def _check(state: GameState, unit_id: str, targets: Sequence[str]) -> None:
    u = state.unit(unit_id)
    if not u.models:
        raise IllegalAction(RULE, f"unit {unit_id} has no models on the table")
    if u.flying:
        raise IllegalAction(RULE, f"{unit_id} is Flying: Flying units cannot Charge")
    if not targets:
        raise IllegalAction(RULE, "declare at least one target")
    for t in targets:
        if not state.has_unit(t):
            raise IllegalAction(RULE, f"no unit {t!r}")
        tu = state.unit(t)
        if tu.side == u.side:
            raise IllegalAction(RULE, f"{t} is not an enemy of {unit_id}")
        if tu.flying:
            raise IllegalAction(RULE, f"{t} is Flying: Flying units cannot be charged")
        if not tu.models:
            raise IllegalAction(RULE, f"{t} has no models on the table")
    for e in state.enemies_of(unit_id):
        if units_engaged(state, unit_id, e.id):
            raise IllegalAction(RULE, f"{unit_id} is Engaged with {e.id}: only an Unengaged unit may Charge")
    if speed(state, unit_id) is None:
        raise IllegalAction(RULE, f"{unit_id} has Null Speed and cannot move")


def reach(state: GameState, unit_id: str, targets: Sequence[str], leader: Optional[str] = None, modifier: int = 0) -> ChargeReach:
    """The shortest legal charge for ``unit_id`` against ``targets`` and its exact odds."""
    targets = tuple(dict.fromkeys(targets))
    _check(state, unit_id, targets)
    u = state.unit(unit_id)
    if leader is not None and leader not in u.models:
        raise IllegalAction(RULE, f"{leader!r} is not a model of {unit_id}")
    undeclared = [e.id for e in state.enemies_of(unit_id) if e.id not in targets and not e.flying]
    notes: list[str] = []
    mod = int(modifier)
    if "concussed" in u.status:
        mod += CONCUSSIVE_SHELLS
        notes.append("Concussive Shells: DEBUFF Speed (2)")
    figs = state.figures_of(unit_id) if leader is None else [state.figure(leader)]

    rules_cache: dict[str, MoveRules] = {}

    def rules_of(f: Figure) -> MoveRules:
        if f.id not in rules_cache:
            rules_cache[f.id] = move_rules(state, unit_id, f, keep_away_from=undeclared)
        return rules_cache[f.id]

    extra: goal.Extra = {}
    seen: list[tuple[RegionsKey, MoveRules, list[Region]]] = []  # (base radius and extra shadows, rules, regions)

    def regions_of(f: Figure) -> list[Region]:
        # With every level named, the goal depends on the model only through its base's
        # radius and its move rules: models alike share one answer (and so one search graph).
        key: RegionsKey = (radius(f), tuple((k, tuple(map(id, v))) for k, v in extra.items()))
        rules = rules_of(f)
        hit = next((regs for k, r, regs in seen if k == key and r == rules), None)
        if hit is None:
            hit = [reg for _, reg in goal_regions(state, unit_id, targets, f, rules, extra)]
            seen.append((key, rules, hit))
        return hit

    plan = _engaging_plan(state, figs, targets, rules_of, regions_of, extra)
    if leader is None:
        choices.default(state.settings, "leader", plan.leader, [f.id for f in figs], RULE,
                        f"{unit_id}'s Leading Model (\"Pick the Leading Model\": any model of the unit; "
                        "the default is the one with the shortest route)")
    if plan.path is None:
        notes += _unreachable_notes(state, rules_of(figs[0]), targets)
    sp = speed(state, unit_id)
    assert sp is not None  # _check refused Null Speed
    odds = charge_odds(plan.distance, sp + mod, charge_dice(state, unit_id))
    grass = tuple(grass_crossed(state, plan.path.points())) if plan.path is not None else ()
    return ChargeReach(unit_id, targets, plan.leader, sp, mod, plan, odds, grass, tuple(notes))


def _engaging_plan(state: GameState, figs: Sequence[Figure], targets: Sequence[str],
                   rules_of: Callable[[Figure], MoveRules], regions_of: Callable[[Figure], list[Region]],
                   extra: goal.Extra) -> Plan:
    """The shortest plan whose end spot the full §7.2 rule confirms Engaged with every target
    (:func:`rules.starcraft.charge_goal.verify` adds shadows and the search runs again)."""
    for _ in range(MAX_VERIFY_ROUNDS):
        plan = best_plan(state, figs, rules_of, None, regions_of)
        assert plan is not None  # figs: the Leading Model, or the unit's models (_check: it has some)
        if plan.path is None or goal.verify(state, state.figure(plan.leader), plan.path.end, targets, extra, plan.level):
            return plan
    raise GeometryError(f"no end spot Engaged with {', '.join(targets)} settled after {MAX_VERIFY_ROUNDS} searches")


def _unreachable_notes(state: GameState, rules: MoveRules, targets: Sequence[str]) -> list[str]:
    """Why no end spot may be the levels' doing: a target standing wholly on High Ground (or
    Mid Ground) is engaged only from its own level (or beside an Access Point), reached only
    through Access Points (§7.2, §8.5.3)."""
    out: list[str] = []
    lv = rules.levels
    doors = lv.doors if lv is not None else ()
    for t in targets:
        figs = state.figures_of(t)
        levels = {level(state.table, f) for f in figs}
        if Level.GROUND in levels:
            continue
        tops = sorted({p.id for f in figs for p in state.table.stack(f.on)[:1]})
        open_ = [s for s in tops if lv is not None and any(s in (d.a, d.b) for d in doors)]
        where = ", ".join(tops) or "terrain"
        label = " and ".join(sorted(x.label for x in levels))
        how = (f"reached only through an Access Point ({', '.join(sorted({d.via for d in doors if {d.a, d.b} & set(open_)}))})"
               if open_ else f"and no Access Point leads onto {where}")
        out.append(f"{t} stands on {label} ({where}): a charger must end on that level or beside a shared Access Point "
                   f"to engage it (§7.2), {how}")
    return out


def resolve(state: GameState, unit_id: str, targets: Sequence[str], rolls: Sequence[int], leader: Optional[str] = None,
            modifier: int = 0, target_models: Optional[Mapping[str, str]] = None,
            spots: Optional[Mapping[str, tuple[float, float]]] = None) -> tuple[GameState, ChargeOutcome]:
    """Resolve a Charge with the given dice: the new state (unchanged on failure) and what
    happened. ``target_models`` nominates one model per target unit (default: the model of the
    first target nearest the Leading Model's end spot); ``spots`` sets some or all of the rest
    (each checked; the others by the default: :mod:`rules.starcraft.charge_followers`)."""
    rc = reach(state, unit_id, targets, leader, modifier)
    for t in target_models or {}:
        if t not in rc.targets:
            raise IllegalAction(RULE, f"a model is nominated in {t}, which is not a declared target ({', '.join(rc.targets)})")
    followers.check_keys(state, unit_id, rc.leader, spots or {})
    lead = state.figure(rc.leader)
    rules = move_rules(state, unit_id, lead, keep_away_from=[e.id for e in state.enemies_of(unit_id) if e.id not in rc.targets and not e.flying])
    # checked even if the charge fails
    nominees = nominated(state, rc.targets, rc.end, target_models, lead, rc.plan.level, end_levels(rules, rules.level_at(*lead.at)))
    result = rc.odds.dice.result(rolls)
    budget = rc.speed + rc.modifier + result
    ok = rc.odds.succeeds(result)
    if not ok:
        return state, ChargeOutcome(rc, result, tuple(rolls), False, target_models=dict(nominees))
    noms = [state.figure(m) for m in nominees.values()]
    extra: goal.Extra = {}
    path, reach_ = rc.plan.path, rc.plan.reach
    assert path is not None and reach_ is not None  # a charge that succeeds has a path
    try:
        for _ in range(MAX_VERIFY_ROUNDS):
            def goal_at(k: float, extra: goal.Extra = extra) -> list[Region]:
                return [reg for _, reg in goal_regions(state, unit_id, rc.targets, lead, rules, extra, noms, k)]

            p2, _ = closest_within(reach_, state, lead, rules, (), noms, budget, ENGAGEMENT_RANGE, goal_at=goal_at)
            if p2.length > budget + TOUCH:
                break
            if goal.verify(state, lead, p2.end, rc.targets, extra, rules.level_at(*p2.end)):
                path = p2
                break
    except GeometryError:  # the nominated models cannot be approached within budget: keep the shortest spot
        pass
    end = path.end
    moved = lead.moved(end[0], end[1], rules.level_at(*end))
    end_gaps = {m: gap(moved, state.figure(m)) for m in nominees.values()}
    end_gap = max(end_gaps.values())
    new, rest = followers.set_rest(state, state.with_figures([moved]), unit_id, rc.targets, moved, rules, spots)
    pts = path.points()
    grass = sorted(set(grass_crossed(state, pts)) | set(grass_ended_on(new, new.figures_of(unit_id))))
    new = without_grass(new, grass)
    return new, ChargeOutcome(rc, result, tuple(rolls), True, end, pts, nominees[rc.targets[0]], abs(end_gap) <= TOUCH, end_gap,
                              dict(rest.positions), rest.removed, rest.out_of_coherency, tuple(grass),
                              dict(nominees), end_gaps, dict(rest.tiers), rest.as_json())


def nominated(state: GameState, targets: Sequence[str], end: Optional[Sequence[float]],
              target_models: Optional[Mapping[str, str]] = None, mover: Optional[Figure] = None,
              on: goal.On = goal.HERE, levels: Sequence[goal.On] = ()) -> dict[str, str]:
    """One nominated model per declared target unit (§8.7.7 step 2), each checked: a key that is
    not a declared target, a model not of that unit (or not on the table), or one the charger
    cannot engage from any of ``levels`` it may end on (default: only where it stands; High
    Ground from Ground Level, §7.2) is an :class:`IllegalAction`. A target without a nomination
    gets the model nearest ``end`` (the shortest end spot) it can engage from level ``on``."""
    tm = dict(target_models or {})
    for t in tm:
        if t not in targets:
            raise IllegalAction(RULE, f"a target model is nominated for {t!r}, which is not a declared target ({', '.join(targets)})")
    out: dict[str, str] = {}
    for t in targets:
        if t in tm:
            m = tm[t]
            if m not in state.figures or state.figure(m).unit != t:
                owner = state.figure(m).unit if m in state.figures else None
                raise IllegalAction(RULE, f"{m!r} is not a model of target {t}" + (f" (it belongs to {owner})" if owner else "")
                                    + "; nominate one model of each target unit")
            if m not in state.unit(t).models:
                raise IllegalAction(RULE, f"{m} of {t} is no longer on the table")
            if mover is not None and not any(m in {f.id for f in engageable(state, t, mover, lv)} for lv in (levels or [goal.HERE])):
                raise IllegalAction("§7.2 Engagement", f"{m} of {t} cannot be engaged from where {mover.id} charges "
                                    "(High Ground and Ground Level never engage; Mid Ground only beside a shared Access Point)")
            out[t] = m
        else:
            options = engageable(state, t, mover, on) or state.figures_of(t)
            pick = options[0].id if end is None else min(options, key=lambda f: (math.dist(f.at, end), f.id)).id
            out[t] = choices.default(state.settings, f"target_model.{t}", pick, [f.id for f in options], RULE,
                                     f"the model of {t} nominated for the charge (\"one target model per target "
                                     "Unit\"; the default is the nearest the Leading Model's end)", "target_models")
    return out


def reach_answer(rc: ChargeReach) -> dict[str, Any]:
    """The ``charge`` question's JSON answer (:func:`tapeline.rules.charge_answer.head`, then
    the Speed, the modifier, the reach of the charge dice, the Grass the path crosses and notes)."""
    out = head("starcraft", rc.unit, rc)
    out.update({"speed": rc.speed, "modifier": rc.modifier, "reach": rc.odds.as_json()["reach"],
                "grass_crossed": list(rc.grass), "notes": list(rc.notes)})
    return out


def outcome_answer(res: ChargeOutcome) -> dict[str, Any]:
    """A resolved charge as JSON-ready values (the ``charge`` question's ``roll``)."""
    rc = res.reach
    return {
        "success": res.success, "roll": res.roll, "rolls": list(res.rolls),
        "distance": num(rc.distance), "min_roll": rc.odds.min_roll, "probability": rc.odds.probability,
        "leader": rc.leader, "charge_distance": rc.speed + rc.modifier + res.roll,
        "end": xy(res.end) if res.success else None,
        "path": [xy(p) for p in res.path] if res.success else [],
        "target_model": res.target_model, "target_models": dict(res.target_models), "contact": res.contact,
        "end_gap": num(res.end_gap), "end_gaps": {k: num(v) for k, v in res.end_gaps.items()},
        "placed": {k: xy(v) for k, v in res.placed.items()}, "tiers": dict(res.tiers),
        "placement": dict(res.placement),
        "removed": list(res.removed), "out_of_coherency": list(res.out_of_coherency),
        "grass_removed": list(res.grass_removed),
    }
