"""``tapeline template`` in both forms of the contract, in every system; bad input exits 2 with a
located message; ``render --template``."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES, cli, cli_json

R25, R32 = 12.5 / 25.4, 16 / 25.4
SQUAD = """
tapeline: 1
system: {system}
board: {{width: 24, height: 24}}
{settings}
units:
  - id: squad
    side: a
    base: 25
    models:
      - {{id: m1, at: [12, 12]}}
      - {{id: m2, at: [13, 12]}}
      - {{id: m3, at: [10.7, 12.6]}}
      - {{id: m5, at: [14.2, 13.6]}}
  - id: others
    side: b
    base: [60, 35]
    models:
      - {{id: o1, at: [4, 12], facing: 90}}
"""


def squad(write, system="classic40k", settings=""):
    return write(SQUAD.format(system=system, settings=settings))


@pytest.mark.parametrize("system", ["classic40k", "heresy", "starcraft"])
def test_shape_form_disc_in_every_system(write, system):
    code, o = cli_json("template", squad(write, system), "--shape", "blast", "--at", "12,12")
    assert code == 0
    assert o["template"]["shape"] == "blast" and o["template"]["centre"] == [12, 12] and o["template"]["radius"] == 1.5
    cov = {c["model"]: c for c in o["covered"]}
    assert set(cov) == {"m1", "m2", "m3"} and set(cov["m1"]) >= {"model", "unit", "full", "margin"}
    assert cov["m1"]["full"] and cov["m1"]["margin"] == pytest.approx(1.5 - R25)
    assert cov["m2"]["full"] and cov["m2"]["margin"] == pytest.approx(0.5 - R25)           # d = 1
    d3 = (1.3 ** 2 + 0.6 ** 2) ** 0.5
    assert not cov["m3"]["full"] and cov["m3"]["margin"] == pytest.approx(1.5 + R25 - d3)  # overlap depth
    assert cov["m3"]["unit"] == "squad"
    assert [n["model"] for n in o["near_misses"]] == ["m5"]


def test_shape_form_teardrop_and_an_oval(write):
    f = squad(write)
    # a flamer from (1, 12) along +x: the 60×35 mm oval at (4, 12) faces +y, so it is 17.5 mm
    # (0.688976") wide along the axis: covered, and its edge lies 2.5 − 0.688976 from the tip
    code, o = cli_json("template", f, "--shape", "flamer", "--at", "1,12", "--toward", "9,12")
    assert code == 0
    t = o["template"]
    assert t["shape"] == "flamer" and len(t["polygon"]) > 20 and t["tip"] == [1, 12]
    xs = [p[0] for p in t["polygon"]]
    assert min(xs) == pytest.approx(1, abs=1e-3) and max(xs) == pytest.approx(9, abs=1e-3)
    assert [c["model"] for c in o["covered"]] == ["o1"]


def test_settings_templates_override_and_add(write):
    f = squad(write, settings="settings: {templates: {blast: {diameter: 1.5}, torch: {length: 4, narrow: 0.5, wide: 1.5}}}")
    code, o = cli_json("template", f, "--shape", "blast", "--at", "12,12")
    assert o["template"]["radius"] == 0.75 and {c["model"] for c in o["covered"]} == {"m1", "m2"}
    code, o = cli_json("template", f, "--shape", "torch", "--at", "11,12", "--toward", "15,12")
    assert code == 0 and o["template"]["shape"] == "torch"


@pytest.mark.parametrize("args, where", [
    (("--shape", "pie", "--at", "1,1"), "--shape"),
    (("--shape", "flamer", "--at", "1,1", "--toward", "1,1"), "--toward"),
    (("--shape", "flamer", "--at", "1,1"), "--toward"),
    (("--shape", "blast", "--at", "1,1", "--toward", "3,3"), "--toward"),
    (("--shape", "blast"), "--at"),
    (("--shape", "blast", "--at", "x"), "--at"),
    (("--shape", "blast", "--at", "1,1", "--unit", "squad"), "--unit"),
    ((), "arguments"),
])
def test_bad_shape_requests_exit_2_located(write, args, where):
    code, out, err = cli("template", squad(write), *args)
    assert code == 2 and "Traceback" not in err and where in err and err.count("\n") == 1


@pytest.mark.parametrize("bad, message", [
    ("{blast: {diameter: 0}}", "settings.templates.blast.diameter"),
    ("{blast: {diameter: -3}}", "settings.templates.blast.diameter"),
    ("{flamer: {length: 2, narrow: 0.75, wide: 2.5}}", "settings.templates.flamer"),
    ("{flamer: {length: 8, narrow: 3, wide: 2.5}}", "settings.templates.flamer"),
    ("{odd: {diameter: 2, wide: 1}}", "settings.templates.odd"),
])
def test_bad_dimensions_are_located_file_errors(write, bad, message):
    code, out, err = cli("template", squad(write, settings=f"settings: {{templates: {bad}}}"), "--shape", "blast", "--at", "1,1")
    assert code == 2 and message in err and "Traceback" not in err


SIEGE = EXAMPLES / "template-siege-tank.yaml"


def test_weapon_form_contract():
    code, o = cli_json("template", SIEGE, "--unit", "siege-tank", "--weapon", "crucio-shock-cannon", "--target", "z1")
    assert code == 0
    assert {"template", "target_point", "affected", "excluded", "batches", "covered"} <= set(o)
    assert o["target_point"] == [15, 9] and o["affected"] == {"zerglings": ["z1", "z2"], "roaches": ["r1"]}
    assert o["excluded"] == []
    prim, spill = o["batches"]
    assert {k: prim[k] for k in ("unit", "primary", "dice", "surge")} == {"unit": "zerglings", "primary": True, "dice": 2, "surge": 2}
    assert {k: spill[k] for k in ("unit", "primary", "dice", "surge")} == {"unit": "roaches", "primary": False, "dice": 1, "surge": None}
    # 2 dice at 4+, Surge 2 past the Armour, DMG 2, 3 Visible Zerglings of 1 HP: kills 0, 2 or 3
    assert prim["kills_pmf"] == pytest.approx([1 / 4, 0, 1 / 2, 1 / 4]) and prim["mean_kills"] == pytest.approx(1.75)
    assert spill["kills_pmf"] == pytest.approx([1.0]) and spill["mean_kills"] == 0
    # the Blast moved within 0.87" of z1's centre is legal; farther is not
    code, o = cli_json("template", SIEGE, "--unit", "siege-tank", "--weapon", "crucio-shock-cannon", "--target", "z1", "--at", "15.5,9.5")
    assert code == 0 and o["target_point"] == [15.5, 9.5]
    code, out, err = cli("template", SIEGE, "--unit", "siege-tank", "--weapon", "crucio-shock-cannon", "--target", "z1", "--at", "16,9")
    assert code == 2 and "§8.7.6 Blast alignment" in err


def test_weapon_form_bad_requests():
    base = ("template", SIEGE, "--unit", "siege-tank")
    for extra, text in [(("--weapon", "crucio-shock-cannon"), "name the target model"),
                        (("--weapon", "crucio-shock-cannon", "--target", "z9"), "--target"),
                        (("--weapon", "nope", "--target", "z1"), "no weapon"),
                        (("--weapon", "crucio-shock-cannon", "--target", "t1"), "not an enemy")]:
        code, out, err = cli(*base, *extra)
        assert code == 2 and text in err and "Traceback" not in err, (extra, err)
    code, out, err = cli("template", EXAMPLES / "template-40k-blast.yaml", "--unit", "tactical-squad", "--weapon", "x", "--target", "m1")
    assert code == 2 and "StarCraft" in err


def test_after_and_human_output():
    code, out, err = cli("template", SIEGE, "--shape", "blast", "--at", "15,9", "--after", "0")
    assert code == 0 and "covers 1 model(s)" in out   # z1 and z2 were removed by the shot: r1 is left
    code, out, err = cli("template", SIEGE, "--unit", "siege-tank", "--weapon", "crucio-shock-cannon", "--target", "z1")
    assert "Spillover roaches: 1 die" in out and "Surge 2 (not rolled)" in out


def test_render_template_overlays(tmp_path):
    out = tmp_path / "t.svg"
    code, _, err = cli("render", SIEGE, "-o", out, "--template", "siege-tank", "crucio-shock-cannon", "z1")
    assert code == 0, err
    svg = out.read_text()
    for needle in ('data-layer="template"', 'class="template"', 'class="covered-full"', 'class="covered-part"',
                   "blast template", "wholly under the template", "partly under the template", "Target Point"):
        assert needle in svg, needle
    code, _, err = cli("render", EXAMPLES / "template-40k-blast.yaml", "-o", out, "--template", "flamer", "--at", "8,12", "--toward", "14,12")
    assert code == 0 and 'class="template"' in out.read_text()
    code, _, err = cli("render", SIEGE, "-o", out, "--template", "a", "b", "c", "d")
    assert code == 2 and "--template" in err


def test_a_template_expectation_that_cannot_be_placed_is_bad_input(tmp_path):
    """An expectation about a template the rules refuse to place (here a Blast whose Target
    Point is moved off the target's base, §8.7.6) is an error naming the expectation, exit 2 —
    not a failed expectation."""
    import yaml

    doc = yaml.safe_load((EXAMPLES / "template-siege-tank.yaml").read_text(encoding="utf-8"))
    k = next(i for i, e in enumerate(doc["expect"]) if e["expect"] == "template")
    doc["expect"][k]["at"] = [30.0, 30.0]
    p = tmp_path / "moved.yaml"
    p.write_text(yaml.safe_dump(doc), encoding="utf-8")
    code, out, err = cli("replay", p)
    assert code == 2, out + err
    assert f"expect[{k}]" in err and str(p) in err and "Traceback" not in err


def test_a_covered_expectation_naming_an_unknown_shape_is_bad_input(tmp_path):
    """``expect: covered`` with a shape neither the defaults nor ``settings.templates`` define:
    an error naming the expectation and the known shapes, exit 2 (it was an internal error)."""
    import yaml

    doc = yaml.safe_load((EXAMPLES / "template-40k-blast.yaml").read_text(encoding="utf-8"))
    k = next(i for i, e in enumerate(doc["expect"]) if e["expect"] == "covered")
    doc["expect"][k]["shape"] = "nosuch"
    p = tmp_path / "unknown-shape.yaml"
    p.write_text(yaml.safe_dump(doc), encoding="utf-8")
    code, out, err = cli("replay", p)
    assert code == 2, out + err
    assert f"expect[{k}]: unknown template shape 'nosuch' (known: blast, flamer, large_blast)" in err
    assert "internal error" not in err
