"""Horus Heresy 3rd: the defender's side of a shooting attack (Volleys, Overwatch, Gun Down),
on the shared engine's wound allocation (:mod:`rules.melee.wounds`).

Wounds go one at a time to the target unit's models in the defender's **casualty order**: a
model already wounded first (§A.7: Command models excepted), then the file's choices (model ids
in order, each checked), then file order — or, with setting ``casualty_default: farthest``, the
model farthest from the attackers first. One save each (the better of armour, if the AP allows
it, and invulnerable), Damage that never carries over.

The target unit's **Toughness** for Wound Tests is the majority value among its models (a tie:
the highest of the tied values, §A.7).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

from tapeline.board.table import Figure

from ..dice import Dice
from ..melee.wounds import Kinds, Losses, SaveLog, allocate_dice
from ..state import GameState
from .checks import model_stat, model_subtypes
from .melee import casualty_order, defender

RULE = "HH3 §A.7 allocation"


def wounds_of(state: GameState, model_id: str) -> int:
    """A model's Wounds left."""
    u = state.unit_of(model_id)
    base = model_stat(state, model_id, "wounds")
    return max(0, int(base if base is not None else 1) - int(u.wounds_lost.get(model_id, 0)))


@dataclass
class Allocation:
    """What a batch of wounds did: the saves log, the casualties, wounds lost."""

    lines: list[SaveLog] = field(default_factory=list)
    casualties: list[str] = field(default_factory=list)
    lost: int = 0


def shooting_order(state: GameState, unit_id: str, choices: Sequence[str] = (),
                   attackers: Sequence[Figure] = ()) -> tuple[str, ...]:
    """The casualty order for a shooting attack (see the module notes)."""
    u = state.unit(unit_id)
    order = list(casualty_order(state, unit_id, (), list(choices)))
    if state.settings.get("casualty_default", "file_order") != "farthest" or not attackers:
        return tuple(order)
    wounded = [m for m in order if u.wounds_lost.get(m, 0) > 0 and "command" not in model_subtypes(state, m)]
    head = list(dict.fromkeys(list(choices) + wounded))
    rest = sorted((m for m in u.models if m not in head), key=lambda m: (-min(math.dist(state.figure(m).at, a.at) for a in attackers), u.models.index(m)))
    return tuple(head + rest)


def allocate(state: GameState, unit_id: str, kinds: Kinds, counts: Sequence[int], dice: Dice, choices: Sequence[str] = (),
             attackers: Sequence[Figure] = (), label: str = "") -> tuple[GameState, Allocation]:
    """Take ``counts[k]`` wounds of ``kinds[k]`` on ``unit_id`` (kind order); casualties are
    reported, not yet removed from the table."""
    order = tuple(defender(state, m) for m in shooting_order(state, unit_id, choices, attackers))
    losses, log = allocate_dice(order, Losses(), kinds, counts, dice, label)
    dead = [d.id for d in order[:losses.removed]]
    lost = dict(state.unit(unit_id).wounds_lost)
    if losses.damage and losses.removed < len(order):
        m = order[losses.removed].id
        lost[m] = lost.get(m, 0) + losses.damage
    for m in dead:
        lost.pop(m, None)
    return state.with_wounds_lost(unit_id, lost), Allocation(log, dead)
