"""Audit of StarCraft TMG template weapons (§8.7.6 and its FAQ) through ``tapeline template``
(weapon form) and ``shoot``: alignment, affected and excluded models with their reasons,
Batches, dice and Surge, Spillover onto friends, foes and Engaged units, Guardian Shield, and
each Batch's exact odds against an independent step-by-step computation of the three pools."""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import pytest

from tests.conftest import cli, cli_json

R32, R40 = 16 / 25.4, 20 / 25.4

TANK = "cannon: {{name: Cannon, phase: assault, range: BT, target: {target}, roa: 1, hit: 4, surge: [light], damage: 1}}"

# A Blast centred on z1 at (10, 10), radius 1.5: a 32 mm base is covered when its centre is
# nearer than 1.5 + 0.629921 = 2.129921. Every covered model, worked out by hand:
#   z5 (11.6, 10)   d 1.6    every line from z1's base (y 9.37–10.63) to z5's crosses the Size 2
#                            wall (x 10.75–10.85, y 9.2–11)                          -> terrain
#   z7 (9.6, 8.4)   d 1.649  the lines to it cross a Size 1 rubble strip: it does not block -> affected
#   z6 (8.9, 11.6)  d 1.942  stands on the Size 3 mesa: High Ground, not Ground Level -> elevation
#   mu1 (10.4, 11.8) d 1.844 Flying, and the cannon is Target Ground                 -> flying
#   s1 (8.3, 9.5)   d 1.772  its unit is Mechanical only: no Combat Tag shared        -> no_shared_tag
# (A friendly model cannot be under a Blast centred on a 32 mm target without being within 1"
# of it — Engaged with the primary, which an Unengaged attacker could then not target: friendly
# Spillover is FRIENDLY below, from an Engaged Firebat.)
EXCLUSIONS = """
tapeline: 1
system: starcraft
name: audit exclusions
board: {{width: 20, height: 20}}
terrain:
  - {{id: wall, footprint: {{rect: [10.75, 9.2, 0.1, 1.8]}}, size: 2}}
  - {{id: rubble, footprint: {{rect: [9, 9.05, 2, 0.1]}}, size: 1}}
  - {{id: mesa, footprint: {{rect: [8.2, 10.9, 1.4, 1.4]}}, size: 3}}
units:
  - id: tank
    side: terran
    size: 3
    base: 80
    tags: [armoured, mechanical, ground]
    stats: {{armour: 3, hp: 14, weapons: {{{weapon}}}}}
    models: [{{id: t1, at: [2.5, 10]}}]
  - id: za
    side: zerg
    profile: zergling
    {zstatus}
    models:
      - {{id: z1, at: [10, 10]}}
      - {{id: z5, at: [11.6, 10]}}
      - {{id: z6, at: [8.9, 11.6], on: mesa}}
      - {{id: z7, at: [9.6, 8.4]}}
  - id: mutas
    side: zerg
    size: 2
    base: 32
    tags: [biological, light, flying]
    models: [{{id: mu1, at: [10.4, 11.8]}}]
  - id: sentinels
    side: zerg
    size: 1
    base: 32
    tags: [mechanical]
    models: [{{id: s1, at: [8.3, 9.5]}}]
{rest}
"""


def exclusions(write, target="ground", zstatus="", rest=""):
    return write(EXCLUSIONS.format(weapon=TANK.format(target=target), zstatus=zstatus, rest=rest))


def weapon(f, *extra):
    code, o = cli_json("template", f, "--unit", "tank", "--weapon", "cannon", *extra)
    assert code == 0, o
    return o


def reasons(o):
    return {e["model"]: e["reason"] for e in o["excluded"]}


def batches(o):
    return [(b["unit"], b["primary"], b["dice"], b["surge"]) for b in o["batches"]]


def test_affected_and_excluded_with_reasons(write):
    o = weapon(exclusions(write), "--target", "z1")
    assert o["template"]["shape"] == "blast" and o["template"]["centre"] == [10, 10] and o["template"]["radius"] == 1.5
    assert o["target_point"] == [10, 10] and o["firing_model"] == "t1"
    assert {c["model"] for c in o["covered"]} == {"z1", "z5", "z6", "z7", "mu1", "s1"}
    assert o["affected"] == {"za": ["z1", "z7"]}
    assert reasons(o) == {"z5": "terrain", "z6": "elevation", "mu1": "flying", "s1": "no_shared_tag"}
    assert [e for e in o["excluded"] if e["model"] == "z5"][0]["terrain"] == ["wall"]
    # primary: one die per affected model, Surge not rolled = 2 (Zerglings are Light)
    assert batches(o) == [("za", True, 2, 2)]


def test_target_all_brings_flyers_in_as_spillover(write):
    o = weapon(exclusions(write, target="all"), "--target", "z1")
    # a Target All weapon affects Flying models; the Mutalisks share Biological and Light
    assert o["affected"] == {"za": ["z1", "z7"], "mutas": ["mu1"]}
    assert "mu1" not in reasons(o)
    assert batches(o) == [("za", True, 2, 2), ("mutas", False, 1, None)]


def test_a_moved_target_point_and_the_lines_still_from_the_target(write):
    f = exclusions(write)
    # (10.5, 10.5) is 0.707" from z1's centre: z1 stays wholly under (0.707 + 0.63 ≤ 1.5)
    o = weapon(f, "--target", "z1", "--at", "10.5,10.5")
    assert o["target_point"] == [10.5, 10.5]
    # z7 (d 2.28) and s1 (d 2.42) are no longer covered; z5 is still behind the wall as seen from z1's base
    assert {c["model"] for c in o["covered"]} == {"z1", "z5", "z6", "mu1"}
    assert o["affected"] == {"za": ["z1"]} and reasons(o)["z5"] == "terrain"
    # 0.9" off centre leaves part of z1's base outside: not "as much as possible"
    code, out, err = cli("template", f, "--unit", "tank", "--weapon", "cannon", "--target", "z1", "--at", "10.9,10")
    assert code == 2 and "§8.7.6 Blast alignment" in err and "--at" in err and str(f) in err and "Traceback" not in err


def test_guardian_shield_removes_a_die_from_every_batch(write):
    o = weapon(exclusions(write, zstatus="status: [guardian_shield]"), "--target", "z1")
    assert [(b["unit"], b["dice"]) for b in o["batches"]] == [("za", 1)]
    assert o["batches"][0]["kills_pmf"] == pytest.approx([0.5, 0.5])
    o = weapon_of(write(FRIENDLY.replace("profile: marine", "profile: marine\n    status: [guardian_shield]")), "firebats", "flamer", "--target", "z1")
    assert [(b["unit"], b["dice"]) for b in o["batches"]] == [("lings", 2), ("marines", 0)]      # Spillover included


def pools(n, hit, surge, armour, evade, dmg, hp, removable, marker=0):
    """Exact kills PMF of one Batch, step by step as §8.7.4 reads (an independent working):
    n dice hit on ``hit``+; Surge moves min(surge, hits) straight to the Damage Pool; the rest
    roll Armour (a failure below ``armour``); Evade (if any) removes successes on ``evade``+;
    DMG per die, models of ``hp`` removed one at a time, at most ``removable``."""
    p_hit = F(7 - hit, 6)
    p_fail = F(armour - 1, 6)
    p_keep = F(1) if evade is None else F(evade - 1, 6)
    out = [F(0)] * (removable + 1)

    def binom(k, p):
        return [comb(k, i) * p ** i * (1 - p) ** (k - i) for i in range(k + 1)]

    for h, ph in enumerate(binom(n, p_hit)):
        moved = min(surge, h)
        for f, pf in enumerate(binom(h - moved, p_fail)):
            for r, pr in enumerate(binom(moved + f, p_keep)):
                out[min(removable, (r * dmg + marker) // hp)] += ph * pf * pr
    return [float(x) for x in out]


def test_batch_odds_against_an_independent_working(write):
    o = weapon(exclusions(write), "--target", "z1")
    (za,) = o["batches"]
    # z1 and z7 (and z6 on the mesa) are Visible to the tank, z5 (behind the wall) is not
    assert set(za["removable"]) >= {"z1", "z7"} and "z5" not in za["removable"]
    n = len(za["removable"])
    assert za["kills_pmf"] == pytest.approx(pools(2, 4, 2, 6, None, 1, 1, n)[: len(za["kills_pmf"])], abs=1e-12)
    assert za["mean_kills"] == pytest.approx(1.0)                              # 2 × 1/2, Surge past the Armour


ROACHES = """
tapeline: 1
system: starcraft
name: audit roaches
board: {width: 24, height: 18}
units:
  - id: tank
    side: terran
    size: 3
    base: 80
    tags: [armoured, mechanical, ground]
    stats:
      armour: 3
      hp: 14
      weapons:
        cannon: {name: Cannon, phase: assault, range: BT, target: ground, roa: 1, hit: 4, surge: [light], surge_dice: D3, damage: 2}
    models: [{id: t1, at: [2, 9]}]
  - id: roaches
    side: zerg
    profile: roach
    models:
      - {id: r1, at: [15, 9]}
      - {id: r2, at: [15, 10.97]}
      - {id: r3, at: [15, 7.03]}
  - id: marines
    side: terran
    profile: marine
    models: [{id: m1, at: [18, 7.5]}]
  - id: lings
    side: zerg
    profile: zergling
    models:
      - {id: l1, at: [16.5, 7.9]}
      - {id: l2, at: [18.5, 12.7]}
"""
# Blast centred on r1 (15, 9), a 50 mm Roach (r 0.984252"): r2 and r3 (d 1.97) covered; l1
# (16.5, 7.9), d 1.860 < 1.5 + 0.629921: covered, and Engaged with the Marine m1 (gap 0.29");
# m1 (d 3.35) is not covered and is more than 1" from every Roach (gap 1.42" to r3), so the
# Roaches are not Engaged and the (Unengaged) tank may target them.


def test_surge_only_for_a_primary_with_the_surge_tag_and_never_on_spillover(write):
    """Roaches (Armoured) as primary: the fixed Surge of 3 does not apply; the Zerglings (Light,
    Engaged with the Marine) as Spillover: no Surge either, though the weapon has S Dice D3."""
    f = write(ROACHES)
    o = weapon(f, "--target", "r1")
    assert o["affected"] == {"roaches": ["r1", "r2", "r3"], "lings": ["l1"]}
    rb, lb = o["batches"]
    assert (rb["dice"], rb["surge"]) == (3, None) and (lb["dice"], lb["surge"]) == (1, None)
    # Roaches: hit 4+, Armour 3+ (fails on 1–2), DMG 2 against 4 HP
    assert rb["evade"] is None
    assert rb["kills_pmf"] == pytest.approx(pools(3, 4, 0, 3, None, 2, 4, 3)[: len(rb["kills_pmf"])], abs=1e-12)
    assert rb["mean_damage"] == pytest.approx(3 * 0.5 * (2 / 6) * 2)
    # Spillover may hit an Engaged unit, which then rolls Evade (Engaged and suffering a Ranged
    # Attack): Zergling Evade 4+; with a D3 Surge Die it would always get past the Armour
    assert lb["evade"] == 4
    # an Engaged unit loses models in the §8.7.5 order, visibility ignored: both Zerglings may
    # go, and the one die's 2 damage kills two of 1 HP
    assert lb["removable"] == ["l1", "l2"]
    assert lb["kills_pmf"] == pytest.approx(pools(1, 4, 0, 6, 4, 2, 1, 2), abs=1e-12)
    assert lb["kills_pmf"] == pytest.approx([19 / 24, 0, 5 / 24])                             # 1/2 · 5/6 · 1/2


def test_spillover_rolls_no_surge_die_in_a_replay(write):
    f = write(ROACHES + """
dice: {rolls: [4, 1, 1, 5, 3, 2, 6, 6, 2, 5, 5]}
actions:
  - action: shoot
    unit: tank
    batches: [{weapon: cannon, target: r1}]
""")
    code, o = cli_json("replay", f)
    assert code == 0
    rolls = [e for e in o["events"] if e.get("type") == "roll"]
    assert rolls and not any("surge" in str(e.get("purpose", "")).lower() for e in rolls)
    b = [e for e in o["events"] if e.get("type") == "batch"]
    assert [(e["target"], e["spillover"], e["dice"]) for e in b] == [("roaches", False, 3), ("lings", True, 1)]


FIREBATS = """
tapeline: 1
system: starcraft
name: audit flamer
board: {width: 24, height: 24}
units:
  - id: firebats
    side: terran
    size: 2
    base: 40
    tags: [armoured, biological, ground]
    stats:
      armour: 4
      evade: 6
      hp: 4
      weapons:
        flamer: {name: Perdition Flamer, phase: assault, range: FT, target: ground, roa: 1, hit: 3, surge: [light], damage: 1}
    models:
      - {id: f1, at: [4, 4]}
      - {id: f2, at: [2, 8]}
  - id: lings
    side: zerg
    profile: zergling
    models:
      - {id: z1, at: [7, 8]}
      - {id: z2, at: [8.8, 10.4]}
      - {id: z3, at: [9, 5.5]}
      - {id: z4, at: [14, 16]}
"""


def test_flamer_flush_with_the_nearest_firer_aimed_at_the_target(write):
    f = write(FIREBATS)
    o = weapon_of(f, "firebats", "flamer", "--target", "z1")
    # f1 (4, 4) is 5" from z1 (7, 8); f2 (2, 8) is 5" too: ties go to file order -> f1.
    # The axis runs from f1's centre through z1's: u = (0.6, 0.8); the tip sits on f1's edge.
    assert o["firing_model"] == "f1" and o["target_point"] == [7, 8]
    t = o["template"]
    assert t["shape"] == "flamer" and t["tip"] == pytest.approx([4 + 0.6 * R40, 4 + 0.8 * R40], abs=1e-6)
    assert len(t["polygon"]) >= 20
    # z2 (8.8, 10.4) = f1 + 8·u lies on the axis 8 - 0.787402 = 7.212598" from the tip, past
    # the far circle's centre (6.75" from the tip, r 1.25) by 0.462598: wholly under, by
    # 1.25 - 0.462598 - 0.629921 = 0.157481"; z3 (9, 5.5) lies 3.1" off the axis: clear
    cov = {c["model"]: c for c in o["covered"]}
    assert set(cov) == {"z1", "z2"}
    assert cov["z2"]["full"] and cov["z2"]["margin"] == pytest.approx(1.25 - (8 - R40 - 6.75) - R32, abs=1e-6)
    assert o["affected"] == {"lings": ["z1", "z2"]}
    assert batches(o) == [("lings", True, 2, 2)]
    # the other firebat, by choice: its axis (2, 8) -> (7, 8) runs along +x
    o = weapon_of(f, "firebats", "flamer", "--target", "z1", "--model", "f2")
    assert o["firing_model"] == "f2" and o["template"]["tip"] == pytest.approx([2 + R40, 8], abs=1e-6)


def test_flamer_refuses_at_and_an_unreachable_target(write):
    f = write(FIREBATS)
    code, out, err = cli("template", f, "--unit", "firebats", "--weapon", "flamer", "--target", "z1", "--at", "7,8")
    assert code == 2 and "Flamer" in err and "Traceback" not in err
    code, out, err = cli("template", f, "--unit", "firebats", "--weapon", "flamer", "--target", "z4")
    assert code == 2 and "does not reach" in err and str(f) in err


def weapon_of(f, unit, w, *extra):
    code, o = cli_json("template", f, "--unit", unit, "--weapon", w, *extra)
    assert code == 0, o
    return o


@pytest.mark.parametrize("args,where", [
    (["--unit", "tank", "--weapon", "cannon"], "--target"),                   # a template weapon without a target
    (["--unit", "tank", "--weapon", "laser", "--target", "z1"], "--weapon"),
    (["--unit", "tank", "--weapon", "cannon", "--target", "nobody"], "--target"),
    (["--unit", "tank", "--weapon", "cannon", "--target", "t1"], "§8.7.6"),     # not an enemy
])
def test_weapon_form_bad_input_exits_2_located(write, args, where):
    f = exclusions(write)
    code, out, err = cli("template", f, *args)
    assert code == 2 and out == "" and "Traceback" not in err and str(f) in err and where in err and err.count("\n") == 1


@pytest.mark.parametrize("system", ["heresy", "classic40k"])
def test_weapon_form_is_starcraft_only(write, system):
    f = write(f"""
        tapeline: 1
        system: {system}
        board: {{width: 10, height: 10}}
        units: [{{id: a, side: x, base: 25, models: [{{id: a1, at: [3, 3]}}]}}]
        """)
    code, out, err = cli("template", f, "--unit", "a", "--weapon", "flamer", "--target", "a1")
    assert code == 2 and "--shape" in err and "Traceback" not in err


def test_shoot_replay_with_spillover_and_nothing_half_applied(write):
    rest = """dice: {rolls: [4, 1, 5, 2]}
actions:
  - action: shoot
    unit: tank
    batches: [{weapon: cannon, target: z1}]
expect:
  - {expect: attack, action: 0, batch: 0, value: attack_dice, equals: 2}
  - {expect: attack, action: 0, batch: 0, value: hits, equals: 1}
  - {expect: casualties, action: 0, batch: 0, count: 1}"""
    # primary: to hit 4 and 1 -> one hit, Surge 2 moves it past the Armour: one Zergling dies
    f = exclusions(write, rest=rest)
    code, o = cli_json("replay", f)
    assert code == 0 and o["ok"], o.get("expectations")
    tpl = [e for e in o["events"] if e.get("type") == "template"]
    assert len(tpl) == 1 and tpl[0]["affected"] == {"za": ["z1", "z7"]}
    assert {e["model"]: e["reason"] for e in tpl[0]["excluded"]} == {"z5": "terrain", "z6": "elevation", "mu1": "flying",
                                                                      "s1": "no_shared_tag"}
    cas = [e for e in o["events"] if e.get("type") == "casualties"]
    assert [len(e["models"]) for e in cas] == [1]
    # the same order with an illegal Target Point stops at that action, nothing applied
    bad = exclusions(write, rest="""dice: {rolls: [6, 6, 6, 6]}
actions:
  - {action: place, model: s1, to: [8.3, 6]}
  - action: shoot
    unit: tank
    batches: [{weapon: cannon, target: z1, at: [11, 10]}]""")
    code, out, err = cli("replay", bad)
    assert code == 2 and "actions[1]" in err and "§8.7.6 Blast alignment" in err and "Traceback" not in err
    code, o = cli_json("template", bad, "--shape", "blast", "--at", "10,10", "--after", "0")
    assert code == 0 and "s1" not in {c["model"] for c in o["covered"]}


# A Firebat Engaged with the Zerglings (z1 in base contact) may flame them (an Engaged unit may
# target the units it is Engaged with); the teardrop along +x from its edge (4.787402, 4) also
# covers the friendly Marine m1 (9, 4.9): 4.21" along, 0.9" across, where the outline is about
# 0.96" from the axis. m1 shares Biological, Light and Ground with the Zerglings: Spillover
# onto a friend, itself Engaged with z2 (0.46" apart): it rolls Evade (Marine 5+).
FRIENDLY = """
tapeline: 1
system: starcraft
name: audit friendly spillover
board: {width: 20, height: 12}
units:
  - id: firebats
    side: terran
    size: 2
    base: 40
    tags: [armoured, biological, ground]
    stats:
      armour: 4
      evade: 6
      hp: 4
      weapons:
        flamer: {name: Perdition Flamer, phase: assault, range: FT, target: ground, roa: 1, hit: 3, surge: [light], damage: 1}
    models: [{id: f1, at: [4, 4]}]
  - id: marines
    side: terran
    profile: marine
    models: [{id: m1, at: [9, 4.9]}]
  - id: lings
    side: zerg
    profile: zergling
    models:
      - {id: z1, at: [5.417323, 4]}
      - {id: z2, at: [8, 3.5]}
"""


def test_spillover_onto_a_friendly_unit_from_an_engaged_firer(write):
    o = weapon_of(write(FRIENDLY), "firebats", "flamer", "--target", "z1")
    assert o["firing_model"] == "f1" and o["template"]["tip"] == pytest.approx([4 + R40, 4], abs=1e-6)
    assert o["affected"] == {"lings": ["z1", "z2"], "marines": ["m1"]} and o["excluded"] == []
    lb, mb = o["batches"]
    assert (lb["unit"], lb["primary"], lb["dice"], lb["surge"]) == ("lings", True, 2, 2)
    assert (mb["unit"], mb["primary"], mb["dice"], mb["surge"]) == ("marines", False, 1, None)
    # the Zerglings are Engaged (with f1): Evade 4+ even against Surge (FAQ); hit 3+
    assert lb["evade"] == 4 and lb["kills_pmf"] == pytest.approx(pools(2, 3, 2, 6, 4, 1, 1, 2), abs=1e-12)
    assert mb["evade"] == 5 and mb["mean_damage"] == pytest.approx((4 / 6) * (4 / 6) * (4 / 6))     # hit, Armour 5+, Evade 5+
