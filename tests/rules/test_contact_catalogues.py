"""The Horus Heresy and 40k 3rd bundled catalogues (rules/heresy/catalogue.yaml,
rules/classic40k/catalogue.yaml): ``profile:`` on a unit and on a model, the file's values over
the profile's, unknown names located with the closest suggested, and every entry a valid stat
line of the file format. The expected values are the sources' (written in each data file's
comments), written out here, not read from the catalogue."""

from __future__ import annotations

import pytest

from tapeline.rules.classic40k import catalogue as c40k
from tapeline.rules.heresy import catalogue as hh
from tapeline.rules.melee.loadout import model_line
from tapeline.scenarios.errors import ScenarioError
from tapeline.scenarios.schema import ModelStatsSpec, StatsSpec
from tests.conftest import scenario

# HH3 Legiones Astartes (Quickhammer TacticalSquad.vue / AssaultSquad.vue; H2 mvp-unit-profiles):
# M WS BS S T W I A LD CL WP IN SAV
LEGIONARY = dict(movement=7, weapon_skill=4, ballistic_skill=4, strength=4, toughness=4, wounds=1, initiative=4,
                 attacks=1, leadership=7, cool=7, willpower=7, intelligence=7, save=3)
SERGEANT = {**LEGIONARY, "leadership": 8}
ASSAULT_LEGIONARY = {**LEGIONARY, "movement": 12, "attacks": 2}
ASSAULT_SERGEANT = {**ASSAULT_LEGIONARY, "leadership": 8}
# 40k 3rd (BattleScribe 3rd-edition data, Codex: Space Marines 1998, Codex: Orks 1999): WS BS S T W I A Ld Sv
SPACE_MARINE = dict(weapon_skill=4, ballistic_skill=4, strength=4, toughness=4, wounds=1, initiative=4, attacks=1,
                    leadership=8, save=3)
VETERAN_SERGEANT = {**SPACE_MARINE, "attacks": 2, "leadership": 9}
ORK_BOY = dict(weapon_skill=4, ballistic_skill=2, strength=3, toughness=4, wounds=1, initiative=2, attacks=2, leadership=7,
               save=6)
NOB = {**ORK_BOY, "strength": 4, "wounds": 2, "initiative": 3, "attacks": 3}

HERESY = """
tapeline: 1
system: heresy
board: {width: 24, height: 24}
units:
  - id: tac
    side: loyalist
    profile: legion-tactical-squad
    leader: s1
    stats:
      models:
        s1: {profile: Legion Sergeant, wargear: [power sword, bolt-pistol]}
    models: [{id: s1, at: [5, 5]}, {id: t2, at: [6.4, 5]}]
  - id: jump
    side: traitor
    profile: Legion Assault Squad
    stats:
      leadership: 6
      models:
        a1: {profile: assault-sergeant, attacks: 3, subtypes: [champion]}
    models: [{id: a1, at: [15, 5]}, {id: a2, at: [16.4, 5]}]
"""

FORTY = """
tapeline: 1
system: classic40k
board: {width: 24, height: 24}
units:
  - id: marines
    side: imperium
    profile: space-marine
    base: 25
    stats:
      wargear: [bolt-pistol, close-combat-weapon]
      models:
        v1: {profile: veteran-sergeant, wargear: [power-fist]}
    models: [{id: v1, at: [5, 5]}, {id: m2, at: [6.4, 5]}]
  - id: boyz
    side: orks
    profile: Ork Boy
    base: 25
    stats:
      save: 5
      models:
        n1: {profile: nob}
    models: [{id: n1, at: [15, 5]}, {id: o2, at: [16.4, 5]}]
"""


def _line(st, unit: str, model: str, keys) -> dict:
    line = model_line(st.unit(unit), model)
    return {k: line[k] for k in keys}


def test_a_heresy_file_with_profiles_loads_the_sourced_stat_lines():
    st = scenario(HERESY).state
    tac, jump = st.unit("tac"), st.unit("jump")
    assert tac.profile == "legion-tactical-squad" and jump.profile == "legion-assault-squad"
    assert _line(st, "tac", "t2", LEGIONARY) == LEGIONARY
    assert _line(st, "tac", "s1", SERGEANT) == SERGEANT
    assert st.figure("t2").base.diameter_mm == 32 and tac.tags == {"infantry"}
    assert model_line(tac, "t2")["wargear"] == ["bolter", "bolt-pistol"]
    assert tac.stats["ranged_weapons"]["bolter"] == {"name": "Bolter", "range": 24, "firepower": 2, "strength": 4, "ap": 5,
                                                     "damage": 1}
    assert "sergeant" in model_line(tac, "s1")["subtypes"]
    assert jump.tags == {"infantry", "antigrav"}
    assert model_line(jump, "a2")["wargear"] == ["chainsword", "bolt-pistol"]


def test_heresy_overrides_the_unit_over_the_profile_and_the_model_over_both():
    st = scenario(HERESY).state
    # the unit's own leadership 6 replaces the squad's 7; the model's profile gives 8 back to a1
    assert _line(st, "jump", "a2", ASSAULT_LEGIONARY) == {**ASSAULT_LEGIONARY, "leadership": 6}
    assert _line(st, "jump", "a1", ASSAULT_SERGEANT) == {**ASSAULT_SERGEANT, "attacks": 3}
    # the model's own subtypes add to its profile's; its own wargear replaces the profile's
    assert model_line(st.unit("jump"), "a1")["subtypes"] == ["sergeant", "champion"]
    assert model_line(st.unit("tac"), "s1")["wargear"] == ["power sword", "bolt-pistol"]


def test_a_40k_file_with_profiles_loads_the_sourced_stat_lines():
    st = scenario(FORTY).state
    assert _line(st, "marines", "m2", SPACE_MARINE) == SPACE_MARINE
    assert _line(st, "marines", "v1", VETERAN_SERGEANT) == VETERAN_SERGEANT
    assert _line(st, "boyz", "o2", ORK_BOY) == {**ORK_BOY, "save": 5}          # the unit's own save over the profile's
    assert _line(st, "boyz", "n1", NOB) == NOB                                 # the model's profile over the unit's
    assert model_line(st.unit("marines"), "v1")["wargear"] == ["power-fist"]
    assert model_line(st.unit("marines"), "m2")["wargear"] == ["bolt-pistol", "close-combat-weapon"]
    assert "slugga" in st.unit("boyz").stats["melee_weapons"]


def test_a_40k_fight_uses_the_profiles():
    """Two Boyz in base contact with two Marines: the Nob strikes at I3 with A3, the Boy at I2
    with A2, the Marines at I4 (the Veteran Sergeant's fist last) — the catalogue's lines."""
    text = FORTY.replace("[15, 5]", "[5, 5.984252]").replace("[16.4, 5]", "[6.4, 5.984252]")
    from tapeline.scenarios.game import parse_text

    a = parse_text(text).fight("marines").as_json()
    steps = {(s["unit"], s["initiative"]): s for s in a["steps"]}
    assert steps[("marines", 4)]["attacks"] == 2          # m2: A1 + 1 for two close combat weapons
    assert steps[("boyz", 3)]["attacks"] == 3             # the Nob: A3, one weapon (slugga is not in its wargear)
    assert steps[("boyz", 2)]["attacks"] == 2             # the Boy: A2


@pytest.mark.parametrize("text, where, closest", [
    (HERESY.replace("profile: Legion Assault Squad", "profile: legion-asault-squad"), "units[1].profile",
     "legion-assault-squad"),
    (HERESY.replace("profile: Legion Sergeant", "profile: legion-sargeant"), "units[0].stats.models.s1.profile",
     "legion-sergeant"),
    (FORTY.replace("profile: space-marine", "profile: space-marines"), "units[0].profile", "space-marine"),
    (FORTY.replace("profile: nob", "profile: nobz"), "units[1].stats.models.n1.profile", "nob"),
])
def test_an_unknown_profile_is_located_with_the_closest_names(text, where, closest):
    with pytest.raises(ScenarioError) as e:
        scenario(text)
    ((loc, msg),) = e.value.problems
    assert loc.startswith(where) and "catalogue entry" in msg and f"closest: {closest}" in msg


def test_a_file_wargear_may_name_the_profiles_weapons():
    """A model's own wargear naming a weapon the unit's profile defines (the bolter) is known."""
    st = scenario(HERESY.replace("wargear: [power sword, bolt-pistol]", "wargear: [bolter]")).state
    assert model_line(st.unit("tac"), "s1")["wargear"] == ["bolter"]


@pytest.mark.parametrize("cat", [hh, c40k])
def test_every_entry_is_a_valid_stat_line_of_the_file_format(cat):
    for key, card in cat.catalogue().items():
        assert key == "-".join(card["name"].lower().replace("(", "").replace(")", "").split()) or key in (
            "legion-sergeant",), key
        stats = {k: v for k, v in card.items() if k not in ("name", "base", "tags", "size", "subtypes")}
        StatsSpec.model_validate(stats, strict=False)
        ModelStatsSpec.model_validate({k: v for k, v in card.items() if k in ModelStatsSpec.model_fields})
        for w in card.get("wargear") or []:
            assert w in (card.get("ranged_weapons") or {}) or w in (card.get("melee_weapons") or {}) or (
                cat is hh and hh._melee(w, {}) is not None) or (cat is c40k and c40k._melee(w, {}) is not None), (key, w)
