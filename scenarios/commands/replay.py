"""``tapeline replay FILE [--html OUT.html]``: resolve the actions, check the expectations, print
the log; with ``--html`` also write the replay as one self-contained web page
(:mod:`tapeline.scenarios.viewer`)."""

from __future__ import annotations

import sys

from ..cli import emit
from ..cliutil import add_file, answer, check_output, load, write_output


def register(sub) -> None:
    p = sub.add_parser("replay", help="replay a scenario's actions and check its expectations")
    add_file(p, after=False)
    p.add_argument("--html", metavar="OUT.html", default=None,
                   help="also write the replay as one self-contained HTML page (no network needed)")
    p.set_defaults(func=run)


def describe(ev: dict) -> str:
    t = ev.get("type")
    if t == "action":
        return f"[{ev['index']}] {ev['action']}"
    if t == "roll":
        return f"    roll {ev['dice']} for {ev['purpose']}: {' '.join(map(str, ev['values']))}"
    rest = ", ".join(f"{k}={v}" for k, v in ev.items() if k != "type")
    return f"    {t}: {rest}"


def run(args) -> int:
    if args.html is not None:
        check_output(args, args.html, "--html")
    loaded = load(args)
    if args.html is not None:
        return _html(loaded, args)
    from .. import replay as engine

    return _print(loaded, engine.run(loaded), args)


def _html(loaded, args) -> int:
    from .. import viewer

    text, r = viewer.page_and_replay(loaded)
    write_output(args, args.html, "--html", text)
    print(f"wrote {args.html}", file=sys.stderr)
    return _print(loaded, r, args)


def _print(loaded, r, args) -> int:
    lines = [f"{loaded.spec.name or args.file} ({loaded.state.system})"]
    lines += [describe(e) for e in r.events]
    n = len(loaded.spec.actions)
    for c in sorted(r.expectations, key=lambda c: c["index"]):
        after = getattr(loaded.spec.expect[c["index"]], "after", None)
        when = "" if after is None or after >= n else (" (before any action)" if after < 0 else f" (after action {after})")
        lines.append(f"{'PASS' if c['ok'] else 'FAIL'} expect[{c['index']}]{when} {c['expect']}: {c['detail']}")
    passed = sum(c["ok"] for c in r.expectations)
    lines.append(f"{passed} of {len(r.expectations)} expectations hold" if r.expectations else "no expectations")
    emit(answer("replay", r.as_json()), args.json, "\n".join(lines))
    return 0 if r.ok else 1
