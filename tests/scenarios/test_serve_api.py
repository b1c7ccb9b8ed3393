"""The web table's HTTP contract (``tapeline serve``, docs/web-table.md), over Starlette's
TestClient: every route, the answers equal to the command line's ``--json`` output for the same
file, the located 422s with the table unchanged, the Host check, the body bound, escaping."""

from __future__ import annotations

import copy
import json

import pytest
from starlette.testclient import TestClient

from tapeline.scenarios import yamlio
from tapeline.scenarios.web.app import app
from tapeline.scenarios.web.table import Table, blank
from tests.conftest import EXAMPLES, cli, cli_json

SHOW = EXAMPLES / "showcase.yaml"
URL = "http://127.0.0.1:8750"
R32 = 32 / 25.4 / 2  # a 32 mm base's radius in inches


def client(table: Table) -> TestClient:
    return TestClient(app(table), base_url=URL)


@pytest.fixture(scope="module")
def show() -> TestClient:
    return client(Table.open(str(SHOW)))


def two(x2: float = 16.0, ids: tuple[str, str] = ("m1", "z1")) -> dict:
    """A 24" x 24" StarCraft table: one Marine at (6, 12), one Zergling at (x2, 12)."""
    doc = blank("starcraft", 24, 24)
    doc["units"] = [
        {"id": "marines", "side": "terran", "profile": "marine", "models": [{"id": ids[0], "at": [6, 12]}]},
        {"id": "zerglings", "side": "zerg", "profile": "zergling", "models": [{"id": ids[1], "at": [x2, 12]}]},
    ]
    return doc


# --- every query command answers as the command line does --------------------------------------

CASES = [
    (SHOW, "measure", ["c2", "zb1"]),
    (SHOW, "los", ["c2", "zb1"]),
    (SHOW, "los", ["a6", "za5"]),
    (SHOW, "charge", ["--unit", "roaches", "--target", "marines-bravo"]),
    (SHOW, "charge", ["--unit", "roaches", "--target", "marines-charlie", "--roll", "6"]),
    (SHOW, "path", ["a1", "--via", "17,22", "--max", "6"]),
    (SHOW, "attack", ["--unit", "marines-alpha", "--weapon", "c-14-rifle", "--target", "zerglings-a"]),
    (SHOW, "template", ["--shape", "blast", "--at", "20,27"]),
    (SHOW, "models", []),
    (SHOW, "measure", ["za9", "a9", "--after", "0"]),
    (EXAMPLES / "template-40k-blast.yaml", "template", ["--shape", "blast", "--at", "12,12"]),
    (EXAMPLES / "template-firebat.yaml", "template", ["--shape", "flamer", "--at", "10,10", "--toward", "16,10"]),
    (EXAMPLES / "assault-heresy.yaml", "fight", ["--unit", "tac", "--after", "0"]),
]


@pytest.mark.parametrize("file, command, args", CASES, ids=[f"{c}-{'-'.join(a)[:30]}" for _, c, a in CASES])
def test_ask_answers_exactly_what_the_command_line_prints(file, command, args):
    code, want = cli_json(command, file, *args)
    assert code == 0
    r = client(Table.open(str(file))).post("/api/ask", json={"command": command, "args": args})
    assert r.status_code == 200 and r.json() == want


def test_every_query_command_is_covered():
    from tapeline.scenarios.cli import QUESTIONS

    assert {c for _, c, _ in CASES} == set(QUESTIONS)


@pytest.mark.parametrize("body, location, says", [
    ({"command": "los", "args": ["c2", "zb0"]}, "argument B", "no model 'zb0'"),
    ({"command": "los", "args": ["c2"]}, "arguments", "required"),
    ({"command": "charge", "args": ["--unit", "roaches", "--target", "nobody"]}, "--target", "nobody"),
    ({"command": "template", "args": ["--shape", "blast", "--at", "x,1"]}, "--at", "not a number"),
    ({"command": "measure", "args": ["c2", "zb1", "--after", "9"]}, "--after 9", ""),
    ({"command": "shoot", "args": []}, "command", "unknown command"),
    ({"command": "los", "args": "c2 zb1"}, "args", "list of words"),
    ({"command": "los", "args": ["c2", "zb1", "--help"]}, "arguments", "--help"),
    ([1, 2], "body", "JSON object"),
])
def test_ask_refuses_bad_arguments_with_one_located_error(show, body, location, says):
    before = show.get("/api/scenario").json()
    r = show.post("/api/ask", json=body)
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["location"] == location and says in err["message"], err
    assert show.get("/api/scenario").json() == before


def test_ask_refuses_a_body_that_is_not_json(show):
    r = show.post("/api/ask", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["location"] == "body"


# --- the table as a document ---------------------------------------------------------------------


def test_get_scenario_is_the_file_as_json_and_check_accepts_it(show, tmp_path):
    doc = show.get("/api/scenario").json()
    assert doc == yamlio.parse(SHOW.read_text(encoding="utf-8"), False)[0]
    f = tmp_path / "table.json"
    f.write_text(json.dumps(doc))
    code, out, err = cli("check", f)
    assert code == 0, err
    # the YAML download is the same document
    y = show.get("/api/scenario?format=yaml")
    assert y.status_code == 200 and yamlio.parse(y.text, False)[0] == doc


def test_put_replaces_the_table_and_questions_see_it():
    c = client(Table(two()))
    # by hand: centres 10" apart, two 32 mm bases -> gap 10 - 2r
    assert c.post("/api/ask", json={"command": "measure", "args": ["m1", "z1"]}).json()["gap"] == pytest.approx(10 - 2 * R32)
    r = c.put("/api/scenario", json=two(x2=12))
    assert r.status_code == 200 and r.json() == {"valid": True, "errors": []}
    assert c.get("/api/scenario").json() == two(x2=12)
    assert c.post("/api/ask", json={"command": "measure", "args": ["m1", "z1"]}).json()["gap"] == pytest.approx(6 - 2 * R32)


@pytest.mark.parametrize("change, location", [
    (lambda d: d["units"][1]["models"][0].__setitem__("at", [30, 12]), "units[1].models[0].at"),     # off the table
    (lambda d: d["units"][1]["models"][0].__setitem__("at", [6.5, 12]), "units[1].models[0]"),       # overlaps m1
    (lambda d: d["terrain"].append({"id": "rock", "footprint": {"rect": [14, 10, 4, 4]}, "traits": ["impassable"]}),
     "units[1].models[0]"),                                                                         # in impassable terrain
    (lambda d: d["units"][0].__setitem__("profile", "marnie"), "units[0].profile"),
    (lambda d: d.pop("board"), "board"),
    (lambda d: d["units"][0]["models"][0].__setitem__("at", ["x", 1]), "units[0].models[0].at"),
])
def test_a_bad_put_is_refused_located_and_changes_nothing(change, location):
    c = client(Table(two()))
    bad = copy.deepcopy(two())
    change(bad)
    r = c.put("/api/scenario", json=bad)
    assert r.status_code == 422
    errors = r.json()["errors"]
    assert errors and all(set(e) == {"location", "message"} for e in errors)
    assert any(e["location"].startswith(location) for e in errors), errors
    assert c.get("/api/scenario").json() == two()
    assert c.post("/api/ask", json={"command": "measure", "args": ["m1", "z1"]}).json()["gap"] == pytest.approx(10 - 2 * R32)


def test_a_put_that_is_not_an_object_is_refused():
    c = client(Table(two()))
    for body in ([], "text", 3):
        r = c.put("/api/scenario", json=body)
        assert r.status_code == 422 and r.json()["errors"][0]["location"] == "file"


def test_a_body_larger_than_a_file_may_be_is_refused_and_changes_nothing():
    c = client(Table(two()))
    big = two()
    big["name"] = "x" * (yamlio.MAX_FILE_BYTES + 10)
    r = c.put("/api/scenario", content=json.dumps(big).encode(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["errors"][0]["location"] == "body"
    assert c.get("/api/scenario").json() == two()


# --- moves -----------------------------------------------------------------------------------------


def test_push_makes_a_move_and_pop_takes_it_back():
    c = client(Table.open(str(SHOW)))
    gap = lambda: c.post("/api/ask", json={"command": "measure", "args": ["za9", "a9"]}).json()  # noqa: E731
    # the file's comment, by hand: za9 stands 0.940157" from a9; its action 0 closes into contact
    assert gap()["gap"] == pytest.approx(0.940157, abs=1e-6) and gap()["contact"] is False
    action = {"action": "move", "moves": {"za9": [21.259843, 28]}}
    r = c.post("/api/push", json={"action": action})
    assert r.status_code == 200
    events = r.json()["events"]
    assert events and all(isinstance(e, dict) for e in events)
    assert gap()["contact"] is True
    r = c.post("/api/pop")
    assert r.status_code == 200 and r.json()["popped"]["moves"] == action["moves"]
    assert gap()["gap"] == pytest.approx(0.940157, abs=1e-6)
    assert c.post("/api/pop").json() == {"error": {"location": "pop", "message": "no move to take back"}}


@pytest.mark.parametrize("action, location", [
    ({"action": "move", "moves": {"nobody": [1, 1]}}, "action.moves"),
    ({"action": "fly"}, "action"),
    ("move", "action"),
])
def test_a_refused_push_is_located_and_changes_nothing(action, location):
    c = client(Table.open(str(SHOW)))
    before = c.post("/api/ask", json={"command": "models", "args": []}).json()
    r = c.post("/api/push", json={"action": action})
    assert r.status_code == 422 and r.json()["error"]["location"].startswith(location), r.json()
    assert c.post("/api/ask", json={"command": "models", "args": []}).json() == before
    assert c.post("/api/pop").status_code == 422  # no move was made


# --- the page and its picture -----------------------------------------------------------------------


def test_the_page_and_its_files(show):
    r = show.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "page.js" in r.text and "page.css" in r.text
    assert not any(s in r.text for s in ('src="http', 'href="http', 'src="//'))  # nothing fetched from the network
    for path, media in (("/page.js", "text/javascript"), ("/page.css", "text/css")):
        r = show.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith(media) and r.text.strip()


def test_the_picture_marks_every_model_and_piece(show):
    r = show.post("/api/svg", json={"overlays": {"los": ["c2", "zb1"]}})
    assert r.status_code == 200
    svg = r.json()["svg"]
    doc = show.get("/api/scenario").json()
    for u in doc["units"]:
        for m in u["models"]:
            assert f'data-model="{m["id"]}"' in svg
    for t in doc["terrain"]:
        assert f'data-terrain="{t["id"]}"' in svg
    assert svg == Table.open(str(SHOW)).game.svg(title=doc["name"], los=("c2", "zb1"))  # tapeline render's picture


def test_the_picture_refuses_an_unknown_overlay(show):
    r = show.post("/api/svg", json={"overlays": {"zoom": 2}})
    assert r.status_code == 422 and r.json()["error"]["location"] == "overlays.zoom"
    r = show.post("/api/svg", json={"overlays": {"los": ["c2", "nobody"]}})
    assert r.status_code == 422 and "nobody" in r.json()["error"]["message"]


def test_an_id_is_escaped_in_the_picture():
    evil = "<script>alert(1)</script>"
    c = client(Table(two(ids=(evil, '"><img src=x onerror=alert(2)>'))))
    svg = c.post("/api/svg", json={"overlays": {}}).json()["svg"]
    assert "<script" not in svg and "<img" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    # and a question naming it answers with the id as data
    r = c.post("/api/ask", json={"command": "measure", "args": [evil, '"><img src=x onerror=alert(2)>']})
    assert r.status_code == 200 and r.json()["a"] == evil


def test_the_page_writes_no_markup_from_data():
    """The page's script puts text into the page only as text (``textContent``), never as markup:
    the one markup it inserts as HTML is the server's picture, escaped by the renderer (above); the
    map layers are parsed as SVG (tests/scenarios/test_serve_maps.py checks their escaping)."""
    from importlib import resources

    js = resources.files("tapeline.scenarios.web").joinpath("page", "page.js").read_text(encoding="utf-8")
    assert js.count("innerHTML") == js.count("innerHTML = svg")
    assert "eval(" not in js and "document.write" not in js


def test_units_and_info(show):
    r = show.get("/api/units?system=heresy")
    code, want = cli_json("units", "heresy")
    assert r.status_code == 200 and r.json() == want
    r = show.get("/api/units?system=chess")
    assert r.status_code == 422 and r.json()["error"]["location"] == "system"
    info = show.get("/api/info").json()
    assert info["systems"] == ["starcraft", "heresy", "classic40k"] and info["sizes"]["54x36"] == [54, 36]


# --- safety -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8750", "127.0.0.1:9999", "127.0.0.1.evil.example:8750", ""])
def test_another_host_is_refused(host):
    c = client(Table(two()))
    for method, path, body in (("GET", "/", None), ("GET", "/api/scenario", None), ("PUT", "/api/scenario", two(x2=12)),
                               ("POST", "/api/ask", {"command": "models", "args": []})):
        r = c.request(method, path, json=body, headers={"host": host})
        assert r.status_code == 403, (host, path)
    assert c.get("/api/scenario").json() == two()


@pytest.mark.parametrize("host", ["127.0.0.1:8750", "localhost:8750"])
def test_the_served_address_is_accepted(host):
    c = client(Table(two()))
    assert c.get("/api/scenario", headers={"host": host}).status_code == 200


def test_a_blank_table_is_a_valid_empty_table(tmp_path):
    c = client(Table(blank()))
    doc = c.get("/api/scenario").json()
    assert doc["units"] == [] and doc["board"] == {"width": 54, "height": 36}
    f = tmp_path / "blank.json"
    f.write_text(json.dumps(doc))
    assert cli("check", f)[0] == 0


def test_the_other_commands_do_not_load_the_web_stack():
    """Starlette and uvicorn are loaded by ``tapeline serve`` only: a query's start-up does not
    pay for them."""
    import subprocess
    import sys

    code = ("import sys, io, contextlib\n"
            "from tapeline.scenarios import cli\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert cli.main(['measure', {str(SHOW)!r}, 'a6', 'za5']) == 0\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'anyio', 'httpx', 'httpx2')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_an_internal_error_is_one_located_line_not_a_traceback(monkeypatch):
    table = Table(two())

    def broken(command, args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(table, "answer", broken)
    r = client(table).post("/api/ask", json={"command": "models", "args": []})
    assert r.status_code == 500
    assert r.json() == {"error": {"location": "/api/ask", "message": "internal error, please report it: RuntimeError: a bug"}}
