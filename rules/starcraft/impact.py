"""IMPACT (X) Y: extra dice right after a successful Charge (§8.7.7, §8.8 "IMPACT after a
Charge", §11 IMPACT; on the cards the "Devastating Charge" passive).

Each model of the charging unit in the Fighting or Supporting Rank (:mod:`rules.starcraft.ranks`)
generates X dice. Against a single charged unit they all go there; against several a model may
split its dice between the units it may attack (``split: {model: {unit: dice}}``; default: all
of a model's dice to the first charged unit, in declaration order, it may attack). Each result
of Y or more puts one die into that unit's Armour Pool and its saves are rolled at once: no
Surge, Damage 1. HIDDEN units (BURROWED ones are HIDDEN) are immune. We read "roll saves
immediately" as Armour Rolls only — no Evade roll against IMPACT dice.

The dice go through the same :class:`~rules.starcraft.attack.Step` objects as an attack (a
to-hit step at Y, the Armour step; Surge and Evade steps that move nothing), so the dice
resolution and the exact odds read one rule. Casualties: the Engaged priority (§8.7.5).
Recorded dice order: per charged unit in declaration order, its IMPACT dice then its Armour dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

from .. import choices
from ..dice import Dice
from ..errors import IllegalAction
from ..state import GameState
from .attack import BatchSpec, roll_logged
from .casualties import priority_reading, remove
from .catalogue import make_profile
from .odds import AttackOdds, BatchTarget, attack_odds
from .batches import BatchResult, Settings, _setting, casualty_order, default_pick
from .ranks import Ranks, ranks

RULE = "§11 IMPACT"


@dataclass(frozen=True)
class Impact:
    """Declared IMPACT dice: ``split`` model → {charged unit: dice}; ``immune``: HIDDEN units."""

    unit: str
    x: int
    y: int
    ranks: Ranks
    targets: tuple[str, ...]
    split: Mapping[str, Mapping[str, int]]
    immune: tuple[str, ...] = ()

    def dice(self) -> dict[str, int]:
        out = {t: 0 for t in self.targets}
        for parts in self.split.values():
            for t, n in parts.items():
                out[t] += n
        return out

    def models_at(self, target: str) -> list[str]:
        return [m for m, parts in self.split.items() if parts.get(target)]


def impact_of(state: GameState, unit_id: str) -> Optional[tuple[int, int]]:
    u = state.unit(unit_id)
    imp = make_profile(u.profile or u.id, u.stats).impact
    return None if not imp else (int(imp[0]), int(imp[1]))


def immune(state: GameState, unit_id: str) -> bool:
    """HIDDEN units (BURROWED ones are HIDDEN) are immune to IMPACT."""
    return bool({"hidden", "burrowed"} & state.unit(unit_id).status)


def declare(state: GameState, unit_id: str, targets: Optional[Sequence[str]] = None,
            split: Optional[Mapping[str, Mapping[str, int]]] = None) -> Optional[Impact]:
    """The unit's IMPACT dice against the charged ``targets`` (default: every unit it is now
    Engaged with); ``None`` when the unit has no IMPACT. Each choice is checked."""
    xy = impact_of(state, unit_id)
    if xy is None:
        return None
    x, y = xy
    rk = ranks(state, unit_id)
    order = list(targets) if targets else list(rk.engaged_with)
    for t in order:
        if t not in rk.engaged_with:
            raise IllegalAction(RULE, f"{unit_id} is not Engaged with {t}: IMPACT dice go only to charged units in its ranks")
    immunes = tuple(t for t in order if immune(state, t))
    live = [t for t in order if t not in immunes]
    given = {m: dict(v) for m, v in (split or {}).items()}
    out: dict[str, dict[str, int]] = {}
    for m, parts in given.items():
        may = [t for t in rk.may_attack(m) if t in live]
        if m not in rk.strikers:
            raise IllegalAction(RULE, f"{m} is in neither the Fighting nor the Supporting Rank: it makes no IMPACT dice")
        bad = [t for t in parts if t not in may]
        if bad:
            raise IllegalAction(RULE, f"{m}'s IMPACT dice may go only to {', '.join(may) or 'no unit'} (not {', '.join(bad)}; HIDDEN units are immune)")
        if sum(parts.values()) != x or any(n < 0 for n in parts.values()):
            raise IllegalAction(RULE, f"{m} makes {x} IMPACT dice: the split must give out exactly {x}, not {sum(parts.values())}")
        out[m] = {t: n for t, n in parts.items() if n}
    for m in rk.strikers:
        if m in out:
            continue
        may = [t for t in live if t in rk.may_attack(m)]
        if may:
            first = choices.default(state.settings, f"impact.{m}", may[0], split_options(x, may), RULE,
                                    f"how {m}'s {x} IMPACT dice are split between the charged units", "split")
            out[m] = {first: x}
    return Impact(unit_id, x, y, rk, tuple(live), out, immunes)


def split_options(n: int, units: Sequence[str]) -> list[str]:
    """The legal splits of ``n`` dice (or PRECISION) between ``units``, in words: all to one of
    them, or (two or more to share, several units) any split; one unit: no choice.

    >>> split_options(2, ["a", "b"])
    ['a=2', 'b=2', 'any split of 2 between a, b']
    >>> split_options(1, ["a", "b"]), split_options(3, ["a"])
    (['a=1', 'b=1'], ['a=3'])
    """
    whole = [f"{t}={n}" for t in units]
    return whole + [f"any split of {n} between {', '.join(units)}"] if n > 1 and len(units) > 1 else whole


def spec(state: GameState, imp: Impact, target: str) -> BatchSpec:
    """IMPACT dice at one unit as a pool: roll at Y+, straight to Armour; no Surge, Damage 1."""
    t = state.unit(target)
    prof = make_profile(t.profile or t.id, t.stats)
    n = imp.dice()[target]
    return BatchSpec(groups=((n, imp.y, "impact"),) if n else (), armour=prof.armour, damage=1)


def odds(state: GameState, imp: Impact, settings: Settings = None) -> dict[str, AttackOdds]:
    """Exact distributions of the IMPACT dice per charged unit."""
    out: dict[str, AttackOdds] = {}
    for t in imp.targets:
        tu = state.unit(t)
        prof = make_profile(tu.profile or tu.id, tu.stats)
        order = casualty_order(state, t, tu.models, True, imp.models_at(t), settings)
        out[t] = attack_odds([(spec(state, imp, t), BatchTarget(order, int(prof.hp or 1), int(prof.shield or 0)))],
                             marker=tu.damage, removed_before=len(tu.removed))
    return out


def resolve(state: GameState, imp: Impact, dice: Dice, choices: Optional[Mapping[str, Sequence[str]]] = None,
            settings: Settings = None) -> tuple[GameState, list[dict[str, Any]], list[BatchResult]]:
    """Roll the IMPACT dice and remove casualties, charged unit by charged unit."""
    choices = dict(choices or {})
    for t in choices:
        if t not in imp.targets:
            raise IllegalAction(RULE, f"casualties are chosen for {t}, which takes no IMPACT dice")
    events: list[dict[str, Any]] = [{"type": "impact", "unit": imp.unit, "x": imp.x, "y": imp.y, "dice": imp.dice(),
                                     "split": {m: dict(v) for m, v in imp.split.items()}, "immune": list(imp.immune)}]
    st = state
    results: list[BatchResult] = []
    strict = bool(_setting(settings, "strict_choices", False))
    for t in imp.targets:
        sp = spec(state, imp, t)
        pools, _, rolled = roll_logged(sp.steps(), dice, target=t)
        events += rolled
        firing = imp.models_at(t)
        rm = remove(st, t, pools.damage, st.unit(t).models, True, choices.get(t),
                    lambda s_, opts: default_pick(s_, opts, firing, settings), strict)
        st = rm.state
        results.append(BatchResult("impact", t, imp.models_at(t), sp.dice, pools.hits, None, 0, pools.hits - pools.damage,
                                   None, pools.damage, pools.damage, rm.total, rm.alloc.kills, list(rm.taken),
                                   rm.alloc.marker, rm.alloc.discarded))
        events.append({"type": "casualties", "unit": t, "models": list(rm.taken), "damage": pools.damage,
                       "total_damage": rm.total, "marker": rm.alloc.marker, "discarded": rm.alloc.discarded,
                       "shielded": rm.shielded, "priority_range": priority_reading(state)})
    return st, events, results


def strike(state: GameState, unit_id: str, dice: Dice, charged: Sequence[str], targets: Optional[Sequence[str]] = None,
           split: Optional[Mapping[str, Mapping[str, int]]] = None, choices: Optional[Mapping[str, Sequence[str]]] = None,
           settings: Settings = None) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    """The ``impact`` action: IMPACT dice at ``targets`` (default: every unit ``charged``, the
    targets of the unit's successful charge just made), rolled, casualties removed. Returns the
    new state, the events and the summary (dice, each target's result)."""
    if not charged:
        raise IllegalAction(RULE, f"IMPACT resolves right after a successful Charge, and {unit_id} has just made none")
    targets = list(targets or charged)
    bad = [t for t in targets if t not in charged]
    if bad:
        raise IllegalAction(RULE, f"{unit_id} did not charge {', '.join(bad)} (charged: {', '.join(charged)})")
    imp = declare(state, unit_id, targets, split)
    if imp is None:
        raise IllegalAction(RULE, f"{unit_id} has no IMPACT")
    new, events, results = resolve(state, imp, dice, choices, settings)
    return new, events, {"unit": unit_id, "dice": imp.dice(), "parts": [r.as_dict() for r in results]}
