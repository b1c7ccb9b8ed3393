"""The web table, server side: what a drag, a template and a charge cost ``tapeline serve``.

Budgets (issue 23, item 4), on ``scenarios/examples/showcase.yaml``, warm (the table served and
each question asked once before timing), medians:

* **a drag**: the page's three requests when a model is dropped — ``PUT /api/scenario`` with the
  model's new ``at`` (the whole table validated as a file, the warm game made anew), then the open
  question re-asked, ``POST /api/ask`` ``measure`` and ``los`` — at most **50 ms** together; the
  two questions alone (the table unchanged) are shown too;
* **a template's coverage** (``template --shape blast``) at most **50 ms**;
* **a charge** (``charge --unit roaches --target marines-bravo``) at most **300 ms**.

Each request goes through the whole application (:func:`tapeline.scenarios.web.app.app`: the Host
check, the body read, the worker thread, the JSON answer) over Starlette's in-process TestClient:
no socket, no browser. CPU time of the process (every thread: the application's and the worker's)
judges the budget; the wall time is shown beside it. Each drag moves zb1 to and fro between two
spots, so every PUT is a real change.

Checks: every answer is 200 and equal to the :class:`tapeline.Game` method's answer for the
same table.
"""

from __future__ import annotations

import copy
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tapeline
from benchmarks import agree

ROOT = Path(__file__).resolve().parent.parent
SHOW = ROOT / "scenarios" / "examples" / "showcase.yaml"
#: zb1's two spots of the drag (both on the mesa, clear of every base: see test_serve_browser.py).
SPOTS = ([28.0, 17.5], [24.9, 19.3])


def _client() -> Any:
    from starlette.testclient import TestClient

    from tapeline.scenarios.web.app import app
    from tapeline.scenarios.web.table import Table

    return TestClient(app(Table.open(str(SHOW))), base_url="http://127.0.0.1:8750")


def _ask(c: Any, command: str, args: list[str]) -> dict[str, Any]:
    r = c.post("/api/ask", json={"command": command, "args": args})
    agree(r.status_code == 200, f"ask {command} {args}: {r.status_code} {r.text[:200]}")
    return dict(r.json())


def times(f: Callable[[int], Any], repeats: int) -> tuple[float, float, Any]:
    """Median wall and process-CPU seconds of ``f(i)`` over ``repeats`` (after one warm-up)."""
    out = f(0)
    wall, cpu = [], []
    for i in range(1, repeats + 1):
        t, c = time.perf_counter(), time.process_time()
        out = f(i)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
    return statistics.median(wall), statistics.median(cpu), out


def rows(repeats: int) -> list[tuple[str, float, float, float]]:
    """(label, wall, CPU, budget) of each timed request."""
    c = _client()
    doc = c.get("/api/scenario").json()
    game = tapeline.open(SHOW)
    pair = lambda: (_ask(c, "measure", ["c2", "zb1"]), _ask(c, "los", ["c2", "zb1"]))  # noqa: E731

    def drag(i: int) -> Any:
        moved = copy.deepcopy(doc)
        zb1 = next(m for u in moved["units"] for m in u["models"] if m["id"] == "zb1")
        zb1["at"] = SPOTS[i % 2]
        r = c.put("/api/scenario", json=moved)
        agree(r.status_code == 200, f"drag: PUT refused: {r.text[:300]}")
        return SPOTS[i % 2], pair()

    out: list[tuple[str, float, float, float]] = []
    wall, cpu, (spot, (m, l)) = times(drag, repeats)
    dragged = copy.deepcopy(doc)
    next(mm for u in dragged["units"] for mm in u["models"] if mm["id"] == "zb1")["at"] = spot
    g2 = tapeline.parse_text(json.dumps(dragged))
    agree(m == g2.measure("c2", "zb1").as_json() and l == g2.los("c2", "zb1").as_json(), "drag: answers differ from Game's")
    out.append(("a drag: `PUT /api/scenario` (zb1 moved) + `measure c2 zb1` + `los c2 zb1`", wall, cpu, 0.050))
    c.put("/api/scenario", json=doc)

    wall, cpu, (m, l) = times(lambda i: pair(), repeats)
    agree(m == game.measure("c2", "zb1").as_json() and l == game.los("c2", "zb1").as_json(), "measure/los differ from Game's")
    out.append(("the drag's questions alone: `measure c2 zb1` + `los c2 zb1`", wall, cpu, 0.050))

    args = ["--shape", "blast", "--at", "24,25"]
    wall, cpu, t = times(lambda i: _ask(c, "template", args), repeats)
    agree(t == game.template("blast", (24, 25)).as_json(), "template differs from Game's")
    out.append(("a template's coverage: `template --shape blast --at 24,25`", wall, cpu, 0.050))

    args = ["--unit", "roaches", "--target", "marines-bravo"]
    wall, cpu, ch = times(lambda i: _ask(c, "charge", args), repeats)
    agree(ch == game.charge("roaches", "marines-bravo").as_json(), "charge differs from Game's")
    out.append(("a charge: `charge --unit roaches --target marines-bravo`", wall, cpu, 0.300))

    wall, cpu, s = times(lambda i: c.post("/api/svg", json={"overlays": {"los": ["c2", "zb1"]}}).json(), repeats)
    agree(s["svg"].startswith("<svg"), "the picture is no SVG")
    out.append(("the picture with the sight line: `POST /api/svg` (no budget)", wall, cpu, 0.0))
    return out


def _ms(s: float) -> str:
    return f"{1e3 * s:.1f} ms" if s < 0.1 else f"{1e3 * s:.0f} ms"


def run(quick: bool = False) -> str:
    """The section; ``quick``: 3 repeats (the answers are checked either way)."""
    repeats = 3 if quick else 30
    measured = rows(repeats)
    lines = [
        "## The web table, server side (benchmarks/bench_serve.py)",
        "",
        "`tapeline serve`'s application on `scenarios/examples/showcase.yaml`, in process (Starlette's TestClient:",
        "the Host check, the body read, the worker thread and the JSON answer, no socket), warm; medians of",
        f"{repeats} repeats. A drag is the page's three requests when a model is dropped: the table PUT with",
        "the model's new place (validated as a file, its game made anew) and the open question re-asked.",
        "The budget is judged on the process's CPU time (every thread); wall time beside it.",
        "",
        "| request | CPU | wall | budget |",
        "|---|---:|---:|---|",
    ]
    missed = []
    for label, wall, cpu, budget in measured:
        verdict = "—"
        if budget:
            verdict = f"≤ {1e3 * budget:g} ms: " + ("met" if cpu <= budget else "**missed**")
            if cpu > budget:
                missed.append(f"{label} takes {1e3 * cpu:.0f} ms of CPU against {1e3 * budget:g} ms")
        lines.append(f"| {label} | {_ms(cpu)} | {_ms(wall)} | {verdict} |")
    lines += ["", ("Missed: " + "; ".join(missed) + ".") if missed else "Every budget is met."]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(run())
