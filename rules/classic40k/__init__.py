"""Warhammer 40,000, 3rd edition (Assault)."""

from ..contact_engagement import engaged

NAME = "classic40k"
ENGAGEMENT_RANGE = 0.0

__all__ = ["NAME", "ENGAGEMENT_RANGE", "engaged"]
