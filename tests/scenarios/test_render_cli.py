"""``tapeline render``: writes a picture of the file's table; bad input exits 2 cleanly."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from tapeline.scenarios import overlays
from tapeline.scenarios.load import read
from tests.conftest import EXAMPLES, cli

SHOWCASE = EXAMPLES / "showcase.yaml"

SMALL = """
tapeline: 1
system: starcraft
name: 'Small <&> board'
board: {width: 12, height: 8}
terrain:
  - {id: rock, footprint: {rect: [6, 1, 2, 2]}, size: 3, height: 2.0}
units:
  - id: marines
    side: terran
    profile: marine
    leader: m2
    models:
      - {id: m1, at: [1, 1]}
      - {id: m2, at: [3, 1]}
  - id: hydras
    side: zerg
    profile: hydralisk
    models:
      - {id: h1, at: [9, 6], facing: 45}
actions:
  - {action: place, model: m1, to: [1, 6]}
"""


def shapes(root) -> dict:
    return {el.get("data-model"): el for el in root.iter() if el.get("class") == "model"}


def test_render_writes_the_file(write, tmp_path):
    out = tmp_path / "pic.svg"
    code, stdout, err = cli("render", write(SMALL), "-o", out)
    assert code == 0 and err == "" and "pic.svg" in stdout
    root = ET.parse(out).getroot()
    ms = shapes(root)
    assert sorted(ms) == ["h1", "m1", "m2"]
    assert (ms["m1"].get("cx"), ms["m1"].get("cy")) == ("1", "1")
    assert ms["h1"].tag.endswith("ellipse") and ms["h1"].get("transform") == "rotate(45 9 6)"
    assert ms["m2"].get("data-leader") == "true"
    assert any("".join(t.itertext()) == "Small <&> board" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert any(el.get("data-terrain") == "rock" for el in root.iter())


def test_final_draws_the_state_after_the_actions(write, tmp_path):
    out = tmp_path / "final.svg"
    assert cli("render", write(SMALL), "-o", out, "--final")[0] == 0
    m1 = shapes(ET.parse(out).getroot())["m1"]
    assert (m1.get("cx"), m1.get("cy")) == ("1", "6")


def test_fill_height_and_stdout(write):
    code, stdout, _ = cli("render", write(SMALL), "-o", "-", "--fill", "height", "--title", "T")
    assert code == 0 and stdout.startswith("<svg")
    root = ET.fromstring(stdout)
    assert any("".join(t.itertext()) == "top height:" for t in root.iter("{http://www.w3.org/2000/svg}text"))


def test_same_file_same_bytes(write, tmp_path):
    f = write(SMALL)
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    assert cli("render", f, "-o", a)[0] == 0 and cli("render", f, "-o", b)[0] == 0
    assert a.read_bytes() == b.read_bytes()


def test_unwritable_output_exits_2(write, tmp_path):
    out = tmp_path / "no-such-dir" / "pic.svg"
    code, stdout, err = cli("render", write(SMALL), "-o", out)
    assert code == 2 and "Traceback" not in err
    assert "cannot write" in err and "pic.svg" in err
    assert not out.exists()
    # a directory is not a file either
    code, _, err = cli("render", write(SMALL), "-o", tmp_path)
    assert code == 2 and "cannot write" in err


def test_bad_scenario_exits_2_and_writes_nothing(write, tmp_path):
    out = tmp_path / "pic.svg"
    bad = write(SMALL.replace("at: [3, 1]", "at: [3, -5]"), "bad.yaml")
    code, _, err = cli("render", bad, "-o", out)
    assert code == 2 and "units[0].models[1].at" in err and "Traceback" not in err
    assert not out.exists()
    code, _, err = cli("render", bad, "-o", out, "--fill", "colour")
    assert code == 2 and "Traceback" not in err


def test_showcase_renders_every_model(tmp_path):
    out = tmp_path / "showcase.svg"
    assert cli("render", SHOWCASE, "-o", out)[0] == 0
    root = ET.parse(out).getroot()
    st = read(SHOWCASE).state
    assert sorted(shapes(root)) == sorted(st.figures)
    assert len([el for el in root.iter() if el.get("class") == "leader"]) == sum(1 for u in st.units if u.leader)
    assert {el.get("data-terrain") for el in root.iter() if el.get("data-terrain")} == set(st.table.by_id)


def test_overlay_modules_plug_in():
    """Every overlay module has its options and draws them; with none given they draw nothing."""
    import tapeline

    for m in overlays.modules():
        assert isinstance(m.OPTIONS, dict) and callable(m.layers)
    assert overlays.layers(tapeline.open(SHOWCASE), overlays.options({})) == []


@pytest.mark.parametrize("name", ["showcase.yaml", "elevation.yaml"])
def test_examples_render(name, tmp_path):
    out = tmp_path / "x.svg"
    assert cli("render", EXAMPLES / name, "-o", out)[0] == 0
    ET.parse(out)


def test_render_crop_to_the_overlay_models(tmp_path):
    """``--crop`` shows the part of the table the overlay flags name: c2 (26, 17.5) and zb1
    (28, 17.5), 32 mm bases, with a margin — not the 54" × 36" table."""
    out = tmp_path / "crop.svg"
    code, _, err = cli("render", SHOWCASE, "-o", out, "--measure", "c2", "zb1", "--crop")
    assert code == 0, err
    root = ET.parse(out).getroot()
    v = root.find(".//{http://www.w3.org/2000/svg}svg[@class='view']")
    x0, y0, x1, y1 = map(float, v.get("data-view").split())
    r = 16 / 25.4
    assert x0 <= 26 - r and 28 + r <= x1 and y0 <= 17.5 - r and 17.5 + r <= y1
    assert x1 - x0 < 20 and y1 - y0 < 12
    assert root.find(".//{http://www.w3.org/2000/svg}path[@class='scale']") is not None
    code, _, err = cli("render", SHOWCASE, "-o", out, "--crop")
    assert code == 2 and "crop" in err and "Traceback" not in err
