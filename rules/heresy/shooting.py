"""Horus Heresy 3rd Volley Attacks and Overwatch (§A.3 step 4, §A.4), dice by dice.

A **Volley** is a shooting attack at the other unit of a charge: only weapons with the
**Assault** trait fire, every shot a **Snap Shot**, and it never inflicts a Tactical Status.
**Overwatch** (a Reaction of the charged unit) upgrades its Volley: any ranged weapon, at full
Ballistic Skill. **Gun Down** (Aftermath) is a Volley at a unit that fell back.

Each firing model uses one ranged weapon (the file's choice, else its first eligible one) and
must see a model of the target unit within the weapon's range. Models are grouped into **fire
groups** by weapon profile and BS; each group rolls its shots together:

1. Hit Test: the Ranged Hit table (§A.8; Snap Shots row for a Volley); a Critical Hit (BS 6+)
   wounds automatically with +1 Damage;
2. Wound Test: weapon Strength against the target unit's majority Toughness; Rending (X): a
   natural hit ≥ X wounds automatically; Breaching (X): a natural wound roll ≥ X is AP 2;
   Shred (X): +1 Damage on a natural wound roll ≥ X;
3. allocation, save and damage one wound at a time (:mod:`rules.heresy.wounds`).

Casualties are removed at the end of the attack. Cover saves are not modelled for Volleys
(docs/heresy-assault.md); Vehicles cannot be the target of one here.
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

from tapeline.board.measure import gap_matrix
from tapeline.board.units import TOUCH

from ..errors import IllegalAction
from ..state import GameState
from ..systems import system
from .checks import model_stat
from .combat import is_vehicle
from .tables import ranged_hit, test_passes, wound_tn
from .weapons import RangedProfile, choose, ranged_weapons
from .wounds import Wound, allocate, majority

RULE = "HH3 §A.3 Volley Attacks"


def firing_models(state: GameState, unit_id: str, target: str, kind: str, weapons: Mapping[str, str]) -> list:
    """[(model id, profile)] of the models that may fire (``kind``: ``volley`` Assault only,
    ``overwatch`` any ranged weapon), each seeing a target model within range."""
    u = state.unit(unit_id)
    figs = state.figures_of(unit_id)
    tfigs = state.figures_of(target)
    if not figs or not tfigs:
        return []
    vis = system(state.system).visibility_matrix(state, unit_id, target)
    g = gap_matrix(figs, tfigs)
    out = []
    for i, f in enumerate(figs):
        opts = [w for w in ranged_weapons(u.stats, f.id) if kind != "volley" or w.assault]
        if not opts:
            continue
        w = choose(opts, weapons.get(f.id), f.id, "Assault weapon" if kind == "volley" else "ranged weapon")
        if any(vis[i, j] and g[i, j] <= w.range + TOUCH for j in range(len(tfigs))):
            out.append((f.id, w))
    return out


def shoot(state: GameState, unit_id: str, target: str, dice, kind: str = "volley", weapons: Optional[Mapping[str, str]] = None,
          casualties: Sequence[str] = ()) -> tuple[GameState, list, dict]:
    """Resolve a Volley (``kind="volley"``: Assault weapons, Snap Shots) or Overwatch
    (``kind="overwatch"``: any ranged weapon, full BS) by ``unit_id`` at ``target``.

    Returns the new state (casualties removed), the events and a summary."""
    if is_vehicle(state, target):
        raise IllegalAction(RULE, f"{target} is a Vehicle: Volleys at Vehicles are not modelled")
    firers = firing_models(state, unit_id, target, kind, weapons or {})
    snap = kind != "overwatch"
    groups: dict = {}
    for m, w in firers:
        bs = int(model_stat(state, m, "ballistic_skill") or 0)
        groups.setdefault((w.label, bs), (w, []))[1].append(m)
    events: list = []
    wounds: list[Wound] = []
    summary = {"unit": unit_id, "target": target, "kind": kind, "groups": [], "casualties": []}
    toughness = majority(state, target, "toughness")
    for (label, bs), (w, models) in groups.items():
        g = _fire_group(w, bs, len(models), snap, toughness, dice, f"{kind} {unit_id} {label}")
        g["models"] = models
        wounds += g.pop("_wounds")
        summary["groups"].append(g)
        events += dice.take_events() + [{"type": kind, "unit": unit_id, "target": target, **g}]
    attackers = [state.figure(m) for m, _ in firers]
    new, alloc = allocate(state, target, wounds, dice, casualties, attackers, f"save against {kind}")
    events += dice.take_events()
    if alloc.lines:
        events.append({"type": "allocation", "unit": target, "wounds": alloc.lines})
    if alloc.casualties:
        new = new.without_models(target, alloc.casualties)
        events.append({"type": "casualties", "unit": target, "models": list(alloc.casualties), "by": f"{kind} of {unit_id}"})
    summary.update({"wounds": len(wounds), "unsaved": alloc.unsaved, "casualties": list(alloc.casualties), "allocation": alloc.lines})
    return new, events, summary


def _fire_group(w: RangedProfile, bs: int, n_models: int, snap: bool, toughness: Optional[int], dice, purpose: str) -> dict:
    shots = n_models * int(w.firepower)
    tn, crit, auto = ranged_hit(bs, snap)
    out = {"weapon": w.label, "bs": bs, "snap": snap, "shots": shots, "hit_on": tn, "hits": 0, "wound_on": None, "wounds": 0}
    wounds: list[Wound] = []
    if tn is None or shots == 0:
        out["_wounds"] = wounds
        return out
    rolls = [6] * shots if auto else dice.roll(shots, f"to hit ({purpose}, {tn}+{' snap' if snap else ''})")
    hits = [v for v in rolls if auto or test_passes(v, tn)]
    out["hits"] = len(hits)
    rending = w.traits.get("rending")
    auto_wounds, to_roll = [], []
    for v in hits:
        if (crit is not None and v >= crit) or auto:
            auto_wounds.append(("critical", v))
        elif rending is not None and v >= int(rending):
            auto_wounds.append(("rending", v))
        else:
            to_roll.append(v)
    wtn = wound_tn(apply_strength(w), toughness) if toughness is not None else None
    out["wound_on"] = wtn
    for why, _v in auto_wounds:
        wounds.append(Wound(w.ap, int(w.damage) + (1 if why == "critical" else 0), f"{w.label} ({why})"))
    if to_roll and wtn is not None:
        for v in dice.roll(len(to_roll), f"to wound ({purpose}, {wtn}+)"):
            if test_passes(v, wtn):
                wounds.append(_wound_from(w, v))
    out["wounds"] = len(wounds)
    out["_wounds"] = wounds
    return out


def apply_strength(w: RangedProfile) -> int:
    return int(w.strength) if isinstance(w.strength, int) else int(str(w.strength))


def _wound_from(w, natural: int) -> Wound:
    """A wound from a natural wound roll: Breaching (X) → AP 2, Shred (X) → +1 Damage."""
    ap = w.ap
    br = w.traits.get("breaching")
    if br is not None and natural >= int(br):
        ap = 2 if ap is None else min(ap, 2)
    dmg = int(w.damage)
    sh = w.traits.get("shred")
    if sh is not None and natural >= int(sh):
        dmg += 1
    return Wound(ap, dmg, w.label)
