"""The scenario file format (version 1), declared as pydantic models.

The static part (board, terrain, units, models) follows the file format's fixed specification to the
letter (docs/scenario-format.md). ``actions:`` and ``expect:`` entries are the models named in
the registry of :mod:`scenarios.vocab` (one module of :mod:`scenarios.actions` or
:mod:`scenarios.expectations` per group of words), and documented in docs/scenario-format.md.
Unknown keys, wrong types and non-finite numbers are errors.
"""

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional, Self, TypeVar, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model, model_validator

from tapeline.board.errors import GeometryError
from tapeline.board.templates import dims_from

from . import vocab
from .errors import CONTROL, escape_controls

# --- limits (scenarios/limits.py): every count and size a file may ask for --------------------
from .limits import (  # noqa: F401 - re-exported (scenarios.schema.MAX_MODELS as before)
    MAX_ACTIONS, MAX_BASE_MM, MAX_CHARGE_MODIFIER, MAX_EXPECT, MAX_ID, MAX_INCHES, MAX_LIST, MAX_MODELS,
    MAX_NUMBER, MAX_PIECES, MAX_POLYGON_VERTICES, MAX_ROLLS, MAX_SEED, MAX_VERTICES, MIN_BASE_MM,
)

# --- strict, bounded types for everything a user writes --------------------------------------

#: Any number a user compares a result with (``equals``, ``at_least``): finite, at most 1e15.
Finite = Annotated[float, Field(strict=True, ge=-MAX_NUMBER, le=MAX_NUMBER, allow_inf_nan=False)]
#: A coordinate in inches.
Coord = Annotated[float, Field(strict=True, ge=-MAX_INCHES, le=MAX_INCHES, allow_inf_nan=False)]
#: A length in inches (a distance, a height): 0 .. MAX_INCHES.
NonNeg = Annotated[float, Field(strict=True, ge=0, le=MAX_INCHES, allow_inf_nan=False)]
#: A positive length in inches: above 0, at most MAX_INCHES.
Positive = Annotated[float, Field(strict=True, gt=0, le=MAX_INCHES, allow_inf_nan=False)]
#: A base size in mm.
BaseMM = Annotated[float, Field(strict=True, ge=MIN_BASE_MM, le=MAX_BASE_MM, allow_inf_nan=False)]
#: An angle in degrees, counter-clockwise from +x.
Angle = Annotated[float, Field(strict=True, ge=-360, le=360, allow_inf_nan=False)]


def _no_control(v: str) -> str:
    """Refuse a control character (ESC, BEL, TAB, DEL, C1 ...: written in a file as a YAML or
    JSON escape, ``"\\e"``, ``"\\x1b"``) in an id or a name: printed, it would act on the
    user's terminal."""
    bad = CONTROL.search(v)
    if bad is not None:
        c = bad.group()
        raise ValueError(f"holds the control character {escape_controls(c)} (U+{ord(c):04X}) at character {bad.start() + 1}: "
                         "ids and names may hold no control characters")
    return v


#: An id (of a model, unit, piece, side, weapon ...): 1 to MAX_ID characters, no control character.
Id = Annotated[str, Field(strict=True, min_length=1, max_length=MAX_ID), AfterValidator(_no_control)]
#: A name (the file's, a weapon's, a profile's): at most 10,000 characters, no control character.
Text = Annotated[str, Field(strict=True, max_length=10_000), AfterValidator(_no_control)]
Flag = Annotated[bool, Field(strict=True)]
XY = tuple[Coord, Coord]
#: A list of ids (tags, targets, casualties, ...): at most MAX_LIST.
IdList = Annotated[list[Id], Field(max_length=MAX_LIST)]
#: The index of an action in ``actions:``.
ActionIndex = Annotated[int, Field(strict=True, ge=0, lt=MAX_ACTIONS)]


def _version_1(v: int) -> int:
    if v != 1:
        raise ValueError(f"format version {v} is unknown: this is version 1 (tapeline: 1)")
    return v


#: The format version: the integer 1 (not ``true``, not ``1.0``).
Version = Annotated[int, Field(strict=True), AfterValidator(_version_1)]


#: Strict integers (a number written ``3.0`` or ``"3"`` is refused), by range. Any other
#: range is written out where it is used: ``Annotated[int, Field(strict=True, ge=lo, le=hi)]``.
#: A characteristic or a Size: 0 .. 20.
Score = Annotated[int, Field(strict=True, ge=0, le=20)]
#: A count (dice, Damage, Wounds, Speed, a keyword's X): 0 .. 100.
Count = Annotated[int, Field(strict=True, ge=0, le=100)]
#: A target number on a D6 (Hit, Armour, Evade, a save): 1 .. 7.
TargetNumber = Annotated[int, Field(strict=True, ge=1, le=7)]
#: One die's result: 1 .. 6.
Face = Annotated[int, Field(strict=True, ge=1, le=6)]
#: A charge's distance modifier (Concussive Shells: -2).
ChargeModifier = Annotated[int, Field(strict=True, ge=-MAX_CHARGE_MODIFIER, le=MAX_CHARGE_MODIFIER)]

T = TypeVar("T")
#: A list of at most MAX_LIST items (``Bounded[Id]``). Other bounds are written out where they
#: are used: ``Annotated[list[item], Field(min_length=at_least, max_length=n)]``.
Bounded = Annotated[list[T], Field(min_length=0, max_length=MAX_LIST)]
#: A mapping from ids to values with at most MAX_LIST entries (``IdMap[WeaponSpec]``); other
#: sizes: ``Annotated[dict[Id, value], Field(max_length=n)]``.
IdMap = Annotated[dict[Id, T], Field(max_length=MAX_LIST)]


TRAIT = Literal[
    "impassable", "passable", "blocks_sight", "no_sight_block", "standable", "grass",
    "difficult", "dangerous", "cover", "access_point",
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, defer_build=True)


class BoardSpec(Strict):
    width: Positive
    height: Positive


class Footprint(Strict):
    rect: Optional[tuple[Coord, Coord, Positive, Positive]] = None
    polygon: Optional[Annotated[list[XY], Field(min_length=3, max_length=MAX_POLYGON_VERTICES)]] = None
    circle: Optional[tuple[Coord, Coord, Positive]] = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        given = [k for k in ("rect", "polygon", "circle") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of rect, polygon, circle")
        return self


class JoinSpec(Strict):
    """Where an Access Point joins two levels (docs/scenario-format.md, "Levels and Access
    Points"): ``levels`` names them (``ground`` or terrain ids); ``at`` is the door, a polyline
    on the edge between them (default: that edge wherever it lies within the Access Point)."""

    levels: tuple[Id, Id]
    at: Optional[Annotated[list[XY], Field(min_length=2, max_length=100)]] = None


class TerrainSpec(Strict):
    id: Id
    footprint: Footprint
    size: Score = 0
    height: NonNeg = 0.0
    on: Optional[Id] = None
    traits: Bounded[TRAIT] = []
    # Extension of the fixed static part: where an Access Point joins two levels.
    joins: Optional[Annotated[list[JoinSpec], Field(min_length=1, max_length=20)]] = None


class ZoneSpec(Strict):
    """A zone of the table (docs/scenario-format.md, "Zones"): a deployment zone or an
    objective, belonging to ``side``; ``footprint`` as a terrain piece's."""

    id: Id
    side: Id
    footprint: Footprint


BaseSize = Union[BaseMM, tuple[BaseMM, BaseMM]]


class ModelSpec(Strict):
    id: Id
    at: XY
    base: Optional[BaseSize] = None
    facing: Angle = 0.0
    on: Optional[Id] = None
    height: Optional[Positive] = None


class WeaponSpec(Strict):
    """A weapon profile given in the file (StarCraft §5.1 fields)."""

    name: Optional[Text] = None
    phase: Literal["assault", "combat"]
    range: Union[NonNeg, Literal["E", "BT", "FT"]]
    target: Literal["ground", "flying", "all"] = "ground"
    roa: Count
    hit: Optional[TargetNumber] = None
    surge: IdList = []
    surge_dice: Optional[Literal["D3", "D3+1", "D6"]] = None
    damage: Count = 1
    #: Weapon keywords (§11): a flag, a number (X), a range in inches, or {Combat Tag: X}.
    keywords: IdMap[Union[Flag, Count, NonNeg, IdMap[Count]]] = {}
    upgrade: Flag = False


CharMod = Union[
    Annotated[int, Field(strict=True, ge=0, le=20)],
    Annotated[str, Field(strict=True, max_length=8, pattern=r"^\s*([+\-x×*]\s*\d{1,2}|S|I|A|WS|T|W)\s*$")],
]


class MeleeWeaponSpec(Strict):
    """A melee weapon profile (Horus Heresy 3rd / 40k 3rd close combat; rules/melee/weapons.py).

    ``strength`` / ``attacks`` / ``initiative``: the model's own value (the letter or null),
    ``"+n"`` / ``"-n"``, ``"xn"``, or a number that replaces it. ``ap``: null for none.
    ``two_weapons``: how it counts for +1 Attack with two close combat weapons (any other,
    only a pair of the same, never). ``traits``: further special rules by name, with a value.
    """

    name: Optional[Text] = None
    strength: Optional[CharMod] = None
    attacks: Optional[CharMod] = None
    initiative: Optional[CharMod] = None
    ap: Optional[Annotated[int, Field(strict=True, ge=1, le=6)]] = None
    damage: Annotated[int, Field(strict=True, ge=1, le=20)] = 1
    ignores_armour: Flag = False
    strikes_last: Flag = False
    two_weapons: Literal["any", "pair", "none"] = "any"
    traits: Annotated[dict[Id, Optional[Annotated[int, Field(strict=True, ge=0, le=20)]]], Field(max_length=20)] = {}


Stat = Optional[Annotated[int, Field(strict=True, ge=0, le=20)]]
RangedTraits = Annotated[dict[Id, Optional[Annotated[int, Field(strict=True, ge=0, le=20)]]], Field(max_length=20)]


class RangedWeaponSpec(Strict):
    """A Horus Heresy ranged weapon profile (Volleys, Overwatch, Gun Down): ``range`` inches,
    ``firepower`` (shots), ``strength`` (a value), ``ap``, ``damage``, ``traits`` (``assault``
    for Volleys)."""

    name: Optional[Text] = None
    range: Annotated[float, Field(strict=True, ge=0, le=1000, allow_inf_nan=False)]
    firepower: Annotated[int, Field(strict=True, ge=1, le=100)] = 1
    strength: Annotated[int, Field(strict=True, ge=0, le=20)]
    ap: Optional[Annotated[int, Field(strict=True, ge=1, le=6)]] = None
    damage: Annotated[int, Field(strict=True, ge=0, le=100)] = 1
    traits: RangedTraits = {}


Wargear = Optional[Annotated[list[Id], Field(max_length=20)]]


class ModelStatsSpec(Strict):
    """One model's own characteristics in a unit (Horus Heresy / 40k 3rd: a Sergeant, a
    character leading a squad): any stat given here replaces the unit's for that model
    (``wargear`` too: the model's own kit);
    ``subtypes`` add to the unit's ``tags`` (Horus Heresy sub-types: ``command``,
    ``champion``, ``sergeant``, ``heavy``, ``light``, ``cavalry``; type ``paragon``);
    ``profile`` names a catalogue entry whose values the model's own ones override."""

    movement: Stat = None
    initiative: Stat = None
    weapon_skill: Stat = None
    ballistic_skill: Stat = None
    strength: Stat = None
    toughness: Stat = None
    wounds: Optional[Annotated[int, Field(strict=True, ge=0, le=100)]] = None
    attacks: Optional[Annotated[int, Field(strict=True, ge=0, le=100)]] = None
    leadership: Stat = None
    cool: Stat = None
    willpower: Stat = None
    intelligence: Stat = None
    save: Optional[Annotated[int, Field(strict=True, ge=1, le=7)]] = None
    invulnerable: Optional[Annotated[int, Field(strict=True, ge=2, le=7)]] = None
    armour_rear: Stat = None
    unit_type: Optional[Id] = None
    subtypes: Annotated[list[Id], Field(max_length=20)] = []
    wargear: Wargear = None
    #: an entry of the system's bundled catalogue giving this model's line (Horus Heresy, 40k 3rd)
    profile: Optional[Text] = None


class StatsSpec(Strict):
    """A unit's stat line, or overrides of its catalogue profile.

    StarCraft TMG fields: ``speed`` (``4`` or ``[4, 7]`` for split speed, ``null`` for "-"),
    ``armour``, ``evade`` (target numbers; ``null`` for "-"), ``hp``, ``shield``, ``abilities``,
    ``impact`` (``[X, Y]``), ``weapons``. Horus Heresy / 40k 3rd fields: ``movement``,
    ``initiative``, ``weapon_skill``, ``ballistic_skill``, ``strength``, ``toughness``,
    ``wounds``, ``attacks``, ``leadership``, ``save``, ``unit_type``; Horus Heresy adds ``cool``,
    ``willpower``, ``intelligence``, ``invulnerable`` (save), and ``models`` (per-model
    overrides: :class:`ModelStatsSpec`); close combat: ``wargear`` (every model's weapons and
    kit by name) and ``melee_weapons`` (profiles defined or overridden in the file).
    """

    speed: Optional[Union[Count, Annotated[list[Count], Field(min_length=1, max_length=2)]]] = None
    armour: Optional[TargetNumber] = None
    evade: Optional[TargetNumber] = None
    hp: Optional[Annotated[int, Field(strict=True, ge=1, le=1000)]] = None
    shield: Optional[Annotated[int, Field(strict=True, ge=0, le=1000)]] = None
    abilities: Optional[IdList] = None
    impact: Optional[tuple[Count, TargetNumber]] = None
    weapons: Optional[IdMap[WeaponSpec]] = None
    movement: Optional[Count] = None
    initiative: Optional[Score] = None
    weapon_skill: Optional[Score] = None
    ballistic_skill: Optional[Score] = None
    strength: Optional[Score] = None
    toughness: Optional[Score] = None
    wounds: Optional[Count] = None
    attacks: Optional[Count] = None
    leadership: Optional[Score] = None
    save: Optional[TargetNumber] = None
    unit_type: Optional[Id] = None
    cool: Optional[Annotated[int, Field(strict=True, ge=0, le=20)]] = None
    willpower: Optional[Annotated[int, Field(strict=True, ge=0, le=20)]] = None
    intelligence: Optional[Annotated[int, Field(strict=True, ge=0, le=20)]] = None
    invulnerable: Optional[Annotated[int, Field(strict=True, ge=2, le=7)]] = None
    armour_rear: Optional[Annotated[int, Field(strict=True, ge=0, le=20)]] = None
    models: Optional[Annotated[dict[Id, ModelStatsSpec], Field(max_length=2000)]] = None
    wargear: Wargear = None
    melee_weapons: Optional[Annotated[dict[Id, MeleeWeaponSpec], Field(max_length=50)]] = None
    ranged_weapons: Optional[Annotated[dict[Id, RangedWeaponSpec], Field(max_length=50)]] = None


class UnitSpec(Strict):
    id: Id
    side: Id
    profile: Optional[Text] = None
    size: Optional[Score] = None
    base: Optional[BaseSize] = None
    tags: Optional[IdList] = None
    status: IdList = []
    leader: Optional[Id] = None
    stats: Optional[StatsSpec] = None
    models: Annotated[list[ModelSpec], Field(min_length=1, max_length=MAX_MODELS)]


class DiceSpec(Strict):
    seed: Optional[Annotated[int, Field(strict=True, ge=0, le=MAX_SEED)]] = None
    rolls: Optional[Annotated[list[Face], Field(min_length=0, max_length=MAX_ROLLS)]] = None

    @model_validator(mode="after")
    def _one(self) -> Self:
        if (self.seed is None) == (self.rolls is None):
            raise ValueError("give exactly one of seed, rolls")
        return self


class TemplateShape(Strict):
    """A template shape of ``settings.templates``: a disc ``{diameter: D}`` or a teardrop
    ``{length: L, narrow: A, wide: B}`` (inches; docs/templates.md)."""

    diameter: Optional[Positive] = None
    length: Optional[Positive] = None
    narrow: Optional[Positive] = None
    wide: Optional[Positive] = None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        try:
            dims_from(self)
        except GeometryError as e:
            raise ValueError(str(e)) from None
        return self


class Settings(Strict):
    """Choices the rules leave open (each documented where it is used)."""

    strict_choices: Flag = False
    # StarCraft §8.7.4–8.7.5: which legal casualty the defender removes when the file names
    # none: the first in file order, or the one farthest from the firing models.
    casualty_default: Literal["file_order", "farthest"] = "file_order"
    # StarCraft Guardian Shield (§4.7, one die fewer per Batch): the defender removes an
    # attack die (in-range group first) or the Surge Die. UNCERTAIN which the rules intend.
    guardian_shield_die: Literal["attack", "surge"] = "attack"
    # True line of sight (heresy, classic40k): a model standing inside a piece's footprint
    # (area terrain) — "see_out": that piece never blocks its sight lines; "height": it blocks
    # by height like any other piece. See docs/line-of-sight.md.
    los_area_terrain: Literal["see_out", "height"] = "see_out"
    # Movement (docs/movement.md): how far a moving model's centre keeps from the table edge
    # en route — "clearance": its clearance radius (a gap to the edge is a gap like any
    # other); "base": its whole base stays on the table throughout.
    edge_clearance: Literal["clearance", "base"] = "clearance"
    # StarCraft §4.4 Coherency Link: longest edge-to-edge link between two models (null: no
    # limit; the rulebook states none — UNCERTAIN); which terrain a link may not cross.
    coherency_link_max: Optional[NonNeg] = None
    coherency_link_terrain: Literal["impassable", "all"] = "impassable"
    # The point of a base whose path is measured for Move / Charge distances (§8.7.7 "measure
    # the actual path"; UNCERTAIN which point): the centre, equivalent for translations.
    path_reference: Literal["centre"] = "centre"
    # StarCraft §8.7.5 Engaged casualty order: "within Engagement Range of an enemy" read as the
    # seed words it, within 1" of an enemy model ("within_1"), or as engaging one under §7.2
    # ("engaging": terrain between or different levels do not count). docs/attacks.md.
    casualty_priority_range: Literal["within_1", "engaging"] = "within_1"
    # Horus Heresy §A.3 charge roll: compared with the initial charger's remaining route to base
    # contact ("route", the seed's "enough to reach the target") or with the closest distance
    # between models that see each other ("closest_los", the rulebook transcription). See
    # docs/heresy-assault.md.
    charge_roll_against: Literal["route", "closest_los"] = "route"
    # Horus Heresy §A.4: the battle's points limit, which sets each side's Reaction allotment per
    # turn (1, +1 above 1,500, +2 above 3,500, +3 above 5,000); none: 1 point.
    points_limit: Optional[Annotated[int, Field(strict=True, ge=0, le=100_000)]] = None
    # Horus Heresy §A.5 Fall Back: the table edge each side falls back towards (a side not
    # named: the edge nearest the unit).
    home_edges: Annotated[dict[Id, Literal["bottom", "top", "left", "right"]], Field(max_length=20)] = {}
    # Horus Heresy §A.8 Melee Hit Test: "rule" (equal 4+, higher 3+, double 2+, lower 5+, half 6+:
    # 99 of 100 cells of the fuller transcription) or "transcription" (that table's 10 v 5 = 3+).
    hh_ws_table: Literal["rule", "transcription"] = "rule"
    # Horus Heresy §A.10 Aftermath, Hold: its immediate pile-in moves towards the enemy units that
    # stay in the combat ("staying": not one that Fell Back or Disengaged, which have left it) or
    # towards any enemy unit of the combat ("any": a Hold then drags a disengaged unit back
    # into base contact). docs/heresy-assault.md.
    hh_hold_pile_in: Literal["staying", "any"] = "staying"
    # 40k 3rd "Frag Grenades" (docs/close-combat-40k.md): assaulting models with frag grenades
    # take the defenders' first strike from cover away — "simultaneous" (the seed's words): the
    # defenders in cover strike at the same time as the assaulting models with frag grenades, in
    # the first step; "initiative" (4th edition): everyone then strikes in Initiative order.
    c40k_frag_grenades: Literal["simultaneous", "initiative"] = "simultaneous"
    # 40k 3rd "Attacks": a power fist or claw and another close combat weapon (a pistol) —
    # "any_weapon": +1 Attack like any two close combat weapons (the seed); "second_fist": only
    # with a second fist or claw (6th edition's specialist weapons).
    c40k_fist_extra_attack: Literal["any_weapon", "second_fist"] = "any_weapon"
    # 40k 3rd "Loser Checks Morale": the loser's Leadership test — "none": 2D6 ≤ Ld (the 1998
    # rules); "per_wound": −1 Ld per wound the combat was lost by (trial rules / 4th edition).
    c40k_morale_modifier: Literal["none", "per_wound"] = "none"
    # 40k 3rd "Advance" / "Sweeping Advance" after the loser falls back — "pursuit": the winner
    # advances 2D6" (halved through difficult terrain) and destroys the fleeing unit if it
    # reaches it (the 1998 rules); "initiative": both roll D6 + Initiative, the loser is destroyed
    # if the winner's total is equal or higher, else it falls back (trial rules / 4th edition).
    c40k_sweeping_advance: Literal["pursuit", "initiative"] = "pursuit"
    # 40k 3rd "Removing Casualties": a model whose foe falls before it strikes — "within_2" (the
    # seed): it strikes a fresh opponent, an enemy model still within 2" of it, and does not
    # strike when none is left; "any_of_unit": it strikes its target unit while any model of
    # that unit is left, wherever it stands. docs/close-combat-40k.md.
    c40k_fresh_opponent: Literal["within_2", "any_of_unit"] = "within_2"
    # Template shapes (docs/templates.md): the defaults blast {diameter: 3}, large_blast
    # {diameter: 5}, flamer {length: 8, narrow: 0.75, wide: 2.5}, overridden or added by name.
    templates: Annotated[dict[Id, TemplateShape], Field(max_length=50)] = {}
    # StarCraft §8.7.6: which models of an unengaged unit a template Batch may remove — those
    # Visible to the firing model ("visible", the Ranged Attack's rule) or only those the
    # template affects ("affected"). Engaged units follow §8.7.5 either way. docs/templates.md.
    template_casualties: Literal["visible", "affected"] = "visible"
    # (later settings are added below this line, one per rule they configure)


def _tagged_union(models: Mapping[str, type[BaseModel]], tag: str, subset: bool = False) -> Any:
    """The entries' type: the models, told apart by ``tag``. A ``subset`` (the words one file
    uses) stays a tagged union even of one model, so that its errors are located as the whole
    vocabulary's are (``actions[0].speed``). (A type made at run time, for pydantic: it has no
    static type.)"""
    if not models:
        return dict[str, Any]
    ms = tuple(models[k] for k in sorted(models))
    if len(ms) == 1 and not subset:
        return ms[0]
    return Annotated[Union[ms], Field(discriminator=tag)]


class Scenario(Strict):
    """A file, validated: the static part. The model a file is validated with is a subclass
    that adds ``actions`` and ``expect`` for the words the file uses (:func:`scenario_model_for`;
    made without a docstring: the JSON Schema's top model has no description)."""

    tapeline: Version
    system: Literal["starcraft", "heresy", "classic40k"]
    name: Text = ""
    board: BoardSpec
    terrain: Annotated[list[TerrainSpec], Field(min_length=0, max_length=MAX_PIECES)] = []
    units: Annotated[list[UnitSpec], Field(min_length=0, max_length=MAX_MODELS)]
    # Extension of the fixed static part: deployment zones and objectives (``tapeline analyse``).
    zones: Annotated[list[ZoneSpec], Field(min_length=0, max_length=MAX_PIECES)] = []
    dice: Optional[DiceSpec] = None
    settings: Settings = Settings()

    if TYPE_CHECKING:  # the fields scenario_model_for's subclass adds: every validated file has them
        actions: list[vocab.ActionEntry]
        expect: list[vocab.ExpectEntry]


def scenario_model() -> type[Scenario]:
    """The whole file's model, with every registered action and expectation."""
    return _scenario_model(None, None)


def scenario_model_for(data: Any) -> type[Scenario]:
    """A model that validates ``data`` exactly as :func:`scenario_model` does, built with only
    the ``actions:`` and ``expect:`` words ``data`` uses (so only their modules are loaded).
    Where an entry names no word, or one that is not known, the whole model answers (its
    message lists every known word)."""
    return _scenario_model(*_used(data))


def validate(data: Any) -> Scenario:
    """``data`` validated by :func:`scenario_model_for`'s model (raises
    ``pydantic.ValidationError``)."""
    return scenario_model_for(data).model_validate(data)


#: The words of a vocabulary a file uses (``None``: every word).
Words = Optional[frozenset[str]]


def _used(data: Any) -> tuple[Words, Words]:
    """The ``actions:`` and ``expect:`` words ``data`` uses, or ``(None, None)`` (every word)."""
    actions, expects = _words_used(data, "actions", "action"), _words_used(data, "expect", "expect")
    if actions is None or expects is None:
        return None, None
    return actions, expects


def _words_used(data: Any, key: str, tag: str) -> Words:
    """The words of ``data[key]``'s entries, or ``None`` where one is not a mapping naming a
    known word (or the list is not a list)."""
    entries = data.get(key, []) if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return None
    known = vocab.KINDS[tag]
    out: set[str] = set()
    for e in entries:
        word = e.get(tag) if isinstance(e, dict) else None
        if not isinstance(word, str) or word not in known:
            return None
        out.add(word)
    return frozenset(out)


@lru_cache(maxsize=64)
def _scenario_model(actions: Words, expects: Words) -> type[Scenario]:
    """The file's model with the action and expectation words given (``None``: all of them)."""
    Action: Any = _tagged_union(vocab.models("action", actions), "action", actions is not None)
    Expect: Any = _tagged_union(vocab.models("expect", expects), "expect", expects is not None)
    return create_model(
        "Scenario", __base__=Scenario, __module__=__name__, __qualname__="Scenario",
        actions=(Annotated[list[Action], Field(min_length=0, max_length=MAX_ACTIONS)], []),
        expect=(Annotated[list[Expect], Field(min_length=0, max_length=MAX_EXPECT)], []),
    )
