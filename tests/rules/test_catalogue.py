"""The bundled StarCraft TMG catalogue against the rules digest's tables (§5, §1.12)."""

from __future__ import annotations

import pytest

from tapeline.board.bases import OvalBase, RoundBase
from tapeline.rules.starcraft.catalogue import catalogue, key, unit_profile
from tests.conftest import scenario

# Unit: (speed, armour, evade, hp, shield, size, base) — starcraft.md §5 table and §1.12
STATS = {
    "marine": ((4, 7), 5, 5, 2, 0, 2, 32),
    "marauder": ((4, 7), 4, 6, 5, 0, 2, 50),
    "medic": ((4, 7), 5, 5, 2, 0, 2, 32),
    "goliath": ((7,), 4, None, 10, 0, 3, 80),
    "zergling": ((4, 8), 6, 4, 1, 0, 1, 32),
    "roach": ((4, 7), 3, 5, 4, 0, 2, 50),
    "hydralisk": ((4, 8), 5, 5, 4, 0, 2, [100, 40]),
    "queen": ((4,), 4, None, 9, 0, 3, 80),
    "zealot": ((4, 7), 5, 5, 4, 3, 2, 40),
    "stalker": ((4, 8), 4, 6, 6, 3, 3, 80),
    "sentry": ((4, 7), 5, 6, 4, 2, 1, 50),
    "adept": ((5, 8), 5, 5, 3, 2, 2, 40),
}

# (unit, weapon): (range, target, roa, hit, surge, surge die, damage, keywords)
WEAPONS = {
    ("marine", "C-14 Rifle"): (12, "all", 2, 3, ("light",), "D3", 1, {}),
    ("marauder", "Quad K12"): (12, "ground", 3, 3, ("armoured",), "D3", 1, {"pierce": {"armoured": 2}}),
    ("hydralisk", "Needle Spines"): (12, "all", 3, 3, ("light", "armoured"), "D3+1", 2, {}),
    ("goliath", "Autocannon"): (12, "ground", 9, 4, (), None, 1, {"long_range": 18}),
    ("goliath", "Hellfire Missiles"): (16, "flying", 6, 3, ("light",), "D3", 1, {"anti_evade": 1, "sidearm": True}),
    ("zealot", "Psi Blades"): ("E", "ground", 4, 3, ("light",), "D3", 1, {}),
    ("roach", "Acid Saliva"): (8, "ground", 3, 3, (), None, 1, {}),
    ("sentry", "Disruption Beam"): (8, "all", 2, 2, (), None, 1, {"instant": True}),
}


@pytest.mark.parametrize("name", STATS)
def test_stat_lines(name):
    p = unit_profile(name)
    assert (p.speed, p.armour, p.evade, p.hp, p.shield, p.size, p.base) == STATS[name]


@pytest.mark.parametrize("unit,weapon", WEAPONS)
def test_weapons(unit, weapon):
    w = unit_profile(unit).weapon(weapon)
    assert (w.range, w.target, w.roa, w.hit, w.surge, w.surge_dice, w.damage, dict(w.keywords)) == WEAPONS[(unit, weapon)]


def test_every_base_size_of_section_1_12():
    bases = {
        32: ["marine", "raynor's-raider", "medic", "point-defense-drone", "zergling", "raptor", "swarmling", "ks-raptor", "roachling"],
        40: ["jim-raynor", "kerrigan", "zealot", "praetor-guard", "adept"],
        50: ["marauder", "roach", "sentry"],
        80: ["goliath", "queen", "stalker", "omega-worm"],
    }
    for size, names in bases.items():
        for n in names:
            assert catalogue()[n]["base"] == size, n


def test_split_speed_and_supply():
    m = unit_profile("Marine")
    assert m.speed_for(models=6) == 4 and m.speed_for(models=1) == 7
    assert m.speed_for(models=3, started_with=1) == 7
    # rulebook example (§6.1): 9 Marines ⇒ Supply 2; 6 ⇒ 1; 3 ⇒ 0
    assert [m.supply_for(n) for n in (9, 6, 3)] == [2, 1, 0]
    assert unit_profile("Goliath").speed_for(models=1) == 7


def test_names_in_any_case():
    assert key("Quad K12") == "quad-k12" and key("Psi Blades") == "psi-blades"
    assert unit_profile("ZERGLING").hp == 1


def test_profile_loads_from_file_with_overrides():
    st = scenario(
        """
        tapeline: 1
        system: starcraft
        board: {width: 24, height: 24}
        units:
          - id: h
            side: zerg
            profile: Hydralisk
            models: [{id: h1, at: [5, 5], facing: 90}]
          - id: vets
            side: terran
            profile: marine
            size: 3
            stats: {hp: 3, speed: 5}
            models: [{id: m1, at: [15, 5]}, {id: m2, at: [17, 5], base: 40}]
        """
    ).state
    h1 = st.figure("h1")
    assert isinstance(h1.base, OvalBase) and h1.base.facing == 90
    assert st.unit("h").tags == {"biological", "light", "ground"}
    vets = st.unit("vets")
    assert vets.size == 3 and vets.stats["hp"] == 3 and vets.stats["speed"] == 5 and vets.stats["armour"] == 5
    assert isinstance(st.figure("m1").base, RoundBase) and st.figure("m1").base.diameter_mm == 32
    assert st.figure("m2").base.diameter_mm == 40


def test_artanis_and_pylon_shields_match_the_card_list():
    """Issue 21 item 7: an independent card list (a public list builder's data taken from the
    official card sheets) gives Artanis Shield 4 and the Pylon Shield 2; every other stat of the
    19 units it shares with the catalogue agrees."""
    assert unit_profile("Artanis").shield == 4
    assert unit_profile("pylon").shield == 2
    assert unit_profile("artanis").impact == (6, 4)
