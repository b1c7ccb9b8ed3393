"""board/templates.py at its edges: what the module's mutants showed the other tests left open
(tests/mutate.py). Each outcome is worked out by hand, or by brute force over the definitions
in the module's notes — the support functions sampled on a fine grid of directions, with no
critical angle, quartic or Newton step."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tapeline.board.bases import OvalBase, RoundBase
from tapeline.board.table import Figure
from tapeline.board.templates import DiscDims, TeardropDims, coverage, margins, place, verdicts

R25 = 12.5 / 25.4          # a 25 mm base's radius
FLAMER = TeardropDims(8.0, 0.75, 2.5)


def fig(x, y, base=None, mid="m"):
    return Figure(mid, "u", "zerg", base or RoundBase(25.0), float(x), float(y))


def _verdicts(t, figs):
    q = np.array([f.at for f in figs], float)
    a = np.array([f.base.radius if isinstance(f.base, RoundBase) else f.base.a for f in figs])
    b = np.array([f.base.radius if isinstance(f.base, RoundBase) else f.base.b for f in figs])
    phi = np.array([0.0 if isinstance(f.base, RoundBase) else f.base.phi for f in figs])
    cov, full = verdicts([t.p1], [t.r1], [t.p2], [t.r2], q, a, b, phi)
    return cov[0], full[0]


# --- a base by the far end of a Flamer --------------------------------------------------------


def test_verdicts_see_a_base_by_the_far_end_of_a_flamer():
    # tip (10, 10), aimed along (0.6, 0.8): the far edge is 8" out, at (14.8, 16.4); the far
    # circle (radius 1.25) is centred 6.75" out. A 25 mm base centred 8.4" out is 1.65" from
    # that centre: it overlaps by 1.25 + 0.492 − 1.65 = 0.092" (covered, not wholly); 8.5" out
    # it is 1.75" away: a gap of 0.0079" (not covered). 4" out on the axis it is wholly under.
    t = place(FLAMER, (10.0, 10.0), (13.0, 14.0))
    u = np.array([0.6, 0.8])
    at = lambda s: tuple(np.array([10.0, 10.0]) + s * u)  # noqa: E731
    figs = [fig(*at(8.4)), fig(*at(8.5)), fig(*at(4.0)), fig(*at(-0.4)), fig(*at(-0.6))]
    cov, full = _verdicts(t, figs)
    # behind the tip: the near circle (radius 0.375, centred 0.375" out) is 0.775" from a base
    # 0.4" behind (overlap 0.375 + 0.492 − 0.775 = 0.092), 0.975" from one 0.6" behind (a gap)
    assert cov.tolist() == [True, False, True, True, False]
    assert full.tolist() == [False, False, True, False, False]
    c = coverage(t, figs)
    assert c.overlap[0] == pytest.approx(1.25 + R25 - 1.65, abs=1e-9)
    assert c.overlap[1] == pytest.approx(1.25 + R25 - 1.75, abs=1e-9)
    assert c.overlap[3] == pytest.approx(0.375 + R25 - 0.775, abs=1e-9)
    # the verdicts are the margins' own: covered iff overlap > 1e-6, full iff inside ≥ −1e-6
    assert cov.tolist() == (c.overlap > 1e-6).tolist() and full.tolist() == c.full.tolist()


def test_verdicts_of_many_templates_and_bases_at_once():
    # three Blasts (radius 1.5) at x = 0, 10, 20 and bases along y = 0 at x = 1.9, 12.1, 21.0:
    # a base covers only the template within 1.5 + 0.492 of its centre
    ts = [place(DiscDims(3.0), (x, 0.0)) for x in (0.0, 10.0, 20.0)]
    q = np.array([[1.9, 0.0], [12.1, 0.0], [21.0, 0.0]])
    r = np.full(3, R25)
    cov, full = verdicts([t.p1 for t in ts], [t.r1 for t in ts], [t.p2 for t in ts], [t.r2 for t in ts], q, r, r, np.zeros(3))
    assert cov.tolist() == [[True, False, False], [False, False, False], [False, False, True]]
    # 21.0: 1.0 + 0.492 ≤ 1.5: wholly under; 1.9: 1.9 + 0.492 > 1.5: partly
    assert full.tolist() == [[False, False, False], [False, False, False], [False, False, True]]


# --- margins: signs and the round-base formulas --------------------------------------------------


def test_the_margins_of_a_round_base_against_a_disc_by_hand():
    # a disc of radius R = 2.5, a base of radius r = 0.492 at distance d: overlap R + r − d,
    # inside R − d − r, encloses r − d − R (the module's notes)
    t = place(DiscDims(5.0), (0.0, 0.0))
    for d in (0.0, 1.0, 2.0, 2.9, 3.5):
        c = coverage(t, [fig(d * 0.8, d * 0.6)])
        assert c.overlap[0] == pytest.approx(2.5 + R25 - d, abs=1e-12)
        assert c.inside[0] == pytest.approx(2.5 - d - R25, abs=1e-12)
        assert c.encloses[0] == pytest.approx(R25 - d - 2.5, abs=1e-12)
        full = d + R25 <= 2.5
        assert bool(c.full[0]) == full and bool(c.covered[0]) == (d < 2.5 + R25)
        # the margin that decided: inside when wholly under, else the overlap
        assert c.margin(0) == pytest.approx(2.5 - d - R25 if full else 2.5 + R25 - d, abs=1e-12)


def test_the_margins_of_a_round_base_against_a_flamer_by_hand():
    # along the axis beyond the far end, round the near end, and off an edge: tip (0, 0) along
    # +x. The edge: sin γ = (r1 − r2)/D = (0.375 − 1.25)/6.375; a point at (ξ, η) with
    # k = ξ cos γ − |η| sin γ between 0 and D cos γ is |η| cos γ + ξ sin γ − r1 from the outline
    t = place(FLAMER, (0.0, 0.0), (1.0, 0.0))
    D = 6.375
    sg = (0.375 - 1.25) / D
    cg = math.sqrt(1 - sg * sg)
    for x, y, want in ((9.0, 0.0, 9.0 - 6.75 - 1.25), (-1.0, 0.0, 1.375 - 0.375)):
        c = coverage(t, [fig(x, y)])
        assert c.overlap[0] == pytest.approx(R25 - want, abs=1e-12), (x, y)
    for xi, eta in ((3.0, 2.0), (5.0, -2.5), (2.0, 0.9), (0.375, -2.0)):
        x1 = xi - 0.375                       # ξ from p1
        assert 0 < x1 * cg - abs(eta) * sg < D * cg
        sd = abs(eta) * cg + x1 * sg - 0.375
        c = coverage(t, [fig(xi, eta)])
        assert c.overlap[0] == pytest.approx(R25 - sd, abs=1e-12), (xi, eta)
        assert c.inside[0] == pytest.approx(-sd - R25, abs=1e-12), (xi, eta)


# --- oval bases: the margins by brute force over the directions ---------------------------------

THETA = np.linspace(0.0, 2 * math.pi, 400_001)
C, S = np.cos(THETA), np.sin(THETA)


def _brute(p1, r1, p2, r2, q, a, b, phi):
    """overlap, inside, encloses from their definitions (module notes), sampled at 400,001
    directions: h_T the larger of the two circles' supports, h_B the ellipse's
    sqrt((a cos(θ−φ))² + (b sin(θ−φ))²); refined once around the best sample."""
    def objectives(c, s):
        ht = np.maximum(c * p1[0] + s * p1[1] + r1, c * p2[0] + s * p2[1] + r2)
        cl, sl = c * math.cos(phi) + s * math.sin(phi), s * math.cos(phi) - c * math.sin(phi)
        hb = np.sqrt((a * cl) ** 2 + (b * sl) ** 2)
        nq = c * q[0] + s * q[1]
        return nq - hb - ht, ht - nq - hb, nq + hb - ht

    out = []
    for k, sign in ((0, 1), (1, -1), (2, -1)):
        f = objectives(C, S)[k] * sign
        i = int(np.argmax(f))
        fine = THETA[i] + np.linspace(-2e-5, 2e-5, 4001)
        g = objectives(np.cos(fine), np.sin(fine))[k] * sign
        best = float(g.max())
        out.append(-best if k == 0 else sign * best)
    return out


def _cases(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        a, b = rng.uniform(0.5, 1.6), rng.uniform(0.3, 1.0)
        phi = rng.uniform(-math.pi, math.pi)
        if rng.random() < 0.5:
            t = place(DiscDims(rng.choice([3.0, 5.0])), (10.0, 10.0))
        else:
            t = place(FLAMER, (10.0, 10.0), (10.0 + rng.uniform(-1, 1), 10.0 + rng.uniform(-1, 1)))
        # centres from inside the template to well outside it
        x, y = t.p1[0] + rng.uniform(-5.0, 9.0), t.p1[1] + rng.uniform(-5.0, 9.0)
        yield t, (x, y), a, b, phi


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_oval_margins_equal_the_brute_force_over_directions(seed):
    for t, q, a, b, phi in _cases(seed, 12):
        ov, ins, enc = margins([t.p1], [t.r1], [t.p2], [t.r2], [q], [a], [b], [phi])
        want = _brute(t.p1, t.r1, t.p2, t.r2, q, a, b, phi)
        got = [float(ov[0, 0]), float(ins[0, 0]), float(enc[0, 0])]
        assert got == pytest.approx(want, abs=1e-7), (t.kind, q, a, b, phi)


def test_an_oval_on_its_axes_by_hand():
    # a 60 × 35 mm oval (semi-axes 1.1811", 0.6890") facing along x, 3" from a Large Blast's
    # centre (radius 2.5) along its long axis: overlap 2.5 + 1.1811 − 3 = 0.6811"; along its
    # short axis: 2.5 + 0.6890 − 3; turned 90°: the other way round
    a, b = 30 / 25.4, 17.5 / 25.4
    t = place(DiscDims(5.0), (0.0, 0.0))
    for phi, (x, y), want in ((0.0, (3.0, 0.0), 2.5 + a - 3), (0.0, (0.0, 3.0), 2.5 + b - 3),
                              (math.pi / 2, (3.0, 0.0), 2.5 + b - 3), (math.pi / 2, (0.0, -3.0), 2.5 + a - 3)):
        c = coverage(t, [Figure("o", "u", "zerg", OvalBase(60.0, 35.0, math.degrees(phi)), x, y)])
        assert float(c.overlap[0]) == pytest.approx(want, abs=1e-9), (phi, x, y)


# --- the teardrop's outline -----------------------------------------------------------------------


def test_the_flamer_outline_lies_on_the_exact_outline_and_spans_it():
    # every vertex is on one of the two circles, at a point whose outward normal n there holds
    # that circle's piece of the support (n·p_i + r_i ≥ the other's): on the hull's boundary;
    # the outline runs counter-clockwise, from the tip (0" along the axis) to the far edge (8")
    # and 1.25" to either side; its area is the hull's, ½∮(h² − h'²)dθ, less the chords' loss
    t = place(FLAMER, (2.0, 3.0), (5.0, 7.0))
    u = np.array([0.6, 0.8])
    v = t.outline()
    p1, p2 = np.array(t.p1), np.array(t.p2)
    for x in v:
        d1, d2 = np.linalg.norm(x - p1), np.linalg.norm(x - p2)
        assert min(abs(d1 - 0.375), abs(d2 - 1.25)) < 1e-9
        p, r, o, ro = (p1, 0.375, p2, 1.25) if abs(d1 - 0.375) < abs(d2 - 1.25) else (p2, 1.25, p1, 0.375)
        n = (x - p) / r
        assert n @ p + r >= n @ o + ro - 1e-9
    xs = (v - np.array([2.0, 3.0])) @ u
    ys = (v - np.array([2.0, 3.0])) @ np.array([-0.8, 0.6])
    assert xs.min() == pytest.approx(0.0, abs=1e-4) and xs.max() == pytest.approx(8.0, abs=1e-4)
    assert ys.min() == pytest.approx(-1.25, abs=1e-4) and ys.max() == pytest.approx(1.25, abs=1e-4)
    x, y = v[:, 0], v[:, 1]
    area = 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    assert area > 0                                                   # counter-clockwise
    th = np.linspace(0, 2 * math.pi, 2_000_001)
    c, s = np.cos(th), np.sin(th)
    h1, h2 = c * p1[0] + s * p1[1] + 0.375, c * p2[0] + s * p2[1] + 1.25
    one = h1 >= h2
    h = np.where(one, h1, h2)
    dh = np.where(one, -s * p1[0] + c * p1[1], -s * p2[0] + c * p2[1])
    exact = 0.5 * float(np.trapezoid(h * h - dh * dh, th))
    assert area == pytest.approx(exact, rel=2e-4) and area < exact
    # a disc's outline: 360 points on its circle
    d = place(DiscDims(3.0), (1.0, 1.0)).outline()
    assert len(d) == 360 and np.allclose(np.hypot(d[:, 0] - 1, d[:, 1] - 1), 1.5)


# --- batches: several templates, one base; discs and teardrops together ---------------------------


def test_margins_of_several_templates_against_one_base_and_a_mixed_batch():
    # a Blast (radius 1.5) at (0, 0) and a Flamer from (0, 5) along +x, one base at (1, 0):
    # the Blast overlaps it by 1.5 + 0.492 − 1 = 0.992; from the Flamer it is off an edge
    # (ξ = 0.625 from the near circle's centre, |η| = 5): |η| cos γ + ξ sin γ − r1 away
    blast, flamer = place(DiscDims(3.0), (0.0, 0.0)), place(FLAMER, (0.0, 5.0), (1.0, 5.0))
    ts = (blast, flamer)
    ov, ins, enc = margins([t.p1 for t in ts], [t.r1 for t in ts], [t.p2 for t in ts], [t.r2 for t in ts], [(1.0, 0.0)], [R25], [R25], [0.0])
    assert ov.shape == (2, 1)
    assert ov[0, 0] == pytest.approx(1.5 + R25 - 1.0, abs=1e-12)
    sg = (0.375 - 1.25) / 6.375
    edge = 5.0 * math.sqrt(1 - sg * sg) + 0.625 * sg - 0.375
    assert ov[1, 0] == pytest.approx(R25 - edge, abs=1e-12)
    assert ins[0, 0] == pytest.approx(1.5 - 1.0 - R25, abs=1e-12) and enc[0, 0] == pytest.approx(R25 - 1.0 - 1.5, abs=1e-12)
    # two bases, the disc and the teardrop in one batch: each keeps its own formula
    ov, _, _ = margins([t.p1 for t in ts], [t.r1 for t in ts], [t.p2 for t in ts], [t.r2 for t in ts],
                       [(1.0, 0.0), (9.0, 5.0)], [R25, R25], [R25, R25], [0.0, 0.0])
    assert ov[0].tolist() == pytest.approx([1.5 + R25 - 1.0, 1.5 + R25 - math.hypot(9.0, 5.0)], abs=1e-12)
    assert ov[1].tolist() == pytest.approx([R25 - edge, 1.25 + R25 - 2.25], abs=1e-12)


def test_a_base_touching_the_outline_from_inside_is_wholly_under():
    # a base of radius r centred R − r from a Blast's centre touches the outline from inside:
    # inside 0 — wholly under (full iff inside ≥ −1e-6); 2e-6 farther out it is not
    t = place(DiscDims(3.0), (0.0, 0.0))
    figs = [fig(1.5 - R25, 0.0), fig(0.0, -(1.5 - R25) - 2e-6)]
    c = coverage(t, figs)
    assert abs(c.inside[0]) < 1e-12 and bool(c.full[0]) and not bool(c.full[1]) and bool(c.covered[1])
    cov, full = _verdicts(t, figs)
    assert cov.tolist() == [True, True] and full.tolist() == [True, False]


def test_near_misses_list_the_models_not_covered_nearest_first():
    # a Blast at (0, 0); bases 1.0" (covered), 2.1" (gap 2.1 − 1.5 − 0.492 = 0.108) and 2.5"
    # (gap 0.508) from its centre, and one 5" away; within 0.6": the two near ones, nearest first
    t = place(DiscDims(3.0), (0.0, 0.0))
    c = coverage(t, [fig(1.0, 0.0, mid="in"), fig(0.0, 2.5, mid="far"), fig(-2.1, 0.0, mid="near"), fig(5.0, 0.0, mid="away")])
    got = c.near_misses(0.6)
    assert [r["model"] for r in got] == ["near", "far"]
    assert [r["gap"] for r in got] == pytest.approx([2.1 - 1.5 - R25, 2.5 - 1.5 - R25], abs=1e-9)
    assert c.near_misses(0.05) == [] and [r["model"] for r in c.rows()] == ["in"]


def test_the_support_function_by_hand():
    # a Flamer from (2, 3) aimed along +y: near circle (2, 3.375) r 0.375, far (2, 9.75) r 1.25;
    # h(0) = max(2 + 0.375, 2 + 1.25), h(π/2) = 9.75 + 1.25 = 11, h(π) = −2 + 1.25, h(−π/2) = −3
    t = place(FLAMER, (2.0, 3.0), (2.0, 4.0))
    h = t.support(np.array([0.0, math.pi / 2, math.pi, -math.pi / 2]))
    assert h.tolist() == pytest.approx([3.25, 11.0, -0.75, -3.0], abs=1e-12)


# --- a short teardrop (circles less than 1" apart) ------------------------------------------------


@pytest.mark.parametrize("seed", [4, 5])
def test_a_short_teardrop_against_ovals_by_brute_force(seed):
    # length 2, narrow 1, wide 1.5: the circles' centres 0.75" apart (r 0.5 and 0.75)
    rng = random.Random(seed)
    for _ in range(10):
        t = place(TeardropDims(2.0, 1.0, 1.5), (5.0, 5.0), (5.0 + rng.uniform(-1, 1), 5.0 + rng.uniform(-1, 1)))
        q = (rng.uniform(2.0, 8.0), rng.uniform(2.0, 8.0))
        a, b, phi = rng.uniform(0.5, 1.2), rng.uniform(0.3, 0.5), rng.uniform(-3, 3)
        ov, ins, enc = margins([t.p1], [t.r1], [t.p2], [t.r2], [q], [a], [b], [phi])
        assert [float(ov[0, 0]), float(ins[0, 0]), float(enc[0, 0])] == pytest.approx(
            _brute(t.p1, t.r1, t.p2, t.r2, q, a, b, phi), abs=1e-7)


def _expected_vertices(t, per_circle):
    """The outline's vertices worked out here: each circle's samples at k·360°/per_circle whose
    outward normal holds that circle's piece of the support strictly, and the four points where
    the straight edges touch the circles (normals at α ± β, cos β = (r1 − r2)/D)."""
    p1, p2 = np.array(t.p1), np.array(t.p2)
    out = []
    for p, r, o, ro in ((p1, t.r1, p2, t.r2), (p2, t.r2, p1, t.r1)):
        for k in range(per_circle):
            n = np.array([math.cos(2 * math.pi * k / per_circle), math.sin(2 * math.pi * k / per_circle)])
            if n @ p + r > n @ o + ro + 1e-12:
                out.append(p + r * n)
    d = p2 - p1
    alpha, beta = math.atan2(d[1], d[0]), math.acos((t.r1 - t.r2) / math.hypot(*d))
    for ang in (alpha + beta, alpha - beta):
        n = np.array([math.cos(ang), math.sin(ang)])
        out += [p1 + t.r1 * n, p2 + t.r2 * n]
    return out


@pytest.mark.parametrize("per_circle", [36, 360])
def test_the_flamer_outline_is_every_vertex_of_the_hull_once(per_circle):
    t = place(FLAMER, (2.0, 3.0), (5.0, 7.0))
    v = t.outline(per_circle)
    want = _expected_vertices(t, per_circle)
    assert len(v) == len(want)
    for w in want:
        assert np.min(np.hypot(*(v - w).T)) < 1e-9
    # a disc: per_circle distinct points, one every 360°/per_circle
    d = place(DiscDims(3.0), (1.0, 1.0)).outline(per_circle)
    ang = np.sort(np.mod(np.arctan2(d[:, 1] - 1, d[:, 0] - 1), 2 * math.pi))
    assert len(d) == per_circle and np.allclose(np.diff(ang), 2 * math.pi / per_circle)
