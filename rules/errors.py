"""Errors raised while resolving actions."""

from __future__ import annotations

from typing import Optional

from tapeline.board.errors import TapelineError


class IllegalAction(TapelineError):
    """An action the rules do not allow; the state is left untouched.

    ``index`` is the action's position in the scenario's ``actions:`` list (filled in by the
    replay when the rules raise it), ``rule`` the rule broken with its section number, ``field``
    the part of the action at fault when the rules know it (``set.z2``): the location is then
    ``actions[3].set.z2`` (``action.set.z2`` for a move pushed on a game).
    """

    def __init__(self, rule: str, message: str, index: Optional[int] = None, field: Optional[str] = None):
        self.rule, self.message, self.index, self.field = rule, message, index, field
        if index is not None:
            self.location = f"actions[{index}]" + (f".{field}" if field else "")
        elif field:
            self.location = f"action.{field}"
        super().__init__(message)

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.message} ({self.rule})"

    def at(self, index: int) -> "IllegalAction":
        return IllegalAction(self.rule, self.message, index, self.field)


class ChoiceError(IllegalAction):
    """A choice given to a question that the rules do not allow, or that the system does not
    have; ``choice`` names the question's argument (``surge_to``, ``weapon``, ``at``) and
    ``message`` says why (a client shows it at that argument)."""

    def __init__(self, choice: str, rule: str, message: str):
        super().__init__(rule, message)
        self.choice = choice


class NotInThisSystem(IllegalAction):
    """An action or question of another rule system (``what`` names it: ``shoot``, ``attack``)."""

    def __init__(self, what: str, rule: str, message: str):
        super().__init__(rule, message)
        self.what = what


class UnknownId(IllegalAction, KeyError):
    """A model or unit id the state does not hold (a ``KeyError`` too, for callers that look
    ids up and handle the miss). ``message`` may name the closest ids that exist; ``location``
    the argument or field that named it."""

    def __init__(self, kind: str, ident: str, message: Optional[str] = None):
        self.kind, self.ident = kind, ident
        super().__init__("ids", message or f"no {kind} {ident!r} in the file")

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message
