"""Pictures a judge can read: labels off the models a verdict is about, a legend entry for every
overlay, side colours far from the highlight colours."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import shapely

from tapeline.board.render import (
    KNOWN_SIDES, LEADER, PALETTE, STYLES, Layer, label_box, label_spot, render_svg, svg_circle,
    svg_polyline,
)
from tapeline.board.bases import RoundBase
from tapeline.board.table import Figure, Table
from tapeline.scenarios.load import read
from tests.conftest import EXAMPLES, cli

NS = {"s": "http://www.w3.org/2000/svg"}
SHOW = EXAMPLES / "showcase.yaml"


def _lab(hex_colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour, written out from the CIE formulas."""
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(c1: str, c2: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(_lab(c1), _lab(c2))) ** 0.5


def test_delta_e_reference_values():
    assert delta_e("#ffffff", "#000000") == __import__("pytest").approx(100, abs=0.01)
    assert delta_e("#2f66c4", "#2f66c4") == 0


def test_side_colours_never_collide_with_highlights():
    sides = list(KNOWN_SIDES.values()) + list(PALETTE)
    highlights = [LEADER] + [c for s in STYLES.values() for c in (s.colour, s.fill) if c]
    for side, hl in itertools.product(sides, highlights):
        assert delta_e(side, hl) >= 25, (side, hl)
    for a, b in itertools.combinations(sides, 2):
        assert delta_e(a, b) >= 20, (a, b)


def _labels(svg: str, layer: str) -> list[tuple[float, float, str]]:
    root = ET.fromstring(svg)
    g = root.find(f".//s:g[@data-layer='{layer}']", NS)
    out = []
    for t in g.iter(f"{{{NS['s']}}}text"):
        x, y = map(float, re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", t.get("transform")).groups())
        out.append((x, y, t.text))
    return out


def _legend_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text for t in root.iter(f"{{{NS['s']}}}text") if t.get("class") == "legend"]


def _render(*args: str) -> str:
    code, out, err = cli("render", SHOW, *args, "-o", "-")
    assert code == 0, err
    return out


def test_blocked_sight_label_leaves_the_two_models_uncovered():
    st = read(SHOW).state
    svg = _render("--los", "c2", "zb1")  # mesa-wall stands right between them (full_cover)
    labels = _labels(svg, "los")
    assert any("mesa-wall" in t for _, _, t in labels)
    for x, y, text in labels:
        box = label_box(x, y, text)
        for m in ("c2", "zb1"):
            assert not box.intersects(st.figure(m).polygon), (text, m)


def test_visible_sight_label_leaves_the_two_models_uncovered():
    st = read(SHOW).state
    svg = _render("--los", "a6", "za5")
    for x, y, text in _labels(svg, "los"):
        for m in ("a6", "za5"):
            assert not label_box(x, y, text).intersects(st.figure(m).polygon)


def test_charge_label_leaves_leader_and_targets_uncovered():
    st = read(SHOW).state
    svg = _render("--charge", "roaches", "--target", "marines-bravo")
    keep = [st.figure("r2")] + st.figures_of("marines-bravo")
    for x, y, text in _labels(svg, "charge"):
        assert not any(label_box(x, y, text).intersects(f.polygon) for f in keep), text


def test_label_spot_moves_off_a_base_and_stays_put_when_clear():
    m = Figure("m1", "u", "s", RoundBase(40), 10, 10)
    x, y = label_spot(10, 10, "a long label text", keep_clear=[m])
    assert not label_box(x, y, "a long label text").intersects(m.polygon)
    assert label_spot(3, 3, "free", keep_clear=[m]) == (3, 3)


def test_every_overlay_has_a_legend_entry():
    cases = {
        ("--los", "c2", "zb1"): ["blocks sight c2 → zb1", "c2 and zb1", "centre to centre"],
        ("--los", "a6", "za5"): ["sight line a6 → za5 (witness)", "a6 and za5"],
        ("--charge", "roaches", "--target", "marines-bravo"):
            ["shortest charge path of roaches", "goal region (legal end spots)", "Leading Model's end spot"],
    }
    for args, expected in cases.items():
        texts = _legend_texts(_render(*args))
        for e in expected:
            assert e in texts, (args, e, texts)
    assert not {"sight line", "path"} & set(_legend_texts(_render()))  # no overlay, no entries


def test_legend_entries_for_every_registered_class_and_unknown_ones():
    table = Table(20, 10)
    figs = [Figure("m1", "u", "terran", RoundBase(32), 3, 3)]
    elements = [svg_circle(5, 5, 1, cls) for cls in STYLES] + [svg_polyline([(1, 1), (2, 2)], "ruler")]
    texts = _legend_texts(render_svg(table, figs, [Layer("all", elements, {"template": "flamer at (5, 5)"})]))
    for cls, style in STYLES.items():
        assert (style.legend if cls != "template" else "flamer at (5, 5)") in texts, cls
    assert "ruler" in texts  # a class nobody registered is still named


def test_legend_fits_the_picture_width():
    table = Table(12, 8)
    svg = render_svg(table, [], [Layer("all", [svg_circle(5, 5, 1, cls) for cls in STYLES])])
    root = ET.fromstring(svg)
    width = float(root.get("width"))
    for t in root.iter(f"{{{NS['s']}}}text"):
        if t.get("class") == "legend":
            assert float(t.get("x")) < width


OVERLAY_CASES = [
    (SHOW, ("--los", "c2", "zb1")),
    (SHOW, ("--los", "a6", "za5")),
    (EXAMPLES / "charge-roaches-7in.yaml", ("--charge", "roaches", "--target", "marines")),
    (EXAMPLES / "template-siege-tank.yaml", ("--template", "siege-tank", "crucio-shock-cannon", "z1")),
    (EXAMPLES / "template-40k-blast.yaml", ("--template", "blast", "--at", "12,12")),
    (EXAMPLES / "fight-zerglings-two-units.yaml", ("--ranks", "zerglings")),
]


def test_every_class_an_overlay_draws_is_in_the_legend():
    """Whatever overlay module drew it (sight lines, charges, templates, ranks ...): each class
    used inside the picture's layers has its own legend entry."""
    for file, args in OVERLAY_CASES:
        code, out, err = cli("render", file, *args, "-o", "-")
        assert code == 0, (args, err)
        root = ET.fromstring(out)
        used = set()
        for g in root.iter(f"{{{NS['s']}}}g"):
            if g.get("class") == "layer":
                for el in g.iter():
                    used.update((el.get("class") or "").split())
        used -= {"label", "layer"}
        keys = {t.get("data-legend") for t in root.iter(f"{{{NS['s']}}}text") if t.get("data-legend")}
        assert used and used <= keys, (args, used - keys)
