"""Pieces every expectation shares: ``after:`` and numeric comparisons with tolerances."""

from __future__ import annotations

from typing import Annotated, Optional

from pydantic import Field

from ..limits import MAX_ACTIONS, MAX_NUMBER
from ..schema import Finite, Strict


class ExpectBase(Strict):
    """``after: N`` checks right after action N (``-1``: before any); default after the last."""

    after: Optional[Annotated[int, Field(strict=True, ge=-1, le=MAX_ACTIONS - 1)]] = None


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
