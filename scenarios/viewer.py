"""The replay in the browser: one self-contained HTML file that steps through a scenario.

``tapeline replay FILE --html OUT.html`` writes it. Step 0 is the board as the file sets it up;
step k is the board after action k − 1, drawn by the same renderer as ``tapeline render`` with
what the action did on top (:func:`tapeline.scenarios.overlays.step_layers`: moves, casualties
— removed from the board and crossed where they stood —, firing models and targets), and beside
it the action as the file gives it, its dice (every roll with its purpose), its verdicts (the
other events) and the expectations checked after it.

The page needs no network: the pictures are inline SVG, the style and the script are inline.
Buttons and the keyboard move through the steps (← → previous / next, Home / End first / last),
the timeline jumps to any step, and the address carries the step (``OUT.html#step-3``) so a link
opens the page at that step.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

from tapeline.board.render import Layer
from tapeline.rules.state import GameState

from . import overlays, replay as engine
from .load import Loaded


@dataclass(frozen=True)
class Frame:
    """One step of the viewer."""

    title: str
    svg: str
    action: Optional[dict[str, Any]]
    dice: list[dict[str, Any]]
    verdicts: list[dict[str, Any]]
    casualties: list[str]
    expectations: list[dict[str, Any]]


def frames(loaded: Loaded) -> tuple[list[Frame], engine.Replay]:
    """The viewer's steps and the replay they come from."""
    steps: list[engine.Step] = []
    result = engine.run(loaded, on_step=steps.append)
    spec = loaded.spec
    n = len(spec.actions)
    due: dict[int, list[dict[str, Any]]] = {}
    for c in result.expectations:
        at = min(spec.expect[c["index"]].checked_after(n) + 1, n)
        due.setdefault(at, []).append(c)
    name = spec.name or loaded.file
    out = [Frame("set-up", _svg(loaded.state, [], name), None, [], [], [], due.get(0, []))]
    before = loaded.state
    for s in steps:
        act = spec.actions[s.index]
        evs = s.events[1:]
        gone = [m for u in before.units for m in u.models
                if not (s.state.has_unit(u.id) and m in s.state.unit(u.id).models)]
        layers = overlays.step_layers(before, s.state, evs)
        out.append(Frame(
            f"[{s.index}] {act.action}", _svg(s.state, layers, f"{name} — after action {s.index} ({act.action})"),
            act.model_dump(mode="json", exclude_defaults=True),
            [e for e in evs if e.get("type") == "roll"], [e for e in evs if e.get("type") != "roll"],
            gone, due.get(s.index + 1, []),
        ))
        before = s.state
    return out, result


def _svg(state: GameState, layers: Sequence[Layer], title: str) -> str:
    return overlays.render_state(state, layers, title=title)


def _value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, (list, dict)):
        return json.dumps(v, ensure_ascii=False)
    return str(v)


def _event(ev: dict[str, Any]) -> str:
    kind = html.escape(str(ev.get("type", "")))
    rest = ", ".join(f"{html.escape(k)}={html.escape(_value(v))}" for k, v in ev.items() if k != "type")
    return f'<li class="verdict"><b>{kind}</b> {rest}</li>'


def _roll(ev: dict[str, Any]) -> str:
    values = " ".join(f'<span class="die">{int(v)}</span>' for v in ev.get("values", []))
    return (f'<li class="roll"><span class="purpose">{html.escape(str(ev.get("purpose", "")))}</span> '
            f'<span class="dice">{html.escape(str(ev.get("dice", "")))}</span> {values}</li>')


def _panel(k: int, f: Frame) -> str:
    parts = [f'<section class="step" id="panel-{k}" data-step="{k}" hidden>',
             f'<div class="board">{f.svg}</div>', '<div class="info">',
             f'<h2 class="step-title">{html.escape(f.title)}</h2>']
    if f.action is not None:
        parts.append('<h3>action</h3><pre class="action">' + html.escape(json.dumps(f.action, indent=1, ensure_ascii=False)) + "</pre>")
    else:
        parts.append('<p class="action">the board as the file sets it up</p>')
    if f.dice:
        parts.append('<h3>dice</h3><ul class="dice-list">' + "".join(_roll(e) for e in f.dice) + "</ul>")
    if f.verdicts:
        parts.append('<h3>verdicts</h3><ul class="verdicts">' + "".join(_event(e) for e in f.verdicts) + "</ul>")
    if f.casualties:
        parts.append('<h3>casualties</h3><p class="casualties">' + html.escape(", ".join(f.casualties)) + "</p>")
    if f.expectations:
        parts.append('<h3>expectations checked</h3><ul class="expectations">' + "".join(
            f'<li class="{"pass" if c["ok"] else "fail"}">{"PASS" if c["ok"] else "FAIL"} expect[{c["index"]}] '
            f'{html.escape(c["expect"])}: {html.escape(str(c["detail"]))}</li>' for c in f.expectations) + "</ul>")
    parts.append("</div></section>")
    return "".join(parts)


CSS = """
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 0; color: #222; background: #fafaf7; }
header { padding: 8px 16px; background: #2b2b2b; color: #fff; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
header h1 { font-size: 17px; margin: 0; }
header .result.ok { color: #7fe08a; } header .result.failed { color: #ff8a8a; }
nav.controls { display: flex; gap: 6px; align-items: center; padding: 8px 16px; }
nav.controls button { font-size: 15px; padding: 4px 10px; }
#counter { font-variant-numeric: tabular-nums; min-width: 5em; }
ol.timeline { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; padding: 0 16px; margin: 0 0 8px 0; }
ol.timeline a { display: block; padding: 3px 8px; border: 1px solid #bbb; border-radius: 3px; text-decoration: none; color: #222; background: #fff; font-size: 13px; }
ol.timeline a.current { background: #2b2b2b; color: #fff; border-color: #2b2b2b; }
ol.timeline a.fail { border-color: #c81414; }
section.step { display: flex; gap: 16px; padding: 0 16px 16px; align-items: flex-start; flex-wrap: wrap; }
section.step[hidden] { display: none; }
.board { flex: 1 1 640px; max-width: 1100px; }
.board svg { width: 100%; height: auto; border: 1px solid #ddd; background: #fff; }
.info { flex: 0 1 420px; font-size: 14px; }
.info h2 { font-size: 18px; margin: 4px 0 8px; } .info h3 { font-size: 14px; margin: 12px 0 4px; color: #555; }
pre.action { background: #f0efe8; padding: 6px; white-space: pre-wrap; font-size: 12px; }
.die { display: inline-block; min-width: 1.3em; text-align: center; border: 1px solid #555; border-radius: 3px; margin: 1px; background: #fff; font-weight: bold; }
.purpose { font-weight: bold; } .dice { color: #666; }
li.pass { color: #0c6e28; } li.fail { color: #a30d0d; font-weight: bold; }
ul { padding-left: 18px; margin: 0; } li { margin: 2px 0; }
""".strip()

SCRIPT = """
(function () {
  var panels = Array.prototype.slice.call(document.querySelectorAll('section.step'));
  var links = Array.prototype.slice.call(document.querySelectorAll('ol.timeline a'));
  var counter = document.getElementById('counter');
  var last = panels.length - 1, current = -1;
  function show(k, push) {
    k = Math.max(0, Math.min(last, k));
    if (k === current) return;
    current = k;
    panels.forEach(function (p, i) { p.hidden = i !== k; });
    links.forEach(function (a, i) { a.classList.toggle('current', i === k); if (i === k) a.setAttribute('aria-current', 'step'); else a.removeAttribute('aria-current'); });
    counter.textContent = 'step ' + k + ' / ' + last;
    document.body.setAttribute('data-step', String(k));
    var hash = '#step-' + k;
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }
  function fromHash() {
    var m = /^#step-(\\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 0;
  }
  document.getElementById('first').addEventListener('click', function () { show(0); });
  document.getElementById('prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('next').addEventListener('click', function () { show(current + 1); });
  document.getElementById('last').addEventListener('click', function () { show(last); });
  links.forEach(function (a, i) { a.addEventListener('click', function (e) { e.preventDefault(); show(i); }); });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowRight' || e.key === 'PageDown' || e.key === ' ') { show(current + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft' || e.key === 'PageUp') { show(current - 1); e.preventDefault(); }
    else if (e.key === 'Home') { show(0); e.preventDefault(); }
    else if (e.key === 'End') { show(last); e.preventDefault(); }
  });
  window.addEventListener('hashchange', function () { show(fromHash()); });
  show(fromHash());
})();
""".strip()


def page(loaded: Loaded) -> str:
    """The whole HTML page for a loaded scenario (deterministic: same file, same bytes)."""
    return page_and_replay(loaded)[0]


def page_and_replay(loaded: Loaded) -> tuple[str, engine.Replay]:
    """The page and the replay it shows (one replay for both)."""
    fs, result = frames(loaded)
    name = html.escape(loaded.spec.name or loaded.file)
    passed = sum(c["ok"] for c in result.expectations)
    total = len(result.expectations)
    verdict = (f'{passed} of {total} expectations hold' if total else "no expectations")
    timeline = "".join(
        f'<li><a href="#step-{k}" data-step="{k}"'
        f'{" class=" + chr(34) + "fail" + chr(34) if any(not c["ok"] for c in f.expectations) else ""}>'
        f'{k}: {html.escape(f.title)}</a></li>' for k, f in enumerate(fs))
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{name} — tapeline replay</title>",
        f"<style>\n{CSS}\n</style></head>",
        '<body data-step="0">',
        f'<header><h1>{name}</h1><span>{html.escape(loaded.state.system)}</span>'
        f'<span class="result {"ok" if result.ok else "failed"}">{verdict}</span></header>',
        '<nav class="controls" aria-label="steps">'
        '<button id="first" title="first step (Home)">« first</button>'
        '<button id="prev" title="previous step (←)">◀ previous</button>'
        '<button id="next" title="next step (→)">next ▶</button>'
        '<button id="last" title="last step (End)">last »</button>'
        f'<span id="counter">step 0 / {len(fs) - 1}</span></nav>',
        f'<ol class="timeline">{timeline}</ol>',
        "<main>",
        *(_panel(k, f) for k, f in enumerate(fs)),
        "</main>",
        f"<script>\n{SCRIPT}\n</script>",
        "</body></html>",
    ]) + "\n", result
