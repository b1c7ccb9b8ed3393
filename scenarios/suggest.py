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
