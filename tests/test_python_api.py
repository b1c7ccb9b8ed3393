"""The Python front door: docs/python.md runs as doctests; the answers are the commands' JSON."""

from __future__ import annotations

import dataclasses
import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import tapeline
from tapeline.scenarios import results
from tests.conftest import EXAMPLES, cli_json

ROOT = Path(__file__).resolve().parent.parent
SHOW = EXAMPLES / "showcase.yaml"
ROACHES = EXAMPLES / "charge-roaches-7in.yaml"


def test_docs_python_md_tour_runs():
    r = doctest.testfile(str(ROOT / "docs" / "python.md"), module_relative=False,
                         optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert r.attempted > 20 and r.failed == 0


def test_import_tapeline_is_light():
    code = ("import sys, tapeline; heavy = [m for m in ('shapely', 'numpy', 'pydantic', 'networkx', 'yaml') "
            "if m in sys.modules]; print(heavy); tapeline.open; print('shapely' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:2] == ["[]", "True"]


@pytest.mark.parametrize("method, args, kwargs, command", [
    ("measure", ("c2", "zb1"), {}, ("measure", SHOW, "c2", "zb1")),
    ("los", ("a6", "za5"), {}, ("los", SHOW, "a6", "za5")),
    ("los", ("c2", "zb1"), {}, ("los", SHOW, "c2", "zb1")),
    ("charge", ("roaches", ["marines"]), {}, ("charge", ROACHES, "--unit", "roaches", "--target", "marines")),
    ("path", ("mr4", [(20, 16), (22, 12)]), {"max": 9.5}, ("path", SHOW, "mr4", "--via", "20,16", "--via", "22,12", "--max", "9.5")),
    ("attack", ("marines-alpha", "c-14-rifle", "zerglings-a"), {},
     ("attack", SHOW, "--unit", "marines-alpha", "--weapon", "c-14-rifle", "--target", "zerglings-a")),
    ("models", (), {}, ("models", SHOW)),
    ("fight", ("tac",), {}, ("fight", EXAMPLES / "assault-heresy.yaml", "--unit", "tac", "--after", "0")),
    ("fight", ("zerglings-a",), {}, ("fight", SHOW, "--unit", "zerglings-a")),
    ("replay", (), {}, ("replay", SHOW)),
])
def test_python_answers_are_the_commands_json(method, args, kwargs, command):
    game = tapeline.open(command[1], after=0 if "--after" in command else None)
    value = getattr(game, method)(*args, **kwargs)
    assert isinstance(value, results.BY_COMMAND[command[0]])
    assert value.as_json() == cli_json(*command)[1]


def test_charge_with_roll_and_after_match_the_command():
    game = tapeline.open(ROACHES)
    v = game.charge("roaches", "marines", leader="r1", roll=6, target_models={"marines": "m1"})
    code, o = cli_json("charge", ROACHES, "--unit", "roaches", "--target", "marines", "--leader", "r1",
                       "--roll", "6", "--target-model", "marines=m1")
    assert v.as_json() == o and v.success is True
    # after the file's charge (recorded roll 6) r1 is in base contact with m1
    assert game.after(0).measure("r1", "m1").contact is True
    assert game.after(-1).measure("r1", "m1").as_json() == cli_json("measure", ROACHES, "r1", "m1", "--after", "-1")[1]


def test_every_typed_answer_rejects_a_key_it_lacks():
    """A command cannot grow a JSON key that the Python value lacks: from_json refuses it."""
    for cls in results.BY_COMMAND.values():
        with pytest.raises(TypeError, match="no field"):
            cls.from_json({"no_such_key": 1})


def test_answers_are_immutable_all_the_way_down():
    s = tapeline.open(SHOW).los("c2", "zb1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.visible = True  # type: ignore[misc]
    with pytest.raises(TypeError):
        s.blocked_by[0]["reason"] = "none"  # type: ignore[index]


def test_unknown_option_is_a_type_error():
    game = tapeline.open(SHOW)
    with pytest.raises(TypeError, match="unexpected"):
        game.ask("los", a="c2", b="zb1", colour="red")
    with pytest.raises(TypeError, match="overlay"):
        game.svg(sightline=("c2", "zb1"))


def test_repr_svg_is_the_board():
    game = tapeline.open(SHOW)
    assert game._repr_svg_() == game.svg()
    assert game._repr_svg_().startswith("<svg")


def test_example_names_the_examples():
    with pytest.raises(FileNotFoundError, match="showcase.yaml"):
        tapeline.example("nope.yaml")
