"""Cutting a path short: the first ``d`` inches of a :class:`board.paths.Path`.

A move of at most ``d`` inches "along the shortest route towards" a goal ends where the route
has used up ``d``: every piece before that point is kept, the piece the point falls in is cut
(a straight leg at the right fraction, an arc at the right angle). A sub-path of a shortest
path is itself a shortest path to its end, and stays clear of every obstacle the whole route
was clear of.

>>> from tapeline.board.paths import Leg, Path
>>> p = Path((0.0, 0.0), (Leg("line", (0.0, 0.0), (3.0, 0.0)), Leg("line", (3.0, 0.0), (3.0, 4.0))), 7.0)
>>> q = truncate(p, 5.0)
>>> q.end, q.length
((3.0, 2.0), 5.0)
"""

from __future__ import annotations

import math

from .paths import Leg, Path


def cut_leg(leg: Leg, d: float) -> Leg:
    """The first ``d`` inches of one leg (``0 ≤ d ≤ leg.length``)."""
    if leg.kind == "line":
        L = leg.length
        t = 0.0 if L == 0 else min(1.0, max(0.0, d / L))
        b = (leg.a[0] + t * (leg.b[0] - leg.a[0]), leg.a[1] + t * (leg.b[1] - leg.a[1]))
        return Leg("line", leg.a, b)
    sweep = math.copysign(min(abs(leg.sweep), d / leg.r), leg.sweep) if leg.r > 0 else 0.0
    ang = leg.a0 + sweep
    b = (leg.centre[0] + leg.r * math.cos(ang), leg.centre[1] + leg.r * math.sin(ang))
    return Leg("arc", leg.a, b, leg.centre, leg.r, leg.a0, sweep)


def truncate(path: Path, d: float) -> Path:
    """The path's first ``d`` inches (the whole path when it is no longer than ``d``)."""
    if d >= path.length:
        return path
    d = max(0.0, float(d))
    legs, used = [], 0.0
    for leg in path.legs:
        L = leg.length
        if used + L <= d:
            legs.append(leg)
            used += L
            continue
        rest = d - used
        if rest > 0:
            legs.append(cut_leg(leg, rest))
        break
    return Path(path.start, tuple(legs), d)
