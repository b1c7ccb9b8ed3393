"""The web table's analysis maps over HTTP (``POST /api/analyse``, docs/web-table.md "Maps"): the
answer is the object ``tapeline analyse FILE --step S --json`` prints, its layers hold exactly
the analysis' values cell by cell, it is kept while the layout is unchanged and computed anew
when the layout changes, a step too fine is refused before any work, a table without zones
gets a located message, and zones drawn in the page are validated as a file's are."""

from __future__ import annotations

import copy
import re

import pytest
from starlette.testclient import TestClient

from tapeline.scenarios.game import Game
from tapeline.scenarios.web.app import app
from tapeline.scenarios.web.maps import MAX_CELLS
from tapeline.scenarios.web.table import Table
from tests.conftest import EXAMPLES, cli_json
from tests.scenarios.test_serve_api import two

SHOW = EXAMPLES / "showcase.yaml"
T40K = EXAMPLES / "table-40k.yaml"
URL = "http://127.0.0.1:8750"
CELL = re.compile(r'data-cell="(\d+),(\d+)" data-value="([^"]+)"')


def client(table: Table) -> TestClient:
    return TestClient(app(table), base_url=URL)


@pytest.fixture
def analyses(monkeypatch) -> list[float]:
    """The steps of the analyses actually computed (not answered from those kept)."""
    done: list[float] = []
    real = Game.analyse

    def counted(self: Game, **kw):  # type: ignore[no-untyped-def]
        done.append(kw["step"])
        return real(self, **kw)

    monkeypatch.setattr(Game, "analyse", counted)
    return done


@pytest.fixture(scope="module")
def shown() -> dict:
    """The showcase's maps as the page asks for them first: no step given, the default 2"."""
    r = client(Table.open(str(SHOW))).post("/api/analyse", json={})
    assert r.status_code == 200
    return r.json()


def test_the_answer_is_what_tapeline_analyse_prints(shown):
    code, want = cli_json("analyse", str(SHOW), "--step", "2")
    assert code == 0 and shown["analysis"] == want
    assert shown["cells"] == 27 * 18 and shown["limit"] == MAX_CELLS


def test_the_probe_options_are_the_commands():
    code, want = cli_json("analyse", str(T40K), "--step", "6", "--probe-base", "40", "--probe-height", "2")
    r = client(Table.open(str(T40K))).post("/api/analyse", json={"step": 6, "probe_base": 40, "probe_height": 2})
    assert code == 0 and r.status_code == 200 and r.json()["analysis"] == want


def _cells(svg: str) -> dict[tuple[int, int], float]:
    return {(int(i), int(j)): float(v) for i, j, v in CELL.findall(svg)}


def test_every_layer_holds_the_analysis_values_cell_by_cell(shown):
    a = shown["analysis"]
    layers = {(la["map"], la["side"]): la for la in shown["layers"]}
    assert list(layers) == [(m, s) for m in ("exposure", "hidden", "reach") for s in a["sides"]]
    for s in a["sides"]:
        for kind, rows in (("exposure", a["exposure"][s]), ("reach", a["reach"][s]),
                           ("hidden", [[0.0 if n == 0 else None for n in row] for row in a["seen_from"][s]])):
            want = {(i, j): v for j, row in enumerate(rows) for i, v in enumerate(row) if v is not None}
            layer = layers[(kind, s)]
            assert _cells(layer["svg"]) == want and layer["cells"] == len(want)
            assert layer["svg"].startswith(f'<g class="layer map-layer" data-map="{kind}" data-side="{s}">')
            assert layer["svg"].count('class="zone"') == len(a["zones"])  # the zones outlined
        # hidden spots: as many as the analysis counts
        assert layers[("hidden", s)]["cells"] == a["hidden"][s]
        # the reach map's contours, at the charge distances (StarCraft: Speed 4 + 1 ... + 6)
        assert layers[("reach", s)]["contours"] == a["charge_distances"] == [5, 6, 7, 8, 9, 10]
        assert layers[("reach", s)]["svg"].count('class="reach-contour"') >= 1
        assert layers[("exposure", s)]["scale"] == {"colours": layers[("exposure", s)]["scale"]["colours"], "low": 0.0,
                                                     "high": 1.0, "unit": "", "percent": True}
    # the cells are the grid's: column i, row j centred at (1 + 2i, 1 + 2j), a 2" square each
    first = re.search(r'<rect x="([\d.]+)" y="([\d.]+)" width="2" height="2"[^>]*data-cell="(\d+),(\d+)"', layers[("exposure", "terran")]["svg"])
    assert first and (float(first[1]), float(first[2])) == (2 * int(first[3]), 2 * int(first[4]))


def test_kept_while_the_layout_is_unchanged_and_computed_anew_when_it_changes(analyses):
    table = Table.open(str(SHOW))
    c = client(table)
    first = c.post("/api/analyse", json={"step": 3}).json()
    assert c.post("/api/analyse", json={"step": 3}).json() == first and analyses == [3.0]
    # a model moved: the layout (units are no part of it) is the same, the maps are kept
    doc = table.document()
    assert doc["units"][0]["models"][0] == {"id": "a1", "at": [17, 25]}
    doc["units"][0]["models"][0]["at"] = [17, 24.7]
    assert c.put("/api/scenario", json=doc).status_code == 200
    assert c.post("/api/analyse", json={"step": 3}).json() == first and analyses == [3.0]
    # another step is another analysis
    assert c.post("/api/analyse", json={"step": 4}).status_code == 200 and analyses == [3.0, 4.0]
    # a piece taken off the table: the layout changed, computed anew, and the answer is the
    # command's for the new table
    doc["terrain"] = [t for t in doc["terrain"] if t["id"] != "tower-se"]
    assert c.put("/api/scenario", json=doc).status_code == 200
    again = c.post("/api/analyse", json={"step": 3}).json()
    assert analyses == [3.0, 4.0, 3.0] and again["analysis"] != first["analysis"]
    assert again == Maps_of(doc, 3)


def Maps_of(doc: dict, step: float) -> dict:
    """The answer a fresh table of ``doc`` gives (nothing kept)."""
    t = Table(doc, file=str(SHOW))
    return client(t).post("/api/analyse", json={"step": step}).json()


@pytest.mark.parametrize("body, location, says", [
    ({"step": 0.5}, "step", f'a 0.5" step gives 7,776 positions on the 54" x 36" table; the web table maps at most {MAX_CELLS:,}'),
    ({"step": 0}, "step", "a step from 0.1 to 12 inches, not 0"),
    ({"step": 13}, "step", "a step from 0.1 to 12 inches"),
    ({"step": "2"}, "step", "a number"),
    ({"step": True}, "step", "a number"),
    ({"step": 2, "probe_base": 1000}, "probe_base", "a number from"),
    ({"step": 2, "probe_size": "big"}, "probe_size", ""),
    ({"stepp": 2}, "stepp", "not an analysis option"),
    ([2], "body", "a JSON object"),
])
def test_a_bad_request_is_refused_located_before_any_work(body, location, says, analyses):
    table = Table.open(str(SHOW))
    r = client(table).post("/api/analyse", json=body)
    assert r.status_code == 422 and r.json()["error"]["location"] == location and says in r.json()["error"]["message"]
    assert analyses in ([], [2.0])  # (a probe option is checked by Game.analyse itself, before its grid)
    assert "Traceback" not in r.text


def test_the_one_inch_step_of_the_standard_table_is_within_the_limit():
    assert 54 * 36 <= MAX_CELLS < 72 * 48


def test_a_table_without_zones_gets_a_clear_message_and_drawn_zones_are_validated():
    table = Table(two())
    c = client(table)
    r = c.post("/api/analyse", json={"step": 3})
    assert r.status_code == 422 and r.json()["error"]["location"] == "zones"
    assert "needs the zones of two sides" in r.json()["error"]["message"]
    # a zone off the table, a zone of a side no unit has: refused, located, the table unchanged
    before = table.document()
    for zone, location, says in (({"id": "z", "side": "terran", "footprint": {"rect": [20, 0, 6, 24]}}, "zones[0].footprint", "off the table by 2"),
                                 ({"id": "z", "side": "protoss", "footprint": {"rect": [0, 0, 6, 24]}}, "zones[0].side", "no unit has side")):
        doc = copy.deepcopy(before)
        doc["zones"] = [zone]
        r = c.put("/api/scenario", json=doc)
        errors = r.json()["errors"]
        assert r.status_code == 422 and errors[0]["location"] == location and says in errors[0]["message"], errors
        assert table.document() == before
    # a rect for each side, as the page's Zone tool draws them: kept, and the table maps
    doc = copy.deepcopy(before)
    doc["zones"] = [{"id": "terran-zone-1", "side": "terran", "footprint": {"rect": [0, 0, 6, 24]}},
                    {"id": "zerg-zone-1", "side": "zerg", "footprint": {"rect": [18, 0, 6, 24]}}]
    assert c.put("/api/scenario", json=doc).status_code == 200
    r = c.post("/api/analyse", json={"step": 3})
    assert r.status_code == 200
    a = r.json()["analysis"]
    # an open 24" x 24" table: every pair of zone positions sees each other, nothing is hidden;
    # 2 x 8 cell centres in each zone (x = 1.5, 4.5 and 19.5, 22.5)
    assert a["sides"] == ["terran", "zerg"] and a["positions"] == {"terran": 16, "zerg": 16}
    assert a["open_lanes"] == 1.0 and a["hidden"] == {"terran": 0, "zerg": 0}
    assert a["longest_lane"]["length"] == pytest.approx((21 ** 2 + 21 ** 2) ** 0.5)


def test_ids_are_escaped_in_the_layers():
    doc = two()
    doc["units"][0]["side"] = '<b x="1">terran</b>'
    doc["zones"] = [{"id": "a", "side": '<b x="1">terran</b>', "footprint": {"rect": [0, 0, 6, 24]}},
                    {"id": "b", "side": "zerg", "footprint": {"rect": [18, 0, 6, 24]}}]
    r = client(Table(doc)).post("/api/analyse", json={"step": 6})
    assert r.status_code == 200
    svg = r.json()["layers"][0]["svg"]
    assert 'data-side="&lt;b x=&quot;1&quot;&gt;terran&lt;/b&gt;"' in svg and "<b" not in svg


def test_the_answer_is_deterministic():
    one = client(Table.open(str(T40K))).post("/api/analyse", json={"step": 6})
    two_ = client(Table.open(str(T40K))).post("/api/analyse", json={"step": 6})
    assert one.status_code == 200 and one.content == two_.content


def test_the_picture_draws_the_zones_when_asked():
    c = client(Table.open(str(SHOW)))
    svg = c.post("/api/svg", json={"overlays": {"zones": True}}).json()["svg"]
    assert svg.count('class="zone"') == 2 and ">terran-deployment (terran)</text>" in svg and ">zerg-deployment (zerg)</text>" in svg
    assert 'class="zone"' not in c.post("/api/svg", json={"overlays": {}}).json()["svg"]
    r = c.post("/api/svg", json={"overlays": {"zones": "yes"}})
    assert r.status_code == 422 and r.json()["error"]["location"] == "overlays.zones"
    doc = two()
    doc["units"][0]["side"] = "<i>terran</i>"
    doc["zones"] = [{"id": "<b>z</b>", "side": "<i>terran</i>", "footprint": {"rect": [0, 0, 6, 24]}}]
    svg = client(Table(doc)).post("/api/svg", json={"overlays": {"zones": True}}).json()["svg"]
    assert "&lt;b&gt;z&lt;/b&gt; (&lt;i&gt;terran&lt;/i&gt;)" in svg and "<b>" not in svg and "<i>" not in svg
