"""Replaying a scenario: resolve ``actions:`` in order, check ``expect:`` entries.

Each action is resolved by the rules on the current state; it returns a new state and its
events (every die rolled is one). An illegal action stops the replay with
:class:`rules.errors.IllegalAction` naming its index and the rule; any other error while
resolving action ``i`` or checking expectation ``k`` is placed at ``actions[i]`` /
``expect[k]``. An expectation is checked after the action named by its ``after:`` (default:
after the last action; the loader refuses an ``after:`` past the last action).

The same file and the same seed give a byte-identical event log. :func:`steps` walks the
actions one at a time (the state after each, and its events) — the one loop behind
:func:`run`, the ``--after N`` option of every query (:func:`state_after`) and the HTML
viewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional

from tapeline.board.errors import TapelineError
from tapeline.rules import choices
from tapeline.rules.errors import IllegalAction
from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from . import validate
from .load import Loaded
from .vocab import ActionEntry, Entry, ExpectEntry, ReplayContext, is_activation


@dataclass(frozen=True)
class Replay:
    ok: bool
    events: Events
    expectations: list[dict[str, Any]]
    final: GameState

    def as_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "events": self.events, "expectations": self.expectations, "final": self.final.snapshot()}


@dataclass(frozen=True)
class Step:
    """One resolved action: its index, the state after it and the events it produced (the
    first is ``{"type": "action", ...}``)."""

    index: int
    state: GameState
    events: Events


def context(loaded: Loaded) -> ReplayContext:
    """A fresh replay context: the file's dice (seeded or recorded) and settings."""
    return ReplayContext(dice=loaded.dice(), settings=loaded.spec.settings)


def steps(loaded: Loaded, ctx: Optional[ReplayContext] = None, upto: Optional[int] = None) -> Iterator[Step]:
    """Resolve the file's actions in order (through index ``upto`` when given), yielding the
    state after each. Raises :class:`IllegalAction` located at the action's index."""
    ctx = ctx or context(loaded)
    state = loaded.state
    actions = loaded.spec.actions
    last = len(actions) - 1 if upto is None else upto
    for i, act in enumerate(actions[: last + 1]):
        state, evs = resolve_file_action(state, act, ctx, i)
        yield Step(i, state, evs)


def resolve_file_action(state: GameState, act: ActionEntry, ctx: ReplayContext, i: int) -> tuple[GameState, Events]:
    """The file's action ``i`` resolved (:func:`resolve`), a model it names that is no longer on
    the table refused first; errors located at ``actions[i]``."""
    ctx.index = i
    _standing(act, state, "actions", i)
    try:
        return resolve(state, act, ctx, i)
    except IllegalAction as e:
        raise e.at(i) from None
    except TapelineError as e:
        raise e.located(f"actions[{i}]") from None


def resolve(state: GameState, act: ActionEntry, ctx: ReplayContext, index: int) -> tuple[GameState, Events]:
    """Resolve one action on ``state`` (``index``: its place in the play, ``ctx.index``): the
    new state and its events, the first ``{"type": "action", ...}``. Raises
    :class:`IllegalAction` (or another :class:`TapelineError`) and changes nothing — the state
    is a value; ``ctx``'s dice and results are the caller's to keep or drop. The action event
    carries the ``readings`` the action relied on (:mod:`tapeline.rules.choices`), if any."""
    ctx.index = index
    with choices.recording() as used:
        new_state, evs = _activation(state, act, ctx)
    head: dict[str, Any] = {"type": "action", "index": index, "action": act.action}
    if used:  # the defaults of choices the action left open, and the settings it relied on
        head["readings"] = dict(used)
    return new_state, [head] + list(evs)


def _activation(state: GameState, act: ActionEntry, ctx: ReplayContext) -> tuple[GameState, Events]:
    """Resolve one action; an action that is an activation (its class names its ``activation``
    kind) is checked against the round first and recorded in it after, by the system's
    ``activation`` rules when it has them (StarCraft §8.6, §8.8); outside a round both are
    no-ops."""
    if not is_activation(act):
        return act.apply(state, ctx)
    kind = act.activation
    rules = rules_for(state.system)
    new, evs = act.apply(rules.before_activation(state, act.unit, kind), ctx)
    outcome = ctx.results.get(ctx.index, {}) if ctx.index is not None else {}
    success = bool(outcome.get("charge", {}).get("success", True))
    new, more = rules.after_activation(new, act.unit, kind, success)
    return new, list(evs) + more


def _standing(entry: Entry, state: GameState, section: str, index: int) -> None:
    """Refuse an entry naming a model removed by now, at the reference's place."""
    for field, message in validate.removed_problems(entry, state):
        err = IllegalAction("ids", message, index if section == "actions" else None)
        err.location = validate.located(section, index, field)
        raise err


def resolve_after(loaded: Loaded, n: int) -> int:
    """The 0-based index of action ``n`` (``-1``: the last), or ``IndexError`` naming the valid
    range: no other negative index is taken (``-2`` is not "the one before the last")."""
    count = len(loaded.spec.actions)
    if count == 0:
        if n == -1:
            return -1  # no action: the state the file sets up
        raise IndexError("the file has no actions (only --after -1 is allowed)")
    if n == -1:
        return count - 1
    if not 0 <= n < count:
        raise IndexError(f"the file has {count} action(s): N is 0..{count - 1}, or -1 for after the last")
    return n


def state_after(loaded: Loaded, n: int) -> GameState:
    """The state after action ``n`` (0-based; ``-1`` after the last), replayed with the file's dice."""
    upto = resolve_after(loaded, n)
    state = loaded.state
    for step in steps(loaded, upto=upto):
        state = step.state
    return state


def run(loaded: Loaded, on_step: Optional[Callable[[Step], None]] = None) -> Replay:
    """Resolve every action and check every expectation; ``on_step`` (if given) sees each
    :class:`Step` as it is resolved (the HTML viewer draws them)."""
    spec = loaded.spec
    ctx = context(loaded)
    state = loaded.state
    events: Events = []
    checks: list[dict[str, Any]] = []
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
            _standing(e, state, "expect", k)
            try:
                ok, detail = e.check(state, ctx)
            except TapelineError as err:  # it cannot be evaluated on this state: say where
                raise err.located(f"expect[{k}]") from None
            checks.append({"expect": e.expect, "index": k, "ok": bool(ok), "detail": detail})

    check_due(-1)
    for step in steps(loaded, ctx):
        if on_step is not None:
            on_step(step)
        events.extend(step.events)
        state = step.state
        check_due(step.index)
    check_due(n)
    return Replay(all(c["ok"] for c in checks), events, checks, state)


def _after(e: ExpectEntry, n: int) -> int:
    return e.checked_after(n)
