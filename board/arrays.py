"""The numpy array types board/ passes around, named by what they hold (for annotations).

Shapes are not part of numpy's static types; each function's docstring says them (``(n, 2)``
points, ``(n, 2, 2)`` segments ...).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

#: Coordinates, lengths, angles, margins.
Floats = NDArray[np.float64]
#: Indices and counts.
Ints = NDArray[np.intp]
#: Masks and verdicts.
Bools = NDArray[np.bool_]
#: shapely geometries, as shapely's vectorised functions take and give them.
Geoms = NDArray[np.object_]
