"""The choices the rules give a player, where a scenario or a question leaves them open.

A rule that lets a player choose (which die Guardian Shield removes, the unit the Surge Die goes
to, where a charging unit's other models stand, ...) reads the choice from the action or the
question. Where it is absent, the rule calls :func:`default` with the legal options and the
documented default, and one of two things happens, the same in every rule system:

* in **strict mode** (setting ``strict_choices``, ``tapeline --strict``, ``Game(strict=True)``)
  a choice with more than one legal option is an error (:class:`MissingChoice`) that names the
  choice and lists the legal options;
* otherwise the default is taken and noted as a **reading** of the answer: inside
  :func:`recording`, every default taken is collected (name → value), and the answer lists them
  (``readings`` in its JSON, a ``readings: k=v, ...`` line in words).

A choice with one legal option is no choice: it is neither an error nor a reading. A *setting*
(a reading of an unclear rule, such as ``casualty_priority_range``) is not a choice: it is
listed as a reading by the answers that depend on it, and strict mode never refuses it
(docs/choices.md).

>>> with recording() as used:
...     default({}, "surge_to", "marines", ["marines", "marauders"], "§8.8.1 Surge", "the Surge Die's target")
'marines'
>>> dict(used)
{'surge_to': 'marines'}
>>> default({"strict_choices": True}, "surge_to", "marines", ["marines", "marauders"], "§8.8.1 Surge", "the Surge Die's target")
Traceback (most recent call last):
...
tapeline.rules.choices.MissingChoice: the Surge Die's target must be chosen (strict_choices); legal: marines, marauders (§8.8.1 Surge)
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Optional, TypeVar

from .errors import ChoiceError

T = TypeVar("T")

#: The readings collected by the innermost :func:`recording` (``None``: none active).
_USED: contextvars.ContextVar[Optional[dict[str, str]]] = contextvars.ContextVar("tapeline_readings", default=None)


class MissingChoice(ChoiceError):
    """Strict mode: a choice with several legal ``options`` was left to the default. ``choice``
    names the action's field or the question's argument that makes it (``guardian_shield``,
    ``surge_to``, ``set``)."""

    def __init__(self, choice: str, rule: str, what: str, options: Sequence[str]):
        super().__init__(choice, rule, f"{what} must be chosen (strict_choices); legal: {', '.join(options)}")
        self.options = tuple(options)


def is_strict(settings: Any) -> bool:
    """Whether the file's settings (a mapping, the scenario's settings object, or ``None``)
    ask for strict mode."""
    if settings is None:
        return False
    if isinstance(settings, Mapping):
        return bool(settings.get("strict_choices", False))
    return bool(getattr(settings, "strict_choices", False))


def default(settings: Any, name: str, value: T, options: Sequence[str], rule: str, what: str,
            choice: Optional[str] = None) -> T:
    """The documented default ``value`` of the choice ``name`` (its legal ``options`` in
    words), taken because the action or question did not make it: an error in strict mode
    when there are several options, else noted as a reading. ``choice``: the field or
    argument that makes it (default ``name``)."""
    if len(options) <= 1:
        return value
    if is_strict(settings):
        raise MissingChoice(choice or name.split(".")[0], rule, what, options)
    note(name, value)
    return value


def open_choice(settings: Any, name: str, value: str, rule: str, what: str, allowed: str, choice: str) -> None:
    """A choice with no finite list of options (a point anywhere in a region) left to its
    default ``value``: in strict mode an error that says what the rule ``allowed``, else the
    reading ``name=value``. The caller decides that there is a choice (the region holds more
    than one point).

    >>> open_choice({"strict_choices": True}, "template.at", "centred on z1", "§8.7.6", "the Blast's Target Point",
    ...             'any point within 0.1" of the centre, given as at', "at")
    Traceback (most recent call last):
    ...
    tapeline.rules.choices.MissingChoice: the Blast's Target Point must be chosen (strict_choices); legal: any point within 0.1" of the centre, given as at (§8.7.6)
    """
    if is_strict(settings):
        raise MissingChoice(choice, rule, what, [allowed])
    note(name, value)


def placement(settings: Any, name: str, rule: str, what: str, spots: Mapping[str, Sequence[float]],
              choice: str = "set") -> None:
    """Models set by the default placement at ``spots`` (model → (x, y)) because the action
    gave them none: in strict mode an error (the legal options of a spot are the rule's, not
    a list: the message gives the default's spots as an example), else the reading
    ``name=default:m1+m2``."""
    if not spots:
        return
    if is_strict(settings):
        example = ", ".join(f"{m} [{float(p[0]):.6g}, {float(p[1]):.6g}]" for m, p in spots.items())
        raise MissingChoice(choice, rule, what, [f"any spots the rule allows, given as {choice}: {{model: [x, y]}} "
                                                 f"(the default would set {example})"])
    note(name, "default:" + "+".join(spots))


def note(name: str, value: Any) -> None:
    """Record a reading the answer relied on (a setting or a default) in the active
    :func:`recording`, if any."""
    used = _USED.get()
    if used is not None:
        used[name] = str(value)


@contextmanager
def recording() -> Iterator[dict[str, str]]:
    """Collect the readings of the rules called inside. A nested recording sees its own, and
    they are the enclosing recording's too (what a part of an answer relied on, the answer
    relied on):

    >>> with recording() as outer:
    ...     with recording() as inner:
    ...         note("strike_order", "file order")
    ...     note("surge_to", "marines")
    >>> dict(inner), dict(outer)
    ({'strike_order': 'file order'}, {'strike_order': 'file order', 'surge_to': 'marines'})
    """
    used: dict[str, str] = {}
    outer = _USED.get()
    token = _USED.set(used)
    try:
        yield used
    finally:
        _USED.reset(token)
        if outer is not None:
            outer.update(used)
