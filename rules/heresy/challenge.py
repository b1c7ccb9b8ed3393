"""Horus Heresy 3rd Challenge sub-phase (§A.6): Declare → Face-Off → Focus → Strike → Glory.

**Who may fight one**: a model with the Command or Champion sub-type or the Paragon type, not
Routed, locked in combat with a unit that holds an eligible enemy model. Only the active player
issues a challenge (the reactive player through Heroic Intervention, §A.4); at most one per
combat.

**Declare**: the challenger is named; the opponent accepts with one eligible model, or refuses
— then the challenger's player picks an eligible enemy model to be **Disgraced** (its WS and LD
are halved, rounding up, for the rest of the phase; its unit suffers the common status
penalties). Accepted, the two duellists leave the combat: they stay where they stand on the
table but neither attacks nor is allocated wounds in the Fight sub-phase (tapeline does not
move them "to one side"); if no base contact is left between the units, the others pile in.

**Face-Off**: each player may pick one Gambit (:data:`GAMBITS`), the challenger's player first
in round 1 (later: the player with Challenge Advantage); one player's Gambit cannot be picked by
the other.

**Focus**: each rolls 1D6 + Combat Initiative + modifiers (Heavy −1, Light +1, −1 per wound
lost, Duellist's Edge +X, Outside Support); Seize the Initiative rolls an extra die and drops
the lowest; Grandstand and Finishing Blow an extra die and drop the highest. The higher total
gains **Challenge Advantage**: it strikes first with +1 Attack. A tie is re-rolled.

**Outside Support**: +1 per 5 friendly Engaged models of the combat (status-free, not vehicles,
a Walker counts 5); if only one side has other models in the combat, that side gets +2 per 5
models or part of 5 (Engaged or not, any status; vehicles never count).

**Strike**: the model with Advantage makes all its attacks, then the other (if alive): one
Strike Group each, hit on the opposing model's own WS, wound on its own T, saves and Damage as
in the Fight (:mod:`rules.heresy.melee`).

**Glory**: a slain model gives the survivor's side CRP equal to its base Wounds, +1 for a
Paragon or Command model; both alive: the side that inflicted more wounds scores that many;
otherwise 0. Taunt and Bait adds 1 per time chosen to the winner; Withdraw ends the challenge
with 0 CRP for both. tapeline fights one round unless the file asks for more.

Worked examples: Focus A CI 4 rolls 3 → 7; B CI 1, Heavy, 1 wound lost,
rolls 6 → 5: A has Advantage. Outside Support 12 Engaged → +2; opponent alone, 7 friendlies → +4.
Slaying a W2 Command model → 3 CRP; 2 wounds to 1 → +2; 1 to 1 → 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional, Sequence

from tapeline.board.measure import gap_matrix

from .. import choices
from ..dice import Dice
from ..errors import IllegalAction
from ..melee.combat import Combat, CombatUnit, InitiativeStep, resolve_round
from ..melee.strike import StrikeGroup
from ..state import GameState
from .checks import model_stat, model_subtypes
from .combat import CONTACT, active_side, combat_of, is_vehicle, locked_with
from .melee import against, defender, engaged_models, fighter
from .movement import pile_in
from .reactions import spend_reaction
from .statuses import STATUSES, gain_status
from .wounds import wounds_of

RULE = "HH3 §A.6 Challenge"
GAMBITS = ("seize_the_initiative", "flurry_of_blows", "test_the_foe", "guard_up", "taunt_and_bait", "grandstand",
           "feint_and_riposte", "withdraw", "finishing_blow")


def can_duel(state: GameState, model_id: str) -> str:
    """Why ``model_id`` may not take part in a challenge ("" when it may)."""
    if model_id not in state.figures:
        return f"no model {model_id!r}"
    u = state.unit_of(model_id)
    if model_id not in u.models:
        return f"{model_id} has been removed"
    kinds = model_subtypes(state, model_id) | {(model_stat(state, model_id, "unit_type") or "").lower()}
    if not kinds & {"command", "champion", "paragon"}:
        return f"{model_id} is neither Command, Champion nor Paragon"
    if "routed" in u.status:
        return f"{model_id}'s unit is Routed"
    if not locked_with(state, u.id):
        return f"{model_id}'s unit is not locked in combat"
    return ""


def eligible_models(state: GameState, unit_ids: Sequence[str]) -> list[str]:
    return [m for u in unit_ids for m in state.unit(u).models if not can_duel(state, m)]


def outside_support(state: GameState, duellist: str, opponent: str) -> int:
    """Outside Support for ``duellist``'s Focus roll (§A.6), from the models of the combat."""
    units = combat_of(state, state.unit_of(duellist).id)
    side = state.unit_of(duellist).side
    out = {duellist, opponent}
    mine = [(u, m) for u in units if state.unit(u).side == side and not is_vehicle(state, u) for m in state.unit(u).models if m not in out]
    theirs = [(u, m) for u in units if state.unit(u).side != side and not is_vehicle(state, u) for m in state.unit(u).models if m not in out]
    if mine and not theirs:
        n = sum(_support_weight(state, m) for _, m in mine)
        return 2 * math.ceil(n / 5)
    n = 0
    for u, m in mine:
        if set(state.unit(u).status) & set(STATUSES):
            continue
        if m in engaged_models(state, u, exclude=out):
            n += _support_weight(state, m)
    return n // 5


def _support_weight(state: GameState, model_id: str) -> int:
    return 5 if (model_stat(state, model_id, "unit_type") or "").lower() == "walker" else 1


def focus_modifiers(state: GameState, model_id: str, opponent: str, gambit: Optional[str],
                    weapon_traits: Mapping[str, Any]) -> dict[str, int]:
    """The Focus roll's modifiers for ``model_id`` (§A.6), by name."""
    subs = model_subtypes(state, model_id)
    lost = int(state.unit_of(model_id).wounds_lost.get(model_id, 0))
    mods: dict[str, int] = {}
    if "heavy" in subs or (model_stat(state, model_id, "unit_type") or "").lower() == "heavy":
        mods["heavy"] = -1
    if "light" in subs:
        mods["light"] = 1
    if lost:
        mods["wounds_lost"] = -lost
    edge = weapon_traits.get("duellists_edge")
    if edge:
        mods["duellists_edge"] = int(edge)
    if gambit != "grandstand":
        sup = outside_support(state, model_id, opponent)
        if sup:
            mods["outside_support"] = sup
    return mods


def focus_dice(gambit: Optional[str]) -> tuple[int, str]:
    """(dice rolled, which one is kept) for a Focus roll under ``gambit``."""
    if gambit == "seize_the_initiative":
        return 2, "highest"
    if gambit in ("grandstand", "finishing_blow"):
        return 2, "lowest"
    return 1, "only"


def glory(state_before: GameState, state_after: GameState, a: str, b: str, dealt: Mapping[str, int],
          gambits: Mapping[str, list[str]]) -> dict[str, int]:
    """Challenge Resolution Points per side from the duel's outcome (§A.6 Glory)."""
    side = {m: state_before.unit_of(m).side for m in (a, b)}
    alive = {m: m in state_after.unit_of(m).models for m in (a, b)}
    out = {side[a]: 0, side[b]: 0}
    if any("withdraw" in gambits.get(m, []) and alive[m] for m in (a, b)):
        return out
    winner = None
    if alive[a] != alive[b]:
        dead = b if alive[a] else a
        winner = a if alive[a] else b
        base = int(model_stat(state_before, dead, "wounds") or 1)
        kinds = model_subtypes(state_before, dead) | {(model_stat(state_before, dead, "unit_type") or "").lower()}
        out[side[winner]] = base + (1 if kinds & {"paragon", "command"} else 0)
    elif alive[a] and alive[b] and dealt.get(a, 0) != dealt.get(b, 0):
        winner = a if dealt.get(a, 0) > dealt.get(b, 0) else b
        out[side[winner]] = dealt[winner]
    if winner is not None:
        out[side[winner]] += gambits.get(winner, []).count("taunt_and_bait")
    return out


# --- the procedure with dice -------------------------------------------------------------------


@dataclass
class Duel:
    """What a challenge did."""

    challenger: str
    acceptor: Optional[str]
    disgraced: Optional[str] = None
    rounds: list[dict[str, Any]] = field(default_factory=list)
    glory: dict[str, int] = field(default_factory=dict)
    dealt: dict[str, int] = field(default_factory=dict)
    slain: list[str] = field(default_factory=list)


def _combat_key(state: GameState, model_id: str) -> tuple[str, ...]:
    return tuple(sorted(combat_of(state, state.unit_of(model_id).id)))


def declare(state: GameState, challenger: str, acceptor: Optional[str], disgrace: Optional[str] = None,
            heroic: bool = False, active: Optional[str] = None) -> tuple[GameState, list[dict[str, Any]], Duel]:
    """§A.6 Declare: check the challenger, then acceptance (``acceptor``) or refusal (``None``:
    the challenger's player Disgraces ``disgrace``, default the first eligible enemy model).

    Only the active player issues a challenge, the reactive player only through Heroic
    Intervention (§A.4): ``active`` is the active side (default: the side that charged this
    turn; unknown when nobody did, and then not checked)."""
    why = can_duel(state, challenger)
    if why:
        raise IllegalAction(RULE, f"{challenger} may not issue a challenge: {why}")
    active = active if active is not None else active_side(state)
    side = state.unit_of(challenger).side
    if active is not None and not heroic and side != active:
        raise IllegalAction(RULE, f"{challenger} may not issue a challenge: only the active player ({active}) does; "
                                  "the reactive player only through Heroic Intervention (heroic_intervention: true)")
    if active is not None and heroic and side == active:
        raise IllegalAction("HH3 §A.4 Reactions", f"Heroic Intervention is the reactive player's Reaction; {challenger} is of the active side ({active})")
    units = combat_of(state, state.unit_of(challenger).id)
    key = tuple(sorted(units))
    if key in [tuple(k) for k in state.turn.get("challenged") or ()]:
        raise IllegalAction(RULE, "this combat has had its challenge this phase (at most one per combat)")
    side = state.unit_of(challenger).side
    enemy_units = [u for u in units if state.unit(u).side != side]
    eligible = eligible_models(state, enemy_units)
    if not eligible:
        raise IllegalAction(RULE, f"no enemy model in {challenger}'s combat may accept a challenge")
    events: list[dict[str, Any]] = []
    if heroic:
        state, ev = spend_reaction(state, state.unit_of(challenger).id, "Heroic Intervention", in_combat=True)
        events += ev
    state = state.with_turn("challenged", tuple(state.turn.get("challenged") or ()) + (key,))
    duel = Duel(challenger, acceptor)
    if acceptor is None:
        victim = disgrace or choices.default(state.settings, "disgrace", eligible[0], eligible, RULE,
                                             f"the enemy model Disgraced for refusing {challenger}'s challenge")
        if victim not in eligible:
            raise IllegalAction(RULE, f"{victim} cannot be Disgraced: the eligible enemy models are {', '.join(eligible)}")
        duel.disgraced = victim
        state = state.with_turn("disgraced", tuple(state.turn.get("disgraced") or ()) + (victim,))
        state, ev = gain_status(state, state.unit_of(victim).id, "disgraced", f"{victim} refused the challenge of {challenger} (§A.6)")
        events += [{"type": "challenge", "challenger": challenger, "refused": True, "disgraced": victim}] + ev
        return state, events, duel
    if acceptor not in eligible:
        raise IllegalAction(RULE, f"{acceptor} may not accept: the eligible enemy models are {', '.join(eligible)}")
    state = state.with_turn("duel", (challenger, acceptor))
    events.append({"type": "challenge", "challenger": challenger, "acceptor": acceptor})
    return state, events, duel


def _contact_left(state: GameState, units: Sequence[str], out: Sequence[str]) -> bool:
    for u in units:
        mine = [f for f in state.figures_of(u) if f.id not in out]
        foes = [f for e in units if state.unit(e).side != state.unit(u).side for f in state.figures_of(e) if f.id not in out]
        if mine and foes and float(gap_matrix(mine, foes).min()) <= CONTACT:
            return True
    return False


def face_off(gambits: Mapping[str, Optional[str]], first: str, second: str, round_no: int) -> dict[str, Optional[str]]:
    """Check the two players' Gambits (§A.6 Face-Off); returns {model: gambit or None}."""
    g1, g2 = gambits.get(first), gambits.get(second)
    for m, g in ((first, g1), (second, g2)):
        if g is not None and g not in GAMBITS:
            raise IllegalAction(RULE, f"{g!r} is not a core Gambit ({', '.join(GAMBITS)})")
    if g2 == "feint_and_riposte":
        raise IllegalAction(RULE, "Feint and Riposte may only be chosen by the player choosing first")
    if g1 is not None and g1 == g2:
        raise IllegalAction(RULE, f"{g1} was chosen by {first} first: the other player cannot choose it in this Face-Off")
    return {first: g1, second: g2}


def gambit_picks(state: GameState, plan: Mapping[str, Sequence[Optional[str]]], first: str, second: str, round_no: int,
                 banned: Mapping[str, str]) -> dict[str, Optional[str]]:
    """Each duellist's Gambit in round ``round_no`` (§A.6 Face-Off, ``first`` picks first): the
    file's ``plan`` ({model: [gambit or null per round]}); a round the plan does not reach is
    no Gambit, the reading ``gambit.<model>=none`` (strict mode: an error listing the Gambits
    the player could pick then)."""
    out: dict[str, Optional[str]] = {}
    for m in (first, second):
        given = list(plan.get(m) or [])
        if len(given) >= round_no:
            out[m] = given[round_no - 1]
            continue
        taken = {out.get(first), banned.get(first) if m == second else None}
        legal = [x for x in GAMBITS if x not in taken and not (m == second and x == "feint_and_riposte")]
        out[m] = None
        choices.default(state.settings, f"gambit.{m}", "none", ["none"] + legal, RULE,
                        f"{m}'s Gambit in round {round_no} of the Face-Off (none, or one)", "gambits")
    return out


def run(state: GameState, challenger: str, acceptor: Optional[str], dice: Dice,
        options: Optional[Mapping[str, Any]] = None) -> tuple[GameState, list[dict[str, Any]], Duel]:
    """The whole challenge (§A.6): Declare, then per round Face-Off, Focus and Strike; Glory.

    ``options``: ``disgrace`` (refused: the model Disgraced), ``gambits`` ({model: [gambit per
    round]}), ``weapons`` ({model: weapon}), ``rounds`` (how many rounds at most, default 1; the
    player with Advantage goes on only while both live), ``banned`` ({model: gambit} named by
    Feint and Riposte), ``heroic_intervention``, ``active`` (the active side, :func:`declare`)."""
    opts = dict(options or {})
    state, events, duel = declare(state, challenger, acceptor, opts.get("disgrace"), bool(opts.get("heroic_intervention")),
                                  opts.get("active"))
    if acceptor is None:
        return state, events, duel
    units = combat_of(state, state.unit_of(challenger).id)
    a, b = challenger, acceptor
    if not _contact_left(state, units, (a, b)):
        active = state.unit_of(a).side
        for u in sorted(units, key=lambda u: state.unit(u).side != active):
            others = [m for m in state.unit(u).models if m not in (a, b)]
            state, moves = pile_in(state, u, others, [e for e in units if state.unit(e).side != state.unit(u).side])
            if moves:
                events.append({"type": "pile_in", "unit": u, "why": "the duellists left the combat", "moves": [m.as_json() for m in moves]})
    weapons = opts.get("weapons") or {}
    gambit_plan = {m: list(v) for m, v in (opts.get("gambits") or {}).items()}
    chosen_all: dict[str, list[str]] = {a: [], b: []}
    advantage: Optional[str] = None
    dealt = {a: 0, b: 0}
    auto_adv: Optional[str] = None
    guard_bonus = {a: 0, b: 0}
    for rno in range(1, int(opts.get("rounds", 1)) + 1):
        first = a if rno == 1 or advantage is None else advantage
        second = b if first == a else a
        banned = (opts.get("banned") or {})
        picks = gambit_picks(state, gambit_plan, first, second, rno, banned)
        g = face_off(picks, first, second, rno)
        if g[first] == "feint_and_riposte" and banned.get(first) and g[second] == banned.get(first):
            raise IllegalAction(RULE, f"{banned[first]} was named by Feint and Riposte: {second} cannot choose it")
        for m in (a, b):
            gm = g[m]
            if gm:
                chosen_all[m].append(gm)
        fa, fb = fighter(state, a, weapons.get(a)), fighter(state, b, weapons.get(b))
        # Focus
        rnd_ev: dict[str, Any] = {"type": "challenge_round", "round": rno, "gambits": dict(g)}
        if auto_adv is not None:
            advantage = auto_adv
            rnd_ev["advantage"] = advantage
            rnd_ev["why"] = "Test the Foe"
            auto_adv = None
        else:
            totals: dict[str, dict[str, Any]] = {}
            dice.take_events()
            for _ in range(100):
                for m, f, o in ((a, fa, b), (b, fb, a)):
                    n, keep = focus_dice(g[m])
                    rolls = dice.roll(n, f"Focus ({m})")
                    kept = max(rolls) if keep == "highest" else min(rolls)
                    mods = focus_modifiers(state, m, o, g[m], f.weapon.traits)
                    mods["guard_up"] = guard_bonus[m] or 0
                    totals[m] = {"rolls": rolls, "kept": kept, "combat_initiative": f.ci, "modifiers": {k: v for k, v in mods.items() if v},
                                 "total": kept + f.ci + sum(mods.values())}
                if totals[a]["total"] != totals[b]["total"]:
                    break
            else:
                raise IllegalAction(RULE, "the Focus rolls tied 100 times")
            advantage = a if totals[a]["total"] > totals[b]["total"] else b
            rnd_ev["focus"] = totals
            rnd_ev["advantage"] = advantage
            events += dice.take_events()
        guard_bonus = {a: 0, b: 0}
        # Strike
        order = [advantage, b if advantage == a else a]
        for m in order:
            o = b if m == a else a
            if m not in state.unit_of(m).models or o not in state.unit_of(o).models:
                continue
            state, ev, dmg, misses = strike(state, m, o, g[m], g[o], m == advantage, weapons.get(m), dice, weapons.get(o))
            events += ev
            dealt[m] += dmg
            if g[o] == "guard_up":
                guard_bonus[o] += misses
        events.append(rnd_ev)
        duel.rounds.append(rnd_ev)
        if any(g[m] == "test_the_foe" and m in state.unit_of(m).models for m in (a, b)):
            auto_adv = next(m for m in (a, b) if g[m] == "test_the_foe")
        if not (a in state.unit_of(a).models and b in state.unit_of(b).models):
            break
    duel.dealt = dealt
    return _glory(state, events, duel, chosen_all)


def _glory(state: GameState, events: list[dict[str, Any]], duel: Duel,
           gambits: Mapping[str, list[str]]) -> tuple[GameState, list[dict[str, Any]], Duel]:
    a, b = duel.challenger, duel.acceptor
    assert b is not None  # Glory follows an accepted challenge
    out = glory(state, state, a, b, duel.dealt, gambits)
    duel.glory = out
    duel.slain = [m for m in (a, b) if m not in state.unit_of(m).models]
    g = dict(state.turn.get("glory") or {})
    for s, v in out.items():
        g[s] = g.get(s, 0) + v
    state = state.with_turn("glory", g)
    events.append({"type": "glory", "challenger": a, "acceptor": b, "wounds_dealt": duel.dealt, "slain": duel.slain, "points": out})
    return state, events, duel


def strike(state: GameState, m: str, o: str, gambit: Optional[str], their_gambit: Optional[str], advantage: bool,
           weapon: Optional[str], dice: Dice, their_weapon: Optional[str] = None) -> tuple[GameState, list[dict[str, Any]], int, int]:
    """One duellist's Strike (§A.6): a single Strike Group at the other model, hit on its own
    WS and wounding on its own T (the shared engine, one step); ``their_weapon``: the other
    duellist's (Taunt and Bait reads its WS and Attacks). Returns the state (a slain opponent
    removed), events, the wounds dealt and the misses."""
    f = fighter(state, m, weapon)
    fo = fighter(state, o, their_weapon)
    attacks, ws, s = f.attacks, f.ws, f.strength
    extra_damage, flurry = 0, 0
    events: list[dict[str, Any]] = []
    if gambit in ("guard_up", "withdraw"):
        attacks = 1
        ws += 1 if gambit == "guard_up" else 0
    elif gambit == "taunt_and_bait":
        ws = fo.ws - 1 if ws == fo.ws else fo.ws
        attacks = fo.attacks - 1 if attacks == fo.attacks else fo.attacks
    elif gambit == "grandstand":
        attacks += outside_support(state, m, o)
    elif gambit == "finishing_blow":
        s, extra_damage = s + 1, 1
    if gambit == "flurry_of_blows":
        dice.take_events()
        flurry = (dice.roll(1, f"Flurry of Blows ({m}, D3)")[0] + 1) // 2
        events += dice.take_events()
    if advantage:
        attacks += 1
    mu, ou = state.unit_of(m), state.unit_of(o)
    f2 = replace(f, ws=max(0, ws), strength=s, weapon=replace(f.weapon, damage=int(f.weapon.damage) + extra_damage))
    a = against(state, f2, ou.id, [o])
    groups = [StrikeGroup(mu.id, f"{m} {f.key}", ((m, max(0, attacks)),), (a,))]
    if flurry:
        f1 = replace(f2, weapon=replace(f2.weapon, damage=1, traits={}))
        groups.append(StrikeGroup(mu.id, f"{m} Flurry of Blows", ((m, flurry),), (against(state, f1, ou.id, [o]),)))
    c = Combat((CombatUnit(mu.id, mu.side, (defender(state, m),)), CombatUnit(ou.id, ou.side, (defender(state, o),))),
               (InitiativeStep("strike", tuple(groups)),))
    left_before = wounds_of(state, o)
    dice.take_events()
    log = resolve_round(c, dice)
    events += dice.take_events()
    losses = log.state[1]
    lost = dict(ou.wounds_lost)
    slain = losses.removed > 0
    if slain:
        lost.pop(o, None)
    else:
        lost[o] = lost.get(o, 0) + losses.damage
    state = state.with_wounds_lost(ou.id, lost)
    dealt = left_before if slain else left_before - wounds_of(state, o)
    if slain:
        state = state.without_models(ou.id, [o])
    entries = log.steps[0]["groups"]
    hits = sum(int(e["rolls"][0]["dice"]) - int(e["rolls"][0]["counts"][0]) for e in entries if e.get("rolls"))
    misses = max(0, attacks + flurry - hits)
    events.append({"type": "challenge_strike", "model": m, "target": o, "weapon": f.key, "gambit": gambit, "attacks": attacks + flurry,
                   "hit_on": a.hit_on, "wound_on": a.wound_on, "hits": hits, "dealt": dealt, "slain": slain,
                   "groups": [{k: v for k, v in e.items() if k != "rolls"} for e in entries]})
    return state, events, dealt, misses


def end_duel(state: GameState) -> tuple[GameState, list[dict[str, Any]]]:
    """Resolution step 1: the duellists return to their units (they stand where they stood)."""
    d = state.turn.get("duel")
    if not d:
        return state, []
    return state.with_turn("duel", ()), [{"type": "duellists_return", "models": [m for m in d if m in state.unit_of(m).models]}]


def challenge(state: GameState, challenger: str, acceptor: Optional[str], dice: Dice,
              options: Mapping[str, Any]) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    """The ``challenge`` action (:func:`run`) and what the duel scored: who fought, who was
    Disgraced, the Glory points, who was slain and the wounds each dealt."""
    dice.take_events()
    new, events, duel = run(state, challenger, acceptor, dice, options)
    return new, events, {"challenger": duel.challenger, "acceptor": duel.acceptor, "disgraced": duel.disgraced,
                         "glory": duel.glory, "slain": duel.slain, "dealt": duel.dealt}
