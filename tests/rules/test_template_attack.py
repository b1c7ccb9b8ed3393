"""StarCraft template weapons (§8.7.6 and its FAQ) on real boards: alignment, affected and
excluded models, primary and Spillover Batches, exact odds, replay."""

from __future__ import annotations

import math
import textwrap

import pytest

from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft import template_attack as ta
from tapeline.rules.starcraft.batches import Modifiers
from tapeline.scenarios.replay import run
from tests.conftest import scenario

R32, R40, R50 = 16 / 25.4, 20 / 25.4, 25 / 25.4

TANK = """
- id: tank
  side: terran
  size: 3
  base: 80
  tags: [armoured, mechanical, ground]
  stats:
    armour: 3
    hp: 12
    weapons:
      cannon: {name: Shock Cannon, phase: assault, range: BT, target: ground, roa: 1, hit: 4, surge: [light], damage: 2}
      rifle: {name: Rifle, phase: assault, range: 12, target: ground, roa: 1, hit: 4}
  models: [{id: t1, at: [2, 10]}]
"""


def board(units: str, terrain: str = "", extra: str = "", width: int = 36):
    text = f"tapeline: 1\nsystem: starcraft\nboard: {{width: {width}, height: 24}}\n" + textwrap.dedent(terrain)
    text += "units:\n" + textwrap.indent(textwrap.dedent(TANK) + textwrap.dedent(units), "  ") + textwrap.dedent(extra)
    return scenario(text)


SIEGE = """
- id: zerglings
  side: zerg
  profile: zergling
  models:
    - {id: z1, at: [18, 10]}
    - {id: z2, at: [19.3, 10.3]}
    - {id: z3, at: [18.2, 11.4]}
    - {id: z4, at: [16, 13]}
- id: roaches
  side: zerg
  profile: roach
  models: [{id: r1, at: [18.6, 8.2]}]
"""


MARINE = """
- id: marines
  side: terran
  profile: marine
  models: [{id: m1, at: [%s, %s]}]
"""


def test_siege_tank_blast_primary_and_spillover():
    """The rulebook's picture: the target Zergling and others of its unit under the Blast, a
    Roach of another unit partly under it (Spillover: shares Ground and Biological)."""
    st = board(SIEGE).state
    p = ta.plan(st, "tank", "cannon", "z1")
    # distances from the centre (18, 10): z2 1.334", z3 1.414" (< 1.5 + 0.63: partly), z4 3.61"
    # (not covered); r1 1.897" < 1.5 + 0.984 (partly); z1 wholly under (1.5 − 0.63 = 0.87" inside)
    assert p.template.centre == (18.0, 10.0) and p.target_point == (18.0, 10.0)
    assert {c["model"]: c["full"] for c in p.covered} == {"z1": True, "z2": False, "z3": False, "r1": False}
    assert p.covered[0]["inside"] == pytest.approx(1.5 - R32)
    assert dict(p.affected) == {"zerglings": ("z1", "z2", "z3"), "roaches": ("r1",)}
    assert p.excluded == ()
    prim, spill = p.batches
    assert (prim.unit, prim.primary, prim.spec.dice, prim.spec.surge_fixed, prim.spec.surge_applies) == ("zerglings", True, 3, 3, True)
    assert prim.spec.surge_dice is None  # not rolled
    assert (spill.unit, spill.primary, spill.spec.dice, spill.spec.surge_fixed) == ("roaches", False, 1, None)


def test_exact_odds_per_batch():
    """Hand-worked: 3 dice hitting on 4+, Surge 3 moves every hit past the 6+ Armour, DMG 2,
    Zerglings of 1 HP, 4 of them Visible: kills = min(2·hits, 4) with hits ~ Bin(3, 1/2). The
    Roach: 1 die, hit 1/2, Armour 3+ fails 1/3, 2 damage never reaches its 4 HP."""
    st = board(SIEGE).state
    p = ta.plan(st, "tank", "cannon", "z1")
    prim, spill = ta.batch_odds(st, p)
    assert prim["kills_pmf"] == pytest.approx([1 / 8, 0, 3 / 8, 0, 1 / 2])
    assert prim["mean_kills"] == pytest.approx(2.75) and prim["surge"] == 3
    assert prim["mean_hits"] == pytest.approx(1.5)
    assert spill["mean_kills"] == 0 and spill["mean_damage"] == pytest.approx(2 * 1 / 2 * 1 / 3)
    assert spill["surge"] is None and spill["dice"] == 1


EXCLUSIONS = """
- id: zerglings
  side: zerg
  profile: zergling
  models:
    - {id: z1, at: [10, 10]}
    - {id: z5, at: [11.6, 10]}
    - {id: z6, at: [8.6, 8.6], on: mesa}
- id: drones
  side: zerg
  size: 1
  base: 32
  tags: [mechanical, flying]
  models: [{id: d1, at: [8.3, 10.6]}]
- id: sentinels
  side: zerg
  size: 1
  base: 32
  tags: [mechanical]
  models: [{id: s1, at: [10.0, 8.15]}]
"""
EX_TERRAIN = """
terrain:
  - {id: wall, footprint: {rect: [10.75, 8, 0.1, 4]}, size: 2}
  - {id: mesa, footprint: {rect: [7.9, 7.9, 1.4, 1.4]}, size: 3}
"""


def test_excluded_models_and_their_reasons():
    st = board(EXCLUSIONS, EX_TERRAIN).state
    p = ta.plan(st, "tank", "cannon", "z1")
    assert {c["model"] for c in p.covered} == {"z1", "z5", "z6", "d1", "s1"}
    reasons = {e.model: e.reason for e in p.excluded}
    assert reasons == {"z5": "terrain", "z6": "elevation", "d1": "flying", "s1": "no_shared_tag"}
    assert next(e for e in p.excluded if e.model == "z5").terrain == ("wall",)
    assert dict(p.affected) == {"zerglings": ("z1",)} and len(p.batches) == 1


def test_friendly_models_spill_over():
    """A friendly Marine under the Blast shares Biological, Light and Ground with the Zerglings:
    a Spillover Batch of its own (the Blast moved 0.8" off z1's centre, still wholly over z1)."""
    st = board("""
        - id: zerglings
          side: zerg
          profile: zergling
          models: [{id: z1, at: [18, 10]}]
        - id: marines
          side: terran
          profile: marine
          models: [{id: m1, at: [20.85, 10.3]}]
        """).state
    p = ta.plan(st, "tank", "cannon", "z1", at=(18.8, 10.0))
    assert dict(p.affected) == {"zerglings": ("z1",), "marines": ("m1",)}
    assert [(b.unit, b.primary, b.spec.dice) for b in p.batches] == [("zerglings", True, 1), ("marines", False, 1)]


def test_target_all_weapons_affect_flyers_under_a_ground_template():
    """Flying models are on no elevation level for templates: a ground-level template affects
    them only if the weapon is Target All or Flying (here the flyer shares Biological)."""
    units = EXCLUSIONS.replace("tags: [mechanical, flying]", "tags: [biological, flying]")
    st = board(units, EX_TERRAIN).state
    assert {e.model: e.reason for e in ta.plan(st, "tank", "cannon", "z1").excluded}["d1"] == "flying"
    global TANK
    ground = TANK
    try:
        TANK = ground.replace("range: BT, target: ground", "range: BT, target: all")
        st = board(units, EX_TERRAIN).state
    finally:
        TANK = ground
    p = ta.plan(st, "tank", "cannon", "z1")
    assert "d1" not in {e.model for e in p.excluded}
    assert p.affected["drones"] == ("d1",)


def test_blast_alignment_at():
    st = board(SIEGE).state
    # a 32 mm base fits under a 3" Blast: the centre may move up to 1.5 − 0.63 = 0.87" away
    p = ta.plan(st, "tank", "cannon", "z1", at=(18.5, 10.6))
    assert p.target_point == (18.5, 10.6) and p.template.centre == (18.5, 10.6)
    with pytest.raises(IllegalAction, match="as much of z1's base"):
        ta.plan(st, "tank", "cannon", "z1", at=(18.9, 10.0))
    # an 80 mm base (r 1.575") is larger than the Blast: it must stay wholly over the base
    big = board("""
        - id: queens
          side: zerg
          profile: queen
          models: [{id: q1, at: [18, 10]}]
        """).state
    ta.plan(big, "tank", "cannon", "q1", at=(18.05, 10.0))
    with pytest.raises(IllegalAction, match="§8.7.6 Blast alignment"):
        ta.plan(big, "tank", "cannon", "q1", at=(18.1, 10.0))


FIREBAT = """
- id: firebat
  side: terran
  base: 40
  size: 2
  tags: [biological, armoured, ground]
  stats:
    armour: 4
    hp: 3
    weapons:
      flamer: {name: Perdition Flamer, phase: assault, range: FT, target: ground, roa: 1, hit: 3, surge: [light], damage: 1}
  models: [{id: f1, at: [5, 5]}]
- id: zerglings
  side: zerg
  profile: zergling
  models:
    - {id: z1, at: [9, 5]}
    - {id: z2, at: [11.5, 5.2]}
    - {id: z3, at: [9, 7.5]}
    - {id: z9, at: [20, 5]}
"""


def test_firebat_flamer_flush_and_covering_two():
    st = board(FIREBAT).state
    p = ta.plan(st, "firebat", "flamer", "z1")
    assert p.firing_model == "f1" and p.target_point == (9.0, 5.0)
    assert p.template.tip == pytest.approx((5 + R40, 5.0))      # flush with the 40 mm base
    assert dict(p.affected) == {"zerglings": ("z1", "z2")}    # z3 lies 2.5" off the axis
    assert "f1" not in {c["model"] for c in p.covered}         # touching is not covering
    (b,) = p.batches
    assert b.spec.dice == 2 and b.spec.surge_fixed == 2
    with pytest.raises(IllegalAction, match="does not reach z9"):
        ta.plan(st, "firebat", "flamer", "z9")
    with pytest.raises(IllegalAction, match="at applies to a Blast"):
        ta.plan(st, "firebat", "flamer", "z1", at=(9, 5))


def test_targeting_rules_and_bad_requests():
    st = board(SIEGE).state
    with pytest.raises(IllegalAction, match="name the target model"):
        ta.plan(st, "tank", "cannon")
    with pytest.raises(IllegalAction, match="not a template weapon"):
        ta.plan(st, "tank", "rifle", "z1")
    with pytest.raises(IllegalAction, match="not an enemy"):
        ta.plan(board(SIEGE + MARINE % (25, 20)).state, "tank", "cannon", "m1")


def test_engaged_primary_is_refused_but_spillover_hits_engaged_units():
    st = board(SIEGE + MARINE % (16, 14.5)).state  # z4 (16, 13) is within 1" of m1: the Zerglings are Engaged
    with pytest.raises(IllegalAction, match="§8.7.3 Engaged units"):
        ta.plan(st, "tank", "cannon", "z1")
    p = ta.plan(st, "tank", "cannon", "r1")  # the Roach is the primary; Zerglings spill over
    assert list(p.affected) == ["roaches", "zerglings"]
    spill = p.batches[1]
    assert spill.targeting.target_engaged and spill.spec.evade == 4
    assert "Engaged and suffering a Ranged Attack (§8.7.4)" in spill.targeting.evade_reasons
    assert spill.targeting.removable == ("z1", "z2", "z3", "z4")  # §8.7.5: visibility ignored


def test_guardian_shield_removes_a_die_from_every_batch_and_modifiers_stay_primary():
    st = board(SIEGE.replace("profile: roach", "profile: roach\n  status: [guardian_shield]")).state
    p = ta.plan(st, "tank", "cannon", "z1", mods=Modifiers(extra_dice=2, precision=1))
    prim, spill = p.batches
    assert prim.spec.dice == 5 and prim.spec.precision == 1   # 3 affected + 2 RoA modifier dice
    assert spill.spec.dice == 0 and spill.spec.precision == 0  # 1 − Guardian Shield; no modifiers


def test_casualty_readings():
    st = board(SIEGE).state
    p = ta.plan(st, "tank", "cannon", "z1")
    assert p.casualties == "visible" and p.batches[0].targeting.removable == ("z1", "z2", "z3", "z4")
    st = board(SIEGE, extra="settings: {template_casualties: affected}\n").state
    p = ta.plan(st, "tank", "cannon", "z1")
    assert p.casualties == "affected" and p.batches[0].targeting.removable == ("z1", "z2", "z3")
    prim = ta.batch_odds(st, p)[0]
    assert prim["kills_pmf"] == pytest.approx([1 / 8, 0, 3 / 8, 1 / 2])  # capped at 3 affected


STORM = """
- id: templar
  side: protoss
  base: 40
  size: 2
  tags: [biological, psionic, ground]
  stats:
    hp: 2
    armour: 5
    weapons:
      psionic-storm: {name: Psionic Storm, phase: assault, range: BT, target: ground, roa: 1, hit: 3, damage: 1, keywords: {ability_template: true}}
  models: [{id: h1, at: [4, 4]}]
- id: zerglings
  side: zerg
  profile: zergling
  models: [{id: z1, at: [18, 10]}, {id: z2, at: [19.3, 10.3]}]
- id: drones
  side: zerg
  size: 1
  base: 32
  tags: [mechanical, flying]
  models: [{id: d1, at: [17.0, 8.8]}]
- id: zealots
  side: protoss
  profile: zealot
  models: [{id: e1, at: [16.9, 11.3]}]
"""


def test_ability_template_with_no_target():
    """FAQ: the point under the centre is the Target Point, no shared tags needed, Flying models
    count at their base's elevation; friend and foe alike, one Batch per unit, no Surge."""
    st = board(STORM).state
    p = ta.plan(st, "templar", "psionic-storm", at=(18, 10))
    assert p.primary is None and p.target_point == (18, 10) and p.level == "Ground Level"
    assert dict(p.affected) == {"zerglings": ("z1", "z2"), "drones": ("d1",), "zealots": ("e1",)}
    assert [(b.unit, b.primary, b.spec.dice, b.spec.surge_fixed) for b in p.batches] == [
        ("zerglings", False, 2, None), ("drones", False, 1, None), ("zealots", False, 1, None)]
    with pytest.raises(IllegalAction, match="ability template"):
        ta.plan(st, "templar", "psionic-storm", "z1")
    with pytest.raises(IllegalAction, match="give the point"):
        ta.plan(st, "templar", "psionic-storm")


def test_shoot_replays_template_batches_and_nothing_half_applies():
    actions = """
    dice: {rolls: [6, 5, 1, 4, 6]}
    actions:
      - action: shoot
        unit: tank
        batches:
          - {weapon: cannon, target: z1, casualties: [z4, z1]}
    """
    loaded = board(SIEGE, extra=actions)
    r = run(loaded)
    kinds = [e["type"] for e in r.events]
    assert kinds == ["action", "template", "batch", "roll", "casualties", "batch", "roll", "roll", "casualties"]
    # hits 6, 5 (1 misses): Surge 3 moves both past Armour: 4 damage, 4 Zerglings of 1 HP
    assert r.final.unit("zerglings").removed == ("z4", "z1", "z2", "z3")
    spill = [e for e in r.events if e["type"] == "batch"][1]
    assert spill["spillover"] and spill["target"] == "roaches" and spill["dice"] == 1
    # an illegal choice for the Spillover Batch stops the replay: no Zergling is removed
    bad = board(SIEGE, extra=actions.replace("casualties: [z4, z1]", "casualties: [z4, z1, t1]"))
    with pytest.raises(IllegalAction, match="not a model of a unit this template affects"):
        run(bad)
    # a unit id as target: its model nearest the firing model
    loaded = board(SIEGE, extra=actions.replace("target: z1, casualties: [z4, z1]", "target: zerglings"))
    r = run(loaded)
    assert r.events[1]["target_model"] == "z4"
