"""The ``actions:`` and ``expect:`` vocabularies: every word, and the model that reads it.

Each word of a file's ``actions:`` names a model in :mod:`scenarios.actions` (a field
``action: Literal["word"]`` and a method ``apply(state, ctx)`` returning the new state and its
events); each word of its ``expect:`` a model in :mod:`scenarios.expectations` (a field
``expect: Literal["word"]`` and a method ``check(state, ctx)`` returning ``(ok, detail)``).
Adding a word is adding its model and its line below (a test checks that every model of the two
packages is here, under its own word).

The registry names each model by ``"module:Class"``: a module is imported when a file uses one
of its words (:func:`models`), so a command loads the models, and the rules they import, of the
words its file uses only.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Optional, Protocol, TypeGuard, Union

from pydantic import BaseModel

from tapeline.rules.dice import Dice
from tapeline.rules.state import GameState
from tapeline.rules.systems import Events

if TYPE_CHECKING:  # (schema imports this module: the cycle is for types only)
    from .schema import Settings

#: ``actions:`` words: the model of each, as ``"module:Class"``.
ACTIONS: dict[str, str] = {
    "advance": "tapeline.scenarios.actions.advance:Advance",
    "aftermath": "tapeline.scenarios.actions.resolution:Aftermath",
    "assault": "tapeline.scenarios.actions.assault:Assault",
    "challenge": "tapeline.scenarios.actions.challenge:Challenge",
    "charge": "tapeline.scenarios.actions.charge:Charge",
    "close_combat": "tapeline.scenarios.actions.close_combat:CloseCombat",
    "close_ranks": "tapeline.scenarios.actions.close_ranks:CloseRanks",
    "consolidate": "tapeline.scenarios.actions.advance:Consolidate",
    "end_turn": "tapeline.scenarios.actions.end_turn:EndTurn",
    "fight": "tapeline.scenarios.actions.fight:Fight",
    "hold": "tapeline.scenarios.actions.round:Hold",
    "impact": "tapeline.scenarios.actions.close_combat:Impact",
    "morale": "tapeline.scenarios.actions.morale:Morale",
    "move": "tapeline.scenarios.actions.move:Move",
    "pass": "tapeline.scenarios.actions.round:Pass",
    "phase": "tapeline.scenarios.actions.round:Phase",
    "pile_in": "tapeline.scenarios.actions.pile_in:PileIn",
    "place": "tapeline.scenarios.actions.move:Place",
    "resolution": "tapeline.scenarios.actions.resolution:ResolutionAction",
    "run": "tapeline.scenarios.actions.run:Run",
    "shoot": "tapeline.scenarios.actions.shoot:Shoot",
}

#: ``expect:`` words: the model of each, as ``"module:Class"``.
EXPECTATIONS: dict[str, str] = {
    "activation": "tapeline.scenarios.expectations.combat:Activation",
    "attack": "tapeline.scenarios.expectations.attack:Attack",
    "casualties": "tapeline.scenarios.expectations.attack:Casualties",
    "charge": "tapeline.scenarios.expectations.charge:ChargeQuery",
    "charged": "tapeline.scenarios.expectations.charge:Charged",
    "close_combat": "tapeline.scenarios.expectations.combat:CloseCombatExpect",
    "coherency": "tapeline.scenarios.expectations.charge:CoherencyCheck",
    "combat_result": "tapeline.scenarios.expectations.assault:CombatResult",
    "contact": "tapeline.scenarios.expectations.geometry:Contact",
    "covered": "tapeline.scenarios.expectations.templates:Covered",
    "damage_marker": "tapeline.scenarios.expectations.attack:DamageMarker",
    "engaged": "tapeline.scenarios.expectations.geometry:Engaged",
    "fight_dice": "tapeline.scenarios.expectations.combat:FightDice",
    "fight_odds": "tapeline.scenarios.expectations.assault:FightOdds",
    "gap": "tapeline.scenarios.expectations.geometry:Gap",
    "glory": "tapeline.scenarios.expectations.assault:Glory",
    "locked": "tapeline.scenarios.expectations.state:Locked",
    "position": "tapeline.scenarios.expectations.state:Position",
    "ranks": "tapeline.scenarios.expectations.combat:RanksExpect",
    "round": "tapeline.scenarios.expectations.combat:Round",
    "shielded": "tapeline.scenarios.expectations.attack:Shielded",
    "status": "tapeline.scenarios.expectations.state:Status",
    "template": "tapeline.scenarios.expectations.templates:TemplateAttack",
    "unit_engaged": "tapeline.scenarios.expectations.combat:UnitEngaged",
    "visible": "tapeline.scenarios.expectations.visibility:Visible",
    "within": "tapeline.scenarios.expectations.geometry:Within",
}

#: The two vocabularies, by the key that names an entry's word.
KINDS = {"action": ACTIONS, "expect": EXPECTATIONS}


@lru_cache(maxsize=None)
def model(kind: str, word: str) -> type[BaseModel]:
    """The model of one word of a vocabulary (``"action"`` or ``"expect"``), its module
    imported now."""
    module, name = KINDS[kind][word].split(":")
    cls: type[BaseModel] = getattr(importlib.import_module(module), name)
    return cls


def models(kind: str, used: Optional[Iterable[str]] = None) -> dict[str, type[BaseModel]]:
    """``{word: model}`` for the words ``used`` (every word where ``None``), importing only
    their modules."""
    return {w: model(kind, w) for w in (KINDS[kind] if used is None else used)}


@dataclass
class ReplayContext:
    """What actions and expectations see besides the state: the dice, the file's settings,
    the index of the action being resolved and what earlier actions produced (``results``,
    by action index)."""

    dice: Dice
    settings: Settings
    index: Optional[int] = None
    results: dict[int, dict[str, Any]] = field(default_factory=dict)

    def record(self, result: dict[str, Any]) -> None:
        """Keep what the action being resolved produced, as ``results[index]`` (for the
        expectations and the later actions that read it)."""
        if self.index is not None:
            self.results[self.index] = result


# --- what an entry is: the shape every model of the two vocabularies has --------------------

#: What a reference names: an id, or (kind ``action``) the index of an action.
Ident = Union[str, int]
#: What narrows a reference, if anything: a unit id, or the words an action may be.
Within = Union[str, tuple[str, ...], None]
#: One reference an entry makes (:mod:`scenarios.validate`): ``(field, kind, ident)`` or
#: ``(field, kind, ident, within)``.
Ref = Union[tuple[str, str, Ident], tuple[str, str, Ident, Within]]


class Entry(Protocol):
    """An ``actions:`` or ``expect:`` entry: a model of the format, naming what it refers to."""

    def refs(self) -> list[Ref]: ...

    def model_dump(self, *, mode: str = "python", exclude_defaults: bool = False) -> dict[str, Any]: ...


class ActionEntry(Entry, Protocol):
    """A model of ``actions:``: its word, and how it changes a state."""

    @property
    def action(self) -> str: ...

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]: ...


class Activation(ActionEntry, Protocol):
    """An action that is a unit's activation in a round: its class names the kind."""

    activation: ClassVar[str]

    @property
    def unit(self) -> str: ...


def is_activation(act: ActionEntry) -> TypeGuard[Activation]:
    """Whether ``act`` is an activation (its class names its ``activation`` kind)."""
    return getattr(act, "activation", None) is not None


class ExpectEntry(Entry, Protocol):
    """A model of ``expect:``: its word, and how it is checked on a state (``(ok, detail)``)."""

    @property
    def expect(self) -> str: ...

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]: ...

    def checked_after(self, n_actions: int) -> int:
        """The action it is checked right after (``-1``: before any; ``n_actions``: the last)."""
        ...
