"""Warhammer 40,000, 3rd edition (Assault)."""

from .engagement import FIGHT_DISTANCE, engaged
from ..truelos import visibility_matrix, visible, visible_to_group

NAME = "classic40k"
#: Models within 2" of an enemy model fight (seed "Who Can Fight").
ENGAGEMENT_RANGE = FIGHT_DISTANCE

__all__ = ["NAME", "ENGAGEMENT_RANGE", "engaged", "visible", "visibility_matrix", "visible_to_group"]
