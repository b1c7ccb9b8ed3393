"""Close Ranks (§8.8.1 step 1, FAQ): by hand, the FAQ's impossibility, and properties checked on
random boards (hypothesis): coherency kept, no new unit engaged, pinned models never move."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from tapeline.board.measure import gap
from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft.close_ranks import close_ranks, engaged_units, pinned
from tapeline.rules.starcraft.movement import coherency
from tapeline.rules.starcraft.ranks import ranks
from tests.conftest import EXAMPLES, scenario

R32, R50 = 32 / 25.4 / 2, 50 / 25.4 / 2


def _file(zerglings, enemies="      - {id: mr, at: [10, 10]}", enemy_profile="marauder", extra=""):
    zs = "\n".join(f"      - {{id: {i}, at: [{x!r}, {y!r}]}}" for i, x, y in zerglings)
    return scenario(f"""
tapeline: 1
system: starcraft
board: {{width: 24, height: 24}}
units:
  - id: zerglings
    side: zerg
    profile: zergling
    models:
{zs}
  - id: enemy
    side: terran
    profile: {enemy_profile}
    models:
{enemies}
{extra}""").state


LOOSE = [("z1", 10, 11.8), ("z2", 8.6, 12.4), ("z3", 11.4, 12.6), ("z4", 10, 13.4), ("z5", 8.5, 14)]


def test_all_five_into_base_contact_round_a_marauder():
    st = _file(LOOSE)
    # z1 is 11.8 − 10 − 0.984252 − 0.629921 = 0.185827" from the Marauder: it leads, 0.185827" of path
    new, cr = close_ranks(st, "zerglings")
    assert cr.leader == "z1" and cr.length == pytest.approx(0.185827, abs=1e-6)
    assert cr.gap_before == pytest.approx(0.185827, abs=1e-6) and cr.gap_after <= 1e-6
    # a 32 mm base round a 50 mm one: at most floor(π / asin(r32 / (r50 + r32))) = 7 touch; all 5 do
    assert cr.contacts_after == 5 == len(ranks(new, "zerglings").fighting_rank)
    assert coherency(new, "zerglings", "z1").ok


def test_kissing_bound_round_one_marine():
    # eight Zerglings (Squadron: 4") round a lone Marine: at most 6 equal bases touch one (the
    # kissing number of circles); the greedy placement reaches it
    zs = [("z0", 10, 11.5)] + [(f"z{i}", 7 + 1.3 * i, 13.2) for i in range(1, 8)]
    st = _file(zs, "      - {id: m1, at: [10, 10]}", "marine")
    new, cr = close_ranks(st, "zerglings")
    assert cr.contacts_after == 6
    rk = ranks(new, "zerglings")
    assert len(rk.fighting_rank) + len(rk.supporting_rank) == 8


def test_faq_everyone_in_contact_cannot_close_ranks():
    st = scenario((EXAMPLES / "fight-zerglings-two-units.yaml").read_text()).state
    with pytest.raises(IllegalAction) as e:
        close_ranks(st, "zerglings")
    assert "FAQ" in e.value.rule and "already in base contact" in e.value.message


def test_unengaged_and_pinned_leader_are_refused():
    st = _file([("z1", 3, 3), ("z2", 4.5, 3)])
    with pytest.raises(IllegalAction, match="not Engaged"):
        close_ranks(st, "zerglings")
    st = _file([("z1", 10, 10 + R50 + R32), ("z2", 10, 13)])
    with pytest.raises(IllegalAction, match="pinned"):
        close_ranks(st, "zerglings", leader="z1")


def test_given_path_must_end_closer_and_within_3():
    st = _file(LOOSE)
    with pytest.raises(IllegalAction, match="closer"):
        close_ranks(st, "zerglings", leader="z4", path=[[10.5, 13.6]])
    with pytest.raises(IllegalAction, match="too_long"):
        close_ranks(st, "zerglings", leader="z5", path=[[8.5, 18]])


def test_no_new_engagement_no_disengage():
    # medics stand where the default spots would bring a Zergling within 1": the placement keeps
    # 1" from them, and a path given into them is refused
    extra = """  - id: medics
    side: terran
    profile: medic
    models:
      - {id: d1, at: [13.2, 11.0]}"""
    st = _file(LOOSE, extra=extra)
    new, cr = close_ranks(st, "zerglings")
    assert engaged_units(new, "zerglings") == {"enemy"}
    with pytest.raises(IllegalAction, match="cannot engage new units"):
        close_ranks(st, "zerglings", leader="z3", path=[[12.0, 11.6]])


def test_burrowed_loses_the_status():
    st = _file(LOOSE)
    from dataclasses import replace
    st = st.with_unit(replace(st.unit("zerglings"), status=frozenset({"burrowed"})))
    new, _ = close_ranks(st, "zerglings")
    assert "burrowed" not in new.unit("zerglings").status


# --- properties on random boards ---------------------------------------------------------------

@st.composite
def boards(draw):
    ang = draw(st.floats(0, 2 * math.pi))
    g0 = draw(st.one_of(st.just(0.0), st.floats(0.02, 0.95)))
    d = R50 + R32 + g0
    pts = [(10 + d * math.cos(ang), 10 + d * math.sin(ang))]
    n = draw(st.integers(2, 6))
    for _ in range(n):
        a = draw(st.floats(0, 2 * math.pi))
        r = draw(st.floats(1.3, 2.6))
        base = pts[draw(st.integers(0, len(pts) - 1))]
        pts.append((base[0] + r * math.cos(a), base[1] + r * math.sin(a)))
    other = (draw(st.floats(4, 20)), draw(st.floats(4, 20)))
    return pts, other


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(boards())
def test_close_ranks_properties(board):
    pts, other = board
    zs = [(f"z{i}", round(x, 6), round(y, 6)) for i, (x, y) in enumerate(pts)]
    assume(all(2 <= x <= 22 and 2 <= y <= 22 for _, x, y in zs))
    assume(all(math.dist(a[1:], b[1:]) >= 2 * R32 + 1e-3 for i, a in enumerate(zs) for b in zs[i + 1:]))
    assume(all(math.dist(a[1:], (10, 10)) >= R32 + R50 - 5e-7 for a in zs))
    assume(all(math.dist(a[1:], other) >= 2 * R32 + 1.5 for a in zs) and math.dist(other, (10, 10)) > 3)
    extra = f"""  - id: medics
    side: terran
    profile: medic
    models:
      - {{id: d1, at: [{other[0]!r}, {other[1]!r}]}}"""
    try:
        s0 = _file(zs, extra=extra)
    except Exception:
        assume(False)
    assume(coherency(s0, "zerglings", "z0").ok)
    before = engaged_units(s0, "zerglings")
    assume(before == {"enemy"})
    pins = pinned(s0, "zerglings")
    try:
        new, cr = close_ranks(s0, "zerglings", leader=None)
    except IllegalAction as e:
        event(f"refused: {e.message.split(':')[0][:40]}")
        return  # impossible here (everyone pinned, or nothing closer within 3"): nothing moved
    event(f"closed ranks: {cr.contacts_before} -> {cr.contacts_after} in contact")
    assert engaged_units(new, "zerglings") == before                     # no new unit, none left
    for m in pins:                                                        # pinned never move
        assert new.figure(m).at == s0.figure(m).at
    assert cr.length <= 3 + 1e-6 and cr.gap_after < cr.gap_before       # 3", and closer
    if not cr.removed:
        assert coherency(new, "zerglings", cr.leader).ok                 # coherency kept
    assert cr.contacts_after >= cr.contacts_before
