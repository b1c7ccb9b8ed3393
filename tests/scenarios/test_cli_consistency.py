"""One consistent command line: ``--version``, ``models``, ``--after N`` on every query, one
way to name a unit, unknown ids with the closest existing ones, errors naming file and place."""

from __future__ import annotations

import argparse

import pytest

import tapeline
from tapeline.scenarios.cli import parser
from tests.conftest import EXAMPLES, cli, cli_json

R32 = 16 / 25.4  # Marine / Zergling 32 mm base radius, inches
ROACHES = EXAMPLES / "charge-roaches-7in.yaml"

TWO = """
tapeline: 1
system: starcraft
board: {width: 24, height: 24}
units:
  - {id: marines, side: terran, profile: marine, leader: m1, models: [{id: m1, at: [5, 5]}, {id: m10, at: [5, 8]}]}
  - {id: zerglings, side: zerg, profile: zergling, models: [{id: z1, at: [10, 5]}]}
actions:
  - {action: place, model: z1, to: [8, 5]}
  - {action: place, model: z1, to: [7, 5]}
"""


def test_version():
    code, out, err = cli("--version")
    assert code == 0 and out.strip() == f"tapeline {tapeline.__version__}"


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_every_query_command_takes_after():
    """Every command that asks about a state takes ``--after N``, commands added later
    included. check/schema/replay/shell/serve are about the file as a whole; schema and units read
    no file at all."""
    whole_file = {"check", "schema", "replay", "shell", "units", "serve", "analyse"}  # (analyse maps the layout: no action changes it)
    for name, p in _subparsers().items():
        opts = {o for a in p._actions for o in a.option_strings}
        assert ("--after" in opts) == (name not in whole_file), name


def test_after_asks_about_the_state_after_action_n(write):
    f = write(TWO)
    # before any action z1 stands at x=10: gap 5 - 2r; after action 0 at x=8, after 1 at x=7
    for after, x in ((None, 10), ("0", 8), ("1", 7), ("-1", 7)):
        extra = ("--after", after) if after is not None else ()
        code, o = cli_json("measure", f, "m1", "z1", *extra)
        assert code == 0 and o["gap"] == pytest.approx(x - 5 - 2 * R32, abs=1e-9), after


def test_after_out_of_range_names_file_and_option(write):
    f = write(TWO)
    code, out, err = cli("measure", f, "m1", "z1", "--after", "2")
    assert code == 2 and str(f) in err and "--after 2" in err and "0..1" in err and "Traceback" not in err


def test_after_replays_with_the_files_dice():
    # the file's recorded roll is a 6: Speed 4 + 6 = 10" >= 8" to base contact with m1 (see the file)
    code, o = cli_json("measure", ROACHES, "r1", "m1", "--after", "0")
    assert code == 0 and o["contact"] is True and o["gap"] == 0
    code, o = cli_json("measure", ROACHES, "r1", "m1")
    assert o["gap"] == pytest.approx(9.614173 - 0.984252 - 0.629921, abs=1e-6)


def test_after_on_a_file_without_actions(write):
    f = write(TWO.split("actions:")[0])
    assert cli_json("measure", f, "m1", "z1", "--after", "-1")[0] == 0
    code, out, err = cli("measure", f, "m1", "z1", "--after", "0")
    assert code == 2 and "no actions" in err


def test_models_lists_ids_positions_bases_levels(write):
    code, o = cli_json("models", write(TWO))
    assert code == 0 and o["system"] == "starcraft"
    marines, zerglings = o["units"]
    assert marines["id"] == "marines" and marines["side"] == "terran" and marines["leader"] == "m1"
    assert [m["id"] for m in marines["models"]] == ["m1", "m10"]
    m1 = marines["models"][0]
    assert m1["at"] == [5, 5] and m1["base"] == "32 mm" and m1["on"] is None and m1["level"] == "Ground Level"
    code, o = cli_json("models", write(TWO), "--after", "-1")
    assert o["units"][1]["models"][0]["at"] == [7, 5]


def test_models_levels_on_terrain():
    code, o = cli_json("models", EXAMPLES / "elevation.yaml")
    levels = {m["id"]: (m["on"], m["level"]) for u in o["units"] for m in u["models"]}
    assert levels["mh1"] == ("plateau", "High Ground") and levels["ml1"] == (None, "Ground Level")


def test_models_after_a_volley_lists_casualties():
    code, o = cli_json("models", EXAMPLES / "attack-engaged-casualties.yaml", "--after", "-1")
    zealots = next(u for u in o["units"] if u["id"] == "zealots")
    assert zealots["removed"]  # the file's volley removed the chosen casualties
    assert not set(zealots["removed"]) & {m["id"] for m in zealots["models"]}


def test_models_human_output(write):
    code, out, err = cli("models", write(TWO))
    assert code == 0 and "marines (terran" in out and "m1" in out and "*leader*" in out


def test_unknown_model_names_the_closest_and_the_place(write):
    f = write(TWO)
    code, out, err = cli("measure", f, "m1", "z11")
    assert code == 2
    assert err == f"{f}: argument B: no model 'z11'; closest: z1\n"
    code, out, err = cli("los", f, "M10", "z1")
    assert code == 2 and "argument A" in err and "closest: m10" in err


def test_unknown_unit_names_the_closest(write):
    code, out, err = cli("attack", write(TWO), "--unit", "marine", "--weapon", "c-14-rifle", "--target", "zerglings")
    assert code == 2 and "--unit" in err and "closest: marines" in err


def test_charge_takes_unit_like_every_command():
    new = cli("charge", ROACHES, "--unit", "roaches", "--target", "marines", "--json")
    old = cli("charge", ROACHES, "roaches", "--target", "marines", "--json")
    assert new[0] == old[0] == 0 and new[1] == old[1]
    assert new[2] == "" and "deprecated" in old[2] and "--unit roaches" in old[2]


def test_charge_without_a_unit_or_with_two_is_an_error():
    code, out, err = cli("charge", ROACHES, "--target", "marines")
    assert code == 2 and "--unit" in err
    code, out, err = cli("charge", ROACHES, "roaches", "--unit", "marines", "--target", "marines")
    assert code == 2 and "two charging units" in err


def test_render_after_and_final(tmp_path):
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    assert cli("render", ROACHES, "--final", "-o", a)[0] == 0
    assert cli("render", ROACHES, "--after", "-1", "-o", b)[0] == 0
    assert a.read_bytes() == b.read_bytes()
    code, out, err = cli("render", ROACHES, "--final", "--after", "0", "-o", b)
    assert code == 2


def test_unknown_ids_in_the_file_name_the_closest(write):
    f = write(TWO.replace("to: [8, 5]", "to: [8, 5]}\n  - {action: place, model: z11, to: [9, 5]")
              + "expect:\n  - {expect: gap, a: m1, b: zz1, equals: 1}\n")
    code, out = cli_json("check", f)
    assert code == 2
    found = {e["location"].split(" ")[0]: e["message"] for e in out["errors"]}
    assert found["actions[1].model"] == "no model with id 'z11'; closest: z1"
    assert found["expect[0].b"] == "no model with id 'zz1'; closest: z1"
    hill = TWO.replace("board: {width: 24, height: 24}",
                       "board: {width: 24, height: 24}\nterrain:\n  - {id: hill, footprint: {rect: [2, 12, 6, 6]}, size: 3}")
    code, out = cli_json("check", write(hill.replace("{id: m10, at: [5, 8]}", "{id: m10, at: [5, 14], on: hil}")))
    assert code == 2 and out["errors"][0]["message"] == "no terrain piece with id 'hil'; closest: hill"


def test_suggest_doctests():
    import doctest

    from tapeline.scenarios import suggest

    assert doctest.testmod(suggest).failed == 0
