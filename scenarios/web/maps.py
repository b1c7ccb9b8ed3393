"""The analysis maps of the served table (``POST /api/analyse``, docs/web-table.md "Maps").

The answer is :meth:`tapeline.Game.analyse` of the table — the same object ``tapeline analyse
FILE --step S --json`` prints — with its maps drawn as SVG layers in board coordinates by
:func:`tapeline.board.render_maps.heat_layer` (each cell a square carrying ``data-cell`` and
``data-value``), which the page lays over its board picture and switches on and off itself:
each side's exposure, its hidden spots and its reach with the contours at the charge
distances.

The maps depend on the layout alone (docs/analysis.md: the units are taken off the table), so an
answer is kept for the layout it was computed for — the document without its ``units:`` — and
the options: moving a model keeps the maps, changing the terrain, the zones, the table or the
system computes them anew. The page drops a map the moment its table changes and asks again
(its request counter drops a late answer), so a stale map is never shown as current.

A request is bounded: a step so fine that the grid would exceed :data:`MAX_CELLS` positions is
refused, located at ``step``, before any work.
"""

from __future__ import annotations

import html
import json
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from tapeline.board.grid import Grid
from tapeline.board.render_maps import HeatMap, heat_layer

from ..analyse_cli import heatmaps
from ..analysis import MAX_STEP, MIN_STEP
from ..errors import ArgumentError
from ..guards import guarded
from .table import Refused, Table, _refusing

#: The most grid positions the web table maps in one request: a 54" x 36" table at a 1" step
#: (1,944 positions, about 15 s of CPU; docs/benchmarks.md). ``tapeline analyse`` itself takes
#: up to :data:`tapeline.scenarios.analysis.MAX_POSITIONS`.
MAX_CELLS = 2_000
#: The page's default step (inches): a coarse grid that answers in a few seconds.
DEFAULT_STEP = 2.0
#: The options a request may give besides ``step``: :meth:`tapeline.Game.analyse`'s own.
PROBE_OPTIONS = ("probe_base", "probe_size", "probe_height", "probe_speed", "probe_flying")
#: The maps drawn, in the order the page lists them.
KINDS = ("exposure", "hidden", "reach")
#: How many answers (layouts x options) are kept.
KEPT = 4


class Maps:
    """The analysis of ``table``'s layout, computed on request and kept per layout and options."""

    def __init__(self, table: Table):
        self.table = table
        self._kept: "OrderedDict[str, dict[str, Any]]" = OrderedDict()
        #: how many analyses were computed (not answered from those kept)
        self.computed = 0

    def answer(self, body: Any) -> dict[str, Any]:
        """``{"analysis", "layers", "cells", "limit"}`` for the request ``body``
        (``{"step": 2, "probe_base": 32, ...}``); :class:`Refused`, located, for a bad one."""
        options = _options(body)
        doc = self.table.document()
        t = self.table.game.state.table
        width, height = float(t.width), float(t.height)
        grid = Grid(width, height, options["step"])
        cells = grid.columns * grid.rows
        if cells > MAX_CELLS:
            raise Refused([("step", f"a {options['step']:g}\" step gives {cells:,} positions on the {width:g}\" x {height:g}\" "
                                    f"table; the web table maps at most {MAX_CELLS:,} (tapeline analyse maps more)")])
        layout = {k: v for k, v in doc.items() if k != "units"}
        key = json.dumps([layout, options], sort_keys=True, ensure_ascii=False)
        if key not in self._kept:
            self._kept[key] = self._compute(options, cells)
            self.computed += 1
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return self._kept[key]

    def _compute(self, options: dict[str, Any], cells: int) -> dict[str, Any]:
        game = self.table.game

        def work() -> dict[str, Any]:
            try:
                a = game.analyse(**options)
            except ArgumentError as e:  # named as the body names it
                raise Refused([(e.location or e.argument, e.message)]) from None
            maps = heatmaps(game, a)
            layers = [_layer(kind, side, maps[(kind, side)]) for kind in KINDS for side in a.sides]
            return {"analysis": a.as_json(), "layers": layers, "cells": cells, "limit": MAX_CELLS}

        # the command's own time rule: none unless TAPELINE_TIME_LIMIT gives one (the grid is bounded)
        return guarded(lambda: _refusing("analyse", work), batch=True)


def _options(body: Any) -> dict[str, Any]:
    """The analysis options of a request body: ``step`` (default :data:`DEFAULT_STEP`) and the
    probe's, checked by type here and by range in :meth:`tapeline.Game.analyse`."""
    if not isinstance(body, Mapping):
        raise Refused([("body", "a JSON object such as {\"step\": 2}")])
    unknown = [k for k in body if k != "step" and k not in PROBE_OPTIONS]
    if unknown:
        raise Refused([(str(unknown[0])[:40], f"not an analysis option; the options: step, {', '.join(PROBE_OPTIONS)}")])
    step = body.get("step", DEFAULT_STEP)
    if isinstance(step, bool) or not isinstance(step, (int, float)):
        raise Refused([("step", f"the grid step in inches, a number, not {json.dumps(step)[:40]}")])
    if not MIN_STEP <= step <= MAX_STEP:
        raise Refused([("step", f"a step from {MIN_STEP:g} to {MAX_STEP:g} inches, not {step:g}")])
    out: dict[str, Any] = {"step": float(step)}
    for k in PROBE_OPTIONS:
        v = body.get(k)
        if v is not None:
            out[k] = v
    return out


def _layer(kind: str, side: str, m: HeatMap) -> dict[str, Any]:
    """One map as the page draws it: its SVG group (board coordinates, escaped), its title and
    its colour scale."""
    layer = heat_layer(m, data=True)
    attrs = f'class="layer map-layer" data-map="{kind}" data-side="{html.escape(side)}"'
    svg = f"<g {attrs}>" + "".join(layer.elements) + "</g>"
    lo, hi = m.bounds()
    return {"map": kind, "side": side, "title": m.title, "svg": svg,
            "scale": {"colours": list(m.colours), "low": lo, "high": hi, "unit": m.unit, "percent": m.percent},
            "contours": list(m.contours), "cells": sum(v is not None for row in m.rows for v in row)}
