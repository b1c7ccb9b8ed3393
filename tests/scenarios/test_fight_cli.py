"""``tapeline fight`` for StarCraft TMG: the contract's keys, choices, and bad input (exit 2)."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES, cli, cli_json

TWO = EXAMPLES / "fight-zerglings-two-units.yaml"


def test_fight_json_has_the_contract_keys():
    code, o = cli_json("fight", TWO, "--unit", "zerglings")
    assert code == 0
    assert o["fighters"] == {"zerglings": ["z1", "z2", "z3", "z4", "z5"]}
    assert o["fighting_rank"] == ["z1", "z2", "z3", "z4", "z5"] and o["supporting_rank"] == []
    assert o["dice"] == {"marauders": 6, "marines": 4}
    for t in ("marauders", "marines"):
        od = o["odds"][t]
        assert {"mean_hits", "mean_kills", "kills_pmf"} <= set(od)
        assert sum(od["kills_pmf"]) == pytest.approx(1.0)
    assert o["odds"]["marines"]["mean_hits"] == pytest.approx(2.0)
    assert o["surge_to"] == "marauders"


def test_fight_choices():
    code, o = cli_json("fight", TWO, "--unit", "zerglings", "--assign", "z5=marines", "--surge-to", "marines")
    assert code == 0 and o["dice"] == {"marauders": 4, "marines": 6} and o["surge_to"] == "marines"
    code, o = cli_json("fight", TWO, "--unit", "zerglings", "--target", "marines")
    assert code == 0 and o["dice"] == {"marines": 6} and o["fighters"] == {"zerglings": ["z3", "z4", "z5"]}
    code, o = cli_json("fight", TWO, "--unit", "marauders")
    assert code == 0 and o["dice"] == {"zerglings": 2}          # one Marauder, Strike RoA 2


@pytest.mark.parametrize("args,rule", [
    (["--unit", "zerglings", "--assign", "z1=marines"], "§8.8.1 Fighting multiple Units"),
    (["--unit", "zerglings", "--surge-to", "marauders", "--surge-to", "marines"], "§8.8.1 Surge"),
    (["--unit", "zerglings", "--weapon", "z1=c-14-rifle"], "weapon"),
])
def test_fight_bad_input_exits_2_naming_the_rule(args, rule):
    code, out, err = cli("fight", TWO, *args)
    assert code == 2 and rule in err and "Traceback" not in err and out == ""


def test_fight_with_an_unengaged_unit(write):
    text = TWO.read_text().replace("{id: mn, at: [12.5, 10]}", "{id: mn, at: [20, 20]}").replace(
        "{id: mr, at: [10, 10]}", "{id: mr, at: [20, 3]}")
    code, out, err = cli("fight", write(text), "--unit", "zerglings")
    assert code == 2 and "§8.8 Combat phase" in err and "not Engaged" in err


def test_render_ranks_and_close_ranks(tmp_path):
    out = tmp_path / "r.svg"
    code, _, err = cli("render", EXAMPLES / "ranks-figure.yaml", "--ranks", "zerglings", "-o", out)
    svg = out.read_text()
    assert code == 0 and 'class="ranks"' in svg and 'class="support"' in svg and "4 dice at marines" in svg
    code, _, err = cli("render", EXAMPLES / "ranks-figure.yaml", "--close-ranks", "zerglings", "-o", out)
    svg = out.read_text()
    assert code == 0 and 'class="moved"' in svg and 'class="end-base"' in svg and 'class="path"' in svg
