"""40k 3rd "Drawn Combats": "unengaged models on both sides must move up to 6" into base contact
with the enemy, with priority given to models not already engaged" — a probe where the
priority decides where a model goes, every spot and length worked out by hand."""

from __future__ import annotations

import math

import pytest

from tests.audit.c40k_files import BOY, D25, MARINE, scenario_text, unit
from tests.conftest import cli_json

# m1 and the Boy o1 touch (o1 1 base width above m1). o2 stands alone, 4" right of o1: engaged
# with nobody. m2 is 3" below m1, m3 4" left of it: neither is within 2" of an enemy (m2–o1
# 3.984" centre to centre, m3–o1 4.119", o2–m1 4.119": all more than 2" + 0.984"), so the
# fight is m1 against o1. Dice: m1 misses (1), o1 misses twice (1, 1): 0 wounds each, the
# roll-off 3 v 3: a drawn combat.
M1, M2, M3 = (10.0, 10.0), (10.0, 7.0), (6.0, 10.0)
O1, O2 = (10.0, 10.0 + D25), (14.0, 10.0 + D25)


def toward(a, b, stop):
    """The point ``stop`` short of ``b`` on the straight line from ``a``."""
    d = math.dist(a, b)
    return (b[0] - (b[0] - a[0]) * stop / d, b[1] - (b[1] - a[1]) * stop / d)


def drawn(write, *more):
    us = [unit("marines", "imperium", MARINE, {"m1": M1, "m2": M2, "m3": M3}), unit("orks", "orks", BOY, {"o1": O1, "o2": O2})]
    acts = ["{action: fight, unit: marines}", *more]
    code, out = cli_json("replay", write(scenario_text(us, actions=acts, dice=[1, 1, 1, 3, 3])))
    assert code == 0, out
    res = next(e for e in out["events"] if e["type"] == "assault_result")
    assert res["winner"] is None and res["rolls"] == {"imperium": 3, "orks": 3}
    return [e for e in out["events"] if e["type"] == "drawn_combat_move"]


def test_priority_to_the_enemy_model_not_yet_engaged(write):
    (move,) = drawn(write, "{action: pile_in, unit: marines}")
    by = {m["model"]: m for m in move["moves"]}
    assert set(by) == {"m2", "m3"}                      # m1 is in base contact: it stays
    # m2 could reach o1 (round m1, well within 6"), but o2 is engaged with nobody: m2 goes
    # straight to o2's contact ring, the point 0.984" short of o2's centre on the line from m2
    # (the line passes 2.13" from m1's centre and 2.82" from o1's: clear): 4.662" long
    spot = toward(M2, O2, D25)
    assert by["m2"]["contact"] and by["m2"]["to"] == pytest.approx(list(spot), abs=1e-4)
    assert by["m2"]["length"] == pytest.approx(math.dist(M2, O2) - D25, abs=1e-4)
    assert math.dist(M2, O2) - D25 == pytest.approx(4.6615, abs=1e-4)
    # m3 cannot reach o2 (8.06" between centres, 7.08" to its ring): it takes o1, straight in,
    # 0.984" short of o1's centre: 3.135" (its end 1.214" from m1's centre: no overlap)
    spot3 = toward(M3, O1, D25)
    assert math.dist(M3, O2) - D25 > 6
    assert by["m3"]["contact"] and by["m3"]["to"] == pytest.approx(list(spot3), abs=1e-4)
    assert by["m3"]["length"] == pytest.approx(math.dist(M3, O1) - D25, abs=1e-4)
    assert math.dist(spot3, M1) > D25
    assert sorted(move["in_contact"]) == ["m2", "m3"]


def test_both_sides_move_and_the_orks_have_nobody_left_to_move(write):
    # after the marines' move o2 touches m2 and o1 touches m1 and m3: no Ork is unengaged
    marines, orks = drawn(write, "{action: pile_in, unit: marines}", "{action: pile_in, unit: orks}")
    assert orks["moves"] == [] and orks["note"] == "every model is in base contact"


def test_the_orks_first_o2_moves_to_an_unengaged_marine(write):
    # the Orks move first: o2 is their only model not in base contact; the marines m2 and m3
    # are engaged with nobody, m1 is (with o1). o2's nearest unengaged marine: m2 (4.662" to
    # its ring, the same straight line as above) — m3 is 8.06" away; m1 (engaged) is 3.135"
    (move,) = drawn(write, "{action: pile_in, unit: orks}")
    (only,) = move["moves"]
    assert only["model"] == "o2" and only["contact"]
    assert only["to"] == pytest.approx(list(toward(O2, M2, D25)), abs=1e-4)
    assert only["length"] == pytest.approx(math.dist(M2, O2) - D25, abs=1e-4)
