"""The rest of a charging unit (§8.7.7 step 4): where the models other than the Leading Model go.

"Set the rest In Coherency with this priority: A) base contact with declared targets, B) within
1" of them, C) as close to the Leading Model as possible. None may end within 1" of an
undeclared Unit." The rest are **set** (§4.3: picked up and put down round the Leading Model,
ignoring what lies between): they have no path and no distance of their own; the end spot's
rules, coherency (§4.4) and the priority bind them.

**Spots given** (the action's ``set: {model: [x, y]}``, some or all of the rest; the level is
the one the centre stands on, as for a Run), each checked, a refusal located at
``set.<model>`` and naming the rule:

1. a model of the unit other than the Leading Model;
2. a legal end spot — the path validator's end check (:func:`board.pathcheck.check_end`): wholly
   on the table, overlapping no base and no footprint of its level (Grass excepted: ending on it
   removes it, §7.1), not within 1" of an undeclared enemy unit;
3. coherency (§4.4): wholly within 3" (Squadron: 4") of the Leading Model — and, once every
   model is set, linked to it through the unit — unless no spot in coherency was open to it
   (then it is set out of coherency, as the rulebook allows);
4. the priority: a model may stand at B only if no A spot was open to it, at C only if no A or
   B spot was. "Open" is read given the Leading Model and the *other given* spots (models set by
   default come after the player's): the best of place_around's candidate spots for it — legal,
   in coherency, linked to the Leading Model or a given model — is found, and a better tier
   there refuses the spot, naming that spot. The candidates are finite (rings of contact spots
   every 5°, spots touching two bases), so a better spot between them can be missed: a refusal
   is always right, an acceptance is to that resolution. "As close as possible" within C is not
   checked on a given spot (any C spot in coherency is taken).

**The default** (the models not given; board/placement_search.py): the placement with the most
models in base contact with a declared target (A), then the most within 1" of one (A or B) —
exact over the candidate pool up to 6 models set by default, the best found in a bounded search
beyond. Ties, our reading (a choice the rules leave to the player, made as a player would): then
the most models within 1" of, then in base contact with, a declared target their IMPACT can
strike — not HIDDEN (BURROWED is HIDDEN), only for a unit with IMPACT — so that a Zealot is not
set touching only a HIDDEN unit when it could touch the Marauder. Then place_around's greedy
placement (each model in turn at its best tier, nearest the Leading Model) is kept unless the
search beats it on these counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional, Sequence

from tapeline.board.measure import far, gap
from tapeline.board.pathcheck import check_end
from tapeline.board.placement import Placement, place_around
from tapeline.board.placement_search import Best, Near, best_placement
from tapeline.board.table import Figure
from tapeline.board.terrain import Piece
from tapeline.board.units import TOUCH

from .. import choices
from ..charge_geometry import MoveRules
from ..errors import IllegalAction
from ..state import GameState
from .impact import immune, impact_of
from .movement import ENGAGEMENT_RANGE, coherency, coherency_radius, end_pieces_on, link_space

RULE = "§8.7.7 Charge step 4"
XY = tuple[float, float]
TIERS = {"A": "base contact with a declared target (priority A)", "B": "within 1\" of a declared target (priority B)",
         "C": "neither in base contact with nor within 1\" of a declared target (priority C)"}


@dataclass(frozen=True)
class Followers:
    """Where the rest were set: every position, its tier, the models removed (no legal linked
    spot, §4.4) or out of coherency, the spots given, and how the default was chosen."""

    positions: dict[str, XY] = field(default_factory=dict)
    tiers: dict[str, str] = field(default_factory=dict)
    removed: tuple[str, ...] = ()
    out_of_coherency: tuple[str, ...] = ()
    given: tuple[str, ...] = ()
    score: dict[str, int] = field(default_factory=dict)
    exact: bool = True
    searched: bool = False

    def as_json(self) -> dict[str, object]:
        return {"given": list(self.given), "score": dict(self.score), "exact": self.exact, "searched": self.searched}


def check_keys(state: GameState, unit_id: str, leader: str, spots: Mapping[str, XY]) -> None:
    """Every key of ``set`` is a model of the unit other than the Leading Model (checked even
    when the charge fails)."""
    u = state.unit(unit_id)
    for m in spots:
        if m == leader:
            raise IllegalAction(RULE, f"{m} is the Leading Model: it goes where the charge takes it, not to a spot of set:", field=f"set.{m}")
        if m not in u.models:
            raise IllegalAction(RULE, f"{m} is not a model of {unit_id} on the table", field=f"set.{m}")


def criteria(state: GameState, unit_id: str, targets: Sequence[str]) -> list[Near]:
    """The default's score, most important first (module notes): base contact with a declared
    target, within 1" of one; for a unit with IMPACT charging a HIDDEN unit, then within 1" of
    and in base contact with a target its IMPACT can strike."""
    tfigs = tuple(f for t in targets for f in state.figures_of(t))
    out = [Near(tfigs, 0.0), Near(tfigs, ENGAGEMENT_RANGE)]
    if impact_of(state, unit_id) is not None and any(immune(state, t) for t in targets):
        live = tuple(f for t in targets if not immune(state, t) for f in state.figures_of(t))
        out += [Near(live, ENGAGEMENT_RANGE), Near(live, 0.0)]
    return out


def set_rest(state: GameState, new: GameState, unit_id: str, targets: Sequence[str], moved: Figure, rules: MoveRules,
             spots: Optional[Mapping[str, XY]] = None) -> tuple[GameState, Followers]:
    """Set the rest of ``unit_id`` round its Leading Model ``moved`` (already at its end spot in
    ``new``): the ``spots`` given, each checked (module notes), the others by the default.
    Returns the state with every model set (models with no legal linked spot removed)."""
    spots = dict(spots or {})
    check_keys(state, unit_id, moved.id, spots)
    u = state.unit(unit_id)
    radius = coherency_radius(u)
    rest = [f for f in state.figures_of(unit_id) if f.id != moved.id]
    rest.sort(key=lambda f: (min(gap(f, t) for t in new.figures_of(targets[0])), f.id))
    undeclared = [e.id for e in state.enemies_of(unit_id) if e.id not in targets and not e.flying]
    keep = [(f, ENGAGEMENT_RANGE) for e in undeclared for f in state.figures_of(e)]
    tfigs = [f for t in targets for f in state.figures_of(t)]
    others = [f for f in state.all_figures() if f.unit != unit_id]
    pieces = [p for p in state.table.pieces if not p.has("grass")]
    lspace = link_space(state, unit_id, targets)

    def pieces_on(lv: Optional[str]) -> Sequence[Piece]:
        return end_pieces_on(state.table, lv)

    given = [state.figure(m).moved(*spots[m], rules.level_at(*spots[m])) for m in spots]
    tiers: dict[str, str] = {}
    coherent_open: dict[str, bool] = {}
    for f in given:
        mates = [g for g in given if g.id != f.id]
        where = f"set.{f.id}"
        v = check_end(state.table, f, others + [moved] + mates, end_pieces_on(state.table, f.on), keep)
        if v is not None:
            why = "within 1\" of an undeclared enemy" if v.kind == "end_near_enemy" else "not a legal end spot"
            raise IllegalAction(RULE, f"{f.id} at ({f.x:.6g}, {f.y:.6g}) is {why}: {v.kind}: {v.detail}", field=where)
        # where the default would set it alone, the Leading Model and the other given spots set:
        # its best tier among the legal candidate spots in coherency and linked
        best = place_around(moved, [state.figure(f.id)], state.table, others, pieces, tfigs, keep, radius,
                            lspace.clear_segments, ENGAGEMENT_RANGE, stay=mates, levels=rules.levels, pieces_on=pieces_on)
        open_ = coherent_open[f.id] = f.id in best.positions and f.id not in best.out_of_coherency
        d = far(f, moved)
        if d > radius + TOUCH and open_:
            x, y = best.positions[f.id]
            raise IllegalAction("§4.4 Coherency", f"{f.id} at ({f.x:.6g}, {f.y:.6g}) is not wholly within {radius:g}\" of the "
                                f"Leading Model {moved.id} ({d - radius:.6g}\" too far), and a spot in coherency was open to it, "
                                f"e.g. ({x:.6g}, {y:.6g})", field=where)
        tier = _tier(f, tfigs)
        if open_ and best.tiers[f.id] < tier:
            x, y = best.positions[f.id]
            near = min(tfigs, key=lambda t: (gap(state.figure(f.id).moved(x, y), t), t.id))
            raise IllegalAction(RULE, f"{f.id} at ({f.x:.6g}, {f.y:.6g}) is {TIERS[tier]}, but {TIERS[best.tiers[f.id]]} was "
                                f"open to it, e.g. ({x:.6g}, {y:.6g}) by {near.id}: set the rest with priority A, then B, then C",
                                field=where)
        tiers[f.id] = tier
    new = new.with_figures(given)
    free = [f for f in rest if f.id not in spots]
    score = criteria(state, unit_id, targets)
    res: Optional[Best] = None
    pl = Placement()
    if free:
        res = best_placement(moved, free, state.table, others, pieces, tfigs, keep, radius, lspace.clear_segments,
                             ENGAGEMENT_RANGE, score, stay=given, levels=rules.levels, pieces_on=pieces_on)
        pl = res.placement
        new = new.with_figures([f.moved(*pl.positions[f.id], pl.on.get(f.id)) for f in free if f.id in pl.positions])
        if pl.unplaced:
            new = new.without_models(unit_id, list(pl.unplaced))
        tiers.update(pl.tiers)
        choices.placement(state.settings, "charge_followers", RULE, f"the spots of the rest of {unit_id} (set)", pl.positions)
    if given:
        c = coherency(new, unit_id, moved.id, targets)
        for f in given:
            if f.id in c.out and coherent_open[f.id]:
                raise IllegalAction("§4.4 Coherency", f"{f.id} at ({f.x:.6g}, {f.y:.6g}): {c.out[f.id]}, and a spot in "
                                    "coherency was open to it", field=f"set.{f.id}")
    positions = {f.id: f.at for f in given}
    positions.update(pl.positions)
    names = ["base_contact", "within_1in", "within_1in_impact", "base_contact_impact"][:len(score)]
    counted = dict(zip(names, res.score)) if res is not None else {}
    for f in given:  # the score of the whole rest, given spots included
        for k, crit in zip(names, score):
            counted[k] = counted.get(k, 0) + int(_met(crit, f))
    return new, Followers(positions, tiers, tuple(pl.unplaced), tuple(pl.out_of_coherency), tuple(spots), counted,
                          True if res is None else res.exact, False if res is None else res.searched)


def _tier(f: Figure, targets: Sequence[Figure]) -> str:
    g = min((gap(f, t) for t in targets), default=float("inf"))
    return "A" if g <= 10 * TOUCH else "B" if g <= ENGAGEMENT_RANGE + TOUCH else "C"


def _met(c: Near, f: Figure) -> bool:
    return any(gap(f, t) <= c.within + c.slack for t in c.figures)
