"""Pictures in a notebook: ``Game.svg()`` is a ``str`` Jupyter draws, and each answer with a
geometric verdict (measure, los, charge, template) draws itself, cropped to its models, with
the overlay ``tapeline render`` uses. The numbers checked are worked out from the files."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

import tapeline
from tapeline.board.render import Svg
from tapeline.scenarios import answers
from tests.conftest import EXAMPLES

SHOW = EXAMPLES / "showcase.yaml"
BLAST = EXAMPLES / "template-40k-blast.yaml"
HERESY = EXAMPLES / "charge-heresy-setup.yaml"
NS = {"s": "http://www.w3.org/2000/svg"}
R32 = 16 / 25.4  # a 32 mm base's radius, inches


def layer(svg: str, name: str) -> ET.Element:
    g = ET.fromstring(svg).find(f".//s:g[@data-layer='{name}']", NS)
    assert g is not None, f"no layer {name}"
    return g


def points(el: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in el.get("points").split()]


def view(svg: str) -> tuple[float, ...]:
    v = ET.fromstring(svg).find(".//s:svg[@class='view']", NS)
    assert v is not None, "not cropped"
    return tuple(map(float, v.get("data-view").split()))


def inside(box: tuple[float, ...], x: float, y: float, r: float) -> bool:
    return box[0] <= x - r and x + r <= box[2] and box[1] <= y - r and y + r <= box[3]


def test_game_svg_is_text_a_notebook_draws():
    game = tapeline.open(SHOW)
    pic = game.svg()
    assert isinstance(pic, str) and isinstance(pic, Svg)
    assert str(pic).startswith("<svg") and pic._repr_svg_() == str(pic)
    assert game._repr_svg_() == str(pic)


def test_measure_draws_the_gap():
    # c2 (26, 17.5) and zb1 (28, 17.5), both 32 mm: the gap is 2 - 2 * 16/25.4 along y = 17.5
    m = tapeline.open(SHOW).measure("c2", "zb1")
    pic = m._repr_svg_()
    (x0, y0), (x1, y1) = points(layer(pic, "measure").find("s:polyline[@class='pair']", NS))
    assert (y0, y1) == (17.5, 17.5)
    assert math.isclose(x0, 26 + R32, abs_tol=2e-3) and math.isclose(x1, 28 - R32, abs_tol=2e-3)
    assert 'gap 0.740157"' in pic
    box = view(pic)
    assert inside(box, 26, 17.5, R32) and inside(box, 28, 17.5, R32)
    assert box[2] - box[0] < 54 and box[3] - box[1] < 36  # not the whole table


def test_sight_draws_its_witness():
    # a6 (20, 26.5) and za5 (22.2, 26.5) on open ground: seen along y = 26.5
    s = tapeline.open(SHOW).los("a6", "za5")
    assert s.visible
    line = layer(s._repr_svg_(), "los").find("s:polyline[@class='witness']", NS)
    assert [pt for pt in points(line)] == [tuple(round(v, 4) for v in p) for p in s.witness]
    assert all(y == 26.5 for _x, y in points(line))


def test_sight_blocked_draws_the_blocker():
    s = tapeline.open(SHOW).los("c2", "zb1")  # the mesa-wall stands between them (Full Cover)
    pic = s.svg()
    blockers = layer(pic, "los").findall("s:path[@class='blocker']", NS)
    assert len(blockers) == 1 and "mesa-wall: full_cover" in pic


def test_charge_draws_its_path():
    c = tapeline.open(SHOW).charge("roaches", ["marines-bravo"])
    g = layer(c._repr_svg_(), "charge")
    path = points(g.find("s:polyline[@class='path']", NS))
    assert path == [tuple(round(v, 4) for v in p) for p in c.path]
    # its length is the charge's distance
    assert math.isclose(sum(math.dist(p, q) for p, q in zip(path, path[1:])), c.distance, abs_tol=1e-3)
    box = view(c.svg())
    assert all(box[0] <= x <= box[2] and box[1] <= y <= box[3] for x, y in path)


def test_template_draws_its_coverage():
    # the file's worked example: m1, m2 wholly under a 3" blast at (12, 12), m3, m4 partly, m5 clear
    t = tapeline.open(BLAST).template("blast", (12, 12))
    g = layer(t._repr_svg_(), "template")
    full = {e.get("data-model") for e in g if e.get("class") == "covered-full"}
    part = {e.get("data-model") for e in g if e.get("class") == "covered-part"}
    assert (full, part) == ({"m1", "m2"}, {"m3", "m4"})
    disc = g.find("s:circle[@class='template']", NS)
    assert (float(disc.get("cx")), float(disc.get("cy")), float(disc.get("r"))) == (12, 12, 1.5)


def test_an_answer_not_asked_of_a_game_has_no_picture():
    m = answers.Measure.from_json({"a": "m1", "b": "z1", "gap": 0.5, "contact": False})
    assert m._repr_svg_() is None
    with pytest.raises(ValueError, match="not asked of a game"):
        m.svg()


def test_the_picture_is_of_the_board_when_asked():
    game = tapeline.open(SHOW)
    before = game.measure("mr4", "b5")
    game.push({"action": "run", "unit": "marines-bravo", "leader": "b5", "path": [[18.5, 10.5]]})
    after = game.measure("mr4", "b5")
    assert before.svg() != after.svg()
    def at(svg: str) -> tuple[float, float]:
        el = ET.fromstring(svg).find(".//s:circle[@class='model'][@data-model='b5']", NS)
        return float(el.get("cx")), float(el.get("cy"))

    assert at(before.svg()) == (18.5, 7.5) and at(after.svg()) == (18.5, 10.5)  # the Leading Model ran 3" north


def test_crop_arguments():
    game = tapeline.open(SHOW)
    pic = game.svg(crop=["c2", "zb1"])
    box = view(pic)
    assert inside(box, 26, 17.5, R32) and inside(box, 28, 17.5, R32)
    assert view(game.svg(crop=(10, 10, 20, 18))) == (10, 10, 20, 18)
    for bad in (True, 5, ("c2", 3), (1, 2, 0, 5)):
        with pytest.raises(tapeline.ArgumentError) as e:
            game.svg(crop=bad)
        assert e.value.argument == "crop"
    with pytest.raises(tapeline.UnknownId):
        game.svg(crop=["c99"])
    with pytest.raises(tapeline.ArgumentError) as e:
        game.svg(fill="colour")
    assert e.value.argument == "fill"


RUIN = """
tapeline: 1
system: heresy
board: {width: 24, height: 24}
terrain:
  - {id: ruin, footprint: {rect: [8, 8, 4, 2]}, height: 3.5, traits: [blocks_sight, difficult]}
units:
  - {id: tac, side: loyal, profile: legion-tactical-squad, models: [{id: t1, at: [4, 4]}]}
"""


def test_heresy_and_40k_are_shaded_by_height_starcraft_by_size():
    ruin = tapeline.parse_text(RUIN)
    pic = ruin.svg()
    assert "top height:" in pic and "terrain Size:" not in pic
    # 3.5" falls in the 3-4" band (the fifth shade, HEIGHT_COLOURS[4]); its traits marked and named on the piece
    assert re.search(r'<path class="terrain"[^>]*fill="#6f8897"[^>]*data-terrain="ruin"', pic)
    assert 'class="trait-blocks_sight"' in pic and 'class="trait-difficult"' in pic
    assert '>3.5" blocks sight difficult</text>' in pic
    assert "terrain Size:" in tapeline.open(SHOW).svg()
    assert "terrain Size:" in ruin.svg(fill="size")
    mud = tapeline.open(EXAMPLES / "charge-40k-difficult.yaml").svg()
    assert re.search(r'class="trait-difficult"', mud) and ">difficult</text>" in mud


def test_path_draws_the_move_and_its_violation():
    # charge-run-grass.yaml: the wall is rect [9, 0, 2, 12]; m1 at (5, 10) heading east to (12, 10)
    # meets the wall grown by its clearance before x = 9
    game = tapeline.open(EXAMPLES / "charge-run-grass.yaml")
    p = game.path("m1", [(12, 10)])
    assert not p.legal
    g = layer(p._repr_svg_(), "path")
    assert points(g.find("s:polyline[@class='path']", NS)) == [(5, 10), (12, 10)]
    ring = g.find("s:circle[@class='violation']", NS)
    assert float(ring.get("cy")) == 10 and float(ring.get("cx")) <= 9
    assert g.find("s:path[@class='blocker']", NS) is not None
    ok = game.path("m1", [(5, 13), (6, 13)], max=4)  # the file's run: 3" + 1" = 4"
    assert ok.legal and 'm1: 4" of 4"' in ok.svg()
