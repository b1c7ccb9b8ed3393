"""The web table's analysis maps in a real headless Chromium (as tests/scenarios/test_serve_browser.py,
skipped without Playwright or a browser): switch the Maps on for the showcase, switch a layer on
and see its heatmap cells appear over the board with their data attributes — the values of
``tapeline analyse --step 3 --json`` — read the headline figures, see the maps dropped and
computed again when the terrain changes, and draw zones on a blank table. A screenshot of each
step is written under the test's temporary folder (not committed)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import cli_json
from tests.scenarios.test_serve_browser import SHOW, Page, browser, serve, shots  # noqa: F401 - the fixtures

WAIT = 120_000  # ms: the analysis on a busy machine


def maps_answered(page: Page) -> None:
    """Wait until every request is answered and the maps are shown or refused."""
    page.page.wait_for_timeout(50)
    page.page.wait_for_function("() => document.body.dataset.pending === '0' && "
                                "['answered', 'refused'].includes(document.getElementById('maps').dataset.state)", timeout=WAIT)


def test_switch_a_map_layer_on_and_read_the_figures(browser, serve, shots, tmp_path):  # noqa: F811 - fixtures
    page = Page(browser, serve(str(SHOW)), shots)
    p = page.page
    assert p.locator("#board g.map-layer").count() == 0
    p.check("#maps-on")  # (the default 2" step: asked, then dropped for the 3" one below)
    p.select_option("#maps-step", "3")
    maps_answered(page)
    assert p.get_attribute("#maps", "data-state") == "answered"
    code, want = cli_json("analyse", str(SHOW), "--step", "3")
    assert code == 0
    assert p.locator("#board g.map-layer").count() == 0  # nothing drawn until a layer is switched on

    # the terran exposure layer: a cell per standable position, each the command's value
    p.check('#maps-layers input[data-map="exposure"][data-side="terran"]')
    cells = p.eval_on_selector_all('#board g.map-layer[data-map="exposure"][data-side="terran"] rect[data-cell]',
                                   "rs => rs.map(r => [r.dataset.cell, Number(r.dataset.value)])")
    rows = want["exposure"]["terran"]
    expected = sorted([f"{i},{j}", v] for j, row in enumerate(rows) for i, v in enumerate(row) if v is not None)
    assert sorted(cells) == expected and len(cells) == want["standable"]
    # drawn under the models: every model stays on top (and can still be picked)
    assert p.evaluate("""() => { const g = document.querySelector('#board g.map-layer');
        const m = document.querySelector('#board [data-model]');
        return !!(g.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING); }""")
    page.shot("maps-exposure-terran")

    # the figures beside the board are the analysis' own
    assert p.get_attribute("#maps-open-lanes", "data-value") == str(want["open_lanes"])
    assert float(p.get_attribute("#maps-longest-lane", "data-value")) == want["longest_lane"]["length"]
    favours = want["balance"]["favours"]
    assert p.get_attribute("#maps-balance", "data-favours") == ("null" if favours is None else favours)
    assert f'{100 * want["open_lanes"]:.1f}%' in p.inner_text("#maps-open-lanes")

    # the zerg reach map with its contours at the charge distances; the exposure switched off
    p.check('#maps-layers input[data-map="reach"][data-side="zerg"]')
    p.uncheck('#maps-layers input[data-map="exposure"][data-side="terran"]')
    assert p.locator('#board g.map-layer[data-map="reach"][data-side="zerg"] .reach-contour').count() >= 1
    assert p.locator('#board g.map-layer[data-map="exposure"]').count() == 0
    page.shot("maps-reach-zerg")

    # picking two models redraws the picture: the layer is laid on the new picture too
    page.click_model("c2")
    page.click_model("zb1")
    assert p.locator('#board g.map-layer[data-map="reach"]').count() == 1

    # a piece deleted: the maps of the old layout leave the board at once, new ones come
    p.check('input[name="mode"][value="pick"]')
    page.click_board(41.5, 13.5)  # inside the tower's circle, off the grid lines
    asked = int(p.get_attribute("#maps", "data-answer"))
    p.click('#props button:has-text("Delete piece")')
    maps_answered(page)
    doc = page.document()
    assert "tower-se" not in [t["id"] for t in doc["terrain"]]
    assert int(p.get_attribute("#maps", "data-answer")) > asked  # computed again for the new layout
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    code, after = cli_json("analyse", str(edited), "--step", "3")
    assert code == 0 and p.get_attribute("#maps-open-lanes", "data-value") == str(after["open_lanes"])
    assert p.locator('#board g.map-layer[data-map="reach"]').count() == 1
    page.shot("maps-after-edit")
    assert page.console_errors() == []


def test_a_table_without_zones_and_zones_drawn_in_the_page(browser, serve, shots):  # noqa: F811 - fixtures
    page = Page(browser, serve(), shots)
    p = page.page
    p.select_option("#system", "classic40k")
    p.select_option("#size", "44x30")
    p.click("#blank")
    page.settled()
    page.expected_refusals += 1
    p.check("#maps-on")
    maps_answered(page)
    assert p.get_attribute("#maps", "data-state") == "refused"
    assert "zones" in p.inner_text("#maps-message") and "Zone tool" in p.inner_text("#maps-message")
    page.shot("maps-no-zones")

    # a zone for each side, dragged out with the Zone tool (with one side's, the maps are refused again)
    page.expected_refusals += 1
    page.mode("zone")
    for side, (x0, x1) in (("imperium", (0, 8)), ("orks", (36, 44))):
        p.fill("#zone-side", side)
        a, b = page.client(x0 + 0.02, 0.02), page.client(x1 - 0.02, 29.98)
        p.mouse.move(*a)
        p.mouse.down()
        p.mouse.move(*b, steps=5)
        p.mouse.up()
        maps_answered(page)
    zones = page.document()["zones"]
    assert [(z["id"], z["side"]) for z in zones] == [("imperium-zone-1", "imperium"), ("orks-zone-1", "orks")]
    assert zones[0]["footprint"]["rect"] == pytest.approx([0, 0, 8, 30], abs=0.06)
    assert p.get_attribute("#maps", "data-state") == "answered"
    assert p.locator('#board [data-layer="zones"] .zone').count() == 2  # the zones drawn on the board
    # an open table: every pair of zone positions sees each other
    assert p.get_attribute("#maps-open-lanes", "data-value") == "1"
    p.check('#maps-layers input[data-map="hidden"][data-side="orks"]')
    assert p.locator('#board g.map-layer[data-map="hidden"] rect[data-cell]').count() == 0  # nothing hidden
    page.shot("maps-zones-drawn")
    assert page.console_errors() == []
