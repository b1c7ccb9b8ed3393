"""The visibility matrix settles its easy pairs first (board/sight.py ``find_witnesses``, with
board/separation.py): on seeded random boards its verdicts must equal those of the exact witness
search run pair by pair (``search_witnesses``, the search as it was before the matrix settled
anything), under the rules' own blocking decisions, and every witness it returns must be a
sight line by an independent test.

Boards: walls, blocks, L-shaped ruins and round pieces of every Size (turned), platforms with
models on them (HIGH GROUND, stacks, the Dead Zone) and pieces standing on platforms; round bases
of several sizes and turned ovals; Flying and HIDDEN units. For true line of sight (Horus
Heresy): random heights of pieces and models, stacks, models standing inside area terrain, both
settings of ``los_area_terrain``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
import shapely.affinity

from tapeline.board.sight import Blockers, find_witnesses, frames, search_witnesses
from tapeline.rules import truelos
from tapeline.rules.starcraft.visibility import _models, _pair_rules
from tests.conftest import scenario

W, H = 30.0, 22.0
MM = 1 / 25.4
PROFILES = ["marine", "zergling", "goliath", "roach", "hydralisk", "queen", "marauder"]
BASES = [25, 32, 40, 50, 60, 80, (60, 35), (100, 40), (120, 92)]


def _ring(rng, x, y) -> list[tuple[float, float]]:
    """A random footprint ring near (x, y): a wall, a block or an L-shaped ruin, often turned."""
    kind = rng.random()
    if kind < 0.35:  # an L
        a, b, t = rng.uniform(1.5, 5), rng.uniform(1.5, 5), rng.uniform(0.3, 1.0)
        pts = [(0, 0), (a, 0), (a, t), (t, t), (t, b), (0, b)]
    elif kind < 0.7:  # a wall
        a, t = rng.uniform(2, 7), rng.uniform(0.2, 0.6)
        pts = [(0, 0), (a, 0), (a, t), (0, t)]
    else:
        a, b = rng.uniform(0.5, 4), rng.uniform(0.5, 3)
        pts = [(0, 0), (a, 0), (a, b), (0, b)]
    th = rng.uniform(0, math.pi) if rng.random() < 0.6 else 0.0
    c, s = math.cos(th), math.sin(th)
    return [(round(x + u * c - v * s, 4), round(y + u * s + v * c, 4)) for u, v in pts]


def _footprint(ring) -> str:
    return "{polygon: [" + ", ".join(f"[{x}, {y}]" for x, y in ring) + "]}"


def _board(seed: int, system: str) -> str:
    """A random scenario (YAML text) of ``system``: 3–7 pieces, one or two platforms with
    models and pieces on them, two sides of 5–7 models."""
    rng = np.random.default_rng(seed)
    table = shapely.box(0, 0, W, H)
    lines = ["tapeline: 1", f"system: {system}", f"board: {{width: {W}, height: {H}}}"]
    if system != "starcraft":
        lines.append(f"settings: {{los_area_terrain: {'see_out' if rng.random() < 0.6 else 'height'}}}")
    lines.append("terrain:")
    shapes: list[shapely.Geometry] = []
    platforms: list[tuple[str, shapely.Geometry]] = []
    area: list[shapely.Geometry] = []  # pieces a model may stand inside (true LOS)

    def piece_facts(size_hi=4) -> str:
        size = int(rng.integers(0, size_hi + 1))
        h = round(float(rng.uniform(0.2, 4.0)), 2)
        return f"size: {size}, height: {h}, traits: [passable]"

    for k in range(int(rng.integers(1, 3))):  # platforms: models stand on them, pieces too
        for _ in range(200):
            x, y = rng.uniform(2, W - 9), rng.uniform(2, H - 7)
            w, h = rng.uniform(4, 7), rng.uniform(3, 5)
            g = shapely.box(x, y, x + w, y + h)
            if not any(g.distance(o) < 0.5 for o in shapes):
                break
        else:
            continue
        pid = f"plat{k}"
        lines.append(f"  - {{id: {pid}, footprint: {{rect: [{x:.3f}, {y:.3f}, {w:.3f}, {h:.3f}]}}, "
                     f"size: {int(rng.integers(1, 4))}, height: {round(float(rng.uniform(0.5, 2.5)), 2)}, traits: [passable, standable]}}")
        shapes.append(g)
        platforms.append((pid, g))
        if rng.random() < 0.6:  # a small piece standing on the platform
            ring = _ring(rng, x + rng.uniform(0.3, w / 2), y + rng.uniform(0.3, h / 2))
            pg = shapely.Polygon(ring)
            if g.contains(pg):
                lines.append(f"  - {{id: on{k}, footprint: {_footprint(ring)}, on: {pid}, {piece_facts(2)}}}")
    for k in range(int(rng.integers(3, 8))):
        for _ in range(200):
            if rng.random() < 0.2:
                x, y, r = rng.uniform(2, W - 2), rng.uniform(2, H - 2), rng.uniform(0.4, 1.8)
                g = shapely.Point(x, y).buffer(r, 64)
                fp = f"{{circle: [{x:.4f}, {y:.4f}, {r:.4f}]}}"
            else:
                ring = _ring(rng, rng.uniform(2, W - 6), rng.uniform(2, H - 6))
                g = shapely.Polygon(ring)
                fp = _footprint(ring)
            if table.contains(g) and not any(g.distance(o) < 0.3 for o in shapes):
                break
        else:
            continue
        lines.append(f"  - {{id: t{k}, footprint: {fp}, {piece_facts()}}}")
        shapes.append(g)
        if g.area > 2:
            area.append(g)
    lines.append("units:")
    bases: list[shapely.Geometry] = []
    for side in ("a", "b"):
        for u in range(int(rng.integers(2, 4))):
            prof = PROFILES[int(rng.integers(len(PROFILES)))]
            head = f"  - {{id: {side}{u}, side: {side}"
            if system == "starcraft":
                head += f", profile: {prof}"
                if rng.random() < 0.15:
                    head += ", tags: [flying, biological]"
                elif rng.random() < 0.15:
                    head += ", status: [hidden]"
            models = []
            for i in range(int(rng.integers(1, 4))):
                size = BASES[int(rng.integers(len(BASES)))]
                a, b = (size[0] * MM / 2, size[1] * MM / 2) if isinstance(size, tuple) else (size * MM / 2,) * 2
                facing = float(rng.uniform(0, 360))
                for _ in range(400):
                    on = None
                    choice = rng.random()
                    if platforms and choice < 0.3:  # on a platform, wholly on it or straddling its edge
                        pid, pg = platforms[int(rng.integers(len(platforms)))]
                        x0, y0, x1, y1 = pg.bounds
                        x, y = rng.uniform(x0 - 0.3, x1 + 0.3), rng.uniform(y0 - 0.3, y1 + 0.3)
                        on = pid
                    elif area and system != "starcraft" and choice < 0.45:  # inside area terrain
                        ag = area[int(rng.integers(len(area)))]
                        x0, y0, x1, y1 = ag.bounds
                        x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
                    else:
                        x, y = rng.uniform(1.5, W - 1.5), rng.uniform(1.5, H - 1.5)
                    g = shapely.affinity.rotate(shapely.affinity.scale(shapely.Point(x, y).buffer(1, 32), a, b), facing)
                    if on is not None and not shapely.Point(x, y).within(dict(platforms)[on]):
                        continue
                    if table.contains(g) and not any(g.distance(o) < 0.05 for o in bases):
                        break
                else:
                    continue
                bases.append(g)
                m = f"{{id: {side}{u}-{i}, at: [{x:.4f}, {y:.4f}], base: {_yaml_base(size)}, facing: {facing:.2f}"
                if on:
                    m += f", on: {on}"
                if system != "starcraft":
                    m += f", height: {round(float(rng.uniform(0.5, 3.5)), 2)}"
                models.append(m + "}")
            if models:
                lines.append(head + ", models: [" + ", ".join(models) + "]}")
    return "\n".join(lines) + "\n"


def _yaml_base(size) -> str:
    return f"[{size[0]}, {size[1]}]" if isinstance(size, tuple) else str(size)


def _sides(state):
    return [[f for f in state.all_figures() if f.side == s] for s in ("a", "b")]


def _on_base(p, f, tol=1e-6) -> bool:
    c, m = frames([f])
    q = np.linalg.solve(m[0], np.asarray(p, float) - c[0])
    return float(q @ q) <= 1 + tol


def _clear(seg, pieces, za=None, zb=None, tops=None) -> bool:
    """Independent test of a witness: over each blocking footprint (shrunk by 1e-7": touching
    is allowed) the segment spends no length, or (heights) the sight line from ``za`` to ``zb``
    is not below the piece's top there; round pieces by distance to their exact circle."""
    p0, p1 = np.asarray(seg[0], float), np.asarray(seg[1], float)
    for j, p in pieces:
        lo, hi = 0.0, 1.0
        if za is not None:
            top = tops[j]
            if top <= min(za, zb):
                continue
            if top < max(za, zb):
                s = (top - za) / (zb - za)
                lo, hi = (0.0, s) if za < zb else (s, 1.0)
        q0, q1 = p0 + lo * (p1 - p0), p0 + hi * (p1 - p0)
        line = shapely.LineString([q0, q1]) if np.linalg.norm(q1 - q0) > 1e-12 else shapely.Point(q0)
        if p.circle is not None:
            x, y, r = p.circle
            if shapely.distance(line, shapely.Point(x, y)) < r - 1e-7:
                return False
        elif shapely.intersection(line, p.footprint.buffer(-1e-7, join_style="mitre")).length > 1e-9:
            return False
    return True


def _check(fa, fb, ia, ib, bl, mask, pieces, heights=None):
    """The matrix's verdicts equal the per-pair search's; every witness is a sight line."""
    found, wit = find_witnesses(fa, fb, bl, mask, heights=heights, pairs=(ia, ib))
    for k in range(len(ia)):
        h = None if heights is None else (heights[0][k:k + 1], heights[1][k:k + 1], heights[2])
        one, _ = search_witnesses([fa[ia[k]]], [fb[ib[k]]], bl, mask[k:k + 1], heights=h)
        assert found[k] == one[0], f"pair {fa[ia[k]].id}–{fb[ib[k]].id}: matrix {found[k]}, search {one[0]}"
        if found[k]:
            w = wit[k]
            assert _on_base(w[0], fa[ia[k]]) and _on_base(w[1], fb[ib[k]])
            blockers = [(j, pieces[j]) for j in np.nonzero(mask[k])[0]]
            z = () if heights is None else (heights[0][k], heights[1][k], heights[2])
            assert _clear(w, blockers, *z), f"pair {fa[ia[k]].id}–{fb[ib[k]].id}: witness {w.tolist()} is blocked"
    return found


@pytest.mark.parametrize("chunk", range(4))
def test_starcraft_matrix_equals_the_per_pair_search(chunk):
    pairs = 0
    for seed in range(chunk * 20, chunk * 20 + 20):
        st = scenario(_board(seed, "starcraft")).state
        fa, fb = _sides(st)
        if not fa or not fb:
            continue
        ma, mb = _models(st, fa), _models(st, fb)
        ia, ib = np.divmod(np.arange(len(fa) * len(fb)), len(fb))
        mask, _, absolute = _pair_rules(st, ma, ia, mb, ib)
        live = ~absolute.any()
        _check(fa, fb, ia[live], ib[live], Blockers(st.table.pieces), mask[live], st.table.pieces)
        pairs += int(live.sum())
    assert pairs > 300  # the boards are not empty


@pytest.mark.parametrize("chunk", range(3))
def test_true_los_matrix_equals_the_per_pair_search(chunk):
    for seed in range(1000 + chunk * 16, 1000 + chunk * 16 + 16):
        st = scenario(_board(seed, "heresy")).state
        fa, fb = _sides(st)
        if not fa or not fb:
            continue
        ia, ib = np.divmod(np.arange(len(fa) * len(fb)), len(fb))
        za = np.array([truelos.eye(st, f.id) for f in fa])[ia]
        zb = np.array([truelos.eye(st, f.id) for f in fb])[ib]
        mask, tops = truelos._mask(st, fa, fb, ia, ib, za, zb)
        _check(fa, fb, ia, ib, Blockers(st.table.pieces), mask, st.table.pieces, heights=(za, zb, tops))
