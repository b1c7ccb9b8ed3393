"""40k 3rd close combat: the charts, attacks, strike order, casualties and the exact round odds,
each against hand-worked numbers, the digest's derived cases or an independent simulation."""

from __future__ import annotations

import numpy as np
import pytest

from tapeline.rules.classic40k.charts import hit_on
from tapeline.rules.classic40k.melee import Choices, build_round
from tapeline.rules.classic40k.odds import fight_answer
from tapeline.rules.errors import IllegalAction
from tapeline.rules.melee.charts import wound_chart
from tests.c40k import BOY, D25, MARINE
from tests.conftest import scenario



def test_derived_cases_1_to_3_charts():
    assert [hit_on(4, 3), hit_on(3, 4), hit_on(4, 4)] == [3, 4, 4]            # case 1
    assert [hit_on(2, 5), hit_on(1, 2), hit_on(1, 3)] == [5, 4, 5]            # case 2
    assert [wound_chart(4, 3), wound_chart(3, 4), wound_chart(3, 6), wound_chart(3, 7)] == [3, 5, 6, None]  # case 3
    # the whole chart never gives 2+ or 6+ (§B.5), and matches the digest's table rows
    rows = {1: [4, 4, 5, 5, 5, 5, 5, 5, 5, 5], 4: [3, 3, 3, 4, 4, 4, 4, 4, 5, 5], 10: [3] * 9 + [4]}
    for a, row in rows.items():
        assert [hit_on(a, d) for d in range(1, 11)] == row


def duel(marine_wargear="[bolt-pistol, close-combat-weapon]", marine_extra="", ork_at=(11.0, 10.0), terrain="[]", ork_extra="",
         settings="{}"):
    return scenario(f"""
        tapeline: 1
        system: classic40k
        board: {{width: 24, height: 24}}
        terrain: {terrain}
        settings: {settings}
        units:
          - id: marines
            side: imperium
            base: 25
            stats: {{{MARINE},
                    wargear: {marine_wargear} {marine_extra}}}
            models: [{{id: m1, at: [10, 10]}}]
          - id: orks
            side: orks
            base: 25
            stats: {{{BOY},
                    wargear: [close-combat-weapon] {ork_extra}}}
            models: [{{id: o1, at: [{ork_at[0]}, {ork_at[1]}]}}]
        """).state


def test_derived_case_4_attacks_of_a_charging_marine_with_two_weapons():
    st = duel()
    a = fight_answer(st, "marines", Choices(charged=("marines",)))
    assert a["attacks"]["m1"]["attacks"] == 3 and a["attacks"]["m1"]["bonuses"] == ["charged", "two close combat weapons"]
    assert fight_answer(st, "marines")["attacks"]["m1"]["attacks"] == 2          # not charging
    st1 = duel(marine_wargear="[close-combat-weapon]")
    assert fight_answer(st1, "marines", Choices(charged=("marines",)))["attacks"]["m1"]["attacks"] == 2


def test_one_round_by_hand():
    # m1: 3 attacks at 4+ / 4+ / ork save 6+: each unsaved with 1/2·1/2·5/6 = 5/24
    # o1 (if alive): 2 attacks at 4+ / 5+ (S3 v T4) / marine save 3+: each 1/2·1/3·1/3 = 1/18
    a = fight_answer(duel(), "marines", Choices(charged=("marines",)))
    p_ork_lives = (19 / 24) ** 3
    p_marine_dies = p_ork_lives * (1 - (17 / 18) ** 2)
    assert a["casualties_pmf"]["orks"][0] == pytest.approx(p_ork_lives)
    assert a["casualties_pmf"]["marines"][1] == pytest.approx(p_marine_dies)
    # result: orks wiped out -> marines win outright; 0-0 -> roll off (15/36 each, 6/36 drawn);
    # the marine falling (1-0 to the orks) -> orks win outright
    tie = p_ork_lives * (17 / 18) ** 2
    assert a["sides"]["imperium"] == pytest.approx(1 - p_ork_lives + tie * 15 / 36)
    assert a["result"]["orks"] == pytest.approx(p_marine_dies + tie * 15 / 36)
    assert a["result"]["draw"] == pytest.approx(tie * 6 / 36)
    # steps: I4 then I2
    assert [(s["unit"], s["initiative"], s["hit_on"], s["wound_on"], s["save_on"]) for s in a["steps"]] == [
        ("marines", 4, 4, 4, 6), ("orks", 2, 4, 5, 3)]


def test_derived_case_5_power_fist():
    # S4 doubled to 8 against T4: wounds on 2+, no armour save, strikes after everyone (even I2)
    st = duel(marine_wargear="[power-fist]")
    a = fight_answer(st, "marines")
    fist = next(s for s in a["steps"] if s["unit"] == "marines")
    assert (fist["wound_on"], fist["save_on"], fist["strikes"]) == (2, None, "last")
    assert [s["unit"] for s in a["steps"]] == ["orks", "marines"]
    assert a["attacks"]["m1"]["strength"] == 8
    # S6 doubled is 10, not 12 (to a maximum of 10)
    st6 = duel(marine_wargear="[power-fist]", marine_extra=", models: {m1: {strength: 6}}")
    assert fight_answer(st6, "marines")["attacks"]["m1"]["strength"] == 10
    # a fist and a pistol: +1 Attack, two close combat weapons (default reading any_weapon);
    # with c40k_fist_extra_attack: second_fist the fist pairs only with a second fist
    assert fight_answer(duel(marine_wargear="[power-fist, bolt-pistol]"), "marines")["attacks"]["m1"]["attacks"] == 2
    second = "{c40k_fist_extra_attack: second_fist}"
    assert fight_answer(duel(marine_wargear="[power-fist, bolt-pistol]", settings=second), "marines")["attacks"]["m1"]["attacks"] == 1
    assert fight_answer(duel(marine_wargear="[power-fist, power-fist]", settings=second), "marines")["attacks"]["m1"]["attacks"] == 2
    assert fight_answer(duel(marine_wargear="[power-fist, power-fist]"), "marines")["attacks"]["m1"]["attacks"] == 2


def test_power_weapon_and_invulnerable_save():
    st = duel(marine_wargear="[power-sword]", ork_extra=", invulnerable: 5, models: {o1: {save: 4}}")
    s = next(s for s in fight_answer(st, "marines")["steps"] if s["unit"] == "marines")
    assert s["save_on"] == 5                                                     # armour ignored, invulnerable kept
    st2 = duel(ork_extra=", invulnerable: 5, models: {o1: {save: 4}}")
    assert next(s for s in fight_answer(st2, "marines")["steps"] if s["unit"] == "marines")["save_on"] == 4


def test_monstrous_creature_ignores_armour():
    st = duel(marine_extra=", unit_type: monstrous_creature")
    assert next(s for s in fight_answer(st, "marines")["steps"] if s["unit"] == "marines")["save_on"] is None


def test_a_model_one_and_a_half_inches_away_fights():
    st = duel(ork_at=(10 + D25 + 1.5, 10.0))
    a = fight_answer(st, "marines")
    assert a["fighters"] == {"marines": ["m1"], "orks": ["o1"]}
    with pytest.raises(IllegalAction, match="not in a close combat"):
        fight_answer(duel(ork_at=(10 + D25 + 2.1, 10.0)), "marines")


COVER = "[{id: ruin, footprint: {rect: [10.6, 8, 1.5, 4]}, height: 2, traits: [cover]}]"


def test_defenders_in_cover_strike_first_unless_frag_grenades():
    # the orks stand in a ruin (cover) and were assaulted by the marine: they strike first
    st = duel(terrain=COVER)
    a = fight_answer(st, "marines", Choices(charged=("marines",)))
    assert [(s["unit"], s["strikes"]) for s in a["steps"]] == [("orks", "first"), ("marines", "initiative")]
    assert a["steps"][0]["cover"] == "ruin"
    # not assaulted this turn: no first strike, Initiative order
    b = fight_answer(st, "marines")
    assert [s["unit"] for s in b["steps"]] == ["marines", "orks"]
    # frag grenades: back to Initiative order (setting c40k_frag_grenades: initiative) ...
    fr = duel(terrain=COVER, marine_wargear="[bolt-pistol, close-combat-weapon, frag-grenades]", settings="{c40k_frag_grenades: initiative}")
    c = fight_answer(fr, "marines", Choices(charged=("marines",)))
    assert [(s["unit"], s["strikes"]) for s in c["steps"]] == [("marines", "initiative"), ("orks", "initiative")]
    assert c["readings"]["c40k_frag_grenades"] == "initiative"
    # ... or one simultaneous first step (the default reading, simultaneous)
    fs = duel(terrain=COVER, marine_wargear="[bolt-pistol, close-combat-weapon, frag-grenades]")
    d = fight_answer(fs, "marines", Choices(charged=("marines",)))
    assert {s["step"] for s in d["steps"]} == {0} and {s["strikes"] for s in d["steps"]} == {"first"}
    assert d["readings"]["c40k_frag_grenades"] == "simultaneous"
    # a power fist strikes last even from cover
    pf = duel(terrain=COVER, ork_extra=", models: {o1: {strength: 4, wargear: [power-fist]}}")
    e = fight_answer(pf, "marines", Choices(charged=("marines",)))
    assert [(s["unit"], s["strikes"]) for s in e["steps"]] == [("marines", "initiative"), ("orks", "last")]


def brawl(extra_settings: str = "{}"):
    """5 marines (3 attacks each: charged, two weapons) in base contact with 5 boyz; a sixth boy
    and a Nob with a power fist within 2"."""
    boyz = ", ".join(f"{{id: o{i + 1}, at: [{10 + i}, {10 + D25}]}}" for i in range(6))
    return scenario(f"""
        tapeline: 1
        system: classic40k
        board: {{width: 30, height: 24}}
        settings: {extra_settings}
        units:
          - id: marines
            side: imperium
            base: 25
            stats: {{{MARINE},
                    wargear: [bolt-pistol, close-combat-weapon]}}
            models: [{", ".join(f"{{id: m{i + 1}, at: [{10 + i}, 10]}}" for i in range(5))}]
          - id: orks
            side: orks
            base: 25
            stats: {{{BOY},
                    wargear: [close-combat-weapon], models: {{nob: {{strength: 4, attacks: 3, wargear: [power-fist]}}}}}}
            models: [{boyz}, {{id: nob, at: [12.5, 12]}}]
        """).state


def simulate_brawl(n: int, rng) -> tuple:
    """An independent numpy simulation of :func:`brawl`'s round (every die rolled)."""
    # I4: 15 marine attacks: hit 4+, wound 4+ (S4 v T4), ork save 6+ fails on 1-5
    hit = rng.integers(1, 7, (n, 15)) >= 4
    wound = rng.integers(1, 7, (n, 15)) >= 4
    unsaved = rng.integers(1, 7, (n, 15)) <= 5
    ork_kills = np.minimum((hit & wound & unsaved).sum(axis=1), 7)     # boyz o1..o6, then the Nob
    boyz = np.clip(6 - ork_kills, 0, 6)
    nob = ork_kills < 7
    # I2: 2 attacks per surviving boy: hit 4+, wound 5+ (S3 v T4), marine save 3+ fails on 1-2
    att = rng.integers(1, 7, (n, 12)) >= 4
    wo = rng.integers(1, 7, (n, 12)) >= 5
    sv = rng.integers(1, 7, (n, 12)) <= 2
    live = np.arange(12)[None, :] < (2 * boyz)[:, None]
    m_kills = (att & wo & sv & live).sum(axis=1)
    # last: the Nob's 3 attacks: hit 4+, wound 2+ (S8 v T4), no armour save
    fa = rng.integers(1, 7, (n, 3)) >= 4
    fw = rng.integers(1, 7, (n, 3)) >= 2
    m_kills = np.minimum(m_kills + ((fa & fw).sum(axis=1) * nob), 5)
    return ork_kills, m_kills


def test_exact_round_against_an_independent_simulation():
    st = brawl()
    rnd = build_round(st, "marines", Choices(charged=("marines",)))
    assert [st_.label for st_ in rnd.combat.steps] == ["I4", "I2", "last (power fists)"]
    a = fight_answer(st, "marines", Choices(charged=("marines",)))
    assert a["fighters"]["orks"] == ["o1", "o2", "o3", "o4", "o5", "o6", "nob"]
    n = 400_000
    ok, mk = simulate_brawl(n, np.random.default_rng(11))
    for unit, sim in (("orks", ok), ("marines", mk)):
        pmf = a["casualties_pmf"][unit]
        for k, p in enumerate(pmf):
            q = float(np.mean(sim == k))
            assert abs(p - q) <= 5 * np.sqrt(max(p * (1 - p), 1e-6) / n) + 1e-4, (unit, k, p, q)
    # the result: the marines inflict ork_kills wounds, the orks mk; wipe-outs win outright
    ties = (ok == mk) & (ok < 7) & (mk < 5)
    imp = np.mean((ok == 7) & (mk < 5)) + np.mean((ok > mk) & (ok < 7) & (mk < 5)) + np.mean(ties) * 15 / 36
    assert a["sides"]["imperium"] == pytest.approx(imp, abs=5 * np.sqrt(0.25 / n) + 1e-4)


def test_casualties_come_from_base_contact_first():
    st = brawl()
    rnd = build_round(st, "marines")
    assert [d.id for d in rnd.combat.unit("orks").order] == ["o1", "o2", "o3", "o4", "o5", "o6", "nob"]
    rnd2 = build_round(st, "marines", Choices(casualties={"orks": ["o5", "o2"]}))
    assert [d.id for d in rnd2.combat.unit("orks").order][:3] == ["o5", "o2", "o1"]
    with pytest.raises(IllegalAction, match="base contact first"):
        build_round(st, "marines", Choices(casualties={"orks": ["nob"]}))


def test_fresh_opponent_after_the_first_foe_falls():
    # m1 is within 2" of two enemy units; its attacks go to the nearest (gretchin); if the
    # gretchin fall to the faster marines first... here m1 strikes orks when told to
    st = scenario(f"""
        tapeline: 1
        system: classic40k
        board: {{width: 24, height: 24}}
        units:
          - {{id: m, side: imperium, base: 25, stats: {{weapon_skill: 4, strength: 4, toughness: 4, initiative: 4, attacks: 1, save: 3}},
             models: [{{id: m1, at: [10, 10]}}]}}
          - {{id: g, side: orks, base: 25, stats: {{weapon_skill: 2, strength: 2, toughness: 2, initiative: 2, attacks: 1, save: 7}},
             models: [{{id: g1, at: [{10 + D25}, 10]}}]}}
          - {{id: o, side: orks, base: 25, stats: {{weapon_skill: 4, strength: 3, toughness: 4, initiative: 2, attacks: 2, save: 6}},
             models: [{{id: o1, at: [10, {10 + D25 + 0.5}]}}]}}
        """).state
    a = fight_answer(st, "m")
    ms = next(s for s in a["steps"] if s["unit"] == "m")
    assert (ms["target"], ms["hit_on"], ms["wound_on"], ms["fresh_opponents"]) == ("g", 3, 2, ["o"])
    b = fight_answer(st, "m", Choices(targets={"m1": "o"}))
    assert next(s for s in b["steps"] if s["unit"] == "m")["target"] == "o"
    with pytest.raises(IllegalAction, match="allocates"):
        fight_answer(st, "m", Choices(targets={"m1": {"o": 2}}))


def test_multiple_combats_total_their_wounds():
    # two Marine units against one Ork unit: the Imperium's wounds are the Orks' losses; the
    # Orks' wounds are both Marine units' losses together; every unit of a side shares its odds
    st = scenario(f"""
        tapeline: 1
        system: classic40k
        board: {{width: 24, height: 24}}
        units:
          - {{id: a, side: imperium, base: 25, stats: {{{MARINE}}},
             models: [{{id: a1, at: [10, 10]}}]}}
          - {{id: b, side: imperium, base: 25, stats: {{{MARINE}}},
             models: [{{id: b1, at: [{10 + 2 * D25}, 10]}}]}}
          - {{id: o, side: orks, base: 25, stats: {{{BOY}}},
             models: [{{id: o1, at: [{10 + D25}, 10]}}]}}
        """).state
    a = fight_answer(st, "a")
    assert a["combat"] == ["a", "b", "o"]
    assert a["result"]["a"] == a["result"]["b"] == a["sides"]["imperium"]
    # by hand: a1 and b1 strike at I4 together, 1 attack each: unsaved 1/2·1/2·5/6 = 5/24 each;
    # the Boy (if alive) strikes a1 (nearest, file order) twice: 1/2·1/3·1/3 = 1/18 each
    p = 5 / 24
    alive = (1 - p) ** 2
    assert a["casualties_pmf"]["o"][0] == pytest.approx(alive)
    kill = 1 - (17 / 18) ** 2
    assert a["casualties_pmf"]["a"][1] == pytest.approx(alive * kill)
    tie = alive * (17 / 18) ** 2
    # Orks lose when the Boy falls (destroyed), win when a1 falls while the Boy stands
    assert a["sides"]["orks"] == pytest.approx(alive * kill + tie * 15 / 36)
