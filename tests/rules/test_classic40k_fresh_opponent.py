"""40k 3rd "Removing Casualties": "a model whose foe falls before he attacks may strike a fresh
opponent instead" — and with no fresh opponent within reach it does not strike (setting
``c40k_fresh_opponent``: ``within_2``, the seed; ``any_of_unit``, the other reading). The
replay and the exact odds, with every number worked out by hand below."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tests.audit.c40k_files import BOY, D25, MARINE, scenario_text, unit
from tests.conftest import cli, cli_json

# m1 (WS4 S4 A1, one close combat weapon) strikes at I4; the sergeant (power fist, A1) last.
# The Boy o1 touches the sergeant and is 0.568" from m1 (centres 1.552" apart); the Boy o2
# stands 3.016" from m1 and 4.216" from the sergeant: it does not fight, and it is nobody's foe.
# The Boyz have no attacks (the marines' losses would only blur the sums). Casualty order: o1
# (base contact), then o2 (beyond 2").
#   m1: hits 4+ (1/2), wounds 4+ (1/2), Boy's 6+ save fails 5/6: o1 falls at I4 with 5/24.
#   fist: hits 4+ (1/2), wounds S8 v T4 2+ (5/6), no save: 5/12.
P_M1, P_FIST = F(5, 24), F(5, 12)


def units():
    mstats = dict(MARINE, wargear=["close-combat-weapon"], models={"sgt": {"wargear": ["power-fist"]}})
    return [unit("marines", "imperium", mstats, {"m1": (10, 10), "sgt": (11.2, 10)}),
            unit("orks", "orks", dict(BOY, attacks=0), {"o1": (11.2, 10 + D25), "o2": (6, 10)})]


def odds(write, fresh=None):
    settings = {"c40k_fresh_opponent": fresh} if fresh else None
    code, out = cli_json("fight", write(scenario_text(units(), settings=settings)), "--unit", "marines")
    assert code == 0, out
    return out


def test_the_seed_a_fist_whose_only_foe_fell_does_not_strike(write):
    out = odds(write)
    assert out["readings"]["c40k_fresh_opponent"] == "within_2"
    assert out["fighters"] == {"marines": ["m1", "sgt"], "orks": ["o1"]}
    # o1 falls to m1, or (m1 failing) to the fist; o2 never: the fist strikes only while o1 stands
    one = P_M1 + (1 - P_M1) * P_FIST
    assert one == F(155, 288)
    assert out["casualties_pmf"]["orks"] == pytest.approx([float(1 - one), float(one)], abs=1e-12)


def test_the_other_reading_the_fist_strikes_the_unit_wherever_it_stands(write):
    out = odds(write, "any_of_unit")
    assert out["readings"]["c40k_fresh_opponent"] == "any_of_unit"
    # o1 fallen at I4: the fist's attack goes to o2 (beyond 2") — both gone with 5/24 · 5/12
    two = P_M1 * P_FIST
    none = (1 - P_M1) * (1 - P_FIST)
    assert (none, 1 - none - two, two) == (F(133, 288), F(130, 288), F(25, 288))
    assert out["casualties_pmf"]["orks"] == pytest.approx([float(none), float(1 - none - two), float(two)], abs=1e-12)


def test_the_fist_turns_to_a_fresh_opponent_of_the_same_unit_within_2(write):
    # a third Boy o3 at (12.6, 11.8): 2.280" from the sergeant's centre (1.296" between the bases,
    # within 2"), 3.162" from m1's (2.178": beyond), 1.62" from o1's (no overlap). It is a fresh
    # opponent of the sergeant's, so with o1 fallen the fist strikes o3 under either reading:
    # both gone with 5/24 · 5/12, the same odds under both readings
    us = units()[:1] + [unit("orks", "orks", dict(BOY, attacks=0), {"o1": (11.2, 10 + D25), "o3": (12.6, 11.8), "o2": (6, 10)})]
    code, a = cli_json("fight", write(scenario_text(us)), "--unit", "marines")
    code2, b = cli_json("fight", write(scenario_text(us, settings={"c40k_fresh_opponent": "any_of_unit"}), "g.yaml"),
                        "--unit", "marines")
    assert code == code2 == 0
    assert a["fighters"]["orks"] == ["o1", "o3"]
    assert a["casualties_pmf"] == b["casualties_pmf"]
    assert a["casualties_pmf"]["orks"][2] == pytest.approx(float(P_M1 * P_FIST), abs=1e-12)


@pytest.mark.parametrize("fresh,removed,rolls", [
    # m1: to hit 6, to wound 6, save 1 (fails): o1 removed at I4. The fist then: within_2 — no
    # foe within reach, no die rolled; any_of_unit — to hit 6, to wound 6 (no save): o2 removed
    ("within_2", [["o1"]], [6, 6, 1]),
    ("any_of_unit", [["o1"], ["o2"]], [6, 6, 1, 6, 6]),
])
def test_the_replay_follows_the_reading(write, fresh, removed, rolls):
    text = scenario_text(units(), settings={"c40k_fresh_opponent": fresh}, actions=["{action: fight, unit: marines}"], dice=rolls)
    code, out = cli_json("replay", write(text))
    assert code == 0, out
    assert [e["models"] for e in out["events"] if e["type"] == "casualties"] == removed
    fist = [e for e in out["events"] if e["type"] == "strike" and e["group"] == "marines power-fist"]
    if fresh == "within_2":
        assert fist[0]["note"] == "no enemy model left within reach to strike" and fist[0]["target"] is None
    else:
        assert fist[0]["target"] == "orks" and fist[0]["wounds_lost"] == 1
    res = next(e for e in out["events"] if e["type"] == "assault_result")
    assert res["wounds"] == {"imperium": len(removed), "orks": 0} and not res["tiebreak"]


def test_a_reading_of_another_name_is_refused_at_check(write):
    text = scenario_text(units(), settings={"c40k_fresh_opponent": "nearest"})
    code, out, err = cli("check", write(text))
    assert code == 2 and "settings.c40k_fresh_opponent" in err and "Traceback" not in err
