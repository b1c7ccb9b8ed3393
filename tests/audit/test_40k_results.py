"""Audit of what follows a 40k 3rd close combat round (seed "Determine Assault Results",
"Loser Checks Morale", "Winners Advancing & Consolidating", "Drawn Combats", "Multiple
Combats"), replayed with recorded dice whose every roll is worked out here by hand.

The dice are read in the order the event log documents: per Initiative step, per Strike Group,
the hit rolls, then the wound rolls for the hits, then the saves; after the round a roll-off
on equal wounds (the first side of the file first); a Leadership test is 2D6, a fall back,
advance or pursuit 2D6, a D6 + Initiative roll the loser's first."""

from __future__ import annotations

import pytest

from tests.audit.c40k_files import BOY, D25, MARINE, scenario_text, unit
from tests.conftest import cli, cli_json

CCW = ["chainsword"]                    # one close combat weapon: no bonus Attack
ONE = dict(BOY, attacks=1)              # a Boy with one Attack
GROT = {"weapon_skill": 2, "strength": 2, "toughness": 2, "wounds": 1, "initiative": 2, "attacks": 1, "leadership": 5, "save": 7}
TOP = {"home_edges": {"orks": "top"}}


def replay(write, text, name="r.yaml"):
    f = write(text, name)
    code, out = cli_json("replay", f)
    assert code == 0, out
    return out


def refused(write, text, rule, words="", name="bad.yaml"):
    f = write(text, name)
    code, out, err = cli("replay", f)
    assert code == 2 and rule in err and words in err and "Traceback" not in err, err
    assert err.strip().count("\n") == 0
    return err


def events(out, kind):
    return [e for e in out["events"] if e["type"] == kind]


def model_at(out, mid):
    for u in out["final"]["units"]:
        for m in u["models"]:
            if m["id"] == mid:
                return tuple(m["at"])
    return None


# --- the result ---------------------------------------------------------------------------


def test_enemy_destroyed_wins_outright_with_fewer_wounds(write):
    # the marine's 2 attacks (pistol and chainsword): hits 4 4, wounds 4 4, Nob saves 1 1:
    # the Nob (W3) loses 2 wounds and lives; its attack: hit 4, wound 5 (S3 v T4), marine save
    # 2 (3+ needed): the marine falls. Marines 2 wounds, Orks 1 — but the Orks wiped them out
    units = [unit("marines", "imperium", dict(MARINE, wargear=["bolt-pistol", "chainsword"]), {"m1": (10, 10)}),
             unit("orks", "orks", dict(ONE, wounds=3), {"nob": (10, 10 + D25)})]
    out = replay(write, scenario_text(units, actions=["{action: fight, unit: marines}"], dice=[4, 4, 4, 4, 1, 1, 4, 5, 2]))
    res = events(out, "assault_result")[0]
    assert (res["winner"], res["outright"], res["wounds"]) == ("orks", True, {"imperium": 2, "orks": 1})
    assert res["destroyed"] == ["imperium"]
    orks = next(u for u in out["final"]["units"] if u["id"] == "orks")
    assert orks["wounds_lost"] == {"nob": 2} and [m["id"] for m in orks["models"]] == ["nob"]


def draw_units():
    # m1 and o1 in base contact; m2 and o2 3.5" away from everybody (not fighting)
    return [unit("marines", "imperium", dict(MARINE, wargear=CCW), {"m1": (10, 10), "m2": (14, 8)}),
            unit("orks", "orks", ONE, {"o1": (10, 10 + D25), "o2": (14, 12.5)})]


def test_equal_wounds_and_equal_roll_off_is_a_draw(write):
    # both attacks miss (1, 1): 0 wounds each; roll-off 3 against 3: drawn
    text = scenario_text(draw_units(), actions=["{action: fight, unit: marines}"], dice=[1, 1, 3, 3])
    out = replay(write, text)
    res = events(out, "assault_result")[0]
    assert res["winner"] is None and res["tiebreak"] is False and res["rolls"] == {"imperium": 3, "orks": 3}
    # nobody checks morale, nobody advances after a draw
    refused(write, scenario_text(draw_units(), actions=["{action: fight, unit: marines}", "{action: morale, unit: orks}"], dice=[1, 1, 3, 3]),
            "40k 3rd Loser Checks Morale", "drawn", "m.yaml")
    refused(write, scenario_text(draw_units(), actions=["{action: fight, unit: marines}", "{action: advance, unit: marines}"], dice=[1, 1, 3, 3]),
            "40k 3rd Advance", name="a.yaml")
    # roll-off 5 against 2: a tiebreak win
    out = replay(write, scenario_text(draw_units(), actions=["{action: fight, unit: marines}"], dice=[1, 1, 5, 2]), "t.yaml")
    res = events(out, "assault_result")[0]
    assert (res["winner"], res["tiebreak"], res["margin"]) == ("imperium", True, 0)


def test_a_combat_is_fought_once_an_assault_phase(write):
    # seed: after a draw or a passed test "both sides ... fight again in the next assault
    # phase". A second round before end_turn is refused and nothing of it is applied; after
    # end_turn it is fought: m1 hits (4), wounds (4), the Boy fails its 6+ save (1); the Boy is
    # gone before it strikes (I4 before I2): Marines win 1 to 0
    first = ["{action: fight, unit: marines}", "{action: fight, unit: marines}"]
    err = refused(write, scenario_text(draw_units(), actions=first, dice=[1, 1, 3, 3, 4, 4, 1]),
                  "40k 3rd Fighting A Close Combat", "already fought")
    assert "actions[1]" in err
    again = ["{action: fight, unit: marines}", "{action: end_turn}", "{action: fight, unit: marines}"]
    out = replay(write, scenario_text(draw_units(), actions=again, dice=[1, 1, 3, 3, 4, 4, 1]), "again.yaml")
    res = events(out, "assault_result")
    assert len(res) == 2 and res[1]["winner"] == "imperium" and res[1]["wounds"] == {"imperium": 1, "orks": 0}
    assert model_at(out, "o1") is None


def test_drawn_combat_models_move_into_contact_with_unengaged_enemies_first(write):
    # after the draw, m2 (not in base contact) piles in up to 6": o1 (3.48" away) is already
    # engaged with m1, o2 (3.52" away) is not: m2 goes to o2
    text = scenario_text(draw_units(), actions=["{action: fight, unit: marines}", "{action: pile_in, unit: marines}"], dice=[1, 1, 3, 3])
    out = replay(write, text)
    mv = events(out, "drawn_combat_move")[0]
    assert mv["in_contact"] == ["m2"] and all(m["path_check"] == "legal" and m["length"] <= 6 + 1e-9 for m in mv["moves"])
    x, y = model_at(out, "m2")
    assert abs(((x - 14) ** 2 + (y - 12.5) ** 2) ** 0.5 - D25) < 1e-5              # touching o2
    assert ((x - 10) ** 2 + (y - 10 - D25) ** 2) ** 0.5 > D25 + 1e-3                 # not touching o1


# --- morale: the loser's Leadership test, with or without the per-wound modifier -------------


def per_wound_case(settings, ld_rolls):
    # four marines (one attack each) in base contact with four Boyz (Ld 8); two more Boyz
    # 1.4" behind. I4: 4 attacks, hits 4 4 4 4, wounds 4 4 4 4, saves (6+) 1 1 1 1: o1–o4 fall.
    # I2: o5, o6: hits 4 4, wounds 5 5, marine saves 1 1: m1, m2 fall. Marines win 4 to 2.
    xs = [10, 11.2, 12.4, 13.6]
    units = [unit("marines", "imperium", dict(MARINE, wargear=CCW), {f"m{i + 1}": (x, 10) for i, x in enumerate(xs)}),
             unit("orks", "orks", dict(ONE, leadership=8), {**{f"o{i + 1}": (x, 10 + D25) for i, x in enumerate(xs)},
                                                            "o5": (10.6, 12.3), "o6": (12.0, 12.3)})]
    dice = [4] * 8 + [1] * 4 + [4, 4, 5, 5, 1, 1] + ld_rolls + [1, 1]
    return scenario_text(units, settings=dict(TOP, **settings), dice=dice,
                         actions=["{action: fight, unit: marines}", "{action: morale, unit: orks}"])


def test_derived_case_8_leadership_with_and_without_the_per_wound_modifier(write):
    # lost 4 to 2, Ld 8: the plain test passes on 3 + 4 = 7; with −1 per wound it tests on 6
    out = replay(write, per_wound_case({}, [3, 4]))
    res = events(out, "assault_result")[0]
    assert (res["winner"], res["wounds"], res["margin"]) == ("imperium", {"imperium": 4, "orks": 2}, 2)
    mor = events(out, "morale")[0]
    assert (mor["leadership"], mor["target"], mor["passed"]) == (8, 8, True)
    assert not events(out, "fall_back")
    out = replay(write, per_wound_case({"c40k_morale_modifier": "per_wound"}, [3, 4]), "p.yaml")
    mor = events(out, "morale")[0]
    assert (mor["leadership"], mor["target"], mor["passed"]) == (8, 6, False)
    fb = events(out, "fall_back")[0]
    assert fb["distance"] == 2


# --- fall back, advance, consolidate ----------------------------------------------------------


def chase_units(extra=()):
    # m1 against o1 (in contact) and o2 (1.3" behind o1)
    return [unit("marines", "imperium", dict(MARINE, wargear=CCW), {"m1": (10, 10)}),
            unit("orks", "orks", ONE, {"o1": (10, 10 + D25), "o2": (10, 12.3)}), *extra]


# m1: hit 4, wound 4, save 1: o1 falls; o2: hit 1. Marines win 1 to 0. Orks' test 6 + 6 = 12: failed
WON = [4, 4, 1, 1, 6, 6]


def chase(actions, more_dice, terrain=(), settings=None, extra=()):
    return scenario_text(chase_units(extra), terrain=terrain, settings=dict(TOP, **(settings or {})), dice=WON + more_dice,
                         actions=["{action: fight, unit: marines}", "{action: morale, unit: orks}", *actions])


MUD = {"id": "mud", "footprint": {"rect": [0, 13, 30, 1]}, "traits": ["difficult"]}


def test_fall_back_2d6_towards_the_home_edge(write):
    # fall back 3 + 3 = 6": o2 straight up from (10, 12.3) to (10, 18.3), across the mud (no penalty)
    out = replay(write, chase([], [3, 3], terrain=[MUD]))
    fb = events(out, "fall_back")[0]
    assert fb["distance"] == 6 and fb["edge"] == "top"
    assert model_at(out, "o2") == pytest.approx((10, 18.3), abs=1e-6)
    assert "falling_back" in next(u for u in out["final"]["units"] if u["id"] == "orks")["status"]


@pytest.mark.parametrize("terrain, roll, caught, moved", [
    ((), [4, 4], True, None),          # 8" reaches the Boy 7.316" away (18.3 − 10 − 0.984)
    ((MUD,), [4, 4], False, 4.0),      # through the mud: half of 8, 4", short of 7.316"
    ((MUD,), [6, 6], False, 6.0),      # half of 12 is 6: still short
    ((), [3, 3], False, 6.0),          # 6" in the open: short
])
def test_advance_2d6_halved_by_difficult_terrain(write, terrain, roll, caught, moved):
    out = replay(write, chase(["{action: advance, unit: marines}"], [3, 3] + roll, terrain=terrain))
    adv = events(out, "advance")[0]
    assert adv["roll"] == sum(roll) and bool(adv["caught_by"]) is caught
    if caught:
        assert model_at(out, "o2") is None
    else:
        assert model_at(out, "o2") is not None
        assert model_at(out, "m1") == pytest.approx((10, 10 + moved), abs=1e-5)


def test_a_sweeping_advance_moves_its_full_roll(write):
    # 6 + 6 = 12" catches the Boy 7.3" away; the marine then sweeps on its whole 12" towards the
    # point the file gives, straight up: from (10, 10) to (10, 22)
    out = replay(write, chase(["{action: advance, unit: marines, toward: [10, 29]}"], [3, 3, 6, 6]))
    sw = events(out, "sweeping_advance")[0]
    assert sw["moves"][0]["length"] == pytest.approx(12.0, abs=1e-6) and sw["fresh_contact"] == []
    assert model_at(out, "m1") == pytest.approx((10, 22), abs=1e-6) and model_at(out, "o2") is None


def test_consolidate_up_to_3_inches_ignoring_difficult_terrain(write):
    # the mud lies across m1's way: 2.9" through it is allowed (not halved), 3.1" is not
    mud = {"id": "mud", "footprint": {"rect": [0, 10.8, 30, 1]}, "traits": ["difficult"]}
    out = replay(write, chase(["{action: consolidate, unit: marines, moves: {m1: [10, 12.9]}}"], [3, 3], terrain=[mud]))
    assert model_at(out, "m1") == pytest.approx((10, 12.9), abs=1e-6)
    err = refused(write, chase(["{action: consolidate, unit: marines, moves: {m1: [10, 13.1]}}"], [3, 3], terrain=[mud]),
                  "40k 3rd Consolidate", "3\"")
    assert "actions[2]" in err


def test_consolidate_may_not_end_in_base_contact_with_an_enemy(write):
    grot = unit("grots", "orks", GROT, {"g1": (13, 10)})
    refused(write, chase(["{action: consolidate, unit: marines, moves: {m1: [" + repr(13 - D25) + ", 10]}}"], [3, 3], extra=[grot]),
            "40k 3rd Consolidate")
    out = replay(write, chase(["{action: consolidate, unit: marines, moves: {m1: [" + repr(13 - D25 - 0.1) + ", 10]}}"], [3, 3],
                              extra=[grot]), "ok.yaml")
    assert model_at(out, "m1") == pytest.approx((13 - D25 - 0.1, 10), abs=1e-6)


def test_an_advance_when_the_enemy_did_not_fall_back_is_refused_and_the_state_stands(write):
    # the Orks pass their test (1 + 1): no advance, no consolidation; `--after 1` still answers
    text = scenario_text(chase_units(), settings=TOP, dice=[4, 4, 1, 1, 1, 1, 6, 6],
                         actions=["{action: fight, unit: marines}", "{action: morale, unit: orks}", "{action: advance, unit: marines}"])
    err = refused(write, text, "40k 3rd Advance", "did not fall back")
    assert "actions[2]" in err
    f = write(text, "after.yaml")
    code, m = cli_json("measure", f, "m1", "o2", "--after", "1")
    assert code == 0 and m["gap"] == pytest.approx(2.3 - D25, abs=1e-9)      # nobody moved
    refused(write, text.replace("{action: advance, unit: marines}", "{action: consolidate, unit: marines, toward: [10, 20]}"),
            "40k 3rd Consolidate", "did not fall back", "c.yaml")


# --- multiple combats -------------------------------------------------------------------------


def multi(grot_test, more=(), more_dice=()):
    # m1 in base contact with the Boy o1, m2 with the Grot g1; o2 and g2 1.3" behind them.
    # I4: m1 at the Boyz: hit 5 (4+), wound 4 (4+), save 1 (6+): o1 falls; m2 at the Grots:
    # hit 3 (3+: WS4 v WS2), wound 2 (2+: S4 v T2), no save: g1 falls. I2: o2 misses (1),
    # g2 misses (1). Marines 2 wounds, Orks 0. Boyz test 6 + 5: fail, fall back 1 + 1;
    # Grots (Ld 5) test as given.
    units = [unit("marines", "imperium", dict(MARINE, wargear=CCW), {"m1": (10, 10), "m2": (12, 10)}),
             unit("orks", "orks", ONE, {"o1": (10, 10 + D25), "o2": (10, 12.3)}),
             unit("grots", "orks", GROT, {"g1": (12, 10 + D25), "g2": (12, 12.3)})]
    dice = [5, 4, 1, 3, 2, 1, 1, 6, 5, 1, 1] + grot_test + list(more_dice)
    return scenario_text(units, settings={"home_edges": {"orks": "top"}}, dice=dice,
                         actions=["{action: fight, unit: marines}", "{action: morale, unit: orks}", "{action: morale, unit: grots}", *more])


def test_multiple_combats_total_the_wounds_and_every_opposing_unit_must_fall_back(write):
    out = replay(write, multi([1, 1]))
    res = events(out, "assault_result")[0]
    assert set(res["units"]) == {"marines", "orks", "grots"}
    assert (res["winner"], res["wounds"], res["margin"]) == ("imperium", {"imperium": 2, "orks": 0}, 2)
    tests = {e["unit"]: e["passed"] for e in events(out, "morale")}
    assert tests == {"orks": False, "grots": True}
    # the Grots held: the Marines may neither advance nor consolidate
    refused(write, multi([1, 1], ["{action: advance, unit: marines}"]), "40k 3rd Advance", "grots did not fall back", "a.yaml")
    refused(write, multi([1, 1], ["{action: consolidate, unit: marines, toward: [10, 5]}"]), "40k 3rd Consolidate",
            "grots did not fall back", "c.yaml")
    # both fail (the Grots 6 + 6, falling back 2 + 2): the Marines advance 6 + 6 = 12" and catch both
    out = replay(write, multi([6, 6], ["{action: advance, unit: marines}"], [2, 2, 6, 6]), "both.yaml")
    adv = events(out, "advance")[0]
    assert adv["roll"] == 12 and adv["caught_by"]
    gone = {e["unit"] for e in events(out, "casualties") if e.get("why")}
    assert gone == {"orks", "grots"}


# --- the trial-rules sweeping advance (derived case 9) -----------------------------------------


@pytest.mark.parametrize("marine_roll, destroyed", [(3, True), (2, False)])
def test_derived_case_9_d6_plus_initiative(write, marine_roll, destroyed):
    # the Boyz (I3 here) fail; D6 + I: the Boyz roll 4 (7), the Marines (I4) roll 3 (7): equal
    # or higher, the Boyz are destroyed; a 2 (6): they fall back (1 + 1) instead
    units = [unit("marines", "imperium", dict(MARINE, wargear=CCW), {"m1": (10, 10)}),
             unit("orks", "orks", dict(ONE, initiative=3), {"o1": (10, 10 + D25), "o2": (10, 12.3)})]
    text = scenario_text(units, settings=dict(TOP, c40k_sweeping_advance="initiative"), dice=WON + [4, marine_roll, 1, 1],
                         actions=["{action: fight, unit: marines}", "{action: morale, unit: orks}"])
    out = replay(write, text)
    sw = events(out, "sweeping_advance")[0]
    assert (sw["loser_total"], sw["winner_total"], sw["destroyed"]) == (7, 4 + marine_roll, destroyed)
    assert (model_at(out, "o2") is None) is destroyed
    assert bool(events(out, "fall_back")) is not destroyed
    # with this reading the winner does not advance 2D6
    refused(write, text.replace("{action: morale, unit: orks}", "{action: morale, unit: orks}\n  - {action: advance, unit: marines}"),
            "40k 3rd Advance", name="adv.yaml")
