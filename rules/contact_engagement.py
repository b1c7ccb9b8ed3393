"""Engagement by base contact: Horus Heresy 3rd edition's "Engaged" (§A.1).

A model is Engaged when it is in base contact with an enemy model, or within 2" of a model of
its own unit that is. The engagement *distance* is base contact; the 2" is the support
distance. (Warhammer 40,000 3rd edition differs: every model within 2" of an enemy model
fights, :mod:`tapeline.rules.classic40k.engagement`.)
"""

from __future__ import annotations

from tapeline.board.measure import Verdict, contact, within
from tapeline.board.table import Figure

from .engagement import Engagement
from .state import GameState

#: A model within this distance of a unit-mate in base contact with an enemy is Engaged.
SUPPORT_DISTANCE = 2.0


def in_contact_with_unit(state: GameState, fig: Figure, unit_id: str) -> bool:
    return any(contact(fig, f).ok or within(fig, f, 0).ok for f in state.figures_of(unit_id))


def engaged(state: GameState, a: str, b: str) -> Engagement:
    """``a`` and ``b`` engage each other: base contact, or one is within 2" of a model of its
    own unit that is in base contact with the other's unit (§A.1 "Engaged")."""
    fa, fb = state.figure(a), state.figure(b)
    touching = within(fa, fb, 0.0)
    if fa.side == fb.side:
        return Engagement(False, touching, "same_side", "models of the same side never engage")
    if touching.ok:
        return Engagement(True, touching)
    for me, them in ((fa, fb), (fb, fa)):
        for mate in state.figures_of(me.unit):
            if mate.id != me.id and in_contact_with_unit(state, mate, them.unit):
                v = within(me, mate, SUPPORT_DISTANCE)
                if v.ok:
                    return Engagement(True, touching, None, f"{me.id} is within 2\" of {mate.id}, in base contact ({v.explain('within 2')})")
    return Engagement(False, touching, None, touching.explain("in base contact"))
