"""Template expectations: ``covered`` (a template placed by hand, every system) and
``template`` (a StarCraft template weapon: affected, excluded, Batches).

```yaml
expect:
  - {expect: covered, shape: blast, at: [12, 12], full: [m1, m2], partial: [m3, m4]}
  - {expect: covered, shape: blast, at: [12, 12], model: m2, value: inside, equals: 0.007874}
  - {expect: covered, shape: flamer, at: [4, 9], toward: [9, 9], covered: [z1, z2]}
  - expect: template
    unit: siege-tank
    weapon: crucio-shock-cannon
    target: z1                       # optional: model (firing model), at (Blast Target Point), on
    affected: {zerglings: [z1, z2], roaches: [r1]}
    excluded: {z5: terrain}          # model: reason, exactly these
    batches: [{unit: zerglings, dice: 2, surge: 2}, {unit: roaches, dice: 1, surge: null}]
```

``covered``: ``covered`` (every covered model), ``full`` (wholly under), ``partial`` (partly
under) and ``not_covered`` are exact sets when given (``not_covered``: each listed model is
not covered); ``model`` with ``value`` (``overlap``, ``inside`` or ``margin``) compares that
model's margin (``equals``/``tol``, ``at_least``, ``at_most``). ``template``: ``affected``,
``excluded`` and ``batches`` (in order; each entry's keys compared) are checked when given;
``target_point`` with ``tol``.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Optional, Self

from pydantic import Field, model_validator

from tapeline.board.templates import coverage, place, shape_table
from tapeline.rules.errors import IllegalAction
from tapeline.rules.state import GameState
from tapeline.rules.systems import rules_for

from ..schema import XY, Flag, Id, IdMap, NonNeg, Strict
from ..vocab import Ref, ReplayContext
from .common import ExpectBase, Numeric

Ids = Annotated[list[Id], Field(max_length=2000)]


class Covered(ExpectBase, Numeric):
    """Which models a template placed by hand covers, and by how much."""

    expect: Literal["covered"]
    shape: Id
    at: XY
    toward: Optional[XY] = None
    covered: Optional[Ids] = None
    full: Optional[Ids] = None
    partial: Optional[Ids] = None
    not_covered: Optional[Ids] = None
    model: Optional[Id] = None
    value: Optional[Literal["overlap", "inside", "margin"]] = None

    @model_validator(mode="after")
    def _what(self) -> Self:
        if (self.model is None) != (self.value is None):
            raise ValueError("give model and value together")
        if self.model is None and all(v is None for v in (self.covered, self.full, self.partial, self.not_covered)):
            raise ValueError("give covered, full, partial, not_covered, or model with value")
        return self

    def refs(self) -> list[Ref]:
        out: list[Ref] = [(k, "model", m) for k in ("covered", "full", "partial", "not_covered")
                          for m in getattr(self, k) or ()]
        return out + ([("model", "model", self.model)] if self.model else [])

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        known = shape_table(state.settings.get("templates"))
        if self.shape not in known:
            raise IllegalAction("templates", f"unknown template shape {self.shape!r} (known: {', '.join(sorted(known))})")
        tpl = place(known[self.shape], self.at, self.toward, self.shape)
        cov = coverage(tpl, state.all_figures())
        got = {"covered": [m for m, c in zip(cov.ids, cov.covered) if c],
               "full": [m for m, c in zip(cov.ids, cov.full) if c],
               "partial": [m for m, c, f in zip(cov.ids, cov.covered, cov.full) if c and not f]}
        ok, parts = True, []
        for k in ("covered", "full", "partial"):
            want = getattr(self, k)
            if want is not None:
                good = sorted(want) == sorted(got[k])
                ok &= good
                parts.append(f"{k} {got[k]}" + ("" if good else f" (expected {sorted(want)})"))
        if self.not_covered:
            bad = [m for m in self.not_covered if m in got["covered"]]
            ok &= not bad
            parts.append("not covered: " + (f"but {bad} are" if bad else "as expected"))
        if self.model is not None:
            assert self.value is not None  # model and value come together (the validator)
            i = cov.ids.index(self.model)
            v = {"overlap": cov.overlap[i], "inside": cov.inside[i], "margin": cov.margin(i)}[self.value]
            good, detail = self.compare_named(f"{self.model} {self.value}", float(v), "")
            ok &= good
            parts.append(detail)
        return ok, "; ".join(parts)


class BatchWant(Strict):
    unit: Id
    dice: Optional[Annotated[int, Field(strict=True, ge=0, le=1000)]] = None
    surge: Optional[Annotated[int, Field(strict=True, ge=0, le=1000)]] = None
    primary: Optional[Flag] = None


class TemplateAttack(ExpectBase):
    """What a StarCraft template weapon aimed at ``target`` does on the board at this point."""
    needs: ClassVar[tuple[str, ...]] = ("template_plan",)

    expect: Literal["template"]
    unit: Id
    weapon: Id
    target: Optional[Id] = None
    model: Optional[Id] = None
    at: Optional[XY] = None
    on: Optional[Id] = None
    affected: Optional[IdMap[Ids]] = None
    excluded: Optional[Annotated[dict[Id, Id], Field(max_length=2000)]] = None
    batches: Optional[Annotated[list[BatchWant], Field(max_length=500)]] = None
    target_point: Optional[XY] = None
    tol: NonNeg = 1e-6

    def refs(self) -> list[Ref]:
        out: list[Ref] = [("unit", "unit", self.unit), ("weapon", "weapon", self.weapon, self.unit)]
        out += [(k, "model", getattr(self, k)) for k in ("target", "model") if getattr(self, k)]
        out += [("on", "terrain", self.on)] if self.on else []
        out += [(f"affected.{u}", "unit", u) for u in self.affected or {}]
        out += [(f"affected.{u}", "model", m) for u, ms in (self.affected or {}).items() for m in ms]
        return out + [("excluded", "model", m) for m in self.excluded or {}]

    def check(self, state: GameState, ctx: ReplayContext) -> tuple[bool, str]:
        # a template that cannot be placed is bad input (exit 2, located), not a failed expectation
        p = rules_for(state.system).template_plan(state, self.unit, self.weapon, self.target, self.model, self.at, self.on,
                                                  ctx.settings)
        ok, parts = True, []
        if self.affected is not None:
            got_affected = {u: list(ms) for u, ms in p.affected.items()}
            good = got_affected == {u: list(ms) for u, ms in self.affected.items()}
            ok &= good
            parts.append(f"affected {got_affected}" + ("" if good else f" (expected {self.affected})"))
        if self.excluded is not None:
            got_excluded = {e.model: e.reason for e in p.excluded}
            good = got_excluded == dict(self.excluded)
            ok &= good
            parts.append(f"excluded {got_excluded}" + ("" if good else f" (expected {self.excluded})"))
        if self.batches is not None:
            got = [{"unit": b.unit, "dice": b.spec.dice, "surge": b.spec.surge_fixed if b.spec.surge_applies else None,
                    "primary": b.primary} for b in p.batches]
            want = [w.model_dump(exclude_unset=True) for w in self.batches]
            good = len(got) == len(want) and all(all(g[k] == v for k, v in w.items()) for g, w in zip(got, want))
            ok &= good
            parts.append(f"batches {[(g['unit'], g['dice'], g['surge']) for g in got]}" + ("" if good else f" (expected {want})"))
        if self.target_point is not None:
            d = max(abs(p.target_point[0] - self.target_point[0]), abs(p.target_point[1] - self.target_point[1]))
            ok &= d <= self.tol
            parts.append(f"Target Point ({p.target_point[0]:.6g}, {p.target_point[1]:.6g})")
        return ok, "; ".join(parts) or "placed"
