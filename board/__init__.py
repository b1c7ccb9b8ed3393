"""tapeline's rule-agnostic geometry: bases, terrain, the table, measuring, sight lines,
movement space and pictures. Nothing here knows a game's rules or dice."""

from .bases import OvalBase, RoundBase
from .errors import GeometryError, TapelineError
from .measure import Verdict, contact, far, gap, gap_matrix, wholly_within, within
from .table import Figure, Table
from .terrain import Piece
from .units import MM_PER_INCH, TOUCH, mm_to_in

__all__ = [
    "OvalBase", "RoundBase", "GeometryError", "TapelineError", "Verdict", "contact", "far", "gap",
    "gap_matrix", "wholly_within", "within", "Figure", "Table", "Piece", "MM_PER_INCH", "TOUCH",
    "mm_to_in",
]
