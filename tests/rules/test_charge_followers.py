"""§8.7.7 step 4: the rest of a charging unit — the default placement and the player's ``set:``.

The table of issue 21 item 3: two Zealots (40 mm, r = 0.787402", IMPACT (3) 4+) charge a
Marauder (50 mm, r = 0.984252") at (12, 10) and a HIDDEN Marine (32 mm, r = 0.629921") at
(10.5, 8.2), both declared. Every expected position below is worked out by hand from circle
intersections; every IMPACT count from the seed's rule: each model in the Fighting Rank makes
3 dice, HIDDEN units are immune.
"""

from __future__ import annotations

import math

import pytest

from tapeline.board.bases import RoundBase
from tapeline.board.measure import gap
from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft import charge, impact
from tests.conftest import scenario

RZ, RM, RH = RoundBase(40).radius, RoundBase(50).radius, RoundBase(32).radius
MR, H1, START = (12.0, 10.0), (10.5, 8.2), (5.0, 10.0)

TABLE = """
tapeline: 1
system: starcraft
name: Zealots, a Marauder and a HIDDEN Marine
board: {width: 24, height: 24}
units:
  - id: zealots
    side: protoss
    profile: zealot
    models:
      - {id: z1, at: [5, 10]}
      - {id: z2, at: [5, 11.8]}
  - id: marauders
    side: terran
    profile: marauder
    models:
      - {id: mr, at: [12, 10]}
  - id: ghosts
    side: terran
    profile: marine
    status: [hidden]
    models:
      - {id: h1, at: [10.5, 8.2]}
"""


def crossings(c1, r1, c2, r2):
    """The two points at r1 from c1 and r2 from c2 (by hand: the radical line)."""
    d = math.dist(c1, c2)
    a = (d * d + r1 * r1 - r2 * r2) / (2 * d)
    h = math.sqrt(r1 * r1 - a * a)
    ux, uy = (c2[0] - c1[0]) / d, (c2[1] - c1[1]) / d
    mx, my = c1[0] + a * ux, c1[1] + a * uy
    return (mx - h * uy, my + h * ux), (mx + h * uy, my - h * ux)


def leader_end():
    """The Leading Model ends touching both nominees (10" of charge is plenty: the path is
    about 5.3"): the crossing of the contact rings round mr and h1 nearer its start."""
    return min(crossings(MR, RZ + RM, H1, RZ + RH), key=lambda p: math.dist(p, START))


def resolve(spots=None, extra=""):
    L = scenario(TABLE + extra)
    # the Zealots' Charge: the higher of 2D6 → 6, Speed 4 + 6 = 10"
    return L.state, charge.resolve(L.state, "zealots", ["marauders", "ghosts"], [6, 6], leader="z1", spots=spots)


def impact_dice(state):
    return impact.declare(state, "zealots", ["marauders", "ghosts"]).dice()


def test_the_leading_model_touches_both_nominees():
    _, (new, out) = resolve()
    assert out.success and out.target_models == {"marauders": "mr", "ghosts": "h1"}
    assert new.figure("z1").at == pytest.approx(leader_end(), abs=1e-6)


def test_the_default_sets_the_zealot_touching_the_marauder_six_impact_dice():
    """Both spots touching the Leading Model and a target are priority A; the one touching only
    the HIDDEN Marine puts the Zealot in the Fighting Rank against the ghosts alone, whose
    IMPACT immunity leaves its 3 dice nowhere. The default takes a spot touching the Marauder:
    both Zealots in the Fighting Rank against it, 2 × 3 = 6 IMPACT dice (the greedy placement
    alone gave 3)."""
    _, (new, out) = resolve()
    z2 = new.figure("z2")
    assert abs(gap(z2, new.figure("mr"))) <= 1e-6
    assert out.tiers == {"z2": "A"}
    assert impact_dice(new) == {"marauders": 6}
    assert out.placement["score"]["within_1in_impact"] == 1 and out.placement["exact"]


def hidden_only_spot():
    """Touching the Leading Model and h1, on the side away from the Marauder: (9.120907,
    8.526965), 3.234039" from the Marauder's centre, so 1.462385" from its base: outside 1".
    (The greedy placement alone chose this spot.)"""
    p = max(crossings(leader_end(), 2 * RZ + 1e-7, H1, RZ + RH + 1e-7), key=lambda q: math.dist(q, MR))
    assert p == pytest.approx((9.120907, 8.526965), abs=1e-6)
    assert math.dist(p, MR) - RZ - RM == pytest.approx(1.462385, abs=1e-6)
    return p


def test_a_spot_touching_only_the_hidden_unit_may_be_set_and_gives_three_dice():
    """The priority does not tell HIDDEN targets apart: a player may set z2 there (A). Then only
    z1 strikes the Marauder: 3 IMPACT dice."""
    p = hidden_only_spot()
    _, (new, out) = resolve({"z2": p})
    assert new.figure("z2").at == pytest.approx(p, abs=1e-9)
    assert out.tiers == {"z2": "A"} and out.placement["given"] == ["z2"]
    assert impact_dice(new) == {"marauders": 3}


def test_a_spot_touching_the_marauder_is_accepted_as_given():
    p = max(crossings(leader_end(), 2 * RZ + 1e-7, MR, RZ + RM + 1e-7), key=lambda q: math.dist(q, H1))
    _, (new, out) = resolve({"z2": p})
    assert new.figure("z2").at == pytest.approx(p, abs=1e-9)
    assert abs(gap(new.figure("z2"), new.figure("mr"))) <= 1e-6 and out.tiers == {"z2": "A"}


def test_a_spot_at_priority_b_is_refused_when_base_contact_was_open():
    """(10.3937, 11.6063): 0.5" from the Marauder's base at 135° round it (within 1": B),
    2.011" from the Leading Model's centre (no overlap, wholly within 3"); base contact was open
    to z2 (the default's spot)."""
    a = math.radians(135)
    p = (MR[0] + (RZ + RM + 0.5) * math.cos(a), MR[1] + (RZ + RM + 0.5) * math.sin(a))
    assert 2 * RZ < math.dist(p, leader_end()) <= 3
    with pytest.raises(IllegalAction) as e:
        resolve({"z2": p})
    err = e.value
    assert err.field == "set.z2" and err.rule == "§8.7.7 Charge step 4"
    assert "priority B" in err.message and "priority A" in err.message and "was open" in err.message
    assert err.at(0).location == "actions[0].set.z2"


def test_a_spot_out_of_coherency_is_refused():
    """Touching the Marauder on its far side, (13.771654, 10): from the Leading Model's end
    (10.274271, 9.599232) that is √(3.497383² + 0.400768²) = 3.520270" centre to centre, so
    (same bases) its base reaches 0.520270" beyond 3" of the Leading Model's (§4.4)."""
    p = (MR[0] + RZ + RM + 1e-7, MR[1])
    assert leader_end() == pytest.approx((10.274271, 9.599232), abs=1e-6)
    assert math.dist(p, leader_end()) == pytest.approx(3.520270, abs=1e-6)
    with pytest.raises(IllegalAction) as e:
        resolve({"z2": p})
    assert e.value.field == "set.z2" and e.value.rule == "§4.4 Coherency"
    assert "not wholly within 3\"" in e.value.message and "0.52027" in e.value.message


def test_a_spot_within_1in_of_an_undeclared_enemy_is_refused():
    medics = """
  - id: medics
    side: terran
    profile: medic
    models:
      - {id: d1, at: [8.2, 12.9]}
"""
    # (9.3, 11.4): 0.47" clear of the Leading Model's base; 1.860" from d1's centre, so 0.443"
    # edge to edge (Medic 32 mm)
    with pytest.raises(IllegalAction) as e:
        resolve({"z2": (9.3, 11.4)}, medics)
    assert e.value.field == "set.z2" and "within 1\" of an undeclared enemy" in e.value.message


def test_set_keys_are_checked():
    with pytest.raises(IllegalAction, match="Leading Model"):
        resolve({"z1": (9, 9)})
    with pytest.raises(IllegalAction, match="not a model of zealots"):
        resolve({"mr": (9, 9)})
