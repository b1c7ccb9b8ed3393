"""Who fights in a Warhammer 40,000 3rd edition close combat (seed "Who Can Fight", §B.2).

Every model **within 2" of an enemy model** takes part in the fighting — not just those in base
contact, and unlike Horus Heresy's "within 2" of a unit-mate in base contact"
(:mod:`tapeline.rules.contact_engagement`). Casualties are removed first from models in base
contact with the enemy, then from those fighting within 2" (seed "Removing Casualties").

>>> from tapeline.board.bases import RoundBase
>>> from tapeline.board.table import Figure
>>> a = Figure("a", "u", "red", RoundBase(25.4), 0, 0)
>>> b = Figure("b", "v", "blue", RoundBase(25.4), 2.5, 0)      # 1.5" edge to edge
>>> fights_with(a, b).ok, round(fights_with(a, b).margin, 6)
(True, 0.5)
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from tapeline.board.arrays import Floats
from tapeline.board.measure import Verdict, gap_matrix, within
from tapeline.board.table import Figure
from tapeline.board.units import TOUCH

from ..engagement import Engagement
from ..state import GameState

RULE = "40k 3rd Who Can Fight"
#: A model within this distance (edge to edge) of an enemy model fights.
FIGHT_DISTANCE = 2.0
#: Contact tolerance for "in base contact" when ordering casualties (as board.measure.contact).
CONTACT_TOL = 10 * TOUCH


def fights_with(a: Figure, b: Figure) -> Verdict:
    """``a`` is within 2" of ``b`` (with the margin)."""
    return within(a, b, FIGHT_DISTANCE)


def engaged(state: GameState, a: str, b: str) -> Engagement:
    """``a`` and ``b`` engage each other: models of opposing sides within 2" (base contact
    included)."""
    fa, fb = state.figure(a), state.figure(b)
    v = fights_with(fa, fb)
    if fa.side == fb.side:
        return Engagement(False, v, "same_side", "models of the same side never engage")
    if v.ok:
        return Engagement(True, v, None, v.explain("within 2\""))
    return Engagement(False, v, None, v.explain("within 2\""))


def _enemy_figures(state: GameState, unit_id: str, among: Iterable[str] | None) -> list[Figure]:
    side = state.unit(unit_id).side
    units = [state.unit(u) for u in among] if among is not None else state.units
    return [f for u in units if u.side != side for f in state.figures_of(u.id)]


def enemy_gaps(state: GameState, unit_id: str, among: Iterable[str] | None = None) -> tuple[list[Figure], list[Figure], Floats]:
    """(the unit's models, the enemy models, their gap matrix); ``among``: only these units."""
    mine = state.figures_of(unit_id)
    foes = _enemy_figures(state, unit_id, among)
    g = gap_matrix(mine, foes) if mine and foes else np.full((len(mine), len(foes)), np.inf)
    return mine, foes, g


def fighters(state: GameState, unit_id: str, among: Iterable[str] | None = None) -> list[str]:
    """The unit's models within 2" of an enemy model (of ``among`` when given), file order."""
    mine, foes, g = enemy_gaps(state, unit_id, among)
    if not foes:
        return []
    return [f.id for f, row in zip(mine, g) if row.min() <= FIGHT_DISTANCE + TOUCH]


def casualty_tiers(state: GameState, unit_id: str, among: Iterable[str] | None = None) -> tuple[list[str], list[str], list[str]]:
    """The unit's models as (in base contact with an enemy, fighting within 2", the rest), each
    in file order: the order in which close combat casualties are taken."""
    mine, foes, g = enemy_gaps(state, unit_id, among)
    best = g.min(axis=1) if foes else np.full(len(mine), np.inf)
    contact = [f.id for f, d in zip(mine, best) if d <= CONTACT_TOL]
    near = [f.id for f, d in zip(mine, best) if CONTACT_TOL < d <= FIGHT_DISTANCE + TOUCH]
    rest = [f.id for f, d in zip(mine, best) if d > FIGHT_DISTANCE + TOUCH]
    return contact, near, rest


def default_casualty_order(state: GameState, unit_id: str, among: Sequence[str] | None = None) -> list[str]:
    """Base contact first, then within 2", then the rest of the unit (each in file order)."""
    a, b, c = casualty_tiers(state, unit_id, among)
    return a + b + c
