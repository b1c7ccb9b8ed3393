"""``run``: a StarCraft TMG Move or Run with its Leading Model's path checked (§8.5.2, §8.7.1).

```yaml
actions:
  - {action: run, unit: marines, leader: m1, path: [[12, 9], [15, 9]]}
  - {action: run, unit: marines, leader: m1, path: [[15, 9]], set: {m2: [15, 10.5]}}
```

The Leading Model's centre follows ``path`` (from where it stands, through each point) and may
travel at most the unit's Speed, under Gap Clearance, round impassable terrain and other units'
models, changing level only through an Access Point (§8.5.3), and may not end within 1" of an
enemy Ground unit (docs/movement.md). Each model ends standing on the level its centre is on. Only an
Unengaged unit may Move or Run. The rest are then set in coherency: at the spots given in
``set``, checked, or by default as close to the Leading Model as they legally can
(board/placement.py); one with no legal linked spot is removed (§4.4). Grass crossed by the
Leading Model's path or ended on is removed (§7.1).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from tapeline.board.pathcheck import check_end, check_path
from tapeline.board.placement import place_around
from tapeline.rules.charge_geometry import space_for
from tapeline.rules.errors import IllegalAction
from tapeline.rules.starcraft.charge import speed
from tapeline.rules.starcraft.engagement import units_engaged
from tapeline.rules.starcraft.movement import (coherency, coherency_radius, end_pieces_on, grass_crossed, grass_ended_on,
                                               link_space, move_rules, without_grass)

from ..schema import MAX_MODELS, XY, Bounded, Id, IdMap, Strict

RULE = "§8.5.2 Move / §8.7.1 Run"


class Run(Strict):
    activation: ClassVar[str] = "run"
    action: Literal["run"]
    unit: Id
    leader: Id
    path: Bounded(XY, at_least=1)
    set: IdMap(XY, MAX_MODELS) = {}

    def refs(self):
        return ([("unit", "unit", self.unit), ("leader", "model", self.leader, self.unit)]
                + [(f"set.{m}", "model", m, self.unit) for m in self.set])

    def apply(self, state, ctx):
        if state.system != "starcraft":
            raise IllegalAction(RULE, "the run action follows StarCraft TMG movement rules")
        u = state.unit(self.unit)
        if self.leader not in u.models:
            raise IllegalAction(RULE, f"{self.leader} is not a model of {self.unit}")
        for m in self.set:
            if m not in u.models or m == self.leader:
                raise IllegalAction(RULE, f"set: {m} is not another model of {self.unit}")
        for e in state.enemies_of(self.unit):
            if units_engaged(state, self.unit, e.id):
                raise IllegalAction(RULE, f"{self.unit} is Engaged with {e.id}: only an Unengaged unit may Move or Run")
        sp = speed(state, self.unit)
        if sp is None:
            raise IllegalAction(RULE, f"{self.unit} has Null Speed")
        lead = state.figure(self.leader)
        rules = move_rules(state, self.unit, lead)
        pts = [lead.at] + [tuple(p) for p in self.path]
        if u.flying:
            pts = [pts[0], pts[-1]]  # point to point, ignoring what lies between (§8.5.3)
            rules = type(rules)(0.0, 0.0, (), (), rules.end_pieces, rules.end_figures, ())
        res = check_path(space_for(state, rules), pts, float(sp), rules.end_check(state.table, lead))
        if not res.legal:
            v = res.violation
            raise IllegalAction(RULE, f"{self.leader}'s path: {v.kind} at ({v.at[0]:.6g}, {v.at[1]:.6g}): {v.detail}")
        moved = lead.moved(pts[-1][0], pts[-1][1], rules.level_at(*pts[-1]))
        new = state.with_figures([moved])
        rest = [f for f in state.figures_of(self.unit) if f.id != self.leader]
        others = [f for f in state.all_figures() if f.unit != self.unit]
        pieces = [p for p in state.table.pieces if not p.has("grass")]
        keep = [(f, 1.0) for e in state.enemies_of(self.unit) if not e.flying for f in state.figures_of(e.id)]
        given = [f for f in rest if f.id in self.set]
        free = [f for f in rest if f.id not in self.set]
        events = [{"type": "run", "unit": self.unit, "leader": self.leader, "length": round(res.length, 9), "speed": sp}]
        if given:
            placed = [f.moved(*self.set[f.id], rules.level_at(*self.set[f.id])) for f in given]
            for f in placed:
                v = check_end(state.table, f, others + [moved] + [g for g in placed if g.id != f.id], end_pieces_on(state.table, f.on), keep)
                if v is not None:
                    raise IllegalAction(RULE, f"set {f.id}: {v.kind}: {v.detail}")
            new = new.with_figures(placed)
        if free:
            blockers = others + [new.figure(f.id) for f in given]
            pl = place_around(moved, free, state.table, blockers, pieces, (), keep, coherency_radius(u),
                              link_space(state, self.unit).clear_segments, levels=rules.levels,
                              pieces_on=lambda lv: end_pieces_on(state.table, lv))
            new = new.with_figures([f.moved(*pl.positions[f.id], pl.on.get(f.id)) for f in free if f.id in pl.positions])
            if pl.unplaced:
                new = new.without_models(self.unit, list(pl.unplaced))
                events.append({"type": "removed", "unit": self.unit, "models": list(pl.unplaced), "why": "no legal linked spot (§4.4)"})
        grass = [] if u.flying else grass_crossed(state, pts)
        grass = sorted(set(grass) | set(grass_ended_on(new, new.figures_of(self.unit))))
        if grass:
            new = without_grass(new, grass)
            events.append({"type": "grass_removed", "pieces": grass})
        c = coherency(new, self.unit, self.leader)
        events[0]["coherency"] = c.ok
        if not c.ok:
            events[0]["out_of_coherency"] = c.explain()
        ctx.results[ctx.index] = {"run": {"length": res.length, "coherency": c.ok, "grass_removed": grass}}
        return new, events
