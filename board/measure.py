"""Exact measuring between bases, points and regions, each verdict with its margin.

All distances are horizontal, edge to edge, in inches. Round bases are measured analytically
(``|c1 − c2| − r1 − r2``). Any pair of convex shapes (ovals included) is measured through
their support functions:

* gap (signed: negative is the overlap depth, the shortest push that separates them)
  ``gap(A, B) = max_θ [ n(θ)·(cB − cA) − hA(θ) − hB(θ) ]``
* reach (how far the farthest point of A lies from B; 0 when A is inside B)
  ``far(A, B) = max(0, max_θ [ n(θ)·(cA − cB) + hA(θ) − hB(θ) ])``

a one-dimensional maximisation done on a fine grid and refined by golden-section search to
far below 1e-9" (the stated accuracy for ovals is 1e-4").

>>> from tapeline.board.bases import RoundBase
>>> a = Figure("a", "u", "s", RoundBase(32), 0, 0)
>>> b = Figure("b", "v", "t", RoundBase(32), 3, 0)
>>> round(gap(a, b), 6)
1.740157
>>> within(a, b, 2).margin > 0
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Optional, Sequence, Union, cast

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from .arrays import Floats, Geoms
from .bases import POINT, OvalBase, PointShape, RoundBase
from .table import Figure
from .units import TOUCH

if TYPE_CHECKING:  # (a name for annotations only: typing has it from Python 3.13)
    from typing_extensions import TypeIs

_GRID = np.linspace(0.0, 2 * math.pi, 1440, endpoint=False)
_STEP = _GRID[1]
_PHI = (math.sqrt(5) - 1) / 2

Point = tuple[float, float]
Target = Union[Figure, Point, BaseGeometry]
#: What the support functions are taken of: a base, or a point (:data:`board.bases.POINT`).
Shape = Union[RoundBase, OvalBase, PointShape]


@dataclass(frozen=True)
class Verdict:
    """A yes/no answer that depends on a distance.

    ``value`` is the measured distance, ``limit`` the threshold it is compared with and
    ``margin`` how far inside (positive) or outside (negative) the threshold it is.
    """

    ok: bool
    value: float
    limit: float
    margin: float

    def __bool__(self) -> bool:
        return self.ok

    @staticmethod
    def at_most(value: float, limit: float) -> "Verdict":
        return Verdict(value <= limit + TOUCH, value, limit, limit - value)

    def explain(self, what: str) -> str:
        if self.ok:
            return f"{what} by {abs(self.margin):.6g}\""
        return f"not {what}: {abs(self.margin):.6g}\" too far"


def _maximise(f: Callable[[Floats], Floats]) -> float:
    """Maximum of a smooth-enough 2π-periodic ``f(theta_array)``: grid, then golden section."""
    vals = f(_GRID)
    i = int(np.argmax(vals))
    a, b = _GRID[i] - _STEP, _GRID[i] + _STEP
    c, d = b - _PHI * (b - a), a + _PHI * (b - a)
    fc, fd = f(np.array([c]))[0], f(np.array([d]))[0]
    for _ in range(50):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - _PHI * (b - a)
            fc = f(np.array([c]))[0]
        else:
            a, c, fc = c, d, fd
            d = a + _PHI * (b - a)
            fd = f(np.array([d]))[0]
    return float(max(vals[i], fc, fd))


def _shape_and_centre(t: Union[Figure, Point]) -> tuple[Shape, Floats]:
    if isinstance(t, Figure):
        return t.base, np.array(t.at, dtype=float)
    return POINT, np.array(t, dtype=float)


def _is_point(t: object) -> TypeIs[Point]:
    return isinstance(t, tuple) or (isinstance(t, (list, np.ndarray)) and len(t) == 2)


def _radius_or_none(shape: Shape) -> Optional[float]:
    """The radius of a round base or a point (0), or ``None`` for an oval."""
    if isinstance(shape, RoundBase):
        return shape.radius
    return 0.0 if shape is POINT else None


def _support_extreme(a: Union[Figure, Point], b: Union[Figure, Point], sign: float) -> float:
    """``max_θ [ n(θ)·(cB − cA) − hA(θ) + sign·hB(θ) ]`` with the round case in closed form.

    ``sign = −1`` gives the signed gap of A and B; ``sign = +1`` with A and B swapped gives
    how far the farthest point of B lies from A (see the module docstring).
    """
    sa, ca = _shape_and_centre(a)
    sb, cb = _shape_and_centre(b)
    ra, rb = _radius_or_none(sa), _radius_or_none(sb)
    if ra is not None and rb is not None:
        return float(math.hypot(*(cb - ca)) - ra + sign * rb)
    return _oval_extreme(sa, tuple(ca.tolist()), sb, tuple(cb.tolist()), sign)


#: :func:`_oval_extreme`'s bound: the answers it remembers.
OVAL_EXTREMES_KEPT = 1 << 14


@lru_cache(maxsize=OVAL_EXTREMES_KEPT)
def _oval_extreme(sa: Shape, ca: tuple[float, ...], sb: Shape, cb: tuple[float, ...], sign: float) -> float:
    """:func:`_support_extreme` where an oval is involved: a numerical maximisation, so it is
    remembered (shapes and centres are values; rules ask about the same pairs many times, e.g.
    once per casualty). At most :data:`OVAL_EXTREMES_KEPT` answers, about 400 bytes each (7 MB
    in all), the least recently used forgotten first; safe from several threads
    (``functools.lru_cache`` keeps itself consistent; two threads asking at once may each work
    the same answer out)."""
    d = np.array(cb, dtype=float) - np.array(ca, dtype=float)
    return _maximise(lambda t: np.cos(t) * d[0] + np.sin(t) * d[1] - sa.support(t) + sign * sb.support(t))


def gap(a: Union[Figure, Point], b: Target) -> float:
    """Signed edge-to-edge distance: 0 when touching, negative = overlap depth."""
    if not isinstance(b, Figure) and not _is_point(b):
        return region_gap(a, b)
    return _support_extreme(a, b, -1.0)


def far(a: Union[Figure, Point], b: Target) -> float:
    """Distance from the farthest point of ``a`` to ``b`` (0 when ``a`` lies inside ``b``).

    ``a`` is wholly within X of ``b`` exactly when ``far(a, b) ≤ X``.
    """
    if not isinstance(b, Figure) and not _is_point(b):
        return region_far(a, b)
    return max(0.0, _support_extreme(b, a, +1.0))


def _polygon_of(a: Union[Figure, Point]) -> BaseGeometry:
    return a.polygon if isinstance(a, Figure) else shapely.Point(*a)


def region_gap(a: Union[Figure, Point], region: BaseGeometry) -> float:
    """Signed gap from a base (or point) to a region such as a terrain footprint.

    Round bases are exact for polygonal regions; ovals use their fine inscribed polygon. When
    they overlap, the value is minus the overlap depth: how deep the base reaches into the
    region (or the region into the base, whichever is deeper).
    """
    if _is_point(a) or (isinstance(a, Figure) and isinstance(a.base, RoundBase)):
        c = shapely.Point(*(a if _is_point(a) else a.at))
        r = 0.0 if _is_point(a) else cast(RoundBase, a.base).radius  # (round: tested above)
        if shapely.contains(region, c):
            return float(-shapely.distance(c, region.boundary) - r)
        return float(shapely.distance(c, region) - r)
    poly = a.polygon
    if not shapely.intersects(poly, region):
        return float(shapely.distance(poly, region))
    pts = cast(Geoms, shapely.points(shapely.get_coordinates(poly)))
    inside = shapely.contains(region, pts)
    depth = float(np.max(shapely.distance(pts[inside], region.boundary))) if inside.any() else 0.0
    rpts = cast(Geoms, shapely.points(shapely.get_coordinates(region.boundary)))
    rin = shapely.contains(poly, rpts)
    if rin.any():
        depth = max(depth, float(np.max(shapely.distance(rpts[rin], poly.boundary))))
    return -depth


def region_far(a: Union[Figure, Point], region: BaseGeometry) -> float:
    """Distance from the farthest point of a base's outline to a region (0 if inside it)."""
    if _is_point(a):
        return float(shapely.distance(shapely.Point(*a), region))
    base, (x, y) = a.base, a.at
    centre = shapely.Point(x, y)
    if shapely.contains(region, centre) and shapely.distance(centre, region.boundary) >= base.reach:
        # every point of the outline lies within ``reach`` of the centre, so inside the region:
        # each of the distances maximised below is exactly 0 (the answer whenever a model
        # stands wholly on a piece, asked for every model on terrain)
        return 0.0

    def f(t: Floats) -> Floats:
        pts = _outline_points(base, x, y, t)
        return cast(Floats, shapely.distance(shapely.points(pts), region))

    return max(0.0, _maximise(f))


def _outline_points(base: Union[RoundBase, OvalBase], x: float, y: float, t: Floats) -> Floats:
    """Points of the base outline at parameter ``t`` (angle for round bases)."""
    if isinstance(base, RoundBase):
        return np.column_stack([x + base.radius * np.cos(t), y + base.radius * np.sin(t)])
    u, v = base.a * np.cos(t), base.b * np.sin(t)
    cp, sp = math.cos(base.phi), math.sin(base.phi)
    return np.column_stack([x + u * cp - v * sp, y + u * sp + v * cp])


# --- verdicts -------------------------------------------------------------------------------


def contact(a: Figure, b: Figure) -> Verdict:
    """Base contact: the gap is zero within the touching tolerance (1e-6")."""
    g = gap(a, b)
    return Verdict(abs(g) <= TOUCH, g, 0.0, -abs(g))


def within(a: Union[Figure, Point], target: Target, x: float) -> Verdict:
    """Within X: some part of ``a``'s base is within ``x`` inches of ``target``."""
    return Verdict.at_most(gap(a, target), x)


def wholly_within(a: Union[Figure, Point], target: Target, x: float) -> Verdict:
    """Wholly within X: every part of ``a``'s base is within ``x`` inches of ``target``."""
    return Verdict.at_most(far(a, target), x)


def unit_within(figs: Sequence[Figure], target: Target, x: float) -> Verdict:
    """A unit is within X when at least one of its models is (the closest one decides)."""
    return min((within(f, target, x) for f in figs), key=lambda v: v.value)


def unit_wholly_within(figs: Sequence[Figure], target: Target, x: float) -> Verdict:
    """A unit is wholly within X only when every model is (the farthest one decides)."""
    return max((wholly_within(f, target, x) for f in figs), key=lambda v: v.value)


# --- matrices -------------------------------------------------------------------------------


def gap_matrix(a: Sequence[Figure], b: Sequence[Figure], upto: float = math.inf) -> Floats:
    """Signed gaps between every model of ``a`` (rows) and of ``b`` (columns).

    Round bases are done in one numpy expression; pairs involving an oval fall back to the
    support-function maximisation. With ``upto`` (for callers that only compare the gaps, or
    their minimum, with ``upto`` or less), a pair involving an oval whose bases certainly lie
    farther apart — their centres farther apart than ``upto`` plus both bases' reach — gets that
    lower bound, a value above ``upto``, instead of its exact gap.
    """
    ca = np.array([f.at for f in a], dtype=float).reshape(-1, 2)
    cb = np.array([f.at for f in b], dtype=float).reshape(-1, 2)
    ra = np.array([f.base.radius if isinstance(f.base, RoundBase) else np.nan for f in a])
    rb = np.array([f.base.radius if isinstance(f.base, RoundBase) else np.nan for f in b])
    centres: Floats = np.linalg.norm(ca[:, None, :] - cb[None, :, :], axis=2)
    out: Floats = centres - ra[:, None] - rb[None, :]
    for i, j in zip(*np.nonzero(np.isnan(out))):
        bound = float(centres[i, j]) - a[i].base.reach - b[j].base.reach
        out[i, j] = bound if bound > upto else gap(a[i], b[j])
    return out


def centre_distance_matrix(a: Sequence[Figure], b: Sequence[Figure]) -> Floats:
    ca = np.array([f.at for f in a], dtype=float).reshape(-1, 2)
    cb = np.array([f.at for f in b], dtype=float).reshape(-1, 2)
    return cast(Floats, np.linalg.norm(ca[:, None, :] - cb[None, :, :], axis=2))
