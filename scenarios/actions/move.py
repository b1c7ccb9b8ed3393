"""``move`` / ``place``: reposition models, validated (no overlap, on the table).

```yaml
actions:
  - {action: place, model: m1, to: [12.5, 8.0]}            # set a model down at a point
  - {action: place, model: m2, to: [20, 20], on: hill-1}   # standing on a piece
  - {action: move, moves: {m1: [12, 8], m2: [13.5, 8]}}     # several models at once
```

``move`` keeps a model standing on its piece (``on``) while its base still overlaps it, and
sets it on the ground otherwise. Both check the end positions only: every base wholly on the table, no base overlapping another
or impassable terrain. Path-checked moves (Move, Run, Charge) come with the movement rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal, Optional, Self

from pydantic import Field, model_validator

from tapeline.board.measure import gap, region_gap
from tapeline.board.units import TOUCH
from tapeline.rules.errors import IllegalAction
from tapeline.rules.state import GameState
from tapeline.rules.systems import Events, rules_for

from ..limits import MAX_MODELS
from ..schema import XY, Id, Strict
from ..vocab import Ref, ReplayContext


def place_figures(state: GameState, new_positions: Mapping[str, tuple[float, float, Optional[str]]],
                  rule: str = "§4.1 bases may never overlap") -> tuple[GameState, Events]:
    """The state with models set at ``new_positions`` ({id: (x, y, on)}), or IllegalAction."""
    figs = [state.figure(m).moved(x, y, on) for m, (x, y, on) in new_positions.items()]
    moving = {f.id for f in figs}
    impassable = rules_for(state.system).impassable
    for f in figs:
        if f.on is not None and f.on not in state.table.by_id:
            raise IllegalAction("placement", f"no terrain piece {f.on!r} for {f.id} to stand on")
        if not state.table.on_table(f):
            raise IllegalAction("§4.1 whole base on the table", f"{f.id} would hang off the table by {-state.table.edge_margin(f):.6g}\"")
        others = [o for o in state.all_figures() if o.id not in moving] + [o for o in figs if o.id != f.id]
        for o in others:
            g = gap(f, o)
            if g < -TOUCH:
                raise IllegalAction(rule, f"{f.id} at ({f.x:g}, {f.y:g}) would overlap {o.id} by {-g:.6g}\"")
        if f.on is not None and region_gap(f, state.table.piece(f.on).footprint) >= -TOUCH:
            raise IllegalAction("placement", f"{f.id} would stand on {f.on} without overlapping it")
        allowed = {p.id for p in state.table.stack(f.on)}
        for p in state.table.pieces_hit(f.polygon):
            if p.id not in allowed and impassable(p) and -region_gap(f, p.footprint) > TOUCH:
                raise IllegalAction("§4.1 no overlap with impassable terrain", f"{f.id} would overlap impassable terrain {p.id}")
    events = [
        {"type": "placed", "model": f.id, "from": [round(state.figure(f.id).x, 6), round(state.figure(f.id).y, 6)], "to": [round(f.x, 6), round(f.y, 6)]}
        for f in figs
    ]
    return state.with_figures(figs), events


class Place(Strict):
    """Set one model down at ``to`` (optionally standing on terrain piece ``on``)."""

    action: Literal["place"]
    model: Id
    to: XY
    on: Optional[Id] = None

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("model", "model", self.model)]
        return out + ([("on", "terrain", self.on)] if self.on else [])

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        return place_figures(state, {self.model: (self.to[0], self.to[1], self.on)})


class Move(Strict):
    """Set several models at once (``moves: {id: [x, y]}``), checked together."""

    action: Literal["move"]
    moves: Annotated[dict[Id, XY], Field(max_length=MAX_MODELS)]

    @model_validator(mode="after")
    def _some(self) -> Self:
        if not self.moves:
            raise ValueError("moves must name at least one model")
        return self

    def refs(self) -> list[Ref]:
        return [(f"moves.{m}", "model", m) for m in self.moves]

    def apply(self, state: GameState, ctx: ReplayContext) -> tuple[GameState, Events]:
        return place_figures(state, {m: (xy[0], xy[1], _still_on(state, m, xy)) for m, xy in self.moves.items()})


def _still_on(state: GameState, model: str, xy: tuple[float, float]) -> Optional[str]:
    """A moved model keeps standing on its piece only while its base still overlaps it."""
    fig = state.figure(model)
    if fig.on is None:
        return None
    moved = fig.moved(xy[0], xy[1], fig.on)
    return fig.on if region_gap(moved, state.table.piece(fig.on).footprint) < -TOUCH else None
