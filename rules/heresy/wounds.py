"""Horus Heresy 3rd: the defender's side of an attack, dice by dice (§A.7 steps 7–8, §A.9).

Each wound is allocated **one at a time** by the defending player to a model of the target
unit — a model that has already lost wounds first (§A.7: unless it is a Command model) — then
that model takes **one save** (the better of its armour save, if the AP allows it, and its
invulnerable save; never cover in melee), and an unsaved wound takes the weapon's **Damage**
off its Wounds; at 0 the model is a casualty and the next wound goes to another model. Damage
never carries over. Choices: the file's (``choices``: model ids, taken in order; each must be
legal), else the documented default — the first legal model in file order (setting
``casualty_default: farthest``: the legal model farthest from the attackers).

The target unit's **Toughness** for Wound Tests is the majority value among its models (a tie:
the highest of the tied values, §A.7); its **Weapon Skill** for Hit Tests likewise.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional, Sequence

from ..errors import IllegalAction
from ..state import GameState
from .checks import model_stat, model_subtypes
from .tables import best_save, test_passes

RULE = "HH3 §A.7 allocation"


def majority(state: GameState, unit_id: str, name: str, models: Optional[Sequence[str]] = None) -> Optional[int]:
    """The majority value of characteristic ``name`` among the unit's models (ties: the highest)."""
    vals = [model_stat(state, m, name) for m in (models if models is not None else state.unit(unit_id).models)]
    vals = [int(v) for v in vals if v is not None]
    if not vals:
        return None
    c = Counter(vals)
    top = max(c.values())
    return max(v for v, n in c.items() if n == top)


@dataclass(frozen=True)
class Wound:
    """One wound (or penetrating hit) to allocate: its AP (after Breaching), Damage, and where it
    came from (for the log)."""

    ap: Optional[int]
    damage: int
    source: str = ""


@dataclass
class Allocation:
    """What a batch of wounds did: per wound the model, the save taken and the outcome."""

    lines: list = field(default_factory=list)
    casualties: list = field(default_factory=list)
    unsaved: int = 0
    saves: int = 0


def wounds_of(state: GameState, model_id: str) -> int:
    """A model's Wounds left."""
    u = state.unit_of(model_id)
    base = model_stat(state, model_id, "wounds")
    return max(0, int(base if base is not None else 1) - int(u.wounds_lost.get(model_id, 0)))


def legal_targets(state: GameState, unit_id: str, lost: dict, alive: list) -> list[str]:
    """Models a wound may go to: a wounded non-Command model first (§A.7)."""
    wounded = [m for m in alive if lost.get(m, 0) > 0 and "command" not in model_subtypes(state, m)]
    return wounded[:1] if wounded else list(alive)


def allocate(state: GameState, unit_id: str, wounds: Sequence[Wound], dice, choices: Sequence[str] = (),
             attackers: Sequence = (), purpose: str = "save") -> tuple[GameState, Allocation]:
    """Allocate, save and apply ``wounds`` to ``unit_id`` one at a time; casualties are removed
    from the table at the end (the caller decides when that is, §A.7 step 10)."""
    u = state.unit(unit_id)
    lost = dict(u.wounds_lost)
    alive = list(u.models)
    picks = list(choices)
    res = Allocation()
    far = state.settings.get("casualty_default", "file_order") == "farthest"
    for w in wounds:
        if not alive:
            res.lines.append({"wound": w.source, "discarded": "no model left"})
            continue
        legal = legal_targets(state, unit_id, lost, alive)
        if picks:
            m = picks.pop(0)
            if m not in legal:
                raise IllegalAction(RULE, f"{m!r} may not take this wound: legal are {', '.join(legal)} (a wounded model first)")
        elif far and attackers:
            m = max(legal, key=lambda i: (min(math.dist(state.figure(i).at, a.at) for a in attackers), -alive.index(i)))
        else:
            if state.settings.get("strict_choices") and len(legal) > 1:
                raise IllegalAction(RULE, f"choose the model to take the wound: one of {', '.join(legal)}")
            m = legal[0]
        sv = best_save(model_stat(state, m, "save"), model_stat(state, m, "invulnerable"), w.ap)
        line = {"model": m, "wound": w.source, "save_on": sv}
        if sv is not None:
            v = dice.roll(1, f"{purpose} ({m}, {sv}+)")[0]
            line["save_roll"] = v
            if test_passes(v, sv):
                line["saved"] = True
                res.saves += 1
                res.lines.append(line)
                continue
        line["saved"] = False
        res.unsaved += 1
        base = model_stat(state, m, "wounds")
        lost[m] = lost.get(m, 0) + int(w.damage)
        line["damage"] = int(w.damage)
        if lost[m] >= int(base if base is not None else 1):
            alive.remove(m)
            res.casualties.append(m)
            line["casualty"] = True
        res.lines.append(line)
    for m in res.casualties:
        lost.pop(m, None)
    return state.with_wounds_lost(unit_id, lost), res
