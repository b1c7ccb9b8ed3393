"""The Python front door: a scenario file as a game one can question.

>>> import tapeline
>>> game = tapeline.open(tapeline.example("showcase.yaml"))
>>> game.measure("c2", "zb1").gap
0.740157...
>>> game.los("c2", "zb1").visible
False

Every question is a method with the command's arguments and answers with a typed, immutable
value of :mod:`tapeline.scenarios.results` — the same fields, computed by the same code, as the
command's ``--json`` object. ``game.after(n)`` is the game after the file's action ``n``
(replayed with the file's dice), ``game.svg(...)`` draws the board with any overlay of
``tapeline render``, and a notebook shows a game as its picture (``_repr_svg_``).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import Any, Optional, Union

from tapeline.rules.state import GameState

from . import results as R
from .load import Loaded, parse, read

__all__ = ["Game", "open", "parse_text", "example"]

PathLike = Union[str, "os.PathLike[str]"]
Point = tuple[float, float]
EXAMPLES = Path(__file__).resolve().parent / "examples"


def example(name: str) -> str:
    """The path of a bundled example scenario (``scenarios/examples/NAME``)."""
    p = EXAMPLES / name
    if not p.is_file():
        known = ", ".join(sorted(q.name for q in EXAMPLES.iterdir() if q.suffix in (".yaml", ".json")))
        raise FileNotFoundError(f"no bundled example {name!r}; the examples: {known}")
    return str(p)


def open(path: PathLike, after: Optional[int] = None) -> "Game":  # noqa: A001 - tapeline.open, as in the issue
    """Load and validate a scenario file (``.yaml``, ``.yml`` or ``.json``).

    Raises :class:`tapeline.scenarios.errors.ScenarioError` (a :class:`TapelineError`) naming
    the place in the file for any problem. With ``after``, the game after that action.
    """
    game = Game(read(os.fspath(path)))
    return game if after is None else game.after(after)


def parse_text(text: str, name: str = "<scenario>") -> "Game":
    """A game from scenario text (YAML or JSON) instead of a file; ``name`` is used in errors."""
    return Game(parse(text, name))


@lru_cache(maxsize=None)
def _defaults(command: str) -> tuple[dict[str, Any], frozenset[str]]:
    """The command's argument defaults (by destination) and the names a caller may give."""
    from .cli import parser

    top = parser()
    (sub,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    p = sub.choices[command]
    skip = {"help", "file", "json", "after", "func"}
    defaults = {a.dest: a.default for a in p._actions if a.dest not in skip}
    defaults.update({k: v for k, v in p._defaults.items() if k not in skip})
    return defaults, frozenset(a.dest for a in p._actions if a.dest not in skip)


class Game:
    """A scenario's board and state, ready to be asked questions.

    ``game.state`` is the immutable :class:`tapeline.rules.state.GameState`; ``game.file``,
    ``game.name`` and ``game.system`` describe the file; ``game.index`` is the action the state
    follows (``None``: as the file sets it up).
    """

    def __init__(self, loaded: Loaded, index: Optional[int] = None, origin: Optional[Loaded] = None):
        self._loaded = loaded
        self._origin = loaded if origin is None else origin  # the state the file sets up
        self.index = index

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
    def state(self) -> GameState:
        """The game state (immutable)."""
        return self._loaded.state

    @property
    def actions(self) -> int:
        """How many actions the file lists."""
        return len(self._loaded.spec.actions)

    def __repr__(self) -> str:
        when = "" if self.index is None else f", after action {self.index}"
        return f"<tapeline.Game {self.name!r} ({self.system}){when}>"

    # --- moving in time -------------------------------------------------------------------------

    def after(self, n: int) -> "Game":
        """The game after the file's action ``n`` (0-based; ``-1``: after the last), the actions
        replayed from the start with the file's dice."""
        from . import cliutil, replay

        loaded = cliutil.advance(self._origin, n)
        return Game(loaded, replay.resolve_after(self._origin, n), self._origin)

    def replay(self) -> R.Replay:
        """Resolve every action of the file and check its expectations: the event log (every
        die with its purpose, every verdict) and each expectation's verdict."""
        from . import replay

        return R.Replay.from_json(replay.run(self._origin).as_json())

    # --- questions ------------------------------------------------------------------------------

    def ask(self, command: str, **arguments: Any) -> R.Result:
        """Any query command by name, with its options as keyword arguments (the option's name
        with ``_`` for ``-``; repeated options as lists): ``game.ask("los", a="c2", b="zb1")``."""
        defaults, names = _defaults(command)
        unknown = sorted(set(arguments) - names)
        if unknown:
            raise TypeError(f"{command}() got unexpected argument(s) {', '.join(unknown)}; it takes {', '.join(sorted(names))}")
        args = argparse.Namespace(**(defaults | arguments), file=self.file, json=True, after=None)
        module = import_module(f"tapeline.scenarios.commands.{command}")
        return R.result(command, module.query(self._loaded, args))

    def measure(self, a: str, b: str) -> R.Measure:
        """Gap, base contact, Engagement Range and engagement between models ``a`` and ``b``."""
        return _as(R.Measure, self.ask("measure", a=a, b=b))

    def los(self, a: str, b: str) -> R.Sight:
        """Line of sight from model ``a`` to model ``b``: a witness segment, or what blocks it."""
        return _as(R.Sight, self.ask("los", a=a, b=b))

    def charge(self, unit: str, targets: Union[str, Sequence[str]], *, leader: Optional[str] = None,
               roll: Optional[int] = None, modifier: int = 0,
               target_models: Optional[dict[str, str]] = None) -> R.Charge:
        """The shortest path ``unit``'s Leading Model needs to a legal end spot against the
        declared ``targets``, the smallest roll and the exact probability; with ``roll`` (the
        die kept) the outcome. ``target_models`` nominates a model per target unit."""
        tm = [f"{t}={m}" for t, m in (target_models or {}).items()]
        return _as(R.Charge, self.ask("charge", unit=unit, unit_opt=None, target=_list(targets), leader=leader,
                                      roll=roll, modifier=modifier, target_model=tm))

    def path(self, model: str, via: Sequence[Point], *, max: Optional[float] = None,  # noqa: A002
             may_engage: bool = False) -> R.PathCheck:
        """Is a move of ``model``'s centre through the points ``via`` legal (no longer than
        ``max``)? The first violation along it when not."""
        return _as(R.PathCheck, self.ask("path", model=model, via=[f"{x!r},{y!r}" for x, y in via], max=max,
                                         may_engage=may_engage))

    def attack(self, unit: str, weapon: Union[str, Sequence[str]], target: str, **modifiers: Any) -> R.Attack:
        """Exact odds of a StarCraft Ranged Attack of ``unit`` with ``weapon`` (several: one
        Batch each) at ``target``; ``modifiers`` are the command's options (``hit``,
        ``precision``, ``critical_hit``, ``tough``, ``dodge``, ``evade``, ``also``)."""
        return _as(R.Attack, self.ask("attack", unit=unit, weapon=_list(weapon), target=target, **modifiers))

    def template(self, shape: Optional[str] = None, at: Optional[Point] = None, toward: Optional[Point] = None, *,
                 unit: Optional[str] = None, weapon: Optional[str] = None, target: Optional[str] = None,
                 model: Optional[str] = None, on: Optional[str] = None) -> R.Template:
        """Which models a template covers: ``shape`` placed ``at`` a point (``toward`` an aim
        point for a teardrop), in every system; or a StarCraft ``unit``'s template ``weapon``
        aimed at ``target`` (its Batches and exact odds)."""
        return _as(R.Template, self.ask("template", shape=shape, at=_xy(at), toward=_xy(toward), unit=unit,
                                        weapon=weapon, target=target, model=model, on=on))

    def fight(self, unit: str, targets: Union[str, Sequence[str]] = (), **options: Any) -> R.Fight:
        """Who fights and the exact odds of close combat for ``unit`` (the ``fight`` command;
        ``options`` as its flags: ``assign`` and ``weapon`` as lists of ``"MODEL=UNIT"`` /
        ``"MODEL=W"``, ``surge_to``, ``charged``)."""
        return _as(R.Fight, self.ask("fight", unit=unit, target=_list(targets), **options))

    def models(self) -> R.Models:
        """Every unit and model: ids, positions, bases, levels, statuses, casualties."""
        return _as(R.Models, self.ask("models"))

    # --- pictures -------------------------------------------------------------------------------

    def svg(self, *, title: Optional[str] = None, fill: str = "size", **overlays: Any) -> str:
        """The board as an SVG picture, with any overlay of ``tapeline render`` given by its
        option name: ``game.svg(los=("c2", "zb1"))``, ``game.svg(charge="roaches",
        target=["marines-bravo"])``."""
        from . import overlays as ov

        p = argparse.ArgumentParser(add_help=False)
        ov.add_arguments(p)
        known = {a.dest: a.default for a in p._actions}
        unknown = sorted(set(overlays) - set(known))
        if unknown:
            raise TypeError(f"svg() got unexpected overlay(s) {', '.join(unknown)}; overlays: {', '.join(sorted(known))}")
        args = argparse.Namespace(**(known | overlays))
        return ov.render_state(self.state, ov.layers(args, self._loaded), title=self.name if title is None else title,
                               fill_by=fill)

    def html(self) -> str:
        """The replay as one self-contained web page (what ``tapeline replay FILE --html``
        writes): the board at every step, each action with its dice and verdicts."""
        from . import viewer

        return viewer.page(self._origin)

    def _repr_svg_(self) -> str:
        """Jupyter shows a game as its board."""
        return self.svg()


def _xy(p: Optional[Point]) -> Optional[str]:
    """A point as the command line's ``X,Y``."""
    return None if p is None else f"{float(p[0])!r},{float(p[1])!r}"


def _list(v: Union[str, Sequence[str]]) -> list[str]:
    return [v] if isinstance(v, str) else list(v)


def _as(cls: type[R.ResultT], r: R.Result) -> R.ResultT:
    if not isinstance(r, cls):  # pragma: no cover - results.BY_COMMAND maps each command to its class
        raise TypeError(f"expected a {cls.__name__} answer, got {type(r).__name__}")
    return r
