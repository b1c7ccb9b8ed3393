"""``tapeline fight FILE --unit U [--target T ...] [--assign MODEL=UNIT ...] [--surge-to T]
[--charged U] [--weapon MODEL=W ...]``: who fights and the exact odds of close combat.

The arguments are the command-line contract's; what they mean is the system's:

* StarCraft TMG (§8.8): the unit's Close Combat Attack as the board stands — Fighting and
  Supporting Rank, attack dice per target unit, exact odds per target
  (:mod:`tapeline.scenarios.fighting_starcraft`);
* Horus Heresy 3rd and 40k 3rd: one whole round of the combat the unit is in, Initiative step
  by step, casualties of each step removed before the next strikes
  (:mod:`tapeline.scenarios.fighting_initiative`).

Each system's answer lives in its own module with one function,
``answer(loaded, args) -> (json_object, human_text)``.
"""

from __future__ import annotations

import importlib

from ..cli import emit
from ..cliutil import add_file, answer, load

ANSWERS = {
    "starcraft": "fighting_starcraft",
    "heresy": "fighting_initiative",
    "classic40k": "fighting_initiative",
}


def register(sub) -> None:
    p = sub.add_parser("fight", help="who fights, and the exact odds of close combat")
    add_file(p)
    p.add_argument("--unit", required=True, metavar="U", help="the unit whose fight is asked about")
    p.add_argument("--target", action="append", default=[], metavar="T", help="enemy unit (repeat for several)")
    p.add_argument("--assign", action="append", default=[], metavar="MODEL=UNIT",
                   help="the unit a model attacks (StarCraft: a model in the Fighting Rank against several)")
    p.add_argument("--surge-to", action="append", default=None, metavar="T",
                   help="the target unit the Surge Die goes to (StarCraft; once: the Surge Die is never split)")
    p.add_argument("--charged", metavar="U", help="the unit that charged this turn")
    p.add_argument("--weapon", action="append", default=[], metavar="MODEL=W", help="the weapon a model fights with")
    p.set_defaults(func=run)


def _answer(loaded, args) -> tuple[dict, str]:
    module = importlib.import_module(f"{__package__.rsplit('.', 1)[0]}.{ANSWERS[loaded.state.system]}")
    return module.answer(loaded, args)


def query(loaded, args) -> dict:
    """The JSON answer (what the Python API's ``Game.fight`` returns)."""
    return _answer(loaded, args)[0]


def run(args) -> int:
    out, human = _answer(load(args), args)
    emit(answer("fight", out), args.json, human)
    return 0
