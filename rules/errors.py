"""Errors raised while resolving actions."""

from __future__ import annotations

from typing import Optional

from tapeline.board.errors import TapelineError


class IllegalAction(TapelineError):
    """An action the rules do not allow; the state is left untouched.

    ``index`` is the action's position in the scenario's ``actions:`` list (filled in by the
    replay when the rules raise it), ``rule`` the rule broken with its section number.
    """

    def __init__(self, rule: str, message: str, index: Optional[int] = None):
        self.rule, self.message, self.index = rule, message, index
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"actions[{self.index}]: " if self.index is not None else ""
        return f"{where}{self.message} ({self.rule})"

    def at(self, index: int) -> "IllegalAction":
        return IllegalAction(self.rule, self.message, index)
