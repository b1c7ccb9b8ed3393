"""40k 3rd: moving into an assault (who may, how far, difficult terrain, most contacts)."""

from __future__ import annotations

import math

import pytest

from tapeline.board.measure import gap
from tapeline.rules.classic40k.assault import assault_move, check_eligible
from tapeline.rules.dice import RecordedDice
from tapeline.rules.errors import IllegalAction
from tapeline.rules.systems import rules_for
from tests.c40k import BOY, D25, MARINE
from tests.conftest import scenario



def field_(marines, orks, terrain="[]", status="[]"):
    ms = ", ".join(f"{{id: m{i + 1}, at: [{x}, {y}]}}" for i, (x, y) in enumerate(marines))
    os_ = ", ".join(f"{{id: o{i + 1}, at: [{x}, {y}]}}" for i, (x, y) in enumerate(orks))
    return scenario(f"""
        tapeline: 1
        system: classic40k
        board: {{width: 30, height: 24}}
        terrain: {terrain}
        units:
          - {{id: marines, side: imperium, base: 25, status: {status}, models: [{ms}],
             stats: {{{MARINE}}}}}
          - {{id: orks, side: orks, base: 25, models: [{os_}],
             stats: {{{BOY}}}}}
        """).state


def test_derived_case_6_six_inches_of_open_ground():
    # gap exactly 6": legal and reached without a roll; 6.01": refused, naming the rule
    st = field_([(10, 10)], [(10, 10 + D25 + 6.0)])
    new, am = assault_move(st, "marines", ["orks"])
    assert am.success and am.roll is None and am.contacts == ["m1"]
    assert abs(gap(new.figure("m1"), new.figure("o1"))) < 1e-6
    far = field_([(10, 10)], [(10, 10 + D25 + 6.01)])
    with pytest.raises(IllegalAction, match="within 6") as e:
        assault_move(far, "marines", ["orks"])
    assert "Moving Into An Assault" in str(e.value)


@pytest.mark.parametrize("status", ["falling_back", "pinned", "fired_heavy", "deep_struck"])
def test_units_that_may_not_assault(status):
    st = field_([(10, 10)], [(10, 13)], status=f"[{status}]")
    with pytest.raises(IllegalAction, match="may not assault"):
        check_eligible(st, "marines", ["orks"])


def test_already_in_combat_may_not_assault():
    st = field_([(10, 10)], [(10, 10 + D25 + 1.5)])
    with pytest.raises(IllegalAction, match="already in close combat"):
        check_eligible(st, "marines", ["orks"])


WOOD = "[{id: wood, footprint: {rect: [5, 11.5, 20, 2]}, traits: [difficult]}]"


def test_derived_case_7_difficult_terrain_two_dice_take_the_highest():
    # a 2" deep wood lies across the whole way: 5" of path through it, dice (2, 5) -> 5": made
    st = field_([(10, 10)], [(10, 10 + D25 + 5.0)], terrain=WOOD)
    new, am = assault_move(st, "marines", ["orks"], RecordedDice([2, 5]))
    assert am.rolls == [2, 5] and am.roll == 5 and am.success
    # dice (2, 4): 4" is not enough; the model still moves its 4", no combat follows
    new2, am2 = assault_move(st, "marines", ["orks"], RecordedDice([2, 4]))
    assert not am2.success and am2.moves[0].length == pytest.approx(4.0, abs=1e-6)
    assert am2.moves[0].check.legal


def test_every_model_moves_by_its_own_checked_path_and_most_reach_contact():
    marines = [(8 + 1.5 * i, 10) for i in range(5)]
    orks = [(9.5, 14), (11, 14), (12.5, 14.4)]
    st = field_(marines, orks)
    new, am = assault_move(st, "marines", ["orks"])
    assert len(am.contacts) == 5 and am.search["contacts_possible"] == 5
    for mv in am.moves:
        assert mv.check is not None and mv.check.legal and mv.length <= 6 + 1e-6
        assert math.dist(mv.start, mv.path[0]) < 1e-9 and math.dist(mv.end, mv.path[-1]) < 1e-9
    figs = new.figures_of("marines") + new.figures_of("orks")
    for i, a in enumerate(figs):
        for b in figs[i + 1:]:
            assert gap(a, b) >= -1e-6


def test_given_moves_must_not_leave_contacts_out():
    st = field_([(10, 10), (12, 10)], [(11, 14)])
    # both can reach the ork; a file that parks m2 where it touches nothing is refused
    with pytest.raises(IllegalAction, match="as many models into contact as possible"):
        assault_move(st, "marines", ["orks"], given={"m2": [(12, 10.5)]})
    # a given path through the ork is refused by the path validator, naming where
    with pytest.raises(IllegalAction, match="through_model"):
        assault_move(st, "marines", ["orks"], given={"m1": [(11, 16)]})
    # a given path into contact is kept as given
    y = 14 - math.sqrt(D25 ** 2 - 0.25) - 1e-7
    new, am = assault_move(st, "marines", ["orks"], given={"m1": [(10.5, y)]})
    assert new.figure("m1").at == pytest.approx((10.5, y)) and len(am.contacts) == 2


def test_several_units_assaulted_at_once():
    st = scenario("""
        tapeline: 1
        system: classic40k
        board: {width: 30, height: 24}
        units:
          - {id: marines, side: imperium, base: 25, models: [{id: m1, at: [10, 10]}, {id: m2, at: [12, 10]}]}
          - {id: orks, side: orks, base: 25, models: [{id: o1, at: [10, 13]}]}
          - {id: grots, side: orks, base: 25, models: [{id: g1, at: [12, 13.5]}]}
          - {id: far, side: orks, base: 25, models: [{id: f1, at: [16, 13.5]}]}
        """).state
    new, am = assault_move(st, "marines", ["orks", "grots"])
    assert sorted(am.contacts) == ["m1", "m2"]
    with pytest.raises(IllegalAction, match="within 2\\\" of another"):
        assault_move(st, "marines", ["orks", "far"])


def test_a_unit_with_no_models_left_cannot_charge():
    # every model of the unit removed: the charge is refused naming the rule (it used to crash
    # with a ValueError from an empty gap matrix), with or without a Leading Model named
    st = field_([(10, 10)], [(10, 13)]).without_models("marines", ["m1"])
    c40k = rules_for("classic40k")
    asks = [lambda: c40k.charge_reach(st, "marines", ["orks"]),
            lambda: c40k.charge_reach(st, "marines", ["orks"], leader="m1"),
            lambda: c40k.charge_outcome(st, "marines", ["orks"], [6, 6]),
            lambda: c40k.charge(st, "marines", ["orks"], RecordedDice([6, 6]))]
    for ask in asks:
        with pytest.raises(IllegalAction, match="unit marines has no models on the table") as e:
            ask()
        assert e.value.rule == "40k 3rd Moving Into An Assault"
