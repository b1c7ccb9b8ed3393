"""``tapeline render FILE --ranks UNIT`` and ``--close-ranks UNIT``: who strikes in a Close
Combat Attack, and where Close Ranks would put the unit (StarCraft TMG §8.8.1).

* ``--ranks UNIT``: the Fighting Rank ringed (class ``ranks``), the Supporting Rank ringed
  (class ``support``), a line from each striking model to the nearest model of the unit it
  attacks (class ``pair``), and the attack dice per target unit as labels;
* ``--close-ranks UNIT``: Close Ranks with its default choices — the Leading Model's path
  (class ``path``), every model set from where it stood to where it would stand (class
  ``moved``, its new base class ``end-base``) — then the ranks at the new positions.

In the HTML replay viewer, a ``close_combat`` step rings its ranks the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any


from tapeline.board.measure import gap_matrix
from tapeline.board.render import Label, Layer, focus_box, svg_circle, svg_polyline
from tapeline.board.table import Figure
from tapeline.rules.state import GameState
from tapeline.rules.systems import rules_for

if TYPE_CHECKING:
    from ..game import Game

#: ``ranks``: the unit whose ranks are drawn; ``close_ranks``: the unit whose Close Ranks is.
OPTIONS: dict[str, Any] = {"ranks": None, "close_ranks": None}


def _ring(fig: Figure, cls: str) -> str:
    return svg_circle(fig.x, fig.y, fig.base.reach + 0.2, cls)


def ranks_layer(state: GameState, unit_id: str) -> Layer:
    """The unit's ranks, the unit each striker attacks and the dice per target, on ``state``."""
    cc = rules_for(state.system).declare_close_combat(state, unit_id)
    out: list[str] = []
    out += [_ring(state.figure(m), "ranks") for m in cc.ranks.fighting_rank]
    out += [_ring(state.figure(m), "support") for m in cc.ranks.supporting_rank]
    labels: list[Label] = []
    for m, t in cc.assign.items():
        f = state.figure(m)
        tf = state.figures_of(t)
        near = tf[int(gap_matrix([f], tf)[0].argmin())]
        out.append(svg_polyline([f.at, near.at], "pair"))
    for t, n in cc.dice().items():
        tf = state.figures_of(t)
        x = sum(f.x for f in tf) / len(tf)
        y = max(f.y + f.base.reach for f in tf) + 0.5
        text = f"{n} dice at {t}" + (" + Surge" if cc.surge_to == t else "")
        labels.append(Label(x, y, text))
    legend = {"ranks": f"Fighting Rank of {unit_id}", "support": f"Supporting Rank of {unit_id}",
              "pair": "strikes (model → unit it attacks)"}
    about = state.figures_of(unit_id) + [f for t in cc.dice() for f in state.figures_of(t)]
    return Layer("ranks", out, legend, focus=focus_box(about), labels=labels)


def _moves(before: GameState, after: GameState, unit_id: str, path: Sequence[Sequence[float]]) -> Layer:
    out = [svg_polyline(path, "path")] if len(path) > 1 else []
    for m in before.unit(unit_id).models:
        if m not in after.unit(unit_id).models:
            continue
        f0, f1 = before.figure(m), after.figure(m)
        if f0.at != f1.at:
            out.append(svg_polyline([f0.at, f1.at], "moved"))
            out.append(svg_circle(f1.x, f1.y, f1.base.reach, "end-base"))
    about = before.figures_of(unit_id) + after.figures_of(unit_id)
    return Layer("close-ranks", out, {"path": "Close Ranks: the Leading Model's path", "moved": "Close Ranks (from → to)",
                                      "end-base": "where Close Ranks sets a model"}, focus=focus_box(about))


def layers(game: Game, opts: Mapping[str, Any]) -> list[Layer]:
    out: list[Layer] = []
    st = game.state
    if opts.get("ranks"):
        out.append(ranks_layer(st, game._unit(opts["ranks"], "ranks")))
    if opts.get("close_ranks"):
        u = game._unit(opts["close_ranks"], "close_ranks")
        new, _events, cr = game.rules.close_ranks(st, u, None, None, {})
        out.append(_moves(st, new, u, cr["path"]))
        out.append(ranks_layer(new, u))
    return out


def step_layers(before: GameState, after: GameState, events: Sequence[Mapping[str, Any]]) -> list[Layer]:
    out: list[Layer] = []
    for ev in events:
        if ev.get("type") == "close_combat":
            rings = [_ring(before.figure(m), "ranks") for m in ev.get("fighting_rank", [])]
            rings += [_ring(before.figure(m), "support") for m in ev.get("supporting_rank", [])]
            out.append(Layer("ranks", rings, {"ranks": f"Fighting Rank of {ev['unit']}",
                                              "support": f"Supporting Rank of {ev['unit']}"}))
    return out
