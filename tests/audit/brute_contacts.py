"""A brute-force count of the most assaulting models that can end in base contact with one
enemy model in open ground (written for the audit from the seed's "as many models into contact
as possible"; it imports nothing of tapeline).

All movers have the same base. Each may end on the target's contact ring (centre at the sum of the two radii from the
target's centre), sampled every ``step`` degrees, where its shortest path there — straight, or
round the target's base (tangent then arc) when the straight line would cross it — is at most
its allowance; ends must be on the table and overlap no other base (another mover's end spot,
or a model that does not move). The most movers placed at pairwise compatible samples is a
lower bound of the true maximum (a sampled placement is a real one, kept 1e-6" clear).
"""

from __future__ import annotations

import math

MM = 25.4


def path_length(px, py, qx, qy, cx, cy, R, discs=(), box=None) -> float:
    """Shortest path from P to Q (on the circle of radius R about C) avoiding the open disc;
    ``inf`` when that path comes within a disc of ``discs`` (``(x, y, radius)``, already grown
    by the mover's radius) or leaves ``box`` (the centre's allowed box): a conservative answer,
    the path round those is not sought."""
    dp = math.hypot(px - cx, py - cy)
    ap, aq = math.atan2(py - cy, px - cx), math.atan2(qy - cy, qx - cx)
    d = (aq - ap + math.pi) % (2 * math.pi) - math.pi
    t = math.acos(min(1.0, R / dp))
    if abs(d) <= t:
        legs = [((px, py), (qx, qy))]
        length = math.hypot(qx - px, qy - py)
    else:
        at = ap + math.copysign(t, d)                       # the tangent point, on Q's side
        tx, ty = cx + R * math.cos(at), cy + R * math.sin(at)
        aq = at + ((aq - at + math.pi) % (2 * math.pi) - math.pi)
        legs = [((px, py), (tx, ty))] + [((cx + R * math.cos(at + (aq - at) * k / 16), cy + R * math.sin(at + (aq - at) * k / 16)),
                                          (cx + R * math.cos(at + (aq - at) * (k + 1) / 16), cy + R * math.sin(at + (aq - at) * (k + 1) / 16)))
                                         for k in range(16)]
        length = math.sqrt(max(0.0, dp * dp - R * R)) + R * (abs(d) - t)
    if box is not None and not all(box[0] <= x <= box[2] and box[1] <= y <= box[3] for leg in legs for x, y in leg):
        return math.inf
    for (ox, oy, orad) in discs:
        if any(_seg_dist(a, b, (ox, oy)) < orad + 0.01 for a, b in legs):   # 0.01": more than the chords' sagitta
            return math.inf
    return length


def _seg_dist(a, b, p) -> float:
    ax, ay = a
    bx, by = b
    vx, vy = bx - ax, by - ay
    L = vx * vx + vy * vy
    u = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - ax) * vx + (p[1] - ay) * vy) / L))
    return math.hypot(ax + u * vx - p[0], ay + u * vy - p[1])


def most_in_contact(movers, target, still=(), board=(0.0, 0.0, 1e9, 1e9), allowance=6.0, step=1.0) -> int:
    """``movers``: ``(x, y)`` centres of equal bases of ``base_mm``; ``target``: ``(x, y,
    base_mm)``; ``still``: other bases that stay where they are ``(x, y, base_mm)``.

    All movers share one ring; ring samples ``k`` apart must be at least ``sep`` samples apart
    (the chord between them at least a base's width): a dynamic programme over the samples and
    the set of movers used, the circle cut at the first sample taken."""
    tx, ty, tb = target
    rt = tb / MM / 2
    r = movers[0][2] / MM / 2
    R = r + rt + 1e-9
    n = int(round(360 / step))
    # the smallest sample separation whose chord is at least 2r (+1e-6)
    sep = next(k for k in range(1, n + 1) if 2 * R * math.sin(math.radians(k * step) / 2) >= 2 * r + 1e-6)
    allowed = [0] * n          # bit i: mover i may end at sample k
    for k in range(n):
        a = math.radians(k * step)
        sx, sy = tx + R * math.cos(a), ty + R * math.sin(a)
        if not (board[0] + r <= sx <= board[2] - r and board[1] + r <= sy <= board[3] - r):
            continue
        if any(math.hypot(sx - ox, sy - oy) < r + ob / MM / 2 + 1e-6 for ox, oy, ob in still):
            continue
        for i, (x, y, _b) in enumerate(movers):
            inner = (board[0] + r, board[1] + r, board[2] - r, board[3] - r)
            if path_length(x, y, sx, sy, tx, ty, r + rt, [(ox, oy, ob / MM / 2 + r) for ox, oy, ob in still], inner) <= allowance:
                allowed[k] |= 1 << i
    m = len(movers)
    best = 0
    for p0 in range(n):
        if not allowed[p0]:
            continue
        last = p0 + n - sep          # the last sample index (unwrapped) still clear of p0
        memo: dict = {}

        def f(i, mask):
            if i > last:
                return 0
            key = (i, mask)
            if key in memo:
                return memo[key]
            v = f(i + 1, mask)
            free = allowed[i % n] & ~mask
            j = 0
            while free >> j:
                if (free >> j) & 1:
                    v = max(v, 1 + f(i + sep, mask | (1 << j)))
                j += 1
            memo[key] = v
            return v

        free = allowed[p0]
        for j in range(m):
            if (free >> j) & 1:
                best = max(best, 1 + f(p0 + sep, 1 << j))
        if best == min(m, n // sep):
            break
    return best
