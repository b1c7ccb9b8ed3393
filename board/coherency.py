"""Unit coherency as graphs (networkx): leader-anchored and chain coherency.

Two shapes of rule, each a plain function over a unit's figures:

* :func:`leader_coherency` (StarCraft TMG §4.4): every model **wholly within** ``radius`` of
  the Leading Model and joined to it by a chain of *links* through the unit's own models. A
  link is the segment between two models' centres; ``link_clear(a, b)`` (vectorised over
  arrays of centres) says whether it crosses nothing it may not (terrain, other units' models,
  gaps the Leading Model could not pass), ``link_max`` optionally caps a link's edge-to-edge
  length (the rulebook states none: UNCERTAIN, a setting).
* :func:`chain_coherency` (Horus Heresy §A.1, 40k 3rd): each model within ``link`` (2") of
  another, and the unit one connected group.

The answer names every model out of coherency, why, and by how much.

>>> from tapeline.board.bases import RoundBase
>>> from tapeline.board.table import Figure
>>> f = [Figure(i, "u", "s", RoundBase(32), x, 5) for i, x in (("a", 1), ("b", 3), ("c", 8))]
>>> c = chain_coherency(f, 2.0)
>>> c.ok, sorted(c.out), round(c.excess["c"], 6)
(False, ['c'], 1.740157)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional, Sequence

import numpy as np

from .arrays import Bools, Floats
from .measure import far, gap_matrix
from .table import Figure
from .units import TOUCH

if TYPE_CHECKING:  # (imported where a graph is built: see _link_graph)
    import networkx as nx

#: ``link_clear(a, b)``: whether each link from centre ``a[i]`` to centre ``b[i]`` (``(n, 2)``
#: arrays) crosses nothing it may not.
LinkTest = Callable[[Floats, Floats], Bools]


@dataclass(frozen=True)
class Coherency:
    """``out``: model id → reason; ``excess``: model id → inches beyond the limit (``None``
    when the model has no link at all)."""

    ok: bool
    out: dict[str, str] = field(default_factory=dict)
    excess: dict[str, Optional[float]] = field(default_factory=dict)
    links: tuple[tuple[str, str], ...] = ()

    def explain(self) -> str:
        if self.ok:
            return "in coherency"
        return "; ".join(f"{m}: {r}" for m, r in self.out.items())


def _link_graph(figs: Sequence[Figure], link_max: Optional[float], link_clear: Optional[LinkTest]) -> nx.Graph[str]:
    # networkx costs about 100 ms to import: it is loaded by the questions that build a
    # coherency graph, not with this module (which the Warhammer 40,000 aftermath moves load,
    # most of which build none)
    import networkx as nx

    n = len(figs)
    G: nx.Graph[str] = nx.Graph()
    G.add_nodes_from(f.id for f in figs)
    if n < 2:
        return G
    i, j = np.triu_indices(n, 1)
    ok = np.ones(len(i), dtype=bool)
    if link_max is not None:
        g = gap_matrix(figs, figs)
        ok &= g[i, j] <= link_max + TOUCH
    if link_clear is not None and ok.any():
        c = np.array([f.at for f in figs], dtype=float)
        sel = np.nonzero(ok)[0]
        ok[sel] = np.asarray(link_clear(c[i[sel]], c[j[sel]]), dtype=bool)
    G.add_edges_from((figs[a].id, figs[b].id) for a, b in zip(i[ok], j[ok]))
    return G


def leader_coherency(
    figs: Sequence[Figure],
    leader: str,
    radius: float,
    link_clear: Optional[LinkTest] = None,
    link_max: Optional[float] = None,
) -> Coherency:
    """Leader-anchored coherency: wholly within ``radius`` of ``leader`` and linked to it."""
    from networkx import node_connected_component  # (loaded here: see _link_graph)

    by = {f.id: f for f in figs}
    lead = by[leader]
    G = _link_graph(figs, link_max, link_clear)
    linked = node_connected_component(G, leader)
    out: dict[str, str] = {}
    excess: dict[str, Optional[float]] = {}
    for f in figs:
        if f.id == leader:
            continue
        d = far(f, lead)
        reasons = []
        if d > radius + TOUCH:
            reasons.append(f"not wholly within {radius:g}\" of the Leading Model {leader} ({d - radius:.6g}\" too far)")
            excess[f.id] = d - radius
        if f.id not in linked:
            reasons.append(f"no coherency link to the Leading Model {leader}")
            excess.setdefault(f.id, None)
        if reasons:
            out[f.id] = "; ".join(reasons)
    return Coherency(not out, out, excess, tuple(G.edges))


def chain_coherency(figs: Sequence[Figure], link: float) -> Coherency:
    """Chain coherency: links of at most ``link`` inches (edge to edge), one connected group.

    The group kept is the largest one (ties: the one holding the unit's first model); every
    other model is out, by its gap to that group minus ``link``.
    """
    from networkx import connected_components  # (loaded here: see _link_graph)

    if len(figs) < 2:
        return Coherency(True)
    G = _link_graph(figs, link, None)
    comps = sorted(connected_components(G), key=lambda c: (-len(c), min(i for i, f in enumerate(figs) if f.id in c)))
    main = comps[0]
    if len(comps) == 1:
        return Coherency(True, links=tuple(G.edges))
    inside = [f for f in figs if f.id in main]
    outside = [f for f in figs if f.id not in main]
    g = gap_matrix(outside, inside).min(axis=1)
    out = {f.id: f"{gv:.6g}\" from the nearest model of the main group: {gv - link:.6g}\" beyond {link:g}\"" for f, gv in zip(outside, g)}
    excess: dict[str, Optional[float]] = {f.id: float(gv - link) for f, gv in zip(outside, g)}
    return Coherency(False, out, excess, tuple(G.edges))
