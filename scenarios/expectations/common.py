"""Pieces every expectation shares: ``after:`` and numeric comparisons with tolerances."""

from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import Field, GetPydanticSchema
from pydantic_core import core_schema

from ..limits import MAX_ACTIONS, MAX_NUMBER
from ..schema import Finite, Strict


#: ``after: start``: checked on the table as the file sets it up, before any action.
START = "start"

#: ``after:``'s value: ``start`` or an action's index, with one message for anything else.
After = Annotated[Union[Literal["start"], int], GetPydanticSchema(lambda _type, _handler: core_schema.union_schema(
    [core_schema.literal_schema([START]), core_schema.int_schema(strict=True, ge=-1, le=MAX_ACTIONS - 1)],
    custom_error_type="after",
    custom_error_message=f"Input should be an action's index (a whole number from -1 to {MAX_ACTIONS - 1}; "
                         "-1: after the last) or 'start' (before any action)"))]


class ExpectBase(Strict):
    """``after: N`` checks right after action N (0-based; ``-1``: after the last, as with no
    ``after:``); ``after: start`` before any action."""

    after: Optional[After] = None

    def checked_after(self, n_actions: int) -> int:
        """The index of the action the expectation is checked right after, in a file of
        ``n_actions`` actions: ``-1`` before any, ``n_actions`` after the last.

        >>> ExpectBase(after="start").checked_after(3), ExpectBase(after=-1).checked_after(3)
        (-1, 3)
        >>> ExpectBase().checked_after(3), ExpectBase(after=1).checked_after(3)
        (3, 1)
        """
        if self.after == START:
            return -1
        if self.after is None or self.after == -1:
            return n_actions
        return int(self.after)


class Numeric(Strict):
    """Numeric comparison fields: ``equals`` (with ``tol``), ``at_least``, ``at_most``."""

    equals: Optional[Finite] = None
    tol: Annotated[float, Field(strict=True, ge=0, le=MAX_NUMBER, allow_inf_nan=False)] = 1e-6
    at_least: Optional[Finite] = None
    at_most: Optional[Finite] = None

    def compare(self, value: float) -> tuple[bool, str]:
        parts, ok = [], True
        if self.equals is not None:
            good = abs(value - self.equals) <= self.tol
            ok &= good
            parts.append(f"{value:.6g} {'=' if good else '!='} {self.equals:g} (±{self.tol:g})")
        if self.at_least is not None:
            good = value >= self.at_least - self.tol
            ok &= good
            parts.append(f"{value:.6g} {'>=' if good else '<'} {self.at_least:g}")
        if self.at_most is not None:
            good = value <= self.at_most + self.tol
            ok &= good
            parts.append(f"{value:.6g} {'<=' if good else '>'} {self.at_most:g}")
        return ok, "; ".join(parts) or f"{value:.6g}"

    def compare_named(self, name: str, value: Optional[float], missing: str) -> tuple[bool, str]:
        """Compare a named result; ``None`` (nothing to compare) fails with ``missing``."""
        if value is None:
            return False, f"{name}: {missing}"
        ok, detail = self.compare(float(value))
        return ok, f"{name} {detail}"
