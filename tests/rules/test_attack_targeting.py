"""Targeting (§8.7.3) on real boards: valid targets, firing models, LONG RANGE, engagement
restrictions, PINPOINT, Guardian Shield, PIERCE, HIDDEN, INDIRECT FIRE, freed Batches."""

import textwrap

import pytest

from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft.batches import batch_spec
from tapeline.rules.starcraft.targeting import check_target
from tapeline.scenarios.replay import run
from tests.conftest import scenario

HEAD = """
tapeline: 1
system: starcraft
board: {width: 40, height: 30}
"""


def board(units: str, terrain: str = "", actions: str = "", extra: str = ""):
    text = HEAD + textwrap.dedent(terrain) + "units:\n" + textwrap.indent(textwrap.dedent(units), "  ")
    return scenario(text + textwrap.dedent(extra) + textwrap.dedent(actions))


GOLIATH_VS = """
- id: goliath
  side: terran
  profile: goliath
  models: [{id: g, at: [5, 15]}]
- id: roaches
  side: zerg
  profile: roach
  models:
    - {id: r1, at: [%s, 15]}
    - {id: r2, at: [%s, 17.5]}
"""


def test_long_range_group_at_minus_one():
    # Goliath (80 mm, r 1.575") Autocannon 12", LONG RANGE 18"; Roach 50 mm (r 0.984")
    # r1 centre 18 -> gap 10.44" (in Range); moving the unit to 25 -> gap 17.44" (LONG RANGE)
    st = board(GOLIATH_VS % (18, 18)).state
    tg = check_target(st, "goliath", "autocannon", "roaches")
    assert tg.in_range == ("g",) and tg.long_range == ()
    st = board(GOLIATH_VS % (25, 25)).state
    tg = check_target(st, "goliath", "autocannon", "roaches")
    assert tg.in_range == () and tg.long_range == ("g",)
    spec = batch_spec(st, tg)
    assert spec.groups == ((9, 5, "to hit (LONG RANGE -1)"),)  # 4+ at −1 is 5+
    with pytest.raises(IllegalAction) as e:  # Underbelly MG 8", no LONG RANGE
        check_target(st, "goliath", "underbelly-mg", "roaches")
    assert "§8.7.3 Range" in str(e.value)
    st = board(GOLIATH_VS % (26, 26)).state  # gap 18.44": beyond 18"
    with pytest.raises(IllegalAction):
        check_target(st, "goliath", "autocannon", "roaches")


def test_target_type_and_phase():
    st = board(GOLIATH_VS % (18, 18)).state
    with pytest.raises(IllegalAction) as e:
        check_target(st, "goliath", "hellfire-missiles", "roaches")
    assert "§8.7.3 Target type" in str(e.value)
    st2 = board("""
    - id: marines
      side: terran
      profile: marine
      models: [{id: m1, at: [5, 15]}]
    - id: lings
      side: zerg
      profile: zergling
      models: [{id: z1, at: [8, 15]}]
    """).state
    with pytest.raises(IllegalAction) as e:
        check_target(st2, "marines", "strike", "lings")
    assert "Combat-phase" in str(e.value)
    with pytest.raises(IllegalAction):
        check_target(st2, "marines", "no-such-gun", "lings")


MELEE = """
- id: marines
  side: terran
  profile: marine
  models:
    - {id: m1, at: [10, 10]}
    - {id: m2, at: [10, 12]}
- id: lings
  side: zerg
  profile: zergling
  models: [{id: z1, at: [11.5, 10]}]     # gap 0.24": Engaged with m1
- id: other
  side: zerg
  profile: zergling
  models: [{id: y1, at: [20, 10]}, {id: y2, at: [20, 12]}]
- id: goliath
  side: terran
  profile: goliath
  models: [{id: g, at: [8, 16]}]
"""


def test_engagement_restrictions_and_pinpoint():
    st = board(MELEE).state
    with pytest.raises(IllegalAction) as e:  # engaged Marines at another unit
        check_target(st, "marines", "c-14-rifle", "other")
    assert "may only target lings" in str(e.value)
    with pytest.raises(IllegalAction) as e:  # unengaged Goliath into the melee, no PINPOINT
        check_target(st, "goliath", "autocannon", "lings")
    assert "PINPOINT" in str(e.value)
    tg = check_target(st, "goliath", "underbelly-mg", "lings")  # PINPOINT
    assert tg.target_engaged and any("Engaged" in r for r in tg.evade_reasons)
    assert batch_spec(st, tg).evade == 4  # Zergling Evade 4+
    tg = check_target(st, "marines", "c-14-rifle", "lings")  # engaged Marines at their foe
    assert tg.removable == ("z1",) and batch_spec(st, tg).evade == 4


def test_one_profile_cannot_split_between_targets():
    from tapeline.scenarios.errors import ScenarioError

    with pytest.raises(ScenarioError) as e:
        board(MELEE, actions="""
        actions:
          - action: shoot
            unit: marines
            batches:
              - {weapon: c-14-rifle, target: lings}
              - {weapon: c-14-rifle, target: other, models: [m2]}
        """)
    assert "§8.7.3" in str(e.value) and "actions[0]" in str(e.value)


def test_freed_batch_by_rocket_sidearm(tmp_path):
    text = HEAD + "units:\n" + textwrap.indent(textwrap.dedent(MELEE), "  ") + textwrap.dedent("""
    dice:
      # C-14 (4 dice, 3+): 6 6 6 6; Surge die 1 -> 1; Armour 6+: 1 1 1; Evade 4+ (engaged): 1 1 1 1
      # -> 4 damage, the one Zergling dies. Rocket Launcher (SIDEARM, 4 dice 3+): 6 6 1 1 -> 2 hits,
      # no Surge die; Armour 6+: 1 1 -> both Zerglings of 'other' die.
      rolls: [6, 6, 6, 6,  1,  1, 1, 1,  1, 1, 1, 1,   6, 6, 1, 1,  1, 1]
    actions:
      - action: shoot
        unit: marines
        batches:
          - {weapon: c-14-rifle, target: lings}
          - {weapon: rocket-launcher, target: other, models: [m1]}
    """)
    p = tmp_path / "s.yaml"
    p.write_text(text)
    from tapeline.scenarios.load import read

    r = run(read(p))
    assert r.final.unit("lings").models == ()
    assert r.final.unit("other").removed == ("y1", "y2")
    # without the first Batch the Rocket Launcher may not target 'other'
    shorter = text.replace("- {weapon: c-14-rifle, target: lings}\n", "")
    assert shorter != text
    p.write_text(shorter.replace("rolls: [", "rolls: [6, 6, 6, 6, 1, 1, "))
    with pytest.raises(IllegalAction) as e:
        run(read(p))
    assert "may only target lings" in str(e.value)


def test_guardian_shield_pierce_and_surge_tags():
    st = board("""
    - id: marauders
      side: terran
      profile: marauder
      models: [{id: a1, at: [5, 10]}, {id: a2, at: [5, 12]}]
    - id: roaches
      side: zerg
      profile: roach
      status: [guardian_shield]
      models: [{id: r1, at: [12, 10]}]
    """).state
    tg = check_target(st, "marauders", "quad-k12", "roaches")
    spec = batch_spec(st, tg)
    assert spec.dice == 5  # 2 × RoA 3, one fewer for Guardian Shield
    assert spec.damage == 2 and spec.surge_applies  # PIERCE Armoured (2); Surge Armoured
    assert spec.armour == 3 and spec.evade is None
    spec2 = batch_spec(st, tg, settings={"guardian_shield_die": "surge"})
    assert spec2.dice == 6 and spec2.surge_dice is None


def test_hidden_beyond_four_inches():
    units = """
    - id: marines
      side: terran
      profile: marine
      models: [{id: m1, at: [5, 10]}, {id: m2, at: [%s, 14]}]
    - id: roaches
      side: zerg
      profile: roach
      status: [burrowed]
      models: [{id: r1, at: [12, 10]}]
    """
    st = board(units % 5).state
    with pytest.raises(IllegalAction):
        check_target(st, "marines", "c-14-rifle", "roaches")
    st = board(units % 10).state  # m2 within 4" of the burrowed Roach
    tg = check_target(st, "marines", "c-14-rifle", "roaches")
    assert tg.in_range == ("m2",) and any("HIDDEN" in r for r in tg.evade_reasons)


def test_indirect_fire_ignores_sight():
    st = board("""
    - id: marines
      side: terran
      profile: marine
      models: [{id: m1, at: [5, 10]}]
    - id: roaches
      side: zerg
      profile: roach
      models: [{id: r1, at: [13, 10]}]
    """, terrain="""
    terrain:
      - {id: block, footprint: {rect: [8, 5, 1, 10]}, size: 3}
    """).state
    with pytest.raises(IllegalAction):
        check_target(st, "marines", "c-14-rifle", "roaches")  # Full Cover
    tg = check_target(st, "marines", "rocket-launcher", "roaches", models=["m1"])
    assert tg.removable == ("r1",) and not tg.target_visible
    assert any("INDIRECT" in r for r in tg.evade_reasons) and batch_spec(st, tg).evade == 5


def test_high_ground_cover_grants_evade():
    st = board("""
    - id: marines
      side: terran
      profile: marine
      models: [{id: m1, at: [5, 10]}]
    - id: roaches
      side: zerg
      profile: roach
      models: [{id: r1, at: [13, 10], on: hill}]
    """, terrain="""
    terrain:
      - {id: hill, footprint: {rect: [11, 7, 5, 6]}, size: 3}
    """).state
    tg = check_target(st, "marines", "c-14-rifle", "roaches")
    assert any("High Ground" in r for r in tg.evade_reasons)
    assert batch_spec(st, tg).evade == 5  # Roach Evade 5+
