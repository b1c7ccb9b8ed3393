"""Horus Heresy 3rd Volley Attacks and Overwatch (§A.3 step 4, §A.4), dice by dice.

A **Volley** is a shooting attack at the other unit of a charge: only weapons with the
**Assault** trait fire, every shot a **Snap Shot**, and it never inflicts a Tactical Status.
**Overwatch** (a Reaction of the charged unit) upgrades its Volley: any ranged weapon, at full
Ballistic Skill (Snap Shots still for a Suppressed unit, §A.5). **Gun Down** (Aftermath) is a Volley at a unit that fell back.

Each firing model uses one ranged weapon (the file's choice, else its first eligible one) and
must see a model of the target unit within the weapon's range. Models are grouped into **fire
groups** by weapon profile and BS; each group rolls its shots together:

1. Hit Test: the Ranged Hit table (§A.8; Snap Shots row for a Volley); a Critical Hit (BS 6+)
   wounds automatically with +1 Damage;
2. Wound Test: weapon Strength against the target unit's majority Toughness; Rending (X): a
   natural hit ≥ X wounds automatically; Breaching (X): a natural wound roll ≥ X is AP 2;
   Shred (X): +1 Damage on a natural wound roll ≥ X;
3. allocation, save and damage one wound at a time (:mod:`rules.heresy.wounds`), in the
   defender's casualty order for the whole attack: a model it names that fell to an earlier
   fire group is skipped.

Casualties are removed at the end of the attack. Cover saves are left out of Volleys: the seed
admits them (Overwatch is a Volley "with no cover roll") but says neither when a model is in
cover nor what its save is — the Shooting phase's rules, outside the seed; docs/heresy-assault.md
says why and where they would go. Vehicles cannot be the target of one here (the facing shot at
is not modelled).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence, TypedDict

from tapeline.board.measure import gap_matrix
from tapeline.board.units import TOUCH

from ..dice import Dice
from ..errors import IllegalAction
from ..melee.strike import roll_strike
from ..melee.wounds import SaveLog
from ..state import GameState
from ..truelos import visibility_matrix
from .checks import model_stat
from .combat import is_vehicle
from .melee import tables_against
from .charts import ranged_hit
from .weapons import RangedProfile, choose, ranged_options
from .wounds import allocate

RULE = "HH3 §A.3 Volley Attacks"


class FireGroup(TypedDict):
    """One fire group's shots: the weapon, BS, the models, hits, wounds, casualties, saves."""

    weapon: str
    bs: int
    snap: bool
    models: list[str]
    shots: int
    hit_on: Optional[int]
    hits: int
    wound_on: Optional[int]
    wounds: int
    casualties: list[str]
    saves: list[SaveLog]


class VolleySummary(TypedDict):
    """What a Volley, Overwatch or Gun Down did: its fire groups and the casualties."""

    unit: str
    target: str
    kind: str
    groups: list[FireGroup]
    casualties: list[str]


def firing_models(state: GameState, unit_id: str, target: str, kind: str,
                  weapons: Mapping[str, str]) -> list[tuple[str, RangedProfile]]:
    """[(model id, profile)] of the models that may fire (``kind``: ``volley`` Assault only,
    ``overwatch`` any ranged weapon), each seeing a target model within range."""
    u = state.unit(unit_id)
    figs = state.figures_of(unit_id)
    tfigs = state.figures_of(target)
    if not figs or not tfigs:
        return []
    vis = visibility_matrix(state, unit_id, target)
    g = gap_matrix(figs, tfigs)
    out: list[tuple[str, RangedProfile]] = []
    for i, f in enumerate(figs):
        opts = [w for w in ranged_options(u, f.id) if kind != "volley" or w.assault]
        if not opts:
            continue
        w = choose(opts, weapons.get(f.id), f.id, "Assault weapon" if kind == "volley" else "ranged weapon", state.settings)
        if any(vis[i, j] and g[i, j] <= w.range + TOUCH for j in range(len(tfigs))):
            out.append((f.id, w))
    return out


def shoot(state: GameState, unit_id: str, target: str, dice: Dice, kind: str = "volley",
          weapons: Optional[Mapping[str, str]] = None,
          casualties: Sequence[str] = ()) -> tuple[GameState, list[dict[str, Any]], VolleySummary]:
    """Resolve a Volley (``kind="volley"``: Assault weapons, Snap Shots) or Overwatch
    (``kind="overwatch"``: any ranged weapon, full BS) by ``unit_id`` at ``target``.

    Returns the new state (casualties removed), the events and a summary."""
    if is_vehicle(state, target):
        raise IllegalAction(RULE, f"{target} is a Vehicle: Volleys at Vehicles are not modelled")
    firers = firing_models(state, unit_id, target, kind, weapons or {})
    snap = kind != "overwatch" or bool(set(state.unit(unit_id).status) & {"suppressed", "routed"})   # §A.5: Snap Shots only
    groups: dict[tuple[str, int], tuple[RangedProfile, list[str]]] = {}
    for m, w in firers:
        bs = int(model_stat(state, m, "ballistic_skill") or 0)
        groups.setdefault((w.label, bs), (w, []))[1].append(m)
    events: list[dict[str, Any]] = []
    summary: VolleySummary = {"unit": unit_id, "target": target, "kind": kind, "groups": [], "casualties": []}
    attackers = [state.figure(m) for m, _ in firers]
    dead: list[str] = []
    for (label, bs), (w, models) in groups.items():
        tn, crit, auto = ranged_hit(bs, snap)
        alive = [m for m in state.unit(target).models if m not in dead]
        if not alive:
            break
        a = tables_against(state, target, alive, tn, crit, auto, w.strength, w.ap, int(w.damage), w.traits)
        shots = len(models) * int(w.firepower)
        dice.take_events()
        wounds, log = roll_strike(a, shots, dice, f"{kind} {unit_id} {label}")
        chosen = [m for m in casualties if m not in dead]   # checked in the first group; the fallen skipped after
        state, alloc = allocate(state, target, a.kinds, wounds, dice, chosen, attackers, f"save against {kind}")
        events += dice.take_events()
        hits = shots - (log[0]["counts"][0] if log and log[0]["dice"] else shots)
        g: FireGroup = {"weapon": label, "bs": bs, "snap": snap, "models": models, "shots": shots, "hit_on": tn, "hits": hits,
             "wound_on": a.wound_on, "wounds": int(sum(wounds)), "casualties": alloc.casualties, "saves": alloc.lines}
        summary["groups"].append(g)
        events.append({"type": kind, "unit": unit_id, "target": target, **g})
        if alloc.casualties:
            state = state.without_models(target, alloc.casualties)
            dead += alloc.casualties
    if dead:
        events.append({"type": "casualties", "unit": target, "models": dead, "by": f"{kind} of {unit_id}"})
    summary["casualties"] = dead
    return state, events, summary
