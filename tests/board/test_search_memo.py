"""What the path searches on one space share (board/space.py, ``SearchMemo``) stays within its
bounds, and forgetting changes no answer: the same searches with bounds so small that the memo
is forgotten again and again give the same paths, leg for leg and bit for bit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tapeline.board import space as space_module
from tapeline.board.errors import GeometryError
from tapeline.board.paths import Reach
from tests.board.test_paths_bounded import _crowded_space, _regions


def _answers(seed: int) -> tuple[list, space_module.SearchMemo]:
    """Region searches (several starts, each below the best so far, as a unit's candidate
    Leading Models are searched) and point searches on one crowded space; every answer as
    exact values, and the space's memo."""
    rng = np.random.default_rng(seed)
    space = _crowded_space(np.random.default_rng(int(rng.integers(0, 2**31))))
    out: list = []
    for _ in range(3):
        regions = _regions(rng, space)
        best = math.inf
        for _ in range(3):
            a = tuple(rng.uniform([1, 1], [space.width - 1, space.height - 1]))
            b = tuple(rng.uniform([1, 1], [space.width - 1, space.height - 1]))
            try:
                R = Reach(space, a)
            except GeometryError as e:
                out.append(("error", str(e)))
                continue
            p, i = R.to_regions(regions, best)
            out.append(None if p is None else (repr(p), p.legs, p.length, i))
            if p is not None:
                best = p.length
            q = R.to_point(b)
            out.append(None if q is None else (repr(q), q.legs, q.length))
    return out, space.memo


@pytest.mark.parametrize("seed", range(6))
def test_a_memo_forgotten_when_full_gives_the_same_answers(seed, monkeypatch):
    plenty, memo = _answers(seed)
    assert memo.arcs and len(memo.graphs) <= space_module.SHARED_GRAPHS
    with monkeypatch.context() as m:
        m.setattr(space_module, "MEMO_ARCS", 16)
        m.setattr(space_module, "MEMO_REGIONS", 1)
        m.setattr(space_module, "SHARED_GRAPHS", 1)
        tight, small = _answers(seed)
        assert len(small.prepared) <= 2 and len(small.anchors) <= 2 and len(small.graphs) <= 1
    assert tight == plenty


def test_arc_verdicts_stay_within_the_bound_or_one_graphs_arcs(monkeypatch):
    monkeypatch.setattr(space_module, "MEMO_ARCS", 4)
    memo = space_module.SearchMemo()
    asked: list = []

    def test(todo):
        asked.append(list(todo))
        return [k % 2 == 0 for k, _, _ in todo]

    assert memo.arc_verdicts([(0, 0.0, 1.0), (1, 0.0, 1.0)], test) == [True, False]
    assert memo.arc_verdicts([(1, 0.0, 1.0), (2, 0.0, 1.0)], test) == [False, True]
    assert asked == [[(0, 0.0, 1.0), (1, 0.0, 1.0)], [(2, 0.0, 1.0)]] and len(memo.arcs) == 3
    # two more would pass the bound: everything is forgotten, and these six asked afresh
    six = [(k, 0.0, 1.0) for k in range(3, 9)]
    assert memo.arc_verdicts(six, test) == [k % 2 == 0 for k in range(3, 9)]
    assert asked[-1] == six and len(memo.arcs) == 6
