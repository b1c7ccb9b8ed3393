"""Casualties (§8.7.4 step 5, §8.7.5), Shields (§5.1 5A), CONCENTRATED FIRE, by hand."""

from pathlib import Path

import pytest

from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft.casualties import allocate, legal_casualties
from tapeline.scenarios.load import read
from tapeline.scenarios.replay import run
from tests.conftest import EXAMPLES, scenario


def test_allocate_by_hand():
    # 10 damage at 1-HP models, 7 Visible: 7 die, 3 discarded, no marker
    a = allocate(10, 1, 7)
    assert (a.kills, a.marker, a.discarded) == (7, 0, 3)
    # 5 damage at 2-HP Marines, 9 Visible: 2 die, 1 on the Damage Marker
    a = allocate(5, 2, 9)
    assert (a.kills, a.marker, a.discarded) == (2, 1, 0)
    # CONCENTRATED FIRE (2): 9 damage at 1-HP models, cap 2: the rest discarded, not marked
    a = allocate(9, 1, 12, cap=2)
    assert (a.kills, a.marker, a.discarded) == (2, 0, 7)
    # a cap larger than what is left behaves as no cap
    a = allocate(3, 2, 12, cap=5)
    assert (a.kills, a.marker) == (1, 1)
    # Zealots (HP 4, Shield 3): 6 -> none dead, 6 marked; 15 kills the whole unit of 3
    assert allocate(6, 4, 3, first_bonus=3).marker == 6
    assert allocate(15, 4, 3, first_bonus=3).kills == 3
    a = allocate(14, 4, 3, first_bonus=3)
    assert (a.kills, a.marker) == (2, 3)
    # nothing Visible: nothing removed, the damage is discarded
    a = allocate(4, 1, 0)
    assert (a.kills, a.marker, a.discarded) == (0, 0, 4)


ENGAGED = EXAMPLES / "attack-engaged-casualties.yaml"


def test_engaged_priority_and_keeping_the_engagement():
    st = read(ENGAGED).state
    first = legal_casualties(st, "zealots")
    assert [o.model for o in first] == ["zA1", "zA2"] and {o.priority for o in first} == {2}
    st2 = st.without_models("zealots", ["zA1"])
    second = legal_casualties(st2, "zealots")
    # both now end an Engagement and no other valid casualty exists: either may be chosen
    assert [(o.model, o.breaks) for o in second] == [("zA2", ("hydras-1",)), ("zB", ("hydras-2",))]


ENGAGED_PRIORITIES = """
tapeline: 1
system: starcraft
board: {width: 24, height: 24}
units:
  - id: zealots
    side: protoss
    profile: zealot
    models:
      - {id: far, at: [4, 20]}          # priority 1: within 1" of no enemy
      - {id: near, at: [12, 12.2]}      # priority 2: within 1" of h2, not touching
      - {id: touch, at: [11.574803, 10]}  # priority 3: base contact with h1
  - id: hydras
    side: zerg
    profile: hydralisk
    base: 40
    models:
      - {id: h1, at: [10, 10]}
      - {id: h2, at: [10, 12.2]}
"""


def test_engaged_priority_order():
    st = scenario(ENGAGED_PRIORITIES).state
    opts = legal_casualties(st, "zealots")
    assert [(o.model, o.priority) for o in opts] == [("far", 1)]
    st = st.without_models("zealots", ["far"])
    # 'near' (priority 2) keeps no Engagement on its own: 'touch' still engages hydras
    assert [(o.model, o.priority) for o in legal_casualties(st, "zealots")] == [("near", 2)]
    st = st.without_models("zealots", ["near"])
    assert [(o.model, o.priority) for o in legal_casualties(st, "zealots")] == [("touch", 3)]


def test_unengaged_only_visible():
    st = read(EXAMPLES / "attack-direct-cover.yaml").state
    opts = legal_casualties(st, "zerglings", visible={"z1", "z7"}, target_engaged=False)
    assert [o.model for o in opts] == ["z1", "z7"]


def _with(path: Path, old: str, new: str, tmp_path) -> Path:
    text = path.read_text().replace(old, new)
    assert text != path.read_text()
    p = tmp_path / path.name
    p.write_text(text)
    return p


def test_choosing_a_hidden_zergling_is_illegal(tmp_path):
    p = _with(EXAMPLES / "attack-direct-cover.yaml", "target: zerglings}", "target: zerglings, casualties: [z7]}", tmp_path)
    with pytest.raises(IllegalAction) as e:
        run(read(p))
    assert "z7 may not be removed" in str(e.value) and "§8.7.4" in str(e.value) and e.value.index == 0


def test_too_many_choices_is_illegal(tmp_path):
    p = _with(EXAMPLES / "attack-direct-cover.yaml", "target: zerglings}",
              "target: zerglings, casualties: [z1, z2, z3, z4, z5, z6, z6]}", tmp_path)
    with pytest.raises(IllegalAction):
        run(read(p))


def test_strict_choices_lists_legal_options(tmp_path):
    p = _with(EXAMPLES / "attack-engaged-casualties.yaml", "actions:", "settings: {strict_choices: true}\nactions:", tmp_path)
    p = _with(p, ", casualties: [zA1, zB]", "", tmp_path)
    with pytest.raises(IllegalAction) as e:
        run(read(p))
    assert "legal: zA1, zA2" in str(e.value)


def test_farthest_default(tmp_path):
    p = _with(EXAMPLES / "attack-direct-cover.yaml", "actions:", "settings: {casualty_default: farthest}\nactions:", tmp_path)
    p = _with(p, "  - {expect: casualties, action: 0, models: [z1, z2, z3, z4, z5, z6]}\n", "", tmp_path)
    r = run(read(p))
    assert r.ok
    # all six Visible ones die either way; the farthest from the Marines (z6, x = 13.5) goes first
    assert r.final.unit("zerglings").removed[0] == "z6"


def test_shield_example_state():
    r = run(read(EXAMPLES / "attack-zealot-shield.yaml"))
    assert r.ok
    u = r.final.unit("zealots")
    assert u.removed == ("q1",) and u.damage == 0 and "shield_lost" in u.status


def test_concentrated_fire_caps_and_discards(tmp_path):
    p = _with(EXAMPLES / "attack-direct-cover.yaml", "target: zerglings}", "target: zerglings, concentrated_fire: 2}", tmp_path)
    p = _with(p, "  - {expect: casualties, action: 0, models: [z1, z2, z3, z4, z5, z6]}\n", "", tmp_path)
    r = run(read(p))
    res = [c for c in r.expectations if c["expect"] == "attack" and "kills" in c["detail"]]
    assert not res[0]["ok"]  # the file's 6 kills no longer hold
    u = r.final.unit("zerglings")
    assert u.removed == ("z1", "z2") and u.damage == 0
    cas = [e for e in r.events if e["type"] == "casualties"][0]
    assert cas["discarded"] == 8 and cas["marker"] == 0


def test_strict_needs_no_choice_when_every_option_dies(tmp_path):
    # 10 damage, 6 Visible Zerglings: all six die whatever the order
    p = _with(EXAMPLES / "attack-direct-cover.yaml", "actions:", "settings: {strict_choices: true}\nactions:", tmp_path)
    assert run(read(p)).ok


# --- "within Engagement Range" in the Engaged order: the seed says within 1" (issue 9, item 3) ---

BEHIND_WALL = """
tapeline: 1
system: starcraft
board: {width: 24, height: 24}
settings: {casualty_priority_range: %s}
terrain:
  - {id: wall, footprint: {rect: [10.9, 8, 0.2, 4]}, size: 2}   # between h1 and w
units:
  - id: zealots
    side: protoss
    profile: zealot
    models:
      - {id: f, at: [20, 20]}            # within 1" of no enemy
      - {id: w, at: [12.074803, 10]}     # 0.5" from h1 (2.074803 - 2 x 0.787402), the wall between
      - {id: e, at: [12, 14]}            # engages h2 (gap 0.425197"), nothing between
  - id: hydras
    side: zerg
    profile: hydralisk
    base: 40
    models:
      - {id: h1, at: [10, 10]}
      - {id: h2, at: [10, 14]}
"""


def test_within_1_reading_is_the_default():
    st = scenario(BEHIND_WALL % "within_1").state
    assert scenario(BEHIND_WALL.replace("settings: {casualty_priority_range: %s}\n", "")).state.settings["casualty_priority_range"] == "within_1"
    # w is 0.5" from h1: priority 2 under the seed's words, although the wall stops it engaging
    assert [(o.model, o.priority) for o in legal_casualties(st, "zealots")] == [("f", 1)]
    st = st.without_models("zealots", ["f"])
    # e alone keeps the Engagement with the hydras; w breaks nothing, so w goes next
    assert [(o.model, o.priority, o.breaks) for o in legal_casualties(st, "zealots")] == [("w", 2, ())]


def test_engaging_reading_as_a_setting():
    st = scenario(BEHIND_WALL % "engaging").state
    # w engages nobody (Size 2 wall between, §7.2): priority 1 with f
    assert [(o.model, o.priority) for o in legal_casualties(st, "zealots")] == [("f", 1), ("w", 1)]
    # the reading can also be asked for explicitly
    st0 = scenario(BEHIND_WALL % "within_1").state
    assert [o.model for o in legal_casualties(st0, "zealots", reading="engaging")] == ["f", "w"]


def test_attack_output_names_the_reading(write):
    from tests.conftest import cli, cli_json

    text = BEHIND_WALL % "within_1"
    code, out = cli_json("attack", write(text), "--unit", "hydras", "--weapon", "needle-spines", "--target", "zealots")
    assert code == 0 and out["batches"][0]["casualty_priority_range"] == "within_1"
    code, txt, _ = cli("attack", write(BEHIND_WALL % "engaging"), "--unit", "hydras", "--weapon", "needle-spines", "--target", "zealots")
    assert code == 0 and "engaging an enemy model" in txt


# --- every branch by hand: allocation, the Shield, priorities, removal -----------------------------

from tapeline.rules.starcraft.casualties import (PRIORITY_READINGS, priorities, priority_reading, remove,  # noqa: E402
                                                 shield_bonus, shielded)

ZEALOTS = """
tapeline: 1
system: starcraft
board: {width: 24, height: 24}
units:
  - {id: z, side: protoss, profile: zealot, models: [{id: z1, at: [5, 5]}, {id: z2, at: [8, 5]}, {id: z3, at: [11, 5]}]}
  - {id: m, side: terran, profile: marine, models: [{id: m1, at: [5, 15]}]}
"""


def test_allocate_edges():
    assert allocate(0, 1, 3) == allocate(0, 1, 3) and allocate(0, 1, 3).marker == 0
    a = allocate(3, 0, 5)  # HP below 1 counts as 1
    assert (a.kills, a.marker, a.discarded) == (3, 0, 0)
    a = allocate(4, 2, 2)  # exactly enough for both: none left, nothing discarded
    assert (a.kills, a.marker, a.discarded) == (2, 0, 0)
    a = allocate(5, 2, 2)  # one more than both need: discarded, not marked
    assert (a.kills, a.marker, a.discarded) == (2, 0, 1)
    a = allocate(3, 2, 0)  # nothing removable: everything discarded
    assert (a.kills, a.marker, a.discarded) == (0, 0, 3)
    a = allocate(11, 4, 3, first_bonus=3)  # 7 for the first, 4 for the second: both
    assert (a.kills, a.marker, a.discarded) == (2, 0, 0)
    a = allocate(10, 4, 3, first_bonus=3)  # 7 for the first, 3 left on the marker
    assert (a.kills, a.marker, a.discarded) == (1, 3, 0)
    a = allocate(8, 2, 9, cap=0)
    assert (a.kills, a.marker, a.discarded) == (0, 0, 8)


def test_shield_bonus_only_until_the_first_casualty():
    s = scenario(ZEALOTS).state
    assert shield_bonus(s, "z", 3) == 3 and shielded(s, "z", 3)
    assert shield_bonus(s, "z", 0) == 0 and not shielded(s, "z", 0)
    after = s.without_models("z", ["z1"])
    assert shield_bonus(after, "z", 3) == 0 and not shielded(after, "z", 3)
    from dataclasses import replace

    lost = s.with_unit(replace(s.unit("z"), status=frozenset({"shield_lost"})))
    assert not shielded(lost, "z", 3) and shield_bonus(lost, "z", 3) == 3


def test_remove_spends_the_shield_on_the_first_casualty_only():
    s = scenario(ZEALOTS).state
    # Zealot: HP 4, Shield 3 (catalogue): 7 damage kill the first (4 + 3), nothing left
    prof_hp, prof_shield = 4, 3
    r = remove(s, "z", prof_hp + prof_shield, ["z1", "z2", "z3"], False)
    assert r.taken == ("z1",) and r.alloc.marker == 0 and not r.shielded
    r = remove(s, "z", prof_hp + prof_shield + prof_hp, ["z1", "z2", "z3"], False)
    assert r.taken == ("z1", "z2") and r.total == 11
    r = remove(s, "z", prof_shield, ["z1", "z2", "z3"], False)
    assert r.taken == () and r.alloc.marker == 3 and r.shielded  # 3 does not exceed the Shield
    r = remove(s, "z", prof_shield + 1, ["z1", "z2", "z3"], False)
    assert r.taken == () and r.alloc.marker == 4 and not r.shielded
    assert "shield_lost" in r.state.unit("z").status and r.state.unit("z").damage == 4
    with pytest.raises(IllegalAction, match="casualties chosen"):
        remove(s, "z", 7, ["z1", "z2", "z3"], False, choices=["z2", "z3"])
    with pytest.raises(IllegalAction, match="may not be removed"):
        remove(s, "z", 7, ["z1", "z2"], False, choices=["z3"])
    r = remove(s, "z", 7, ["z1", "z2", "z3"], False, choices=["z3"])
    assert r.taken == ("z3",)
    with pytest.raises(IllegalAction, match="strict_choices"):
        remove(s, "z", 7, ["z1", "z2", "z3"], False, strict=True)
    r = remove(s, "z", 20, ["z1", "z2", "z3"], False, strict=True)  # all die anyway: no choice needed
    assert r.taken == ("z1", "z2", "z3")


def test_priority_reading_and_priorities():
    s = scenario(ZEALOTS).state
    assert priority_reading(s) == "within_1" and PRIORITY_READINGS == ("within_1", "engaging")
    assert priority_reading(s, "engaging") == "engaging"
    with pytest.raises(ValueError):
        priority_reading(s, "nearest")
    assert priorities(s, "z") == {"z1": 1, "z2": 1, "z3": 1}
    close = scenario(ZEALOTS.replace("[5, 15]", "[5, 6.8]")).state  # m1 0.54" from z1: within 1"
    assert priorities(close, "z") == {"z1": 2, "z2": 1, "z3": 1}
    touching = scenario(ZEALOTS.replace("[5, 15]", f"[5, {5 + 36 / 25.4}]")).state
    assert priorities(touching, "z")["z1"] == 3
    assert priorities(touching, "z", "engaging")["z1"] == 3 and priorities(close, "z", "engaging")["z1"] == 2


def test_casualty_records_are_values():
    import dataclasses

    from tapeline.rules.starcraft.casualties import Option

    s = scenario(ZEALOTS).state
    r = remove(s, "z", 7, ["z1", "z2", "z3"], False)
    for v, field in ((r, "taken"), (r.alloc, "kills"), (Option("z1", 1), "model")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(v, field, None)


def test_priorities_at_exactly_one_inch_and_without_enemies():
    from dataclasses import replace as dc_replace

    from tapeline.rules.starcraft.casualties import is_engaged
    from tapeline.rules.state import frozen_map

    alone = scenario(ZEALOTS.replace("  - {id: m, side: terran, profile: marine, models: [{id: m1, at: [5, 15]}]}\n", "")).state
    assert priorities(alone, "z") == {"z1": 1, "z2": 1, "z3": 1} and not is_engaged(alone, "z")
    # m1 exactly 1" from z1, edge to edge: within Engagement Range (priority 2), engaged
    at_one = scenario(ZEALOTS.replace("[5, 15]", f"[5, {5 + 1 + 36 / 25.4}]")).state
    assert priorities(at_one, "z")["z1"] == 2 and is_engaged(at_one, "z")
    # a state built without settings reads "within 1\"" by default
    bare = dc_replace(at_one, settings=frozen_map({}))
    assert priority_reading(bare) == "within_1"
    assert [(o.model, o.priority) for o in legal_casualties(alone, "z")] == [("z1", 0), ("z2", 0), ("z3", 0)]


def test_strict_choices_edges():
    s = scenario(ZEALOTS).state
    # 11 damage take two of three; the first is chosen, the second is not: strict refuses it
    with pytest.raises(IllegalAction, match="casualty 2 from z must be chosen"):
        remove(s, "z", 11, ["z1", "z2", "z3"], False, choices=["z1"], strict=True)
    with pytest.raises(IllegalAction, match="z3 may not be removed as casualty 1"):
        remove(s, "z", 7, ["z1", "z2"], False, choices=["z3"])
    # engaged, one legal casualty only (z2; z1 is in base contact): no choice to make
    two = scenario(ZEALOTS.replace(", {id: z3, at: [11, 5]}", "").replace("[5, 15]", f"[5, {5 + 36 / 25.4}]")).state
    r = remove(two, "z", 7, ["z1", "z2"], True, strict=True)
    assert r.taken == ("z2",)


def test_a_unit_without_hp_loses_a_model_per_damage():
    s = scenario("""
tapeline: 1
system: starcraft
board: {width: 24, height: 24}
units:
  - {id: g, side: a, base: 25, models: [{id: g1, at: [5, 5]}, {id: g2, at: [8, 5]}]}
""").state
    r = remove(s, "g", 1, ["g1", "g2"], False)
    assert r.taken == ("g1",) and r.alloc.marker == 0
