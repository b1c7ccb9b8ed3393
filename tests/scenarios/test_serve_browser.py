"""The web table end to end: ``tapeline serve`` in a real subprocess, driven in a real headless
Chromium (Playwright; the system's browser, as tests/scenarios/test_viewer.py finds it, skipped
without one). Drag a model by its ``data-model`` element and see the line-of-sight verdict
change; a refused drag; a template and its coverage; a charge and its path; a small table laid
out from blank, downloaded, accepted by ``tapeline check`` and reopened to the same table; no
console error. A screenshot of each step is written under the test's temporary folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tapeline.scenarios import yamlio
from tapeline.scenarios.web.table import Table
from tests.conftest import EXAMPLES, cli, cli_json
from tests.scenarios.chromium import launch

SHOW = EXAMPLES / "showcase.yaml"


def _command() -> list[str]:
    script = Path(sys.executable).parent / "tapeline"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tapeline.scenarios.guards"]


@pytest.fixture
def serve():
    """Start ``tapeline serve [FILE] --port 0``; the address it prints."""
    started: list[subprocess.Popen] = []

    def start(*args: str) -> str:
        p = subprocess.Popen([*_command(), "serve", *args, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env={**os.environ, "TAPELINE_TIME_LIMIT": "60"})
        started.append(p)
        line = p.stdout.readline()
        assert " at http://127.0.0.1:" in line, (line, p.stderr.read() if p.poll() is not None else "")
        return line.split(" at ", 1)[1].split("/ ", 1)[0] + "/"

    yield start
    for p in started:
        p.terminate()
        p.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    yield from launch("the web table")


class Page:
    """A page of the web table, with its console watched and screenshots numbered."""

    def __init__(self, browser, url: str, shots: Path):
        self.page = browser.new_page(viewport={"width": 1500, "height": 1000}, accept_downloads=True)
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.expected_refusals = 0
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: self.errors.append(f"dialog: {d.message}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.url, self.shots, self.n = url, shots, 0
        self.page.goto(url)
        self.page.wait_for_selector("body[data-ready='1']")

    def shot(self, name: str) -> None:
        self.n += 1
        self.page.screenshot(path=str(self.shots / f"{self.n:02d}-{name}.png"))

    def client(self, x: float, y: float) -> tuple[float, float]:
        """The page point of board point (x, y) in inches."""
        return tuple(self.page.evaluate(
            "([x, y]) => { const p = new DOMPoint(x, y).matrixTransform(document.querySelector('#board g.board').getScreenCTM());"
            " return [p.x, p.y]; }", [x, y]))

    def settled(self) -> None:
        """Wait until every request the page made is answered and its answer shown."""
        self.page.wait_for_timeout(50)  # (a click's requests start within its event handlers)
        self.page.wait_for_function("() => document.body.dataset.pending === '0' && "
                                    "!document.getElementById('status').classList.contains('busy')")

    def drag(self, model: str, to: tuple[float, float]) -> None:
        box = self.page.locator(f'#board .model[data-model="{model}"]').bounding_box()
        m = self.page.mouse
        m.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        m.down()
        x, y = self.client(*to)
        m.move(x, y, steps=8)
        m.up()
        self.settled()

    def click_model(self, model: str) -> None:
        self.page.locator(f'#board .model[data-model="{model}"]').click()
        self.settled()

    def click_board(self, x: float, y: float) -> None:
        self.page.mouse.click(*self.client(x, y))
        self.settled()

    def mode(self, name: str) -> None:
        self.page.check(f'input[name="mode"][value="{name}"]')

    def document(self) -> dict:
        return self.page.evaluate("() => fetch('/api/scenario').then(r => r.json())")

    def console_errors(self) -> list[str]:
        """Console errors but the browser's own line for each refusal the test provoked (Chromium
        logs every 4xx answer to a fetch as 'Failed to load resource ... 422')."""
        refusals = [e for e in self.errors if "status of 422" in e]
        assert len(refusals) == self.expected_refusals, self.errors
        return [e for e in self.errors if "status of 422" not in e]


@pytest.fixture
def shots(tmp_path) -> Path:
    d = tmp_path / "screenshots"
    d.mkdir()
    return d


def test_drag_pick_template_charge(browser, serve, shots):
    page = Page(browser, serve(str(SHOW)), shots)
    p = page.page
    page.shot("opened")
    assert p.locator("#board .model[data-model]").count() == sum(len(u["models"]) for u in page.document()["units"])
    assert p.locator("#board [data-terrain]").count() == len(page.document()["terrain"])

    # pick c2 and zb1: the mesa-wall stands between them (the file's own expectation, after: 1)
    page.click_model("c2")
    page.click_model("zb1")
    assert p.get_attribute("#los-verdict", "data-visible") == "false"
    assert "mesa-wall" in p.inner_text("#answer") and "full cover" in p.inner_text("#answer")
    page.shot("c2-zb1-blocked")

    # drag zb1 round the wall to (24.9, 19.3), on the mesa west of it: 2.1" from c2 and more than
    # 2" from every other model, nothing between the two (the wall stands at x >= 26.7)
    page.drag("zb1", (24.9, 19.3))
    assert p.get_attribute("#los-verdict", "data-visible") == "true"
    at = next(m["at"] for u in page.document()["units"] for m in u["models"] if m["id"] == "zb1")
    assert at == pytest.approx([24.9, 19.3], abs=0.06)
    page.shot("zb1-dragged-visible")

    # a drag onto c2 is refused, located, and the table stays as it was
    before = page.document()
    page.expected_refusals += 1
    page.drag("zb1", (26.1, 17.5))
    assert "overlap" in p.inner_text("#errors") and "units[" in p.inner_text("#errors")
    assert page.document() == before
    assert p.locator('#board .model.refused[data-model="zb1"]').count() == 1  # located on the picture too
    assert p.get_attribute("#los-verdict", "data-visible") == "true"
    page.shot("refused-drag")

    # a Blast template at a clicked point: the coverage the command line gives for that point
    page.mode("template")
    p.select_option("#shape", "blast")
    page.click_board(20, 27)
    point = p.inner_text("#answer h2").split("(")[1].rstrip(")").replace(" ", "")
    code, want = cli_json("template", SHOW, "--shape", "blast", "--at", point)
    shown = p.eval_on_selector_all("#coverage tr[data-model]", "rows => rows.map(r => r.dataset.model)")
    assert code == 0 and shown == [r["model"] for r in want["covered"]] and len(shown) >= 2
    assert p.locator('#board [data-layer="template"]').count() == 1
    page.shot("blast-coverage")

    # a charge: the roaches at marines-bravo's neighbour marines-charlie — the path is drawn
    page.mode("charge")
    page.click_model("r2")
    page.click_model("c1")
    text = p.inner_text("#answer")
    assert "roaches charges marines-charlie" in text and "distance" in text
    assert p.locator('#board [data-layer="charge"] .path').count() >= 1
    page.shot("charge-path")

    assert page.console_errors() == []
    assert all(r.startswith(page.url) for r in page.requests)  # nothing from the network


def test_lay_out_a_table_from_blank_and_download_it(browser, serve, shots, tmp_path):
    page = Page(browser, serve(), shots)
    p = page.page
    p.select_option("#system", "starcraft")
    p.select_option("#size", "44x30")
    p.click("#blank")
    page.settled()
    assert page.document()["board"] == {"width": 44, "height": 30}

    page.mode("unit")
    p.select_option("#profile", "marine")
    p.fill("#side", "terran")
    p.fill("#count", "3")
    page.click_board(6, 10)
    p.select_option("#profile", "zergling")
    p.fill("#side", "zerg")
    p.fill("#count", "2")
    page.click_board(30, 10)
    # a typed profile: no catalogue entry, its stats and base given in the page
    p.select_option("#profile", "")
    p.fill("#side", "neutral")
    p.fill("#count", "1")
    p.fill("#base-mm", "40")
    p.fill("#stats", '{"speed": 5, "armour": 4, "evade": 6, "hp": 3}')
    page.click_board(40, 26)
    typed = page.document()["units"][2]
    assert "profile" not in typed and typed["base"] == 40 and typed["stats"] == {"speed": 5, "armour": 4, "evade": 6, "hp": 3}
    # stats that are no stats are refused, located, with the table kept
    before = page.document()
    page.expected_refusals += 1
    p.fill("#stats", '{"speed": "fast"}')
    page.click_board(40, 20)
    assert "stats" in p.inner_text("#errors") and page.document() == before
    p.fill("#stats", "")
    p.fill("#base-mm", "")
    page.mode("rect")
    x0, y0 = page.client(18, 6)
    x1, y1 = page.client(22, 14)
    p.mouse.move(x0, y0)
    p.mouse.down()
    p.mouse.move(x1, y1, steps=5)
    p.mouse.up()
    page.settled()
    doc = page.document()
    assert [len(u["models"]) for u in doc["units"]] == [3, 2, 1] and len(doc["terrain"]) == 1
    rect = doc["terrain"][0]["footprint"]["rect"]
    assert rect == pytest.approx([18, 6, 4, 8], abs=0.06)

    # the piece picked after drawing: made impassable, it would hold no model — here none stands
    # in it, so the edit is kept; its height set too
    page.mode("pick")
    p.locator('#props label:has-text("impassable") input').check()
    page.settled()
    p.fill('#props label:has-text("height") input', "3")
    p.press('#props label:has-text("height") input', "Tab")
    page.settled()
    piece = page.document()["terrain"][0]
    assert piece["traits"] == ["impassable"] and piece["height"] == 3
    # a circle, and a polygon by its corners
    page.mode("circle")
    x0, y0 = page.client(12, 22)
    x1, y1 = page.client(14, 22)
    p.mouse.move(x0, y0)
    p.mouse.down()
    p.mouse.move(x1, y1, steps=5)
    p.mouse.up()
    page.settled()
    page.mode("polygon")
    for corner in ((30, 20), (36, 20), (33, 26)):
        page.click_board(*corner)
    p.click("#finish-polygon")
    page.settled()
    doc = page.document()
    circle, polygon = doc["terrain"][1]["footprint"]["circle"], doc["terrain"][2]["footprint"]["polygon"]
    assert circle == pytest.approx([12, 22, 2], abs=0.06)
    assert [c for xy in polygon for c in xy] == pytest.approx([30, 20, 36, 20, 33, 26], abs=0.06)
    # a model dragged into the impassable piece is refused, located, and the table kept
    page.expected_refusals += 1
    first = doc["units"][0]["models"][0]["id"]
    page.drag(first, (20, 10))
    assert "impassable" in p.inner_text("#errors") and page.document() == doc
    page.shot("laid-out")

    # undo takes the polygon back, redo brings it again
    p.click("#undo")
    page.settled()
    assert page.document()["terrain"] == doc["terrain"][:2]
    p.click("#redo")
    page.settled()
    assert page.document() == doc

    for button, suffix in (("#save-yaml", ".yaml"), ("#save-json", ".json")):
        with p.expect_download() as info:
            p.click(button)
        f = tmp_path / ("download" + suffix)
        info.value.save_as(str(f))
        code, out, err = cli("check", f)
        assert code == 0, err
        assert yamlio.parse(f.read_text(encoding="utf-8"), suffix == ".json")[0] == doc
        assert Table.open(str(f)).document() == doc  # reopens to the same table
    with p.expect_download() as info:
        p.click("#save-svg")
    svg = tmp_path / "table.svg"
    info.value.save_as(str(svg))
    assert svg.read_text(encoding="utf-8").startswith("<svg") and 'data-model="' in svg.read_text(encoding="utf-8")
    with p.expect_download() as info:
        p.click("#save-png")
    png = tmp_path / "table.png"
    info.value.save_as(str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page.shot("downloaded")
    assert page.console_errors() == []


# --- the process itself (no browser needed) -----------------------------------------------------------


def _post(url: str, body: dict, host: str | None = None) -> tuple[int, dict]:
    import urllib.error
    import urllib.request

    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json", **({"host": host} if host else {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def test_the_process_answers_refuses_other_hosts_and_stops_on_ctrl_c(serve):
    url = serve(str(SHOW))
    code, got = _post(url + "api/ask", {"command": "los", "args": ["c2", "zb1"]})
    assert code == 200 and got == cli_json("los", SHOW, "c2", "zb1")[1]
    code, got = _post(url + "api/ask", {"command": "models", "args": []}, host="rebound.example:8750")
    assert code == 403 and got["error"]["location"] == "Host"


def test_a_question_past_the_time_limit_is_refused_and_the_table_keeps_serving():
    """With a time limit of 1 ms of CPU, a charge (hundreds of ms) gives up with the command
    line's message; the server still answers afterwards."""
    p = subprocess.Popen([*_command(), "serve", str(SHOW), "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env={**os.environ, "TAPELINE_TIME_LIMIT": "0.001"})
    try:
        line = p.stdout.readline()
        url = line.split(" at ", 1)[1].split("/ ", 1)[0] + "/"
        code, got = _post(url + "api/ask", {"command": "charge", "args": ["--unit", "roaches", "--target", "marines-charlie"]})
        assert code == 422 and got["error"]["location"] == "charge" and "gave up after" in got["error"]["message"]
        code, got = _post(url + "api/pop", {})
        assert code == 422 and got["error"]["location"] == "pop"  # still serving
    finally:
        import signal

        p.send_signal(signal.SIGINT)  # Ctrl-C: the server stops cleanly
        assert p.wait(timeout=15) == 0
        err = p.stderr.read()
        assert "Traceback" not in err, err


def test_a_port_in_use_is_one_located_line(serve):
    url = serve(str(SHOW))
    port = url.rsplit(":", 1)[1].strip("/")
    r = subprocess.run([*_command(), "serve", str(SHOW), "--port", port], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--port" in r.stderr and "Traceback" not in r.stderr


def test_a_host_that_is_not_loopback_is_said():
    p = subprocess.Popen([*_command(), "serve", "--host", "0.0.0.0", "--port", "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        first, second = p.stdout.readline(), p.stdout.readline()
        assert "a blank table at http://0.0.0.0:" in first and "not only on this machine" in second
    finally:
        p.terminate()
        p.wait(timeout=10)


def test_charge_made_then_the_fight_as_bar_charts(browser, serve, shots):
    """Horus Heresy: the file's own first action by pointing — tac charge trt, made with the
    table's dice — then the fight of tac: its steps and the casualty and result distributions,
    the numbers the command line gives after that action (``fight --after 0``)."""
    heresy = EXAMPLES / "assault-heresy.yaml"
    page = Page(browser, serve(str(heresy)), shots)
    p = page.page
    page.mode("charge")
    page.click_model("a1")
    page.click_model("t1")
    assert "tac charges trt" in p.inner_text("#answer")
    p.click("#push-charge")
    p.wait_for_selector("#events")
    page.settled()
    page.shot("charge-made")
    page.mode("fight")
    page.click_model("a1")
    code, want = cli_json("fight", heresy, "--unit", "tac", "--after", "0")
    text = p.inner_text("#answer")
    assert code == 0 and "the fight of tac" in text
    for step in want["steps"]:
        assert step["weapon"] in text
    bars = p.eval_on_selector_all("#answer .bar", "bs => bs.map(b => b.title)")
    want_bars = [f"{100 * x:.1f}%" for u in want["casualties_pmf"].values() for x in u] + \
                [f"{100 * x:.1f}%" for x in want["result"].values()]
    assert bars == want_bars
    page.shot("fight-bars")
    assert page.console_errors() == []


def test_a_flamer_from_its_firer_and_a_starcraft_template_weapon(browser, serve, shots):
    """The Firebat example, by pointing: a Flamer laid from f1's base edge toward z1 covers z1
    wholly and z2 partly (the file's own hand-worked expectations: tip at (4.787402, 9), f1's
    40 mm base edge); the Perdition Flamer fired by f1 at z1 affects z1 and z2 (§8.7.6), with
    its Batch's odds in words."""
    firebat = EXAMPLES / "template-firebat.yaml"
    page = Page(browser, serve(str(firebat)), shots)
    p = page.page
    page.mode("template")
    p.select_option("#shape", "flamer")
    page.click_model("f1")
    page.click_board(8.5, 9)
    rows = p.eval_on_selector_all("#coverage tr[data-model]", "rs => rs.map(r => [r.dataset.model, r.cells[2].textContent])")
    assert dict(rows) == {"z1": "wholly", "z2": "partly"}
    assert p.inner_text("#answer h2").startswith("flamer at (4.787")
    page.shot("flamer-from-firer")
    p.select_option("#shape", "weapon")
    p.fill("#weapon", "perdition-flamer")
    page.click_model("f1")
    page.click_model("z1")
    words = p.inner_text("#template-words")
    assert "affected zerglings: z1, z2" in words and "primary zerglings: 2 dice" in words
    assert p.locator('#board [data-layer="template"]').count() == 1
    page.shot("template-weapon")
    assert page.console_errors() == []


def test_a_slow_answer_is_never_shown_once_a_later_question_is_asked(browser, serve, shots):
    """The full-table charge (the roaches at the marauders, hundreds of ms) is asked, then at
    once the sight line c2–zb1: the charge's answer arrives first (one worker answers in order)
    and is dropped; the page shows only the later question's answer."""
    page = Page(browser, serve(str(SHOW)), shots)
    shown = page.page.evaluate("""async () => {
      const seen = [];
      new MutationObserver(() => { const q = document.getElementById("answer").dataset.question; if (q) seen.push(q); })
        .observe(document.getElementById("answer"), {attributes: true, childList: true});
      state.question = {kind: "charge", unit: "roaches", targets: ["marauders"], roll: null};
      const first = askOpen();
      state.question = {kind: "pair", a: "c2", b: "zb1"};
      const second = askOpen();
      await Promise.all([first, second]);
      await new Promise((r) => setTimeout(r, 50));
      return {seen, now: document.getElementById("answer").dataset.question,
              verdict: document.getElementById("los-verdict").dataset.visible};
    }""")
    assert shown["now"] == "pair" and shown["verdict"] == "false"
    assert "charge" not in shown["seen"], shown
    assert page.console_errors() == []


def test_ids_that_look_like_markup_are_shown_as_text(browser, serve, shots, tmp_path):
    """Two models whose ids are markup: the picture and the page show the characters, no script
    runs (a dialog would be counted as an error)."""
    from tapeline.scenarios.web.table import blank

    evil = ["<script>alert(1)</script>", '"><img src=x onerror=alert(2)>']
    doc = blank("starcraft", 24, 24)
    doc["units"] = [{"id": f"u{i}", "side": f"s{i}", "profile": "marine", "models": [{"id": m, "at": [6 + 10 * i, 12]}]}
                    for i, m in enumerate(evil)]
    f = tmp_path / "evil.json"
    f.write_text(json.dumps(doc))
    page = Page(browser, serve(str(f)), shots)
    p = page.page
    page.click_model(evil[0].replace('"', '\\"'))
    page.click_model(evil[1].replace('"', '\\"'))
    assert p.inner_text("#answer h2") == f"{evil[0]} and {evil[1]}"
    assert p.locator("#board script, #answer script, #board img, #answer img").count() == 0
    page.shot("markup-ids")
    assert page.console_errors() == []
