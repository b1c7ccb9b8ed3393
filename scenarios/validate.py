"""Static validation of ``actions:`` and ``expect:``: everything ``check`` can see without
replaying, so that a file ``check`` passes never fails a replay for a reason it could have seen.

Every action and expectation model says what it names, and the checks here need nothing else:

* ``refs()`` yields ``(field, kind, ident)`` or ``(field, kind, ident, within)``: ``field`` is
  the dotted place inside the entry (``targets.0``, ``batches.1.weapon``), ``kind`` a key of
  :data:`KINDS`, ``within`` narrows it (a model *of unit* ``within``, a weapon *of unit*
  ``within``, an action *of word* ``within``). Built-in kinds: ``model`` (a model that must be
  on the table when the entry is resolved or checked), ``casualty`` (a model of the file that
  may have been removed by then: a casualty list), ``unit``, ``unit_or_model``, ``side``, ``terrain``,
  ``weapon`` (of unit ``within``), ``melee_weapon`` (one model ``within`` strikes with in close
  combat), ``gambit``, ``action``; a module may add its own with :func:`kind`.
* ``needs`` (optional, a class attribute) names the :class:`~tapeline.rules.systems.RuleSystem`
  methods the entry calls that a system may lack (``("challenge",)``): a file of a system
  without one of them is refused at the entry's word (``actions[0].action``), as the replay
  would refuse it (``RuleSystem.lacks``).
* ``static_problems(ctx)`` (optional) yields ``(field, message)`` for anything else a rule can decide
  on the initial state (:class:`Static` gives the state, the file and the entry's index).

Besides, an entry's ``after:`` must name an existing action (or ``-1``) and an ``action``
reference must be resolved by then. Each problem is located
``actions[3].targets[0]`` / ``expect[2].after``, the same way as a schema error.

What only the dice decide is checked while replaying, from the same ``refs()``:
:func:`removed_problems` finds the ``model`` references to models removed by then (a gap to a
dead model is an error at its place, never a silent measurement of where it fell).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, TypeVar, Union

from tapeline.board.errors import TapelineError
from tapeline.rules.state import GameState
from tapeline.rules.systems import SYSTEMS, rules_for

from .expectations.common import ExpectBase
from .schema import Scenario
from .suggest import hint
from .vocab import Entry, Within

#: A place in the file (``("actions", 3, "targets", 0)``).
Location = tuple[Union[str, int], ...]
#: A problem: its place in the file and what is wrong there.
Problem = tuple[Location, str]


@dataclass(frozen=True)
class Static:
    """What a static check sees: the validated file, its initial state, and which entry."""

    spec: Scenario
    state: GameState
    section: str = "actions"
    index: int = 0

    @property
    def n_actions(self) -> int:
        return len(self.spec.actions)


#: The checker of a reference kind: ``check(ctx, ident, within, entry)`` returns a problem
#: message, or None when fine. What ``ident`` and ``within`` are depends on the kind (an id or
#: an action's index; a unit id or action words): each checker declares its own.
Checker = Callable[[Static, Any, Any, Entry], Optional[str]]
CheckerT = TypeVar("CheckerT", bound=Checker)

#: kind -> its checker.
KINDS: dict[str, Checker] = {}


def kind(name: str) -> Callable[[CheckerT], CheckerT]:
    """Register the checker of a reference kind (``@kind("template")``)."""

    def deco(fn: CheckerT) -> CheckerT:
        KINDS[name] = fn
        return fn

    return deco


@kind("model")
def _model(ctx: Static, ident: str, within: Optional[str], entry: Entry) -> Optional[str]:
    fig = ctx.state.figures.get(ident)
    if fig is None:
        return f"no model with id {ident!r}" + hint(ident, ctx.state.figures)
    if within is not None and ctx.state.has_unit(within) and fig.unit != within:
        return f"model {ident!r} is not in unit {within!r} (it is in {fig.unit!r})"
    return None


@kind("casualty")
def _casualty(ctx: Static, ident: str, within: Optional[str], entry: Entry) -> Optional[str]:
    return _model(ctx, ident, within, entry)


@kind("unit")
def _unit(ctx: Static, ident: str, within: Within, entry: Entry) -> Optional[str]:
    return None if ctx.state.has_unit(ident) else f"no unit with id {ident!r}" + hint(ident, [u.id for u in ctx.state.units])


@kind("unit_or_model")
def _unit_or_model(ctx: Static, ident: str, within: Within, entry: Entry) -> Optional[str]:
    if ctx.state.has_unit(ident) or ident in ctx.state.figures:
        return None
    return f"no unit or model with id {ident!r}" + hint(ident, [*(u.id for u in ctx.state.units), *ctx.state.figures])


@kind("side")
def _side(ctx: Static, ident: str, within: Within, entry: Entry) -> Optional[str]:
    return side_problem(ctx.state, ident)


def side_problem(state: GameState, ident: str) -> Optional[str]:
    """Why ``ident`` is no side of the file (one its units have), or None."""
    sides = sorted({u.side for u in state.units})
    return None if ident in sides else f"no side {ident!r} (the file's sides: {', '.join(sides) or 'none'})"


@kind("terrain")
def _terrain(ctx: Static, ident: str, within: Within, entry: Entry) -> Optional[str]:
    return None if ident in ctx.state.table.by_id else f"no terrain piece with id {ident!r}" + hint(ident, ctx.state.table.by_id)


@kind("weapon")
def _weapon(ctx: Static, ident: str, within: Optional[str], entry: Entry) -> Optional[str]:
    """A weapon of unit ``within``'s profile (StarCraft §5.1; the other systems' files give
    their weapons to the commands that use them)."""
    if within is None or not ctx.state.has_unit(within):
        return None
    return rules_for(ctx.state.system).weapon_problem(ctx.state, within, ident)


@kind("melee_weapon")
def _melee_weapon(ctx: Static, ident: str, within: Optional[str], entry: Entry) -> Optional[str]:
    """A weapon model ``within`` may strike with in close combat (a fight, a Close Combat
    Attack, a challenge), as the file's system decides it from the profiles."""
    if within is None or within not in ctx.state.figures:
        return None
    return rules_for(ctx.state.system).melee_weapon_problem(ctx.state, within, ident)


@kind("strike_group")
def _strike_group(ctx: Static, ident: str, within: Within, entry: Entry) -> Optional[str]:
    """A Strike Group a fight of the file could have (Horus Heresy §A.7: ``UNIT WEAPON``)."""
    return rules_for(ctx.state.system).strike_group_problem(ctx.state, ident)


@kind("gambit")
def _gambit(ctx: Static, ident: str, within: Within, entry: Entry) -> Optional[str]:
    """A Gambit of the file's system (Horus Heresy §A.6); a system with none refuses the
    challenge itself."""
    gambits = rules_for(ctx.state.system).gambits
    if not gambits or ident in gambits:
        return None
    return f"{ident!r} is not a core Gambit{hint(ident, gambits)} (the Gambits: {', '.join(gambits)})"


@kind("action")
def _action(ctx: Static, ident: int, within: Within, entry: Entry) -> Optional[str]:
    """An earlier action (of word ``within``, when given) resolved before the entry is checked."""
    n = ctx.n_actions
    if not 0 <= ident < n:
        return f"there is no action {ident} (the file has {n} action{'s' if n != 1 else ''})"
    word = ctx.spec.actions[ident].action
    if within is not None and word not in ((within,) if isinstance(within, str) else tuple(within)):
        return f"action {ident} is a {word!r} action, not {within!r}"
    after = entry.checked_after(n) if isinstance(entry, ExpectBase) else n
    if ctx.section == "expect" and after < ident:
        return ("this is checked before any action" if after < 0 else f"this is checked after action {after}") + \
            f", before action {ident} is resolved"
    return None


def repeated_targets(targets: Sequence[str]) -> list[tuple[int, str, int]]:
    """``(index, target, index of its first naming)`` for every target named again: a charge
    declares each target unit once (the action, the expectation and the question refuse
    repeats, located at the repeat)."""
    return [(i, t, list(targets).index(t)) for i, t in enumerate(targets) if t in targets[:i]]


def target_problems(targets: Sequence[str]) -> Iterable[tuple[str, str]]:
    """``(field, message)`` for each repeated target of a file's charge entry."""
    for i, t, first in repeated_targets(targets):
        yield f"targets.{i}", f"{t!r} is already a declared target of the charge (targets[{first}]): name each target unit once"


def settings_problems(spec: Scenario, state: GameState) -> list[Problem]:
    """The file's ``settings:`` that its system does not read (another system's: a 40k setting
    in a StarCraft file), and those that name what the file lacks (a ``home_edges`` side no
    unit has)."""
    own = rules_for(spec.system).settings
    out: list[Problem] = []
    for name in sorted(set(spec.settings.model_fields_set) - own):
        readers = [s for s in SYSTEMS if name in rules_for(s).settings]  # (the error's path only: loads the others)
        out.append((("settings", name), f"{name} is a setting of system {' and '.join(readers) or 'none'}: "
                    f"a {spec.system} file does not read it"))
    for side in spec.settings.home_edges:
        msg = side_problem(state, side)
        if msg is not None:
            out.append((("settings", "home_edges", side), msg))
    return out


def problems(spec: Scenario, state: GameState) -> list[Problem]:
    """Every static problem of the file's settings, actions and expectations, located."""
    out: list[Problem] = settings_problems(spec, state)
    for section in ("actions", "expect"):
        for i, entry in enumerate(getattr(spec, section)):
            ctx = Static(spec, state, section, i)
            out += [((section, i, *_path(f)), msg) for f, msg in entry_problems(ctx, entry)]
    return out


def entry_problems(ctx: Static, entry: Entry) -> Iterator[tuple[str, str]]:
    """(field, message) for one entry: its word (one of the file's system), its ``after:``, its
    references, its own checks. A word of another system is the entry's one problem."""
    rules = rules_for(ctx.state.system)
    for method in getattr(entry, "needs", ()):
        refusal = rules.lacks(method)
        if refusal is not None:
            yield ("action" if ctx.section == "actions" else "expect"), str(refusal)
            return
    after = getattr(entry, "after", None)
    if ctx.section == "expect" and isinstance(after, int) and after >= ctx.n_actions:
        n = ctx.n_actions
        yield "after", (f"there is no action {after} (the file has {n} action{'s' if n != 1 else ''}; "
                        "after: -1 is after the last, after: start before any)")
    for ref in entry.refs() if hasattr(entry, "refs") else ():
        field, what, ident = ref[:3]
        within = ref[3] if len(ref) > 3 else None
        check = KINDS.get(what)
        if check is None:
            raise KeyError(f"{type(entry).__name__}.refs() names kind {what!r}: register it with validate.kind")
        msg = check(ctx, ident, within, entry)
        if msg is not None:
            yield field, msg
    own = getattr(entry, "static_problems", None)
    if own is not None:
        try:
            yield from own(ctx) or ()
        except TapelineError as e:  # a rule refused on the initial state: the entry's own place
            yield "", getattr(e, "message", None) or str(e)


def removed_problems(entry: Entry, state: GameState) -> list[tuple[str, str]]:
    """(field, message) for each ``model`` reference of ``entry`` to a model no longer on the
    table of ``state`` (removed as a casualty)."""
    out = []
    for ref in entry.refs() if hasattr(entry, "refs") else ():
        field, what, ident = ref[:3]
        if what == "model" and isinstance(ident, str) and ident in state.figures and not state.on_table(ident):
            out.append((field, f"model {ident!r} is no longer on the table (removed from {state.removed_from(ident)})"))
    return out


def located(section: str, index: int, field: str) -> str:
    """``actions[3].targets[0]`` for ``("actions", 3, "targets.0")``."""
    out = f"{section}[{index}]"
    for p in _path(field):
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def _path(field: str) -> Location:
    return tuple(int(p) if p.isdigit() else p for p in field.split(".")) if field else ()
