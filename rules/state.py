"""Game state as a value.

A :class:`GameState` holds the table, every unit with its rules data (stats, tags, statuses,
Damage Marker) and every model's geometry (:class:`board.Figure`). It is immutable: an action
returns a new state plus its events, or raises :class:`rules.errors.IllegalAction` and the old
state stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional, Protocol, TypeVar

from tapeline.board.table import Figure, Table

from .errors import UnknownId


K = TypeVar("K")
V = TypeVar("V")


def frozen_map(d: Mapping[K, V]) -> Mapping[K, V]:
    return MappingProxyType(dict(d))


class RoundRecord(Protocol):
    """Where a round stands, as a system keeps it (StarCraft's ``activation.RoundState``)."""

    def as_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class UnitState:
    """One unit: who owns it, what it is, what has happened to it.

    ``stats`` is the system's stat line (a mapping; each system reads it its own way).
    ``damage`` is the StarCraft Damage Marker; ``models`` lists the ids of the models still on
    the table, in file order; ``wounds_lost`` the wounds each model has lost so far (Horus
    Heresy, 40k: models with several Wounds).
    """

    id: str
    side: str
    models: tuple[str, ...]
    profile: Optional[str] = None
    size: int = 0
    tags: frozenset[str] = frozenset()
    status: frozenset[str] = frozenset()
    leader: Optional[str] = None
    stats: Mapping[str, Any] = field(default_factory=lambda: frozen_map({}))
    damage: int = 0
    removed: tuple[str, ...] = ()
    started_with: int = 0
    wounds_lost: Mapping[str, int] = field(default_factory=lambda: frozen_map({}))

    def has(self, tag: str) -> bool:
        return tag in self.tags

    @property
    def flying(self) -> bool:
        return "flying" in self.tags


@dataclass(frozen=True)
class GameState:
    """The whole board at one moment."""

    system: str
    table: Table
    units: tuple[UnitState, ...]
    figures: Mapping[str, Figure]
    settings: Mapping[str, Any] = field(default_factory=lambda: frozen_map({}))
    #: Per-turn bookkeeping the rules keep (Horus Heresy: Reaction points spent per side, the
    #: units that reacted, the units that have fought this phase), JSON-ready values.
    turn: Mapping[str, Any] = field(default_factory=lambda: frozen_map({}))
    #: Where the round stands when the file plays it phase by phase (a system's own value,
    #: e.g. StarCraft's ``activation.RoundState``); ``None``: actions resolve freely.
    round: Optional[RoundRecord] = None

    @cached_property
    def _unit_index(self) -> dict[str, UnitState]:
        return {u.id: u for u in self.units}

    def unit(self, unit_id: str) -> UnitState:
        """The unit ``unit_id``; :class:`UnknownId` (a ``KeyError``) when there is none."""
        try:
            return self._unit_index[unit_id]
        except (KeyError, TypeError):
            raise UnknownId("unit", unit_id) from None

    def has_unit(self, unit_id: str) -> bool:
        return unit_id in self._unit_index

    def figure(self, model_id: str) -> Figure:
        """The model ``model_id`` (where it stands, or stood when it was removed);
        :class:`UnknownId` (a ``KeyError``) when the file has no such model."""
        try:
            return self.figures[model_id]
        except (KeyError, TypeError):
            raise UnknownId("model", model_id) from None

    @cached_property
    def _on_table(self) -> frozenset[str]:
        return frozenset(m for u in self.units for m in u.models)

    def on_table(self, model_id: str) -> bool:
        """Is ``model_id`` on the table (not removed as a casualty)?"""
        return model_id in self._on_table

    def removed_from(self, model_id: str) -> Optional[str]:
        """The unit a removed model belonged to (``None`` if it was not removed)."""
        return next((u.id for u in self.units if model_id in u.removed), None)

    def unit_of(self, model_id: str) -> UnitState:
        return self.unit(self.figure(model_id).unit)

    def figures_of(self, unit_id: str) -> list[Figure]:
        """The unit's models on the table, in file order."""
        return [self.figures[m] for m in self.unit(unit_id).models]

    def all_figures(self) -> list[Figure]:
        return [self.figures[m] for u in self.units for m in u.models]

    def enemies_of(self, unit_id: str) -> list[UnitState]:
        side = self.unit(unit_id).side
        return [u for u in self.units if u.side != side and u.models]

    def others(self, unit_id: str) -> list[Figure]:
        """Every model on the table not in ``unit_id``."""
        return [f for u in self.units if u.id != unit_id for f in (self.figures[m] for m in u.models)]

    # --- making new states -----------------------------------------------------------------

    def with_figures(self, figs: Iterable[Figure]) -> "GameState":
        new = dict(self.figures)
        for f in figs:
            new[f.id] = f
        return replace(self, figures=frozen_map(new))

    def with_unit(self, unit: UnitState) -> "GameState":
        return replace(self, units=tuple(unit if u.id == unit.id else u for u in self.units))

    def without_models(self, unit_id: str, model_ids: Iterable[str]) -> "GameState":
        """Remove models (casualties) from the table; they stay listed in ``removed``."""
        gone = list(model_ids)
        u = self.unit(unit_id)
        kept = tuple(m for m in u.models if m not in gone)
        leader = u.leader if u.leader in kept else None
        return self.with_unit(replace(u, models=kept, removed=u.removed + tuple(gone), leader=leader))

    def with_turn(self, key: str, value: Any) -> "GameState":
        new = dict(self.turn)
        new[key] = value
        return replace(self, turn=frozen_map(new))

    def with_wounds_lost(self, unit_id: str, lost: Mapping[str, int]) -> "GameState":
        """The unit with its models' lost wounds set to ``lost`` (models not named: none)."""
        u = self.unit(unit_id)
        return self.with_unit(replace(u, wounds_lost=frozen_map({m: int(w) for m, w in lost.items() if w})))

    def snapshot(self) -> dict[str, Any]:
        """A JSON-ready picture of the state (the replay's ``final``)."""
        out: dict[str, Any] = {
            "units": [
                {
                    "id": u.id,
                    "side": u.side,
                    "models": [
                        {"id": m, "at": [round(self.figures[m].x, 6), round(self.figures[m].y, 6)]}
                        | ({"on": self.figures[m].on} if self.figures[m].on else {})
                        for m in u.models
                    ],
                    "removed": list(u.removed),
                    **({"wounds_lost": dict(sorted(u.wounds_lost.items()))} if u.wounds_lost else {}),
                    "damage": u.damage,
                    "status": sorted(u.status),
                }
                for u in self.units
            ]
        }
        if self.round is not None:
            out["round"] = self.round.as_json()
        return out
