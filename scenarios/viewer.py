"""The replay in the browser: one self-contained HTML file that steps through a scenario.

``tapeline replay FILE --html OUT.html`` writes it. Step 0 is the board as the file sets it up;
then a step per action — an action the rules make in parts is one step per part: a Horus
Heresy charge is its Set-up Move, then any volley, then the charge roll and move. Each step is
the board after it, drawn by the same renderer as ``tapeline render`` with what the step did on
top (:func:`tapeline.scenarios.overlays.step_layers`: each move along the path the rules used,
casualties crossed where they fell, firing models and targets), and beside it every event in
a sentence with its dice, each die marked as a success or a failure where the event says what
it needed (StarCraft rolls carry their ``needs``; :mod:`tapeline.scenarios.narrate`), the rule
it applies, the action as the file gives it and the expectations checked after it.

The page needs no network: the pictures are inline SVG, the style and the script are inline.
Without JavaScript it shows every step's sentences and dice, and the final board. With it,
buttons and the keyboard move through the steps (← → previous / next, Home / End first /
last), the timeline jumps to any step, and the address carries the step (``OUT.html#step-3``)
so a link opens the page at that step.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

from tapeline.board.render import Layer
from tapeline.rules.state import GameState

from . import overlays, replay as engine
from .load import Loaded
from .narrate import Line, Roll, narrate
from .overlays.steps import state_after

#: An action's events are cut into steps after these events, named so.
PARTS = {"setup_move": "Set-up Move", "volley": "volley"}


@dataclass(frozen=True)
class Frame:
    """One step of the viewer: its title, its picture, its events in words, the casualties it
    removed, the expectations checked after it; ``action`` as the file gives it (``None``: the
    set-up) and its raw ``events``."""

    title: str
    svg: str
    action: Optional[dict[str, Any]]
    lines: list[Line]
    casualties: list[str]
    expectations: list[dict[str, Any]]
    events: list[dict[str, Any]]


def parts(action: str, events: Sequence[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """An action's events (without its ``action`` event) cut into its steps, each named: after
    each event of :data:`PARTS`; one part (named ``""``) when there is no cut."""
    out: list[tuple[str, list[dict[str, Any]]]] = []
    cur: list[dict[str, Any]] = []
    for ev in events:
        cur.append(ev)
        if ev.get("type") in PARTS:
            out.append((PARTS[str(ev["type"])], cur))
            cur = []
    if not out:
        return [("", cur)]
    if cur:
        out.append((f"{action} move" if action == "charge" else action, cur))
    return out


def frames(loaded: Loaded) -> tuple[list[Frame], engine.Replay]:
    """The viewer's steps and the replay they come from."""
    steps: list[engine.Step] = []
    result = engine.run(loaded, on_step=steps.append)
    spec = loaded.spec
    system = loaded.state.system
    n = len(spec.actions)
    due: dict[int, list[dict[str, Any]]] = {}
    for c in result.expectations:
        at = min(spec.expect[c["index"]].checked_after(n) + 1, n)
        due.setdefault(at, []).append(c)
    name = spec.name or loaded.file
    out = [Frame("set-up", _svg(loaded.state, [], name), None, [], [], due.get(0, []), [])]
    before = loaded.state
    for s in steps:
        act = spec.actions[s.index]
        cut = parts(act.action, s.events[1:])
        for k, (part, evs) in enumerate(cut):
            last = k == len(cut) - 1
            after = s.state if last else state_after(before, evs)
            gone = [m for u in before.units for m in u.models
                    if not (after.has_unit(u.id) and m in after.unit(u.id).models)]
            title = f"[{s.index}] {act.action}" + (f" — {part}" if part else "")
            out.append(Frame(
                title, _svg(after, overlays.step_layers(before, after, evs), f"{name} — {title}"),
                act.model_dump(mode="json", exclude_defaults=True), narrate(system, evs), gone,
                due.get(s.index + 1, []) if last else [], list(evs),
            ))
            before = after
    return out, result


def _svg(state: GameState, layers: Sequence[Layer], title: str) -> str:
    return overlays.render_state(state, layers, title=title)


def _value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, (list, dict)):
        return json.dumps(v, ensure_ascii=False)
    return str(v)


def _event(ev: Mapping[str, Any]) -> str:
    kind = html.escape(str(ev.get("type", "")))
    rest = ", ".join(f"{html.escape(k)}={html.escape(_value(v))}" for k, v in ev.items() if k != "type")
    return f'<li class="event"><b>{kind}</b> {rest}</li>'


#: How a die's mark reads (its ``title`` and the sign after it).
MARKS = {"hit": ("succeeds", "✓"), "miss": ("fails", "✗"), "dropped": ("dropped (the other die is kept)", "")}


def _die(value: int, mark: str, needs: str) -> str:
    if not mark:
        return f'<span class="die">{value}</span>'
    words, sign = MARKS[mark]
    title = (f"needs {needs}: " if needs else "") + words
    return (f'<span class="die {mark}" data-mark="{mark}" title="{html.escape(title)}">{value}'
            + (f'<span class="sign">{sign}</span>' if sign else "") + "</span>")


def _roll(r: Roll) -> str:
    dice = " ".join(_die(d.value, d.mark, d.needs) for d in r.dice)
    return (f'<li class="roll"><span class="purpose">{html.escape(r.purpose)}</span> '
            f'<span class="dice">{html.escape(r.dice_text)}</span> {dice}'
            + (f' <span class="note">{html.escape(r.note)}</span>' if r.note else "") + "</li>")


def _line(line: Line) -> str:
    rule = f' <span class="rule">({html.escape(line.rule)})</span>' if line.rule else ""
    rolls = ('<ul class="dice-list">' + "".join(_roll(r) for r in line.rolls) + "</ul>") if line.rolls else ""
    return f'<li class="line" data-kind="{html.escape(line.kind)}"><span class="sentence">{html.escape(line.text)}</span>{rule}{rolls}</li>'


def _panel(k: int, f: Frame, final: bool) -> str:
    parts_ = [f'<section class="step{" final" if final else ""}" id="panel-{k}" data-step="{k}">',
              f'<div class="board">{f.svg}</div>', '<div class="info">',
              f'<h2 class="step-title" id="step-{k}">{k}: {html.escape(f.title)}</h2>']
    if f.action is None:
        parts_.append('<p class="action">the board as the file sets it up</p>')
    if f.lines:
        parts_.append('<ol class="lines">' + "".join(_line(line) for line in f.lines) + "</ol>")
    if f.casualties:
        parts_.append('<h3>casualties</h3><p class="casualties">' + html.escape(", ".join(f.casualties)) + "</p>")
    if f.expectations:
        parts_.append('<h3>expectations checked</h3><ul class="expectations">' + "".join(
            f'<li class="{"pass" if c["ok"] else "fail"}">{"PASS" if c["ok"] else "FAIL"} expect[{c["index"]}] '
            f'{html.escape(c["expect"])}: {html.escape(str(c["detail"]))}</li>' for c in f.expectations) + "</ul>")
    if f.action is not None:
        parts_.append('<details class="raw"><summary>the action and its events</summary><pre class="action">'
                      + html.escape(json.dumps(f.action, indent=1, ensure_ascii=False)) + "</pre>"
                      + '<ul class="events">' + "".join(_event(e) for e in f.events) + "</ul></details>")
    parts_.append("</div></section>")
    return "".join(parts_)


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
.die.hit { border-color: #0c6e28; background: #e3f5e6; color: #0c6e28; }
.die.miss { border-color: #a30d0d; background: #fbe4e4; color: #a30d0d; }
.die.dropped { opacity: 0.55; text-decoration: line-through; }
.die .sign { font-size: 10px; margin-left: 1px; }
.purpose { font-weight: bold; } .dice { color: #666; } .note, .rule { color: #555; } .note { font-size: 12px; }
ol.lines { padding-left: 20px; margin: 0; } li.line { margin: 6px 0; } .sentence { font-weight: 600; }
ul.dice-list { font-size: 13px; } details.raw { margin-top: 12px; font-size: 12px; } ul.events { font-size: 12px; }
p.nojs { margin: 8px 16px; padding: 6px 10px; background: #fff6d6; border: 1px solid #e6c200; }
body:not(.js) nav.controls { display: none; }
body:not(.js) section.step { border-top: 1px solid #ddd; padding-top: 8px; }
body:not(.js) section.step:not(.final) .board { display: none; }
.marks-key { font-size: 13px; padding: 0 16px 6px; color: #444; }
li.pass { color: #0c6e28; } li.fail { color: #a30d0d; font-weight: bold; }
ul { padding-left: 18px; margin: 0; } li { margin: 2px 0; }
""".strip()

SCRIPT = """
(function () {
  document.body.classList.add('js');
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
        '<noscript><p class="nojs">JavaScript is off: every step is listed below with its dice, and the last '
        "step shows the final board. Turn JavaScript on to step through the boards.</p></noscript>",
        '<p class="marks-key">Dice: <span class="die hit">5<span class="sign">✓</span></span> succeeds, '
        '<span class="die miss">2<span class="sign">✗</span></span> fails (where the event says what it needed; '
        'hover a die for its target), <span class="die dropped">1</span> dropped.</p>',
        "<main>",
        *(_panel(k, f, k == len(fs) - 1) for k, f in enumerate(fs)),
        "</main>",
        f"<script>\n{SCRIPT}\n</script>",
        "</body></html>",
    ]) + "\n", result
