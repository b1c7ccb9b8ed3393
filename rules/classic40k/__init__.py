"""Warhammer 40,000, 3rd edition (Assault)."""

from ..contact_engagement import engaged
from ..truelos import visibility_matrix, visible, visible_to_group

NAME = "classic40k"
ENGAGEMENT_RANGE = 0.0

__all__ = ["NAME", "ENGAGEMENT_RANGE", "engaged", "visible", "visibility_matrix", "visible_to_group"]
