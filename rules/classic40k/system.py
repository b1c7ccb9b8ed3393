"""Warhammer 40,000 3rd edition as a :class:`~tapeline.rules.systems.RuleSystem`: the one place
that says which 40k module answers which question (each method is a few lines; the rules live
in the modules it names)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Optional

from ..charge_answer import contact_outcome
from ..contact_charge import ContactCharge
from ..contact_system import ChargeRules, ContactSystem
from ..dice import Dice
from ..engagement import Engagement
from ..state import GameState
from ..truelos import DEFAULT_HEIGHTS
from ..systems import COMMON_SETTINGS, Events, FightChoices, Probe, UnitEntry, UnitInfo, XY
from . import aftermath, catalogue, assault, charge, engagement, melee, odds, resolution, rounds, weapons
from .melee import Choices


class Classic40k(ContactSystem):
    """Warhammer 40,000 3rd edition: the Assault phase."""

    name = "classic40k"
    title = "Warhammer 40,000 3rd edition"
    #: Models within 2" of an enemy model fight (seed "Who Can Fight").
    engagement_range = engagement.FIGHT_DISTANCE
    statuses = frozenset({"falling_back", "pinned", "gone_to_ground", "fired_heavy", "deep_struck", "charged", "in_cover",
                          "sweeping_advance"})
    one_turn_statuses = frozenset({"charged", "fired_heavy", "deep_struck"})
    charge_rules: ClassVar[ChargeRules] = charge
    attack_splits = True
    #: the table analysis's probe: a Space Marine, 25 mm, infantry height (rules/truelos.py)
    probe_defaults = Probe(25.0, 0, DEFAULT_HEIGHTS["infantry"])
    charge_distance = assault.ASSAULT_MOVE
    settings = COMMON_SETTINGS | {"los_area_terrain", "home_edges", "c40k_frag_grenades", "c40k_fist_extra_attack",
                                  "c40k_morale_modifier", "c40k_sweeping_advance", "c40k_fresh_opponent"}
    #: 40k 3rd close combat weapons have no traits: a profile says what it does by its fields
    weapon_traits: ClassVar[Mapping[str, frozenset[str]]] = {"melee_weapons": frozenset()}
    event_rules = {"assault": assault.RULE, "charge": assault.RULE, "strike": melee.RULE, "casualties": melee.RULE_CAS,
                   "assault_result": resolution.RULE, "morale": aftermath.RULE_MORALE, "fall_back": aftermath.RULE_MORALE,
                   "advance": aftermath.RULE_ADVANCE, "consolidate": aftermath.RULE_CONSOLIDATE}
    one_per_model = {"weapons": (melee.RULE, "a model fights with one weapon"),
                     "assign": (melee.RULE_ALLOC, "a model attacks one enemy unit (or splits its attacks: MODEL=UNIT:N,UNIT:N)")}

    def unit_info(self, entry: UnitEntry) -> UnitInfo:
        """The catalogue entries the unit and its models name (``profile``), overridden by the
        file's own values (rules/stat_catalogue.py)."""
        return catalogue.unit_info(entry)

    def catalogue_listing(self) -> list[dict[str, Any]]:
        return catalogue.listing()

    def known_weapon(self, name: str, defined: set[str]) -> bool:
        return weapons.known(name, defined)

    def melee_weapon_problem(self, state: GameState, model: str, weapon: str) -> Optional[str]:
        """A close combat weapon of the model's wargear (seed "Special Close Combat Attacks")."""
        return melee.weapon_problem(state, state.unit_of(model).id, model, weapon)

    def engaged(self, state: GameState, a: str, b: str) -> Engagement:
        return engagement.engaged(state, a, b)

    # --- charges ----------------------------------------------------------------------------

    def charge(self, state: GameState, unit: str, targets: Sequence[str], dice: Dice, leader: Optional[str] = None,
               modifier: int = 0, target_models: Optional[Mapping[str, str]] = None,
               options: Optional[Mapping[str, Any]] = None) -> tuple[GameState, dict[str, Any], Events]:
        """The whole assault move with the file's dice (§B.1)."""
        self.no_reactions(options)
        new, res, events = charge.charge(state, unit, list(targets), dice, leader, modifier)
        return new, contact_outcome(res), events

    def option_problems(self, method: str, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Horus Heresy's options of a fight (``active``, ``pile_in: false``) and of a pile-in
        (``models``, ``moves``: a 40k drawn-combat move moves every model not in base
        contact), and of a charge (:class:`RuleSystem`'s)."""
        out: list[tuple[str, str]] = []
        if method == "fight":
            if options.get("active") is not None:
                out.append(("active", "the active side is a Horus Heresy option of a fight"))
            if options.get("pile_in") is False:
                out.append(("pile_in", "pile-in moves within a fight are Horus Heresy's (a 40k fight makes none)"))
        elif method == "pile_in":
            why = "a Horus Heresy option: a 40k drawn-combat move moves every model not in base contact"
            if options.get("models") is not None:
                out.append(("models", why))
            if options.get("moves"):
                out.append(("moves", why))
        return out + super().option_problems(method, options)

    # --- moves ------------------------------------------------------------------------------

    def assault(self, state: GameState, unit: str, targets: Sequence[str], dice: Dice,
                moves: Mapping[str, Sequence[XY]]) -> tuple[GameState, Events, dict[str, Any]]:
        return assault.assault(state, unit, targets, dice, moves)

    def pile_in(self, state: GameState, unit: str, models: Optional[Sequence[str]],
                moves: Mapping[str, XY]) -> tuple[GameState, Events]:
        """The moves of a drawn combat (seed "Drawn Combats"): every model not in base contact."""
        self.refuse_options("pile_in", {"models": models, "moves": moves})
        return aftermath.drawn_combat_move(state, unit)

    def advance(self, state: GameState, unit: str, dice: Dice, toward: Optional[XY]) -> tuple[GameState, Events]:
        return aftermath.advance(state, unit, dice, toward)

    def consolidate(self, state: GameState, unit: str, moves: Mapping[str, XY],
                    toward: Optional[XY]) -> tuple[GameState, Events]:
        return aftermath.consolidate(state, unit, moves, toward)

    # --- fights -----------------------------------------------------------------------------

    def round_odds(self, state: GameState, unit: str, choices: FightChoices) -> dict[str, Any]:
        charged = (choices.charged,) if choices.charged else ()
        return odds.fight_answer(state, unit, Choices(choices.weapons, choices.assign, choices.casualties, charged, choices.targets))

    def fight(self, state: GameState, unit: str, dice: Dice, weapons: Mapping[str, str],
              targets: Mapping[str, Any], casualties: Mapping[str, Sequence[str]], active: Optional[str],
              pile_in: bool, charged: Sequence[str], strike_order: Sequence[str] = ()) -> tuple[GameState, Events, dict[str, Any]]:
        """One round of the combat with dice, and its result."""
        self.refuse_options("fight", {"active": active, "pile_in": pile_in, "strike_order": strike_order})
        return rounds.fight_round(state, unit, dice, Choices(weapons, targets, casualties, tuple(charged)))

    def morale(self, state: GameState, unit: str, dice: Dice) -> tuple[GameState, Events]:
        return aftermath.morale(state, unit, dice)

    def combat_result(self, state: GameState, unit: str) -> dict[str, Any] | str:
        return rounds.combat_record(state, unit)
