"""Audit of Close Ranks (§8.8.1 step 1 and the FAQ): optional, 3", the Leading Model ends closer,
no new unit engaged, no Disengage, impossible when every model is in base contact, pinned models
stay, the rest reset into base contact with enemies (or squadmates within 1" of them).

Properties are checked with hypothesis on random small boards, each one independently of
tapeline's own checks: distances, overlaps, "wholly within 4"" of the Leading Model (Zerglings
are a Squadron), the Leading Model's path kept clear of enemy bases and walls by the Gap
Clearance, engagement from the seed's words (within 1", no Size 2 wall between). How close to
the most base contacts it gets is compared with a brute-force upper bound
(tests/audit/sc_brute.py: contact_bound)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft.close_ranks import close_ranks
from tests.audit.sc_brute import R32, R50, contact_bound, separated
from tests.conftest import cli, cli_json, scenario

RHO = 0.5          # a Zergling's clearance radius (Gap Clearance 1")
SQUADRON = 4.0     # Zerglings: Squadron, horizontal coherency 4"


def _text(lings, enemies, profile="marine", wall=None, medic=None, status=""):
    t = "tapeline: 1\nsystem: starcraft\nname: cr\nboard: {width: 24, height: 24}\n"
    if wall:
        t += f"terrain:\n  - {{id: wall, footprint: {{rect: [{wall[0]!r}, {wall[1]!r}, {wall[2]!r}, {wall[3]!r}]}}, size: 2}}\n"
    t += "units:\n  - id: lings\n    side: zerg\n    profile: zergling\n" + status + "    models:\n"
    t += "".join(f"      - {{id: z{i}, at: [{x!r}, {y!r}]}}\n" for i, (x, y) in enumerate(lings))
    t += f"  - id: enemy\n    side: terran\n    profile: {profile}\n    models:\n"
    t += "".join(f"      - {{id: e{i}, at: [{x!r}, {y!r}]}}\n" for i, (x, y) in enumerate(enemies))
    if medic:
        t += f"  - {{id: medics, side: terran, profile: medic, models: [{{id: d1, at: [{medic[0]!r}, {medic[1]!r}]}}]}}\n"
    return t


def _engaged(lings, enemies, re, wall) -> bool:
    """The seed's Engagement (§7.2): some pair within 1" and no Size 2 wall between them."""
    box = shapely.box(wall[0], wall[1], wall[0] + wall[2], wall[1] + wall[3]) if wall else None
    for p in lings:
        for e in enemies:
            if math.dist(p, e) - R32 - re <= 1 + 1e-6:
                if box is None or not separated([p], R32, e, re, box)[0]:
                    return True
    return False


def _check(before, new, cr, enemies, re, wall, medic):
    """Every property, worked out here from the coordinates."""
    lings0 = {f.id: f.at for f in before.figures_of("lings")}
    after = {f.id: f.at for f in new.figures_of("lings")}
    pins = [m for m, p in lings0.items() if min(math.dist(p, e) - R32 - re for e in enemies) <= 1e-6]
    assert sorted(cr.pinned) == sorted(pins)
    for m in pins:                                                           # pinned: not moved
        assert after[m] == lings0[m]
    # the Leading Model: at most 3" of path, kept clear of enemy bases and the wall by ρ, closer
    path = [lings0[cr.leader]] + [tuple(p) for p in cr.path[1:]]
    assert sum(math.dist(a, b) for a, b in zip(path, path[1:])) <= 3 + 1e-6
    line = shapely.LineString(path) if len(path) > 1 else shapely.Point(path[0])
    for e in enemies:
        assert shapely.distance(line, shapely.Point(e)) >= re + RHO - 1e-5
    if wall:
        assert shapely.distance(line, shapely.box(wall[0], wall[1], wall[0] + wall[2], wall[1] + wall[3])) >= RHO - 1e-5
    gap = lambda p: min(math.dist(p, e) - R32 - re for e in enemies)   # noqa: E731
    assert gap(after[cr.leader]) < gap(lings0[cr.leader]) - 1e-9              # ends closer
    # no overlaps, nothing on the wall, wholly on the table
    pts = list(after.values())
    for i, p in enumerate(pts):
        assert all(math.dist(p, q) >= 2 * R32 - 1e-6 for q in pts[i + 1:])
        assert all(math.dist(p, e) >= R32 + re - 1e-6 for e in enemies)
        assert R32 - 1e-6 <= p[0] <= 24 - R32 + 1e-6 and R32 - 1e-6 <= p[1] <= 24 - R32 + 1e-6
        if wall:
            assert shapely.distance(shapely.box(wall[0], wall[1], wall[0] + wall[2], wall[1] + wall[3]), shapely.Point(p)) >= R32 - 1e-6
        if medic:   # no new unit engaged: never within 1" of the Medic
            assert math.dist(p, medic) - 2 * R32 > 1
    # still Engaged (no Disengage); coherency: wholly within 4" of the Leading Model
    assert _engaged(pts, enemies, re, wall)
    if not cr.removed:
        lead = after[cr.leader]
        assert all(math.dist(p, lead) <= SQUADRON + 1e-6 for p in pts)
        assert cr.coherent
    # never fewer models in base contact than before
    contacts = sum(1 for p in pts if gap(p) <= 1e-6)
    assert contacts == cr.contacts_after >= cr.contacts_before == len(pins)
    return contacts


@st.composite
def boards(draw):
    profile = draw(st.sampled_from(["marine", "marauder"]))
    re = R32 if profile == "marine" else R50
    enemies = [(12.0, 12.0)]
    for _ in range(draw(st.integers(0, 2))):
        a, d = draw(st.floats(0, 2 * math.pi)), draw(st.floats(2 * re + 0.05, 2 * re + 1.5))
        base = enemies[draw(st.integers(0, len(enemies) - 1))]
        enemies.append((base[0] + d * math.cos(a), base[1] + d * math.sin(a)))
    a, g = draw(st.floats(0, 2 * math.pi)), draw(st.one_of(st.just(0.0), st.floats(0.02, 0.95)))
    e = enemies[draw(st.integers(0, len(enemies) - 1))]
    lings = [(e[0] + (re + R32 + g) * math.cos(a), e[1] + (re + R32 + g) * math.sin(a))]
    for _ in range(draw(st.integers(1, 4))):
        a, d = draw(st.floats(0, 2 * math.pi)), draw(st.floats(2 * R32 + 0.01, 2 * R32 + 1.2))
        base = lings[draw(st.integers(0, len(lings) - 1))]
        lings.append((base[0] + d * math.cos(a), base[1] + d * math.sin(a)))
    wall = None
    if draw(st.booleans()):
        wall = (draw(st.floats(9, 14)), draw(st.floats(9, 14)), draw(st.floats(0.2, 3)), draw(st.floats(0.2, 3)))
    medic = None
    if draw(st.booleans()):
        medic = (12 + draw(st.sampled_from([-1, 1])) * draw(st.floats(3, 5)), 12 + draw(st.sampled_from([-1, 1])) * draw(st.floats(3, 5)))
    return profile, re, [tuple(map(lambda v: round(v, 6), p)) for p in enemies], [tuple(map(lambda v: round(v, 6), p)) for p in lings], wall, medic


def _valid(re, enemies, lings, wall, medic) -> bool:
    pts = lings + enemies
    rad = [R32] * len(lings) + [re] * len(enemies)
    if any(math.dist(pts[i], pts[j]) < rad[i] + rad[j] + 1e-3 - (1e-3 if i < len(lings) <= j else 0)
           for i in range(len(pts)) for j in range(i + 1, len(pts))):
        return False
    if any(not (1 < x < 23 and 1 < y < 23) for x, y in pts):
        return False
    if wall:
        box = shapely.box(wall[0], wall[1], wall[0] + wall[2], wall[1] + wall[3])
        if any(shapely.distance(box, shapely.Point(p)) < r + 1e-3 for p, r in zip(pts, rad)):
            return False
    if medic and any(math.dist(medic, p) - r - R32 <= 1.5 for p, r in zip(pts, rad)):
        return False
    if any(math.dist(p, lings[0]) > SQUADRON - 0.1 for p in lings):
        return False
    return True


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(boards())
def test_close_ranks_properties_and_contacts_against_brute_force(board):
    profile, re, enemies, lings, wall, medic = board
    assume(_valid(re, enemies, lings, wall, medic))
    assume(_engaged(lings, enemies, re, wall))
    try:
        s0 = scenario(_text(lings, enemies, profile, wall, medic)).state
    except Exception:
        assume(False)
    try:
        new, cr = close_ranks(s0, "lings")
    except IllegalAction as e:
        pins = sum(1 for p in lings if min(math.dist(p, q) - R32 - re for q in enemies) <= 1e-6)
        # refused only when everyone is pinned (FAQ) or the Leading Model cannot get closer,
        # or the reset would break a rule: the state is untouched either way
        assert pins == len(lings) or "closer" in e.message or "Disengage" in e.message or "new units" in e.message
        return
    contacts = _check(s0, new, cr, enemies, re, wall, medic)
    pins = len(cr.pinned)
    free = [p for p in lings if min(math.dist(p, q) - R32 - re for q in enemies) > 1e-6]
    bound = contact_bound(R32, free, pins, [(x, y, re) for x, y in enemies],
                          blockers=[(x, y, R32) for x, y in lings if (x, y) not in free],
                          keep_away=[(medic[0], medic[1], R32)] if medic else (),
                          walls=[shapely.box(wall[0], wall[1], wall[0] + wall[2], wall[1] + wall[3])] if wall else ())
    assert contacts <= bound
    assert contacts >= bound - 1           # documented: within one of the brute-force bound


# --- by hand -------------------------------------------------------------------------------------

# A Marauder under a Size 2 wall (its contact ring is blocked above), one Zergling already in
# base contact at about −17° (pinned), four more below. The free stretch of the ring runs from
# the pinned model round the bottom to the wall on the left: room for exactly four more bases
# when they pack from one end; a Leading Model set in the middle of it (its shortest move)
# leaves two short pieces and only three fit.
PACK = dict(profile="marauder", enemies=[(12.166189, 12.080642)],
            lings=[(13.711361, 11.613741), (14.446494, 9.747246), (12.308537, 10.428737), (10.841380, 10.576705),
                   (15.337173, 10.823522)],
            wall=(10.925257, 13.351711, 2.410766, 1.24569))


def test_close_ranks_packs_the_free_stretch_of_the_ring():
    s0 = scenario(_text(PACK["lings"], PACK["enemies"], PACK["profile"], PACK["wall"])).state
    new, cr = close_ranks(s0, "lings")
    contacts = _check(s0, new, cr, PACK["enemies"], R50, PACK["wall"], None)
    bound = contact_bound(R32, PACK["lings"][1:], 1, [(*PACK["enemies"][0], R50)], blockers=[(*PACK["lings"][0], R32)],
                          walls=[shapely.box(10.925257, 13.351711, 10.925257 + 2.410766, 13.351711 + 1.24569)])
    assert bound == 5 and contacts == 5


def test_faq_all_in_base_contact_cannot_close_ranks(write):
    # two Zerglings, both touching the Marine: nothing can end closer
    lings = [(12 - 2 * R32, 12.0), (12 + 2 * R32, 12.0)]
    p = write(_text(lings, [(12.0, 12.0)]) + "actions:\n  - {action: close_ranks, unit: lings}\n")
    code, out, err = cli("replay", p)
    assert code == 2 and "actions[0]" in err and "FAQ" in err and "already in base contact" in err
    # the fight itself is still possible (Close Ranks is optional)
    code, o = cli_json("fight", p, "--unit", "lings")
    assert code == 0 and o["dice"] == {"enemy": 4}


def test_given_path_rules(write):
    # z0 0.5" below the Marine, z1 behind it; a given path is checked: at most 3", ends closer,
    # no new unit engaged (the Medic 1.36" to the right of z0)
    lings = [(12.0, 12 - 2 * R32 - 0.5), (12.0, 12 - 4 * R32 - 0.6)]
    text = _text(lings, [(12.0, 12.0)], medic=(14.6, 10.6))
    for path, words in (("[[10, %r], [11.5, 10.7]]" % lings[0][1], "too_long"),   # 2" + 1.57"
                        ("[[12.0, 10.0]]", "closer"),                      # farther from the Marine
                        ("[[12.9, 10.95]]", "new units")):                 # 0.48" from the Medic
        p = write(text + f"actions:\n  - {{action: close_ranks, unit: lings, leader: z0, path: {path}}}\n", "p.yaml")
        code, out, err = cli("replay", p)
        assert code == 2 and "§8.8.1 Close Ranks" in err and words in err, (path, err)
    # a pinned model cannot lead
    touching = _text([(12.0, 12 - 2 * R32), (12.0, 12 - 4 * R32 - 0.1)], [(12.0, 12.0)])
    p = write(touching + "actions:\n  - {action: close_ranks, unit: lings, leader: z0}\n", "pin.yaml")
    code, out, err = cli("replay", p)
    assert code == 2 and "pinned" in err
    # a legal given path: straight up 0.5" into base contact; z1 reset into base contact
    p = write(text + "actions:\n  - {action: close_ranks, unit: lings, leader: z0, path: [[12.0, %r]]}\n" % (12 - 2 * R32), "ok.yaml")
    code, r = cli_json("replay", p)
    assert code == 0
    ev = next(e for e in r["events"] if e["type"] == "close_ranks")
    assert ev["length"] == pytest.approx(0.5, abs=1e-9) and ev["gap_after"] == pytest.approx(0, abs=1e-6)
    assert ev["base_contact"] == 2 and ev["tiers"] == {"z1": "A"}
    code, m = cli_json("measure", p, "z1", "e0", "--after", "0")
    assert m["contact"] is True


def test_reset_into_support_when_the_enemy_is_surrounded(write):
    # a lone Marine already ringed by six Zerglings (the most 32 mm bases that can touch one);
    # a seventh, 0.3" out, leads: it cannot reach contact, so it only closes in, and the eighth
    # is reset into base contact with a squadmate within 1" of the enemy (tier B: it supports)
    ring = [(12 + 2 * R32 * math.cos(math.radians(a)), 12 + 2 * R32 * math.sin(math.radians(a))) for a in range(0, 360, 60)]
    out1 = (12 + (4 * R32 + 0.3) * math.cos(math.radians(30)), 12 + (4 * R32 + 0.3) * math.sin(math.radians(30)))
    out2 = (12 + (4 * R32 + 2.0) * math.cos(math.radians(210)), 12 + (4 * R32 + 2.0) * math.sin(math.radians(210)))
    s0 = scenario(_text(ring + [out1, out2], [(12.0, 12.0)])).state
    new, cr = close_ranks(s0, "lings")
    assert cr.contacts_before == 6 == cr.contacts_after
    assert sorted(cr.pinned) == [f"z{i}" for i in range(6)]
    z7 = new.figure("z7").at
    touching = [m for m in (f"z{i}" for i in range(7)) if math.dist(new.figure(m).at, z7) <= 2 * R32 + 1e-6]
    assert cr.tiers == {"z7": "B"} and touching
    assert all(math.dist(new.figure(m).at, (12, 12)) - 2 * R32 <= 1 for m in touching)
