"""Warhammer: The Horus Heresy 3rd edition as a :class:`~tapeline.rules.systems.RuleSystem`: the
one place that says which Horus Heresy module answers which question (each method is a few
lines; the rules live in the modules it names)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Optional

from ..charge_answer import contact_outcome
from ..contact_charge import ContactCharge
from ..contact_engagement import engaged
from ..contact_system import ChargeRules, ContactSystem
from ..dice import Dice
from ..engagement import Engagement
from ..state import GameState
from ..truelos import DEFAULT_HEIGHTS
from ..systems import COMMON_SETTINGS, Events, FightChoices, Probe, UnitEntry, UnitInfo, XY
from . import aftermath, catalogue, challenge, charge, checks, melee, movement, reactions, resolution, shooting, weapons


class HorusHeresy(ContactSystem):
    """Horus Heresy 3rd edition: the Assault phase."""

    name = "heresy"
    title = "Warhammer: The Horus Heresy 3rd edition"
    engagement_range = 0.0
    statuses = frozenset({"pinned", "suppressed", "stunned", "routed", "disgraced", "rushed", "embarked", "disembarked",
                          "disordered"})
    one_turn_statuses = frozenset({"disgraced", "rushed", "disembarked", "disordered"})
    charge_rules: ClassVar[ChargeRules] = charge
    #: the table analysis's probe: a Legionary, 32 mm, infantry height (rules/truelos.py)
    probe_defaults = Probe(32.0, 0, DEFAULT_HEIGHTS["infantry"])
    charge_distance = charge.MAX_RANGE
    settings = COMMON_SETTINGS | {"casualty_default", "los_area_terrain", "charge_roll_against", "points_limit", "home_edges",
                                  "hh_ws_table", "hh_hold_pile_in"}
    gambits = challenge.GAMBITS
    strike_order_choice = True
    event_rules = {"charge": charge.RULE, "setup_move": charge.RULE, "charge_move": charge.RULE, "volley": shooting.RULE,
                   "strike": melee.RULE, "pile_in": melee.RULE, "challenge": challenge.RULE, "challenge_strike": challenge.RULE,
                   "resolution": resolution.RULE, "check": checks.RULE, "fall_back": aftermath.RULE, "pursue": aftermath.RULE,
                   "consolidate": aftermath.RULE}
    weapon_traits = {"melee_weapons": weapons.MELEE_TRAITS, "ranged_weapons": weapons.RANGED_TRAITS}
    one_per_model = {"weapons": (melee.RULE, "a model fights with one weapon"),
                     "assign": (melee.RULE, "a model attacks one enemy unit")}

    def unit_info(self, entry: UnitEntry) -> UnitInfo:
        """The catalogue entries the unit and its models name (``profile``), overridden by the
        file's own values (rules/stat_catalogue.py)."""
        return catalogue.unit_info(entry)

    def catalogue_listing(self) -> list[dict[str, Any]]:
        return catalogue.listing()

    def known_weapon(self, name: str, defined: set[str]) -> bool:
        return weapons.known(name, defined)

    def melee_weapon_problem(self, state: GameState, model: str, weapon: str) -> Optional[str]:
        """A melee weapon the model carries (§A.7)."""
        return weapons.melee_problem(state.unit_of(model), model, weapon)

    def charge_problems(self, state: GameState, unit: str, targets: Sequence[str],
                        options: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The Shield reaction (§A.4) of a target that is not Legiones Astartes or has no model
        with the Shield trait (models are only ever removed, so the majority may still come;
        it is counted when declared), or together with another Reaction of the same unit."""
        return reactions.shield_static_problems(state, targets, options)

    def strike_group_problem(self, state: GameState, group: str) -> Optional[str]:
        """A Strike Group of a unit of the file (§A.7: its unit and weapon profile)."""
        names = melee.group_names(state)
        if group in names:
            return None
        return f"{group!r} is not a Strike Group of any unit (a unit and a melee weapon it carries: {', '.join(names)})"

    def engaged(self, state: GameState, a: str, b: str) -> Engagement:
        return engaged(state, a, b)

    # --- charges ----------------------------------------------------------------------------

    def charge(self, state: GameState, unit: str, targets: Sequence[str], dice: Dice, leader: Optional[str] = None,
               modifier: int = 0, target_models: Optional[Mapping[str, str]] = None,
               options: Optional[Mapping[str, Any]] = None) -> tuple[GameState, dict[str, Any], Events]:
        """The whole charge (§A.3): the Set-up Move, Volleys or Overwatch, the roll, the charge
        move or the Cool Check after a failure, rolling as it goes."""
        new, res, events = charge.charge(state, unit, list(targets), dice, leader, modifier, dict(options or {}))
        return new, contact_outcome(res), events

    # --- moves and fights -------------------------------------------------------------------

    def pile_in(self, state: GameState, unit: str, models: Optional[Sequence[str]],
                moves: Mapping[str, XY]) -> tuple[GameState, Events]:
        return movement.pile_in_action(state, unit, models, moves)

    def round_odds(self, state: GameState, unit: str, choices: FightChoices) -> dict[str, Any]:
        return melee.odds(state, unit, choices.targets, choices.one_unit_each(), choices.charged, choices.weapons,
                          choices.casualties, choices.strike_order)

    def fight(self, state: GameState, unit: str, dice: Dice, weapons: Mapping[str, str],
              targets: Mapping[str, Any], casualties: Mapping[str, Sequence[str]], active: Optional[str],
              pile_in: bool, charged: Sequence[str], strike_order: Sequence[str] = ()) -> tuple[GameState, Events, dict[str, Any]]:
        """One round of the combat with dice (§A.7): Initiative steps, pile-ins, casualties, the
        Strike Groups of each step in the Active Player's ``strike_order``."""
        self.refuse_options("fight", {"charged": charged, "targets": targets})
        return melee.fight_round(state, unit, dice, weapons, targets, casualties, active, pile_in, strike_order)

    def option_problems(self, method: str, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        """A fight's 40k options: ``charged`` (Horus Heresy knows who charged from the charge)
        and a model's attacks split between units (``targets``: one unit each, §A.7). A
        charge has every option (Volleys and Reactions are Horus Heresy's)."""
        if method != "fight":
            return []
        out = [("charged", "Horus Heresy knows who charged from the charge itself")] if options.get("charged") else []
        return out + [(f"targets.{m}", "a Horus Heresy model attacks one unit") for m, t in (options.get("targets") or {}).items()
                      if not isinstance(t, str)]

    def challenge(self, state: GameState, challenger: str, acceptor: Optional[str], dice: Dice,
                  options: Mapping[str, Any]) -> tuple[GameState, Events, dict[str, Any]]:
        return challenge.challenge(state, challenger, acceptor, dice, dict(options))

    def resolution(self, state: GameState, unit: str, dice: Dice, bonus: Mapping[str, int],
                   panic_unit: Optional[str]) -> tuple[GameState, Events, dict[str, Any]]:
        return resolution.resolution(state, unit, dice, bonus, panic_unit)

    def aftermath(self, state: GameState, unit: str, dice: Dice, choices: Mapping[str, str],
                  gun_down: Mapping[str, str], moves: Mapping[str, Mapping[str, XY]]) -> tuple[GameState, Events, dict[str, str]]:
        return aftermath.after_resolution(state, unit, dice, choices, gun_down, moves)

    def combat_result(self, state: GameState, unit: str) -> dict[str, Any] | str:
        return resolution.combat_record(state, unit)
