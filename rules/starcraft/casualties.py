"""Damage and casualties (§8.7.4 step 5, §8.7.5; Shields §5.1 5A; CONCENTRATED FIRE §11).

Two separate questions, answered by separate functions:

* **how many** models a Total Damage removes — :func:`allocate`, pure arithmetic shared by the
  dice resolution and the exact odds (every model of a unit has the same HP; the first model
  carries the unit's Shield on top of its HP until it is removed);
* **which** models — :func:`legal_casualties`: among the models Visible to the attackers for an
  unengaged target, or by the Engaged priority order (§8.7.5) for an engaged one. The order's
  "within Engagement Range of an enemy" is read as the seed words it, within 1" of an enemy
  model; the setting ``casualty_priority_range: engaging`` reads it as engaging one (§7.2).

Total Damage = damage dice × DMG + the Damage Marker. While it covers the next model's HP a model
is removed; if every model that may be removed is gone (all Visible ones, or the CONCENTRATED
FIRE cap) the rest is discarded; otherwise what is left goes on the Damage Marker.

>>> allocate(10, hp=1, available=7)          # 10 damage, 7 Visible Zerglings: 7 die, 3 wasted
Allocation(kills=7, marker=0, discarded=3)
>>> allocate(6, hp=4, available=3, first_bonus=3)   # Zealots: the first model has 4 + 3
Allocation(kills=0, marker=6, discarded=0)
>>> allocate(7, hp=4, available=3, first_bonus=3)
Allocation(kills=1, marker=0, discarded=0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Optional, Sequence

import numpy as np

from tapeline.board.measure import gap_matrix
from tapeline.board.units import TOUCH

from ..errors import IllegalAction
from ..state import GameState
from .catalogue import make_profile
from .engagement import ENGAGEMENT_RANGE, engaged


@dataclass(frozen=True)
class Allocation:
    kills: int
    marker: int
    discarded: int


def allocate(total: int, hp: int, available: int, first_bonus: int = 0, cap: Optional[int] = None) -> Allocation:
    """How many models ``total`` damage removes (§8.7.4 step 5).

    ``available``: models that may be removed (Visible ones; every model when the target is
    Engaged); ``first_bonus``: HP added to the next casualty (the Shield on the first model,
    while it lives); ``cap``: CONCENTRATED FIRE (X), the most models the attack may remove.
    """
    hp = max(1, int(hp))
    limit = available if cap is None else min(available, cap)
    kills = 0
    while kills < limit:
        need = hp + (first_bonus if kills == 0 else 0)
        if total < need:
            break
        total -= need
        kills += 1
    if kills == limit:  # every removable model gone, or the CONCENTRATED FIRE cap reached
        return Allocation(kills, 0, total)
    return Allocation(kills, total, 0)


def shield_bonus(state: GameState, unit_id: str, shield: int) -> int:
    """HP the next casualty has on top of its HP: the Shield, until the first model is removed."""
    u = state.unit(unit_id)
    return shield if shield and not u.removed else 0


def shielded(state: GameState, unit_id: str, shield: int) -> bool:
    """Is the unit Shielded (§11 SHIELDED)? Lost when Total Damage exceeded the Shield value or
    the first model was removed; recorded as the status ``shield_lost``."""
    u = state.unit(unit_id)
    return bool(shield) and not u.removed and "shield_lost" not in u.status


# --- which models ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """A model that may be chosen as the next casualty, with why."""

    model: str
    priority: int  # 0: unengaged target; 1–3: §8.7.5 priorities
    breaks: tuple[str, ...] = ()  # enemy units whose Engagement its removal would end


def engaged_pairs(state: GameState, unit_id: str) -> list[tuple[str, str, bool]]:
    """``(own model, enemy model, base contact)`` for every pair that engage (§7.2)."""
    own = state.figures_of(unit_id)
    enemies = [f for e in state.enemies_of(unit_id) for f in state.figures_of(e.id)]
    if not own or not enemies:
        return []
    g = gap_matrix(own, enemies, upto=ENGAGEMENT_RANGE + TOUCH)
    out = []
    for i, j in zip(*np.nonzero(g <= ENGAGEMENT_RANGE + TOUCH)):
        a, b = own[i].id, enemies[j].id
        if engaged(state, a, b).engaged:
            out.append((a, b, bool(g[i, j] <= TOUCH)))
    return out


def is_engaged(state: GameState, unit_id: str) -> bool:
    """Is the unit Engaged with any enemy unit?"""
    return bool(engaged_pairs(state, unit_id))


#: Readings of "within Engagement Range of an enemy" in the Engaged casualty order (§8.7.5),
#: the file's setting ``casualty_priority_range``: ``within_1`` (default, the seed's words: "not
#: within 1" of enemies" — any enemy Ground model within 1", terrain and levels ignored) or
#: ``engaging`` (only enemy models it engages, §7.2 exceptions applied).
PRIORITY_READINGS = ("within_1", "engaging")


def priority_reading(state: GameState, reading: Optional[str] = None) -> str:
    """The reading in force: ``reading`` if given, else the state's setting, else ``within_1``."""
    r = reading or state.settings.get("casualty_priority_range") or PRIORITY_READINGS[0]
    if r not in PRIORITY_READINGS:
        raise ValueError(f"unknown casualty priority reading {r!r}")
    return r


def priorities(state: GameState, unit_id: str, reading: Optional[str] = None) -> dict[str, int]:
    """The §8.7.5 priority of each of the unit's models: 1 not within 1" of an enemy, 2 within
    1" but not in base contact, 3 in base contact with an enemy (Flying enemies never count:
    they have no Engagement Range, §7.2). Under the ``engaging`` reading only enemy models the
    model engages (§7.2) count."""
    u = state.unit(unit_id)
    prio = {m: 1 for m in u.models}
    if priority_reading(state, reading) == "engaging":
        for a, _, touching in engaged_pairs(state, unit_id):
            prio[a] = max(prio[a], 3 if touching else 2)
        return prio
    own = state.figures_of(unit_id)
    enemies = [f for e in state.enemies_of(unit_id) if not e.flying for f in state.figures_of(e.id)]
    if own and enemies:
        g = gap_matrix(own, enemies, upto=ENGAGEMENT_RANGE + TOUCH).min(axis=1)
        for f, d in zip(own, g.tolist()):
            prio[f.id] = 3 if d <= TOUCH else (2 if d <= ENGAGEMENT_RANGE + TOUCH else 1)
    return prio


def legal_casualties(state: GameState, unit_id: str, visible: Optional[Iterable[str]] = None,
                     target_engaged: Optional[bool] = None, reading: Optional[str] = None) -> list[Option]:
    """The models that may be removed next, in file order (§8.7.4–8.7.5).

    Unengaged target: the models still on the table that are Visible to the attackers.
    Engaged target (visibility ignored): priority 1 models not within 1" of an enemy, then 2
    (within 1", not in base contact), then 3 (in base contact) — see :func:`priorities` and
    ``reading``; a priority 2 or 3 model whose removal would end the Engagement (§7.2) with an
    enemy unit may not be chosen while another valid casualty exists (at any priority).
    """
    u = state.unit(unit_id)
    if target_engaged is None:
        target_engaged = is_engaged(state, unit_id)
    if not target_engaged:
        vis = set(u.models) if visible is None else set(visible)
        return [Option(m, 0) for m in u.models if m in vis]
    prio = priorities(state, unit_id, reading)
    pairs = engaged_pairs(state, unit_id)
    unit_of = {b: state.unit_of(b).id for _, b, _ in pairs}
    enemy_units = {unit_of[b] for _, b, _ in pairs}
    breaks: dict[str, tuple[str, ...]] = {}
    for m in u.models:
        if prio[m] == 1:
            breaks[m] = ()
            continue
        still = {unit_of[b] for a, b, _ in pairs if a != m}
        breaks[m] = tuple(sorted(enemy_units - still))
    opts = [Option(m, prio[m], breaks[m]) for m in u.models]
    if not opts:
        return []
    keep = [o for o in opts if not o.breaks]
    pool = keep or opts
    best = min(o.priority for o in pool)
    return [o for o in pool if o.priority == best]


# --- removing them ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Removal:
    """What one Batch's damage did to a unit: the new state, the models taken in order, the
    :class:`Allocation` and the Total Damage; ``shielded``: the unit is still Shielded."""

    state: GameState
    taken: tuple[str, ...]
    alloc: Allocation
    total: int
    shielded: bool


def remove(state: GameState, unit_id: str, damage: int, removable: Sequence[str], target_engaged: bool,
           choices: Optional[Sequence[str]] = None,
           default_pick: Optional[Callable[[GameState, Sequence[Option]], Option]] = None,
           strict: bool = False, cap: Optional[int] = None) -> Removal:
    """Apply ``damage`` (dice × DMG) to ``unit_id`` and remove casualties one at a time
    (§8.7.4 step 5, §8.7.5): Total Damage adds the Damage Marker; :func:`allocate` says how
    many go; each is the defender's choice from :func:`legal_casualties` (``choices`` in order,
    each checked), else ``default_pick(state, options)`` (default: the first legal model in file
    order); with ``strict`` a missing choice between several legal models is an error (unless
    every one of them dies anyway). The remainder goes on the Damage Marker; the unit stops
    being Shielded when Total Damage exceeds its Shield or a model is removed. Shared by Ranged
    Attacks, Close Combat Attacks and IMPACT."""
    t = state.unit(unit_id)
    prof = make_profile(t.profile or t.id, t.stats)
    hp, shield = int(prof.hp or 1), int(prof.shield or 0)
    total = int(damage) + t.damage
    removable_now = [m for m in removable if m in t.models]
    alloc = allocate(total, hp, len(removable_now), shield_bonus(state, unit_id, shield), cap)
    st, taken = state, []
    wanted = list(choices or [])
    rule = "§8.7.5 casualties" if target_engaged else "§8.7.4 casualties"
    for k in range(alloc.kills):
        opts = legal_casualties(st, unit_id, removable, target_engaged)
        names = [o.model for o in opts]
        if k < len(wanted):
            if wanted[k] not in names:
                raise IllegalAction(rule, f"{wanted[k]} may not be removed as casualty {k + 1}; legal: {', '.join(names)}")
            pick = wanted[k]
        elif strict and len(opts) > 1 and (target_engaged or len(opts) > alloc.kills - k):  # all die anyway: no choice
            raise IllegalAction("choices", f"casualty {k + 1} from {unit_id} must be chosen (strict_choices); legal: {', '.join(names)}")
        else:
            pick = (default_pick(st, opts) if default_pick else opts[0]).model
        st = st.without_models(unit_id, [pick])
        taken.append(pick)
    if len(wanted) > alloc.kills:
        raise IllegalAction(rule, f"{len(wanted)} casualties chosen but the Batch removes {alloc.kills}")
    u = st.unit(unit_id)
    status = u.status
    if shield and (total > shield or taken) and "shield_lost" not in status:
        status = status | {"shield_lost"}
    st = st.with_unit(replace(u, damage=alloc.marker, status=status))
    return Removal(st, tuple(taken), alloc, total, bool(shield) and "shield_lost" not in status)
