"""Warhammer: The Horus Heresy, 3rd edition (Assault phase)."""

from ..contact_engagement import engaged

NAME = "heresy"
ENGAGEMENT_RANGE = 0.0

__all__ = ["NAME", "ENGAGEMENT_RANGE", "engaged"]
