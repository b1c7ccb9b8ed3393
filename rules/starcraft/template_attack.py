"""Template weapons and abilities (§8.7.6 and its FAQ), through the Ranged Attack's Batches.

A weapon with RNG ``BT`` uses the ``blast`` shape, ``FT`` the ``flamer`` shape (the file's
``settings.templates`` may change them; :mod:`board.templates` holds the geometry).

**Alignment.** A Blast covers as much of the target model's base as possible and its centre is
the Target Point: by default it is centred on the target model; ``at`` may move it to any spot
that still covers as much of that base (wholly, when the base fits under the template; with
the template wholly over the base, when the base is the larger; else only the centre). A
Flamer's narrow end is flush with the firing model's base, its axis from that model's centre
through the target model's centre, which is the Target Point. The firing model is ``model``,
by default the attacking unit's model nearest the target model (ties: file order).

**Affected.** A model whose base the template covers (touching the outline is not covering) is
affected unless — checked in this order, the first reason reported —

* ``flying``: it is Flying and the weapon is not Target All / Flying (Flying models are on no
  elevation level for templates);
* ``elevation``: it is not on the Target Point's elevation level (a Target Point on a Flying
  model is on none: only Flying models share it);
* ``target_type``: the weapon is Target Flying and the model is not;
* ``no_shared_tag``: it is not in the primary unit and its unit shares no Combat Tag with it;
* ``terrain``: every straight line from the target's base (Blast) or the firing model's base
  (Flamer) to its base crosses the interior of a Size 2+ piece — an exact witness search
  (:func:`board.sight.find_witnesses`) with the Size 2+ pieces as the only blockers, pieces a
  base stands on never blocking.

**Batches.** The primary unit (the target model's) is one Batch of one die per affected model
plus the RoA modifiers (``extra_dice``); no Surge Die is rolled: the Surge result is the number
of its affected models (applied only if it has the weapon's Surge Type). Every other unit with
affected models is a Spillover Batch — friend or foe, Engaged or not — of one die per affected
model: no RoA modifiers, no Surge, and no weapon keywords (PRECISION, CRITICAL HIT, PIERCE,
ANTI-EVADE ... apply to the primary only, FAQ). Guardian Shield removes a die from every Batch.
The action's modifiers (hit, armour, evade, precision ...) apply to the primary Batch.

**Abilities with no target** (Psionic Storm, Plague: a profile with keyword
``ability_template``): the template is placed at ``at`` (Blast: its centre; Flamer: aimed from
the caster's base at it), the point under the centre is the Target Point (on Ground Level, or
on the piece ``on`` names), no Combat Tag need be shared, Flying models count at their base's
elevation and the Target type is not checked; every unit with affected models is a Batch like
a Spillover Batch. Lines are traced from the Target Point (Blast).

**Casualties** (§8.7.4–8.7.5, the seeds silent on templates): setting ``template_casualties``
— ``visible`` (default, the Ranged Attack's rule unchanged: an unengaged unit loses only models
Visible to the firing model) or ``affected`` (only its affected models). An Engaged unit loses
models in the §8.7.5 priority order either way, visibility ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from tapeline.board.bases import RoundBase
from tapeline.board.errors import GeometryError
from tapeline.board.measure import gap_matrix
from tapeline.board.sight import find_witnesses
from tapeline.board.table import Figure
from tapeline.board.templates import (Coverage, Dims, DiscDims, Template, TeardropDims, coverage, flush_teardrop, place,
                                      shape_table)
from tapeline.board.units import TOUCH

from ..dice import Dice
from ..errors import ChoiceError, IllegalAction
from ..sightcommon import blockers, own_stacks, relevant
from ..state import GameState
from .attack import BatchSpec
from .casualties import is_engaged
from .catalogue import Weapon, unit_weapon
from .elevation import Level, level
from .odds import attack_odds
from .. import choices
from .batches import BatchResult, Modifiers, Settings, _setting, batch_target, dice_spec, fire_batch
from .targeting import Targeting, check_engagement, check_target_type, evade_reasons
from .visibility import visible, visible_to_group

RULE = "§8.7.6 templates"
ALIGNMENT = "§8.7.6 Blast alignment"
SHAPE_OF_RANGE = {"BT": "blast", "FT": "flamer"}
CASUALTY_READINGS = ("visible", "affected")
#: A point as a base (the Target Point of an ability template, as a line's end): 1e-6 mm across.
POINT_MM = 1e-6


def shape(state: GameState, name: str) -> Dims:
    """The dimensions of template shape ``name`` in this file (defaults + ``settings.templates``)."""
    known = shape_table(state.settings.get("templates"))
    if name not in known:
        raise IllegalAction(RULE, f"unknown template shape {name!r} (known: {', '.join(sorted(known))})")
    return known[name]


@dataclass(frozen=True)
class Excluded:
    """A covered model that is not affected, and why (see the module docstring)."""

    model: str
    unit: str
    reason: str
    detail: str
    terrain: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"model": self.model, "unit": self.unit, "reason": self.reason, "detail": self.detail} | (
            {"terrain": list(self.terrain)} if self.terrain else {})


@dataclass(frozen=True)
class TemplateBatch:
    """One Batch of a template attack: the unit, whether it is the primary, its affected
    models, the checked targeting (firing model, removable models, Evade) and its dice."""

    unit: str
    primary: bool
    affected: tuple[str, ...]
    targeting: Targeting
    spec: BatchSpec
    mods: Modifiers


@dataclass(frozen=True)
class TemplatePlan:
    """A template attack laid out on the board, before any die is rolled."""

    unit: str
    weapon: Weapon
    template: Template
    firing_model: str
    target_model: Optional[str]
    primary: Optional[str]
    target_point: tuple[float, float]
    level: Optional[str]
    coverage: Coverage
    covered: tuple[dict[str, object], ...]
    affected: Mapping[str, tuple[str, ...]]
    excluded: tuple[Excluded, ...]
    batches: tuple[TemplateBatch, ...]
    casualties: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit, "weapon": self.weapon.key, "firing_model": self.firing_model,
            "target_model": self.target_model, "primary": self.primary,
            "template": self.template.as_dict(), "target_point": [round(v, 6) for v in self.target_point],
            "level": self.level, "covered": list(self.covered),
            "affected": {u: list(m) for u, m in self.affected.items()},
            "excluded": [e.as_dict() for e in self.excluded], "template_casualties": self.casualties,
        }


def no_surge(w: Weapon) -> Weapon:
    """``w`` for a Spillover (or ability) Batch: no Surge at all — neither the fixed result nor
    the weapon's Surge Die (§8.7.6: "1 die per model, no RoA modifiers, no Surge")."""
    return replace(w, surge=(), surge_dice=None)


def point_figure(x: float, y: float, on: Optional[str] = None) -> Figure:
    """A point on the table as a (vanishingly small) base, standing on ``on``."""
    return Figure("target point", "", "", RoundBase(POINT_MM), float(x), float(y), on)


def _level_label(lv: Optional[Level]) -> Optional[str]:
    return None if lv is None else lv.label


def _nearest(state: GameState, candidates: Sequence[Figure], to: Figure) -> Figure:
    g = gap_matrix(list(candidates), [to])[:, 0]
    return candidates[int(np.argmin(g))]


def template_weapon(state: GameState, unit_id: str, weapon: str) -> Weapon:
    """``unit_id``'s ``weapon``, checked to be a template weapon (RNG BT or FT, §8.7.6)."""
    w = unit_weapon(state, unit_id, weapon)
    if w.phase != "assault" or w.range not in SHAPE_OF_RANGE:
        raise IllegalAction(RULE, f"{w.name} is not a template weapon (RNG {w.range}, not BT or FT)")
    return w


def is_ability(w: Weapon) -> bool:
    """An ability template with no target (Psionic Storm, Plague): placed at a point, not aimed."""
    return bool(w.kw("ability_template"))


def plan(state: GameState, unit_id: str, weapon: str, target_model: Optional[str] = None,
         firing_model: Optional[str] = None, at: Optional[tuple[float, float]] = None,
         on: Optional[str] = None, mods: Modifiers = Modifiers(), settings: Settings = None) -> TemplatePlan:
    """Place the template of ``unit_id``'s ``weapon`` and work out what it does (§8.7.6).

    Raises :class:`IllegalAction` naming the rule for anything the rules do not allow."""
    w = template_weapon(state, unit_id, weapon)
    u = state.unit(unit_id)
    if not u.models:
        raise IllegalAction(RULE, f"{unit_id} has no models left")
    ability = is_ability(w)
    kind = SHAPE_OF_RANGE[str(w.range)]  # (template_weapon: RNG BT or FT)
    dims = shape(state, kind)
    if w.range == "BT" and not isinstance(dims, DiscDims) or w.range == "FT" and not isinstance(dims, TeardropDims):
        raise IllegalAction(RULE, f"settings.templates.{kind} must be a "
                                  f"{'disc' if w.range == 'BT' else 'teardrop'} for RNG {w.range} weapons")
    own = state.figures_of(unit_id)
    if firing_model is not None and firing_model not in u.models:
        raise IllegalAction(RULE, f"{firing_model} is not a model of {unit_id} on the table")
    if ability:
        if target_model is not None:
            raise IllegalAction(RULE, f"{w.name} is an ability template with no target: place it with at, not a target model")
        if at is None:
            raise IllegalAction(RULE, f"{w.name} is an ability template: give the point it is placed at (at)")
        return _plan_ability(state, unit_id, w, dims, firing_model, at, on, settings)
    if target_model is None:
        raise IllegalAction(RULE, f"{w.name} is a template weapon: name the target model it is aimed at")
    if on is not None:
        raise IllegalAction(RULE, "on names the piece under an ability template's Target Point; a weapon's Target Point is on its target model")
    if target_model not in state.figures or not any(target_model in v.models for v in state.units):
        raise IllegalAction(RULE, f"no model {target_model!r} on the table")
    tfig = state.figure(target_model)
    primary = tfig.unit
    pu = state.unit(primary)
    if pu.side == u.side:
        raise IllegalAction("§8.7.6 Primary target", f"{target_model} is not an enemy of {unit_id}: the primary target is an enemy unit")
    check_target_type(w, state, primary)
    engaged_primary = bool(check_engagement(state, unit_id, w, primary))
    indirect = bool(w.kw("indirect_fire"))
    firer = state.figure(firing_model) if firing_model else _default_firer(state, unit_id, w, own, tfig, settings, indirect)
    seen = bool(visible(state, firer.id, target_model))
    if not seen and not indirect:
        raise IllegalAction("§8.7.3 Range and visibility", f"{target_model} is not Visible to {firer.id} (§7.1)")
    if w.range == "BT":
        if at is None:
            assert isinstance(dims, DiscDims)  # checked above: RNG BT is a disc
            _blast_centre_choice(dims, tfig, settings)
        centre = tfig.at if at is None else (float(at[0]), float(at[1]))
        tpl = place(dims, centre, name="blast")
        if at is not None:
            assert isinstance(dims, DiscDims)  # checked above: RNG BT is a disc
            _check_blast_alignment(dims, tfig, centre)
        source, point = tfig, centre
    else:
        if at is not None:
            raise IllegalAction(RULE, "at applies to a Blast; a Flamer's narrow end is flush with the firing model's base, aimed at the target")
        assert isinstance(dims, TeardropDims)  # checked above: RNG FT is a teardrop
        tpl = flush_teardrop(dims, firer, tfig.at, name="flamer")
        source, point = firer, tfig.at
    cov = coverage(tpl, state.all_figures())
    if not cov.covered[cov.ids.index(target_model)]:
        raise IllegalAction(RULE, f"the {tpl.name} template aimed from {firer.id} does not reach {target_model}")
    target_level = None if pu.flying else level(state.table, tfig)
    affected, excluded = _affected(state, w, cov, source, target_level, primary, ability=False)
    if target_model not in affected.get(primary, ()):
        why = next(e for e in excluded if e.model == target_model)
        raise IllegalAction(RULE, f"the target model {target_model} itself would not be affected: {why.detail}")
    reading = _reading(state, settings)
    batches: list[TemplateBatch] = []
    for uid, ids in affected.items():
        is_primary = uid == primary
        bm = mods if is_primary else Modifiers()
        engaged = engaged_primary if is_primary else is_engaged(state, uid)
        reasons = evade_reasons(state, uid, [firer.id], engaged, bm.grant_evade, is_primary and indirect and not seen)
        removable = _removable(state, uid, ids, firer.id, engaged, reading, is_primary and indirect)
        tg = Targeting(unit_id, w, uid, (firer.id,), (), removable, engaged, seen, reasons)
        near = len(ids) + (bm.extra_dice if is_primary else 0)
        surge = len(ids) if is_primary and w.surge else None
        spec = dice_spec(state, unit_id, uid, w if is_primary else no_surge(w), near, 0, bm, settings, bool(reasons),
                         keywords=is_primary, surge_fixed=surge)
        batches.append(TemplateBatch(uid, is_primary, ids, tg, spec, bm))
    return TemplatePlan(unit_id, w, tpl, firer.id, target_model, primary, point, _level_label(target_level), cov,
                        tuple(cov.rows()), affected, tuple(excluded), tuple(batches), reading)


def _plan_ability(state: GameState, unit_id: str, w: Weapon, dims: Dims, firing_model: Optional[str],
                  point: tuple[float, float], on: Optional[str], settings: Settings) -> TemplatePlan:
    at = (float(point[0]), float(point[1]))
    if on is not None and on not in state.table.by_id:
        raise IllegalAction(RULE, f"no terrain piece {on!r} for the Target Point to stand on")
    pt = point_figure(*at, on)
    own = state.figures_of(unit_id)
    firer = state.figure(firing_model) if firing_model else _default_firer(state, unit_id, w, own, pt, settings, True)
    try:
        if w.range == "BT":
            tpl, source = place(dims, at, name="blast"), pt
        else:
            assert isinstance(dims, TeardropDims)  # checked by plan: RNG FT is a teardrop
            tpl, source = flush_teardrop(dims, firer, at, name="flamer"), firer
    except GeometryError as e:
        raise IllegalAction(RULE, str(e)) from None
    cov = coverage(tpl, state.all_figures())
    target_level = level(state.table, pt)
    affected, excluded = _affected(state, w, cov, source, target_level, None, ability=True)
    reading = _reading(state, settings)
    batches: list[TemplateBatch] = []
    for uid, ids in affected.items():
        engaged = is_engaged(state, uid)
        reasons = evade_reasons(state, uid, [firer.id], engaged)
        removable = _removable(state, uid, ids, firer.id, engaged, reading, False)
        tg = Targeting(unit_id, w, uid, (firer.id,), (), removable, engaged, True, reasons)
        spec = dice_spec(state, unit_id, uid, no_surge(w), len(ids), 0, Modifiers(), settings, bool(reasons), keywords=False)
        batches.append(TemplateBatch(uid, False, ids, tg, spec, Modifiers()))
    return TemplatePlan(unit_id, w, tpl, firer.id, None, None, at, _level_label(target_level), cov,
                        tuple(cov.rows()), affected, tuple(excluded), tuple(batches), reading)


def _default_firer(state: GameState, unit_id: str, w: Weapon, own: Sequence[Figure], to: Figure, settings: Settings,
                   any_model: bool) -> Figure:
    """The firing model when the file names none (the attacker's choice): the unit's model
    nearest ``to`` (the target model, or an ability's Target Point; ties: file order), the
    reading ``template.model`` — in strict mode an error listing the models that may fire
    (those that see the target model; every one with ``any_model``: Indirect Fire, abilities)."""
    nearest = _nearest(state, own, to)
    legal = [f.id for f in own if any_model or f.id == nearest.id or visible(state, f.id, to.id)]
    choices.default(settings, "template.model", nearest.id, legal, RULE, f"the model of {unit_id} that fires {w.name}", "model")
    return nearest


def _blast_centre_choice(dims: DiscDims, tfig: Figure, settings: Settings) -> None:
    """Where the Blast's centre goes when the file gives no ``at`` (§8.7.6 "covers as much of
    the target's base as possible"): centred on the target model, the reading ``template.at`` —
    a choice (an error in strict mode) when more than one centre covers as much of the base
    (:func:`_check_blast_alignment`'s rule), not when only the centred one does."""
    best = coverage(place(dims, tfig.at), [tfig])
    R = dims.diameter / 2
    if isinstance(tfig.base, RoundBase):
        slack = abs(R - tfig.base.radius)
        if slack <= TOUCH:
            return
        room = f"any point within {slack:.6g}\" of {tfig.id}'s centre ({tfig.x:.6g}, {tfig.y:.6g})"
    elif best.full[0] or best.encloses[0] >= -TOUCH:
        room = f"any point that {'keeps the whole base under the template' if best.full[0] else 'keeps the template over the base'}"
    else:
        return
    choices.open_choice(settings, "template.at", f"centred on {tfig.id}", ALIGNMENT, f"the Blast's Target Point on {tfig.id}",
                        f"{room}, given as at", "at")


def default_target_model(state: GameState, unit_id: str, target_unit: str, firing_model: Optional[str] = None) -> str:
    """The target model when only the target unit is named: its model nearest the firing model
    (or, with no firing model named, the closest pair of the two units; ties: file order)."""
    theirs = state.figures_of(target_unit)
    if not theirs:
        raise IllegalAction("§8.7.3 Ranged Attack", f"{target_unit} has no models left")
    mine = [state.figure(firing_model)] if firing_model else state.figures_of(unit_id)
    g = gap_matrix(mine, theirs).min(axis=0)
    return theirs[int(np.argmin(g))].id


def _reading(state: GameState, settings: Settings) -> str:
    r = _setting(settings, "template_casualties", None) or state.settings.get("template_casualties") or CASUALTY_READINGS[0]
    if r not in CASUALTY_READINGS:
        raise IllegalAction(RULE, f"unknown template_casualties reading {r!r}")
    choices.note("template_casualties", r)
    return str(r)


def _removable(state: GameState, uid: str, affected: Sequence[str], firer: str, engaged: bool, reading: str,
               every: bool) -> tuple[str, ...]:
    """Models a Batch may remove: every model when Engaged (§8.7.5 orders them) or INDIRECT
    FIRE; else the affected ones or those Visible to the firing model (the reading)."""
    models = state.unit(uid).models
    if engaged or every:
        return tuple(models)
    if reading == "affected":
        return tuple(affected)
    seen = visible_to_group(state, [firer], uid)
    return tuple(m for m in models if m in seen)


def _check_blast_alignment(dims: DiscDims, tfig: Figure, centre: tuple[float, float]) -> None:
    """``at`` must cover as much of the target's base as the centred Blast does."""
    R = dims.diameter / 2
    here = coverage(place(dims, centre), [tfig])
    best = coverage(place(dims, tfig.at), [tfig])
    if best.full[0]:
        ok, need = bool(here.full[0]), "keep the whole base under the template"
    elif best.encloses[0] >= -TOUCH:
        ok, need = bool(here.encloses[0] >= -TOUCH), "keep the whole template over the base"
    else:
        ok = bool(np.hypot(centre[0] - tfig.x, centre[1] - tfig.y) <= TOUCH)
        need = "be centred on it (the base is neither wholly under the template nor wholly covering it)"
    if not ok:
        raise IllegalAction(ALIGNMENT,
                            f"a Blast centred at ({centre[0]:g}, {centre[1]:g}) does not cover as much of {tfig.id}'s base as possible "
                            f"(diameter {2 * R:g}\"): the Target Point must {need}")


def _affected(state: GameState, w: Weapon, cov: Coverage, source: Figure, target_level: Optional[Level],
              primary: Optional[str], ability: bool) -> tuple[dict[str, tuple[str, ...]], list[Excluded]]:
    """Affected models by unit (primary first, then file order) and the excluded ones."""
    t = state.table
    ptags = state.unit(primary).tags if primary else frozenset()
    hits_flyers = w.target in ("all", "flying")
    pending: list[Figure] = []
    excluded: list[Excluded] = []
    for i, m in enumerate(cov.ids):
        if not cov.covered[i]:
            continue
        f = state.figure(m)
        u = state.unit(f.unit)
        fly = u.flying and not ability
        if fly and not hits_flyers:
            excluded.append(Excluded(m, u.id, "flying", f"Flying: on no elevation level for templates, and {w.name} is not Target All or Flying"))
            continue
        if not fly:
            lv = level(t, f)
            if target_level is None or lv != target_level:
                where = "a Flying model (on no level)" if target_level is None else target_level.label
                excluded.append(Excluded(m, u.id, "elevation", f"on {lv.label}; the Target Point is on {where}"))
                continue
        if not ability and w.target == "flying" and not u.flying:
            excluded.append(Excluded(m, u.id, "target_type", f"{w.name} targets Flying units; {u.id} is Ground"))
            continue
        if not ability and u.id != primary and not (u.tags & ptags):
            excluded.append(Excluded(m, u.id, "no_shared_tag", f"{u.id} shares no Combat Tag with the primary target {primary}"))
            continue
        pending.append(f)
    clear, blocked_by = _lines(state, source, pending)
    ok: set[str] = set()
    for f, c, b in zip(pending, clear, blocked_by):
        if c:
            ok.add(f.id)
        else:
            excluded.append(Excluded(f.id, f.unit, "terrain", f"every line from {source.id}'s base is blocked by Size 2+ terrain: {', '.join(b)}", tuple(b)))
    order = ([primary] if primary else []) + [u.id for u in state.units if u.id != primary]
    affected: dict[str, tuple[str, ...]] = {}
    for uid in order:
        ids = tuple(m for m in state.unit(uid).models if m in ok)
        if ids:
            affected[uid] = ids
    excluded.sort(key=lambda e: cov.ids.index(e.model))
    return affected, excluded


def _lines(state: GameState, source: Figure, figs: Sequence[Figure]) -> tuple[list[bool], list[list[str]]]:
    """For each figure: is some straight line from ``source``'s base to its base clear of Size
    2+ terrain (pieces either stands on excepted)? And the blocking pieces when not."""
    n = len(figs)
    if not n:
        return [], []
    t = state.table
    if not t.pieces:
        return [True] * n, [[] for _ in figs]
    big = np.array([p.size >= 2 for p in t.pieces], bool)
    stacks = own_stacks([source, *figs], t)
    mask = big[None, :] & ~stacks[0][None, :] & ~stacks[1:]
    clear = np.ones(n, bool)
    live = np.array([f.id != source.id for f in figs], bool)
    if live.any():
        idx = np.nonzero(live)[0]
        found, _ = find_witnesses([source] * len(idx), [figs[int(i)] for i in idx], blockers(t), mask[idx])
        clear[idx] = found
    blocked = [[] if c else [t.pieces[j].id for j in relevant(source, f, t, mask[k])] for k, (f, c) in enumerate(zip(figs, clear))]
    return clear.tolist(), blocked


# --- odds and dice ------------------------------------------------------------------------------


def batch_odds(state: GameState, p: TemplatePlan, settings: Settings = None) -> list[dict[str, Any]]:
    """Each Batch with its dice and exact odds (the exact engine of :mod:`odds`)."""
    out: list[dict[str, Any]] = []
    for b in p.batches:
        t = state.unit(b.unit)
        o = attack_odds([(b.spec, batch_target(state, b.targeting, b.mods, settings))], marker=t.damage,
                        removed_before=len(t.removed))
        out.append({"unit": b.unit, "primary": b.primary, "dice": b.spec.dice,
                    "surge": b.spec.surge_fixed if b.spec.surge_applies else None,
                    "affected": list(b.affected), "removable": list(b.targeting.removable),
                    "evade": b.spec.evade, "evade_reasons": list(b.targeting.evade_reasons) if b.spec.evade is not None else [],
                    "mean_hits": o.hits.mean, "mean_damage": o.damage.mean, "mean_kills": o.kills.mean,
                    "kills_pmf": o.kills.as_list(), "kills_at_least": o.kills.at_least_list()})
    return out


def resolve(state: GameState, p: TemplatePlan, dice: Dice, choices: Sequence[str] = (),
            settings: Settings = None) -> tuple[GameState, list[dict[str, Any]], list[BatchResult]]:
    """Roll every Batch in order (primary first); ``choices`` are casualty choices, each used
    by the Batch of its unit. Returns the new state, the events and each Batch's result."""
    events: list[dict[str, Any]] = [{"type": "template"} | p.as_dict()]
    results: list[BatchResult] = []
    units = {b.unit for b in p.batches}
    stray = [m for m in choices if m not in state.figures or state.figure(m).unit not in units]
    if stray:
        raise IllegalAction("§8.7.4 casualties", f"{', '.join(stray)}: not a model of a unit this template affects "
                                                 f"({', '.join(b.unit for b in p.batches)})")
    for k, b in enumerate(p.batches):
        mine = [m for m in choices if state.figure(m).unit == b.unit]
        state, evs, res = fire_batch(state, b.targeting, dice, b.mods, mine, settings, spec=b.spec)
        evs[0] |= {"template": p.template.name, "spillover": not b.primary and p.primary is not None,
                   "affected": list(b.affected)}
        events += evs
        results.append(res)
    return state, events, results


def answer(state: GameState, unit_id: str, weapon: str, target: Optional[str] = None, firer: Optional[str] = None,
           at: Optional[tuple[float, float]] = None, on: Optional[str] = None) -> dict[str, Any]:
    """The ``template`` question for a template weapon: where it lands, what it covers and
    affects (and what it excludes, why), and each Batch with its exact odds. A choice that does
    not fit the weapon is a :class:`ChoiceError` naming it (``weapon``, ``at``, ``target``)."""
    try:
        w = template_weapon(state, unit_id, weapon)
    except IllegalAction as e:
        raise ChoiceError("weapon", e.rule, str(e)) from None
    if is_ability(w) and at is None:
        raise ChoiceError("at", RULE, f"{w.name} is an ability template: give the point it is placed at ({RULE})")
    if not is_ability(w) and target is None:
        raise ChoiceError("target", RULE, f"{w.name} is a template weapon: name the target model it is aimed at ({RULE})")
    try:
        p = plan(state, unit_id, weapon, target, firer, at, on, settings=state.settings)
    except IllegalAction as e:
        if e.rule == ALIGNMENT:
            raise ChoiceError("at", e.rule, str(e)) from None
        raise
    out = p.as_dict()
    out["batches"] = batch_odds(state, p, state.settings)
    return out
