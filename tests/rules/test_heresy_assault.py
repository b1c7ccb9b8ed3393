"""Horus Heresy 3rd Challenge, Resolution and Aftermath (§A.6, §A.10): the worked
cases 24–36, who may challenge, refusal, and the moves each option makes."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from tapeline.board.measure import gap
from tapeline.rules.dice import RecordedDice
from tapeline.rules.errors import IllegalAction
from tapeline.rules.heresy import challenge as ch
from tapeline.rules.heresy.aftermath import aftermath
from tapeline.rules.heresy.melee import fighter
from tapeline.rules.heresy.resolution import Resolution, allowed_options, points, resolve_combat
from tests.conftest import cli, scenario
from tests.rules.test_heresy_fight import X, line

R32 = 16 / 25.4


def combat(a_ys=(10, 11.3, 12.6), b_ys=(10, 11.3), a_extra="", b_extra="", settings="", b_x=X, **b_over):
    return scenario("tapeline: 1\nsystem: heresy\nboard: {width: 30, height: 24}\n" + settings + "units:\n"
                    + line("a", "loyal", 10, a_ys, "chainsword", a_extra) + line("b", "traitor", b_x, b_ys, "chainsword", b_extra, **b_over)).state


# --- Combat Resolution Points ---------------------------------------------------------------

def test_crp_case_24_and_panic_case_25():
    # A kills 3 and keeps 7 models, B kills 1 and keeps 4: A = 3 + 1 = 4, B = 1; A wins by 3.
    st = combat(a_ys=[1 + 1.3 * i for i in range(7)], b_ys=[1 + 1.3 * i for i in range(4)])
    pts, br = points(st, ["a", "b"], {"a": 1, "b": 3}, {}, {})
    assert pts == {"loyal": 4, "traitor": 1} and br["loyal"]["most_models"] == 1
    st = st.with_turn("fight_casualties", {"a": 1, "b": 3})
    new, res = resolve_combat(st, "a", RecordedDice([2, 2]), units=["a", "b"])
    assert res.winner == "loyal" and res.difference == 3
    assert res.panic["target"] == 7 - 3 and res.panic["passed"]          # 2 + 2 = 4 ≤ 4
    new, res = resolve_combat(st, "a", RecordedDice([2, 3]), units=["a", "b"])
    assert not res.panic["passed"] and "routed" in new.unit("b").status


def test_draw_no_panic_and_massacre():
    st = combat(a_ys=(10, 11.3), b_ys=(10, 11.3))
    new, res = resolve_combat(st, "a", RecordedDice([]))
    assert res.winner is None and res.panic is None
    gone = st.without_models("b", ["b1", "b2"]).with_turn("combats", (("a", "b"),)).with_turn("fight_casualties", {"b": 2})
    new, res = resolve_combat(gone, "a", RecordedDice([]))
    assert res.massacre and res.winner == "loyal" and allowed_options(new, "a", res, {}) == ["consolidate"]


# --- Aftermath options -----------------------------------------------------------------------

def _res(st, winner="loyal", loser="traitor"):
    return Resolution(["a", "b"], {}, {}, winner, loser, 1)


def test_option_rules():
    st = combat()
    res = _res(st)
    assert allowed_options(st, "b", res, {}) == ["hold", "fall_back", "disengage"]
    assert allowed_options(st, "a", res, {"b": "hold"}) == ["hold", "fall_back"]
    assert set(allowed_options(st, "a", res, {"b": "fall_back"})) == {"hold", "fall_back", "gun_down", "pursue", "consolidate"}
    assert allowed_options(st, "a", res, {"b": "disengage"}) == ["hold", "fall_back", "consolidate"]
    routed = st.with_unit(replace(st.unit("b"), status=frozenset({"routed"})))
    assert allowed_options(routed, "b", res, {}) == ["fall_back"]
    with pytest.raises(IllegalAction, match="may not pursue"):
        aftermath(st, res, {"b": "hold", "a": "pursue"}, RecordedDice([]))


def test_fall_back_case_32_and_cavalry_case_33():
    st = combat(settings="settings: {home_edges: {traitor: right}}\n")
    new, events, _ = aftermath(st, _res(st), {"b": "fall_back", "a": "hold"}, RecordedDice([3]))
    for m in ("b1", "b2"):                 # I4 + D6 3 = 7" straight towards the right edge
        assert new.figure(m).x == pytest.approx(st.figure(m).x + 7, abs=1e-6)
    st = combat(settings="settings: {home_edges: {traitor: right}}\n", b_extra=", unit_type: cavalry")
    new, events, _ = aftermath(st, _res(st), {"b": "fall_back", "a": "hold"}, RecordedDice([5, 3]))
    assert new.figure("b1").x == pytest.approx(st.figure("b1").x + 12, abs=1e-6)     # I4 + 2D6 8


def test_pursue_case_36():
    # the traitors fall back 4 + 1 = 5" right; the loyalists pursue I4 + D6 5 = 9" straight at
    # the nearest fleeing model: a1 closes the 5" gap and ends in base contact (locked again)
    st = combat(a_ys=(10,), b_ys=(10,), settings="settings: {home_edges: {traitor: right}}\n")
    new, events, _ = aftermath(st, _res(st), {"b": "fall_back", "a": "pursue"}, RecordedDice([1, 5]))
    pursue = next(e for e in events if e["type"] == "pursue")
    assert pursue["roll"] == 5 and pursue["caught"] == ["b"]
    assert pursue["moves"][0]["length"] == pytest.approx(5, abs=1e-6) and gap(new.figure("a1"), new.figure("b1")) <= 1e-5
    # falling back 4 + 6 = 10", the traitor is out of the 9" pursuit: a1 moves the full 9" and
    # stops 1" short
    new, events, _ = aftermath(st, _res(st), {"b": "fall_back", "a": "pursue"}, RecordedDice([6, 5]))
    pursue = next(e for e in events if e["type"] == "pursue")
    assert pursue["moves"][0]["length"] == pytest.approx(9, abs=1e-6) and pursue["caught"] == []
    assert gap(new.figure("a1"), new.figure("b1")) == pytest.approx(1, abs=1e-6)


def test_consolidate_case_34():
    # consolidating with I4 after the enemy fell back: each model ends within 4" of its start,
    # at least 2" from every enemy model, in coherency
    st = combat(a_ys=(10, 11.3), b_ys=(10,), b_x=X + 5)
    new, events, _ = aftermath(st, _res(st), {"b": "disengage", "a": "consolidate"}, RecordedDice([]))
    for m in ("a1", "a2"):
        assert math.dist(new.figure(m).at, st.figure(m).at) <= 4 + 1e-6
        assert gap(new.figure(m), new.figure("b1")) >= 2 - 1e-6
    assert gap(new.figure("a1"), new.figure("b1")) == pytest.approx(2, abs=1e-4)   # towards the enemy, 2" short


def test_disengage_case_35():
    # Disengage (M7): each model to the nearest spot more than 2" from the enemy; here it stays
    # in coherency and leaves base contact, so it is not Routed
    st = combat(a_ys=(10,), b_ys=(10, 11.3), settings="settings: {hh_hold_pile_in: any}\n")
    new, events, _ = aftermath(st, _res(st, "loyal", "traitor"), {"b": "disengage", "a": "hold"}, RecordedDice([]))
    moves = next(e for e in events if e["type"] == "disengage")["moves"]
    for mv in moves:
        end = st.figure(mv["model"]).moved(*mv["to"])
        assert gap(end, st.figure("a1")) > 2 - 1e-6 and mv["length"] <= 7 + 1e-6 and mv["path_check"] == "legal"
    assert "routed" not in new.unit("b").status
    # then, with hh_hold_pile_in: any, the loyalists' Hold piles a1 back into base contact (up to I4)
    assert next(e for e in events if e["type"] == "pile_in")["moves"][0]["contact"]


def test_consolidate_moves_given_are_checked():
    from tapeline.rules.heresy.movement import check_consolidate

    st = combat(a_ys=(10, 11.3), b_ys=(10,), b_x=X + 5)
    with pytest.raises(IllegalAction, match="more than the 4"):
        check_consolidate(st, "a", {"a1": (4.0, 10.0)})                  # 6" back: too long
    with pytest.raises(IllegalAction, match="within 2"):
        check_consolidate(st, "a", {"a1": (st.figure("b1").x - 2 * R32 - 1, 10.0)})   # 1" from the enemy


# --- the Challenge ---------------------------------------------------------------------------

CHAMPS = ", models: {a1: {subtypes: [champion], wounds: 2, attacks: 2, wargear: [power sword]}}"
B_CHAMP = ", models: {b1: {subtypes: [command], wounds: 2, attacks: 2, wargear: [power fist], unit_type: infantry}}"


def test_focus_case_26():
    # A: CI 4 (power sword) rolls 3 → 7; B: CI 1 (power fist), Heavy, 1 wound lost, rolls 6 → 6 + 1 − 1 − 1 = 5
    st = combat(a_extra=CHAMPS, b_extra=B_CHAMP.replace("subtypes: [command]", "subtypes: [command, heavy]"))
    st = st.with_unit(replace(st.unit("b"), wounds_lost={"b1": 1}))
    fa, fb = fighter(st, "a1"), fighter(st, "b1")
    ma = ch.focus_modifiers(st, "a1", "b1", None, fa.weapon.traits)
    mb = ch.focus_modifiers(st, "b1", "a1", None, fb.weapon.traits)
    assert 3 + fa.ci + sum(ma.values()) == 7 and 6 + fb.ci + sum(mb.values()) == 5


def test_outside_support_cases_27_28():
    # 12 other Engaged friendly models: +2; a side alone with 7 other models: +2 × ceil(7/5) = +4
    ys = [1 + 1.3 * i for i in range(13)]
    st = combat(a_ys=ys, b_ys=ys, a_extra=CHAMPS, b_extra=B_CHAMP)
    assert ch.outside_support(st, "a1", "b1") == 2
    st = combat(a_ys=ys[:8], b_ys=ys[:1], a_extra=CHAMPS, b_extra=B_CHAMP)
    assert ch.outside_support(st, "a1", "b1") == 4


def test_glory_cases_29_to_31():
    st = combat(a_extra=CHAMPS, b_extra=B_CHAMP)
    slain = st.without_models("b", ["b1"])
    assert ch.glory(st, slain, "a1", "b1", {"a1": 2}, {}) == {"loyal": 3, "traitor": 0}     # W2 Command: 2 + 1
    assert ch.glory(st, st, "a1", "b1", {"a1": 2, "b1": 1}, {}) == {"loyal": 2, "traitor": 0}
    assert ch.glory(st, st, "a1", "b1", {"a1": 1, "b1": 1}, {}) == {"loyal": 0, "traitor": 0}


def test_who_may_challenge_and_refusal():
    st = combat(a_extra=CHAMPS, b_extra=B_CHAMP)
    with pytest.raises(IllegalAction, match="neither Command, Champion nor Paragon"):
        ch.run(st, "a2", "b1", RecordedDice([]))
    with pytest.raises(IllegalAction, match="may not accept"):
        ch.run(st, "a1", "b2", RecordedDice([]))
    new, events, duel = ch.run(st, "a1", None, RecordedDice([]))       # refused: b1 is Disgraced
    assert duel.disgraced == "b1" and "disgraced" in new.unit("b").status
    assert fighter(new, "b1").ci == 1 and fighter(new, "b1").ws == 2        # WS 4 halved; any status: CI 1
    with pytest.raises(IllegalAction, match="at most one per combat"):
        ch.run(new, "a1", "b1", RecordedDice([]))


def test_challenge_strike_and_duellists_out_of_the_fight():
    st = combat(a_extra=CHAMPS, b_extra=B_CHAMP)
    # Focus a1 5 + 4 = 9, b1 2 + 1 = 3: a1 strikes first with 3 attacks: 4 4 1 → 2 hits, wounds
    # 5 2 → one (AP3: no save): b1 W2 lives with 1 wound lost; b1's fist: 2 attacks 6 3 → 1 hit,
    # wound 2 (S8 v T4: 2+), a1 has no save: Damage 2 slays it. Glory: b1 slew W2 a1: 2 points.
    new, events, duel = ch.run(st, "a1", "b1", RecordedDice([5, 2, 4, 4, 1, 5, 2, 6, 3, 2]))
    assert duel.slain == ["a1"] and duel.glory == {"loyal": 0, "traitor": 2} and duel.dealt == {"a1": 1, "b1": 2}
    from tapeline.rules.heresy.melee import build_round

    rnd = build_round(new, "a")
    assert "b1" not in rnd.fighters and "a2" in rnd.fighters


def test_illegal_challenge_exits_2_and_leaves_state(write):
    p = write("tapeline: 1\nsystem: heresy\nboard: {width: 30, height: 24}\nunits:\n"
              + line("a", "loyal", 10, (10, 11.3), "chainsword", CHAMPS) + line("b", "traitor", X, (10, 11.3), "chainsword", B_CHAMP)
              + "actions:\n  - {action: challenge, challenger: a2, acceptor: b1}\n")
    code, out, err = cli("replay", p)
    assert code == 2 and "actions[0]" in err and "§A.6" in err and "Traceback" not in err


def test_illegal_aftermath_and_long_pile_in_exit_2(write):
    head = ("tapeline: 1\nsystem: heresy\nboard: {width: 30, height: 24}\nunits:\n"
            + line("a", "loyal", 10, (10, 11.3, 16), "chainsword") + line("b", "traitor", X, (10, 11.3), "chainsword"))
    p = write(head + "dice: {rolls: [1, 1]}\nactions:\n  - {action: resolution, unit: a}\n  - {action: aftermath, unit: a, choices: {b: hold, a: pursue}}\n")
    code, out, err = cli("replay", p)
    assert code == 2 and "actions[1]" in err and "may not pursue" in err and "§A.10" in err
    p = write(head + "actions:\n  - {action: pile_in, unit: a, moves: {a3: [10, 11.3]}}\n", "p.yaml")
    code, out, err = cli("replay", p)
    assert code == 2 and "actions[0]" in err and "§A.7" in err and "more than the 4" in err


def test_a_combat_fights_once_per_phase_until_end_turn(write):
    head = ("tapeline: 1\nsystem: heresy\nboard: {width: 30, height: 24}\nunits:\n"
            + line("a", "loyal", 10, (10, 11.3), "chainsword") + line("b", "traitor", X, (10, 11.3), "chainsword")
            + "dice: {rolls: [1, 1, 1, 1, 1, 1, 1, 1]}\n")
    p = write(head + "actions:\n  - {action: fight, unit: a}\n  - {action: fight, unit: b}\n")
    code, out, err = cli("replay", p)
    assert code == 2 and "actions[1]" in err and "fought already" in err
    p = write(head + "actions:\n  - {action: fight, unit: a}\n  - {action: end_turn}\n  - {action: fight, unit: b}\n", "q.yaml")
    code, out, err = cli("replay", p)
    assert code == 0, err
