"""Hostile and careless input, one test per class of the fuzzing campaign (issue 14) that the
malformed-file corpus (tests/scenarios/malformed/) cannot hold as a small file: devices and
pipes, sizes at and past every limit, command lines, errors raised while replaying or
answering. Each ends with exit status 2 and one line ``FILE: PLACE: message`` on stderr."""

from __future__ import annotations

import json
import os
import textwrap
import warnings

import pytest

from tapeline.scenarios import schema, yamlio
from tapeline.scenarios.load import parse
from tests.conftest import cli

BASE = """\
tapeline: 1
system: starcraft
board: {width: 24, height: 24}
units:
  - {id: t, side: terran, profile: marine, leader: m1, models: [{id: m1, at: [5, 5]}, {id: m2, at: [7, 5]}]}
  - {id: z, side: zerg, profile: zergling, models: [{id: z1, at: [12, 5]}]}
"""


def refused(result, file, where: str = "") -> str:
    """Exit 2, nothing on stderr but one line naming the file (and ``where``); the line."""
    code, out, err = result
    assert code == 2, (out, err)
    assert "Traceback" not in err + out
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith(f"{file}: "), lines[0]
    assert where in lines[0], (where, lines[0])
    return lines[0]


@pytest.fixture
def put(tmp_path):
    def _put(text: str, name: str = "s.yaml"):
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return p

    return _put


# --- what is not a regular file ---------------------------------------------------------------


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_device_is_refused_before_reading(device):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    line = refused(cli("check", device), device, "file")
    assert "not a regular file" in line


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    for cmd in ("check", "replay", "los"):
        args = (cmd, fifo) + (("m1", "z1") if cmd == "los" else ())
        assert "not a regular file" in refused(cli(*args), fifo, "file")


def test_a_directory_is_refused(tmp_path):
    assert "directory" in refused(cli("replay", tmp_path), tmp_path, "file")


def test_the_byte_limit_holds_while_reading(tmp_path, monkeypatch):
    p = tmp_path / "big.yaml"
    p.write_text(BASE + "# " + "x" * 100 + "\n")
    with pytest.raises(yamlio.TextError, match="larger than 50 bytes"):
        yamlio.read_text(str(p), limit=50)
    assert yamlio.read_text(str(p), limit=10_000).startswith("tapeline")


def test_not_utf8_is_located(put, tmp_path):
    p = tmp_path / "latin.yaml"
    p.write_bytes(BASE.encode() + b"name: caf\xe9\n")
    assert "not UTF-8" in refused(cli("check", p), p, "line 7")


# --- counts and sizes: every limit is enforced, and located --------------------------------------


def _models(n: int) -> str:
    ms = ", ".join(f"{{id: m{i}, at: [{1 + (i % 40) * 1.5}, {1 + (i // 40) * 1.5}]}}" for i in range(n))
    return f"tapeline: 1\nsystem: starcraft\nboard: {{width: 62, height: 62}}\nunits:\n  - {{id: t, side: a, base: 25, models: [{ms}]}}\n"


def test_models_limit(put):
    parse(_models(schema.MAX_MODELS))  # at the limit: loads
    p = put(_models(schema.MAX_MODELS + 1))
    refused(cli("check", p), p, "units")


def test_pieces_and_vertices_limits(put):
    def rects(n):
        return "".join(f"  - {{id: r{i}, footprint: {{rect: [{i % 20}, {i // 20}, 0.5, 0.5]}}}}\n" for i in range(n))

    p = put(BASE.replace("units:", "terrain:\n" + rects(schema.MAX_PIECES + 1) + "units:"))
    refused(cli("check", p), p, "terrain")
    n = schema.MAX_POLYGON_VERTICES + 1
    ring = ", ".join(f"[{10 + 3 * __import__('math').cos(6.2831853 * k / n):.6f}, {20 + 3 * __import__('math').sin(6.2831853 * k / n):.6f}]" for k in range(n))
    p = put(BASE.replace("units:", f"terrain:\n  - {{id: hill, footprint: {{polygon: [{ring}]}}}}\nunits:"))
    refused(cli("check", p), p, "terrain[0].footprint.polygon")


def test_recorded_rolls_limit(put):
    p = put(BASE + "dice: {rolls: [" + ", ".join(["3"] * (schema.MAX_ROLLS + 1)) + "]}\n")
    refused(cli("replay", p), p, "dice.rolls")


def test_expectations_and_actions_limits(put):
    p = put(BASE + "expect:\n" + "  - {expect: gap, a: m1, b: z1, at_least: 0}\n" * (schema.MAX_EXPECT + 1))
    refused(cli("replay", p), p, "expect")
    p = put(BASE + "actions:\n" + "  - {action: place, model: m1, to: [5, 6]}\n" * (schema.MAX_ACTIONS + 1))
    refused(cli("replay", p), p, "actions")


def test_values_limit_is_met_while_reading(put):
    p = put(BASE + "name: [" + ", ".join(["1"] * (yamlio.MAX_VALUES + 1)) + "]\n")
    assert "values" in refused(cli("check", p), p, "line 7")


def test_board_and_coordinates_are_bounded(put):
    p = put(BASE.replace("width: 24", "width: 100000000000000000000000000000000000.0"))
    refused(cli("check", p), p, "board.width")
    p = put(BASE + "actions:\n  - {action: place, model: m1, to: [1e300, 5]}\n")
    refused(cli("replay", p), p, "actions[0].to[0]")


def test_long_integers_everywhere(put, tmp_path):
    big = "9" * 5000
    for text in (BASE + f"dice: {{seed: {big}}}\n", BASE.replace("width: 24", f"width: {big}"),
                 BASE + f"expect:\n  - {{expect: gap, a: m1, b: z1, equals: {big}}}\n"):
        p = put(text)
        assert "digits" in refused(cli("replay", p), p, "line")
    j = tmp_path / "s.json"
    j.write_text('{"tapeline": 1, "system": "starcraft", "board": {"width": 24, "height": 24}, "units": [], "dice": {"seed": ' + big + "}}")
    refused(cli("check", j), j, "digits")


# --- YAML read the YAML 1.2 way -----------------------------------------------------------------


def test_exponent_numbers_are_numbers():
    s = parse(BASE.replace("width: 24", "width: 36e0").replace("height: 24", "height: 2.4e1")
              + "expect:\n  - {expect: gap, a: m1, b: z1, equals: 1e0, tol: 1e-6, at_most: 1E3}\n")
    assert s.spec.board.width == 36.0 and s.spec.board.height == 24.0
    e = s.spec.expect[0]
    assert (e.equals, e.tol, e.at_most) == (1.0, 1e-6, 1000.0)


def test_yaml_12_scalars():
    data, _ = yamlio.parse("a: 017\nb: 0x1F\nc: on\nd: yes\ne: ~\nf: .inf\ng: '1e3'\nh: !!float 3\ni: 1_000\n", False)
    assert data == {"a": 17, "b": 31, "c": "on", "d": "yes", "e": None, "f": float("inf"), "g": "1e3", "h": 3.0, "i": "1_000"}


# --- command lines ----------------------------------------------------------------------------------


@pytest.mark.parametrize("args, where", [
    (("charge", "{f}", "--unit", "z", "--target", "t", "--modifier", "100000000000000000000"), "--modifier"),
    (("charge", "{f}", "--unit", "z", "--target", "t", "--modifier", "9" * 5000), "--modifier"),
    (("charge", "{f}", "--unit", "z", "--target", "t", "--roll", "7"), "--roll"),
    (("charge", "{f}", "--unit", "z", "--target", "t", "--target-model", "z=z1"), "--target-model"),
    (("charge", "{f}", "--unit", "z", "--target", "t", "--leader", "m1"), "--leader"),
    (("charge", "{f}", "z", "--target", "t", "--leader", "m1"), "--leader"),
    (("path", "{f}", "m1", "--via", "1e309,3"), "--via"),
    (("path", "{f}", "m1", "--via", "3,4", "--max", "nan"), "--max"),
    (("attack", "{f}", "--unit", "t", "--weapon", "c-14-rifle", "--target", "z", "--hit", "99"), "--hit"),
    (("measure", "{f}", "m1", "m1"), "B"),
    (("los", "{f}", "z1", "z1"), "B"),
    (("measure", "{f}", "m1", "nobody"), "B"),
    (("attack", "{f}", "--unit", "t", "--weapon", "laser-cannon", "--target", "z"), "attack"),
    (("charge", "{f}", "--unit", "z"), "arguments"),
    (("measure", "{f}", "m1", "z1", "--after", "3"), "--after"),
])
def test_bad_command_lines(put, args, where):
    p = put(BASE)
    refused(cli(*(a.format(f=p) for a in args)), p, where)


def test_render_refuses_to_overwrite_its_input(put, tmp_path):
    p = put(BASE)
    for out in (p, tmp_path / "." / p.name):
        refused(cli("render", p, "-o", out), p, "-o")
    assert p.read_text() == BASE
    link = tmp_path / "link.yaml"
    os.symlink(p, link)
    refused(cli("render", link, "-o", p), link, "-o")
    assert p.read_text() == BASE


# --- errors while replaying or answering name the file and the place ---------------------------


def test_replay_errors_name_file_and_action(put):
    p = put(BASE + "actions:\n  - {action: place, model: m1, to: [5, 6]}\n  - {action: place, model: m2, to: [5.5, 6]}\n")
    line = refused(cli("replay", p), p, "actions[1]: ")
    assert "§4.1" in line


def test_expectation_on_a_removed_model_names_file_and_expectation(put):
    p = put(BASE + "dice: {rolls: [6, 6, 6, 6, 6, 6, 6, 6, 6, 6]}\nactions:\n"
            "  - {action: shoot, unit: t, batches: [{weapon: c-14-rifle, target: z}]}\n"
            "expect:\n  - {expect: casualties, unit: z, count: 1, after: 0}\n  - {expect: gap, a: m1, b: z1, at_least: 0}\n")
    line = refused(cli("replay", p), p, "expect[1].b: ")
    assert "z1" in line and "removed" in line


def test_numeric_warnings_stay_off_stderr(put, monkeypatch):
    import numpy as np

    from tapeline.scenarios import cli as cli_module

    real = cli_module.QUESTIONS["measure"]

    def noisy(game, args):
        np.float64(1.0) / np.float64(0.0)
        np.sqrt(np.float64(-1.0))
        warnings.warn("a numeric warning", RuntimeWarning)
        return real(game, args)

    monkeypatch.setitem(cli_module.QUESTIONS, "measure", noisy)
    p = put(BASE)
    code, out, err = cli("measure", p, "m1", "z1")
    assert code == 0 and err == ""


def test_an_unexpected_exception_is_one_line_not_a_traceback(put, monkeypatch):
    from tapeline.scenarios import replay

    def broken(loaded):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(replay, "run", broken)
    p = put(BASE)
    line = refused(cli("replay", p), p, "replay: internal error")
    assert "ZeroDivisionError" in line


def test_check_json_keeps_the_answer_on_stdout(put):
    p = put(BASE.replace("width: 24", "width: -1"))
    code, out, err = cli("check", p, "--json")
    assert code == 2 and json.loads(out)["valid"] is False
    refused((code, "", err), p, "board.width")


def test_check_sees_every_reference(put):
    """What check passes, replay never refuses for a reference: the static checks run at every
    load, with the same located messages."""
    p = put(textwrap.dedent(BASE) + "actions:\n  - {action: charge, unit: z, targets: [t], leader: m1}\n")
    code, out, err = cli("check", p)
    assert code == 2 and "actions[0].leader" in out
    refused(cli("replay", p), p, "actions[0].leader")
