"""Replaying a scenario: resolve ``actions:`` in order, check ``expect:`` entries.

Each action is resolved by the rules on the current state; it returns a new state and its
events (every die rolled is one). An illegal action stops the replay with
:class:`rules.errors.IllegalAction` naming its index and the rule. An expectation is checked
after the action named by its ``after:`` (default: after the last action).

The same file and the same seed give a byte-identical event log.
"""

from __future__ import annotations

from dataclasses import dataclass

from tapeline.rules.errors import IllegalAction
from tapeline.rules.state import GameState

from .load import Loaded
from .vocab import ReplayContext


@dataclass(frozen=True)
class Replay:
    ok: bool
    events: list
    expectations: list
    final: GameState

    def as_json(self) -> dict:
        return {"ok": self.ok, "events": self.events, "expectations": self.expectations, "final": self.final.snapshot()}


def run(loaded: Loaded) -> Replay:
    spec = loaded.spec
    ctx = ReplayContext(dice=loaded.dice(), settings=spec.settings)
    state = loaded.state
    events: list = []
    checks: list = []
    n = len(spec.actions)
    pending = sorted(
        range(len(spec.expect)),
        key=lambda k: (_after(spec.expect[k], n), k),
    )

    def check_due(upto: int) -> None:
        while pending and _after(spec.expect[pending[0]], n) <= upto:
            k = pending.pop(0)
            e = spec.expect[k]
            ctx.index = None
            ok, detail = e.check(state, ctx)
            checks.append({"expect": e.expect, "index": k, "ok": bool(ok), "detail": detail})

    check_due(-1)
    for i, act in enumerate(spec.actions):
        ctx.index = i
        try:
            new_state, evs = act.apply(state, ctx)
        except IllegalAction as e:
            raise e.at(i) from None
        events.append({"type": "action", "index": i, "action": act.action})
        events.extend(evs)
        state = new_state
        check_due(i)
    check_due(n)
    return Replay(all(c["ok"] for c in checks), events, checks, state)


def _after(e, n: int) -> int:
    a = getattr(e, "after", None)
    return n if a is None else a
