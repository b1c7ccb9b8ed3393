"""``tapeline los`` and ``render --los`` on the command line: JSON keys per the spec, human
output, exit codes for bad input, the witness checked independently."""

from __future__ import annotations

import shapely

from tests.conftest import EXAMPLES, cli, cli_json

DC = EXAMPLES / "los-direct-cover.yaml"


def test_los_json_visible_has_a_clear_witness_between_the_bases():
    code, out = cli_json("los", DC, "g1", "m4")
    assert code == 0
    assert out["visible"] is True and out["blocked_by"] == []
    (x0, y0), (x1, y1) = out["witness"]
    assert abs(((x0 - 5) ** 2 + (y0 - 12) ** 2) ** 0.5 - 1.5748031) < 1e-6  # on the Goliath's rim
    assert abs(((x1 - 13.5) ** 2 + (y1 - 12) ** 2) ** 0.5 - 0.6299213) < 1e-6  # on m4's rim


def test_los_json_blocked_lists_pieces_and_reasons():
    code, out = cli_json("los", DC, "m1", "g1")
    assert code == 0
    assert out["visible"] is False and out["witness"] is None
    assert out["blocked_by"] == [{"terrain": "wall", "reason": "direct_cover"}]


def test_los_human_output():
    code, out, _ = cli("los", DC, "g1", "m1")
    assert code == 0 and "not visible" in out and "wall: direct_cover" in out
    code, out, _ = cli("los", DC, "g1", "m3")
    assert code == 0 and "witness" in out


def test_los_bad_input_exit_2_without_traceback(write):
    code, out, err = cli("los", DC, "g1", "nobody")
    assert code == 2 and "nobody" in err and "Traceback" not in err
    code, _, err = cli("los", write("tapeline: 1\nsystem: starcraft\n"), "a", "b")
    assert code == 2 and "Traceback" not in err


def test_render_los_draws_witness_or_blockers(tmp_path):
    svg = tmp_path / "a.svg"
    code, _, _ = cli("render", DC, "-o", svg, "--los", "g1", "m4")
    text = svg.read_text()
    assert code == 0 and 'class="witness"' in text
    code, _, _ = cli("render", DC, "-o", svg, "--los", "g1", "m1")
    text = svg.read_text()
    assert code == 0 and 'class="blocker"' in text and "direct_cover" in text
    code, _, err = cli("render", DC, "-o", svg, "--los", "g1", "zz")
    assert code == 2 and "Traceback" not in err


def test_replay_with_visible_expectation_fails_with_exit_1(write):
    text = DC.read_text().replace("{expect: visible, a: g1, b: m3, value: true}",
                                  "{expect: visible, a: g1, b: m3, value: false}")
    code, out = cli_json("replay", write(text))
    assert code == 1
    assert [c["ok"] for c in out["expectations"]].count(False) == 1
