"""The SVG renderer: a well-formed picture, true to the geometry it draws."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
import shapely

from tapeline.board.bases import OvalBase, RoundBase
from tapeline.board.errors import GeometryError
from tapeline.board.render import (
    PX, Layer, height_bin, render_svg, svg_circle, svg_geometry, svg_label, svg_polyline,
)
from tapeline.board.table import Figure, Table
from tapeline.board.terrain import Piece

NS = {"s": "http://www.w3.org/2000/svg"}
R32 = 16 / 25.4  # radius of a 32 mm base, inches


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def matrix(transform: str) -> tuple[float, ...]:
    m = re.fullmatch(r"matrix\(([^)]*)\)", transform)
    assert m, transform
    return tuple(float(v) for v in m.group(1).split())


def board_group(root):
    g = root.find(".//s:g[@class='board']", NS)
    assert g is not None
    return g


def to_screen(root, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = matrix(board_group(root).get("transform"))
    return a * x + c * y + e, b * x + d * y + f


def models(root) -> dict[str, ET.Element]:
    out = {}
    for el in root.iter():
        if el.get("class") == "model":
            out[el.get("data-model")] = el
    return out


@pytest.fixture
def board():
    table = Table(
        30, 20,
        (
            Piece.rect("hill", 2, 2, 8, 6, size=3, height=3.0),
            Piece.rect("wall", 5, 3, 0.5, 4, size=2, height=1.5, on="hill"),
            Piece.disc("crater", 20, 10, 2, size=0),
            Piece.rect("grass", 14, 14, 4, 3, size=2, height=1.0, traits=frozenset({"grass"})),
        ),
    )
    figs = [
        Figure("m1", "marines", "terran", RoundBase(32), 4, 1),
        Figure("m2", "marines", "terran", RoundBase(32), 4, 19),
        Figure("h1", "hydras", "zerg", OvalBase(100, 40, 30), 25, 5),
        Figure("q1", "queen", "zerg", RoundBase(80), 25, 15, on=None),
    ]
    return table, figs


def test_viewbox_and_size(board):
    table, figs = board
    root = parse(render_svg(table, figs, title="t"))
    vb = [float(v) for v in root.get("viewBox").split()]
    assert vb[:2] == [0, 0]
    # the whole table fits in the view box, at PX pixels per inch
    assert vb[2] >= table.width * PX and vb[3] >= table.height * PX
    assert float(root.get("width")) == vb[2] and float(root.get("height")) == vb[3]


def test_one_shape_per_model_true_to_size(board):
    table, figs = board
    root = parse(render_svg(table, figs))
    ms = models(root)
    assert sorted(ms) == sorted(f.id for f in figs)
    assert ms["m1"].tag.endswith("circle") and float(ms["m1"].get("r")) == pytest.approx(R32, abs=1e-4)
    assert float(ms["q1"].get("r")) == pytest.approx(40 / 25.4, abs=1e-4)
    h = ms["h1"]
    assert h.tag.endswith("ellipse")
    assert float(h.get("rx")) == pytest.approx(50 / 25.4, abs=1e-4)
    assert float(h.get("ry")) == pytest.approx(20 / 25.4, abs=1e-4)
    assert h.get("transform") == "rotate(30 25 5)"
    assert (float(h.get("cx")), float(h.get("cy"))) == (25, 5)


def test_y_axis_points_up(board):
    table, figs = board
    root = parse(render_svg(table, figs))
    vb_h = float(root.get("viewBox").split()[3])
    _, low = to_screen(root, 4, 1)
    _, high = to_screen(root, 4, 19)
    assert low > high  # y = 1 is drawn below y = 19
    assert low > vb_h / 2 > high
    # the table's bottom-left corner (0, 0) is left of and below its top-right corner
    x0, y0 = to_screen(root, 0, 0)
    x1, y1 = to_screen(root, table.width, table.height)
    assert x0 < x1 and y0 > y1
    assert (x1 - x0, y0 - y1) == (pytest.approx(table.width * PX), pytest.approx(table.height * PX))


def test_oval_front_points_along_facing_on_screen():
    """An oval facing 90° (board +y) is drawn with its long axis vertical, front up."""
    f = Figure("h", "u", "zerg", OvalBase(100, 40, 90), 10, 10)
    root = parse(render_svg(Table(20, 20), [f]))
    tick = next(el for el in root.iter() if el.get("class") == "facing")
    (xa, ya), (xb, yb) = [tuple(map(float, p.split(","))) for p in tick.get("points").split()]
    sa, sb = to_screen(root, xa, ya), to_screen(root, xb, yb)
    assert sb[1] < sa[1]  # the front end is higher on screen
    assert sb[0] == pytest.approx(sa[0])


def test_ids_and_labels(board):
    table, figs = board
    root = parse(render_svg(table, figs))
    texts = {"".join(t.itertext()) for t in root.iter(f"{{{NS['s']}}}text")}
    for f in figs:
        assert f.id in texts
    for p in table.pieces:
        assert p.id in texts
    assert "S2 ES5" in texts  # the wall stacked on the Size 3 hill


def test_labels_are_upright(board):
    """Label transform × board transform has a positive y scale: text is not mirrored."""
    table, figs = board
    root = parse(render_svg(table, figs))
    gd = matrix(board_group(root).get("transform"))[3]
    label = next(el for el in root.iter() if (el.get("class") or "").startswith("label"))
    m = re.search(r"scale\(([-\d.]+) ([-\d.]+)\)", label.get("transform"))
    sx, sy = float(m.group(1)), float(m.group(2))
    assert gd * sy == pytest.approx(1.0) and PX * sx == pytest.approx(1.0)


def test_leaders_marked(board):
    table, figs = board
    root = parse(render_svg(table, figs, leaders={"m2", "h1"}))
    rings = [el for el in root.iter() if el.get("class") == "leader"]
    assert len(rings) == 2
    ms = models(root)
    assert ms["m2"].get("data-leader") == "true" and ms["h1"].get("data-leader") == "true"
    assert ms["m1"].get("data-leader") is None
    ring = next(r for r in rings if r.tag.endswith("circle"))
    assert float(ring.get("r")) > R32 and (float(ring.get("cx")), float(ring.get("cy"))) == (4, 19)


def test_terrain_present_and_shaded(board):
    table, figs = board
    root = parse(render_svg(table, figs))
    shapes = {el.get("data-terrain"): el for el in root.iter() if el.get("data-terrain")}
    assert sorted(shapes) == sorted(p.id for p in table.pieces)
    assert shapes["crater"].tag.endswith("circle") and float(shapes["crater"].get("r")) == 2
    # Size shading: the Size 3 hill, the Size 2 wall and the Size 0 crater differ
    fills = {k: v.get("fill") for k, v in shapes.items()}
    assert len({fills["hill"], fills["wall"], fills["crater"]}) == 3
    # the stacked wall is drawn after (above) the hill it stands on
    order = [el.get("data-terrain") for el in root.iter() if el.get("data-terrain")]
    assert order.index("hill") < order.index("wall")
    # a rectangle's outline is its four corners
    d = shapes["hill"].get("d")
    assert d == "M2 2 L2 8 L10 8 L10 2 Z" or sorted(re.findall(r"[\d.]+ [\d.]+", d)) == ["10 2", "10 8", "2 2", "2 8"]


def test_fill_by_height(board):
    table, figs = board
    root = parse(render_svg(table, figs, fill_by="height"))
    fills = {el.get("data-terrain"): el.get("fill") for el in root.iter() if el.get("data-terrain")}
    # hill top 3", wall top 4.5", crater flat, grass 1": four different bins, four shades
    assert [height_bin(h) for h in (0, 1.0, 3.0, 4.5)] == [0, 1, 3, 5]
    assert len(set(fills.values())) == 4
    with pytest.raises(GeometryError):
        render_svg(table, figs, fill_by="colour")


def test_side_colours(board):
    table, figs = board
    root = parse(render_svg(table, figs, side_colours={"terran": "#123456"}))
    ms = models(root)
    assert ms["m1"].get("fill") == "#123456"
    assert ms["h1"].get("fill") == ms["q1"].get("fill") != "#123456"


def test_escaping():
    f = Figure('a<&"b', 'u&"<', "side<1>", RoundBase(32), 5, 5)
    svg = render_svg(Table(10, 10, (Piece.rect("p&<q", 1, 1, 2, 2, size=1),)), [f],
                     title='x < y & "z"', leaders=[f.id], layers=[Layer('la"y<er', [svg_label(1, 1, "<b>&", "witness")])])
    root = parse(svg)  # well-formed
    texts = {"".join(t.itertext()) for t in root.iter(f"{{{NS['s']}}}text")}
    assert {'a<&"b', 'x < y & "z"', "p&<q", "<b>&", "side<1>"} <= texts
    assert models(root)['a<&"b'].get("data-unit") == 'u&"<'
    assert root.find(".//s:g[@data-layer='la\"y<er']", NS) is not None


def test_deterministic(board):
    table, figs = board
    layers = [Layer("sight", [svg_polyline([(1, 1), (5.123456789, 7)], "witness")])]
    a = render_svg(table, figs, layers, title="same", leaders=["m1"])
    b = render_svg(table, list(figs), list(layers), title="same", leaders=("m1",))
    assert a == b


def test_layers_drawn_in_board_coordinates_above_models(board):
    table, figs = board
    hole = shapely.Polygon([(0, 0), (6, 0), (6, 6), (0, 6)], [[(2, 2), (4, 2), (4, 4), (2, 4)]])
    layer = Layer("demo", [
        svg_polyline([(1, 1), (2, 3.5)], "path"),
        svg_geometry(hole, "goal"),
        svg_geometry(shapely.MultiPolygon([shapely.box(0, 0, 1, 1), shapely.box(3, 3, 4, 4)]), "template"),
        svg_geometry(shapely.LineString([(0, 0), (1, 1)]), "witness"),
        svg_geometry(shapely.Point(2, 2), "violation"),
        svg_geometry(shapely.Polygon(), "blocker"),
        svg_circle(1, 2, 0.5, "end-base", stroke_dasharray="1 1"),
    ])
    svg = render_svg(table, figs, [layer])
    root = parse(svg)
    g = root.find(".//s:g[@data-layer='demo']", NS)
    assert g in list(board_group(root))  # inside the flipped group: board coordinates
    kids = list(g)
    assert [k.get("class") for k in kids] == ["path", "goal", "template", "witness", "violation", "end-base"]
    assert kids[0].get("points") == "1,1 2,3.5"
    assert kids[1].get("d").count("M") == 2 and kids[1].get("fill-rule") == "evenodd"  # hole kept
    assert kids[2].get("d").count("M") == 2
    assert kids[3].tag.endswith("polyline")
    assert kids[4].tag.endswith("circle") and kids[4].get("cx") == "2"
    assert kids[5].get("stroke-dasharray") == "1 1"
    order = [el for el in board_group(root)]
    assert order.index(g) > max(order.index(m) for m in models(root).values())
    # every overlay class has its own style
    css = root.find("s:style", NS).text
    for cls in ("witness", "blocker", "path", "goal", "end-base", "template", "violation"):
        assert re.search(rf"^\.{cls} \{{", css, re.M), cls


def test_numbers_are_compact_and_finite():
    assert svg_circle(1.00000001, -0.0, 2.5, "x") == '<circle class="x" cx="1" cy="0" r="2.5"/>'
    with pytest.raises(GeometryError):
        svg_circle(float("nan"), 0, 1, "x")


def test_state_convenience(board):
    """render_svg(state, layers) draws a game state (duck-typed; no rules import here)."""
    table, figs = board

    class U:
        def __init__(self, leader):
            self.leader = leader

    class S:
        def __init__(self):
            self.table, self.units = table, [U("m1"), U(None)]

        def all_figures(self):
            return figs

    layer = Layer("x", [svg_circle(1, 1, 1, "goal")])
    svg = render_svg(S(), [layer])
    root = parse(svg)
    assert len(models(root)) == 4 and models(root)["m1"].get("data-leader") == "true"
    assert root.find(".//s:g[@data-layer='x']", NS) is not None


def test_crop_window_grows_to_whole_inches_and_stays_on_the_table():
    from tapeline.board.render import crop_window

    # a 2" box at (1, 1)-(3, 3): grown about its centre to 10" × 6" (-3..7, -1..5), moved inside
    assert crop_window((1, 1, 3, 3), 54, 36) == (0, 0, 10, 6)
    # near the far corner: (50, 30)-(53, 35) → whole inches 46..57 × 29..36, moved 3" left
    assert crop_window((50, 30, 53, 35), 54, 36) == (43, 29, 54, 36)
    # larger than the table: the table
    assert crop_window((-5, -5, 80, 50), 54, 36) == (0, 0, 54, 36)
    with pytest.raises(GeometryError):
        crop_window((3, 3, 1, 1), 54, 36)


def test_a_cropped_picture_zooms_the_board_not_its_text(board):
    table, figs = board
    whole = parse(render_svg(table, figs, [Layer("l", [], labels=[])]))
    cropped = parse(render_svg(table, figs, crop=(20, 2, 30, 8)))
    view = cropped.find(".//s:svg[@class='view']", NS)
    assert view.get("data-view") == "20 2 30 8"
    a = matrix(board_group(cropped).get("transform"))[0]
    assert a == 3 * PX  # 10" shown 600 px wide: zoomed in 3×, the most
    assert float(view.get("width")) == 10 * 3 * PX
    # labels keep their size on the screen: their scale is undone by the zoom
    k = [t.get("transform") for t in cropped.iter(f"{{{NS['s']}}}text") if "tlabel" in (t.get("class") or "")]
    assert k and all(f"scale({1 / (3 * PX):.4f}".rstrip("0") in t for t in k)
    assert cropped.find(".//s:path[@class='scale']", NS) is not None and whole.find(".//s:path[@class='scale']", NS) is not None
