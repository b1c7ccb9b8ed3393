"""A circular piece's polygon (board/terrain.py, ``circle_polygon``): every vertex is the formula's
own floating-point value, ``x + r * grow * cos(2π (i + ½) / n)``, computed here one vertex at a
time with the math module, so a table of the unit circle changes no coordinate by even one bit."""

import math
import random

import shapely

from tapeline.board.terrain import circle_polygon


def test_every_vertex_is_the_formulas_value_to_the_bit():
    rng = random.Random(7)
    for _ in range(60):
        x, y, r = rng.uniform(-60, 60), rng.uniform(-60, 60), rng.uniform(0.01, 40)
        for q in (1, 8, 512):
            n = 4 * q
            grow = 1.0 / math.cos(math.pi / n)
            want = [(x + r * grow * math.cos(2 * math.pi * (i + 0.5) / n), y + r * grow * math.sin(2 * math.pi * (i + 0.5) / n))
                    for i in range(n)]
            got = shapely.get_coordinates(circle_polygon(x, y, r, q)).tolist()
            assert got[:-1] == [list(p) for p in want] and got[-1] == got[0]
