"""``Game.svg(zones=True)``: the table's zones (deployment zones, objectives; the file's
``zones:``, docs/scenario-format.md "Zones") outlined dashed (class ``zone``, the style of the
analysis maps, :mod:`board.render_maps`), each labelled with its id and side inside its
top edge, at the middle. The web table draws them while its Maps or its Zone tool is in use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tapeline.board.render import Layer, svg_geometry, svg_label

from ..errors import ArgumentError

if TYPE_CHECKING:
    from ..game import Game

#: ``zones``: whether the zones are drawn.
OPTIONS: dict[str, Any] = {"zones": False}


def layers(game: Game, opts: Mapping[str, Any]) -> list[Layer]:
    on = opts.get("zones", False)
    if not isinstance(on, bool):
        raise ArgumentError("zones", f"true or false, not {on!r}")
    if not on or not game.zones:
        return []
    # the ``zone`` style is the analysis maps' (registered when first used: a picture without
    # zones keeps the bytes it had)
    from tapeline.board import render_maps  # noqa: F401
    out: list[str] = []
    for z in game.zones:
        x0, _, x1, y1 = z.shape.footprint.bounds
        out.append(svg_geometry(z.shape.footprint.boundary, "zone"))
        out.append(svg_label((x0 + x1) / 2, y1 - 0.4, f"{z.id} ({z.side})"))
    return [Layer("zones", out, {"zone": "zone (deployment, objective)"})]
