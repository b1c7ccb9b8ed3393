"""Warhammer: The Horus Heresy, 3rd edition (Assault phase).

The names below are loaded on first use (:func:`tapeline.rules.systems.lazy_names`)."""

from typing import TYPE_CHECKING

from ..systems import lazy_names

if TYPE_CHECKING:
    from ..contact_engagement import engaged
    from ..truelos import visibility_matrix, visible, visible_to_group

NAME = "heresy"
ENGAGEMENT_RANGE = 0.0

__getattr__, __dir__ = lazy_names(__name__, {
    "engaged": "..contact_engagement", "visible": "..truelos", "visibility_matrix": "..truelos",
    "visible_to_group": "..truelos",
})

__all__ = ["NAME", "ENGAGEMENT_RANGE", "engaged", "visible", "visibility_matrix", "visible_to_group"]
