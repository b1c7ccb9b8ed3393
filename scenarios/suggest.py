"""Closest existing ids for a mistyped one, so every "no such id" message can say what was meant.

>>> closest("zb0", ["zb1", "zb9", "zb10", "a1"])
['zb10', 'zb9', 'zb1']
>>> hint("marine", ["marines", "zerglings"])
'; closest: marines'
>>> hint("xyz", ["a", "b"])
''
"""

from __future__ import annotations

import difflib
from typing import Iterable

from .limits import MAX_ID


def closest(ident: str, known: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` known ids closest to ``ident`` (by spelling), best first; failing that, ids
    equal to it but for case, or one a prefix of the other."""
    known = list(known)
    best = difflib.get_close_matches(ident, known, n=n, cutoff=0.5)
    if not best:
        low = ident.lower()
        best = [k for k in known if k.lower() == low or k.lower().startswith(low) or low.startswith(k.lower())][:n]
    return best


def hint(ident: str, known: Iterable[str]) -> str:
    """``"; closest: a, b"`` to append to a "no such id" message, or ``""``."""
    near = closest(str(ident), [str(k) for k in known])
    return f"; closest: {', '.join(near)}" if near else ""


def unknown(kind: str, ident: str, known: Iterable[str]) -> str:
    """``no model 'm11'; closest: m1, m10`` (or the first few ids that exist).

    >>> unknown("unit", "marine", ["marines", "zerglings"])
    "no unit 'marine'; closest: marines"
    """
    if len(ident) > MAX_ID:  # no id is that long: say so, without echoing it all
        return f"no {kind} {ident[:40]!r}... ({len(ident)} characters; an id has at most {MAX_ID})"
    known = list(known)
    near = closest(ident, known)
    if near:
        return f"no {kind} {ident!r}; closest: {', '.join(near)}"
    if not known:
        return f"no {kind} {ident!r}: the file has none"
    shown = ", ".join(known[:8]) + (", ..." if len(known) > 8 else "")
    return f"no {kind} {ident!r}; the file's {kind}s: {shown}"
