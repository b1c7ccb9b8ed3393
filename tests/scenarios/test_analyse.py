"""The table analysis against references worked out without it: every exposure value of small
grids against one ``los`` per pair of probe models placed there (StarCraft's Size rules, Horus
Heresy's heights), null cells against the loader's own verdict on a model standing there, reach
values against the shortest path from every zone position and ``Game.path`` along it, a reach
map on an open table by hand."""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest

import tapeline
from tapeline.board.paths import shortest_path
from tapeline.rules.charge_geometry import space_for
from tapeline.scenarios import analysis
from tapeline.scenarios.errors import ScenarioError
from tapeline.scenarios.game import parse_text
from tests.conftest import EXAMPLES, cli, cli_json

#: A small StarCraft table: a Size 3 block (Full Cover for Size 2 probes), a low wall (Size 1:
#: Direct Cover only near it), an impassable tower; zones along the short edges.
STARCRAFT = """\
tapeline: 1
system: starcraft
board: {width: 16, height: 10}
terrain:
  - {id: block, footprint: {rect: [6, 3, 2, 3]}, size: 3, height: 3}
  - {id: wall, footprint: {rect: [10.5, 6, 0.4, 3]}, size: 1, height: 1}
  - {id: tower, footprint: {circle: [4, 8, 1.2]}, size: 4, traits: [impassable]}
zones:
  - {id: west, side: red, footprint: {rect: [0, 0, 4, 10]}}
  - {id: east, side: blue, footprint: {rect: [12, 0, 4, 10]}}
units: []
"""

#: A small Horus Heresy table: a tall ruin and a low barricade (true line of sight by heights).
HERESY = """\
tapeline: 1
system: heresy
board: {width: 16, height: 10}
terrain:
  - {id: ruin, footprint: {polygon: [[6, 2], [9, 2], [9, 3], [7, 3], [7, 7], [6, 7]]}, height: 4}
  - {id: barricade, footprint: {rect: [10, 5, 2, 0.4]}, height: 1}
  - {id: bunker, footprint: {rect: [2, 6.5, 1.5, 1.5]}, height: 3, traits: [impassable]}
zones:
  - {id: south, side: red, footprint: {rect: [0, 0, 16, 3]}}
  - {id: north, side: blue, footprint: {polygon: [[0, 7], [16, 7], [16, 10], [0, 10]]}}
units: []
"""

STEP = 2.0


def _centres(width: float, height: float, step: float) -> list[tuple[float, float]]:
    """Row by row from the bottom, as the maps' rows are."""
    return [(step / 2 + i * step, step / 2 + j * step) for j in range(int(height // step)) for i in range(int(width // step))]


def _model_line(k: int, x: float, y: float, base: float, on: str = "") -> str:
    where = f", on: {on}" if on else ""
    side = ("red", "blue")[k % 2]  # (size: StarCraft's Size 2 probe; the other systems read none)
    return f"  - {{id: u{k}, side: {side}, size: 2, base: {base}, models: [{{id: m{k}, at: [{x}, {y}]{where}}}]}}\n"


def _bare(layout: str) -> str:
    """The layout without its zones (a reference game needs none)."""
    head, rest = layout.split("zones:\n")
    return head + rest[rest.index("units:"):]


def _stands(layout: str, x: float, y: float, base: float) -> bool:
    """The loader's own verdict on one model standing at ``(x, y)``: on the table and not
    overlapping impassable terrain."""
    try:
        parse_text(_bare(layout).replace("units: []\n", "units:\n" + _model_line(0, x, y, base)))
    except ScenarioError:
        return False
    return True


def _in_rect(p: tuple[float, float], x0: float, y0: float, x1: float, y1: float) -> bool:
    return x0 <= p[0] <= x1 and y0 <= p[1] <= y1


def _brute(layout: str, base: float, zones: dict[str, tuple[float, float, float, float]]):
    """Exposure counts by one ``los`` per pair of models, in one game holding a one-model unit
    at every standable position (no two bases overlap at a 2" step; models block no sight)."""
    cells = _centres(16, 10, STEP)
    ok = [_stands(layout, x, y, base) for x, y in cells]
    units = "".join(_model_line(k, x, y, base) for k, ((x, y), good) in enumerate(zip(cells, ok)) if good)
    game = parse_text(_bare(layout).replace("units: []\n", "units:\n" + units))
    own = {s: [k for k, c in enumerate(cells) if ok[k] and _in_rect(c, *r)] for s, r in zones.items()}
    sides = list(zones)
    counts = {}
    for s, other in ((sides[0], sides[1]), (sides[1], sides[0])):
        counts[s] = [None if not ok[k] else sum(1 for z in own[other] if z == k or game.los(f"m{k}", f"m{z}").visible)
                     for k in range(len(cells))]
    return cells, ok, own, counts, game


@pytest.mark.parametrize("layout, base, zones", [
    (STARCRAFT, 32, {"red": (0, 0, 4, 10), "blue": (12, 0, 16, 10)}),
    (HERESY, 32, {"red": (0, 0, 16, 3), "blue": (0, 7, 16, 10)}),
], ids=["starcraft", "heresy"])
def test_every_exposure_value_is_one_los_per_pair(layout, base, zones):
    cells, ok, own, counts, _ = _brute(layout, base, zones)
    a = parse_text(layout).analyse(step=STEP)
    assert a.shape == (8, 5) and a.origin == (1.0, 1.0)
    sides = list(zones)
    for s, other in ((sides[0], sides[1]), (sides[1], sides[0])):
        got_counts = [v for row in a.seen_from[s] for v in row]
        got_exposure = [v for row in a.exposure[s] for v in row]
        assert got_counts == counts[s]
        n = len(own[other])
        assert got_exposure == [None if c is None else pytest.approx(c / n, abs=1e-6) for c in counts[s]]
        assert a.hidden[s] == sum(1 for c in counts[s] if c == 0)
        assert a.positions[other] == n
    pairs = [(i, j) for i in own[sides[0]] for j in own[sides[1]]]
    seen = [counts[sides[1]][i] is not None for i, _ in pairs]  # (every zone cell stands)
    assert all(seen)
    # open lanes: the pairs of zone positions that see each other, counted from the other side
    lanes = sum(counts[sides[0]][j] for j in own[sides[0]]) / len(pairs)
    assert a.open_lanes == pytest.approx(lanes, abs=1e-6)
    # the layouts are not trivial: many different counts, some positions seen from the whole zone
    assert len({c for c in counts[sides[0]] if c is not None}) > 3
    assert max(c or 0 for c in counts[sides[0]]) == len(own[sides[1]])


def test_null_where_the_probe_cannot_stand():
    a = parse_text(STARCRAFT).analyse(step=1.0)
    ex = a.exposure["red"]
    assert ex[0][0] is None  # (0.5, 0.5): a 32 mm base reaches past the table's edges
    assert ex[8][4] is None and ex[7][3] is None  # inside the impassable tower (centre (4, 8), r 1.2)
    assert ex[5][1] is not None and a.reach["red"][0][0] is None
    cells = _centres(16, 10, 1.0)
    for k, (x, y) in enumerate(cells):
        assert (ex[k // 16][k % 16] is not None) == _stands(STARCRAFT, x, y, 32), (x, y)


def test_reach_is_the_shortest_path_from_the_nearest_zone_position():
    game = parse_text(STARCRAFT)
    a = game.analyse(step=STEP)
    P = analysis._Probes(game.state, game.rules, game.rules.probe_defaults, analysis.Grid(16, 10, STEP))
    space = space_for(P.empty, P.moves)
    cells = _centres(16, 10, STEP)
    sources = [c for c in cells if _in_rect(c, 0, 0, 4, 10) and _stands(STARCRAFT, *c, 32)]
    flat = [v for row in a.reach["red"] for v in row]
    checked = 0
    for k in (0, 7, 9, 14, 19, 22, 27, 31, 36, 39):
        t = cells[k]
        paths = [p for s in sources if (p := shortest_path(space, s, t)) is not None]
        if not paths:
            assert flat[k] is None
            continue
        best = min(paths, key=lambda p: p.length)
        assert flat[k] == pytest.approx(best.length, abs=1e-6)
        # the path is a legal move of a probe standing at its start, as `path` checks it
        probe = "  - {id: p, side: red, size: 2, base: 32, models: [{id: m0, at: [%r, %r]}]}\n" % best.start
        g = parse_text(_bare(STARCRAFT).replace("units: []\n", "units:\n" + probe))
        check = g.path("m0", [tuple(q) for q in best.points()[1:]], may_engage=True)
        assert check.legal
        assert best.length - 1e-9 <= check.length <= best.length + 1e-3
        checked += 1
    assert checked >= 6


def test_reach_on_an_open_table_by_hand():
    layout = HERESY.split("terrain:")[0] + "zones:" + HERESY.split("zones:")[1]
    a = parse_text(layout).analyse(step=STEP)
    reach = a.reach["red"]
    # the zone's positions are the rows at y = 1 and y = 3 (centres in y <= 3, its edge
    # included); a position of row j >= 1 is 2(j - 1)" from the nearest, straight down its column
    for j in range(5):
        for i in range(8):
            assert reach[j][i] == pytest.approx(max(0.0, 2.0 * (j - 1)), abs=1e-9)
    assert a.reach_within["red"] == {"12": 1.0}  # the north zone's rows (y = 7, 9) within 12"
    assert a.exposure["red"][4][0] == 1.0 and a.hidden == {"red": 0, "blue": 0} and a.open_lanes == 1.0
    assert a.balance["exposure_difference"] == 0 and a.balance["favours"] is None


def test_words_json_and_picture(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(STARCRAFT)
    code, obj = cli_json("analyse", path, "--step", "2")
    assert code == 0
    for key in ("step", "origin", "shape", "probe", "exposure", "hidden", "open_lanes", "reach", "balance"):
        assert key in obj
    assert obj["shape"] == [8, 5] and len(obj["exposure"]["red"]) == 5 and len(obj["exposure"]["red"][0]) == 8
    code, out, err = cli("analyse", path, "--step", "2", "-o", tmp_path / "m.svg")
    assert code == 0 and "open lanes" in out and "favours" in out or "balance" in out
    svg = (tmp_path / "m.svg").read_text()
    assert svg.startswith("<svg") and svg.count('data-map="') == 4 and "charge distances" in svg
    again = cli("analyse", path, "--step", "2", "-o", tmp_path / "n.svg")
    assert (tmp_path / "n.svg").read_text() == svg and again[1] == out  # deterministic


def test_bad_input_is_one_located_line(tmp_path):
    code, _, err = cli("analyse", EXAMPLES / "charge-roaches-7in.yaml")
    assert code == 2 and err.count("\n") == 1 and "zones:" in err and "two sides" in err
    code, _, err = cli("analyse", EXAMPLES / "showcase.yaml", "--step", "0")
    assert code == 2 and "--step" in err
    code, _, err = cli("analyse", EXAMPLES / "showcase.yaml", EXAMPLES / "table-40k.yaml")
    assert code == 2 and "--out" in err
    with pytest.raises(tapeline.scenarios.errors.ArgumentError):
        tapeline.open(EXAMPLES / "showcase.yaml").analyse(step=0.01)


def test_the_bundled_tables_of_all_three_systems():
    for name, probe in (("showcase.yaml", 32.0), ("table-heresy.yaml", 32.0), ("table-40k.yaml", 25.0)):
        a = tapeline.open(EXAMPLES / name).analyse(step=6.0)
        assert a.probe["base"] == probe and len(a.sides) == 2
        assert 0 < a.open_lanes <= 1 and a.longest_lane is not None
        for s in a.sides:
            vals = [v for row in a.exposure[s] for v in row if v is not None]
            assert vals and all(0 <= v <= 1 for v in vals)
            assert any(v is not None and math.isfinite(v) for row in a.reach[s] for v in row)
    sc = tapeline.open(EXAMPLES / "showcase.yaml").analyse(step=6.0)
    assert sc.charge_distances == (5.0, 6.0, 7.0, 8.0, 9.0, 10.0)
    assert np.isclose(sc.balance["exposure_difference"],
                      sc.balance["exposure"]["terran"] - sc.balance["exposure"]["zerg"], atol=2e-6)


def test_probe_options():
    g = parse_text(textwrap.dedent(HERESY))
    tall = g.analyse(step=STEP, probe_height=5.0)
    short = g.analyse(step=STEP)
    assert tall.probe["height"] == 5.0
    # a 5" model sees over the 4" ruin: no position is more hidden than with the 1.25" probe
    assert tall.hidden["red"] <= short.hidden["red"]
    assert sum(v for row in tall.seen_from["red"] for v in row if v) > sum(v for row in short.seen_from["red"] for v in row if v)


def _showcase_level(x: float, y: float) -> str:
    """The surface under a centre of the showcase, by hand (no centre of a 3" grid lies on an
    edge of these pieces): the ramp, the mesa, else the ground."""
    if 24 < x < 28 and 10 < y < 13:
        return "ramp"
    if 21 < x < 33 and 13 < y < 22:
        return "mesa"
    return ""


def test_showcase_sample_against_los_of_two_probes_on_their_levels():
    """Probes on the mesa and the ramp (the levels under their centres) see as ``los`` says two
    models standing there do."""
    step = 3.0
    game = tapeline.open(EXAMPLES / "showcase.yaml")
    P = analysis._Probes(game.state, game.rules, game.rules.probe_defaults, analysis.Grid(54, 36, step))
    head = (EXAMPLES / "showcase.yaml").read_text().split("\nunits:\n")[0] + "\nunits:\n"
    cells = _centres(54, 36, step)
    zerg = [i for i, k in enumerate(P.cells.tolist()) if cells[k][1] >= 28]
    pairs = [(i, zerg[(7 * i) % len(zerg)]) for i in range(0, len(P.cells), 4)]
    pairs = [(i, j) for i, j in pairs if i != j]
    got = game.rules.sight_pairs(P.state, P.figures, P.figures, np.array([i for i, _ in pairs]), np.array([j for _, j in pairs]))
    assert len(pairs) > 25 and sum(1 for i, _ in pairs if _showcase_level(*cells[P.cells[i]])) >= 3
    for (i, j), seen in zip(pairs, got.tolist()):
        (x, y), (zx, zy) = cells[P.cells[i]], cells[P.cells[j]]
        on, zon = _showcase_level(x, y), _showcase_level(zx, zy)
        assert P.figures[i].on == (on or None) and P.figures[j].on == (zon or None)
        units = (f"  - {{id: p, side: terran, size: 2, base: 32, models: [{{id: p1, at: [{x}, {y}]{', on: ' + on if on else ''}}}]}}\n"
                 f"  - {{id: q, side: zerg, size: 2, base: 32, models: [{{id: q1, at: [{zx}, {zy}]{', on: ' + zon if zon else ''}}}]}}\n")
        assert parse_text(head + units).los("p1", "q1").visible == seen, ((x, y), (zx, zy))
    assert 0 < sum(got) < len(pairs)


def test_a_zone_without_a_position_is_a_located_error(tmp_path):
    layout = STARCRAFT.replace("{id: east, side: blue, footprint: {rect: [12, 0, 4, 10]}}",
                               "{id: east, side: blue, footprint: {circle: [14, 5, 0.2]}}")
    path = tmp_path / "t.yaml"
    path.write_text(layout)
    code, _, err = cli("analyse", path, "--step", "2")
    assert code == 2 and err.count("\n") == 1 and "zones[1]" in err and "no position" in err
    code, _, err = cli("analyse", path, "--step", "2", "--out", tmp_path / "o")
    assert code == 2 and "zones[1]" in err


def test_a_flying_probe_sees_and_is_seen_everywhere():
    # §7.1.4: Full Cover never applies when a model is Flying, nor Direct Cover to the Flying
    # model: between two Flying probes no piece blocks, so every position is seen by the whole
    # other zone
    a = parse_text(STARCRAFT).analyse(step=STEP, probe_flying=True)
    assert a.probe["flying"] is True
    for s in a.sides:
        assert {v for row in a.exposure[s] for v in row if v is not None} == {1.0}
    assert a.open_lanes == 1.0 and a.hidden == {"red": 0, "blue": 0}
    code, _, err = cli("analyse", EXAMPLES / "table-40k.yaml", "--probe-flying")
    assert code == 2 and "--probe-flying" in err and "StarCraft" in err


def test_showcase_reach_onto_the_mesa_climbs_its_ramp():
    step = 3.0
    game = tapeline.open(EXAMPLES / "showcase.yaml")
    a = game.analyse(step=step)
    P = analysis._Probes(game.state, game.rules, game.rules.probe_defaults, analysis.Grid(54, 36, step))
    space = space_for(P.empty, P.moves)
    cells = _centres(54, 36, step)
    sources = [cells[k] for k in P.cells.tolist() if cells[k][1] <= 8]
    cols = a.shape[0]
    for t in ((25.5, 16.5), (31.5, 19.5), (10.5, 13.5), (40.5, 16.5)):
        k = cells.index(t)
        got = a.reach["terran"][k // cols][k % cols]
        want = min(p.length for s in sources if (p := shortest_path(space, s, t)) is not None)
        assert got == pytest.approx(want, abs=1e-6), t
    # by hand: (25.5, 16.5) is straight up from the zone position (25.5, 7.5), through the
    # ramp's foot (y 10) and top (y 13), both doors between x 24 and 28: 9"; (31.5, 16.5) is
    # not, straight up would climb the mesa's cliff at y 13: it goes round by the ramp
    k = cells.index((25.5, 16.5))
    assert a.reach["terran"][k // cols][k % cols] == pytest.approx(9.0, abs=1e-9)
    k = cells.index((31.5, 16.5))
    assert a.reach["terran"][k // cols][k % cols] > 9.0 + 0.5
