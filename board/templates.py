"""Templates: discs and teardrops on the table, and exactly which bases they cover.

**Shapes.** Every template is the convex hull of two circles whose centres lie on one axis:
near circle ``(p1, r1)``, far circle ``(p2, r2)``. A *disc* of radius ``R`` is the hull of a
circle with itself (``p1 = p2``, ``r1 = r2 = R``), placed by its centre. A *teardrop*
(``length L``, ``narrow`` diameter ``A``, ``wide`` diameter ``B``) is placed by its narrow tip
``t`` and an aim point: along the unit axis ``u`` from the tip, ``p1 = t + (A/2)·u`` (the near
circle touches the tip) and ``p2 = t + (L − B/2)·u`` (the far circle's far edge lies ``L`` from
the tip). Nothing is ever a polygon here: the template's support function is exact,

    ``h_T(θ) = max(n·p1 + r1, n·p2 + r2)``,  ``n = (cos θ, sin θ)``.

**Coverage.** A base ``B`` (centre ``q``, support ``h_B``, round or oval) against ``T``:

* ``overlap = −max_θ [n·q − h_B(θ) − h_T(θ)]`` — the depth to which the base and the template
  interpenetrate (the shortest move that separates them); negative: the gap between them.
  **Covered** iff ``overlap > TOUCH``: a base that only touches the outline is *not* covered.
* ``inside = min_θ [h_T(θ) − n·q − h_B(θ)]`` — how far the base could move in any direction and
  stay wholly under the template; negative: how far its farthest part sticks out. **Full** iff
  covered and ``inside ≥ −TOUCH`` (a base touching the outline from inside is wholly under).
* ``encloses = min_θ [n·q + h_B(θ) − h_T(θ)]`` — the same with the roles swapped (the
  template wholly over the base's area: a disc smaller than a large base).

For a round base of radius ``r`` at distance ``d`` from a disc's centre these are
``R + r − d``, ``R − d − r`` and ``r − d − R``: covered iff ``d < R + r``, full iff ``d + r ≤ R``.

**Exact, not sampled.** Each objective is the max or min over θ of a function that is smooth
except where the two circles' pieces of ``h_T`` swap (the two *crossing* normals, where
``n·(p2 − p1) = r1 − r2``: the template's straight edges). On each smooth piece the extremes
are where the base's outline has a normal through the piece's circle centre: for a round base
the line through both centres; for an oval, the normals from a point to an ellipse — the (at
most four) roots of ``(b² − a²) sin t cos t + a·u sin t − b·v cos t = 0`` in the ellipse's own
frame, a quartic in ``e^{it}`` solved as the eigenvalues of its companion matrix, batched over
every base and polished by Newton's method. The objectives are evaluated at every such
critical angle (an evaluation at *any* angle is a valid bound, so extra candidates are
harmless) and the extreme taken: exact to float precision, for every base in one numpy call.

>>> t = place(DiscDims(3.0), (10.0, 10.0))
>>> from tapeline.board.bases import RoundBase
>>> from tapeline.board.table import Figure
>>> c = coverage(t, [Figure("z1", "z", "zerg", RoundBase(25.4), 11.0, 10.0)])
>>> bool(c.full[0]), round(float(c.inside[0]), 6)        # 1" away, 0.5" radius: 1.5 − 1 − 0.5
(True, 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence, Union, cast

import numpy as np
import shapely
from numpy.typing import ArrayLike

from .arrays import Bools, Floats
from .bases import RoundBase
from .errors import GeometryError
from .table import Figure
from .units import TOUCH

Point = tuple[float, float]

#: Vertices per circle of the inscribed outline given in answers and pictures (the verdicts
#: never use it): chord error ``r(1 − cos(π/360))`` ≈ 4.8e-5" for the 2.5" end of a flamer.
OUTLINE_VERTICES = 360
#: Ovals closer to round than this (inches, ``|a − b|``) are measured as circles of radius
#: ``(a + b)/2``; the error is below it.
ROUND_EPS = 1e-9


# --- dimensions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiscDims:
    """A round template, ``diameter`` inches (Blast 3", Large Blast 5")."""

    diameter: float

    def check(self, name: str = "") -> "DiscDims":
        if not (math.isfinite(self.diameter) and self.diameter > 0):
            raise GeometryError(f"{_who(name)}diameter must be a positive number of inches, not {self.diameter}")
        return self

    def as_dict(self) -> dict[str, float]:
        return {"diameter": self.diameter}


@dataclass(frozen=True)
class TeardropDims:
    """A teardrop template: ``length`` from tip to far edge, ``narrow`` and ``wide`` end
    diameters (Flamer 8" × 0.75" × 2.5")."""

    length: float
    narrow: float
    wide: float

    def check(self, name: str = "") -> "TeardropDims":
        for k in ("length", "narrow", "wide"):
            v = getattr(self, k)
            if not (math.isfinite(v) and v > 0):
                raise GeometryError(f"{_who(name)}{k} must be a positive number of inches, not {v}")
        if self.narrow > self.wide:
            raise GeometryError(f"{_who(name)}narrow ({self.narrow:g}\") must not be wider than wide ({self.wide:g}\")")
        if self.length <= self.wide:
            raise GeometryError(f"{_who(name)}length ({self.length:g}\") must exceed the wide end ({self.wide:g}\"), "
                                "else the far circle swallows the tip")
        return self

    def as_dict(self) -> dict[str, float]:
        return {"length": self.length, "narrow": self.narrow, "wide": self.wide}


Dims = Union[DiscDims, TeardropDims]


def _who(name: str) -> str:
    return f"{name}: " if name else ""

#: The shapes every file knows (a file's ``settings.templates`` may override or add).
DEFAULT_SHAPES: dict[str, Dims] = {
    "blast": DiscDims(3.0),
    "large_blast": DiscDims(5.0),
    "flamer": TeardropDims(8.0, 0.75, 2.5),
}


def dims_from(spec: object) -> Dims:
    """Dimensions from a mapping: ``{diameter: D}`` or ``{length: L, narrow: A, wide: B}``
    (absent keys may be given as ``None``; or an object with those attributes); checked,
    :class:`GeometryError` if impossible."""

    def get(k: str) -> Any:  # (what the file gave: float() checks it)
        return spec.get(k) if hasattr(spec, "get") else getattr(spec, k, None)

    if get("diameter") is not None:
        if any(get(k) is not None for k in ("length", "narrow", "wide")):
            raise GeometryError("give either diameter (a disc) or length, narrow and wide (a teardrop), not both")
        return DiscDims(float(get("diameter"))).check()
    missing = [k for k in ("length", "narrow", "wide") if get(k) is None]
    if missing:
        raise GeometryError(f"a teardrop needs length, narrow and wide (missing: {', '.join(missing)}); a disc needs diameter")
    return TeardropDims(float(get("length")), float(get("narrow")), float(get("wide"))).check()


def shape_table(overrides: Optional[Mapping[str, object]] = None) -> dict[str, Dims]:
    """The shapes a file knows: :data:`DEFAULT_SHAPES` with ``overrides`` (name → mapping for
    :func:`dims_from`, e.g. a file's ``settings.templates``) applied."""
    out = dict(DEFAULT_SHAPES)
    for name, spec in (overrides or {}).items():
        out[name] = dims_from(spec)
    return out


# --- a placed template ------------------------------------------------------------------------


@dataclass(frozen=True)
class Template:
    """A template on the table: the hull of circles ``(p1, r1)`` and ``(p2, r2)``.

    ``tip`` and ``toward`` are kept for a teardrop (how it was placed); a disc has
    ``p1 == p2`` and ``r1 == r2``.
    """

    name: str
    kind: str  # "disc" | "teardrop"
    p1: Point
    r1: float
    p2: Point
    r2: float
    tip: Optional[Point] = None
    toward: Optional[Point] = None

    @property
    def centre(self) -> Point:
        """A disc's centre (a teardrop's near-circle centre)."""
        return self.p1

    @property
    def radius(self) -> float:
        return self.r1

    def support(self, theta: Floats) -> Floats:
        """Exact support function ``h_T(θ)``."""
        c, s = np.cos(theta), np.sin(theta)
        return cast(Floats, np.maximum(c * self.p1[0] + s * self.p1[1] + self.r1, c * self.p2[0] + s * self.p2[1] + self.r2))

    def outline(self, per_circle: int = OUTLINE_VERTICES) -> Floats:
        """Vertices of an inscribed polygon of the outline, counter-clockwise (pictures and
        answers only; every vertex lies on the exact outline)."""
        t = np.linspace(0.0, 2 * math.pi, per_circle, endpoint=False)
        ring = np.column_stack([np.cos(t), np.sin(t)])
        if self.kind == "disc":
            return np.asarray(self.p1) + self.r1 * ring
        # the straight edges' end points (where each edge touches its circle) belong to the outline:
        # with them no sample of a circle just short of an edge is taken for a vertex of the hull
        a = _crossing_angles(np.array([self.p1]), np.array([self.r1]), np.array([self.p2]), np.array([self.r2]))[0]
        n = np.column_stack([np.cos(a), np.sin(a)])
        pts = np.vstack([np.asarray(self.p1) + self.r1 * ring, np.asarray(self.p2) + self.r2 * ring,
                         np.asarray(self.p1) + self.r1 * n, np.asarray(self.p2) + self.r2 * n])
        hull = cast(shapely.Polygon, shapely.convex_hull(shapely.multipoints(pts)))  # (circles' points)
        xy = shapely.get_coordinates(hull.exterior)[:-1]
        return xy if hull.exterior.is_ccw else xy[::-1]

    def polygon(self, per_circle: int = OUTLINE_VERTICES) -> shapely.Polygon:
        """An inscribed polygon of the template (for drawing; verdicts use the exact outline)."""
        return shapely.Polygon(self.outline(per_circle))

    def as_dict(self, digits: int = 6) -> dict[str, object]:
        """The spec's answer: ``{shape, centre, radius}`` for a disc, ``{shape, polygon}`` for
        a teardrop (the inscribed outline), plus the exact circles it is the hull of."""

        def r(v: float) -> float:
            return round(float(v), digits)

        def xy(p: Union[Point, Floats]) -> list[float]:
            return [r(p[0]), r(p[1])]

        if self.kind == "disc":
            return {"shape": self.name, "kind": "disc", "centre": xy(self.p1), "radius": r(self.r1),
                    "diameter": r(2 * self.r1)}
        poly = [xy(p) for p in self.outline(72)]
        tip, toward = cast(Point, self.tip), cast(Point, self.toward)  # (a teardrop has both)
        return {"shape": self.name, "kind": "teardrop", "polygon": poly, "tip": xy(tip),
                "toward": xy(toward), "near": {"centre": xy(self.p1), "radius": r(self.r1)},
                "far": {"centre": xy(self.p2), "radius": r(self.r2)},
                "length": r(np.hypot(*np.subtract(self.p2, tip)) + self.r2)}


def place(dims: Dims, at: Point, toward: Optional[Point] = None, name: str = "template") -> Template:
    """Place a shape: a disc centred on ``at``; a teardrop with its narrow tip at ``at`` and its
    axis through ``toward``. Raises :class:`GeometryError` for impossible input."""
    at = _point(at, "at")
    if isinstance(dims, DiscDims):
        dims.check(name)
        if toward is not None:
            raise GeometryError(f"{name} is a disc: it is placed by its centre alone (no aim point)")
        r = dims.diameter / 2
        return Template(name, "disc", at, r, at, r)
    dims.check(name)
    if toward is None:
        raise GeometryError(f"{name} is a teardrop: give the aim point (toward) as well as the tip")
    toward = _point(toward, "toward")
    d = np.subtract(toward, at)
    n = float(np.hypot(*d))
    if not n > TOUCH:
        raise GeometryError(f"{name}: the aim point must differ from the tip (the axis has no direction)")
    return _teardrop(dims, at, d / n, name, toward)


def _teardrop(dims: TeardropDims, tip: Point, u: Floats, name: str, toward: Point) -> Template:
    r1, r2 = dims.narrow / 2, dims.wide / 2
    p1 = (tip[0] + r1 * u[0], tip[1] + r1 * u[1])
    p2 = (tip[0] + (dims.length - r2) * u[0], tip[1] + (dims.length - r2) * u[1])
    return Template(name, "teardrop", p1, r1, p2, r2, (float(tip[0]), float(tip[1])), (float(toward[0]), float(toward[1])))


def _point(p: Iterable[float], what: str) -> Point:
    try:
        x, y = (float(v) for v in p)
    except (TypeError, ValueError):
        raise GeometryError(f"{what} must be a point (x, y), not {p!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise GeometryError(f"{what} must be finite, not ({x}, {y})")
    return (x, y)


# --- coverage -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Coverage:
    """Coverage of a list of models by one template (arrays in the models' order)."""

    ids: tuple[str, ...]
    units: tuple[str, ...]
    covered: Bools
    full: Bools
    overlap: Floats
    inside: Floats
    encloses: Floats

    def margin(self, i: int) -> float:
        """The margin that decided model ``i``: how far it lies inside the outline when wholly
        under (``inside``), else how deep it overlaps (``overlap``; negative: the gap)."""
        return float(self.inside[i] if self.full[i] else self.overlap[i])

    def covered_ids(self) -> list[str]:
        return [m for m, c in zip(self.ids, self.covered) if c]

    def rows(self, digits: int = 9) -> list[dict[str, object]]:
        """``{model, unit, full, margin, overlap, inside}`` for each covered model, in order."""
        return [{"model": m, "unit": u, "full": bool(self.full[i]), "margin": round(self.margin(i), digits),
                 "overlap": round(float(self.overlap[i]), digits), "inside": round(float(self.inside[i]), digits)}
                for i, (m, u) in enumerate(zip(self.ids, self.units)) if self.covered[i]]

    def near_misses(self, within: float, digits: int = 9) -> list[dict[str, object]]:
        """``{model, unit, gap}`` for each model not covered whose base lies within ``within``
        inches of the outline (touching it: gap 0), nearest first."""
        rows = [(-float(self.overlap[i]), m, u) for i, (m, u) in enumerate(zip(self.ids, self.units))
                if not self.covered[i] and -self.overlap[i] <= within]
        return [{"model": m, "unit": u, "gap": round(max(g, 0.0), digits)} for g, m, u in sorted(rows)]


def bases_arrays(figs: Sequence[Figure]) -> tuple[Floats, Floats, Floats, Floats]:
    """Centres ``(n, 2)`` and ellipse semi-axes ``a``, ``b`` and facing ``φ`` (radians) of the
    bases (a round base has ``a = b = r``)."""
    q = np.array([f.at for f in figs], float).reshape(-1, 2)
    a = np.array([f.base.radius if isinstance(f.base, RoundBase) else f.base.a for f in figs], float)
    b = np.array([f.base.radius if isinstance(f.base, RoundBase) else f.base.b for f in figs], float)
    phi = np.array([0.0 if isinstance(f.base, RoundBase) else f.base.phi for f in figs], float)
    return q, a, b, phi


def coverage(template: Template, figs: Sequence[Figure]) -> Coverage:
    """Coverage of every base in ``figs`` by ``template``: one vectorised call."""
    q, a, b, phi = bases_arrays(figs)
    ov, ins, enc = margins(np.array([template.p1]), np.array([template.r1]), np.array([template.p2]),
                           np.array([template.r2]), q, a, b, phi)
    ov, ins, enc = ov[0], ins[0], enc[0]
    cov = ov > TOUCH
    return Coverage(tuple(f.id for f in figs), tuple(f.unit for f in figs), cov, cov & (ins >= -TOUCH), ov, ins, enc)


def margins(p1: ArrayLike, r1: ArrayLike, p2: ArrayLike, r2: ArrayLike, q: ArrayLike, a: ArrayLike, b: ArrayLike,
            phi: ArrayLike) -> tuple[Floats, Floats, Floats]:
    """``overlap``, ``inside`` and ``encloses`` for every template (rows: ``P`` templates given
    as arrays ``p1 (P, 2)``, ``r1 (P,)``, ``p2``, ``r2``) and every base (columns: ``N`` bases,
    centres ``q (N, 2)``, semi-axes ``a``, ``b``, facing ``phi``). Arrays of shape ``(P, N)``."""
    p1, p2 = np.asarray(p1, float).reshape(-1, 2), np.asarray(p2, float).reshape(-1, 2)
    r1, r2 = np.asarray(r1, float).reshape(-1), np.asarray(r2, float).reshape(-1)
    q = np.asarray(q, float).reshape(-1, 2)
    a, b, phi = (np.asarray(v, float).reshape(-1) for v in (a, b, phi))
    P, N = len(p1), len(q)
    i, j = np.divmod(np.arange(P * N), max(N, 1))
    ov, ins, enc = pair_margins(p1[i], r1[i], p2[i], r2[i], q[j], a[j], b[j], phi[j])
    return ov.reshape(P, N), ins.reshape(P, N), enc.reshape(P, N)


def verdicts(p1: ArrayLike, r1: ArrayLike, p2: ArrayLike, r2: ArrayLike, q: ArrayLike, a: ArrayLike, b: ArrayLike,
             phi: ArrayLike) -> tuple[Bools, Bools]:
    """``covered`` and ``full`` (booleans, ``(P, N)``) for every template × base, as
    :func:`margins` decides them, computing margins only for the pairs whose bounding circles
    meet (the others are neither)."""
    p1, p2 = np.asarray(p1, float).reshape(-1, 2), np.asarray(p2, float).reshape(-1, 2)
    r1, r2 = np.asarray(r1, float).reshape(-1), np.asarray(r2, float).reshape(-1)
    q = np.asarray(q, float).reshape(-1, 2)
    a, b, phi = (np.asarray(v, float).reshape(-1) for v in (a, b, phi))
    c = (p1 + p2) / 2
    half = np.hypot(p2[:, 0] - p1[:, 0], p2[:, 1] - p1[:, 1]) / 2
    rho = half + np.maximum(r1, r2)  # the template lies within rho of c
    reach = np.maximum(a, b)
    dx = q[None, :, 0] - c[:, 0, None]
    dy = q[None, :, 1] - c[:, 1, None]
    lim = rho[:, None] + reach[None, :]
    i, j = np.nonzero(dx * dx + dy * dy < lim * lim)
    covered = np.zeros((len(p1), len(q)), bool)
    full = np.zeros_like(covered)
    ov, ins, _ = pair_margins(p1[i], r1[i], p2[i], r2[i], q[j], a[j], b[j], phi[j])
    cov = ov > TOUCH
    covered[i, j] = cov
    full[i, j] = cov & (ins >= -TOUCH)
    return covered, full


def pair_margins(p1: Floats, r1: Floats, p2: Floats, r2: Floats, q: Floats, a: Floats, b: Floats,
                 phi: Floats) -> tuple[Floats, Floats, Floats]:
    """``overlap``, ``inside`` and ``encloses`` of ``M`` template–base pairs, given row by
    row (``p1 (M, 2)``, ``r1 (M,)``, ``p2``, ``r2``, ``q (M, 2)``, ``a``, ``b``, ``phi``)."""
    M = len(p1)
    out = [np.zeros(M) for _ in range(3)]
    if not M:
        return out[0], out[1], out[2]
    is_round = np.abs(a - b) <= ROUND_EPS
    k = np.nonzero(is_round)[0]
    if len(k):
        r = (a[k] + b[k]) / 2
        sd, far = _round_distances(p1[k], r1[k], p2[k], r2[k], q[k])
        out[0][k] = r - sd
        out[1][k] = -sd - r
        out[2][k] = r - far
    k = np.nonzero(~is_round)[0]
    if len(k):
        P1, R1, P2, R2, qq, A, B, PHI = p1[k], r1[k], p2[k], r2[k], q[k], a[k], b[k], phi[k]
        theta = np.concatenate([_crossing_angles(P1, R1, P2, R2)]
                               + [_normal_angles(p, qq, A, B, PHI) for p in (P1, P2)], axis=-1)  # (m, K)
        c, s = np.cos(theta), np.sin(theta)
        ht = np.maximum(c * P1[:, 0, None] + s * P1[:, 1, None] + R1[:, None],
                        c * P2[:, 0, None] + s * P2[:, 1, None] + R2[:, None])
        nq = c * qq[:, 0, None] + s * qq[:, 1, None]
        ca, sa = np.cos(PHI)[:, None], np.sin(PHI)[:, None]
        cl, sl = c * ca + s * sa, s * ca - c * sa  # cos(θ − φ), sin(θ − φ)
        hb = np.sqrt((A[:, None] * cl) ** 2 + (B[:, None] * sl) ** 2)
        out[0][k] = -np.max(nq - hb - ht, axis=-1)
        out[1][k] = np.min(ht - nq - hb, axis=-1)
        out[2][k] = np.min(nq + hb - ht, axis=-1)
    return out[0], out[1], out[2]


def _round_distances(p1: Floats, r1: Floats, p2: Floats, r2: Floats, q: Floats) -> tuple[Floats, Floats]:
    """Signed distance from each point ``q`` to its template (row by row) — negative inside:
    minus the distance to the outline — and the distance to the template's farthest point.

    ``sd = max_θ min_i [n·(q − p_i) − r_i]``: on each circle's piece the maximum is along
    ``q − p_i`` and the pieces meet at the two edge normals, so three regions decide, split by
    the normal lines at the edges' ends. In the template's frame (``ξ`` along the axis from
    ``p1``, ``η`` across it, ``D = |p2 − p1|``, ``sin γ = (r1 − r2)/D``) with
    ``k = ξ cos γ − |η| sin γ``: ``|q − p1| − r1`` when ``k < 0``, ``|q − p2| − r2`` when
    ``k > D cos γ``, else ``|η| cos γ + ξ sin γ − r1`` (the edge). A disc is ``|q − p1| − r1``.
    """
    x1, y1 = q[:, 0] - p1[:, 0], q[:, 1] - p1[:, 1]
    d1 = np.hypot(x1, y1)
    d2 = np.hypot(q[:, 0] - p2[:, 0], q[:, 1] - p2[:, 1])
    far = np.maximum(d1 + r1, d2 + r2)
    D = np.hypot(p2[:, 0] - p1[:, 0], p2[:, 1] - p1[:, 1])
    drop = D > 0
    if not drop.any():
        return d1 - r1, far
    Ds = np.where(drop, D, 1.0)
    ux, uy = (p2[:, 0] - p1[:, 0]) / Ds, (p2[:, 1] - p1[:, 1]) / Ds
    xi = x1 * ux + y1 * uy
    eta = np.abs(x1 * uy - y1 * ux)
    sg = np.where(drop, (r1 - r2) / Ds, 0.0)
    cg = np.sqrt(1.0 - sg * sg)
    k = xi * cg - eta * sg
    sd = np.where(k < 0, d1 - r1, np.where(k > D * cg, d2 - r2, eta * cg + xi * sg - r1))
    return np.where(drop, sd, d1 - r1), far


def _crossing_angles(p1: Floats, r1: Floats, p2: Floats, r2: Floats) -> Floats:
    """The two normals where the circles' pieces of ``h_T`` swap: ``n·(p2 − p1) = r1 − r2``
    (the straight edges of a teardrop; any two angles for a disc)."""
    d = p2 - p1
    D = np.hypot(d[:, 0], d[:, 1])
    alpha = np.arctan2(d[:, 1], d[:, 0])
    with np.errstate(invalid="ignore", divide="ignore"):
        beta = np.arccos(np.clip((r1 - r2) / np.where(D > 0, D, 1.0), -1.0, 1.0))
    beta = np.where(D > 0, beta, math.pi / 2)
    return np.column_stack([alpha + beta, alpha - beta])


def _normal_angles(p: Floats, q: Floats, a: Floats, b: Floats, phi: Floats) -> Floats:
    """Outward-normal angles (both signs) of the feet of the normals from each point ``p`` to
    its ellipse (row by row: centre ``q``, semi-axes ``a``, ``b``, facing ``phi``): ``(M, 8)``.

    In the ellipse's frame (``p − q`` rotated by ``−φ`` is ``(u, v)``) a foot ``(a cos t,
    b sin t)`` is where ``G(t) = (b² − a²) sin t cos t + a u sin t − b v cos t`` vanishes.
    Times ``4i·w²`` with ``w = e^{it}`` this is the quartic
    ``(b² − a²)(w⁴ − 1) + 2au(w³ − w) − 2ibv(w³ + w)``; its roots are eigenvalues of the
    companion matrix. Every root's angle is kept (a complex root only adds a harmless
    candidate) and polished by Newton steps on ``G``.
    """
    d = p - q
    cph, sph = np.cos(phi), np.sin(phi)
    u = d[:, 0] * cph + d[:, 1] * sph
    v = -d[:, 0] * sph + d[:, 1] * cph
    c4 = (b**2 - a**2).astype(complex)
    comp = np.zeros((len(p), 4, 4), complex)
    comp[:, 0, 0] = -(2 * a * u - 2j * b * v) / c4
    comp[:, 0, 2] = -(-2 * a * u - 2j * b * v) / c4
    comp[:, 0, 3] = 1.0  # −c0/c4 with c0 = a² − b² = −c4
    comp[:, 1, 0] = comp[:, 2, 1] = comp[:, 3, 2] = 1.0
    t = np.angle(np.linalg.eigvals(comp))  # (M, 4)
    k = (b**2 - a**2)[:, None]
    au, bv = (a * u)[:, None], (b * v)[:, None]
    for _ in range(3):
        g = k * np.sin(t) * np.cos(t) + au * np.sin(t) - bv * np.cos(t)
        dg = k * np.cos(2 * t) + au * np.cos(t) + bv * np.sin(t)
        step = np.where(np.abs(dg) > 1e-300, g / np.where(dg == 0, 1.0, dg), 0.0)
        t = t - np.clip(step, -0.1, 0.1)
    psi = np.arctan2(a[:, None] * np.sin(t), b[:, None] * np.cos(t)) + phi[:, None]
    return np.concatenate([psi, psi + math.pi], axis=-1)


# --- placing a teardrop flush with a base -------------------------------------------------------


def flush_teardrop(dims: TeardropDims, fig: Figure, toward: Point, name: str = "flamer") -> Template:
    """A teardrop aimed from ``fig``'s centre through ``toward``, slid along its axis until its
    narrow end just touches the base from outside (flush, not overlapping).

    A round base puts the tip on the base edge; for an oval the touching position is the root
    of the (convex in the slide) signed gap, found by bisection to 1e-12".
    """
    dims.check(name)
    toward = _point(toward, "toward")
    d = np.subtract(toward, fig.at)
    n = float(np.hypot(*d))
    if not n > TOUCH:
        raise GeometryError(f"{name}: the aim point is the firing model's centre (the axis has no direction)")
    u = d / n
    c = np.asarray(fig.at, float)
    if isinstance(fig.base, RoundBase):
        s = fig.base.radius
    else:
        q, a, b, phi = bases_arrays([fig])

        def gap(s: float) -> float:
            t = _teardrop(dims, tuple(c + s * u), u, name, toward)
            ov, _, _ = margins(np.array([t.p1]), np.array([t.r1]), np.array([t.p2]), np.array([t.r2]), q, a, b, phi)
            return -float(ov[0, 0])

        lo, hi = 0.0, fig.base.reach
        for _ in range(80):
            if hi - lo <= 1e-12:
                break
            mid = 0.5 * (lo + hi)
            if gap(mid) >= 0.0:
                hi = mid
            else:
                lo = mid
        s = hi
    return _teardrop(dims, tuple(c + s * u), u, name, toward)
