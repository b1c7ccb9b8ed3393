"""Close Ranks (§8.8.1 step 1; FAQ): the optional 3" press-in before a Close Combat Attack.

* Only an Engaged unit, not Flying. Models already in base contact with an enemy model are
  **pinned**: they do not move. If every model is (FAQ), Close Ranks is impossible: the Leading
  Model must end closer than it started, and it cannot.
* The **Leading Model** (not pinned; default: the unpinned model nearest an enemy it is Engaged
  with) moves up to 3" by the standard rules — its path checked by the same validator as a
  Move or a Charge (Gap Clearance, round impassable terrain and other units' models) — and must
  end **closer** to the unit(s) its unit is Engaged with: its gap to the nearest of their
  models must shrink. Given a ``path``, that path is checked; by default it goes as close as
  3" of path allows (base contact when it can: bisection on the gap, each step an exact
  region search, as for a charge), keeping 1" from every other enemy unit.
* The rest are **reset In Coherency** (board/placement.py, as after a Charge): into base
  contact with an enemy model of an Engaged unit wherever possible, otherwise into base contact
  with a squadmate within 1" of the enemy, otherwise close to the Leading Model; never within
  1" of an enemy unit it is not Engaged with. The placement is greedy over candidate spots
  (rings of contact spots every 5°, spots touching two bases at once): see docs/combat.md for
  how close to the most base contacts it gets.
* It may neither engage a new enemy unit nor Disengage from one (§8.8.1: it "cannot be used to
  Disengage"): checked on the result with the §7.2 rule.
* Each default taken (the Leading Model, its path, the rest's spots) is a reading of the
  answer, and in strict mode an error (:mod:`rules.choices`).
* A BURROWED unit that Closes Ranks is no longer BURROWED (and may then attack); STATIONARY is
  lost when a model moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping, Optional, Sequence

from tapeline.board.errors import GeometryError
from tapeline.board.measure import gap_matrix
from tapeline.board.pathcheck import check_end, check_path
from tapeline.board.paths import Reach
from tapeline.board.placement import place_around
from tapeline.board.space import Space
from tapeline.board.table import Figure
from tapeline.board.units import TOUCH

from .. import choices
from ..charge_geometry import MoveRules, closest_within, radius, space_for
from ..errors import IllegalAction
from ..state import GameState
from .casualties import engaged_pairs
from .movement import coherency, coherency_radius, end_pieces_on, link_space, move_rules

RULE = "§8.8.1 Close Ranks"
DISTANCE = 3.0
XY = tuple[float, float]


@dataclass(frozen=True)
class ClosedRanks:
    """What Close Ranks did: the Leading Model's path and end, where the rest were set (and at
    which priority tier), the pinned models, models removed (no legal linked spot)."""

    unit: str
    leader: str
    path: list[tuple[float, ...]]
    length: float
    gap_before: float
    gap_after: float
    pinned: tuple[str, ...]
    placed: dict[str, XY] = field(default_factory=dict)
    tiers: dict[str, str] = field(default_factory=dict)
    removed: tuple[str, ...] = ()
    contacts_before: int = 0
    contacts_after: int = 0
    coherent: bool = True


def engaged_units(state: GameState, unit_id: str) -> set[str]:
    return {state.unit_of(b).id for _, b, _ in engaged_pairs(state, unit_id)}


def pinned(state: GameState, unit_id: str) -> list[str]:
    """The unit's models in base contact with an enemy model (they do not move)."""
    own = state.figures_of(unit_id)
    enemies = [f for e in state.enemies_of(unit_id) if not e.flying for f in state.figures_of(e.id)]
    if not own or not enemies:
        return []
    g = gap_matrix(own, enemies).min(axis=1)
    return [f.id for f, d in zip(own, g.tolist()) if d <= TOUCH]


def _gap_to(state: GameState, fig: Figure, units: Iterable[str]) -> float:
    figs = [f for u in units for f in state.figures_of(u)]
    return float(gap_matrix([fig], figs).min())


def close_ranks(state: GameState, unit_id: str, leader: Optional[str] = None, path: Optional[Sequence[XY]] = None,
                set_at: Optional[Mapping[str, XY]] = None) -> tuple[GameState, ClosedRanks]:
    """Close Ranks for ``unit_id``; returns the new state and what happened, or raises
    :class:`IllegalAction` naming the rule (the state is then unchanged).

    Without a ``path`` the Leading Model goes as close as 3" allows; when that leaves a model
    out of base contact, the Leading Model is also tried at both ends of every free stretch of
    the enemy models' contact rings (the rest then pack from there), and the result with the
    most models in base contact is kept (ties: the first)."""
    if not state.has_unit(unit_id):
        raise IllegalAction(RULE, f"no unit {unit_id!r}")
    u = state.unit(unit_id)
    if u.flying:
        raise IllegalAction(RULE, f"{unit_id} is Flying: Flying units never Close Ranks")
    before = engaged_units(state, unit_id)
    if not before:
        raise IllegalAction(RULE, f"{unit_id} is not Engaged: only an Engaged unit Closes Ranks")
    pins = pinned(state, unit_id)
    free = [m for m in u.models if m not in pins]
    if not free:
        raise IllegalAction(RULE + " (FAQ)", f"every model of {unit_id} is already in base contact: the Leading Model cannot end closer, so it cannot Close Ranks")
    chosen_leader = leader is not None
    if leader is None:
        leader = choices.default(state.settings, "close_ranks.leader",
                                 min(free, key=lambda m: (_gap_to(state, state.figure(m), before), u.models.index(m))), free,
                                 RULE, f"the Leading Model of {unit_id}'s Close Ranks", "leader")
    elif leader not in u.models:
        raise IllegalAction(RULE, f"{leader} is not a model of {unit_id} on the table")
    elif leader in pins:
        raise IllegalAction(RULE, f"{leader} is in base contact with an enemy and does not move (pinned): choose another Leading Model")
    others_enemy = [e.id for e in state.enemies_of(unit_id) if e.id not in before and not e.flying]
    stay = [state.figure(m) for m in pins]
    given = dict(set_at or {})
    for m in given:
        if m not in free or m == leader:
            raise IllegalAction(RULE, f"set: {m} is not another unpinned model of {unit_id}")
    ctx = _Context(state, unit_id, before, pins, free, stay, others_enemy)
    lead = state.figure(leader)
    rules, space = ctx.rules(lead)
    g0 = _gap_to(state, lead, before)
    if path is not None:
        pts = [lead.at] + [(p[0], p[1]) for p in path]
        res = check_path(space, pts, DISTANCE, lambda x, y: check_end(state.table, lead.moved(x, y, rules.level_at(x, y)), rules.end_figures,
                                                                        rules.end_pieces_on(rules.level_at(x, y)), ()))
        if not res.legal:
            v = res.violation
            assert v is not None  # an illegal path names its violation
            raise IllegalAction(RULE, f"{leader}'s path: {v.kind} at ({v.at[0]:.6g}, {v.at[1]:.6g}): {v.detail}")
        return ctx.finish(leader, pts, res.length, given)
    targets = [f for t in before for f in state.figures_of(t)]
    try:
        p, _k = closest_within(Reach(space, lead.at), state, lead, rules, (), targets, DISTANCE, max(g0, 0.0), any_of=True)
    except GeometryError:
        p = None
    if p is None or p.length > DISTANCE + TOUCH:
        raise IllegalAction(RULE, f"{leader} cannot end closer to {', '.join(sorted(before))} within 3\"")
    best = ctx.finish(leader, p.points(), p.length, given)
    if given or best[1].contacts_after == len(best[0].unit(unit_id).models):
        return best
    # Not everyone ends in base contact: a Leading Model set in the middle of a free stretch of a
    # contact ring can split it into two pieces too short for another base. Try it at either
    # end of every free stretch (the spots pack from there) and keep the most contacts.
    for end in ctx.stretch_ends(targets, lead):
        tried = _try(ctx, end, [leader] if chosen_leader else free, given)
        if tried is not None and tried[1].contacts_after > best[1].contacts_after:
            best = tried
            if best[1].contacts_after == len(best[0].unit(unit_id).models):
                break
    return best



def _try(ctx: "_Context", end: XY, leaders: Sequence[str], given: Mapping[str, XY]) -> Optional[tuple[GameState, ClosedRanks]]:
    """Close Ranks with the Leading Model ending at ``end``: the first of ``leaders`` (nearest
    first) that can get there within 3" and ends closer; ``None`` when none can, or when the
    result breaks a rule."""
    for m in sorted(leaders, key=lambda m: math.dist(ctx.state.figure(m).at, end)):
        lead = ctx.state.figure(m)
        if math.dist(lead.at, end) > DISTANCE + TOUCH:
            break
        rules, space = ctx.rules(lead)
        if rules.end_check(ctx.state.table, lead)(*end) is not None:
            continue
        p = Reach(space, lead.at).to_point(end)
        if p is None or p.length > DISTANCE + TOUCH:
            continue
        try:
            return ctx.finish(m, p.points(), p.length, given)
        except IllegalAction:
            continue
    return None


@dataclass(frozen=True)
class _Context:
    """What one Close Ranks knows before its Leading Model moves."""

    state: GameState
    unit_id: str
    before: set[str]
    pins: list[str]
    free: list[str]
    stay: list[Figure]
    others_enemy: list[str]

    def rules(self, lead: Figure) -> tuple[MoveRules, Space]:
        rules = move_rules(self.state, self.unit_id, lead, keep_away_from=self.others_enemy)
        rules = replace(rules, end_figures=rules.end_figures + tuple(f for f in self.stay if f.id != lead.id))
        return rules, space_for(self.state, rules)

    def stretch_ends(self, targets: Sequence[Figure], lead: Figure, step: float = 1.0) -> list[XY]:
        """Both ends of every free stretch of the contact rings round ``targets`` (spots where
        the Leading Model's base may end touching a target model), each end found to 1e-7
        of a degree by bisection; the stretches nearest the Leading Model first."""
        rules, _ = self.rules(lead)
        check = rules.end_check(self.state.table, lead)
        r = radius(lead)

        def ok(t: Figure, a: float) -> bool:
            R = radius(t) + r + 1e-7
            return check(t.x + R * math.cos(a), t.y + R * math.sin(a)) is None

        def spot(t: Figure, a: float) -> XY:
            R = radius(t) + r + 1e-7
            return (t.x + R * math.cos(a), t.y + R * math.sin(a))

        out: list[XY] = []
        n = int(round(360 / step))
        for t in targets:
            angles = [math.radians(i * step) for i in range(n)]
            legal = [ok(t, a) for a in angles]
            if all(legal) or not any(legal):
                continue
            for i in range(n):
                j = (i + 1) % n
                if legal[i] == legal[j]:
                    continue
                a, b = angles[i], angles[i] + math.radians(step)     # a legal, b not, or the reverse
                good, bad = (a, b) if legal[i] else (b, a)
                for _ in range(40):
                    mid = (good + bad) / 2
                    good, bad = (mid, bad) if ok(t, mid) else (good, mid)
                out.append(spot(t, good))
        return sorted(out, key=lambda e: math.dist(e, lead.at))

    def finish(self, leader: str, pts: Sequence[Sequence[float]], length: float,
               given: Mapping[str, XY]) -> tuple[GameState, ClosedRanks]:
        """The Leading Model at the end of ``pts``, the rest reset; every rule checked."""
        state, unit_id, before, u = self.state, self.unit_id, self.before, self.state.unit(self.unit_id)
        lead = state.figure(leader)
        rules, _ = self.rules(lead)
        end = pts[-1]
        g0 = _gap_to(state, lead, before)
        moved = lead.moved(end[0], end[1], rules.level_at(*end))
        g1 = _gap_to(state, moved, before)
        if g1 >= g0 - TOUCH:
            raise IllegalAction(RULE, f"{leader} must end closer to {', '.join(sorted(before))} (gap {g0:.6g}\" before, {g1:.6g}\" after)")
        new = state.with_figures([moved])
        stay = self.stay
        rest = [state.figure(m) for m in self.free if m != leader]
        others = [f for f in state.all_figures() if f.unit != unit_id]
        pieces = [p for p in state.table.pieces if not p.has("grass")]
        keep = [(f, 1.0) for e in self.others_enemy for f in state.figures_of(e)]
        tfigs = [f for t in before for f in state.figures_of(t)]
        placed: dict[str, XY] = {}
        tiers: dict[str, str] = {}
        removed: tuple[str, ...] = ()
        if given:
            figs = [state.figure(m).moved(*given[m], rules.level_at(*given[m])) for m in given]
            for f in figs:
                v = check_end(state.table, f, others + [moved] + stay + [g for g in figs if g.id != f.id],
                              end_pieces_on(state.table, f.on), keep)
                if v is not None:
                    raise IllegalAction(RULE, f"set {f.id}: {v.kind}: {v.detail}")
            new = new.with_figures(figs)
            placed.update({f.id: f.at for f in figs})
        auto = [f for f in rest if f.id not in given]
        if auto:
            pl = place_around(moved, auto, state.table, others + [new.figure(m) for m in given], pieces, tfigs, keep,
                              coherency_radius(u), link_space(state, unit_id, tuple(before)).clear_segments, 1.0,
                              stay=stay, support_contact=True, levels=rules.levels,
                              pieces_on=lambda lv: end_pieces_on(state.table, lv))
            new = new.with_figures([f.moved(*pl.positions[f.id], pl.on.get(f.id)) for f in auto if f.id in pl.positions])
            placed.update(pl.positions)
            tiers.update(pl.tiers)
            if pl.unplaced:
                removed = tuple(pl.unplaced)
                new = new.without_models(unit_id, list(removed))
        after = engaged_units(new, unit_id)
        if before - after:
            raise IllegalAction(RULE, f"Close Ranks cannot be used to Disengage: {unit_id} would no longer be Engaged with {', '.join(sorted(before - after))}")
        if after - before:
            raise IllegalAction(RULE, f"Close Ranks cannot engage new units: {unit_id} would be Engaged with {', '.join(sorted(after - before))}")
        status = u.status - {"burrowed", "stationary"}
        new = new.with_unit(replace(new.unit(unit_id), status=status))
        c = coherency(new, unit_id, leader)
        out = ClosedRanks(unit_id, leader, [tuple(map(float, p)) for p in pts], float(length), g0, g1, tuple(self.pins), placed,
                          tiers, removed, len(self.pins), len(pinned(new, unit_id)), c.ok)
        return new, out


def resolve(state: GameState, unit_id: str, leader: Optional[str] = None, path: Optional[Sequence[XY]] = None,
            set_at: Optional[Mapping[str, XY]] = None) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    """The ``close_ranks`` action: :func:`close_ranks`, its events (the move, models removed
    with no legal linked spot, BURROWED lost) and its summary."""
    new, cr = close_ranks(state, unit_id, leader, path, set_at)
    given = set(set_at or {})
    spots = ({cr.leader: cr.path[-1][:2]} if path is None else {}) | {m: xy for m, xy in cr.placed.items()
                                                                      if m not in given and m != cr.leader}
    choices.placement(state.settings, "close_ranks", RULE, f"where {unit_id}'s models end (path, set)", spots,
                      "path" if path is None else "set")
    ev = {"type": "close_ranks", "unit": unit_id, "leader": cr.leader, "length": round(cr.length, 9),
          "end": [round(cr.path[-1][0], 9), round(cr.path[-1][1], 9)],
          "gap_before": round(cr.gap_before, 9), "gap_after": round(cr.gap_after, 9),
          "pinned": list(cr.pinned), "placed": {m: [round(x, 9), round(y, 9)] for m, (x, y) in cr.placed.items()},
          "tiers": dict(cr.tiers), "base_contact": cr.contacts_after, "coherency": cr.coherent,
          "path": [[round(x, 9), round(y, 9)] for x, y in cr.path]}
    events: list[dict[str, Any]] = [ev]
    if cr.removed:
        events.append({"type": "removed", "unit": unit_id, "models": list(cr.removed), "why": "no legal linked spot (§4.4)"})
    if "burrowed" in state.unit(unit_id).status:
        events.append({"type": "status", "unit": unit_id, "lost": "burrowed", "why": "Close Ranks removes BURROWED (§11)"})
    summary = {"leader": cr.leader, "path": cr.path, "length": cr.length, "placed": dict(cr.placed),
               "pinned": list(cr.pinned), "contacts_before": cr.contacts_before, "contacts_after": cr.contacts_after}
    return new, events, summary
