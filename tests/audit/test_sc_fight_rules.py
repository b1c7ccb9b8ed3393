"""Audit of the Close Combat Attack's rules (§8.8.1) and the round (§8.2.1, §8.6, §8.8), from
the seed's words, on boards built here: who is in the Fighting and Supporting Rank and whom each
may attack, one weapon per model, the Surge Die to one target and never split, Evade in melee
only when granted, BURROWED and Flying units, post-combat Unengaged and Pass, the activations;
bad input exits 2 naming the rule and changes nothing; replays are deterministic."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft import melee
from tapeline.scenarios.load import parse
from tests.audit.sc_brute import R32, R50
from tests.conftest import cli, cli_json

HEAD = """tapeline: 1
system: starcraft
name: audit
board: {width: 30, height: 24}
"""

# The rulebook's ranks figure on our own board: A 0.5" from Marine m1 (Fighting Rank), B in base
# contact with A only (Supporting Rank: it may attack the Marines), C touching B only (neither).
# D is 0.3" from Marauder r1 (Fighting Rank), F touches D only (supports it: the Marauders).
# E touches both A and D and is within 1" of no enemy: it supports either, and chooses.
_A = (10.0, 10 - 2 * R32 - 0.5)
_E = (_A[0] + 2 * R32 * math.cos(math.radians(-30)), _A[1] + 2 * R32 * math.sin(math.radians(-30)))
_D = (_E[0] + 2 * R32 * math.cos(math.radians(30)), _E[1] + 2 * R32 * math.sin(math.radians(30)))
_F = (_D[0] + 2 * R32 * math.cos(math.radians(-60)), _D[1] + 2 * R32 * math.sin(math.radians(-60)))
_R1 = (_D[0], _D[1] + R50 + R32 + 0.3)
RANKS = HEAD + f"""units:
  - id: lings
    side: zerg
    profile: zergling
    models:
      - {{id: A, at: [{_A[0]!r}, {_A[1]!r}]}}
      - {{id: B, at: [{_A[0]!r}, {_A[1] - 2 * R32!r}]}}
      - {{id: C, at: [{_A[0]!r}, {_A[1] - 4 * R32!r}]}}
      - {{id: D, at: [{_D[0]!r}, {_D[1]!r}]}}
      - {{id: E, at: [{_E[0]!r}, {_E[1]!r}]}}
      - {{id: F, at: [{_F[0]!r}, {_F[1]!r}]}}
  - {{id: marines, side: terran, profile: marine, models: [{{id: m1, at: [10, 10]}}]}}
  - {{id: marauders, side: terran, profile: marauder, models: [{{id: r1, at: [{_R1[0]!r}, {_R1[1]!r}]}}]}}
"""


def test_fighting_and_supporting_rank(write):
    p = write(RANKS)
    for a, b, engaged in (("E", "m1", False), ("E", "r1", False), ("B", "m1", False), ("F", "r1", False),
                          ("A", "m1", True), ("D", "r1", True), ("A", "r1", False), ("D", "m1", False)):
        code, m = cli_json("measure", p, a, b)
        assert m["engaged"] is engaged and (m["gap"] <= 1) is engaged, (a, b)
    code, o = cli_json("fight", p, "--unit", "lings")
    assert code == 0
    assert set(o["fighting_rank"]) == {"A", "D"} and set(o["supporting_rank"]) == {"B", "E", "F"}
    assert set(o["fighters"]["lings"]) == {"A", "B", "D", "E", "F"}          # C takes no part
    # A, B (supporting A) and E (by default the first unit it may attack) at the Marines; D and
    # F (supporting D) at the Marauders: 2 Claws dice each
    assert o["assign"] == {"A": "marines", "B": "marines", "D": "marauders", "E": "marines", "F": "marauders"}
    assert o["dice"] == {"marines": 6, "marauders": 4}
    # E touches a model fighting each unit: it may attack either
    code, o = cli_json("fight", p, "--unit", "lings", "--assign", "E=marauders")
    assert code == 0 and o["dice"] == {"marines": 4, "marauders": 6}
    # B touches A only: it may not attack the Marauders; C strikes nobody
    code, out, err = cli("fight", p, "--unit", "lings", "--assign", "B=marauders")
    assert code == 2 and "§8.8.1 Fighting multiple Units" in err and out == ""
    code, out, err = cli("fight", p, "--unit", "lings", "--assign", "C=marines")
    assert code == 2 and "neither the Fighting nor the Supporting Rank" in err
    # --target limits the attack to one of the engaged units
    code, o = cli_json("fight", p, "--unit", "lings", "--target", "marauders")
    assert o["dice"] == {"marauders": 6} and set(o["fighters"]["lings"]) == {"D", "E", "F"}


def test_one_target_and_one_weapon_per_model(write):
    p = write(RANKS)
    for args, rule in ((["--assign", "B=marines", "--assign", "B=marauders"], "§8.8.1 Fighting multiple Units"),
                       (["--weapon", "A=claws", "--weapon", "A=shredding-claws"], "§8.8.1 Close Combat Attack"),
                       (["--weapon", "A=c-14-rifle"], "weapon")):
        code, out, err = cli("fight", p, "--unit", "lings", *args)
        assert code == 2 and rule in err and "Traceback" not in err and out == "", args


def test_surge_die_goes_to_one_target_never_split(write):
    p = write(RANKS)
    code, o = cli_json("fight", p, "--unit", "lings", "--surge-to", "marauders")
    assert code == 0 and o["surge_to"] == "marauders"
    # Claws surge on Light: the Marines would use it; at the Marauders the die moves nothing.
    # Marines' share: 6 dice 4+, Armour 5+ (2/3 fail): 1/3 a die, no Surge; HP 2, one Marine
    kills = o["odds"]["marines"]["kills_pmf"]
    assert kills[1] == pytest.approx(1 - (2 / 3) ** 6 - 6 * (1 / 3) * (2 / 3) ** 5, abs=1e-12)
    code, o = cli_json("fight", p, "--unit", "lings")
    assert o["surge_to"] == "marines"          # default: the first target whose tags match
    for args in (["--surge-to", "marines", "--surge-to", "marauders"], ["--surge-to", "marines,marauders"]):
        code, out, err = cli("fight", p, "--unit", "lings", *args)
        assert code == 2 and "§8.8.1 Surge" in err and out == ""
    code, out, err = cli("fight", p, "--unit", "lings", "--target", "marines", "--surge-to", "marauders")
    assert code == 2 and "§8.8.1 Surge" in err


def test_surge_split_in_a_replay_is_illegal_and_nothing_changes(write):
    text = RANKS + "dice: {seed: 3}\nactions:\n  - {action: close_combat, unit: lings, surge_to: [marines, marauders]}\n"
    p = write(text)
    code, out, err = cli("replay", p)
    assert code == 2 and "actions[0]" in err and "§8.8.1 Surge" in err and "Traceback" not in err
    code, out, err = cli("fight", p, "--unit", "lings", "--after", "0")
    assert code == 2 and "actions[0]" in err
    code, out, err = cli("fight", p, "--unit", "lings", "--after", "-1")      # -1: after the last action
    assert code == 2 and "§8.8.1 Surge" in err
    # the state the illegal action would have changed: the rule raises and the value stays
    loaded = parse(text, "x")
    before = loaded.state
    with pytest.raises(IllegalAction) as e:
        melee.declare(before, "lings", surge_to=["marines", "marauders"])
    assert e.value.rule == "§8.8.1 Surge"
    assert before.unit("marines").models == ("m1",) and before.figure("A").at == loaded.state.figure("A").at


def test_no_fight_across_a_wall_or_with_flyers(write):
    # within 1" of a Marine across a Size 2 wall, and of a Flying drone: Engaged with neither
    text = HEAD + f"""terrain:
  - {{id: wall, footprint: {{rect: [8, 9.8, 4, 0.2]}}, size: 2}}
units:
  - {{id: lings, side: zerg, profile: zergling, models: [{{id: z1, at: [10, {9.8 - R32 - 0.1!r}]}}]}}
  - {{id: marines, side: terran, profile: marine, models: [{{id: m1, at: [10, {10 + R32 + 0.1!r}]}}]}}
  - {{id: drones, side: terran, profile: point-defense-drone, models: [{{id: d1, at: [{10 - 2 * R32 - 0.3!r}, {9.8 - R32 - 0.1!r}]}}]}}
"""
    p = write(text)
    code, out, err = cli("fight", p, "--unit", "lings")
    assert code == 2 and "§8.8 Combat phase" in err and "not Engaged" in err
    code, out, err = cli("fight", p, "--unit", "drones")
    assert code == 2 and "Flying" in err
    code, m = cli_json("measure", p, "z1", "d1")
    assert m["engagement_range"] is True and m["engaged"] is False


def test_evade_in_melee_only_when_granted(write):
    # Zerglings are Engaged (Evade 4+): a Ranged Attack lets them Evade, a Close Combat Attack not
    p = write(RANKS)
    code, o = cli_json("fight", p, "--unit", "marines")
    assert code == 0 and o["evade"] == {}
    assert o["dice"] == {"lings": 1}
    # Strike RoA 1, 5+; Zergling Armour 6+: 1/3 · 5/6
    assert o["odds"]["lings"]["kills_pmf"][1] == pytest.approx(5 / 18, abs=1e-12)
    # a Combat Shield (ability) grants Evade against Close Combat attacks: Marine Evade 5+
    code, o = cli_json("fight", write(RANKS.replace("profile: marine,", "profile: marine, stats: {abilities: [combat-shield]},"),
                                     "cs.yaml"), "--unit", "lings", "--target", "marines", "--surge-to", "marines")
    assert code == 0 and o["evade"] == {"marines": ["Combat Shield"]}


# --- BURROWED, post-combat, the round ----------------------------------------------------------

# Phase 3 cast: Zerglings z1, z2 touching Marines m1, m2; Medic d1 (no weapon) touching z2; a
# Flying drone f1 0.08" from z1 (never Engaged); a BURROWED Roach b1 touching Marauder r1.
CAST = HEAD + f"""units:
  - {{id: lings, side: zerg, profile: zergling, models: [{{id: z1, at: [10, {10 + 2 * R32!r}]}}, {{id: z2, at: [11.4, {10 + 2 * R32!r}]}}]}}
  - {{id: marines, side: terran, profile: marine, models: [{{id: m1, at: [10, 10]}}, {{id: m2, at: [11.4, 10]}}]}}
  - {{id: medics, side: terran, profile: medic, models: [{{id: d1, at: [{11.4 + 2 * R32!r}, {10 + 2 * R32!r}]}}]}}
  - {{id: drones, side: terran, profile: point-defense-drone, models: [{{id: f1, at: [10, {10 + 4 * R32 + 0.08!r}]}}]}}
  - {{id: roaches, side: zerg, profile: roach, status: [burrowed], models: [{{id: b1, at: [20, 10]}}]}}
  - {{id: marauders, side: terran, profile: marauder, models: [{{id: r1, at: [{20 + 2 * R50!r}, 10]}}]}}
dice: {{rolls: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}}
"""
PHASE2 = """  - {action: phase, phase: assault, first_player: zerg}
  - {action: hold, unit: roaches}
  - {action: pass, side: terran}
  - {action: pass, side: zerg}
  - {action: phase, phase: combat}
"""
PHASE3 = """  - {action: close_combat, unit: marines}
  - {action: hold, unit: roaches}
  - {action: close_combat, unit: medics}
  - {action: close_combat, unit: lings}
  - {action: close_combat, unit: marauders}
  - {action: pass, side: zerg}
  - {action: pass, side: terran}
"""


def _round(write, phase2=PHASE2, phase3=PHASE3, name="r.yaml"):
    return write(CAST + "actions:\n" + phase2 + phase3, name)


def test_whole_round_with_burrowed_weaponless_and_flying_units(write):
    p = _round(write)
    code, r = cli_json("replay", p)
    assert code == 0, r
    phase3 = next(e for e in r["events"] if e["type"] == "phase" and e["phase"] == "combat")
    # Terran passed first in Phase 2: it holds the First Player Marker and starts Phase 3
    assert phase3["first_player"] == "terran" and phase3["turn"] == "terran"
    # every Engaged unit must fight; the Flying drone never takes part
    assert sorted(phase3["activations"]) == ["lings", "marauders", "marines", "medics", "roaches"]
    medic = next(e for e in r["events"] if e["type"] == "close_combat" and e["unit"] == "medics")
    assert medic["dice"] == {}                                   # activates, strikes with nothing
    rr = next(e for e in r["events"] if e["type"] == "close_combat" and e["unit"] == "marauders")
    assert rr["evade"] == {"roaches": ["BURROWED (§11)"]}          # enemies attack it normally
    lings = next(e for e in r["events"] if e["type"] == "close_combat" and e["unit"] == "lings")
    assert lings["evade"] == {}                                  # no Evade for being Engaged
    order = [(e["unit"], e["action"]) for e in r["events"] if e["type"] == "activated" and e["phase"] == "combat"]
    assert order == [("marines", "fight"), ("roaches", "hold"), ("medics", "fight"), ("lings", "fight"),
                     ("marauders", "fight")]
    assert r["final"]["round"]["phase"] == "over" and r["final"]["round"]["markers"] == {}


@pytest.mark.parametrize("phase2,phase3,index,rule,words", [
    # Phase 2: the Zerglings activate twice (markers flipped, nobody has passed)
    ("  - {action: phase, phase: assault, first_player: zerg}\n  - {action: hold, unit: roaches}\n"
     "  - {action: hold, unit: marines}\n  - {action: hold, unit: roaches}\n", "", 3, "§8.6 Activations", "already activated"),
    # Phase 2: Terran acts first although Zerg holds the First Player Marker
    ("  - {action: phase, phase: assault, first_player: zerg}\n  - {action: hold, unit: marines}\n", "", 1,
     "§8.6 Activations", "turn"),
    # Phase 2: passing twice
    ("  - {action: phase, phase: assault, first_player: zerg}\n  - {action: pass, side: zerg}\n"
     "  - {action: pass, side: terran}\n  - {action: pass, side: zerg}\n", "", 3, "§8.2.1 Pass", None),
    # Phase 3: Zerg acts first, but Terran passed first in Phase 2 and starts
    (PHASE2, "  - {action: close_combat, unit: lings}\n", 5, "§8.8 Combat phase", "turn"),
    # Phase 3: the Flying drone tries to fight
    (PHASE2, "  - {action: close_combat, unit: drones}\n", 5, "§8.8 Combat phase", None),
    # Phase 3: a unit fights twice
    (PHASE2, "  - {action: close_combat, unit: marines}\n  - {action: hold, unit: roaches}\n"
             "  - {action: close_combat, unit: marines}\n", 7, "§8.8 Combat phase", "already fought"),
    # Phase 3: the BURROWED Roaches attack without Close Ranks
    (PHASE2, "  - {action: close_combat, unit: marines}\n  - {action: close_combat, unit: roaches}\n", 6,
     "§8.8.1 Engaged BURROWED units", "BURROWED"),
    # Phase 3: Zerg passes with Engaged units still to fight
    (PHASE2, "  - {action: close_combat, unit: marines}\n  - {action: pass, side: zerg}\n", 6,
     "§8.8 Combat phase", "still has Engaged units"),
    # Phase 3: a Hold by a unit that is not BURROWED
    (PHASE2, "  - {action: hold, unit: marines}\n", 5, "§8.8 Combat phase", "cannot Hold"),
    # Phase 3: a Run (a Phase 2 action)
    (PHASE2, "  - {action: run, unit: marines, leader: m1, path: [[9, 8]]}\n", 5, "§8.8 Combat phase", None),
])
def test_illegal_activations_exit_2_naming_the_rule(write, phase2, phase3, index, rule, words):
    p = _round(write, phase2, phase3)
    code, out, err = cli("replay", p)
    assert code == 2 and f"actions[{index}]" in err and rule in err and "Traceback" not in err, err
    if words:
        assert words in err
    if index > 0:     # the state before the illegal action still answers queries
        code, o = cli_json("measure", p, "z1", "m1", "--after", str(index - 1))
        assert code == 0 and o["contact"] is True


def test_burrowed_unit_close_ranks_then_attacks(write):
    # b1 stands 0.4" from r1: not in base contact, so Close Ranks may press it in; it loses
    # BURROWED and then attacks
    text = CAST.replace(f"{{id: b1, at: [20, 10]}}", "{id: b1, at: [19.6, 10]}")
    phase3 = ("  - {action: close_combat, unit: marines}\n  - {action: close_ranks, unit: roaches}\n"
              "  - {action: close_combat, unit: roaches}\n")
    p = write(text + "actions:\n" + PHASE2 + phase3)
    code, r = cli_json("replay", p)
    assert code == 0, r
    cr = next(e for e in r["events"] if e["type"] == "close_ranks")
    assert cr["gap_after"] == pytest.approx(0, abs=1e-6) and cr["gap_before"] == pytest.approx(0.4, abs=1e-6)
    assert any(e["type"] == "status" and e.get("lost") == "burrowed" for e in r["events"])
    cc = next(e for e in r["events"] if e["type"] == "close_combat" and e["unit"] == "roaches")
    assert cc["dice"] == {"marauders": 2}                       # Roach Claws RoA 2
    code, out, err = cli("replay", write(text + "actions:\n" + PHASE2 + phase3.replace(
        "  - {action: close_combat, unit: roaches}\n", "  - {action: hold, unit: roaches}\n"), "h.yaml"))
    assert code == 2 and "actions[7]" in err and "Closed Ranks" in err


# Marines m1 and Marauder r1 are both Engaged with two Zerglings only. Terran starts Phase 3: the
# Marauder's Strike (RoA 2, 4+, no Surge): 6 6 hit; Zergling Armour 6+: 1 1 fail → 2 damage,
# both Zerglings (HP 1) die. The Marines had not fought: freed, they Pass (§8.8.1 step 5).
FREED = HEAD + f"""units:
  - {{id: lings, side: zerg, profile: zergling, models: [{{id: z1, at: [10, {10 + 2 * R32!r}]}}, {{id: z2, at: [{10 + 2 * R32!r}, {10 + 2 * R32!r}]}}]}}
  - {{id: marines, side: terran, profile: marine, models: [{{id: m1, at: [10, 10]}}]}}
  - {{id: marauders, side: terran, profile: marauder, models: [{{id: r1, at: [{10 + 2 * R32!r}, {10 + 4 * R32 + R50 - R32 + 0.1!r}]}}]}}
dice: {{rolls: [6, 6, 1, 1]}}
actions:
  - {{action: phase, phase: assault, first_player: terran}}
  - {{action: pass, side: terran}}
  - {{action: pass, side: zerg}}
  - {{action: phase, phase: combat}}
  - {{action: close_combat, unit: marauders}}
  - {{action: pass, side: zerg}}
  - {{action: pass, side: terran}}
"""


def test_post_combat_unengaged_and_the_freed_unit_passes(write):
    p = write(FREED)
    code, m = cli_json("measure", p, "z2", "r1")
    assert m["engaged"] is True
    code, r = cli_json("replay", p)
    assert code == 0, r
    cas = [e for e in r["events"] if e["type"] == "casualties"]
    assert cas and sorted(cas[0]["models"]) == ["z1", "z2"]
    un = next(e for e in r["events"] if e["type"] == "unengaged")
    assert "marauders" in un["units"]
    freed = [e["unit"] for e in r["events"] if e["type"] == "freed"]
    assert freed == ["marines"]
    # the Marines cannot fight any more: not Engaged
    code, out, err = cli("replay", write(FREED.replace("  - {action: pass, side: zerg}\n  - {action: pass, side: terran}\n",
                                                       "  - {action: pass, side: zerg}\n  - {action: close_combat, unit: marines}\n"),
                                         "f2.yaml"))
    assert code == 2 and "actions[6]" in err and "not Engaged" in err


def test_replays_are_deterministic(write):
    text = CAST.replace("dice: {rolls: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}", "dice: {seed: 11}")
    p = write(text + "actions:\n" + PHASE2 + PHASE3)
    runs = [cli("replay", p, "--json") for _ in range(2)]
    assert runs[0][0] in (0, 1) and runs[0] == runs[1]
    events = json.loads(runs[0][1])["events"]
    assert any(e["type"] == "roll" for e in events)
    q = write(text + "actions:\n" + PHASE2 + PHASE3, "same.yaml")
    assert cli("replay", q, "--json")[1] == runs[0][1]


# --- a fight never removes more models than its damage allows (property) -----------------------

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(1, 6), min_size=40, max_size=40))
def test_casualties_never_exceed_the_damage(write, rolls):
    text = RANKS + f"dice: {{rolls: {rolls}}}\nactions:\n  - {{action: close_combat, unit: lings, surge_to: marines}}\n"
    code, r = cli_json("replay", write(text, "p.yaml"))
    assert code == 0
    hp = {"marines": 2, "marauders": 5}            # one model each
    for e in (e for e in r["events"] if e["type"] == "casualties"):
        assert len(e["models"]) * hp[e["unit"]] <= e["total_damage"]
        assert len(e["models"]) == min(e["total_damage"] // hp[e["unit"]], 1)
