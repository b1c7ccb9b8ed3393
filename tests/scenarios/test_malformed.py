"""A corpus of malformed files, one per rule: each gives exit 2 and a message naming the
location inside the file, and none gives a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapeline.scenarios.errors import ScenarioError
from tapeline.scenarios.load import MAX_MODELS, read
from tests.conftest import cli

CORPUS = Path(__file__).parent / "malformed"
EXPECTED_JSON = {"json-wrong-type.json": "units[0].models[0].at[1]", "json-nan.json": "board.width",
                 "json-deep-nesting.json": "line 1", "json-long-int.json": "file"}


def expected_location(path: Path) -> str:
    if path.suffix == ".json":
        return EXPECTED_JSON[path.name]
    first = path.read_text().splitlines()[0]
    assert first.startswith("# location: ")
    return first.removeprefix("# location: ")


FILES = sorted(CORPUS.iterdir())


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_check_reports_location_and_exit_2(path):
    code, out, err = cli("check", path, "--json")
    assert code == 2
    assert "Traceback" not in err
    report = json.loads(out)
    assert report["valid"] is False
    locs = [e["location"] for e in report["errors"]]
    assert any(loc.startswith(expected_location(path)) for loc in locs), locs


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_command_fails_cleanly(path):
    for args in (["replay", path], ["measure", path, "m1", "m1"], ["render", path, "-o", "/dev/null"]):
        code, out, err = cli(*args)
        assert code == 2, (args, out, err)
        assert "Traceback" not in err
        assert str(path) in err and expected_location(path) in err


def test_too_many_models_is_refused_quickly(tmp_path):
    n = MAX_MODELS + 1
    models = ", ".join(f"{{id: m{i}, at: [{1 + (i % 50)}, {1 + i // 50}]}}" for i in range(n))
    p = tmp_path / "big.yaml"
    p.write_text(
        "tapeline: 1\nsystem: starcraft\nboard: {width: 60, height: 60}\n"
        f"units:\n  - {{id: t, side: a, base: 25, models: [{models}]}}\n"
    )
    with pytest.raises(ScenarioError) as e:
        read(p)
    assert "limit" in str(e.value) and e.value.location.startswith("units")


def test_huge_file_is_refused(tmp_path):
    p = tmp_path / "huge.yaml"
    p.write_text("# " + "x" * 6_000_000 + "\n")
    with pytest.raises(ScenarioError) as e:
        read(p)
    assert "limit" in str(e.value)


def test_missing_file():
    code, out, err = cli("check", "/nonexistent/file.yaml")
    assert code == 2 and "cannot read" in (out + err) and "Traceback" not in err


def test_illegal_action_names_index_and_rule(write):
    p = write(
        """
        tapeline: 1
        system: starcraft
        board: {width: 24, height: 24}
        units:
          - {id: t, side: terran, profile: marine, models: [{id: m1, at: [5, 5]}, {id: m2, at: [8, 5]}]}
        actions:
          - {action: place, model: m1, to: [6, 6]}
          - {action: place, model: m2, to: [6.5, 6]}
        """
    )
    code, out, err = cli("replay", p)
    assert code == 2 and "actions[1]" in err and "overlap" in err and "§4.1" in err
    assert "Traceback" not in err
