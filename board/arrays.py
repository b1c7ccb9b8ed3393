"""The numpy array types board/ passes around, named by what they hold (for annotations).

Shapes are not part of numpy's static types; each function's docstring says them (``(n, 2)``
points, ``(n, 2, 2)`` segments ...).
"""

from __future__ import annotations

from typing import Any

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


def lengths(v: Floats) -> Floats:
    """The lengths of the 2-vectors ``v[:, 0], v[:, 1]`` (``(n, 2, ...)``): the same floats as
    ``np.linalg.norm(v, axis=1)`` (which sums the two squares in this order), at a fraction of
    its cost per call — the sight passes make hundreds of calls on a few rows each."""
    out: Floats = np.sqrt(v[:, 0] * v[:, 0] + v[:, 1] * v[:, 1])
    return out


def copies(x: NDArray[Any], k: int) -> NDArray[Any]:
    """``k`` copies of ``x``'s rows, one after the other: ``np.tile`` along the first axis,
    without its cost per call (which the sight passes pay hundreds of times on a few rows)."""
    return np.concatenate([x] * k)
