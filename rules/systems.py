"""The rule systems: one interface, :class:`RuleSystem`, and one registry, :func:`rules_for`.

Everything a game system decides — who engages whom, who sees whom, how far a charge reaches
and what it does, how a move is checked, how a fight goes and what its odds are, what a unit's
profile holds — is a method of its :class:`RuleSystem`. The file format, the replay and the
clients (the command line, the Python ``Game``, a session, the web table) ask the system of the
state they hold, ``rules_for(state.system)``, and never choose a system themselves: this module
is the one place a name becomes a system.

Each system's package has a module ``system.py`` with its subclass; the other modules of the
three packages use the same names for the same concepts (``engagement``, ``charge``,
``movement``, ``shooting``, ``melee``, ``odds``, ``resolution``, ``aftermath``, ``weapons``,
``charts``, ``catalogue``), so a reader who knows one package knows where to look in the others.

A method whose rule a system does not have raises :class:`~tapeline.rules.errors.NotInThisSystem`
(an :class:`~tapeline.rules.errors.IllegalAction`) naming it (a Horus Heresy file cannot ``shoot`` a StarCraft Ranged Attack).

>>> rules_for("heresy").title
'Warhammer: The Horus Heresy 3rd edition'
>>> rules_for("chess")
Traceback (most recent call last):
...
KeyError: 'chess'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, Optional, Union

import numpy as np
from numpy.typing import NDArray

from tapeline.board.terrain import Piece

from .errors import IllegalAction, NotInThisSystem

from .state import frozen_map

if TYPE_CHECKING:
    from tapeline.board.coherency import Coherency
    from tapeline.board.regions import Region
    from tapeline.board.sight import Sight
    from tapeline.board.table import Figure

    from .charge_geometry import MoveRules
    from .dice import Dice
    from .engagement import Engagement
    from .state import GameState

#: Each system's name (the scenario file's ``system:``) and where its :class:`RuleSystem` is.
REGISTRY: Mapping[str, str] = {
    "starcraft": "tapeline.rules.starcraft.system:StarCraft",
    "heresy": "tapeline.rules.heresy.system:HorusHeresy",
    "classic40k": "tapeline.rules.classic40k.system:Classic40k",
}
SYSTEMS = tuple(REGISTRY)

Events = list[dict[str, Any]]
XY = tuple[float, float]


@cache
def rules_for(name: str) -> "RuleSystem":
    """The rule system called ``name`` (``KeyError`` for a name the registry lacks). Its
    package is imported on first use: a StarCraft file loads none of the other systems."""
    module, cls = REGISTRY[name].split(":")
    system: RuleSystem = getattr(importlib.import_module(module), cls)()
    return system


@dataclass(frozen=True)
class UnitEntry:
    """A unit as a file gives it, before the system reads it: the catalogue ``profile`` it
    names (if any) and the values the file gives itself (``stats`` as plain data)."""

    id: str
    profile: Optional[str] = None
    size: Optional[int] = None
    base: Any = None
    tags: Optional[Sequence[str]] = None
    stats: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class UnitInfo:
    """What a system makes of a :class:`UnitEntry`: the catalogue key, Size, Combat Tags or
    keywords, the default base (mm), the stat line (a mapping each system reads its own way)
    and the models' default height."""

    profile: Optional[str]
    size: int
    tags: list[str]
    base: Any
    stats: dict[str, Any]
    height: Optional[float] = None


class UnitProblem(Exception):
    """A unit entry the system cannot read: ``field`` names the place inside the entry (a key,
    or a path of keys such as ``("stats", "models", "s1", "profile")``)."""

    def __init__(self, field: Union[str, tuple[Any, ...]], message: str):
        super().__init__(field, message)
        self.field, self.message = field, message


@dataclass(frozen=True)
class FightChoices:
    """The choices a ``fight`` question may carry (each system reads those it has):
    ``targets`` the enemy units to fight, ``assign`` the unit a model attacks (40k 3rd: or
    ``{unit: attacks}``, its attacks split), ``weapons`` a
    model's weapon, ``surge_to`` the unit the Surge Die goes to (StarCraft), ``charged`` the
    unit that charged this turn, ``strike_order`` the Active Player's order of Strike Groups
    within an Initiative step, by name (Horus Heresy §A.7); ``casualties`` {unit: the
    defender's casualty order} (Horus Heresy, 40k 3rd, as the ``fight`` action's); StarCraft:
    ``precision_split`` {target: n} and ``impact_split`` {model: {unit: dice}} (as the
    ``close_combat`` and ``impact`` actions'), ``precision`` extra PRECISION and
    ``damage_reduction`` (§8.7.4 step 5) as the ``attack`` question's."""

    targets: tuple[str, ...] = ()
    assign: Mapping[str, Union[str, Mapping[str, int]]] = field(default_factory=dict)
    weapons: Mapping[str, str] = field(default_factory=dict)
    surge_to: tuple[str, ...] = ()
    charged: Optional[str] = None
    strike_order: tuple[str, ...] = ()
    casualties: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    precision_split: Mapping[str, int] = field(default_factory=dict)
    impact_split: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    precision: int = 0
    damage_reduction: int = 0

    def one_unit_each(self) -> dict[str, str]:
        """``assign`` where each model attacks one unit (the systems with no split of a model's
        attacks: :meth:`RuleSystem.option_problems` refused a split before)."""
        return {m: t for m, t in self.assign.items() if isinstance(t, str)}


@dataclass(frozen=True)
class Probe:
    """The model a table analysis stands on every position (docs/analysis.md): a round base of
    ``base`` mm; StarCraft's Size class ``size`` and Speed ``speed`` (its charge distances are
    Speed + 1 … 6); the model's ``height`` in inches (true line of sight: Horus Heresy, 40k);
    ``flying``: a Flying model (StarCraft, §7.1.4; on no elevation level). Each system reads the
    fields it has; :meth:`RuleSystem.probe_defaults` gives its own."""

    base: float
    size: int
    height: float
    speed: int = 0
    flying: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"base": self.base, "size": self.size, "height": self.height, "speed": self.speed, "flying": self.flying}


#: The file's settings every system reads (docs/scenario-format.md): strict choices, how a move
#: keeps from the table edge and which point of a base it measures, template shapes.
COMMON_SETTINGS = frozenset({"strict_choices", "edge_clearance", "path_reference", "templates"})

#: The ``fight`` question's StarCraft arguments (:attr:`RuleSystem.close_combat_splits`).
CLOSE_COMBAT_SPLITS = ("precision_split", "impact_split", "precision", "damage_reduction")

#: A charge's options for Horus Heresy's Volleys and Reactions (§A.3 step 4, §A.4).
REACTION_OPTIONS = frozenset({"volley", "target_volley", "overwatch", "evade", "shield", "weapons", "casualties"})

#: What an action of one system says in the others: its rule and message.
ELSEWHERE: Mapping[str, tuple[str, str]] = {
    "run": ("§8.5.2 Move / §8.7.1 Run", "the run action follows StarCraft TMG movement rules"),
    "shoot": ("shoot", "shoot resolves StarCraft TMG Ranged Attacks (system starcraft)"),
    "close_combat": ("close_combat", "close_combat is a StarCraft TMG action (system starcraft)"),
    "impact": ("impact", "impact is a StarCraft TMG action (system starcraft)"),
    "close_ranks": ("§8.8.1 Close Ranks", "close_ranks is a StarCraft TMG action (system starcraft)"),
    "phase": ("phase", "phase follows the StarCraft TMG round (system starcraft)"),
    "pass": ("pass", "pass follows the StarCraft TMG round (system starcraft)"),
    "hold": ("hold", "hold follows the StarCraft TMG round (system starcraft)"),
    "attack": ("attack", "tapeline attack resolves StarCraft TMG attacks (system starcraft)"),
    "template": ("§8.7.6 templates", "template weapons are StarCraft TMG's (system starcraft)"),
    "ranks": ("§8.8.1 Fighting Rank", "the Fighting and Supporting Ranks are StarCraft TMG's (system starcraft)"),
    "unit_engaged": ("§7.2 Engagement", "Engaged units (unit_engaged) are StarCraft TMG's (system starcraft)"),
    "locked": ("locked in combat", "locked in combat is a Horus Heresy and 40k 3rd state (systems heresy, classic40k)"),
    "shielded": ("§11 SHIELDED", "Shields are StarCraft TMG's (system starcraft)"),
    "fight_dice": ("§8.8.1 Close Combat Attack", "fight_dice asks a StarCraft TMG Close Combat Attack (system starcraft)"),
}


#: The methods of :class:`RuleSystem` a system may lack (their base version refuses with
#: :class:`NotInThisSystem`), each with the name its refusal gives (:meth:`RuleSystem.unavailable`).
OPTIONAL: Mapping[str, str] = {
    "attack_odds": "attack", "template_attack": "template", "template_plan": "template", "shoot": "shoot", "run": "run",
    "pile_in": "pile_in", "close_ranks": "close_ranks", "assault": "assault", "advance": "advance",
    "consolidate": "consolidate", "fight": "fight", "close_combat": "close_combat", "impact": "impact",
    "shielded": "shielded", "declare_close_combat": "fight_dice", "ranks": "ranks", "engaged_units": "unit_engaged",
    "challenge": "challenge", "resolution": "resolution", "aftermath": "aftermath", "morale": "morale",
    "locked_with": "locked", "combat_result": "combat_result", "start_phase": "phase", "pass_turn": "pass", "hold": "hold",
}


class RuleSystem:
    """One game system's rules, as every client asks them.

    Subclasses set the class attributes and implement what their system has; every method
    takes the game state (immutable) and typed arguments, and either answers or raises
    :class:`IllegalAction` naming the rule (with its section). Methods that make a move return
    the new state and its events; the state given is never changed.
    """

    #: the file format's name for the system, and its printed title
    name: ClassVar[str]
    title: ClassVar[str]
    #: distance within which two models are in Engagement Range (inches; 0: base contact)
    engagement_range: ClassVar[float]
    #: the unit statuses a file may give
    statuses: ClassVar[frozenset[str]]
    #: the Combat Tags a file may give (``None``: any keyword)
    tags: ClassVar[Optional[frozenset[str]]] = None
    #: statuses that last one turn (``end_turn`` clears them)
    one_turn_statuses: ClassVar[frozenset[str]] = frozenset()
    #: a charge may give spots for the rest of the unit (``set:``; StarCraft §8.7.7 step 4)
    charge_sets_rest: ClassVar[bool] = False
    #: the ``settings:`` a file of the system may give: :data:`COMMON_SETTINGS` and its own
    settings: ClassVar[frozenset[str]] = COMMON_SETTINGS
    #: the traits (StarCraft: keywords) a weapon profile of the file may carry, by the ``stats``
    #: key that holds the profiles (``weapons``, ``melee_weapons``, ``ranged_weapons``); an empty
    #: set: the system reads no traits on those profiles
    weapon_traits: ClassVar[Mapping[str, frozenset[str]]] = {}
    #: what decides sight and movement over terrain, which a picture shades it by: ``"height"``
    #: (true line of sight: a piece's height and its traits) or ``"size"`` (StarCraft's Size
    #: classes, §7.1)
    terrain_shading: ClassVar[str] = "height"
    #: the rule each kind of event applies (event ``type`` → rule name with its section), as the
    #: replay viewer cites it beside the event's sentence
    event_rules: ClassVar[Mapping[str, str]] = {}
    #: the Gambits a duellist may choose in a challenge (Horus Heresy §A.6; none elsewhere)
    gambits: ClassVar[tuple[str, ...]] = ()
    #: may a fight name the order of its Strike Groups (Horus Heresy §A.7; no other system)
    strike_order_choice: ClassVar[bool] = False
    #: Whether the ``fight`` question takes StarCraft's Close Combat arguments (a PRECISION and
    #: an IMPACT split, extra ``precision``, ``damage_reduction``) instead of a defender's
    #: casualty order (Horus Heresy, 40k 3rd: the odds depend on it).
    close_combat_splits: ClassVar[bool] = False
    #: may one model split its attacks between enemy units (40k 3rd "Allocating Attacks"; the
    #: ``fight`` action's ``targets: {model: {unit: n}}``, the question's ``assign``)
    attack_splits: ClassVar[bool] = False
    #: the fight's choices made once per model, each with the rule that says so and why:
    #: ``weapons`` (a model's weapon) and ``assign`` (the unit it attacks)
    one_per_model: ClassVar[Mapping[str, tuple[str, str]]] = {
        "weapons": ("choices", "a model fights with one weapon"), "assign": ("choices", "a model attacks one enemy unit")}

    def __repr__(self) -> str:
        return f"<RuleSystem {self.name}>"

    def no_reactions(self, options: Optional[Mapping[str, Any]]) -> None:
        """Refuse a charge's Horus Heresy options (Volleys, Overwatch, Evade ...) in a system
        without them."""
        self.refuse_options("charge", options or {})

    def option_problems(self, method: str, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        """``(option, why)`` for each option of a call of ``method`` (``charge``, ``fight``,
        ``pile_in``: its options by name, as the file gives them) that the system does not
        have — another system's option, which the call refuses. ``check`` asks it of each such
        action, so that the file is refused where it names the option; the call itself raises
        the first (:meth:`refuse_options`). Here: a charge's Volleys and Reactions (options
        ``volley``, ``target_volley``, ``overwatch``, ``evade``, ``weapons``, ``casualties``),
        which only Horus Heresy has."""
        if method == "charge":
            return [(k, f"Volleys and Overwatch are Horus Heresy rules, not {self.name}'s") for k in sorted(options)
                    if k in REACTION_OPTIONS]
        if method == "fight" and options.get("strike_order") and not self.strike_order_choice:
            return [("strike_order", f"the Active Player's order of Strike Groups is a Horus Heresy rule (§A.7), not {self.name}'s")]
        if method == "fight" and not self.attack_splits and any(not isinstance(t, str) for t in (options.get("assign") or {}).values()):
            return [("assign", f"splitting one model's attacks between units is a 40k 3rd rule, not {self.name}'s: "
                               "give each model one unit")]
        if method == "fight" and not self.close_combat_splits:
            return [(k, f"a StarCraft TMG Close Combat argument, not {self.name}'s") for k in CLOSE_COMBAT_SPLITS if options.get(k)]
        if method == "fight" and options.get("casualties"):
            return [("casualties", "a StarCraft fight's odds do not depend on which legal casualty is removed (every model "
                                   "of a unit has the same HP): the replay's close_combat takes it")]
        return []

    def refuse_options(self, method: str, options: Mapping[str, Any]) -> None:
        """Raise :class:`IllegalAction` for the first of :meth:`option_problems`, at its option
        (``field``: ``actions[3].active`` once the replay gives it its index)."""
        for option, why in self.option_problems(method, options):
            raise IllegalAction(method, why, field=option)

    def unavailable(self, what: str) -> NoReturn:
        """Refuse an action or question of another system (:data:`ELSEWHERE` says whose)."""
        raise self._refusal(what)

    def _refusal(self, what: str) -> NotInThisSystem:
        rule, message = ELSEWHERE.get(what, (what, f"the {what} action is not available for system {self.name}"))
        return NotInThisSystem(what, rule, message)

    def lacks(self, method: str) -> Optional[NotInThisSystem]:
        """The refusal a call of ``method`` (a name of :data:`OPTIONAL`) would meet in this
        system, known before any call: the system does not implement it (``None``: it does).
        ``check`` asks it for each method an action or expectation calls, so that a word of
        another system is refused where the file names it, not when the replay reaches it.

        >>> rules_for("starcraft").lacks("challenge").message
        'the challenge action is not available for system starcraft'
        >>> rules_for("heresy").lacks("challenge") is None
        True
        """
        if getattr(type(self), method) is not getattr(RuleSystem, method):
            return None
        return self._refusal(OPTIONAL[method])

    # --- units and terrain (the loader) ---------------------------------------------------------

    def impassable(self, piece: Piece) -> bool:
        """Can no model move through or stand on ``piece`` (its traits; a system may add defaults)?"""
        return piece.has("impassable")

    def unit_info(self, entry: UnitEntry) -> UnitInfo:
        """The unit's rules data from its file entry; :class:`UnitProblem` for a profile the
        system does not know."""
        if entry.profile is not None:
            raise UnitProblem("profile", f"system {self.name} has no bundled catalogue; give the unit's stats instead")
        return UnitInfo(None, entry.size or 0, [t.lower() for t in entry.tags or []], entry.base, dict(entry.stats))

    def catalogue_listing(self) -> list[dict[str, Any]]:
        """Every profile of the system's bundled catalogue: its key and printed name, stats,
        base, tags, wargear and weapon profiles, as plain data (``tapeline units SYSTEM``)."""
        return []

    def unit_problems(self, stats: Mapping[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
        """``(path inside the unit entry, message)`` for everything else wrong in a unit's
        stats (unknown wargear ...)."""
        return []

    def weapon_problem(self, state: GameState, unit: str, weapon: str) -> Optional[str]:
        """Why ``weapon`` is not a weapon of ``unit`` (``None``: it is, or the system names
        weapons only where it uses them)."""
        return None

    def melee_weapon_problem(self, state: GameState, model: str, weapon: str) -> Optional[str]:
        """Why model ``model`` cannot strike with ``weapon`` in close combat (a fight, a Close
        Combat Attack, a challenge): it does not carry it, or it is no close combat weapon —
        decided on the file's profiles alone, as the fight would decide it, in its words with
        its rule (``None``: it may)."""
        return None

    def charge_problems(self, state: GameState, unit: str, targets: Sequence[str],
                        options: Mapping[str, Any]) -> list[tuple[str, str]]:
        """``(option, why)`` for each of a charge's options the rules forbid on the file's units
        whatever the dice do (Horus Heresy: a Reaction the target may never make); ``check``
        asks it of each charge, the charge itself refuses them when it comes to them."""
        return []

    def strike_group_problem(self, state: GameState, group: str) -> Optional[str]:
        """Why ``group`` names no Strike Group a fight of the file could have (a unit and a
        melee weapon one of its models carries, Horus Heresy §A.7), decided on the profiles
        alone (``None``: it may; a system without the choice refuses the option itself)."""
        return None

    # --- the board --------------------------------------------------------------------------

    def engaged(self, state: GameState, a: str, b: str) -> Engagement:
        """Do models ``a`` and ``b`` engage each other (the distance, and the system's exceptions)?"""
        raise NotImplementedError

    def visible(self, state: GameState, a: str, b: str) -> Sight:
        """Line of sight between models ``a`` and ``b``: a witness, or what blocks it and why."""
        raise NotImplementedError

    def sight_pairs(self, state: GameState, figs_a: Sequence[Figure], figs_b: Sequence[Figure],
                    ia: NDArray[np.intp], ib: NDArray[np.intp]) -> NDArray[np.bool_]:
        """``[k]``: models ``figs_a[ia[k]]`` and ``figs_b[ib[k]]`` see each other, exactly as
        :meth:`visible` decides for the two (one batched search: a table analysis asks millions
        of pairs)."""
        raise NotImplementedError

    # --- the table analysis (docs/analysis.md) ----------------------------------------------

    #: the probe model a table analysis stands on every position
    probe_defaults: ClassVar[Probe] = Probe(32.0, 2, 1.25)
    #: the probe may be a Flying model (a system with Flying units)
    probe_may_fly: ClassVar[bool] = False

    def probe_unit(self, probe: Probe) -> UnitEntry:
        """The probe as a unit entry of the system (its models get the probe's height)."""
        raise NotImplementedError

    def charge_distances(self, probe: Probe) -> tuple[float, ...]:
        """The distances (inches) a charge by the probe may cover: the reach map's contours."""
        raise NotImplementedError

    def level(self, state: GameState, fig: Figure) -> dict[str, Any]:
        """Where a model stands, in the system's terms (the ``models`` answer's ``level`` ...)."""
        raise NotImplementedError

    def move_rules(self, state: GameState, fig: Figure, may_engage: bool = False) -> MoveRules:
        """How ``fig`` may move: its clearance, what blocks its path and its end spot
        (``may_engage``: the move may end near enemies, as a charge does)."""
        raise NotImplementedError

    def path_notes(self, state: GameState, points: Sequence[XY]) -> dict[str, Any]:
        """What else a path through ``points`` does under the system (StarCraft: the Grass it
        crosses); added to the ``path`` answer."""
        return {}

    def coherency(self, state: GameState, unit: str, leader: Optional[str] = None) -> Coherency:
        """Is the unit in coherency?"""
        raise NotImplementedError

    # --- charges ----------------------------------------------------------------------------

    def charge_reach(self, state: GameState, unit: str, targets: Sequence[str], leader: Optional[str] = None,
                     modifier: int = 0) -> tuple[Any, dict[str, Any]]:
        """The charge question: the system's reach object and its JSON answer (``distance``,
        ``min_roll``, ``probability``, ``path``, ``end`` ...)."""
        raise NotImplementedError

    def charge_outcome(self, state: GameState, unit: str, targets: Sequence[str], rolls: Sequence[int],
                       leader: Optional[str] = None, modifier: int = 0,
                       target_models: Optional[Mapping[str, str]] = None,
                       spots: Optional[Mapping[str, XY]] = None) -> tuple[GameState, dict[str, Any]]:
        """The charge resolved with the given charge dice: the new state and what happened;
        ``spots``: where the rest of the unit is set (systems with :attr:`charge_sets_rest`)."""
        raise NotImplementedError

    def charge(self, state: GameState, unit: str, targets: Sequence[str], dice: Dice, leader: Optional[str] = None,
               modifier: int = 0, target_models: Optional[Mapping[str, str]] = None,
               options: Optional[Mapping[str, Any]] = None) -> tuple[GameState, dict[str, Any], Events]:
        """The whole charge with ``dice``: the new state, what happened, and the dice events."""
        raise NotImplementedError

    def charge_goal_regions(self, state: GameState, unit: str, targets: Sequence[str], lead: Figure) -> list[Region]:
        """Where the Leading Model ``lead`` may end the charge (for pictures)."""
        raise NotImplementedError

    # --- shooting ---------------------------------------------------------------------------

    def attack_odds(self, state: GameState, orders: Sequence[tuple[str, str]], target: str,
                    modifiers: Mapping[str, Any]) -> dict[str, Any]:
        """The exact odds of a Ranged Attack: ``orders`` are ``(unit, weapon)`` Batches at ``target``."""
        self.unavailable("attack")

    def template_attack(self, state: GameState, unit: str, weapon: str, target: Optional[str],
                        firer: Optional[str], at: Optional[XY], on: Optional[str]) -> dict[str, Any]:
        """A template weapon fired on the board: what it covers, affects, and its Batches' odds."""
        self.unavailable("template")

    def template_plan(self, state: GameState, unit: str, weapon: str, target: Optional[str], firer: Optional[str],
                      at: Optional[XY], on: Optional[str], settings: Any = None) -> Any:
        """Where a template weapon lands and what it affects (before any die)."""
        self.unavailable("template")

    def shoot(self, state: GameState, unit: str, batches: Sequence[Mapping[str, Any]], dice: Dice,
              settings: Any) -> tuple[GameState, Events, list[dict[str, Any]]]:
        """A Ranged Attack with dice, Batch by Batch (each its weapon, target, firing models,
        casualties and modifiers by name): new state, events, each Batch's result."""
        self.unavailable("shoot")

    # --- moves ------------------------------------------------------------------------------

    def run(self, state: GameState, unit: str, leader: str, path: Sequence[XY],
            spots: Mapping[str, XY]) -> tuple[GameState, Events, dict[str, Any]]:
        """A unit's Move / Run along the Leading Model's path, the rest set at ``spots`` or by default."""
        self.unavailable("run")

    def pile_in(self, state: GameState, unit: str, models: Optional[Sequence[str]],
                moves: Mapping[str, XY]) -> tuple[GameState, Events]:
        """Pile-in moves (or the moves a drawn combat makes)."""
        self.unavailable("pile_in")

    def close_ranks(self, state: GameState, unit: str, leader: Optional[str], path: Optional[Sequence[XY]],
                    spots: Mapping[str, XY]) -> tuple[GameState, Events, dict[str, Any]]:
        """Close Ranks before a Close Combat Attack (StarCraft §8.8.1 step 1)."""
        self.unavailable("close_ranks")

    def assault(self, state: GameState, unit: str, targets: Sequence[str], dice: Dice,
                moves: Mapping[str, Sequence[XY]]) -> tuple[GameState, Events, dict[str, Any]]:
        """Move a unit into an assault, each model by its own path (40k 3rd)."""
        self.unavailable("assault")

    def advance(self, state: GameState, unit: str, dice: Dice, toward: Optional[XY]) -> tuple[GameState, Events]:
        """A winning unit's advance after its fleeing enemy (40k 3rd)."""
        self.unavailable("advance")

    def consolidate(self, state: GameState, unit: str, moves: Mapping[str, XY],
                    toward: Optional[XY]) -> tuple[GameState, Events]:
        """A winning unit's consolidation (40k 3rd)."""
        self.unavailable("consolidate")

    # --- fights -----------------------------------------------------------------------------

    def fight_odds(self, state: GameState, unit: str, choices: FightChoices = FightChoices()) -> dict[str, Any]:
        """The ``fight`` question: who fights, and the exact odds (the JSON answer)."""
        raise NotImplementedError

    def fight(self, state: GameState, unit: str, dice: Dice, weapons: Mapping[str, str],
              targets: Mapping[str, Any], casualties: Mapping[str, Sequence[str]], active: Optional[str],
              pile_in: bool, charged: Sequence[str], strike_order: Sequence[str] = ()) -> tuple[GameState, Events, dict[str, Any]]:
        """One round of the combat ``unit`` is in, with dice: new state, events, summary
        (``strike_order``: the Active Player's order of Strike Groups, Horus Heresy's)."""
        self.unavailable("fight")

    def close_combat(self, state: GameState, unit: str, dice: Dice, targets: Optional[Sequence[str]],
                     assign: Mapping[str, str], weapons: Mapping[str, str], surge_to: Optional[str | Sequence[str]],
                     precision: Mapping[str, int], modifiers: Mapping[str, Any], casualties: Mapping[str, Sequence[str]],
                     settings: Any) -> tuple[GameState, Events, dict[str, Any]]:
        """A StarCraft Close Combat Attack with dice (§8.8.1 steps 2–5)."""
        self.unavailable("close_combat")

    def impact(self, state: GameState, unit: str, dice: Dice, charged: Sequence[str], targets: Optional[Sequence[str]],
               split: Mapping[str, Mapping[str, int]], casualties: Mapping[str, Sequence[str]],
               settings: Any) -> tuple[GameState, Events, dict[str, Any]]:
        """IMPACT dice right after a successful charge at the units ``charged`` (StarCraft §11)."""
        self.unavailable("impact")

    def shielded(self, state: GameState, unit: str) -> bool:
        """Is the unit still Shielded (StarCraft §11 SHIELDED)?"""
        self.unavailable("shielded")

    def declare_close_combat(self, state: GameState, unit: str, assign: Optional[Mapping[str, str]] = None) -> Any:
        """A Close Combat Attack as the board stands, with default choices (or ``assign``): its
        ranks, who strikes which unit, the dice per target (``dice()``) and the Surge Die's
        target (StarCraft §8.8.1)."""
        self.unavailable("fight_dice")

    def ranks(self, state: GameState, unit: str) -> Any:
        """The Fighting and Supporting Rank (StarCraft §8.8.1 step 2)."""
        self.unavailable("ranks")

    def engaged_units(self, state: GameState, unit: str) -> set[str]:
        """The enemy units the unit is Engaged with (StarCraft §7.2)."""
        self.unavailable("unit_engaged")

    def challenge(self, state: GameState, challenger: str, acceptor: Optional[str], dice: Dice,
                  options: Mapping[str, Any]) -> tuple[GameState, Events, dict[str, Any]]:
        """A challenge, Declare to Glory (Horus Heresy §A.6)."""
        self.unavailable("challenge")

    def resolution(self, state: GameState, unit: str, dice: Dice, bonus: Mapping[str, int],
                   panic_unit: Optional[str]) -> tuple[GameState, Events, dict[str, Any]]:
        """The Resolution sub-phase of the unit's combat (Horus Heresy §A.10)."""
        self.unavailable("resolution")

    def aftermath(self, state: GameState, unit: str, dice: Dice, choices: Mapping[str, str],
                  gun_down: Mapping[str, str], moves: Mapping[str, Mapping[str, XY]]) -> tuple[GameState, Events, Any]:
        """Each unit's Aftermath option after a resolved combat (Horus Heresy §A.10 step 4)."""
        self.unavailable("aftermath")

    def morale(self, state: GameState, unit: str, dice: Dice) -> tuple[GameState, Events]:
        """A losing unit's morale test and its fall back on a fail (40k 3rd)."""
        self.unavailable("morale")

    def locked_with(self, state: GameState, unit: str) -> list[str]:
        """The enemy units ``unit`` is locked in combat with (Horus Heresy §A.1, 40k 3rd)."""
        self.unavailable("locked")

    def combat_result(self, state: GameState, unit: str) -> dict[str, Any] | str:
        """What the last resolution of ``unit``'s combat found (or why there is none):
        ``winner``, ``points``, ``massacre``, ``panic``, ``detail`` (``tiebreak`` where it applies)."""
        self.unavailable("combat_result")

    # --- the round --------------------------------------------------------------------------

    def start_phase(self, state: GameState, phase: str, first_player: Optional[str], starts: Optional[str],
                    reserves: Sequence[str]) -> tuple[GameState, Events]:
        """Start Phase 2 (Assault) or Phase 3 (Combat) of a round (StarCraft §8.2)."""
        self.unavailable("phase")

    def pass_turn(self, state: GameState, side: str) -> tuple[GameState, Events]:
        """A player Passes (StarCraft §8.2.1)."""
        self.unavailable("pass")

    def hold(self, state: GameState, unit: str) -> tuple[GameState, Events]:
        """Hold: a unit's activation, doing nothing (StarCraft §8.7.2)."""
        self.unavailable("hold")

    def before_activation(self, state: GameState, unit: str, kind: str) -> GameState:
        """Check an activation against the round (a system without a round: nothing to check)."""
        return state

    def after_activation(self, state: GameState, unit: str, kind: str, success: bool) -> tuple[GameState, Events]:
        """Record an activation in the round."""
        return state, []

    def end_turn(self, state: GameState) -> tuple[GameState, Events]:
        """The turn is over: what the rules keep for one turn is forgotten, one-turn statuses go."""
        events: Events = [{"type": "end_turn", "forgotten": sorted(state.turn)}]
        for u in state.units:
            gone = sorted(set(u.status) & self.one_turn_statuses)
            if gone:
                state = state.with_unit(replace(u, status=frozenset(set(u.status) - self.one_turn_statuses)))
                events.append({"type": "status", "unit": u.id, "lost": gone, "why": "end of the turn"})
        return replace(state, turn=frozen_map({})), events
