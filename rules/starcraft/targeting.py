"""Choosing the target of a Ranged Attack (§8.7.3) on the real board.

A target is valid only if a Visible model of it is within the weapon's Range (base to base) of
a firing model, its Combat Tags match the weapon's Target, and the engagement restrictions
allow it (an Unengaged unit cannot target an Engaged one unless PINPOINT; an Engaged unit may
only target the units it is Engaged with; BULKY weapons cannot fire while Engaged). Only firing
models within Range of a target model Visible to them add dice; with LONG RANGE (X), models
beyond Range but within X" add dice at −1 to Hit, rolled as a separate group of the same Batch.

The models an attack may remove (§8.7.4): those Visible to at least one firing model (range
does not matter, FAQ), or every model when the target is Engaged (§8.7.5) or the weapon has
INDIRECT FIRE. A HIDDEN (or BURROWED) model is not Visible beyond 4" (§11).

Line of sight comes from :func:`rules.starcraft.visibility.sight_matrix` (one batched search
over all firing × target pairs); a caller may pass its own ``sight`` function
``(state, firing_model_ids, target_unit) -> bool matrix`` (rows: firing models, columns: the
target's models in file order).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import numpy as np

from tapeline.board.arrays import Bools
from tapeline.board.measure import gap_matrix
from tapeline.board.units import TOUCH

from ..errors import IllegalAction
from ..state import GameState
from .casualties import engaged_pairs
from .catalogue import Weapon, unit_weapon
from .visibility import high_ground_cover, sight_matrix

HIDDEN_SIGHT = 4.0
Sight = Callable[[GameState, Sequence[str], str], Bools]


@dataclass(frozen=True)
class Targeting:
    """A checked target for one Batch: who adds dice, who may be removed, and why Evade."""

    unit: str
    weapon: Weapon
    target: str
    in_range: tuple[str, ...]
    long_range: tuple[str, ...]
    removable: tuple[str, ...]
    target_engaged: bool
    target_visible: bool
    evade_reasons: tuple[str, ...]

    @property
    def firing(self) -> tuple[str, ...]:
        return self.in_range + self.long_range


def board_sight(state: GameState, firing: Sequence[str], target: str) -> Bools:
    """Visible (§7.1) for every firing model × target model, from the sight rules."""
    return sight_matrix(state, [state.figure(m) for m in firing], state.figures_of(target)).visible


def _high_ground(state: GameState, target: str, firing: Sequence[str]) -> bool:
    return bool(high_ground_cover(state, target, list(firing)))


def engaged_with(state: GameState, unit_id: str) -> set[str]:
    """The enemy units ``unit_id`` is Engaged with (§7.2)."""
    return {state.unit_of(b).id for _, b, _ in engaged_pairs(state, unit_id)}


def check_target(state: GameState, unit_id: str, weapon: str, target: str,
                 models: Optional[Sequence[str]] = None, sight: Optional[Sight] = None,
                 grant_evade: bool = False) -> Targeting:
    """Validate a Batch's target and work out firing models and removable models (§8.7.3).

    Raises :class:`IllegalAction` naming the rule for an invalid target.
    """
    w = unit_weapon(state, unit_id, weapon)
    u, t = state.unit(unit_id), state.unit(target)
    if w.phase != "assault":
        raise IllegalAction("§8.7.3 Ranged Attack", f"{w.name} is a Combat-phase weapon, not a ranged one")
    if not isinstance(w.range, (int, float)):
        raise IllegalAction("§8.7.6 templates", f"{w.name} is a template weapon ({w.range}): it is placed and resolved as a template (tapeline template, §8.7.6)")
    if t.side == u.side:
        raise IllegalAction("§8.7.3 Ranged Attack", f"{target} is not an enemy of {unit_id}")
    if not t.models:
        raise IllegalAction("§8.7.3 Ranged Attack", f"{target} has no models left")
    check_target_type(w, state, target)
    firing_ids = list(u.models) if models is None else list(models)
    for m in firing_ids:
        if m not in u.models:
            raise IllegalAction("§8.7.3 Batches", f"{m} is not a model of {unit_id} on the table")
    theirs = check_engagement(state, unit_id, w, target)

    figs_a = [state.figure(m) for m in firing_ids]
    figs_t = state.figures_of(target)
    tids = [f.id for f in figs_t]
    g = gap_matrix(figs_a, figs_t) if figs_a else np.zeros((0, len(figs_t)))
    hidden = bool({"hidden", "burrowed"} & t.status)
    indirect = bool(w.kw("indirect_fire"))
    see = sight or board_sight
    vis = np.asarray(see(state, firing_ids, target), dtype=bool).reshape(g.shape) if firing_ids else np.zeros(g.shape, bool)
    ok_pair = vis | indirect
    if hidden:
        close = g <= HIDDEN_SIGHT + TOUCH
        vis &= close
        ok_pair &= close
    rng = float(w.range)
    reach = float(w.kw("long_range") or rng)
    near: Bools = np.any(ok_pair & (g <= rng + TOUCH), axis=1)
    far: Bools = np.any(ok_pair & (g <= max(reach, rng) + TOUCH), axis=1) & ~near
    in_range = tuple(m for i, m in enumerate(firing_ids) if near[i])
    long_range = tuple(m for i, m in enumerate(firing_ids) if far[i])
    if not in_range and not long_range:
        what = "within Range" if indirect else "Visible and within Range"
        raise IllegalAction("§8.7.3 Range and visibility", f"no model of {target} is {what} ({rng:g}\"" + (f", LONG RANGE {reach:g}\"" if reach > rng else "") + f") of a firing model of {unit_id}")
    rows = np.array([near[i] or far[i] for i in range(len(firing_ids))])
    seen_any = vis[rows].any(axis=0)
    target_visible = bool(seen_any.any())
    engaged_target = bool(theirs)
    if engaged_target or indirect:
        removable = tuple(tids)
    else:
        removable = tuple(tid for j, tid in enumerate(tids) if seen_any[j])
    reasons = evade_reasons(state, target, in_range + long_range, engaged_target, grant_evade,
                            indirect and not target_visible)
    return Targeting(unit_id, w, target, in_range, long_range, removable, engaged_target, target_visible, reasons)


def check_target_type(w: Weapon, state: GameState, target: str) -> None:
    """The target's Combat Tags must match the weapon's Target (§8.7.3)."""
    kind = "flying" if state.unit(target).flying else "ground"
    if w.target != "all" and w.target != kind:
        raise IllegalAction("§8.7.3 Target type", f"{w.name} targets {w.target.title()} units; {target} is {kind.title()}")


def check_engagement(state: GameState, unit_id: str, w: Weapon, target: str) -> set[str]:
    """The engagement restrictions on choosing ``target`` (§8.7.3, BULKY, PINPOINT); returns the
    units ``target`` is Engaged with (empty: the target is Unengaged)."""
    mine = engaged_with(state, unit_id)
    theirs = engaged_with(state, target)
    if mine:
        if w.kw("bulky"):
            raise IllegalAction("§11 BULKY", f"{w.name} cannot make a Ranged Attack while {unit_id} is Engaged")
        if target not in mine:
            raise IllegalAction("§8.7.3 Engaged units", f"{unit_id} is Engaged and may only target {', '.join(sorted(mine))}")
    elif theirs and not w.kw("pinpoint"):
        raise IllegalAction("§8.7.3 Engaged units", f"{unit_id} is Unengaged and cannot target {target}, which is Engaged with {', '.join(sorted(theirs))} (PINPOINT excepted)")
    return theirs


def evade_reasons(state: GameState, target: str, firing: Sequence[str], engaged_target: bool,
                  grant_evade: bool = False, indirect_unseen: bool = False) -> tuple[str, ...]:
    """Why the target may roll Evade against a Batch (§8.7.4 step 4); empty: it may not."""
    t = state.unit(target)
    reasons = []
    if grant_evade:
        reasons.append("granted by an ability or keyword")
    if engaged_target:
        reasons.append("Engaged and suffering a Ranged Attack (§8.7.4)")
    if {"hidden", "burrowed"} & t.status:
        reasons.append("HIDDEN (§11)")
    if indirect_unseen:
        reasons.append("INDIRECT FIRE at a non-Visible target (§11)")
    if _high_ground(state, target, firing):
        reasons.append("High Ground cover (§7.1.3)")
    return tuple(reasons)
