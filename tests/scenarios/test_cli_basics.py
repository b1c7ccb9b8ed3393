"""The command-line contract of check, measure, schema, replay (spec: scenario-format.md)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import EXAMPLES, cli, cli_json

R32 = 16 / 25.4

TWO = f"""
tapeline: 1
system: starcraft
board: {{width: 24, height: 24}}
units:
  - {{id: t, side: terran, profile: marine, models: [{{id: m1, at: [5, 5]}}]}}
  - {{id: z, side: zerg, profile: zergling, models: [{{id: z1, at: [8, 5]}}, {{id: z2, at: [5, {5 + 2 * R32}]}}]}}
"""


def test_schema_is_json_schema_of_the_file():
    code, out, err = cli("schema")
    assert code == 0
    s = json.loads(out)
    assert s["additionalProperties"] is False
    assert set(s["required"]) >= {"tapeline", "system", "board", "units"}
    assert {"terrain", "dice", "actions", "expect"} <= set(s["properties"])


def test_check_valid(write):
    code, out = cli_json("check", write(TWO))
    assert code == 0 and out == {"valid": True, "errors": []}


def test_measure_json_keys_and_values(write):
    code, out = cli_json("measure", write(TWO), "m1", "z1")
    assert code == 0
    assert out["gap"] == pytest.approx(3 - 2 * R32)  # 1.740157
    assert out["contact"] is False and out["engagement_range"] is False and out["engaged"] is False
    code, out = cli_json("measure", write(TWO), "m1", "z2")
    assert out["gap"] == 0 and out["contact"] is True and out["engagement_range"] is True and out["engaged"] is True


def test_measure_human_states_margin(write):
    code, out, err = cli("measure", write(TWO), "m1", "z1")
    assert code == 0
    assert "1.740157" in out and "0.740157" in out  # gap, and how far outside 1"


def test_measure_unknown_model_is_exit_2(write):
    code, out, err = cli("measure", write(TWO), "m1", "nobody")
    assert code == 2 and "nobody" in err and "Traceback" not in err


def test_json_and_yaml_are_the_same_format(write, tmp_path):
    import yaml

    data = yaml.safe_load(TWO)
    p = tmp_path / "two.json"
    p.write_text(json.dumps(data))
    assert cli_json("measure", p, "m1", "z1") == cli_json("measure", write(TWO), "m1", "z1")


def test_replay_failing_expectation_is_exit_1(write):
    p = write(TWO + "expect:\n  - {expect: gap, a: m1, b: z1, equals: 1.5}\n")
    code, out = cli_json("replay", p)
    assert code == 1 and out["ok"] is False
    assert out["expectations"][0]["ok"] is False and "1.74016" in out["expectations"][0]["detail"]


def test_replay_place_then_expect_after(write):
    p = write(
        TWO
        + """actions:
  - {action: place, model: z1, to: [7, 5]}
expect:
  - {expect: gap, a: m1, b: z1, equals: 1.740157, after: start}
  - {expect: gap, a: m1, b: z1, equals: 0.740157}
"""
    )
    code, out = cli_json("replay", p)
    assert code == 0, out
    assert out["final"]["units"][1]["models"][0] == {"id": "z1", "at": [7.0, 5.0]}
    assert out["events"][0] == {"type": "action", "index": 0, "action": "place"}


TWO_PLACES = TWO + """actions:
  - {action: place, model: z1, to: [7, 5]}
  - {action: place, model: z1, to: [6.5, 5]}
"""


@pytest.mark.parametrize("after, gap", [
    ("start", 3 - 2 * R32),   # before any action: z1 at x=8, 3" between centres
    ("0", 2 - 2 * R32),       # after action 0: z1 at x=7
    ("1", 1.5 - 2 * R32),     # after action 1, the last: z1 at x=6.5
    ("-1", 1.5 - 2 * R32),    # -1 is after the last action, as --after -1 on the command line
    (None, 1.5 - 2 * R32),    # no after: after the last
])
def test_expect_after_spellings(write, after, gap):
    when = "" if after is None else f", after: {after}"
    p = write(TWO_PLACES + f"expect:\n  - {{expect: gap, a: m1, b: z1, equals: {gap:.6f}{when}}}\n")
    code, out = cli_json("replay", p)
    assert code == 0, out


@pytest.mark.parametrize("after", ["-2", "2", "begin"])
def test_expect_after_out_of_range_is_located(write, after):
    p = write(TWO_PLACES + f"expect:\n  - {{expect: gap, a: m1, b: z1, equals: 1, after: {after}}}\n")
    code, out = cli_json("check", p)
    assert code == 2 and out["valid"] is False
    assert out["errors"][0]["location"].startswith("expect[0].after"), out


def test_command_line_after_takes_minus_one_only(write):
    p = write(TWO_PLACES)
    assert cli_json("measure", p, "m1", "z1", "--after", "-1")[1]["gap"] == pytest.approx(1.5 - 2 * R32)
    assert cli_json("measure", p, "m1", "z1", "--after", "0")[1]["gap"] == pytest.approx(2 - 2 * R32)
    code, out, err = cli("measure", p, "m1", "z1", "--after", "-2")
    assert code == 2 and out == "" and "--after -2" in err and "-1 for after the last" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_showcase_replays():
    code, out, err = cli("replay", EXAMPLES / "showcase.yaml")
    assert code == 0, out + err


def test_move_off_a_piece_puts_the_model_on_the_ground(write):
    p = write(
        """
        tapeline: 1
        system: starcraft
        board: {width: 24, height: 24}
        terrain:
          - {id: hill, footprint: {rect: [2, 2, 6, 6]}, size: 3}
        units:
          - {id: t, side: terran, profile: marine, models: [{id: m1, at: [5, 5], on: hill}, {id: m2, at: [6.5, 5], on: hill}]}
        actions:
          - {action: move, moves: {m1: [15, 15], m2: [6.5, 6.5]}}
        """
    )
    code, out = cli_json("replay", p)
    assert code == 0
    models = {m["id"]: m for m in out["final"]["units"][0]["models"]}
    assert "on" not in models["m1"] and models["m2"]["on"] == "hill"


def test_models_shows_wounds_lost():
    from tapeline.scenarios.answers import Models

    unit = {"id": "trt", "side": "traitor", "profile": None, "size": 0, "tags": [], "status": ["stunned"], "leader": None,
            "damage": 0, "removed": ["t1"], "models": [
                {"id": "t2", "at": [10, 8.6], "base": "32 mm", "on": None, "level": "Ground Level", "wounds_lost": 1},
                {"id": "t3", "at": [11, 8.6], "base": "32 mm", "on": None, "level": "Ground Level", "wounds_lost": 0}]}
    lines = str(Models.from_json({"system": "heresy", "units": [unit]})).splitlines()
    assert lines == ["trt (traitor) — status: stunned; removed: t1",
                     "  t2       (10, 8.6)  32 mm, Ground Level, 1 wound lost",
                     "  t3       (11, 8.6)  32 mm, Ground Level"]
    code, out = cli_json("models", EXAMPLES / "showcase.yaml")
    assert code == 0 and {m["wounds_lost"] for u in out["units"] for m in u["models"]} == {0}
