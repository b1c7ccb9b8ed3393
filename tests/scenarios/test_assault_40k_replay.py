"""40k 3rd assault replayed: morale, fall back, advance, sweeping advance, consolidation, drawn
combats and bad input (exit 2, the replay stopped with the state untouched)."""

from __future__ import annotations

import pytest

from tapeline.rules.classic40k.resolution import leadership_pass, morale_target
from tests.conftest import EXAMPLES, cli, cli_json, scenario

BASE = (EXAMPLES / "assault-40k.yaml").read_text(encoding="utf-8")
HEAD = BASE[: BASE.index("dice:")]
UNITS = BASE[BASE.index("units:"): BASE.index("actions:")]
# the example's dice up to the end of the fight: Marines win 2 wounds to 1
FIGHT = [6, 5, 4, 4, 1, 2, 3, 6, 5, 4, 5, 6, 1, 2, 3, 1, 2, 6, 5, 2, 5, 1]


def case(rolls, actions, settings="", units=UNITS):
    head = HEAD if not settings else HEAD.replace("settings:\n  home_edges: {orks: top}", f"settings:\n  home_edges: {{orks: top}}\n  {settings}")
    return head + f"dice: {{rolls: {rolls}}}\n" + units + "actions:\n" + "".join(f"  - {a}\n" for a in actions)


PRE = ["{action: assault, unit: marines, targets: [orks]}", "{action: fight, unit: marines}"]


def test_the_whole_assault_example_replays():
    code, out = cli_json("replay", EXAMPLES / "assault-40k.yaml")
    assert code == 0 and out["ok"]
    assert [e["type"] for e in out["events"] if e["type"] in ("assault", "assault_result", "morale", "fall_back", "consolidate")] == [
        "assault", "assault_result", "morale", "fall_back", "consolidate"]


def test_derived_case_8_morale_modifier():
    st = scenario(case(FIGHT, PRE)).state
    assert morale_target(st, "orks", 2) == (7, 7)
    st2 = scenario(case(FIGHT, PRE, settings="c40k_morale_modifier: per_wound")).state
    assert morale_target(st2, "orks", 2) == (7, 5)
    # Ld 8 losing by 2 (4 wounds to 2): a test on 6 with the modifier, 8 without
    assert leadership_pass(6) == pytest.approx(15 / 36) and leadership_pass(8) == pytest.approx(26 / 36)


def test_passed_morale_is_a_draw_and_the_drawn_combat_move(write):
    # Ld test 3 + 2 = 5 <= 7: held; the Marines may not advance; a drawn-combat move is allowed
    f = write(case(FIGHT + [3, 2], PRE + ["{action: morale, unit: orks}", "{action: pile_in, unit: marines}"]))
    code, out = cli_json("replay", f)
    assert code == 0
    mor = next(e for e in out["events"] if e["type"] == "morale")
    assert mor["passed"] is True and mor["rolls"] == [3, 2]
    dm = next(e for e in out["events"] if e["type"] == "drawn_combat_move")
    assert dm["moves"] == [] or all(m["path_check"] == "legal" for m in dm["moves"])
    bad = write(case(FIGHT + [3, 2, 6, 6], PRE + ["{action: morale, unit: orks}", "{action: advance, unit: marines}"]), "b.yaml")
    code, text, err = cli("replay", bad)
    assert code == 2 and "actions[3]" in err and "did not fall back" in err and "Traceback" not in err


def test_derived_case_9_initiative_sweep_destroys_the_loser(write):
    # setting initiative: the Orks fail (6 + 5 > 7), then D6 + I each: Orks (I3 here) roll 4 = 7,
    # Marines (I4) roll 3 = 7: equal or higher -> the Orks are destroyed
    units = UNITS.replace("initiative: 2, attacks: 2", "initiative: 3, attacks: 2")
    f = write(case(FIGHT + [6, 5, 4, 3], PRE + ["{action: morale, unit: orks}"], settings="c40k_sweeping_advance: initiative", units=units))
    code, out = cli_json("replay", f)
    assert code == 0
    sw = next(e for e in out["events"] if e["type"] == "sweeping_advance")
    assert (sw["loser_total"], sw["winner_total"], sw["destroyed"]) == (7, 7, True)
    orks = next(u for u in out["final"]["units"] if u["id"] == "orks")
    assert orks["models"] == []
    # a Marine total one lower: the Orks fall back instead
    f2 = write(case(FIGHT + [6, 5, 4, 2, 3, 3], PRE + ["{action: morale, unit: orks}"], settings="c40k_sweeping_advance: initiative", units=units), "c.yaml")
    code, out = cli_json("replay", f2)
    assert code == 0 and any(e["type"] == "fall_back" for e in out["events"])


def test_advance_catches_the_fleeing_unit(write):
    # the Orks flee 2" (1 + 1); the Marines roll 6 + 6 = 12": they catch and destroy the last Boy
    f = write(case(FIGHT + [6, 5, 1, 1, 6, 6], PRE + ["{action: morale, unit: orks}", "{action: advance, unit: marines}"]))
    code, out = cli_json("replay", f)
    assert code == 0
    adv = next(e for e in out["events"] if e["type"] == "advance")
    assert adv["roll"] == 12 and adv["caught_by"]
    orks = next(u for u in out["final"]["units"] if u["id"] == "orks")
    assert orks["models"] == [] and "o3" in orks["removed"]


def test_advance_that_falls_short(write):
    # the Orks flee 12"; the Marines roll 1 + 1 = 2": no model reaches them, each moves 2" closer
    f = write(case(FIGHT + [6, 5, 6, 6, 1, 1], PRE + ["{action: morale, unit: orks}", "{action: advance, unit: marines}"]))
    code, out = cli_json("replay", f)
    assert code == 0
    adv = next(e for e in out["events"] if e["type"] == "advance")
    assert adv["caught_by"] == []
    pur = next(e for e in out["events"] if e["type"] == "pursuit")
    assert all(m["length"] == pytest.approx(2.0, abs=1e-6) and m["path_check"] == "legal" for m in pur["moves"])


@pytest.mark.parametrize("action, message", [
    ("{action: consolidate, unit: marines, moves: {m2: [12.9, 23.1]}}", "more than the 3\" allowed"),
    ("{action: consolidate, unit: orks, moves: {o3: [15.8, 26]}}", "did not win"),
    ("{action: morale, unit: marines}", "only the loser"),
])
def test_bad_moves_after_the_fight_exit_2_naming_the_rule(write, action, message):
    f = write(case(FIGHT + [6, 5, 3, 4], PRE + ["{action: morale, unit: orks}", action]))
    code, text, err = cli("replay", f, "--json")
    assert code == 2 and "actions[3]" in err and message in err and "Traceback" not in err


def test_assault_from_beyond_six_inches_exits_2(write):
    # the nearest Boy is 27 - 14.015748 - 0.984252 = 12" away
    far = UNITS.replace("{id: o1, at: [10, 20]}", "{id: o1, at: [10, 27]}").replace("{id: o2, at: [12.9, 20]}", "{id: o2, at: [12.9, 28]}").replace(
        "{id: o3, at: [15.8, 20]}", "{id: o3, at: [15.8, 29]}")
    f = write(case([], ["{action: assault, unit: marines, targets: [orks]}"], units=far))
    code, text, err = cli("replay", f)
    assert code == 2 and "actions[0]" in err and "within 6" in err and "Moving Into An Assault" in err


TIE = [4, 1, 1, 1, 1, 1, 1, 1, 1, 4, 1,  4, 4, 1, 1, 5, 1, 1,  5, 2]


def test_a_tiebreak_winner_may_only_consolidate(write):
    # 1 wound each (o1, then m1 fall); roll-off Marines 5, Orks 2: a tiebreak win by 0
    f = write(case(TIE + [6, 6, 1, 1], PRE + ["{action: morale, unit: orks}", "{action: advance, unit: marines}"]))
    code, text, err = cli("replay", f)
    assert code == 2 and "actions[3]" in err and "tiebreaker" in err
    ok = write(case(TIE + [6, 6, 1, 1], PRE + ["{action: morale, unit: orks}", "{action: consolidate, unit: marines, toward: [14, 25]}"]
                    ).replace("actions:", "expect:\n  - {expect: combat_result, unit: marines, winner: imperium, tiebreak: true, "
                                          "points: {imperium: 1, orks: 1}, panic: failed}\nactions:"), "ok.yaml")
    code, out = cli_json("replay", ok)
    assert code == 0 and out["ok"], out["expectations"]
    res = next(e for e in out["events"] if e["type"] == "assault_result")
    assert res["rolls"] == {"imperium": 5, "orks": 2} and res["margin"] == 0
    con = next(e for e in out["events"] if e["type"] == "consolidate")
    assert con["moves"] and all(m["length"] <= 3 + 1e-6 and m["path_check"] == "legal" for m in con["moves"])


def test_sweeping_advance_into_a_fresh_enemy(write):
    # Gretchin 7" beyond the fight; the Orks flee 2", the Marines roll 12: they catch the last
    # Boy, sweep on their full roll and reach the Gretchin: a new assault next turn
    grots = UNITS + "  - {id: grots, side: orks, base: 25, stats: {weapon_skill: 2, strength: 2, toughness: 2, initiative: 2, attacks: 1}, models: [{id: g1, at: [14, 27]}]}\n"
    f = write(case(FIGHT + [6, 5, 1, 1, 6, 6], PRE + ["{action: morale, unit: orks}", "{action: advance, unit: marines}"], units=grots))
    code, out = cli_json("replay", f)
    assert code == 0
    sw = next(e for e in out["events"] if e["type"] == "sweeping_advance")
    assert sw["fresh_contact"] == ["grots"]
    assert all(m["path_check"] == "legal" and m["length"] <= 12 + 1e-6 for m in sw["moves"])
    marines = next(u for u in out["final"]["units"] if u["id"] == "marines")
    assert "sweeping_advance" in marines["status"]
