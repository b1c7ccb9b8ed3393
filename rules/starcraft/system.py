"""StarCraft: Tabletop Miniatures Game as a :class:`~tapeline.rules.systems.RuleSystem`: the one
place that says which StarCraft module answers which question (each method is a few lines; the
rules live in the modules it names)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

import numpy as np
from numpy.typing import NDArray

from tapeline.board.coherency import Coherency
from tapeline.board.errors import TapelineError
from tapeline.board.regions import Region
from tapeline.board.sight import Sight
from tapeline.board.table import Figure
from tapeline.board.terrain import Piece

from ..charge_geometry import MoveRules
from ..dice import Dice
from ..engagement import Engagement
from ..state import GameState
from ..systems import COMMON_SETTINGS, Events, FightChoices, Probe, RuleSystem, UnitEntry, UnitInfo, UnitProblem, XY
from . import (activation, casualties, charge, close_ranks, elevation, engagement, impact, melee, movement, shooting,
               template_attack, terrain, visibility)
from .batches import Modifiers, Settings
from .catalogue import KEYWORDS, catalogue, key, make_profile, unit_weapon
from .charge import ChargeReach
from .melee import CloseCombat
from .ranks import Ranks, ranks
from .targeting import engaged_with
from .template_attack import TemplatePlan


class StarCraft(RuleSystem):
    """StarCraft TMG: Phase 2 Assault and Phase 3 Combat."""

    name = "starcraft"
    close_combat_splits = True
    title = "StarCraft: Tabletop Miniatures Game"
    engagement_range = movement.ENGAGEMENT_RANGE
    statuses = frozenset({"burrowed", "hidden", "stationary", "siege_mode", "stimpack", "guardian_shield", "concussed"})
    tags = frozenset({"armoured", "biological", "light", "mechanical", "psionic", "flying", "ground"})
    settings = COMMON_SETTINGS | {"casualty_default", "guardian_shield_die", "coherency_link_max", "coherency_link_terrain",
                                  "casualty_priority_range", "template_casualties"}
    weapon_traits = {"weapons": KEYWORDS}
    one_per_model = {"weapons": (melee.RULE, "one Combat-phase weapon per model (step 3)"),
                     "assign": (melee.MULTI, "a model attacks one enemy unit")}
    charge_sets_rest = True
    terrain_shading = "size"  # Blocking Terrain and Full Cover are decided by Size (§7.1)
    event_rules = {"charge": charge.RULE, "batch": shooting.BATCHES, "close_combat": melee.RULE, "impact": impact.RULE,
                   "close_ranks": close_ranks.RULE, "run": movement.RUN}

    # --- units and terrain ------------------------------------------------------------------

    def impassable(self, piece: Piece) -> bool:
        return terrain.impassable(piece)

    def unit_info(self, entry: UnitEntry) -> UnitInfo:
        """The catalogue entry the unit names (``profile``), overridden by the file's own values."""
        card: dict[str, Any] = {}
        prof = None
        if entry.profile is not None:
            prof = key(entry.profile)
            if prof not in catalogue():
                raise UnitProblem("profile", f"no StarCraft TMG catalogue entry {entry.profile!r}")
            card = dict(catalogue()[prof])
        stats = {k: v for k, v in card.items() if k not in ("base", "tags", "size")}
        stats.update(entry.stats)
        return UnitInfo(
            profile=prof,
            size=entry.size if entry.size is not None else int(card.get("size") or 0),
            tags=[t.lower() for t in (entry.tags if entry.tags is not None else card.get("tags") or [])],
            base=entry.base if entry.base is not None else card.get("base"),
            stats=stats,
        )

    def catalogue_listing(self) -> list[dict[str, Any]]:
        """The unit cards (§5.1): stat lines, base sizes (§1.12), Combat Tags and weapons."""
        out = []
        for k, card in catalogue().items():
            stats = {f: card.get(f) for f in ("speed", "armour", "evade", "hp", "shield", "size", "impact", "supply", "abilities")
                     if f in card}
            weapons = [{"key": wk, **dict(w)} for wk, w in (card.get("weapons") or {}).items()]
            out.append({"key": k, "name": card.get("name", k), "stats": stats, "base": card.get("base"),
                        "tags": list(card.get("tags") or []), "subtypes": [], "wargear": [], "weapons": weapons})
        return out

    def weapon_problem(self, state: GameState, unit: str, weapon: str) -> Optional[str]:
        """A weapon of the unit's profile (§5.1)."""
        try:
            unit_weapon(state, unit, weapon)
        except TapelineError as e:
            return getattr(e, "message", None) or str(e)
        return None

    def melee_weapon_problem(self, state: GameState, model: str, weapon: str) -> Optional[str]:
        """A Combat-phase weapon of the model's profile (§5.1, §8.8.1 step 3)."""
        return melee.weapon_problem(state, model, weapon)

    # --- the board --------------------------------------------------------------------------

    def engaged(self, state: GameState, a: str, b: str) -> Engagement:
        return engagement.engaged(state, a, b)

    def visible(self, state: GameState, a: str, b: str) -> Sight:
        return visibility.visible(state, a, b)

    def sight_pairs(self, state: GameState, figs_a: Sequence[Figure], figs_b: Sequence[Figure],
                    ia: NDArray[np.intp], ib: NDArray[np.intp]) -> NDArray[np.bool_]:
        return visibility.sight_pairs(state, figs_a, figs_b, ia, ib)

    #: a 32 mm Size 2 ground model (a Marine: Speed 4 in a unit of several, §5.1)
    probe_defaults = Probe(32.0, 2, 1.25, 4)
    probe_may_fly = True

    def probe_unit(self, probe: Probe) -> UnitEntry:
        return UnitEntry("probe", None, probe.size, probe.base, ["flying" if probe.flying else "ground"], {"speed": probe.speed})

    def charge_distances(self, probe: Probe) -> tuple[float, ...]:
        """Speed + D6 (§8.7.7: the Charge Roll Distance): Speed + 1 … Speed + 6."""
        return tuple(float(probe.speed + k) for k in range(1, 7))

    def level(self, state: GameState, fig: Figure) -> dict[str, Any]:
        """The elevation level and Effective Size (§7.1.2, §8.5.3)."""
        return {"level": elevation.level(state.table, fig).label, "effective_size": elevation.effective_size(state, fig)}

    def move_rules(self, state: GameState, fig: Figure, may_engage: bool = False) -> MoveRules:
        return movement.move_rules(state, fig.unit, fig, keep_away_from=[] if may_engage else None)

    def path_notes(self, state: GameState, points: Sequence[XY]) -> dict[str, Any]:
        return {"grass_crossed": movement.grass_crossed(state, points)}

    def coherency(self, state: GameState, unit: str, leader: Optional[str] = None) -> Coherency:
        return movement.coherency(state, unit, leader)

    # --- charges ----------------------------------------------------------------------------

    def charge_reach(self, state: GameState, unit: str, targets: Sequence[str], leader: Optional[str] = None,
                     modifier: int = 0) -> tuple[ChargeReach, dict[str, Any]]:
        rc = charge.reach(state, unit, list(targets), leader, modifier)
        return rc, charge.reach_answer(rc)

    def charge_outcome(self, state: GameState, unit: str, targets: Sequence[str], rolls: Sequence[int],
                       leader: Optional[str] = None, modifier: int = 0,
                       target_models: Optional[Mapping[str, str]] = None,
                       spots: Optional[Mapping[str, XY]] = None) -> tuple[GameState, dict[str, Any]]:
        new, res = charge.resolve(state, unit, list(targets), list(rolls), leader, modifier,
                                  dict(target_models) if target_models else None, spots)
        return new, charge.outcome_answer(res)

    def charge(self, state: GameState, unit: str, targets: Sequence[str], dice: Dice, leader: Optional[str] = None,
               modifier: int = 0, target_models: Optional[Mapping[str, str]] = None,
               options: Optional[Mapping[str, Any]] = None) -> tuple[GameState, dict[str, Any], Events]:
        """Speed + the charge dice (rolled here), then :meth:`charge_outcome`; ``options["set"]``
        (the action's ``set:``): spots for the rest of the unit (§8.7.7 step 4)."""
        opts = dict(options or {})
        spots = opts.pop("set", None)
        self.no_reactions(opts)
        rc = charge.reach(state, unit, list(targets), leader, modifier)
        n = rc.odds.dice.dice
        dice.take_events()
        rolls = dice.roll(n, f"charge roll ({unit}, {rc.odds.dice.name})") if n else []
        events = dice.take_events()
        new, res = self.charge_outcome(state, unit, targets, rolls, leader, modifier, target_models, spots)
        return new, res, events

    def charge_goal_regions(self, state: GameState, unit: str, targets: Sequence[str], lead: Figure) -> list[Region]:
        return [reg for _, reg in charge.goal_regions(state, unit, targets, lead)]

    # --- shooting ---------------------------------------------------------------------------

    def attack_odds(self, state: GameState, orders: Sequence[tuple[str, str]], target: str,
                    modifiers: Mapping[str, Any]) -> dict[str, Any]:
        return shooting.attack_answer(state, orders, target, Modifiers(**modifiers))

    def template_attack(self, state: GameState, unit: str, weapon: str, target: Optional[str],
                        firer: Optional[str], at: Optional[XY], on: Optional[str]) -> dict[str, Any]:
        return template_attack.answer(state, unit, weapon, target, firer, at, on)

    def template_plan(self, state: GameState, unit: str, weapon: str, target: Optional[str], firer: Optional[str],
                      at: Optional[XY], on: Optional[str], settings: Settings = None) -> TemplatePlan:
        return template_attack.plan(state, unit, weapon, target, firer, at, on, settings=settings)

    def shoot(self, state: GameState, unit: str, batches: Sequence[Mapping[str, Any]], dice: Dice,
              settings: Settings) -> tuple[GameState, Events, list[dict[str, Any]]]:
        return shooting.shoot(state, unit, batches, dice, settings)

    # --- moves ------------------------------------------------------------------------------

    def run(self, state: GameState, unit: str, leader: str, path: Sequence[XY],
            spots: Mapping[str, XY]) -> tuple[GameState, Events, dict[str, Any]]:
        return movement.run(state, unit, leader, path, spots)

    def close_ranks(self, state: GameState, unit: str, leader: Optional[str], path: Optional[Sequence[XY]],
                    spots: Mapping[str, XY]) -> tuple[GameState, Events, dict[str, Any]]:
        return close_ranks.resolve(state, unit, leader, path, spots)

    # --- fights -----------------------------------------------------------------------------

    def fight_odds(self, state: GameState, unit: str, choices: FightChoices = FightChoices()) -> dict[str, Any]:
        """The unit's Close Combat Attack as the board stands (§8.8.1), IMPACT with ``charged``."""
        return melee.fight_answer(state, unit, choices.targets, choices.one_unit_each(), choices.weapons, choices.surge_to,
                                  choices.charged, choices.precision_split, choices.impact_split,
                                  Modifiers(precision=choices.precision, damage_reduction=choices.damage_reduction))

    def close_combat(self, state: GameState, unit: str, dice: Dice, targets: Optional[Sequence[str]],
                     assign: Mapping[str, str], weapons: Mapping[str, str], surge_to: Optional[str | Sequence[str]],
                     precision: Mapping[str, int], modifiers: Mapping[str, Any], casualties: Mapping[str, Sequence[str]],
                     settings: Settings) -> tuple[GameState, Events, dict[str, Any]]:
        return melee.close_combat(state, unit, dice, targets, assign, weapons, surge_to, precision, Modifiers(**modifiers),
                                  casualties, settings)

    def impact(self, state: GameState, unit: str, dice: Dice, charged: Sequence[str], targets: Optional[Sequence[str]],
               split: Mapping[str, Mapping[str, int]], casualties: Mapping[str, Sequence[str]],
               settings: Settings) -> tuple[GameState, Events, dict[str, Any]]:
        return impact.strike(state, unit, dice, charged, targets, split, casualties, settings)

    def declare_close_combat(self, state: GameState, unit: str, assign: Optional[Mapping[str, str]] = None) -> CloseCombat:
        return melee.declare(state, unit, assign=assign)

    def shielded(self, state: GameState, unit: str) -> bool:
        u = state.unit(unit)
        return casualties.shielded(state, unit, int(make_profile(u.profile or u.id, u.stats).shield or 0))

    def ranks(self, state: GameState, unit: str) -> Ranks:
        return ranks(state, unit)

    def engaged_units(self, state: GameState, unit: str) -> set[str]:
        return engaged_with(state, unit)

    # --- the round --------------------------------------------------------------------------

    def start_phase(self, state: GameState, phase: str, first_player: Optional[str], starts: Optional[str],
                    reserves: Sequence[str]) -> tuple[GameState, Events]:
        return activation.start(state, phase, first_player, starts, reserves)

    def pass_turn(self, state: GameState, side: str) -> tuple[GameState, Events]:
        return activation.pass_turn(state, side)

    def hold(self, state: GameState, unit: str) -> tuple[GameState, Events]:
        return state, [{"type": "hold", "unit": unit}]

    def before_activation(self, state: GameState, unit: str, kind: str) -> GameState:
        return activation.before(state, unit, kind)

    def after_activation(self, state: GameState, unit: str, kind: str, success: bool) -> tuple[GameState, Events]:
        return activation.after(state, unit, kind, success)

