"""StarCraft: Tabletop Miniatures Game (Archon Studio): Assault and Combat phases.

Section numbers in docstrings are the rulebook's. The names below are loaded on first use
(:func:`tapeline.rules.systems.lazy_names`).
"""

from typing import TYPE_CHECKING

from ..systems import lazy_names
from .catalogue import catalogue, unit_profile

if TYPE_CHECKING:
    from . import activation
    from .engagement import ENGAGEMENT_RANGE, engaged, units_engaged
    from .visibility import high_ground_cover, visibility_matrix, visible, visible_to_group

NAME = "starcraft"

__getattr__, __dir__ = lazy_names(__name__, {
    "activation": ".activation", "ENGAGEMENT_RANGE": ".engagement", "engaged": ".engagement",
    "units_engaged": ".engagement", "visible": ".visibility", "visibility_matrix": ".visibility",
    "visible_to_group": ".visibility", "high_ground_cover": ".visibility",
})

__all__ = ["NAME", "activation", "ENGAGEMENT_RANGE", "engaged", "units_engaged", "catalogue", "unit_profile",
           "visible", "visibility_matrix", "visible_to_group", "high_ground_cover"]
