"""Units and the one tolerance.

Lengths on the board are inches; base sizes are printed in millimetres.
"""

MM_PER_INCH = 25.4

#: Two things closer than this (inches) are touching. Far below measuring precision, far
#: above float noise. Decide contact from distances, never from shapely's ``touches()``.
TOUCH = 1e-6


def mm_to_in(mm: float) -> float:
    """Millimetres to inches: ``mm_to_in(32) == 1.2598...``."""
    return mm / MM_PER_INCH
