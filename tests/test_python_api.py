"""The Python front door: ``tapeline.Game`` answers as the command line does, makes moves with
``push``/``pop``, moves through the file with ``after``, and refuses a bad argument naming it.
docs/python.md runs as doctests."""

from __future__ import annotations

import dataclasses
import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import tapeline
from tapeline.scenarios import answers, replay
from tapeline.scenarios.load import read
from tests.conftest import EXAMPLES, cli_json

ROOT = Path(__file__).resolve().parent.parent
SHOW = EXAMPLES / "showcase.yaml"
ROACHES = EXAMPLES / "charge-roaches-7in.yaml"
ALL = sorted(p.name for p in EXAMPLES.iterdir() if p.suffix in (".yaml", ".json"))


def test_docs_python_md_tour_runs():
    r = doctest.testfile(str(ROOT / "docs" / "python.md"), module_relative=False,
                         optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert r.attempted > 30 and r.failed == 0


def test_import_tapeline_is_light_and_holds_the_errors():
    """``import tapeline`` loads none of the heavy libraries (the command line sets its guards
    first) and gives every error; the game is loaded on first use."""
    code = ("import sys, tapeline; heavy = [m for m in ('shapely', 'numpy', 'pydantic', 'networkx', 'yaml') "
            "if m in sys.modules]; print(heavy); "
            "print(all(issubclass(getattr(tapeline, e), tapeline.TapelineError) for e in "
            "('ScenarioError', 'IllegalAction', 'GeometryError', 'UnknownId', 'ArgumentError'))); "
            "tapeline.open; print('shapely' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:3] == ["[]", "True", "True"]


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
    ("fight", ("zerglings",), {"assign": {"z5": "marines"}, "surge_to": "marines"},
     ("fight", EXAMPLES / "fight-zerglings-two-units.yaml", "--unit", "zerglings", "--assign", "z5=marines",
      "--surge-to", "marines")),
    ("template", ("blast", (12, 12)), {}, ("template", EXAMPLES / "template-40k-blast.yaml", "--shape", "blast", "--at", "12,12")),
    ("replay", (), {}, ("replay", SHOW)),
])
def test_python_answers_are_the_commands_json(method, args, kwargs, command):
    game = tapeline.open(command[1], after=0 if "--after" in command else None)
    value = getattr(game, method)(*args, **kwargs)
    assert isinstance(value, answers.BY_COMMAND[command[0]])
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


# --- moves ------------------------------------------------------------------------------------


def _entries(name: str) -> list[dict]:
    """The file's actions as the mappings a file holds (each entry's own keys)."""
    return [a.model_dump(mode="json", exclude_unset=True, by_alias=True) for a in read(EXAMPLES / name).spec.actions]


@pytest.mark.parametrize("name", ALL)
def test_pushing_the_files_actions_gives_the_replays_events(name):
    """Every bundled example: its actions pushed one by one, as mappings, produce exactly the
    events its replay logs, and each pop restores the state before the move."""
    game = tapeline.open(EXAMPLES / name)
    expected = game.replay().as_json()["events"]
    states, got = [game.state], []
    for entry in _entries(name):
        got += game.push(entry)
        states.append(game.state)
    assert got == expected
    assert game.state.snapshot() == game.replay().as_json()["final"]
    for before in reversed(states[:-1]):
        game.pop()
        assert game.state == before
    assert game.moves == ()


def test_push_continues_the_dice_and_pop_takes_them_back():
    """The moves share the file's dice: the same move pushed twice rolls the next dice, and
    taken back and pushed again rolls the same ones."""
    game = tapeline.open(ROACHES)
    move = {"action": "charge", "unit": "roaches", "targets": ["marines"], "leader": "r1"}
    first = game.push(move)
    game.pop()
    assert game.push(move) == first


def test_an_illegal_move_changes_nothing():
    game = tapeline.open(SHOW)
    before = game.state
    with pytest.raises(tapeline.IllegalAction, match="Engaged"):
        game.push({"action": "charge", "unit": "marines-alpha", "targets": ["zerglings-a"]})
    with pytest.raises(tapeline.UnknownId) as e:
        game.push({"action": "charge", "unit": "roachez", "targets": ["marines-bravo"]})
    assert "closest: roaches" in str(e.value) and e.value.location == "action.unit"
    with pytest.raises(tapeline.ScenarioError) as err:
        game.push({"action": "charge", "unit": "roaches", "targets": "marines-bravo"})
    assert err.value.location == "action.targets"
    with pytest.raises(tapeline.ScenarioError, match="unknown action 'charg'"):
        game.push({"action": "charg"})
    with pytest.raises(tapeline.ArgumentError, match="no move to take back"):
        game.pop()
    assert game.state is before and game.moves == ()


def test_a_typed_action_object_is_a_move_too():
    from tapeline.scenarios.actions.move import Place

    game = tapeline.open(SHOW)
    events = game.push(Place(action="place", model="za9", to=(21.3, 28.0)))
    at = {m["id"]: m["at"] for u in game.models().units for m in u["models"]}
    assert events[1]["type"] == "placed" and at["za9"] == (21.3, 28.0)
    assert isinstance(game.pop(), Place)


def test_after_is_incremental(monkeypatch):
    """``after(n)`` resolves each of the file's actions once, whichever game made from the file
    asks: never again from the start when the state it needs has been resolved."""
    calls = []
    real = replay.resolve_file_action
    monkeypatch.setattr(replay, "resolve_file_action", lambda *a: calls.append(a[3]) or real(*a))
    game = tapeline.open(SHOW)
    two = game.after(2)
    assert calls == [0, 1, 2]
    assert game.after(1).index == 1 and two.after(0).index == 0 and calls == [0, 1, 2]
    assert game.after(-1).index == 2 and calls == [0, 1, 2]
    # a move pushed on a later game leaves the file's own states alone
    two.push({"action": "place", "model": "za9", "to": [21.3, 28.0]})
    assert two.index is None and game.after(2).state is not two.state and calls == [0, 1, 2]


@pytest.mark.parametrize("call, argument", [
    (lambda g: g.measure(None, 5), "a"),
    (lambda g: g.los("c2", 6), "b"),
    (lambda g: g.after("1"), "after"),
    (lambda g: g.after(1.5), "after"),
    (lambda g: g.after(True), "after"),
    (lambda g: g.after(7), "after"),
    (lambda g: g.after(-2), "after"),
    (lambda g: g.fight(5), "unit"),
    (lambda g: g.charge("roaches", ["marines-bravo"], roll=7), "roll"),
    (lambda g: g.charge("roaches", ["marines-bravo"], roll="6"), "roll"),
    (lambda g: g.path("mr4", [(20, "x")]), "via"),
    (lambda g: g.path("mr4", [(20, 16)], max=float("nan")), "max"),
    (lambda g: g.attack("marines-alpha", "c-14-rifle", "zerglings-a", hit=9), "hit"),
    (lambda g: g.template("blast", (12, 12), unit="roaches"), "unit"),
    (lambda g: g.svg(sightline=("c2", "zb1")), "sightline"),
    (lambda g: g.push(["run"]), "action"),
])
def test_a_bad_argument_is_an_error_naming_it(call, argument):
    game = tapeline.open(SHOW)
    with pytest.raises(tapeline.ArgumentError) as e:
        call(game)
    assert e.value.argument == argument and isinstance(e.value, tapeline.TapelineError)


def test_a_mistyped_id_names_the_closest_ones():
    game = tapeline.open(SHOW)
    with pytest.raises(tapeline.UnknownId) as e:
        game.measure("c2", "zb0")
    assert str(e.value) == "b: no model 'zb0'; closest: zb10, zb9, zb8"
    assert isinstance(e.value, KeyError) and e.value.location == "b"
    with pytest.raises(tapeline.ArgumentError, match="removed as a casualty"):
        game.after(2).measure("c2", "zb3")


# --- answers ------------------------------------------------------------------------------------


def test_every_typed_answer_rejects_a_key_it_lacks():
    """The rules cannot grow a JSON key that the Python value lacks: from_json refuses it."""
    for cls in answers.BY_COMMAND.values():
        with pytest.raises(TypeError, match="no field"):
            cls.from_json({"no_such_key": 1})


def test_answers_are_immutable_all_the_way_down():
    s = tapeline.open(SHOW).los("c2", "zb1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.visible = True  # type: ignore[misc]
    with pytest.raises(TypeError):
        s.blocked_by[0]["reason"] = "none"  # type: ignore[index]


def test_repr_svg_is_the_board():
    game = tapeline.open(SHOW)
    assert game._repr_svg_() == game.svg()
    assert game._repr_svg_().startswith("<svg")


def test_example_names_the_examples():
    with pytest.raises(FileNotFoundError, match="showcase.yaml"):
        tapeline.example("nope.yaml")
