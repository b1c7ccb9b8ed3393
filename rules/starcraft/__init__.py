"""StarCraft: Tabletop Miniatures Game (Archon Studio): Assault and Combat phases.

Section numbers in docstrings are the rulebook's.
"""

from . import activation
from .catalogue import catalogue, unit_profile
from .engagement import ENGAGEMENT_RANGE, engaged, units_engaged
from .visibility import high_ground_cover, visibility_matrix, visible, visible_to_group

NAME = "starcraft"

__all__ = ["NAME", "activation", "ENGAGEMENT_RANGE", "engaged", "units_engaged", "catalogue", "unit_profile",
           "visible", "visibility_matrix", "visible_to_group", "high_ground_cover"]
