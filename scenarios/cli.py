"""The ``tapeline`` command: a thin printer over :class:`tapeline.Game`.

Each command reads its arguments (:func:`parser`), asks one question of the game (a
:class:`~tapeline.scenarios.answers.Answer`) and prints it: in words, or with ``--json`` as one
JSON object (``answer.as_json()``). :func:`ask` is the one place a command line becomes a
question: the one-shot command and a session (``tapeline shell``, :mod:`.shell`) both use it.

Exit status: 0 answered, 1 a replay's expectation failed, 2 invalid input: one line
``FILE: PLACE: message`` on stderr, nothing else there, never a traceback
(docs/reliability.md). The process's guards (time and memory limits, the watchdog) are
:mod:`.guards`'s.
"""

from __future__ import annotations

import argparse
import errno
import json
import math
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn, Optional, Union

from tapeline.board.errors import TapelineError
from tapeline.rules.errors import IllegalAction, UnknownId

from . import analyse_cli
from . import answers as A
from .actions.shoot import GUARDIAN_SHIELD
from .errors import ArgumentError, ScenarioError, escape_controls, one_line
from .game import Game, open as open_game, units as catalogue_units
from .guards import BATCH_COMMANDS, OutOfTime, file_argument, guarded
from .limits import MAX_CHARGE_MODIFIER, MAX_INCHES

#: The questions: command → function asking it of a game with the parsed arguments.
Question = Callable[[Game, argparse.Namespace], A.Answer]


class UsageError(Exception):
    """A command line argparse cannot read (reported as one located line, exit status 2)."""


class Parser(argparse.ArgumentParser):
    """argparse, but a bad command line raises :class:`UsageError` instead of printing the usage
    and a second line (the sub-commands' parsers are of this class too)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


class _Version(argparse.Action):
    """``--version``: the installed version."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, default: Any = argparse.SUPPRESS,
                 help: Optional[str] = None):  # noqa: A002 - argparse's name
        super().__init__(option_strings, dest=dest, default=default, nargs=0,
                         help=help or "show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: Optional[str] = None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            v = version("tapeline")
        except PackageNotFoundError:  # pragma: no cover - an uninstalled tree
            v = "0+unknown"
        print(f"tapeline {v}")
        parser.exit()


# --- reading what a user types ------------------------------------------------------------------


def _in_range(kind: str, convert: Callable[[str], Any], lo: float, hi: float, show: Callable[[Any], str]) -> Callable[[str], Any]:
    """An argparse type: a ``kind`` read by ``convert``, finite, from ``lo`` to ``hi``."""

    def parse(text: str) -> Any:
        try:
            v = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a {kind}: {text[:40]!r}") from None
        if not ((not isinstance(v, float) or math.isfinite(v)) and lo <= v <= hi):
            raise argparse.ArgumentTypeError(f"{text[:40]} is out of range ({show(lo)} to {show(hi)})")
        return v

    return parse


def int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` to ``hi``."""
    return _in_range("whole number", int, lo, hi, str)


def number_in(lo: float, hi: float) -> Callable[[str], float]:
    """An argparse type: a finite number from ``lo`` to ``hi``."""
    return _in_range("number", float, lo, hi, lambda x: f"{x:g}")


def xy(text: str, flag: str) -> tuple[float, float]:
    """A point given as ``X,Y``: two finite numbers within the format's coordinate limit."""
    coord = number_in(-MAX_INCHES, MAX_INCHES)
    try:
        parts = str(text).split(",")
        if len(parts) != 2:
            raise argparse.ArgumentTypeError(f"wants X,Y (two numbers), not {str(text)[:40]!r}")
        return coord(parts[0]), coord(parts[1])
    except argparse.ArgumentTypeError as e:
        raise ArgumentError(flag, str(e)) from None


def _maybe_xy(text: Optional[str], flag: str) -> Optional[tuple[float, float]]:
    return None if text is None else xy(text, flag)


def _pairs(game: Game, items: Sequence[str], what: str, flag: str, once: tuple[str, str]) -> dict[str, str]:
    """``MODEL=VALUE`` items by model; a model named twice is refused by the rule ``once``."""
    out: dict[str, str] = {}
    for item in items or ():
        if "=" not in item:
            raise ArgumentError(flag, f"wants MODEL={what}, not {item!r}")
        m, v = item.split("=", 1)
        m = game._model(m.strip(), flag)
        if m in out and out[m] != v.strip():
            rule, why = once
            raise IllegalAction(rule, f"{flag} names {m} twice ({out[m]}, {v.strip()}): {why}")
        out[m] = v.strip()
    return out


# --- the questions ------------------------------------------------------------------------------


def _measure(game: Game, args: argparse.Namespace) -> A.Answer:
    return game.measure(args.a, args.b)


def _los(game: Game, args: argparse.Namespace) -> A.Answer:
    return game.los(args.a, args.b)


def _charge(game: Game, args: argparse.Namespace) -> A.Answer:
    name = args.unit_opt
    if args.unit is not None:
        if args.unit_opt is not None and args.unit_opt != args.unit:
            raise ArgumentError("--unit", f"two charging units given: {args.unit!r} and {args.unit_opt!r}")
        if args.unit_opt is None:
            NOTES.append(f"tapeline: note: `tapeline charge FILE UNIT` is deprecated; write "
                         f"`tapeline charge FILE --unit {args.unit}`")
        name = args.unit
    if name is None:
        raise ArgumentError("--unit", "name the charging unit: --unit UNIT")
    nominated: dict[str, str] = {}
    for item in args.target_model:
        if "=" not in item:
            raise ArgumentError("--target-model", f"wants T=M, not {item!r}")
        t, m = item.split("=", 1)
        nominated[t] = m
    spots: dict[str, tuple[float, float]] = {}
    for item in args.set:
        if "=" not in item:
            raise ArgumentError("--set", f"wants MODEL=X,Y, not {item!r}")
        m, at = item.split("=", 1)
        spots[m.strip()] = xy(at, "--set")
    return game.charge(name, args.target, leader=args.leader, roll=args.roll, modifier=args.modifier,
                       target_models=nominated, spots=spots)


def _path(game: Game, args: argparse.Namespace) -> A.Answer:
    return game.path(args.model, [xy(v, "--via") for v in args.via], max=args.max, may_engage=args.may_engage)


def _attack(game: Game, args: argparse.Namespace) -> A.Answer:
    return game.attack(args.unit, args.weapon, args.target, also=args.also, hit=args.hit, precision=args.precision,
                       critical_hit=args.critical_hit, tough=args.tough, dodge=args.dodge, evade=args.evade,
                       damage_reduction=args.damage_reduction, guardian_shield=args.guardian_shield)


def _template(game: Game, args: argparse.Namespace) -> A.Answer:
    return game.template(args.shape, _maybe_xy(args.at, "--at"), _maybe_xy(args.toward, "--toward"), unit=args.unit,
                         weapon=args.weapon, target=args.target, model=args.model, on=args.on)


def _fight(game: Game, args: argparse.Namespace) -> A.Answer:
    once = game.rules.one_per_model
    st = game.state
    game._unit(args.unit, "unit")
    targets = [game._unit(t, "targets") for t in args.target or ()]
    assign = _pairs(game, args.assign, "UNIT", "--assign", once["assign"])
    # 40k: MODEL=UNIT:N,UNIT:N splits the model's attacks (the fight action's targets: {model: {unit: n}})
    assign_: dict[str, Union[str, dict[str, int]]] = {}
    for m, t in assign.items():
        if ":" not in t:
            assign_[m] = game._unit(t, "--assign")
            continue
        parts = [_split(p, "MODEL=UNIT:N,UNIT:N", "--assign", ":") for p in t.split(",") if p.strip()]
        assign_[m] = {game._unit(u.strip(), "--assign"): _count(n, "--assign") for u, n in parts}
    weapons = _pairs(game, args.weapon, "W", "--weapon", once["weapons"])
    surge = [args.surge_to] if isinstance(args.surge_to, str) else list(args.surge_to or ())
    # "--surge-to a,b" names two targets as surely as "--surge-to a --surge-to b" (unless a
    # unit's id has the comma): either is a split of the Surge Die, refused by the rules
    surge = [t.strip() for s in surge for t in ([s] if st.has_unit(s) else s.split(",")) if t.strip()]
    casualties = _orders(args.casualties)
    split = {t: _count(n, "--precision-split") for t, n in
             (_split(item, "UNIT=N", "--precision-split") for item in args.precision_split)}
    impact: dict[str, dict[str, int]] = {}
    for item in args.impact_split:
        m, rest = _split(item, "MODEL=UNIT:N", "--impact-split")
        t, n = _split(rest, "MODEL=UNIT:N", "--impact-split", ":")
        impact.setdefault(m, {})[t] = _count(n, "--impact-split")
    return game.fight(args.unit, targets, assign=assign_, weapons=weapons, surge_to=surge, charged=args.charged,
                      strike_order=args.strike_order, casualties=casualties, precision_split=split, impact_split=impact,
                      precision=args.precision, damage_reduction=args.damage_reduction)


def _orders(items: Sequence[str]) -> dict[str, list[str]]:
    """``UNIT=M1,M2,...`` items: the defender's casualty order by unit (each unit once)."""
    out: dict[str, list[str]] = {}
    for item in items or ():
        u, ms = _split(item, "UNIT=M1,M2,...", "--casualties")
        if u in out:
            raise ArgumentError("--casualties", f"names {u} twice: give its whole order once (UNIT=M1,M2,...)")
        out[u] = [m.strip() for m in ms.split(",") if m.strip()]
    return out


def _split(item: str, form: str, flag: str, sep: str = "=") -> tuple[str, str]:
    """``KEY=VALUE`` (or with ``sep``), both parts stripped and given."""
    key, found, value = item.partition(sep)
    if not found or not key.strip() or not value.strip():
        raise ArgumentError(flag, f"wants {form}, not {item[:40]!r}")
    return key.strip(), value.strip()


def _count(text: str, flag: str) -> int:
    """A whole number of dice or points, 0 to 100."""
    try:
        return int(int_in(0, 100)(text))
    except argparse.ArgumentTypeError as e:
        raise ArgumentError(flag, str(e)) from None


def _models(game: Game, args: argparse.Namespace) -> A.Answer:
    return game.models()


QUESTIONS: Mapping[str, Question] = {
    "measure": _measure, "los": _los, "charge": _charge, "path": _path, "attack": _attack,
    "template": _template, "fight": _fight, "models": _models,
}

#: Each question's arguments as the command line spells them, where that is not ``--name``.
PLACES: Mapping[str, Mapping[str, str]] = {
    "measure": {"a": "argument A", "b": "argument B"},
    "los": {"a": "argument A", "b": "argument B"},
    "path": {"model": "argument MODEL"},
    "fight": {"weapons": "--weapon"},
    "units": {"system": "argument SYSTEM"},
}
#: The same for every command.
SPELLED = {"targets": "--target", "target_models": "--target-model"}


def place(command: str, argument: str) -> str:
    """Where the command line puts ``argument`` of ``command``'s question (``argument B``,
    ``--target``); a place already spelled as on the command line stays as it is."""
    if not argument.isidentifier() or argument in ("arguments", "actions", "action", "pop"):
        return argument
    return PLACES.get(command, {}).get(argument) or SPELLED.get(argument) or "--" + argument.replace("_", "-")


def ask(game: Game, args: argparse.Namespace) -> A.Answer:
    """The answer to the question ``args`` holds (a query command's arguments), asked of
    ``game`` or, with ``--after N``, of the game after the file's action N."""
    if getattr(args, "strict", False):
        game = game.strict_game()
    return QUESTIONS[args.command](after(game, args.after), args)


def after(game: Game, n: Optional[int]) -> Game:
    """``game`` after the file's action ``n`` (``None``: as it is), errors placed as
    ``--after N`` or at the action the replay refused."""
    if n is None:
        return game
    try:
        return game.after(n)
    except ArgumentError as e:
        raise ArgumentError(f"--after {n}", e.message) from None
    except IllegalAction as e:
        where = f"actions[{e.index}]" if e.index is not None else "actions"
        raise ArgumentError(where, f"{e.message} ({e.rule}); replayed for --after {n}") from None


# --- the parser -------------------------------------------------------------------------------


def _file(p: argparse.ArgumentParser, json_flag: bool = True, after_flag: bool = True, strict_flag: bool = True) -> None:
    p.add_argument("file", metavar="FILE", help="scenario file (.yaml, .yml or .json)")
    if json_flag:
        p.add_argument("--json", action="store_true", help="print one JSON object")
    if strict_flag:
        p.add_argument("--strict", action="store_true",
                       help="a choice the rules give a player left to its default is an error listing the legal "
                            "options (as the setting strict_choices: true; docs/choices.md)")
    if after_flag:
        p.add_argument("--after", type=int, metavar="N", default=None,
                       help="ask about the state after the file's action N (0-based; -1: after the last), "
                            "replayed with the file's dice")


def _pair(p: argparse.ArgumentParser) -> None:
    _file(p)
    p.add_argument("a", metavar="A", help="model id")
    p.add_argument("b", metavar="B", help="model id")


def parser() -> argparse.ArgumentParser:
    """The ``tapeline`` command line: every command and its arguments."""
    top = Parser(prog="tapeline",
                 description="Exact geometry for miniature wargames: measure, sight lines, charges, odds, replays.")
    top.add_argument("--version", action=_Version)
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)

    analyse_cli.add_parser(sub, number_in, int_in)

    p = sub.add_parser("attack", help="exact odds of a StarCraft TMG Ranged Attack on the board")
    _file(p)
    p.add_argument("--unit", required=True, help="attacking unit id")
    p.add_argument("--weapon", required=True, action="append", help="weapon (repeat for several Batches)")
    p.add_argument("--target", required=True, help="target unit id")
    p.add_argument("--also", action="append", default=[], metavar="UNIT:WEAPON", help="another unit's Batch at the same target")
    p.add_argument("--hit", type=int_in(-6, 6), default=0, help="Hit modifier (+X easier)")
    p.add_argument("--precision", type=int_in(0, 100), default=0, help="extra PRECISION (X)")
    p.add_argument("--critical-hit", type=int_in(0, 100), default=0, help="extra CRITICAL HIT (X)")
    p.add_argument("--tough", type=int_in(0, 100), default=0, help="TOUGH (X) of the target")
    p.add_argument("--dodge", type=int_in(0, 100), default=0, help="DODGE (X) of the target")
    p.add_argument("--evade", action="store_true", help="an ability grants the target an Evade roll")
    p.add_argument("--damage-reduction", type=int_in(0, 100), default=0, metavar="X",
                   help="damage the target's abilities take off each Batch's damage (§8.7.4 step 5)")
    p.add_argument("--guardian-shield", choices=GUARDIAN_SHIELD, default=None,
                   help="the die the target's Guardian Shield removes from each Batch (default: setting guardian_shield_die)")

    p = sub.add_parser("charge", help="charge distance, smallest roll and exact odds")
    _file(p)
    p.add_argument("--unit", dest="unit_opt", metavar="UNIT", help="charging unit id")
    p.add_argument("unit", metavar="UNIT", nargs="?", default=None,
                   help="charging unit id, the older spelling of --unit (deprecated)")
    p.add_argument("--target", action="append", required=True, metavar="T", help="declared target unit (repeat for several)")
    p.add_argument("--leader", metavar="M", help="Leading Model (default: the one with the shortest route)")
    p.add_argument("--roll", type=int_in(1, 6), metavar="N", help="the charge roll's result (the die kept); resolves the charge")
    p.add_argument("--modifier", type=int_in(-MAX_CHARGE_MODIFIER, MAX_CHARGE_MODIFIER), default=0, metavar="K",
                   help="added to the charge distance (Concussive Shells: -2)")
    p.add_argument("--target-model", action="append", default=[], metavar="T=M", help="nominate target model M of unit T")
    p.add_argument("--set", action="append", default=[], metavar="MODEL=X,Y",
                   help="StarCraft, with --roll: where a model of the rest of the unit is set (repeat; as a charge's set:)")

    p = sub.add_parser("check", help="validate a scenario file")
    _file(p, after_flag=False, strict_flag=False)

    p = sub.add_parser("fight", help="who fights, and the exact odds of close combat")
    _file(p)
    p.add_argument("--unit", required=True, metavar="U", help="the unit whose fight is asked about")
    p.add_argument("--target", action="append", default=[], metavar="T", help="enemy unit (repeat for several)")
    p.add_argument("--assign", action="append", default=[], metavar="MODEL=UNIT",
                   help="the unit a model attacks (StarCraft: a model in the Fighting Rank against several; "
                        "40k: MODEL=UNIT:N,UNIT:N splits its attacks)")
    p.add_argument("--surge-to", action="append", default=None, metavar="T",
                   help="the target unit the Surge Die goes to (StarCraft; once: the Surge Die is never split)")
    p.add_argument("--charged", metavar="U", help="the unit that charged this turn")
    p.add_argument("--weapon", action="append", default=[], metavar="MODEL=W", help="the weapon a model fights with")
    p.add_argument("--strike-order", action="append", default=[], metavar="GROUP",
                   help="Horus Heresy: the next Strike Group in each Initiative step, by the name the steps show "
                        "('trt power fist'; repeat, in order)")
    p.add_argument("--casualties", action="append", default=[], metavar="UNIT=M1,M2",
                   help="Horus Heresy, 40k: the defender's casualty order for a unit (first models; repeat per unit)")
    p.add_argument("--precision-split", action="append", default=[], metavar="UNIT=N",
                   help="StarCraft: PRECISION assigned to a target (repeat; in full, as close_combat's precision_split)")
    p.add_argument("--impact-split", action="append", default=[], metavar="MODEL=UNIT:N",
                   help="StarCraft, with --charged: a model's IMPACT dice at a charged unit (repeat; as impact's split)")
    p.add_argument("--precision", type=int_in(0, 100), default=0, help="StarCraft: extra PRECISION (X)")
    p.add_argument("--damage-reduction", type=int_in(0, 100), default=0, metavar="X",
                   help="StarCraft: damage the targets' abilities take off each Batch's damage (§8.7.4 step 5)")

    _pair(sub.add_parser("los", help="line of sight between two models, with a witness or the blockers"))
    _pair(sub.add_parser("measure", help="measure between two models"))
    _file(sub.add_parser("models", help="list the file's units and models: ids, positions, bases, levels, statuses"))

    p = sub.add_parser("path", help="validate a proposed movement path")
    _file(p)
    p.add_argument("model", metavar="MODEL", help="the moving model (its centre follows the path)")
    p.add_argument("--via", action="append", required=True, metavar="X,Y", help="next point of the path (repeat)")
    p.add_argument("--max", type=number_in(0, MAX_INCHES), metavar="D", help="longest path allowed (inches)")
    p.add_argument("--may-engage", action="store_true",
                   help="the move may end within 1\" of enemies (StarCraft: a Charge); default: it may not (Move, Run)")

    p = sub.add_parser("render", help="draw the board as an SVG picture")
    _file(p, json_flag=False, strict_flag=False)
    p.add_argument("-o", "--output", required=True, metavar="OUT.svg", help="file to write ('-' for stdout)")
    p.add_argument("--fill", choices=("size", "height"), default=None,
                   help="shade terrain by Size class or by height of its top surface and its traits "
                        "(default: as the system decides sight: StarCraft by Size, Heresy and 40k by height)")
    p.add_argument("--crop", action="store_true",
                   help="draw only the part of the table the overlay flags are about (their models, with a margin)")
    p.add_argument("--title", default=None, help="picture title (default: the scenario's name)")
    p.add_argument("--final", action="store_true", help="draw the state after replaying all the file's actions (the same as --after -1)")
    p.add_argument("--charge", metavar="UNIT", default=None, help="draw UNIT's shortest charge (with --target)")
    p.add_argument("--target", action="append", default=None, metavar="T", help="declared target unit of --charge")
    p.add_argument("--los", nargs=2, metavar=("A", "B"), default=None,
                   help="draw the sight line from model A to model B, or what blocks it")
    p.add_argument("--measure", nargs=2, metavar=("A", "B"), default=None,
                   help="draw the gap between models A and B, with the Engagement Range verdict")
    p.add_argument("--path", metavar="MODEL", default=None, help="draw a proposed move of MODEL's centre (with --via), as tapeline path checks it")
    p.add_argument("--via", action="append", default=None, metavar="X,Y", help="--path: the next point of the path (repeat)")
    p.add_argument("--max", type=number_in(0, MAX_INCHES), default=None, metavar="D", help="--path: the longest path allowed (inches)")
    p.add_argument("--ranks", metavar="UNIT", default=None,
                   help="ring UNIT's Fighting and Supporting Rank and label its attack dice (StarCraft)")
    p.add_argument("--close-ranks", metavar="UNIT", default=None,
                   help="draw where Close Ranks (default choices) would move UNIT, then its ranks (StarCraft)")
    p.add_argument("--template", nargs="+", metavar="ARG", default=None,
                   help="draw a template: SHAPE (with --at, --toward) or UNIT WEAPON [TARGET] (StarCraft)")
    p.add_argument("--at", metavar="X,Y", default=None, help="--template: disc centre, teardrop tip or Target Point")
    p.add_argument("--toward", metavar="X,Y", default=None, help="--template: a teardrop's aim point")
    p.add_argument("--model", metavar="FIRER", default=None, help="--template: the firing model")
    p.add_argument("--on", metavar="PIECE", default=None, help="--template: the piece an ability template's Target Point stands on")

    p = sub.add_parser("replay", help="replay a scenario's actions and check its expectations")
    _file(p, after_flag=False)
    p.add_argument("--html", metavar="OUT.html", default=None,
                   help="also write the replay as one self-contained HTML page (no network needed); '-': the page on stdout, instead of the replay")

    sub.add_parser("schema", help="print the JSON Schema of scenario files")

    p = sub.add_parser("serve", help="the live web table: lay out, drag and question a table in a browser")
    p.add_argument("file", metavar="FILE", nargs="?", default=None,
                   help="scenario file to open (default: a blank table, its system chosen in the page)")
    p.add_argument("--host", default="127.0.0.1", metavar="H", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int_in(0, 65535), default=8750, metavar="P", help="port (default 8750; 0: a free one)")

    p = sub.add_parser("shell", help="answer many questions of one table, one per line of standard input")
    _file(p, after_flag=False)

    p = sub.add_parser("units", help="list a system's bundled unit catalogue: each profile's stats and weapons")
    p.add_argument("system", metavar="SYSTEM", help="starcraft, heresy or classic40k")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser("template", help="which models a Blast or Flamer template covers (and, StarCraft, what it does)")
    _file(p)
    p.add_argument("--shape", metavar="S", help="a template placed by hand: blast, large_blast, flamer or a settings.templates name")
    p.add_argument("--at", metavar="X,Y", help="disc centre / teardrop tip; with --weapon, a Blast's Target Point")
    p.add_argument("--toward", metavar="X,Y", help="a teardrop's aim point")
    p.add_argument("--unit", metavar="U", help="StarCraft: the unit firing a template weapon")
    p.add_argument("--weapon", metavar="W", help="StarCraft: its weapon with RNG BT or FT")
    p.add_argument("--target", metavar="MODEL", help="StarCraft: the target model")
    p.add_argument("--model", metavar="FIRER", help="StarCraft: the firing model (default: the unit's model nearest the target)")
    p.add_argument("--on", metavar="PIECE", help="StarCraft ability template: the piece its Target Point stands on")
    return top


# --- the commands -------------------------------------------------------------------------------

#: Deprecation notes of the running command, printed on standard error once it has answered.
NOTES: list[str] = []


def emit(obj: Any, as_json: bool, human: str) -> None:
    """Print ``obj`` as one JSON object with ``--json``, else the human text (any control
    character but the newline escaped: no text reaches the terminal raw)."""
    print(json.dumps(obj, indent=2, ensure_ascii=False) if as_json else escape_controls(human, keep_newlines=True))


def _check(args: argparse.Namespace) -> int:
    try:
        game = open_game(args.file)
    except ScenarioError as e:
        errors = [{"location": loc, "message": msg} for loc, msg in e.problems]
        emit({"valid": False, "errors": errors}, args.json, "\n".join(f"{e.file}: {loc}: {msg}" for loc, msg in e.problems))
        print(one_line(str(e)), file=sys.stderr)
        return 2
    s = game.state
    emit({"valid": True, "errors": []}, args.json,
         f"{args.file}: valid ({s.system}, {len(s.units)} units, {len(s.figures)} models, {len(s.table.pieces)} terrain pieces)")
    return 0


def _schema(args: argparse.Namespace) -> int:
    from .schema import scenario_model

    schema = scenario_model().model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "tapeline scenario file, version 1"
    print(json.dumps(schema, indent=2))
    return 0


def _replay(args: argparse.Namespace) -> int:
    """The replay's answer; with ``--html OUT.html`` the page too, written to OUT.html — or,
    ``--html -``, to standard output in place of the answer (the exit status still says whether
    the expectations held)."""
    if args.html == "-" and args.json:
        raise ArgumentError("--html", "--html - writes the page to standard output, where --json writes the replay: "
                                      "give one of them, or --html OUT.html")
    if args.html is not None:
        check_output(args.file, args.html, "--html")
    game = open_game(args.file, strict=args.strict)
    if args.html is not None:
        from . import viewer

        text, r = viewer.page_and_replay(game._loaded)
        answer = A.Replay.from_json(r.as_json())
        if args.html == "-":
            sys.stdout.write(text)
            return 0 if answer.ok else 1
        write_output(args.file, args.html, "--html", text)
        print(f"wrote {args.html}", file=sys.stderr)
    else:
        answer = game.replay()
    emit(answer.as_json(), args.json, replay_text(game, answer))
    return 0 if answer.ok else 1


def replay_text(game: Game, r: A.Replay) -> str:
    """A replay in words: the event log, then each expectation's verdict (with the action it
    follows) and the count that hold."""
    spec = game.spec
    lines = [f"{spec.name or game.file} ({game.system})"]
    lines += [A.describe(e) for e in r.events]
    n = len(spec.actions)
    for c in sorted(r.expectations, key=lambda c: int(c["index"])):
        was = spec.expect[c["index"]].checked_after(n)
        when = "" if was >= n else (" (before any action)" if was < 0 else f" (after action {was})")
        lines.append(f"{'PASS' if c['ok'] else 'FAIL'} expect[{c['index']}]{when} {c['expect']}: {c['detail']}")
    lines.append(A.holding(r.expectations))
    return "\n".join(lines)


def _render(args: argparse.Namespace) -> int:
    check_output(args.file, args.output, "-o")
    if args.final:
        if args.after is not None and args.after != -1:
            raise ArgumentError("--final", "--final is --after -1; give one or the other")
        args.after = -1
    game = after(open_game(args.file), args.after)
    opts = {"charge": args.charge, "target": args.target, "los": args.los, "measure": args.measure, "ranks": args.ranks,
            "path": args.path, "via": [xy(v, "--via") for v in args.via] if args.via else None, "max": args.max,
            "close_ranks": args.close_ranks, "template": args.template, "at": _maybe_xy(args.at, "--at"),
            "toward": _maybe_xy(args.toward, "--toward"), "model": args.model, "on": args.on}
    title = args.title if args.title is not None else (game.spec.name or os.path.basename(args.file))
    svg = game.svg(title=title, fill=args.fill, crop=args.crop, **opts)
    if args.output == "-":
        sys.stdout.write(svg)
        return 0
    write_output(args.file, args.output, "-o", svg)
    print(f"wrote {args.output}")
    return 0


def _units(args: argparse.Namespace) -> int:
    answer = catalogue_units(args.system)
    emit(answer.as_json(), args.json, str(answer))
    return 0


def _shell(args: argparse.Namespace) -> int:
    from .shell import session

    return session(open_game(args.file, strict=args.strict), sys.stdin, sys.stdout, sys.stderr, as_json=args.json)


def _serve(args: argparse.Namespace) -> int:
    from .web.serve import serve  # Starlette and uvicorn are loaded by this command only

    return serve(args.file, args.host, args.port)


def _question(args: argparse.Namespace) -> int:
    answer = ask(open_game(args.file, strict=args.strict), args)
    emit(answer.as_json(), args.json, str(answer))
    return 0


def _analyse(args: argparse.Namespace) -> int:
    return analyse_cli.command(args, open_game, emit, check_output, write_output)


COMMANDS: Mapping[str, Callable[[argparse.Namespace], int]] = {
    "analyse": _analyse, "check": _check, "schema": _schema, "replay": _replay, "render": _render, "shell": _shell, "units": _units,
    "serve": _serve,
    **{name: _question for name in QUESTIONS},
}


#: Commands that run until interrupted and guard each call themselves: the whole command is not
#: one question under one time limit (the web table: each request that touches the game is).
GUARDS_ITS_OWN = frozenset({"serve"})


def check_output(file: str, output: str, flag: str) -> None:
    """Refuse, before any work, a file a command would write (``output``, ``flag`` its option)
    that is the scenario file itself by any name (a link, ``./``, ``..``: writing would destroy
    the input), a directory, or inside a directory that does not exist. ``-`` (standard output)
    passes; what only the write can tell (permissions, a full disk) is reported when writing."""
    if output == "-":
        return
    try:
        same = os.path.samefile(output, file)
    except (OSError, ValueError):  # the output does not exist yet (or cannot be looked at)
        same = False
    if same:
        raise ArgumentError(flag, f"{output} is the scenario file itself: writing there would overwrite it")
    if os.path.isdir(output):
        raise ArgumentError(flag, f"cannot write {output}: it is a directory")
    folder = os.path.dirname(output)
    if folder and not os.path.isdir(folder):
        raise ArgumentError(flag, f"cannot write {output}: no directory {folder}")


def write_output(file: str, output: str, flag: str, text: str) -> None:
    """Write ``text`` to ``output`` (checked by :func:`check_output` first). A named pipe that
    nobody reads is refused at once instead of blocking (opened without waiting for a reader);
    a pipe with a reader, such as ``/dev/stdout`` in a pipeline, is written normally."""
    try:
        fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o666)
    except OSError as e:
        why = "a named pipe that nobody reads" if e.errno == errno.ENXIO else (e.strerror or str(e))
        raise ArgumentError(flag, f"cannot write {output}: {why}") from None
    try:
        os.set_blocking(fd, True)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except OSError as e:
        raise ArgumentError(flag, f"cannot write {output}: {e.strerror or e}") from None


def message(command: str, e: TapelineError) -> str:
    """The one line an error is, without the file: ``argument B: no model 'zb0' ...``,
    ``actions[3]: ...``, or ``COMMAND: message (rule)`` where no place is known."""
    if isinstance(e, (ArgumentError, UnknownId)) and e.location is not None:
        return f"{place(command, e.location)}: {e.message}"
    if e.location:
        return str(e)
    return f"{command}: {e}"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run one command line (``sys.argv[1:]`` by default); the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser().parse_args(argv)
    except UsageError as e:
        file = file_argument(argv)
        print(one_line(f"{file}: arguments: {e}" if file else f"tapeline: error: {e}"), file=sys.stderr)
        return 2
    NOTES.clear()
    files = getattr(args, "files", None) or []
    file = getattr(args, "file", None) or (files[0] if len(files) == 1 else None)
    try:
        run = COMMANDS[args.command]
        code = run(args) if args.command in GUARDS_ITS_OWN else guarded(lambda: run(args), batch=args.command in BATCH_COMMANDS)
    except ScenarioError as e:
        return fail(str(e))
    except TapelineError as e:
        return fail(f"{file}: {message(args.command, e)}" if file else message(args.command, e))
    except OutOfTime as e:
        return fail(f"{file}: {args.command}: gave up after {e.seconds:g} s{e.kind}, the limit (TAPELINE_TIME_LIMIT)")
    except BrokenPipeError:  # pragma: no cover - `tapeline ... | head`
        return 0
    except (RecursionError, MemoryError) as e:  # limits should make these impossible
        return fail(f"{file}: {args.command}: the input is too large to answer ({type(e).__name__})")
    except Exception as e:  # noqa: BLE001 - the contract: never a traceback
        return fail(f"{file}: {args.command}: internal error, please report it: {type(e).__name__}: {str(e)[:300]}")
    for note in NOTES:
        print(note, file=sys.stderr)
    return int(code or 0)


def fail(line: str) -> int:
    """Print ``line`` as one line on stderr; exit status 2."""
    print(one_line(line), file=sys.stderr)
    return 2
