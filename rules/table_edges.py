"""The table edge a unit falls back towards (Horus Heresy 3rd §A.5, 40k 3rd "Loser Checks
Morale"): setting ``home_edges`` (``{side: bottom | top | left | right}``); a side not named
uses the edge nearest the unit's models.
"""

from __future__ import annotations

from typing import Optional

import shapely

from .state import GameState

EDGES = ("bottom", "top", "left", "right")


def home_edge(state: GameState, unit_id: str) -> str:
    """The table edge ``unit_id`` falls back to: setting ``home_edges`` for its side, else the
    edge nearest the unit's models."""
    side = state.unit(unit_id).side
    named: Optional[str] = (state.settings.get("home_edges") or {}).get(side)
    if named:
        return named
    figs = state.figures_of(unit_id)
    W, H = state.table.width, state.table.height
    d = {"bottom": min(f.y for f in figs), "top": min(H - f.y for f in figs), "left": min(f.x for f in figs), "right": min(W - f.x for f in figs)}
    return min(EDGES, key=lambda e: (d[e], EDGES.index(e)))


def edge_line(state: GameState, edge: str) -> shapely.Polygon:
    """The strip just beyond a table edge (a model "touching the edge" is within its radius of it)."""
    W, H = state.table.width, state.table.height
    return {"bottom": shapely.box(0, -1, W, 0), "top": shapely.box(0, H, W, H + 1),
            "left": shapely.box(-1, 0, 0, H), "right": shapely.box(W, 0, W + 1, H)}[edge]
