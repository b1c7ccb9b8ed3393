"""The game: a scenario's table and the state of play on it, as every client drives it.

>>> import tapeline
>>> game = tapeline.open(tapeline.example("showcase.yaml"))
>>> game.measure("c2", "zb1").gap
0.740157...
>>> game.los("c2", "zb1").visible
False

A :class:`Game` holds the file (its table, units, dice and actions) and a stack of the moves
made on it. Every question is a method with typed arguments that asks the file's rule system
(:func:`tapeline.rules.systems.rules_for`) and answers with a typed value of
:mod:`tapeline.scenarios.answers`, whose fields are exactly the command's ``--json`` object.
:meth:`Game.push` makes a move (an entry of a file's ``actions:``) and :meth:`Game.pop` takes it
back; :meth:`Game.after` is the game after the file's own action ``n``. The command line, a
session (``tapeline shell``) and the web table are clients of this class.

A bad argument raises :class:`tapeline.scenarios.errors.ArgumentError` naming it, a mistyped
id :class:`tapeline.UnknownId` with the closest ids, a move the rules refuse
:class:`tapeline.IllegalAction` — and the game is unchanged. A game is not safe to share between
threads that make moves; questions only read it.
"""

from __future__ import annotations

import copy
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, TypeVar, Union, cast

import pydantic

from tapeline.board.errors import GeometryError, TapelineError
from tapeline.board.render import FILLS, Svg
from tapeline.board.measure import contact, gap
from tapeline.board.pathcheck import check_path
from tapeline.board.templates import coverage, place, shape_table
from tapeline.rules import choices
from tapeline.rules.charge_geometry import space_for
from tapeline.rules.dice import Dice
from tapeline.rules.errors import ChoiceError, IllegalAction, NotInThisSystem, UnknownId
from tapeline.rules.state import GameState
from tapeline.rules.systems import FightChoices, RuleSystem, rules_for

from . import analysis
from . import answers as A
from . import overlays as overlays_
from . import replay, validate, viewer, vocab
from .actions.shoot import GUARDIAN_SHIELD
from .errors import ArgumentError, ScenarioError
from .limits import MAX_BASE_MM, MAX_CHARGE_MODIFIER, MAX_INCHES, MAX_LIST, MAX_SPLIT_ATTACKS, MAX_SPLIT_UNITS, MIN_BASE_MM
from .load import Loaded, parse, read, schema_problems
from .schema import Scenario
from .vocab import ActionEntry
from .zones import Zone
from .suggest import closest, unknown

__all__ = ["Game", "open", "parse_text", "example"]


PathLike = Union[str, "os.PathLike[str]"]
Point = tuple[float, float]
EXAMPLES = Path(__file__).resolve().parent / "examples"
#: Models a template passes close to without covering them are listed up to this far (inches).
NEAR_MISS = 1.0
#: The bounds of the ``attack`` question's modifiers (the same as a ``shoot`` action's Batch).
ATTACK_BOUNDS = {"hit": (-6, 6), "precision": (0, 100), "critical_hit": (0, 100), "tough": (0, 100), "dodge": (0, 100),
                 "damage_reduction": (0, 100)}


def example(name: str) -> str:
    """The path of a bundled example scenario (``scenarios/examples/NAME``)."""
    p = EXAMPLES / name
    if not p.is_file():
        known = ", ".join(sorted(q.name for q in EXAMPLES.iterdir() if q.suffix in (".yaml", ".json")))
        raise FileNotFoundError(f"no bundled example {name!r}; the examples: {known}")
    return str(p)


def units(system: str) -> A.Units:
    """The bundled unit catalogue of ``system`` (``starcraft``, ``heresy``, ``classic40k``): each
    profile's stats and weapons, as ``tapeline units SYSTEM`` prints them.

    >>> units("heresy").profiles[0]["key"]
    'legion-tactical-squad'
    """
    from tapeline.rules.systems import SYSTEMS

    name = str(system).strip().lower()
    if name not in SYSTEMS:
        near = closest(str(system)[:40], SYSTEMS)
        raise ArgumentError("system", f"unknown system {str(system)[:40]!r}; " + (f"closest: {', '.join(near)}" if near
                            else f"systems: {', '.join(SYSTEMS)}"))
    rules = rules_for(name)
    return A.Units.from_json({"system": name, "title": rules.title, "profiles": rules.catalogue_listing()})


def open(path: PathLike, after: Optional[int] = None, *, strict: bool = False) -> "Game":  # noqa: A001 - tapeline.open
    """Load and validate a scenario file (``.yaml``, ``.yml`` or ``.json``).

    Raises :class:`tapeline.scenarios.errors.ScenarioError` naming the place in the file for any
    problem. With ``after``, the game after that action of the file. ``strict``: a choice the
    rules give a player that the file or a question leaves to its default is an error listing
    the legal options (docs/choices.md), as the file's setting ``strict_choices: true``.
    """
    game = Game(read(os.fspath(path)), strict=_flag(strict, "strict"))
    return game if after is None else game.after(after)


def parse_text(text: str, name: str = "<scenario>", *, strict: bool = False) -> "Game":
    """A game from scenario text (YAML or JSON) instead of a file; ``name`` is used in errors."""
    return Game(parse(text, name), strict=_flag(strict, "strict"))


@dataclass(frozen=True)
class Ply:
    """One move made: the action, the state after it, its events, and the dice and results as
    they stand after it (what the next move continues from)."""

    action: Optional[ActionEntry]
    state: GameState
    events: tuple[dict[str, Any], ...]
    dice: Dice = field(repr=False, compare=False)
    results: Mapping[int, dict[str, Any]] = field(repr=False, compare=False)


class _Timeline:
    """The file's own actions resolved so far, shared by the games made from one file (so that
    :meth:`Game.after` replays an action once, whichever game asks)."""

    def __init__(self, loaded: Loaded):
        self.loaded = loaded
        self.plies: list[Ply] = []

    def upto(self, index: int, start: Ply) -> list[Ply]:
        """The file's plies through action ``index``, resolving those not resolved yet."""
        actions = self.loaded.spec.actions
        while len(self.plies) <= index:
            i = len(self.plies)
            self.plies.append(_resolve(self.loaded, self.plies[-1] if self.plies else start, actions[i], i, file=True))
        return self.plies[: index + 1]


def _start(loaded: Loaded) -> Ply:
    """The file's set-up as a ply: its state, fresh dice, no results."""
    return Ply(None, loaded.state, (), loaded.dice(), {})


def _resolve(loaded: Loaded, before: Ply, action: ActionEntry, index: int, file: bool = False) -> Ply:
    """One move from ``before`` (:func:`tapeline.scenarios.replay.resolve`; ``file``: the
    file's own action ``index``, as a replay resolves it): raises with nothing changed, else
    the ply after it."""
    ctx = vocab.ReplayContext(dice=copy.deepcopy(before.dice), settings=loaded.spec.settings, index=index,
                              results=dict(before.results))
    resolve = replay.resolve_file_action if file else replay.resolve
    new, events = resolve(before.state, action, ctx, index)
    return Ply(action, new, tuple(events), ctx.dice, ctx.results)


class Game:
    """A scenario's table and the state of play: questions, moves, pictures.

    ``game.state`` is the immutable :class:`tapeline.rules.state.GameState` after the moves made
    so far; ``game.file``, ``game.name`` and ``game.system`` describe the file; ``game.rules`` is
    its :class:`~tapeline.rules.systems.RuleSystem`; ``game.moves`` the actions made on it.
    ``strict=True``: a choice left to its default is an error listing the legal options, in the
    moves and in the questions (``game.strict`` says which; docs/choices.md).
    """

    def __init__(self, loaded: Loaded, _timeline: Optional[_Timeline] = None, _plies: Sequence[Ply] = (), *,
                 strict: bool = False):
        if strict and not loaded.spec.settings.strict_choices:
            loaded, _timeline, _plies = loaded.strict(), None, ()
        self._loaded = loaded
        self._timeline = _timeline or _Timeline(loaded)
        self._start = _start(loaded)
        self._plies: list[Ply] = list(_plies)
        self._from_file = len(self._plies)  # how many of the plies are the file's own actions

    # --- what it is ---------------------------------------------------------------------------

    @property
    def file(self) -> str:
        """The file the game was read from."""
        return self._loaded.file

    @property
    def name(self) -> str:
        """The scenario's ``name`` (or the file name)."""
        return str(self._loaded.spec.name or os.path.basename(self.file))

    @property
    def system(self) -> str:
        """``starcraft``, ``heresy`` or ``classic40k``."""
        return self._loaded.state.system

    @property
    def strict(self) -> bool:
        """Whether a choice left to its default is an error (strict mode)."""
        return bool(self._loaded.spec.settings.strict_choices)

    def strict_game(self) -> "Game":
        """This game in strict mode: the file's actions replayed strictly, the moves made on
        this game made again (a move that left a choice to its default raises)."""
        if self.strict:
            return self
        game = Game(self._loaded, strict=True)
        if self.index is not None:
            return game.after(self.index)
        for action in self.moves:
            game.push(action)
        return game

    @property
    def rules(self) -> RuleSystem:
        """The file's rule system."""
        return rules_for(self.system)

    @property
    def spec(self) -> Scenario:
        """The validated file (the scenario format's objects)."""
        return self._loaded.spec

    @property
    def zones(self) -> tuple[Zone, ...]:
        """The file's zones (deployment zones, objectives), in file order."""
        return self._loaded.zones

    @property
    def state(self) -> GameState:
        """The state after the moves made so far (immutable)."""
        return self._top.state

    @property
    def actions(self) -> int:
        """How many actions the file lists."""
        return len(self._loaded.spec.actions)

    @property
    def moves(self) -> tuple[ActionEntry, ...]:
        """The actions made so far (the file's, through :meth:`after`, then those pushed)."""
        return tuple(p.action for p in self._plies if p.action is not None)

    @property
    def index(self) -> Optional[int]:
        """The file's action the game stands after (``None``: as the file sets it up, or after
        moves of its own)."""
        return self._from_file - 1 if self._plies and len(self._plies) == self._from_file else None

    @property
    def _top(self) -> Ply:
        return self._plies[-1] if self._plies else self._start

    def __repr__(self) -> str:
        when = ""
        if self.index is not None:
            when = f", after action {self.index}"
        elif self._plies:
            when = f", {len(self._plies)} move{'s' if len(self._plies) != 1 else ''} made"
        return f"<tapeline.Game {self.name!r} ({self.system}){when}>"

    # --- moves --------------------------------------------------------------------------------

    def push(self, action: Union[Mapping[str, Any], ActionEntry]) -> list[dict[str, Any]]:
        """Make one move: ``action`` is an entry of a file's ``actions:`` (a mapping such as
        ``{"action": "run", "unit": "marines", "leader": "m1", "path": [[12, 9]]}``, or the
        format's action object). Returns its events (every die with its purpose, every verdict).

        A malformed action raises :class:`ScenarioError` (located inside the action), a mistyped
        id :class:`UnknownId`, a move the rules refuse :class:`IllegalAction` naming the rule:
        the game is then unchanged.
        """
        act = self._action(action)
        index = len(self._plies)
        self._check_refs(act, index)
        ply = _resolve(self._loaded, self._top, act, index)
        self._plies.append(ply)
        return copy.deepcopy(list(ply.events))

    def pop(self) -> ActionEntry:
        """Take back the last move (the state, the dice and what the move did are as before
        it); returns its action. :class:`ArgumentError` when no move was made."""
        if not self._plies:
            raise ArgumentError("pop", "no move to take back")
        ply = self._plies.pop()
        self._from_file = min(self._from_file, len(self._plies))
        assert ply.action is not None  # only the set-up has none, and it is never on the stack
        return ply.action

    def _action(self, action: object) -> ActionEntry:
        """The format's action object for ``action`` (validated, with located errors)."""
        word = getattr(action, "action", None)
        if isinstance(word, str) and word in vocab.ACTIONS and isinstance(action, vocab.model("action", word)):
            return cast(ActionEntry, action)  # an object of the word's own model
        if not isinstance(action, Mapping):
            raise ArgumentError("action", f"an action is a mapping such as a file's actions: entry, not {_kind(action)}")
        word = action.get("action")
        if not isinstance(word, str) or word not in vocab.ACTIONS:
            known = ", ".join(sorted(vocab.ACTIONS))
            raise ScenarioError("push", [("action", f"unknown action {word!r} (known: {known})" if isinstance(word, str)
                                          else f"name the action with action: one of {known}")])
        try:
            return cast(ActionEntry, vocab.model("action", word).model_validate(dict(action)))
        except pydantic.ValidationError as e:
            problems = schema_problems([dict(err) for err in e.errors(include_url=False)])
            raise ScenarioError("push", [(_dotted(loc), msg) for loc, msg in problems]) from None

    def _check_refs(self, act: ActionEntry, index: int) -> None:
        """Every id the action names exists and still stands (else :class:`UnknownId` or
        :class:`IllegalAction`, located inside the action)."""
        st = self.state
        ctx = validate.Static(self._loaded.spec, st, "actions", index)
        for ref in act.refs():
            where, kind, ident = ref[:3]
            if not isinstance(ident, str) or kind not in ("model", "unit"):
                continue  # (an action index: checked with the rest below)
            if not (st.has_unit(ident) if kind == "unit" else ident in st.figures):
                known = [u.id for u in st.units] if kind == "unit" else [m for u in st.units for m in u.models]
                raise _unknown(kind, ident, known, f"action.{where}")
        for where, message in validate.entry_problems(ctx, act):
            err = IllegalAction("ids", message)
            err.location = "action" + ("." + where if where else "")
            raise err
        for where, message in validate.removed_problems(act, st):
            err = IllegalAction("ids", message)
            err.location = f"action.{where}"
            raise err

    def after(self, n: int) -> "Game":
        """The game after the file's action ``n`` (0-based; ``-1``: after the last), the file's
        actions resolved with its own dice. Incremental: an action resolved once (by this game or
        another made from the same file) is not resolved again."""
        if not isinstance(n, int) or isinstance(n, bool):
            raise ArgumentError("after", f"the index of an action (a whole number), not {_kind(n)}")
        try:
            upto = replay.resolve_after(self._loaded, n)
        except IndexError as e:
            raise ArgumentError("after", str(e)) from None
        plies = self._timeline.upto(upto, self._start) if upto >= 0 else []
        return Game(self._loaded, self._timeline, plies)

    def replay(self) -> A.Replay:
        """Resolve every action of the file and check its expectations: the event log (every
        die with its purpose, every verdict) and each expectation's verdict."""
        return A.Replay.from_json(replay.run(self._loaded).as_json())

    # --- questions ------------------------------------------------------------------------------

    def measure(self, a: str, b: str) -> A.Measure:
        """Gap, base contact, Engagement Range and engagement between models ``a`` and ``b``."""
        a, b = self._pair(a, b)
        st = self.state
        fa, fb = st.figure(a), st.figure(b)
        c = contact(fa, fb)
        e = self.rules.engaged(st, a, b)
        return self._drawn(A.Measure.from_json({
            "a": a, "b": b, "gap": 0.0 if c.ok else gap(fa, fb), "contact": c.ok,
            "engagement_range": e.in_range.ok, "engaged": e.engaged, "engagement_distance": self.rules.engagement_range,
            "margin": e.in_range.margin, "reason": e.reason, "detail": e.detail,
        }), measure=(a, b))

    def los(self, a: str, b: str) -> A.Sight:
        """Line of sight from model ``a`` to model ``b``: a witness segment, or what blocks it."""
        a, b = self._pair(a, b)
        return self._drawn(A.Sight.from_json({"a": a, "b": b} | self.rules.visible(self.state, a, b).as_dict()), los=(a, b))

    def charge(self, unit: str, targets: Union[str, Sequence[str]], *, leader: Optional[str] = None,
               roll: Optional[int] = None, modifier: int = 0,
               target_models: Optional[Mapping[str, str]] = None, spots: Optional[Mapping[str, Point]] = None) -> A.Charge:
        """The shortest path ``unit``'s Leading Model needs to a legal end spot against the
        declared ``targets``, the smallest roll and the exact probability; with ``roll`` (the
        die kept) the outcome. ``target_models`` nominates a model per target unit; ``spots``
        (StarCraft, with ``roll``) sets the rest of the unit, as a ``charge`` action's ``set:``."""
        st = self.state
        u = self._unit(unit, "unit")
        tg = [self._unit(t, "targets") for t in _names(targets, "targets")]
        twice = sorted({t for _i, t, _first in validate.repeated_targets(tg)})
        if twice:
            raise ArgumentError("targets", f"{', '.join(twice)} named more than once: name each target unit once")
        lead = self._model(leader, "leader") if leader is not None else None
        if lead is not None and st.figure(lead).unit != u:
            raise ArgumentError("leader", f"{lead} is not a model of {u}")
        mod = _whole(modifier, "modifier", -MAX_CHARGE_MODIFIER, MAX_CHARGE_MODIFIER)
        nominated: dict[str, str] = {}
        for t, m in _mapping(target_models, "target_models").items():
            if self._unit(t, "target_models") not in tg:
                raise ArgumentError("target_models", f"{t} is not a declared target (--target)")
            if st.figure(self._model(m, "target_models")).unit != t:
                raise ArgumentError("target_models", f"{m} is not a model of {t}")
            nominated[t] = m
        given = {self._model(m, "set"): _point(p, "set") for m, p in _mapping(spots, "set").items()}
        if given and roll is None:
            raise ArgumentError("set", "spots for the rest of the unit need the charge's --roll")

        def ask() -> dict[str, Any]:
            try:
                _rc, out = self.rules.charge_reach(st, u, tg, lead, mod)
            except ChoiceError as e:
                raise ArgumentError(e.choice, e.message) from None
            if roll is not None:
                r = _whole(roll, "roll", 1, 6, "a die result 1..6")
                try:
                    _new, res = self.rules.charge_outcome(st, u, tg, [r], lead, mod, nominated, given or None)
                except ChoiceError as e:
                    raise ArgumentError(e.choice, e.message) from None
                except IllegalAction as e:
                    if e.field and e.field.startswith("set."):
                        raise ArgumentError("set", f"{e.message} ({e.rule})") from None
                    raise
                out["success"] = res["success"]
                out["roll"] = res
                if res["success"]:
                    out["end"], out["path"] = res["end"], res["path"]
            return out

        return self._drawn(_with_readings(A.Charge, ask), charge=u, target=tg)

    def path(self, model: str, via: Sequence[Point], *, max: Optional[float] = None,  # noqa: A002
             may_engage: bool = False) -> A.PathCheck:
        """Is a move of ``model``'s centre through the points ``via`` legal (no longer than
        ``max``)? The first violation along it when not."""
        st = self.state
        m = self._model(model, "model")
        if max is not None and not (isinstance(max, (int, float)) and not isinstance(max, bool)
                                    and math.isfinite(max) and 0 <= max <= MAX_INCHES):
            raise ArgumentError("max", f"a length from 0 to {MAX_INCHES:g} inches, not {max!r}")
        points = _points(via, "via")
        if len(points) > MAX_LIST:
            raise ArgumentError("via", f"{len(points)} points; the limit is {MAX_LIST}")
        fig = st.figure(m)
        pts = [fig.at] + points
        rules = self.rules.move_rules(st, fig, bool(may_engage))
        res = check_path(space_for(st, rules), pts, max, rules.end_check(st.table, fig))
        out: dict[str, Any] = {"model": m, "legal": res.legal, "length": res.length, "clearance": rules.rho,
                               "violation": None if res.violation is None else res.violation.as_json(),
                               "ends_on": rules.level_at(*pts[-1])}
        if max is not None:
            out["max"] = max
        out.update(self.rules.path_notes(st, pts))
        return self._drawn(A.PathCheck.from_json(out), path=m, via=points, max=max)

    def analyse(self, *, step: float = 1.0, probe_base: Optional[float] = None, probe_size: Optional[int] = None,
                probe_height: Optional[float] = None, probe_speed: Optional[int] = None,
                probe_flying: bool = False) -> A.Analysis:
        """The table analysis of the layout (docs/analysis.md): exposure, hidden spots, open
        lanes, charge reach and balance between the two sides' zones, for the system's probe
        model (or one with the base in mm, Size, height in inches or Speed given; StarCraft: a
        Flying one) on a grid of ``step`` inches."""
        for name, value, lo, hi in (("probe_base", probe_base, MIN_BASE_MM, MAX_BASE_MM), ("probe_height", probe_height, 0.01, 100.0)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi):
                raise ArgumentError(name, f"a number from {lo:g} to {hi:g}, not {value!r}")
        size = None if probe_size is None else _whole(probe_size, "probe_size", 0, 20)
        speed = None if probe_speed is None else _whole(probe_speed, "probe_speed", 0, 20)
        flying = _flag(probe_flying, "probe_flying")
        return analysis.analyse(self, step, analysis.probe_for(self.rules, probe_base, size, probe_height, speed, flying))

    def attack(self, unit: str, weapon: Union[str, Sequence[str]], target: str, *, also: Sequence[str] = (),
               hit: int = 0, precision: int = 0, critical_hit: int = 0, tough: int = 0, dodge: int = 0,
               evade: bool = False, damage_reduction: int = 0, guardian_shield: Optional[str] = None) -> A.Attack:
        """Exact odds of a StarCraft Ranged Attack of ``unit`` with ``weapon`` (several: one
        Batch each) at ``target``; ``also`` adds other units' Batches (``"UNIT:WEAPON"``); the
        modifiers are the abilities' (``hit`` +X easier, extra ``precision``, ``critical_hit``,
        the target's ``tough`` and ``dodge``, ``evade``: an ability grants the target Evade,
        ``damage_reduction``: what the target's abilities take off each Batch's damage, §8.7.4
        step 5); ``guardian_shield``: the die the defender's Guardian Shield removes from each
        Batch (``attack``, ``long_range``, ``surge``; default: the setting
        ``guardian_shield_die``)."""
        t = self._unit(target, "target")
        orders = [(self._unit(unit, "unit"), w) for w in _names(weapon, "weapon")]
        for item in _names(also, "also"):
            if ":" not in item:
                raise ArgumentError("also", f"takes UNIT:WEAPON, got {item!r}")
            u, w = item.split(":", 1)
            orders.append((self._unit(u, "also"), w))
        mods: dict[str, Any] = {}
        for name, value in (("hit", hit), ("precision", precision), ("critical_hit", critical_hit), ("tough", tough),
                            ("dodge", dodge), ("damage_reduction", damage_reduction)):
            lo, hi = ATTACK_BOUNDS[name]
            mods[name] = _whole(value, name, lo, hi)
        mods["grant_evade"] = _flag(evade, "evade")
        if guardian_shield is not None:
            mods["guardian_shield"] = _choice(guardian_shield, "guardian_shield", GUARDIAN_SHIELD)
        try:
            return _with_readings(A.Attack, lambda: self.rules.attack_odds(self.state, orders, t, mods))
        except NotInThisSystem as e:
            raise ArgumentError("unit", e.message) from None
        except ChoiceError as e:
            raise ArgumentError(e.choice, e.message) from None

    def template(self, shape: Optional[str] = None, at: Optional[Point] = None, toward: Optional[Point] = None, *,
                 unit: Optional[str] = None, weapon: Optional[str] = None, target: Optional[str] = None,
                 model: Optional[str] = None, on: Optional[str] = None) -> A.Template:
        """Which models a template covers: ``shape`` placed ``at`` a point (``toward`` an aim
        point for a teardrop), in every system; or a StarCraft ``unit``'s template ``weapon``
        aimed at ``target`` (its Batches and exact odds)."""
        weapon_form = [k for k, v in (("unit", unit), ("weapon", weapon), ("target", target), ("model", model), ("on", on))
                       if v is not None]
        if shape is not None:
            if weapon_form:
                raise ArgumentError(weapon_form[0], "give either --shape (a template placed by hand) or "
                                    "--unit/--weapon/--target (a StarCraft template weapon), not both")
            answer = self._shape(_name(shape, "shape"), at, toward)
            return self._drawn(answer, template=answer.template["shape"], at=at, toward=toward)
        if unit is None or weapon is None:
            raise ArgumentError("arguments", "give --shape S --at X,Y [--toward X,Y], or --unit U --weapon W --target MODEL")
        st = self.state
        u = self._unit(unit, "unit")
        tm = self._model(target, "target") if target is not None else None
        firer = self._model(model, "model") if model is not None else None
        if on is not None and on not in st.table.by_id:
            raise ArgumentError("on", f"no terrain piece {on!r}")
        point = _point(at, "at") if at is not None else None
        try:
            answer = _with_readings(A.Template, lambda: self.rules.template_attack(st, u, _name(weapon, "weapon"), tm, firer,
                                                                                  point, on))
            return self._drawn(answer, template=(u, weapon) + ((tm,) if tm is not None else ()), model=firer, on=on, at=point)
        except NotInThisSystem as e:
            raise ArgumentError("weapon", f"{e.message}; for {self.system} place a template with --shape S --at X,Y") from None
        except ChoiceError as e:
            raise ArgumentError(e.choice, e.message) from None

    def _shape(self, shape: str, at: Optional[Point], toward: Optional[Point]) -> A.Template:
        st = self.state
        known = shape_table(st.settings.get("templates"))
        if shape not in known:
            raise ArgumentError("shape", f"unknown template shape {shape!r} (known: {', '.join(sorted(known))})")
        if at is None:
            raise ArgumentError("at", f"place the {shape} template: give --at X,Y")
        centre = _point(at, "at")
        aim = _point(toward, "toward") if toward is not None else None
        try:
            tpl = place(known[shape], centre, aim, shape)
        except GeometryError as e:
            raise ArgumentError("toward", str(e)) from None
        cov = coverage(tpl, st.all_figures())
        return A.Template.from_json({"template": tpl.as_dict(), "covered": cov.rows(), "near_misses": cov.near_misses(NEAR_MISS)})

    def fight(self, unit: str, targets: Union[str, Sequence[str]] = (), *, assign: Optional[Mapping[str, Union[str, Mapping[str, int]]]] = None,
              weapons: Optional[Mapping[str, str]] = None, surge_to: Union[None, str, Sequence[str]] = None,
              charged: Optional[str] = None, strike_order: Sequence[str] = (),
              casualties: Optional[Mapping[str, Sequence[str]]] = None,
              precision_split: Optional[Mapping[str, int]] = None,
              impact_split: Optional[Mapping[str, Mapping[str, int]]] = None,
              precision: int = 0, damage_reduction: int = 0) -> A.Fight:
        """Who fights and the exact odds of close combat for ``unit``: ``targets`` the enemy
        units to fight, ``assign`` the unit a model attacks (40k 3rd: or ``{unit: attacks}``,
        its attacks split, as the ``fight`` action's ``targets``), ``weapons`` a model's weapon,
        ``surge_to`` the unit the Surge Die goes to (StarCraft), ``charged`` the unit that
        charged this turn, ``strike_order`` the Active Player's order of Strike Groups in each
        Initiative step (Horus Heresy: ``["trt power fist", "tac chainsword"]``, the names the
        answer's steps show), ``casualties`` {unit: the defender's casualty order} (Horus
        Heresy, 40k 3rd, as the ``fight`` action's). StarCraft only, as the ``close_combat``
        and ``impact`` actions: ``precision_split`` {target: n}, ``impact_split`` {model:
        {unit: dice}} (with ``charged`` the unit itself), extra ``precision`` and
        ``damage_reduction`` (§8.7.4 step 5) as the ``attack`` question's. StarCraft: the
        unit's Close Combat Attack as the board stands; Horus Heresy and 40k: one whole round
        of its combat, Initiative step by step. Every choice left open is a reading of the
        answer, and in strict mode an error (docs/choices.md)."""
        u = self._unit(unit, "unit")
        tg = tuple(self._unit(t, "targets") for t in _names(targets, "targets"))
        by_model: dict[str, Union[str, dict[str, int]]] = {}
        for m, t in _mapping(assign, "assign").items():   # 40k: {unit: attacks}, as the fight action's targets
            parts = {} if isinstance(t, str) else _mapping(t, "assign")
            if len(parts) > MAX_SPLIT_UNITS:
                raise ArgumentError("assign", f"{m}'s attacks split between more than {MAX_SPLIT_UNITS} units")
            by_model[self._model(m, "assign")] = self._unit(t, "assign") if isinstance(t, str) else {
                self._unit(v, "assign"): _whole(n, "assign", 0, MAX_SPLIT_ATTACKS) for v, n in parts.items()}
        arms = self._by_model(weapons, "weapons")
        surge = tuple(self._unit(s, "surge_to") for s in _names(surge_to or (), "surge_to"))
        ch = self._unit(charged, "charged") if charged is not None else None
        order = tuple(_names(strike_order, "strike_order"))
        cas = self._casualty_orders(casualties)
        split = {self._unit(t, "precision_split"): _whole(n, "precision_split", 0, ATTACK_BOUNDS["precision"][1])
                 for t, n in _mapping(precision_split, "precision_split").items()}
        impact: dict[str, dict[str, int]] = {}
        for m, parts in _mapping(impact_split, "impact_split").items():
            impact[self._model(m, "impact_split")] = {self._unit(t, "impact_split"): _whole(n, "impact_split", 0, 100)
                                                      for t, n in _mapping(parts, "impact_split").items()}
        extra = {name: _whole(value, name, *ATTACK_BOUNDS[name]) for name, value in
                 (("precision", precision), ("damage_reduction", damage_reduction))}
        given = {"assign": by_model, "strike_order": order, "casualties": cas, "precision_split": split, "impact_split": impact, **extra}
        for option, why in self.rules.option_problems("fight", given):
            raise ArgumentError(option, why)
        if impact and ch != u:
            raise ArgumentError("impact_split", f"IMPACT dice come right after a successful Charge: give charged={u} (§11 IMPACT)")
        fc = FightChoices(tg, by_model, arms, surge, ch, order, cas, split, impact, extra["precision"], extra["damage_reduction"])
        try:
            return _with_readings(A.Fight, lambda: self.rules.fight_odds(self.state, u, fc))
        except ChoiceError as e:   # the impact action's ``split`` is the question's ``impact_split``
            raise ArgumentError("impact_split" if e.choice == "split" else e.choice, e.message) from None
        except IllegalAction as e:
            if e.field and e.field.startswith("strike_order"):
                raise ArgumentError("strike_order", f"{e.message} ({e.rule})") from None
            raise

    def models(self) -> A.Models:
        """Every unit and model: ids, positions, bases, levels, wounds lost, statuses, casualties."""
        st, rules = self.state, self.rules
        units = []
        for u in st.units:
            models = []
            for m in u.models:
                f = st.figure(m)
                models.append({"id": m, "at": [round(f.x, 6), round(f.y, 6)], "base": f.base.describe(), "on": f.on}
                              | rules.level(st, f) | {"wounds_lost": int(u.wounds_lost.get(m, 0))})
            units.append({
                "id": u.id, "side": u.side, "profile": u.profile, "size": u.size, "tags": sorted(u.tags),
                "status": sorted(u.status), "leader": u.leader, "damage": u.damage,
                "models": models, "removed": list(u.removed),
            })
        return A.Models.from_json({"system": st.system, "units": units})

    # --- pictures -------------------------------------------------------------------------------

    def svg(self, *, title: Optional[str] = None, fill: Optional[str] = None, crop: overlays_.Crop = None,
            **overlays: Any) -> Svg:
        """The board as an SVG picture (a ``str`` a notebook draws), with any overlay of
        ``tapeline render`` given by its option name: ``game.svg(los=("c2", "zb1"))``,
        ``game.svg(charge="roaches", target=["marines-bravo"])``.

        ``fill``: shade terrain by ``"size"`` or ``"height"`` (default: as the system decides
        sight — StarCraft by Size, Horus Heresy and 40k by height and traits). ``crop``:
        ``True`` shows only what the overlays are about (with a margin), a model id or a list
        of ids those models, a box ``(x0, y0, x1, y1)`` that part of the table.

        >>> game = open(example("showcase.yaml"))
        >>> pic = game.svg(los=("c2", "zb1"), crop=True)
        >>> pic.startswith("<svg") and 'class="view"' in pic
        True
        """
        if fill is not None and fill not in FILLS:
            raise ArgumentError("fill", f"shade terrain by one of {', '.join(FILLS)}, not {fill!r}"[:120])
        return overlays_.render(self, overlays_.options(overlays), title=self.name if title is None else title,
                                fill_by=fill, crop=crop)

    def html(self) -> str:
        """The file's replay as one self-contained web page (what ``tapeline replay FILE --html``
        writes): the board at every step, each action with its dice and verdicts."""
        return viewer.page(self._loaded)

    def _repr_svg_(self) -> str:
        """Jupyter shows a game as its board."""
        return str(self.svg())

    def _drawn(self, answer: AnswerT, **overlays: Any) -> AnswerT:
        """``answer`` drawing itself: the board as it is now, cropped to what the overlays
        ``overlays`` (the question, as ``tapeline render`` asks it) are about."""
        game = Game(self._loaded, self._timeline, self._plies)
        game._from_file = self._from_file

        def picture() -> str:
            return str(game.svg(title=f"{answer.command}: {self.name}", crop=True, **overlays))

        return answer.drawn_by(picture)

    # --- looking up what a caller names ---------------------------------------------------------

    def _model(self, ident: Any, argument: str) -> str:
        """A model on the table (:class:`UnknownId` with the closest ids, or a removed model's
        :class:`ArgumentError`)."""
        name = _name(ident, argument)
        st = self.state
        if st.on_table(name):
            return name
        gone = st.removed_from(name)
        if gone is not None:
            raise ArgumentError(argument, f"model {name!r} of {gone} has been removed as a casualty")
        raise _unknown("model", name, [m for u in st.units for m in u.models], argument)

    def _unit(self, ident: Any, argument: str) -> str:
        name = _name(ident, argument)
        if not self.state.has_unit(name):
            raise _unknown("unit", name, [u.id for u in self.state.units], argument)
        return name

    def _pair(self, a: Any, b: Any) -> tuple[str, str]:
        a, b = self._model(a, "a"), self._model(b, "b")
        if a == b:
            raise ArgumentError("b", f"A and B are the same model ({a}): name two different models")
        return a, b

    def _casualty_orders(self, given: Optional[Mapping[str, Sequence[str]]]) -> dict[str, tuple[str, ...]]:
        """``{unit: models}``: each a unit of the file, each model on the table and of that unit
        (the file's ``casualties`` check, scenarios/validate.py)."""
        out: dict[str, tuple[str, ...]] = {}
        for unit, models in _mapping(given, "casualties").items():
            u = self._unit(unit, "casualties")
            order = tuple(self._model(m, "casualties") for m in _names(models, "casualties"))
            for m in order:
                if self.state.figure(m).unit != u:
                    raise ArgumentError("casualties", f"model {m!r} is not in unit {u!r} (it is in {self.state.figure(m).unit!r})")
            out[u] = order
        return out

    def _by_model(self, given: Optional[Mapping[str, str]], argument: str) -> dict[str, str]:
        return {self._model(m, argument): _name(v, argument) for m, v in _mapping(given, argument).items()}


AnswerT = TypeVar("AnswerT", bound=A.Answer)


def _with_readings(cls: type[AnswerT], ask: Callable[[], Mapping[str, Any]]) -> AnswerT:
    """The answer ``ask()`` gives, with the readings the rules relied on (the defaults of
    choices and the settings they noted, :mod:`tapeline.rules.choices`) added to its own
    ``readings`` (40k's fight has some) — none added when none was relied on."""
    with choices.recording() as used:
        out = dict(ask())
    if used:
        out["readings"] = dict(out.get("readings") or {}) | used
    return cls.from_json(out)


def _unknown(kind: str, ident: str, known: Sequence[str], argument: str) -> UnknownId:
    err = UnknownId(kind, ident, unknown(kind, ident, known))
    err.location = argument
    return err


def _kind(value: Any) -> str:
    return "None" if value is None else f"{type(value).__name__} {value!r}"[:80]


def _name(value: Any, argument: str) -> str:
    """An id or a name: text."""
    if not isinstance(value, str):
        raise ArgumentError(argument, f"an id (text), not {_kind(value)}")
    return value


def _names(value: Union[str, Iterable[Any]], argument: str) -> list[str]:
    """One name, or several."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, Iterable) or isinstance(value, Mapping):
        raise ArgumentError(argument, f"a name or a list of names, not {_kind(value)}")
    items = list(value)
    if len(items) > MAX_LIST:
        raise ArgumentError(argument, f"{len(items)} names; the limit is {MAX_LIST}")
    return [_name(v, argument) for v in items]


def _mapping(value: Optional[Mapping[Any, Any]], argument: str) -> dict[Any, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ArgumentError(argument, f"a mapping, not {_kind(value)}")
    if len(value) > MAX_LIST:
        raise ArgumentError(argument, f"{len(value)} entries; the limit is {MAX_LIST}")
    return dict(value)


def _whole(value: Any, argument: str, lo: int, hi: int, what: Optional[str] = None) -> int:
    """A whole number from ``lo`` to ``hi`` (``what`` says what it is when out of range)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentError(argument, f"{what or f'a whole number from {lo} to {hi}'}, not {_kind(value)}")
    if not lo <= value <= hi:
        raise ArgumentError(argument, f"{what}, not {value}" if what else f"{value} is out of range ({lo} to {hi})")
    return value


def _choice(value: Any, argument: str, options: Sequence[str]) -> str:
    """One of ``options`` (words)."""
    if not isinstance(value, str) or value not in options:
        raise ArgumentError(argument, f"one of {', '.join(options)}, not {_kind(value)}")
    return value


def _flag(value: Any, argument: str) -> bool:
    if not isinstance(value, bool):
        raise ArgumentError(argument, f"true or false, not {_kind(value)}")
    return value


def _point(value: Any, argument: str) -> Point:
    """``(x, y)``: two finite numbers within the format's coordinate limit (inches)."""
    try:
        x, y = value
    except (TypeError, ValueError):
        raise ArgumentError(argument, f"a point (x, y), not {_kind(value)}") from None
    out = []
    for v in (x, y):
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or abs(v) > MAX_INCHES:
            raise ArgumentError(argument, f"a point of two numbers within ±{MAX_INCHES:g} inches, not {_kind(value)}")
        out.append(float(v))
    return out[0], out[1]


def _points(values: Any, argument: str) -> list[Point]:
    if not isinstance(values, Iterable) or isinstance(values, (str, Mapping)):
        raise ArgumentError(argument, f"a list of points (x, y), not {_kind(values)}")
    return [_point(v, argument) for v in values]


def _dotted(loc: tuple[Any, ...]) -> str:
    """A place inside a pushed action: ``action.targets[0]``."""
    out = "action"
    for p in loc:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out
