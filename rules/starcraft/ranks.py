"""Who strikes in a Close Combat Attack: the Fighting and Supporting Rank (§8.8.1 step 2;
"Fighting multiple Units").

* **Fighting Rank**: models within 1" of an enemy model — Engaged with it under §7.2 (Size 2+
  terrain between, different levels and Flying models excepted). A model is in the Fighting
  Rank *against* every enemy unit with a model it engages.
* **Supporting Rank**: models not in the Fighting Rank but in base contact with a squadmate
  that is. A supporting model may attack each unit a squadmate it touches is in the Fighting
  Rank against.

Both strike; no line of sight is needed; a model attacks one enemy unit (one it may attack).

>>> # see tests/rules/test_melee.py for the rulebook's figure: A fighting, B supporting, C neither
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tapeline.board.measure import gap_matrix
from tapeline.board.units import TOUCH

from ..state import GameState
from .casualties import engaged_pairs


@dataclass(frozen=True)
class Ranks:
    """The unit's ranks: ``fighting`` model → enemy units it is in the Fighting Rank against;
    ``supporting`` model → the Fighting-Rank squadmates it is in base contact with."""

    unit: str
    fighting: dict[str, tuple[str, ...]] = field(default_factory=dict)
    supporting: dict[str, tuple[str, ...]] = field(default_factory=dict)
    order: tuple[str, ...] = ()

    @property
    def fighting_rank(self) -> list[str]:
        return [m for m in self.order if m in self.fighting]

    @property
    def supporting_rank(self) -> list[str]:
        return [m for m in self.order if m in self.supporting]

    @property
    def strikers(self) -> list[str]:
        return [m for m in self.order if m in self.fighting or m in self.supporting]

    def may_attack(self, model: str) -> tuple[str, ...]:
        """The enemy units ``model`` may attack (none if it is in neither rank)."""
        if model in self.fighting:
            return self.fighting[model]
        units: dict[str, None] = {}
        for mate in self.supporting.get(model, ()):
            units.update(dict.fromkeys(self.fighting[mate]))
        return tuple(units)

    @property
    def engaged_with(self) -> tuple[str, ...]:
        """Every enemy unit some model is in the Fighting Rank against (first-seen order)."""
        units: dict[str, None] = {}
        for m in self.fighting_rank:
            units.update(dict.fromkeys(self.fighting[m]))
        return tuple(units)


def ranks(state: GameState, unit_id: str) -> Ranks:
    """The Fighting and Supporting Rank of ``unit_id`` as the board stands (§8.8.1 step 2)."""
    u = state.unit(unit_id)
    fighting: dict[str, dict[str, None]] = {}
    order_units = {e.id: i for i, e in enumerate(state.units)}
    for a, b, _ in engaged_pairs(state, unit_id):
        fighting.setdefault(a, {})[state.unit_of(b).id] = None
    fighting_t = {m: tuple(sorted(v, key=order_units.__getitem__)) for m, v in fighting.items()}
    supporting: dict[str, tuple[str, ...]] = {}
    rest = [m for m in u.models if m not in fighting_t]
    front = [m for m in u.models if m in fighting_t]
    if rest and front:
        g = gap_matrix([state.figure(m) for m in rest], [state.figure(m) for m in front])
        for i, m in enumerate(rest):
            touching = [front[j] for j in np.nonzero(g[i] <= TOUCH)[0]]
            if touching:
                supporting[m] = tuple(touching)
    return Ranks(unit_id, fighting_t, supporting, tuple(u.models))
