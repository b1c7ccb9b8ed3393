"""Audit of the Horus Heresy 3rd worked examples (the rules digest's official examples and its
derived cases), each reproduced through the command line or the rules' public functions, with
the expected values taken from the examples themselves."""

from __future__ import annotations

import pytest

from tapeline.rules.dice import RecordedDice
from tapeline.rules.heresy import challenge as ch
from tapeline.rules.heresy.charge import setup_move
from tapeline.rules.heresy.checks import modified_die, modified_total, passes, unit_characteristic
from tapeline.rules.heresy.reactions import reaction_allotment
from tapeline.rules.heresy.resolution import points
from tapeline.rules.heresy.charts import melee_hit_tn, penetration, wound_tn
from tapeline.rules.melee.charts import save_on
from tests.conftest import cli, cli_json, scenario

R32 = 16 / 25.4
LEGIONARY = "movement: 7, weapon_skill: 4, ballistic_skill: 4, strength: 4, toughness: 4, wounds: {w}, initiative: {i}, attacks: 1, leadership: 7, cool: 7, save: 3"


def pair(write, im=None, status="", trt_i=4, extra=""):
    """One Legionary against another in base contact; the first fights with a blade whose IM is
    ``im``."""
    blade = f", melee_weapons: {{blade: {{initiative: {im!r}}}}}" if im is not None else ""
    return write(f"""
        tapeline: 1
        system: heresy
        board: {{width: 24, height: 24}}
        units:
          - id: a
            side: loyalist
            base: 32
            {status}
            stats: {{{LEGIONARY.format(i=4, w=1)}{blade}}}
            models: [{{id: a1, at: [10, 10]}}]
          - id: b
            side: traitor
            base: 32
            stats: {{{LEGIONARY.format(i=trt_i, w=1)}}}
            models: [{{id: b1, at: [{10 + 2 * R32!r}, 10]}}]
        {extra}
        """)


@pytest.mark.parametrize("im,ci", [("+2", 6), ("-1", 3), ("x2", 8), (2, 2), ("I", 4)])
def test_combat_initiative_with_initiative_4(write, im, ci):
    code, o = cli_json("fight", pair(write, im, trt_i=5), "--unit", "a")
    assert code == 0
    assert [s["initiative"] for s in o["steps"] if s["unit"] == "a"] == [ci]


def test_any_status_sets_combat_initiative_1(write):
    code, o = cli_json("fight", pair(write, "+2", status="status: [suppressed]", trt_i=5), "--unit", "a")
    assert code == 0 and [s["initiative"] for s in o["steps"] if s["unit"] == "a"] == [1]


def test_initiative_steps_5_4_1(write):
    """9 models at CI 4 and one at CI 1 (a power fist) against 5 at CI 5: steps 5, 4, 1."""
    ys = [2 + 1.3 * k for k in range(10)]
    mine = "\n".join(f"              - {{id: a{k}, at: [10, {y:.2f}]}}" for k, y in enumerate(ys))
    theirs = "\n".join(f"              - {{id: b{k}, at: [{10 + 2 * R32:.6f}, {ys[2 * k]:.2f}]}}" for k in range(5))
    f = write(f"""
        tapeline: 1
        system: heresy
        board: {{width: 24, height: 24}}
        units:
          - id: a
            side: loyalist
            base: 32
            stats: {{{LEGIONARY.format(i=4, w=1)}, wargear: [chainsword], models: {{a9: {{wargear: [power fist]}}}}}}
            models:
{mine}
          - id: b
            side: traitor
            base: 32
            stats: {{{LEGIONARY.format(i=5, w=1)}}}
            models:
{theirs}
        """)
    code, o = cli_json("fight", f, "--unit", "a")
    assert code == 0 and o["initiative_steps"] == [5, 4, 1]


def test_unit_check_uses_the_lowest_or_a_sergeant(write):
    def unit(sgt):
        models = "{m2: {leadership: 8}, m3: {leadership: 10" + (", subtypes: [sergeant]" if sgt else "") + "}}"
        return scenario(f"""
            tapeline: 1
            system: heresy
            board: {{width: 12, height: 12}}
            units:
              - id: u
                side: x
                base: 32
                stats: {{leadership: 6, models: {models}}}
                models: [{{id: m1, at: [2, 2]}}, {{id: m2, at: [4, 2]}}, {{id: m3, at: [6, 2]}}]
            """).state
    assert unit_characteristic(unit(False), "u", "leadership")[0] == 6          # LD 6, 8, 10 -> 6
    assert unit_characteristic(unit(True), "u", "leadership") == (10, "m3")     # unless the Sergeant's is used


def test_check_and_die_modifiers():
    assert modified_total([2, 4], -2) == 4          # a Check rolling 2 and 4 with −2 on the total
    assert modified_die(4, +1) == 5 and modified_die(6, +1) == 6 and modified_die(1, -1) == 1
    assert passes((1, 1), 2) and not passes((6, 6), 12)     # the rule of doubles
    assert not passes((4, 4), 7)                    # case 11: 8 > CL 7


@pytest.mark.parametrize("m,i,heavy,inches", [(7, 4, False, 3), (6, 3, False, 2), (12, 4, False, 5), (10, 10, False, 6),
                                              (6, 4, True, 1), (7, 4, True, 2), (1, 5, False, 1), (6, 3, True, 1)])
def test_setup_move_table(m, i, heavy, inches):
    assert setup_move(m, i, heavy) == inches


@pytest.mark.parametrize("att,dfn,tn", [(4, 4, 4), (5, 4, 3), (4, 5, 5), (4, 2, 2), (2, 4, 6), (3, 6, 6), (4, 3, 3), (3, 4, 5),
                                        (10, 10, 4), (1, 1, 4), (1, 2, 6), (6, 4, 3), (8, 4, 2), (4, 8, 6), (7, 8, 5)])
def test_melee_hit_table(att, dfn, tn):
    assert melee_hit_tn(att, dfn) == tn


@pytest.mark.parametrize("s,t,tn", [(4, 4, 4), (5, 4, 3), (8, 4, 2), (4, 6, 6), (4, 7, 6), (4, 8, None), (3, 7, None),
                                    (1, 4, 6), (1, 5, None), (10, 10, 4), (3, 4, 5)])
def test_wound_table(s, t, tn):
    assert wound_tn(s, t) == tn


def test_saves_against_ap():
    assert save_on(3, None, ap=5) == 3          # chainsword AP5 against 3+: allowed
    assert save_on(3, None, ap=3) is None       # power sword AP3 against 3+: none
    assert save_on(3, None, ap=2) is None       # power fist AP2
    assert save_on(2, 4, ap=2) == 4             # the invulnerable save ignores AP
    assert save_on(2, 4, ap=3) == 2             # the better of the two


@pytest.mark.parametrize("s,roll,av,kind", [(8, 3, 11, "glancing"), (8, 3, 10, "penetrating"), (4, 6, 10, "glancing"),
                                            (4, 5, 10, "none")])
def test_armour_penetration(s, roll, av, kind):
    assert penetration(s, roll, av) == kind


def test_power_fist_on_a_legionary(write):
    """Case 16–17: IM −3, SM +4, AP2, D2 on I4 S4: CI 1, S8; against T4 wounds on 2+, no save
    against 3+; 2 damage an unsaved wound (a W2 target: one wound kills)."""
    f = write(f"""
        tapeline: 1
        system: heresy
        board: {{width: 24, height: 24}}
        units:
          - id: a
            side: loyalist
            base: 32
            stats: {{{LEGIONARY.format(i=4, w=1)}, wargear: [power fist]}}
            models: [{{id: a1, at: [10, 10]}}]
          - id: b
            side: traitor
            base: 32
            stats: {{{LEGIONARY.format(i=4, w=2)}}}
            models: [{{id: b1, at: [{10 + 2 * R32!r}, 10]}}]
        """.replace("wounds: 1, initiative: 4, attacks: 1, leadership: 7, cool: 7, save: 3}, wounds: 2", "wounds: 2, initiative: 4, attacks: 1, leadership: 7, cool: 7, save: 3"))
    code, o = cli_json("fight", f, "--unit", "a")
    fist = [s for s in o["steps"] if s["unit"] == "a"][0]
    assert (fist["initiative"], fist["hit_on"], fist["wound_on"], fist["save_on"]) == (1, 4, 2, None)
    # b1 strikes first (I4, basic weapon): hit 1/2, wound 1/2, save 3+ fails 1/3 -> a1 slain 1/12;
    # else the fist: hit 1/2, wound 5/6, no save, 2 damage on W2 -> b1 slain 5/12
    assert o["casualties_pmf"]["a"] == pytest.approx([11 / 12, 1 / 12])
    assert o["casualties_pmf"]["b"] == pytest.approx([1 - 55 / 144, 55 / 144])


def test_combat_resolution_points_and_panic_target(write):
    """Case 24–25: A kills 3 and keeps 7 models, B kills 1 and keeps 4: A 3 + 1 = 4, B 1; B's
    Panic Check against LD 7 − 3 = 4."""
    ms_a = ", ".join(f"{{id: a{k}, at: [{2 + 1.4 * k:.1f}, 3]}}" for k in range(7))
    ms_b = ", ".join(f"{{id: b{k}, at: [{2 + 1.4 * k:.1f}, 8]}}" for k in range(4))
    st = scenario(f"""
        tapeline: 1
        system: heresy
        board: {{width: 24, height: 24}}
        units:
          - {{id: A, side: red, base: 32, stats: {{leadership: 7}}, models: [{ms_a}]}}
          - {{id: B, side: blue, base: 32, stats: {{leadership: 7}}, models: [{ms_b}]}}
        """).state
    pts, br = points(st, ["A", "B"], {"B": 3, "A": 1}, {}, {})
    assert pts == {"red": 4, "blue": 1}
    assert br["red"]["most_models"] == 1 and br["blue"]["most_models"] == 0
    assert 7 - (pts["red"] - pts["blue"]) == 4


DUELLISTS = """
tapeline: 1
system: heresy
board: {{width: 30, height: 30}}
units:
  - id: A
    side: red
    base: 32
    stats: {{{stats_a}, wargear: [power sword], models: {{ca: {{subtypes: [champion]}}}}}}
    models:
{a}
  - id: B
    side: blue
    base: 40
    tags: [{btags}]
    stats: {{{stats_b}, wargear: [power fist], models: {{cb: {{subtypes: [champion]}}}}}}
    models:
{b}
"""


def duellists(n_a=0, n_b=0, btags="heavy"):
    """ca and cb in base contact; ``n_a`` more A models each in base contact with one of
    ``n_b`` more B models (or, when B has none, in a column behind ca)."""
    a = [f"      - {{id: ca, at: [10, 2]}}"]
    b = [f"      - {{id: cb, at: [{10 + R32 + 20 / 25.4:.6f}, 2]}}"]
    for k in range(n_a):
        a.append(f"      - {{id: a{k}, at: [10, {3.6 + 1.6 * k:.2f}]}}")
    for k in range(n_b):
        b.append(f"      - {{id: b{k}, at: [{10 + R32 + 20 / 25.4:.6f}, {3.6 + 1.6 * k:.2f}]}}")
    text = DUELLISTS.format(stats_a=LEGIONARY.format(i=4, w=1), stats_b=LEGIONARY.format(i=4, w=2), a="\n".join(a), b="\n".join(b),
                            btags=btags)
    return scenario(text).state


def test_focus_roll_worked_example():
    """Case 26: A (CI 4, power sword) rolls 3: 7; B (CI 1, power fist, Heavy, one wound lost)
    rolls 6: 6 + 1 − 1 − 1 = 5. A has Challenge Advantage: it strikes first with +1 Attack."""
    st = duellists()
    st = st.with_wounds_lost("B", {"cb": 1})
    dice = RecordedDice([3, 6] + [1] * 20)
    new, events, duel = ch.run(st, "ca", "cb", dice, {"active": "red"})
    rnd = [e for e in events if e["type"] == "challenge_round"][0]
    assert rnd["focus"]["ca"]["total"] == 7 and rnd["focus"]["cb"]["total"] == 5 and rnd["advantage"] == "ca"
    strikes = [e for e in events if e["type"] == "challenge_strike"]
    assert strikes[0]["model"] == "ca" and strikes[0]["attacks"] == 2        # A1 + 1 for the Advantage
    assert strikes[1]["model"] == "cb" and strikes[1]["attacks"] == 1
    assert duel.glory == {"red": 0, "blue": 0}                               # no wounds either way: 0


def test_outside_support():
    """Case 27: 12 other Engaged, status-free friendlies: +2 (floor 12/5). Case 28: the opponent
    has no other models, 7 friendlies: +4 (ceil(7/5) × 2)."""
    st = duellists(n_a=12, n_b=12)
    assert ch.outside_support(st, "ca", "cb") == 2
    st = duellists(n_a=7, n_b=0)
    assert ch.outside_support(st, "ca", "cb") == 4
    assert ch.outside_support(st, "cb", "ca") == 0


def test_glory():
    """Case 29: slaying a W2 Command model scores 3; case 30: both survive, 2 wounds to 1: +2
    to the one that dealt 2; case 31: 1 each: 0."""
    st = duellists()
    cmd = duellists(btags="command")
    slain = cmd.without_models("B", ["cb"])
    assert ch.glory(cmd, slain, "ca", "cb", {"ca": 2, "cb": 0}, {}) == {"red": 3, "blue": 0}
    assert ch.glory(st, st, "ca", "cb", {"ca": 2, "cb": 1}, {}) == {"red": 2, "blue": 0}
    assert ch.glory(st, st, "ca", "cb", {"ca": 1, "cb": 1}, {}) == {"red": 0, "blue": 0}


def test_reaction_allotment():
    assert reaction_allotment(3000) == 2 and reaction_allotment(1500) == 1


# --- the Aftermath moves, with recorded dice ------------------------------------------------------
# Three Legionaries against two, in base contact, no fight: the loyalists score 1 (most models)
# to 0. Panic Check for the traitors at LD 7 − 1 = 6: (6, 5) fails, they are Routed.


def aftermath_file(write, choices, dice, cavalry=False):
    return write(f"""
        tapeline: 1
        system: heresy
        board: {{width: 48, height: 24}}
        settings:
          home_edges: {{traitor: right, loyalist: left}}
        units:
          - id: loy
            side: loyalist
            base: 32
            stats: {{{LEGIONARY.format(i=4, w=1)}}}
            models: [{{id: a1, at: [10, 10]}}, {{id: a2, at: [10, 11.3]}}, {{id: a3, at: [10, 12.6]}}]
          - id: trt
            side: traitor
            base: 32
            {"tags: [cavalry]" if cavalry else ""}
            stats: {{{LEGIONARY.format(i=4, w=1)}}}
            models: [{{id: t1, at: [{10 + 2 * R32!r}, 10]}}, {{id: t2, at: [{10 + 2 * R32!r}, 11.3]}}]
        dice: {{rolls: {dice}}}
        actions:
          - {{action: resolution, unit: loy}}
          - {{action: aftermath, unit: loy, choices: {choices}}}
        """)


def moves_of(o, kind):
    return [m for e in o["events"] if e["type"] == kind for m in e["moves"]]


def test_fall_back_i4_plus_3_and_pursue_i4_plus_5(write):
    code, o = cli_json("replay", aftermath_file(write, "{trt: fall_back, loy: pursue}", [6, 5, 3, 5]))
    assert code == 0
    res = [e for e in o["events"] if e["type"] == "resolution"][0]
    panic = [e for e in o["events"] if e["type"] == "check" and e["purpose"] == "Panic Check"][0]
    assert res["points"] == {"loyalist": 1, "traitor": 0} and panic["target"] == 6 and not panic["passed"]
    fb = moves_of(o, "fall_back")
    assert fb and all(m["length"] == pytest.approx(7.0, abs=1e-6) for m in fb)          # I4 + 3, open ground
    assert all(m["to"][0] - m["from"][0] == pytest.approx(7.0, abs=1e-6) for m in fb)   # straight to the right edge
    pu = moves_of(o, "pursue")
    assert pu and max(m["length"] for m in pu) <= 9.0 + 1e-6                             # I4 + 5
    assert any(m["contact"] for m in pu)                                                 # 7" behind: caught


def test_cavalry_fall_back_i4_plus_2d6(write):
    code, o = cli_json("replay", aftermath_file(write, "{trt: fall_back}", [6, 5, 5, 3], cavalry=True))
    assert code == 0
    fb = moves_of(o, "fall_back")
    assert fb and all(m["length"] == pytest.approx(12.0, abs=1e-6) for m in fb)         # I4 + 8


def test_consolidate_up_to_i4_ending_2_from_every_enemy(write):
    code, o = cli_json("replay", aftermath_file(write, "{trt: fall_back, loy: consolidate}", [6, 5, 1]))
    assert code == 0
    co = moves_of(o, "consolidate")
    assert co and all(m["length"] <= 4.0 + 1e-6 for m in co)
    final = o["final"]
    assert final is not None
    code, g = cli_json("measure", aftermath_file(write, "{trt: fall_back, loy: consolidate}", [6, 5, 1]), "a1", "t1", "--after", "-1")
    assert g["gap"] >= 2.0 - 1e-6


def test_disengage_up_to_m7_ending_more_than_2_away(write):
    # the traitors pass their Panic Check (2, 2) and Disengage; the winners may then Consolidate
    f = aftermath_file(write, "{trt: disengage, loy: consolidate}", [2, 2])
    code, o = cli_json("replay", f)
    assert code == 0
    de = moves_of(o, "disengage")
    assert de and all(m["length"] <= 7.0 + 1e-6 for m in de)
    for a in ("a1", "a2", "a3"):
        for t in ("t1", "t2"):
            assert cli_json("measure", f, a, t, "--after", "-1")[1]["gap"] > 2.0
    assert not any(e["type"] == "status" and e.get("gained") == "routed" for e in o["events"])


def test_aftermath_default_holds_a_loser_that_passed(write):
    """A unit the file names no option for: Routed -> Fall Back; a winner -> Consolidate when it
    may; anyone else -> Hold (never a Fall Back, which would make it Routed)."""
    f = aftermath_file(write, "{}", [2, 2])
    code, o = cli_json("replay", f)
    assert code == 0
    assert [e for e in o["events"] if e["type"] == "aftermath"][0]["choices"] == {"trt": "hold", "loy": "hold"}
    assert not any(e["type"] == "status" for e in o["events"])
    code, o = cli_json("replay", aftermath_file(write, "{}", [6, 5, 3]))      # failed: Routed, must Fall Back
    assert [e for e in o["events"] if e["type"] == "aftermath"][0]["choices"] == {"trt": "fall_back", "loy": "consolidate"}


def test_a_hold_does_not_drag_a_disengaged_enemy_back(write):
    """The traitors Disengage; the winners Hold: their pile-in has no enemy left in the combat to
    move towards (setting hh_hold_pile_in: staying, the default), so they stay where they stand."""
    f = aftermath_file(write, "{trt: disengage, loy: hold}", [2, 2])
    code, o = cli_json("replay", f)
    assert code == 0
    hold = [e for e in o["events"] if e["type"] == "pile_in"]
    assert hold and hold[0]["hh_hold_pile_in"] == "staying" and hold[0]["moves"] == []
    assert cli_json("measure", f, "a1", "t1", "--after", "-1")[1]["gap"] > 2.0
