"""True line of sight by heights (Horus Heresy 3rd, 40k 3rd): heights of pieces and models,
stacks, unit-type defaults, base contact, the area-terrain setting, and reciprocity."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings, strategies as st

from tapeline.rules import truelos
from tapeline.rules.systems import rules_for as system
from tests.conftest import scenario

BOARD = """
tapeline: 1
system: {system}
board: {{width: 30, height: 20}}
settings: {{los_area_terrain: {area}}}
terrain:
  - {{id: wall, footprint: {{rect: [10, 2, 0.5, 16]}}, height: {wall_h}}}
  - {{id: hill, footprint: {{rect: [1, 7, 4, 6]}}, height: 3}}
  - {{id: wood, footprint: {{rect: [18, 6, 4, 8]}}, height: 4}}
units:
  - id: a
    side: x
    base: 32
    stats: {{unit_type: {type_a}}}
    models:
      - {{id: a1, at: [6.5, 10]}}
      - {{id: a2, at: [3, 10], on: hill}}
      - {{id: a3, at: [7, 16]{a3_height}}}
  - id: b
    side: y
    base: 32
    models:
      - {{id: b1, at: [14, 10]}}
      - {{id: b2, at: [20, 10]}}
      - {{id: b3, at: [10.25, 1.3]}}
"""


def board(system="heresy", area="see_out", wall_h=2.0, type_a="infantry", a3_height=""):
    return scenario(BOARD.format(system=system, area=area, wall_h=wall_h, type_a=type_a,
                                 a3_height=a3_height)).state


@pytest.mark.parametrize("sysname", ["heresy", "classic40k"])
def test_a_wall_taller_than_both_eyes_blocks(sysname):
    s = board(sysname)
    v = system(sysname).visible(s, "a1", "b1")
    assert not v.visible and v.blocked_by == [("wall", "height")]
    assert not system(sysname).visible(s, "b1", "a1").visible


def test_a_wall_lower_than_both_eyes_does_not_block():
    s = board(wall_h=1.0)  # infantry eyes at 1.25"
    assert truelos.eye(s, "a1") == pytest.approx(1.25)
    assert truelos.visible(s, "a1", "b1").visible


def test_standing_on_a_hill_sees_over_the_wall():
    # a2's eye: hill 3 + 1.25 = 4.25"; b1's 1.25". Along the centre line the segment runs from
    # x = 3.63 to x = 13.37; it leaves the 2" wall at x = 10.5, 70.5 % of the way, where the
    # sight line is at 4.25 - 3 * 0.705 = 2.13" > 2": visible both ways.
    s = board()
    assert truelos.eye(s, "a2") == pytest.approx(4.25)
    v = truelos.visible(s, "a2", "b1")
    assert v.visible and truelos.visible(s, "b1", "a2").visible


def test_partial_height_uses_the_sight_line_height_over_the_footprint():
    tall = board(wall_h=2.0, a3_height=", height: 6")
    # a3 (eye 6") at (7, 16), b1 (eye 1.25") at (14, 10): the wall is crossed ~3/7 of the way
    # from a3, where the line is at about 6 - 4.75 * 0.43 = 3.96" > 2": clear.
    assert truelos.visible(tall, "a3", "b1").visible


def test_unit_type_default_heights():
    s = board(type_a="vehicle")
    assert truelos.model_height(s, "a1") == truelos.DEFAULT_HEIGHTS["vehicle"]
    # Vehicle eye 2.5" over a 2" wall towards infantry (1.25"). Best case along the centre line:
    # from a1's near edge (x = 7.13) to b1's far edge (x = 14.63) the line leaves the wall at
    # x = 10.5, 45 % of the way: 2.5 - 1.25 * 0.45 = 1.94" < 2": blocked. A titan (8") is not.
    assert not truelos.visible(s, "a1", "b1").visible
    assert truelos.visible(board(type_a="titan"), "a1", "b1").visible


def test_area_terrain_setting():
    # b2 stands inside the 4" tall wood. see_out: the wood does not block b2's sight lines.
    assert truelos.visible(board(wall_h=0.0), "a1", "b2").visible
    v = truelos.visible(board(wall_h=0.0, area="height"), "a1", "b2")
    assert not v.visible and v.blocked_by == [("wood", "height")]


def test_base_contact_always_sees():
    s = scenario("""
    tapeline: 1
    system: heresy
    board: {width: 20, height: 20}
    terrain:
      - {id: tall, footprint: {rect: [5, 5, 10, 10]}, height: 10}
    units:
      - {id: a, side: x, base: 32, models: [{id: a1, at: [3, 10]}]}
      - {id: b, side: y, base: 32, models: [{id: b1, at: [4.2598425197, 10]}]}
    """).state
    assert truelos.visible(s, "a1", "b1").visible


def test_matrix_and_group_match_single_queries_and_are_reciprocal():
    s = board()
    M = truelos.visibility_matrix(s, "a", "b")
    for i, a in enumerate(s.unit("a").models):
        for j, b in enumerate(s.unit("b").models):
            assert M[i, j] == truelos.visible(s, a, b).visible == truelos.visible(s, b, a).visible
    group = truelos.visible_to_group(s, list(s.unit("a").models), "b")
    assert group == {b for j, b in enumerate(s.unit("b").models) if M[:, j].any()}


# --- pieces between the two eye heights: completeness against a dense 3D brute force -------

R32 = 16 / 25.4  # radius of a 32 mm base, inches


def _blocked_part(za, zb, top):
    """Fraction ``[lo, hi]`` of a sight segment (A end at 0) where the straight line from eye
    height ``za`` to ``zb`` runs below ``top`` (None: nowhere)."""
    if top <= min(za, zb):
        return None
    if top >= max(za, zb):
        return 0.0, 1.0
    s = (top - za) / (zb - za)
    return (0.0, s) if za < zb else (s, 1.0)


def brute_clear(ca, ra, za, cb, rb, zb, pieces, n=1000, eps=1e-6) -> bool:
    """Dense brute force: n points on each base outline, every pair (P, Q) is the 3D segment
    from (P, za) to (Q, zb) (so the far end of the lower model's chord is among them); a piece
    blocks it where the line is below the piece's top over the footprint grown by ``eps``
    (slab clipping for convex polygons, centre distance for circles). True: some pair is clear."""
    th = np.linspace(0, 2 * np.pi, n, endpoint=False)
    u = np.column_stack([np.cos(th), np.sin(th)])
    pa, pb = np.asarray(ca) + ra * u, np.asarray(cb) + rb * u
    ok = np.ones((n, n), bool)
    for kind, shape, top in pieces:
        part = _blocked_part(za, zb, top)
        if part is None:
            continue
        lo, hi = part
        if kind == "circle":
            (x, y), r = shape
            dx, dy = pb[None, :, 0] - pa[:, None, 0], pb[None, :, 1] - pa[:, None, 1]
            cx, cy = x - (pa[:, None, 0] + lo * dx), y - (pa[:, None, 1] + lo * dy)
            dx, dy = (hi - lo) * dx, (hi - lo) * dy
            t = np.clip((cx * dx + cy * dy) / (dx * dx + dy * dy), 0, 1)
            ok &= np.hypot(cx - t * dx, cy - t * dy) >= r + eps
            continue
        t0, t1 = np.full((n, n), lo), np.full((n, n), hi)
        m = len(shape)
        for k in range(m):
            a, b = np.asarray(shape[k]), np.asarray(shape[(k + 1) % m])
            e = b - a
            nrm = np.array([e[1], -e[0]]) / math.hypot(*e)  # outward for a ccw ring
            n_p, n_q = (pa - a) @ nrm, (pb - a) @ nrm
            num = eps - n_p[:, None]
            den = n_q[None, :] - n_p[:, None]
            with np.errstate(divide="ignore", invalid="ignore"):
                t = num / den
            np.maximum(t0, np.where(den < 0, t, -np.inf), out=t0)
            np.minimum(t1, np.where(den > 0, t, np.inf), out=t1)
            t1[(den == 0) & (num <= 0)] = -1.0
        ok &= t1 - t0 <= 1e-12
    return bool(ok.any())


def witness_clear(seg, za, zb, pieces) -> bool:
    """Independent 3D test of a witness: over each footprint (shrunk by 1e-7", so touching is
    allowed) the line from (A end, za) to (B end, zb) is not below the piece's top."""
    p0, p1 = np.asarray(seg[0], float), np.asarray(seg[1], float)
    for kind, shape, top in pieces:
        part = _blocked_part(za, zb, top)
        if part is None:
            continue
        q0, q1 = p0 + part[0] * (p1 - p0), p0 + part[1] * (p1 - p0)
        line = shapely.LineString([q0, q1]) if np.linalg.norm(q1 - q0) > 1e-12 else shapely.Point(q0)
        if kind == "circle":
            (x, y), r = shape
            if shapely.distance(line, shapely.Point(x, y)) < r - 1e-7:
                return False
        elif shapely.intersection(line, shapely.Polygon(shape).buffer(-1e-7, join_style="mitre")).length > 1e-9:
            return False
    return True


def _yaml(ca, za, cb, zb, pieces):
    lines = ["tapeline: 1", "system: heresy", "board: {width: 30, height: 20}", "terrain:"]
    for i, (kind, shape, top) in enumerate(pieces):
        if kind == "circle":
            (x, y), r = shape
            fp = f"{{circle: [{x!r}, {y!r}, {r!r}]}}"
        else:
            fp = "{polygon: [" + ", ".join(f"[{x!r}, {y!r}]" for x, y in shape) + "]}"
        lines.append(f"  - {{id: p{i}, footprint: {fp}, height: {top!r}}}")
    lines += ["units:",
              f"  - {{id: a, side: x, base: 32, models: [{{id: a1, at: [{ca[0]!r}, {ca[1]!r}], height: {za!r}}}]}}",
              f"  - {{id: b, side: y, base: 32, models: [{{id: b1, at: [{cb[0]!r}, {cb[1]!r}], height: {zb!r}}}]}}"]
    return scenario("\n".join(lines) + "\n").state


def _random_board(seed):
    """Two infantry-sized bases, 1–4 pieces between them (rotated rectangles — half of them long
    thin walls across the line between the bases — or circles, none touching a base), the first with its top strictly between the two eyes, the others between
    or above; which model is the low one is random."""
    rng = np.random.default_rng(seed)
    ca = (5.0, 10 + float(rng.uniform(-1, 1)))
    cb = (float(rng.uniform(11, 18)), 10 + float(rng.uniform(-2, 2)))
    za, zb = float(rng.uniform(0.8, 1.5)), float(rng.uniform(2.5, 6))
    if rng.random() < 0.5:
        za, zb = zb, za
    lo, hi = min(za, zb), max(za, zb)
    pieces = []
    want = int(rng.integers(1, 5))
    for _ in range(60):
        if len(pieces) == want:
            break
        c = np.array(ca) + rng.uniform(0.1, 0.95) * (np.array(cb) - np.array(ca)) + rng.uniform(-1.5, 1.5, 2)
        if rng.random() < 0.25:
            shape = ((float(c[0]), float(c[1])), float(rng.uniform(0.1, 1.2)))
            geom = shapely.Point(c).buffer(shape[1], 64)
            kind = "circle"
        else:
            if rng.random() < 0.5:  # a long thin wall roughly across the line between the bases
                w, h = rng.uniform(0.1, 0.6), rng.uniform(2, 8)
                ang = math.atan2(cb[1] - ca[1], cb[0] - ca[0]) + rng.uniform(-0.6, 0.6)
            else:
                w, h, ang = rng.uniform(0.1, 3), rng.uniform(0.1, 4), rng.uniform(0, np.pi)
            rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
            ring = c + (np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2) @ rot.T
            shape = [(float(x), float(y)) for x, y in ring]
            geom = shapely.Polygon(shape)
            kind = "poly"
        if geom.distance(shapely.Point(ca)) < R32 + 0.05 or geom.distance(shapely.Point(cb)) < R32 + 0.05:
            continue
        top = float(rng.uniform(lo + 0.05, hi - 0.05) if not pieces or rng.random() < 0.6 else rng.uniform(hi, 8))
        pieces.append((kind, shape, top))
    return ca, za, cb, zb, pieces


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_partial_height_pieces_against_a_dense_3d_brute_force(seed):
    ca, za, cb, zb, pieces = _random_board(seed)
    s = _yaml(ca, za, cb, zb, pieces)
    v = truelos.visible(s, "a1", "b1")
    if brute_clear(ca, R32, za, cb, R32, zb, pieces):
        assert v.visible, "the brute force found a clear 3D sight line"
    if v.visible:
        (x0, y0), (x1, y1) = v.witness
        assert math.hypot(x0 - ca[0], y0 - ca[1]) <= R32 + 1e-6
        assert math.hypot(x1 - cb[0], y1 - cb[1]) <= R32 + 1e-6
        assert witness_clear(v.witness, za, zb, pieces)
    assert truelos.visible(s, "b1", "a1").visible == v.visible


def test_the_only_sight_line_passes_over_a_partial_piece_near_the_higher_model():
    # a1 (eye 1") at (5, 10), b1 (eye 2") at (15, 10); a tall diamond post on the centre line
    # (x 8.7..9.3, y 9.8..10.2) and a 1.8" bank across the table from x = 12.4, near b1.
    # The line is below 1.8" for the first 80 % of the way from a1's eye ((1.8-1)/(2-1)).
    # Horizontal lines just clear the post only at |y - 10| >= 0.2, where the chords are
    # shorter: from a1's far edge 5 - sqrt(r² - 0.04) = 4.40265 to b1's near edge 14.40265, the
    # 80 % point is at x = 12.40265 > 12.4 — on the bank: blocked. The centre line is blocked by
    # the post. Only slightly turned lines past a post corner see over the bank (the dense
    # sampler confirms some exist); the candidate "line through the post corner whose 80 % point
    # lies on the bank's edge" finds one.
    pieces = [("poly", [(8.7, 10.0), (9.0, 9.8), (9.3, 10.0), (9.0, 10.2)], 10.0),
              ("poly", [(12.4, 5.0), (13.4, 5.0), (13.4, 15.0), (12.4, 15.0)], 1.8)]
    s = _yaml((5.0, 10.0), 1.0, (15.0, 10.0), 2.0, pieces)
    r = R32
    half = math.sqrt(r * r - 0.04)
    assert not witness_clear([(5 - half, 10.2), (15 - half, 10.2)], 1.0, 2.0, pieces)
    assert not witness_clear([(5 - r, 10.0), (15 - r, 10.0)], 1.0, 2.0, pieces)
    assert brute_clear((5.0, 10.0), r, 1.0, (15.0, 10.0), r, 2.0, pieces)
    v = truelos.visible(s, "a1", "b1")
    assert v.visible and witness_clear(v.witness, 1.0, 2.0, pieces)
    assert truelos.visible(s, "b1", "a1").visible


def test_an_island_of_clear_lines_over_an_oblique_partial_wall():
    # One 3.61" slab, oblique, across every path from a1 (eye 1.21") to b1 (eye 5.24"). Lines
    # are clear only where the point at which they reach 3.61" (60 % of the way from a1) falls
    # short of the slab: a small island of lines touching no corner and no tangent, around the
    # line through the two bases' points farthest along the slab's outward normal. The dense
    # sampler confirms clear lines exist; tapeline must find one.
    ca, za, cb, zb = (5.0, 9.471597609625066), 1.2148219298682972, (14.003748990660679, 8.369092066213168), 5.239445380016409
    pieces = [("poly", [(10.507618679659503, 7.312697258128145), (11.893555132643868, 8.050240669248964),
                        (10.228828372385069, 11.178470772742203), (8.842891919400703, 10.440927361621384)],
               3.6099601435312136)]
    assert brute_clear(ca, R32, za, cb, R32, zb, pieces)
    s = _yaml(ca, za, cb, zb, pieces)
    v = truelos.visible(s, "a1", "b1")
    assert v.visible and witness_clear(v.witness, za, zb, pieces)
    assert not witness_clear([(ca[0] + R32, ca[1]), (cb[0] - R32, cb[1])], za, zb, pieces)
