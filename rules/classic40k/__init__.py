"""Warhammer 40,000, 3rd edition (Assault).

The names below are loaded on first use (:func:`tapeline.rules.systems.lazy_names`)."""

from typing import TYPE_CHECKING

from ..systems import lazy_names
from .engagement import FIGHT_DISTANCE, engaged

if TYPE_CHECKING:
    from ..truelos import visibility_matrix, visible, visible_to_group

NAME = "classic40k"
#: Models within 2" of an enemy model fight (seed "Who Can Fight").
ENGAGEMENT_RANGE = FIGHT_DISTANCE

__getattr__, __dir__ = lazy_names(__name__, {
    "visible": "..truelos", "visibility_matrix": "..truelos", "visible_to_group": "..truelos",
})

__all__ = ["NAME", "ENGAGEMENT_RANGE", "engaged", "visible", "visibility_matrix", "visible_to_group"]
