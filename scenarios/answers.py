"""Every answer tapeline gives, as a typed, immutable value: one class per question.

A :class:`tapeline.Game` question returns one of these; its fields are exactly the keys of the
command's ``--json`` object, in the same order (:meth:`Answer.as_json` gives that object back),
and ``str(answer)`` is what the command prints in words. The command line, a session and the web
table print these values: the three cannot drift apart.

Nested objects are read-only mappings and lists are tuples; ``as_json()`` turns them back into
dicts and lists. An answer with a geometric verdict (:class:`Measure`, :class:`Sight`,
:class:`Charge`, :class:`PathCheck`, :class:`Template`) asked of a :class:`tapeline.Game` draws itself: ``svg()``
is the board cropped to its models with the verdict drawn by the overlay ``tapeline render``
uses, and a Jupyter notebook shows that picture (``_repr_svg_``). A key the rules add that a class lacks is an error (:meth:`Answer.from_json`),
not a silent difference.

>>> m = Measure.from_json({"a": "m1", "b": "z1", "gap": 0.5, "contact": False})
>>> m.gap, m.contact, m.engaged
(0.5, False, None)
>>> m.as_json()
{'a': 'm1', 'b': 'z1', 'gap': 0.5, 'contact': False}
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, ClassVar, Optional, TypeVar

Point = tuple[float, float]
JSON = Mapping[str, Any]


def freeze(value: Any) -> Any:
    """Dicts become read-only mappings and lists tuples, all the way down."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """The inverse of :func:`freeze`: plain dicts and lists, ready for ``json.dumps``."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


def inches(x: float) -> str:
    """A length in words: six decimals at most, no trailing zeros (``0.740157``, ``7``)."""
    return f"{x:.6f}".rstrip("0").rstrip(".") if abs(x) < 1e6 else f"{x:g}"


def percent(p: float) -> str:
    return f"{100 * p:.2f}%"


def readings_line(readings: Optional[JSON]) -> list[str]:
    """The ``readings: k=v, ...`` line of an answer that relied on readings (the settings and
    the defaults of choices it was worked out under; docs/choices.md), or no line."""
    return ["readings: " + ", ".join(f"{k}={v}" for k, v in readings.items())] if readings else []


def _empty() -> JSON:
    return MappingProxyType({})


AnswerT = TypeVar("AnswerT", bound="Answer")


@dataclass(frozen=True)
class Answer:
    """Base of every answer: made from the rules' JSON-ready object, and back."""

    #: the ``tapeline`` command that prints this answer
    command: ClassVar[str] = ""
    _keys: tuple[str, ...] = field(default=(), repr=False, compare=False)
    #: draws the answer (set by the game that answered: :meth:`drawn_by`)
    _picture: Optional[Callable[[], str]] = field(default=None, repr=False, compare=False)

    @classmethod
    def from_json(cls: type[AnswerT], obj: JSON) -> AnswerT:
        """The value for a command's JSON object; every key must be a field of ``cls``."""
        names = {f.name for f in dataclasses.fields(cls)} - {"_keys", "_picture"}
        extra = [k for k in obj if k not in names]
        if extra:
            raise TypeError(f"{cls.__name__} has no field for the key(s) {', '.join(map(repr, extra))}: "
                            f"add them to {cls.__name__} in scenarios/answers.py")
        return cls(_keys=tuple(obj), **{k: freeze(v) for k, v in obj.items()})

    def as_json(self) -> dict[str, Any]:
        """The command's JSON object: the same keys, in the same order."""
        return {k: thaw(getattr(self, k)) for k in self._keys}

    def __str__(self) -> str:
        return json.dumps(self.as_json(), indent=2, ensure_ascii=False)

    def drawn_by(self: AnswerT, picture: Callable[[], str]) -> AnswerT:
        """The same answer, drawn by ``picture`` (called when the picture is wanted)."""
        return dataclasses.replace(self, _picture=picture)


class Drawn:
    """An answer with a geometric verdict: its picture, and Jupyter draws it."""

    _picture: Optional[Callable[[], str]]

    def svg(self) -> str:
        """The board cropped to the answer's models, the verdict drawn on it (an SVG text a
        notebook draws); :class:`ValueError` for an answer no game has drawn (one made with
        :meth:`Answer.from_json`)."""
        if self._picture is None:
            raise ValueError("this answer was not asked of a game: ask tapeline.Game for a picture")
        return self._picture()

    def _repr_svg_(self) -> Optional[str]:
        """Jupyter draws the answer; one no game answered has no picture (its text is shown)."""
        return None if self._picture is None else str(self._picture())


@dataclass(frozen=True)
class Measure(Drawn, Answer):
    """``measure``: gap (edge to edge, inches; 0 in contact, negative = overlap), base contact,
    Engagement Range and engagement under the system's rules, with the margin to the engagement
    distance and, when the models do not engage, the reason."""

    command: ClassVar[str] = "measure"
    a: str = ""
    b: str = ""
    gap: float = 0.0
    contact: bool = False
    engagement_range: Optional[bool] = None
    engaged: Optional[bool] = None
    engagement_distance: Optional[float] = None
    margin: Optional[float] = None
    reason: Optional[str] = None
    detail: Optional[str] = None

    def __str__(self) -> str:
        a, b, er = self.a, self.b, self.engagement_distance or 0.0
        within = f"within {er:g}\""
        m = abs(self.margin or 0.0)
        explain = f"{within} by {m:.6g}\"" if self.engagement_range else f"not {within}: {m:.6g}\" too far"
        return "\n".join([
            f"gap {a} to {b}: {inches(self.gap)}\"" + (" (overlap)" if self.gap < 0 else ""),
            f"base contact: {'yes' if self.contact else 'no'}",
            f"engagement range ({'base contact' if er == 0 else f'{er:g}' + chr(34)}): "
            + ("yes, " if self.engagement_range else "no, ") + explain,
            f"engaged: {'yes' if self.engaged else 'no'}"
            + (f" ({self.detail})" if self.detail and not self.engaged and self.reason else ""),
        ])


@dataclass(frozen=True)
class Sight(Drawn, Answer):
    """``los``: ``visible``; a ``witness`` segment from A's base to B's base when there is one;
    otherwise ``blocked_by`` (``{terrain, reason}`` each); ``clearance`` of the witness from the
    nearest blocking piece (StarCraft)."""

    command: ClassVar[str] = "los"
    a: str = ""
    b: str = ""
    visible: bool = False
    witness: Optional[tuple[Point, Point]] = None
    blocked_by: tuple[JSON, ...] = ()
    clearance: Optional[float] = None
    detail: str = ""

    def __bool__(self) -> bool:
        return self.visible

    def __str__(self) -> str:
        a, b = self.a, self.b
        if self.visible and self.witness is not None:
            (x0, y0), (x1, y1) = self.witness
            lines = [f"{b} is visible to {a} (and {a} to {b})",
                     f"witness: ({inches(x0)}, {inches(y0)}) -> ({inches(x1)}, {inches(y1)})"]
            if self.clearance is not None:
                lines.append(f"clearance from the nearest blocking piece: {inches(self.clearance)}\"")
            if self.detail and self.clearance is None:
                lines.append(self.detail)
        else:
            lines = [f"{b} is not visible to {a} (nor {a} to {b})"]
            for blk in self.blocked_by:
                t, r = blk["terrain"], blk["reason"]
                lines.append(f"  blocked by {t}: {r}" if t else f"  {r}")
        return "\n".join(lines)


@dataclass(frozen=True)
class Charge(Drawn, Answer):
    """``charge``: the path length the Leading Model needs to a legal end spot (``distance``,
    None when none can be reached), the smallest roll that makes it (``min_roll``), the exact
    ``probability``, the ``path`` and its ``end``. StarCraft adds ``speed``, ``modifier``,
    ``reach``, ``grass_crossed`` and ``notes``; the other systems ``allowed``, ``reason`` and
    ``details``. With a roll: ``success`` and the outcome ``roll``."""

    command: ClassVar[str] = "charge"
    system: str = ""
    unit: str = ""
    targets: tuple[str, ...] = ()
    leader: Optional[str] = None
    distance: Optional[float] = None
    min_roll: Optional[int] = None
    probability: float = 0.0
    probability_fraction: str = ""
    dice: str = ""
    path: tuple[Point, ...] = ()
    end: Optional[Point] = None
    speed: Optional[int] = None
    modifier: Optional[int] = None
    reach: Optional[JSON] = None
    grass_crossed: Optional[tuple[str, ...]] = None
    notes: Optional[tuple[str, ...]] = None
    allowed: Optional[bool] = None
    reason: Optional[str] = None
    details: Optional[JSON] = None
    success: Optional[bool] = None
    roll: Optional[JSON] = None
    readings: Optional[JSON] = None

    def __str__(self) -> str:
        tg = ", ".join(self.targets)
        if self.distance is None or self.end is None:
            head = f"{self.unit} charging {tg}: no legal end spot can be reached"
        else:
            head = (f"{self.unit} charging {tg}: Leading Model {self.leader} needs {inches(self.distance)}\" of path to a "
                    f"legal end spot at ({inches(self.end[0])}, {inches(self.end[1])})")
        parts = [head]
        if self.reach is not None:  # StarCraft: Speed + the dice
            r = self.reach
            parts.append(f"charge distance Speed {self.speed}{self.modifier or 0:+d} + {self.dice}: "
                         f"{r['min']}\"–{r['max']}\", {r['mean']:g}\" on average")
            if self.grass_crossed:
                parts.append(f"the path crosses Grass: {', '.join(self.grass_crossed)} (removed)")
            parts += [f"note: {n}" for n in self.notes or ()]
        else:
            d = self.details or {}
            if d.get("gate"):
                parts.append(f"{'may charge' if self.allowed else 'may not charge'}: {d['gate']['text']} ({d['gate']['rule']})")
            if not self.allowed:
                parts.append(f"not allowed: {self.reason}")
            if "setup_move" in d:
                parts.append(f"Set-up Move {d['setup_move']}\"" + (" (Disordered)" if d.get("disordered") else ""))
            if d.get("note"):
                parts.append(d["note"])
        if self.dice == "none":
            parts.append(f"no roll: {'succeeds' if self.probability == 1 else 'cannot succeed'}")
        else:
            need = f"needs a {self.min_roll}+" if self.min_roll is not None else "no roll succeeds"
            parts.append(f"{self.dice}: {need}, probability {self.probability_fraction} ({100 * self.probability:.1f}%)")
        if self.roll is not None:
            parts.append(_rolled(self.roll))
        return "\n".join(parts + readings_line(self.readings))


def _rolled(r: JSON) -> str:
    """A resolved charge in words."""
    if not r["success"]:
        s = f"rolled {r['roll']}: the charge fails" + (f": {r['note']}" if r.get("note") else " (no move)")
        made = [m for m in r.get("setup") or () if m.get("length")]  # Horus Heresy: the Set-up Move was made
        moved = r.get("placed") or {}  # 40k: the models moved and fell short
        if made:
            s += "; Set-up Move made: " + ", ".join(
                f"{m['model']} {inches(m['length'])}\" to ({inches(m['to'][0])}, {inches(m['to'][1])})" for m in made)
        elif moved:
            s += "; moved: " + ", ".join(f"{k} to ({inches(v[0])}, {inches(v[1])})" for k, v in moved.items())
        return s
    s = f"rolled {r['roll']}: the charge succeeds; {r['leader']} ends at ({inches(r['end'][0])}, {inches(r['end'][1])})"
    noms = r.get("target_models") or ({None: r["target_model"]} if r.get("target_model") else {})
    if "in_contact" in r:  # Horus Heresy, 40k: every model's own move
        s += f"; in base contact: {', '.join(r['in_contact']) or 'none'}"
    if r.get("contact"):
        s += f" in base contact with {', '.join(noms.values())}"
    elif r.get("end_gaps"):
        s += ", " + ", ".join(f"{inches(g)}\" from {m}" for m, g in r["end_gaps"].items())
    if r.get("removed"):
        s += f"; removed (no legal linked spot): {', '.join(r['removed'])}"
    return s


@dataclass(frozen=True)
class PathCheck(Drawn, Answer):
    """``path``: whether the proposed path is ``legal``, its ``length`` and the first
    ``violation`` along it (``{kind, at, detail, obstacle}``), with the clearance used, and the
    level the model ends on (``ends_on``: a terrain id, ``None`` for the ground)."""

    command: ClassVar[str] = "path"
    model: str = ""
    legal: bool = False
    length: float = 0.0
    clearance: float = 0.0
    violation: Optional[JSON] = None
    max: Optional[float] = None
    grass_crossed: Optional[tuple[str, ...]] = None
    ends_on: Optional[str] = None

    def __str__(self) -> str:
        if self.legal:
            text = f"legal: {self.model} travels {inches(self.length)}\"" + (
                f" of {inches(self.max)}\" allowed (margin {inches(self.max - self.length)}\")" if self.max is not None else "")
            if self.ends_on is not None:
                text += f", ending on {self.ends_on}"
        else:
            v = self.violation or {}
            text = f"illegal: {v['kind']} at ({inches(v['at'][0])}, {inches(v['at'][1])}): {v['detail']}"
        if self.grass_crossed:
            text += f"\ncrosses Grass: {', '.join(self.grass_crossed)} (removed)"
        return text


@dataclass(frozen=True)
class Attack(Answer):
    """``attack``: which models fire, which target models may be removed, the attack dice, and
    the exact distributions (index k holds P(value = k)) and means of hits, damage dice, damage
    and kills; ``kills_at_least[k]`` is P(kills ≥ k); one entry per Batch in ``batches``."""

    command: ClassVar[str] = "attack"
    unit: str = ""
    target: str = ""
    firing_models: tuple[str, ...] = ()
    visible_targets: tuple[str, ...] = ()
    dice: int = 0
    mean_hits: float = 0.0
    mean_damage_dice: float = 0.0
    mean_damage: float = 0.0
    mean_kills: float = 0.0
    hits_pmf: tuple[float, ...] = ()
    damage_dice_pmf: tuple[float, ...] = ()
    damage_pmf: tuple[float, ...] = ()
    kills_pmf: tuple[float, ...] = ()
    kills_at_least: tuple[float, ...] = ()
    marker_pmf: tuple[float, ...] = ()
    batches: tuple[JSON, ...] = ()
    readings: Optional[JSON] = None

    def __str__(self) -> str:
        lines = [f"{self.unit} at {self.target}"]
        for b in self.batches:
            lr = f" (+{len(b['long_range_models'])} at LONG RANGE)" if b["long_range_models"] else ""
            ev = f"; Evade {b['evade']}+ ({', '.join(b['evade_reasons'])})" if b["evade"] is not None else ""
            lines.append(f"  {b['weapon']}: {len(b['firing_models'])} model(s) firing{lr}, {b['dice']} dice"
                         + (f", Surge {b['surge']}" if b["surge"] else "") + ev)
        lines.append(f"  {len(self.visible_targets)} target model(s) may be removed: {', '.join(self.visible_targets)}")
        reading = next((b["casualty_priority_range"] for b in self.batches if "casualty_priority_range" in b), None)
        if reading:
            lines.append("  the target is Engaged: casualties by the §8.7.5 priority, 'within Engagement Range' read as "
                         + ("within 1\" of an enemy model (seed wording)" if reading == "within_1"
                            else "engaging an enemy model (§7.2)"))
        lines.append(f"hits (avg) {inches(self.mean_hits)}   damage dice {inches(self.mean_damage_dice)}   "
                     f"damage {inches(self.mean_damage)}   kills {inches(self.mean_kills)}")
        lines.append("chance to kill at least: "
                     + "  ".join(f"{k}: {100 * p:.2f}%" for k, p in enumerate(self.kills_at_least) if k > 0))
        return "\n".join(lines + readings_line(self.readings))


@dataclass(frozen=True)
class Template(Drawn, Answer):
    """``template``: the ``template`` placed (``{shape, centre, radius}`` for a disc, ``{shape,
    polygon}`` and its exact circles for a teardrop) and every model it ``covered`` (``{model,
    unit, full, margin, overlap, inside}``). Placed by hand: ``near_misses``. Fired by a StarCraft
    template weapon: the ``target_point``, the ``affected`` models by unit, the ``excluded`` ones
    with their reason, and each Batch with its dice and exact odds."""

    command: ClassVar[str] = "template"
    template: JSON = field(default_factory=_empty)
    covered: tuple[JSON, ...] = ()
    near_misses: tuple[JSON, ...] = ()
    unit: Optional[str] = None
    weapon: Optional[str] = None
    firing_model: Optional[str] = None
    target_model: Optional[str] = None
    primary: Optional[str] = None
    target_point: Optional[Point] = None
    level: Optional[str] = None
    affected: Optional[JSON] = None
    excluded: Optional[tuple[JSON, ...]] = None
    template_casualties: Optional[str] = None
    batches: Optional[tuple[JSON, ...]] = None
    readings: Optional[JSON] = None

    def covered_ids(self) -> tuple[str, ...]:
        """The covered models, in file order."""
        return tuple(str(c["model"]) for c in self.covered)

    def __str__(self) -> str:
        t = self.template
        if t["kind"] == "disc":
            where = f"{t['shape']} ({inches(t['diameter'])}\" disc) centred at ({inches(t['centre'][0])}, {inches(t['centre'][1])})"
        else:
            where = (f"{t['shape']} ({inches(t['length'])}\" teardrop) tip at ({inches(t['tip'][0])}, {inches(t['tip'][1])}) "
                     f"toward ({inches(t['toward'][0])}, {inches(t['toward'][1])})")
        lines = []
        if self.weapon is not None and self.target_point is not None:
            lines.append(f"{self.unit}'s {self.weapon} fired by {self.firing_model}"
                         + (f" at {self.target_model} ({self.primary})" if self.target_model else ""))
            tp = self.target_point
            lines.append(f"  {where}; Target Point ({inches(tp[0])}, {inches(tp[1])}) on {self.level or 'no level (Flying)'}")
        else:
            lines.append(where)
        lines.append(f"covers {len(self.covered)} model(s)" + (":" if self.covered else ""))
        for c in self.covered:
            if c["full"]:
                lines.append(f"  {c['model']} ({c['unit']}): wholly under, {inches(c['inside'])}\" inside the outline")
            else:
                lines.append(f"  {c['model']} ({c['unit']}): partly, overlapping by {inches(c['overlap'])}\""
                             f" (reaching {inches(-c['inside'])}\" beyond the outline)")
        if self.near_misses:
            lines.append("not covered, near: " + ", ".join(f"{n['model']} ({n['unit']}) clear by {inches(n['gap'])}\""
                                                           for n in self.near_misses))
        if self.affected is not None:
            for uid, ids in self.affected.items():
                lines.append(f"affected {uid}: {', '.join(ids)}")
            for e in self.excluded or ():
                lines.append(f"not affected {e['model']} ({e['unit']}): {e['reason']} — {e['detail']}")
            for b in self.batches or ():
                kind = "primary" if b["primary"] else ("Spillover" if self.primary else "Batch")
                surge = f", Surge {b['surge']} (not rolled)" if b["surge"] is not None else ""
                ev = f"; Evade {b['evade']}+" if b["evade"] is not None else ""
                lines.append(f"  {kind} {b['unit']}: {b['dice']} {'die' if b['dice'] == 1 else 'dice'}{surge}{ev}; "
                             f"kills (avg) {inches(b['mean_kills'])}"
                             + "".join(f"  {k}+: {100 * p:.2f}%" for k, p in enumerate(b["kills_at_least"]) if k > 0))
        return "\n".join(lines + readings_line(self.readings))


@dataclass(frozen=True)
class Fight(Answer):
    """``fight``: who fights (``fighters``: unit → model ids) and the exact odds. StarCraft (the
    unit's Close Combat Attack as the board stands): ``fighting_rank``, ``supporting_rank``, the
    target unit each striker attacks (``assign``) with which weapon, ``dice`` and ``odds`` per
    target unit, ``surge_to``, ``evade``, and with ``charged`` the ``impact`` of IMPACT (X).
    Horus Heresy / 40k 3rd (one whole round of the combat, Initiative step by step): ``combat``
    (its units), ``steps``, ``expected_casualties``, ``casualties_pmf``, ``result`` (unit →
    P(wins), ``draw``); 40k adds each model's ``attacks``, the wounds' distributions,
    ``falls_back`` and the ``readings`` used."""

    command: ClassVar[str] = "fight"
    system: str = ""
    unit: str = ""
    fighters: JSON = field(default_factory=_empty)
    fighting_rank: Optional[tuple[str, ...]] = None
    supporting_rank: Optional[tuple[str, ...]] = None
    assign: Optional[JSON] = None
    weapons: Optional[JSON] = None
    dice: Optional[JSON] = None
    surge_to: Optional[str] = None
    evade: Optional[JSON] = None
    odds: Optional[JSON] = None
    casualty_priority_range: Optional[str] = None
    impact: Optional[JSON] = None
    combat: Optional[tuple[str, ...]] = None
    charged: Optional[tuple[str, ...]] = None
    attacks: Optional[JSON] = None
    active_side: Optional[str] = None
    initiative_steps: Optional[tuple[int, ...]] = None
    steps: Optional[tuple[JSON, ...]] = None
    expected_casualties: Optional[JSON] = None
    casualties_pmf: Optional[JSON] = None
    expected_wounds: Optional[JSON] = None
    wounds_pmf: Optional[JSON] = None
    result: Optional[JSON] = None
    sides: Optional[JSON] = None
    falls_back: Optional[JSON] = None
    readings: Optional[JSON] = None
    excluded: Optional[tuple[str, ...]] = None

    def __str__(self) -> str:
        return self._round() if self.steps is not None else self._close_combat()

    def _close_combat(self) -> str:
        """StarCraft: the Close Combat Attack (§8.8.1), target by target."""
        lines = [f"{self.unit}: Close Combat Attack (§8.8.1)",
                 f"  Fighting Rank: {', '.join(self.fighting_rank or ()) or 'none'}",
                 f"  Supporting Rank: {', '.join(self.supporting_rank or ()) or 'none'}"]
        dice, assign, odds, evade = self.dice or {}, self.assign or {}, self.odds or {}, self.evade or {}
        if not dice:
            lines.append("  no attack dice: no striking model has a Combat-phase weapon")
        for t, n in dice.items():
            who = [m for m, tt in assign.items() if tt == t]
            surge = "; Surge Die here" if self.surge_to == t else ""
            ev = f"; Evade ({', '.join(evade[t])})" if t in evade else ""
            lines.append(f"  at {t}: {n} attack dice from {', '.join(who)}{surge}{ev}")
            od = odds[t]
            lines.append(f"    hits (avg) {inches(od['mean_hits'])}   damage {inches(od['mean_damage'])}   "
                         f"kills {inches(od['mean_kills'])}")
            lines.append("    chance to kill at least: "
                         + "  ".join(f"{k}: {100 * p:.2f}%" for k, p in enumerate(od["kills_at_least"]) if k > 0))
        if self.impact is not None:
            im = self.impact
            lines.append(f"  IMPACT ({im['x']}) {im['y']}+ after the Charge:")
            for t, n in im["dice"].items():
                od = im["odds"][t]
                al = od["kills_at_least"]
                lines.append(f"    at {t}: {n} dice, kills (avg) {inches(od['mean_kills'])}, "
                             f"P(at least 1) {100 * (al[1] if len(al) > 1 else 0):.2f}%")
        lines.append("  casualties by the Engaged priority (§8.7.5), 'within Engagement Range' read as "
                     + ("within 1\" of an enemy model" if self.casualty_priority_range == "within_1"
                        else "engaging an enemy model (§7.2)"))
        return "\n".join(lines + readings_line(self.readings))

    def _round(self) -> str:
        """Horus Heresy and 40k 3rd: one round of the combat, Initiative step by step."""
        head = f"combat of {self.unit}: {', '.join(self.combat or ())}"
        if self.active_side is not None:
            head += f" (active side {self.active_side}); Initiative steps {', '.join(str(i) for i in self.initiative_steps or ())}"
        if self.charged:
            head += f"; charged: {', '.join(self.charged)}"
        lines = [head]
        if self.attacks is not None:  # 40k: who fights
            for u, ms in self.fighters.items():
                lines.append(f"  {u} fights with {len(ms)}: {', '.join(ms)}")
        for s in self.steps or ():
            w = s["wound_on"]
            wtxt = f"wound {w}+" if isinstance(w, int) else ("no wound possible" if w is None else str(w))
            sv = f"save {s['save_on']}+" if s["save_on"] is not None else "no save"
            when = {"first": "first (in cover)", "last": "last"}.get(str(s.get("strikes")), f"I{s['initiative']}")
            lines.append(f"  {when}: {s['unit']} {s['weapon']} x{len(s['models'])} ({s['attacks']} attacks) at "
                         f"{s['target']}: hit {s['hit_on']}+, {wtxt}, {sv}")
        expected = self.expected_casualties or {}
        for u, pmf in (self.casualties_pmf or {}).items():
            dist = "  ".join(f"{k}: {percent(p)}" for k, p in enumerate(pmf) if p > 5e-7)
            lines.append(f"{u} casualties (avg {inches(expected[u])}): {dist}")
        res = ", ".join(f"{s} wins {percent(p)}" for s, p in (self.sides or {}).items())
        lines.append(f"result: {res}, draw {percent((self.result or {})['draw'])}")
        if self.falls_back:
            lines.append("falls back: " + ", ".join(f"{u} {percent(p)}" for u, p in self.falls_back.items() if p is not None))
        if self.excluded:
            lines.append(f"in a challenge (not fighting here): {', '.join(self.excluded)}")
        return "\n".join(lines + readings_line(self.readings))


@dataclass(frozen=True)
class Models(Answer):
    """``models``: every unit (side, profile, statuses, Leading Model, Damage Marker,
    casualties) with its models (position, base, what it stands on, level, wounds lost)."""

    command: ClassVar[str] = "models"
    system: str = ""
    units: tuple[JSON, ...] = ()

    def ids(self) -> tuple[str, ...]:
        """Every model id on the table, in file order."""
        return tuple(str(m["id"]) for u in self.units for m in u["models"])

    def __str__(self) -> str:
        lines = []
        sized = any("effective_size" in m for u in self.units for m in u["models"])  # a system of Size classes
        for u in self.units:
            what = ", ".join(x for x in (u["profile"], f"Size {u['size']}" if sized else None,
                                         " ".join(u["tags"]) or None) if x)
            head = f"{u['id']} ({u['side']}{', ' + what if what else ''})"
            extra = [f"status: {', '.join(u['status'])}"] if u["status"] else []
            if u["damage"]:
                extra.append(f"Damage Marker {u['damage']}")
            if u["removed"]:
                extra.append(f"removed: {', '.join(u['removed'])}")
            lines.append(head + (" — " + "; ".join(extra) if extra else ""))
            for m in u["models"]:
                star = " *leader*" if m["id"] == u["leader"] else ""
                on = f" on {m['on']}" if m["on"] else ""
                lost = m.get("wounds_lost", 0)
                hurt = f", {lost} wound{'s' if lost != 1 else ''} lost" if lost else ""
                lines.append(f"  {m['id']:<8} ({inches(m['at'][0])}, {inches(m['at'][1])})  {m['base']}{on}, {m['level']}{hurt}{star}")
        return "\n".join(lines) if lines else "no units"


#: How ``units`` prints a characteristic: its printed abbreviation, and a suffix.
_ABBR = {"movement": ("M", ""), "weapon_skill": ("WS", ""), "ballistic_skill": ("BS", ""), "strength": ("S", ""),
         "toughness": ("T", ""), "wounds": ("W", ""), "initiative": ("I", ""), "attacks": ("A", ""),
         "leadership": ("LD", ""), "cool": ("CL", ""), "willpower": ("WP", ""), "intelligence": ("IN", ""),
         "save": ("Sv", "+"), "invulnerable": ("Inv", "+"), "armour": ("Armour ", "+"), "evade": ("Evade ", "+"),
         "hp": ("HP ", ""), "shield": ("Shield ", ""), "size": ("Size ", "")}


def _stat(name: str, value: Any) -> str:
    if name == "speed":
        return "Speed " + ("-" if not value else "/".join(str(v) for v in value))
    if name == "impact":
        return f"IMPACT ({value[0]}) {value[1]}+" if value else ""
    if name == "evade" and value is None:
        return "Evade -"
    if name == "unit_type":
        return f"type {value}"
    if name == "supply" or value is None or value == []:
        return ""
    if name == "abilities":
        return ", ".join(value)
    abbr, suffix = _ABBR.get(name, (name + " ", ""))
    return f"{abbr}{value}{suffix}"


def _weapon(w: JSON) -> str:
    kind = w.get("kind") or w.get("phase") or ""
    if kind == "melee":
        bits = [f"IM {w['initiative']}", f"AM {w['attacks']}", f"SM {w['strength']}", f"AP {w['ap'] if w['ap'] else '-'}",
                f"D {w['damage']}"] + (["ignores armour"] if w.get("ignores_armour") else []) \
            + (["strikes last"] if w.get("strikes_last") else [])
    elif kind == "ranged":
        bits = [f"R {w['range']}\"", f"FP {w['firepower']}", f"S {w['strength']}", f"AP {w['ap'] if w['ap'] else '-'}",
                f"D {w['damage']}"]
    else:  # a StarCraft TMG weapon (§5.1)
        bits = [f"RNG {w['range']}", f"vs {w.get('target', 'ground')}", f"RoA {w['roa']}",
                f"Hit {w['hit']}+" if w.get("hit") else "Hit -", f"DMG {w.get('damage', 1)}"]
        if w.get("surge"):
            bits.append(f"Surge {' '.join(w['surge'])} {w.get('surge_dice') or ''}".rstrip())
        bits += [str(k) if v is True else f"{k} " + (" ".join(f"{t} {x}" for t, x in v.items()) if isinstance(v, Mapping) else str(v))
                 for k, v in (w.get("keywords") or {}).items()]
    traits = [f"{k} ({v})" if v is not None else str(k) for k, v in (w.get("traits") or {}).items()]
    return f"{w['name']} ({kind}): " + ", ".join(bits + traits)


@dataclass(frozen=True)
class Units(Answer):
    """``units SYSTEM``: every profile of the system's bundled catalogue — its key and printed
    name, stats, base, tags, the wargear it carries and its weapon profiles."""

    command: ClassVar[str] = "units"
    system: str = ""
    title: str = ""
    profiles: tuple[JSON, ...] = ()

    def __str__(self) -> str:
        lines = [f"{self.title} ({self.system}): {len(self.profiles)} profiles"]
        for p in self.profiles:
            stats = " ".join(x for x in (_stat(k, v) for k, v in p["stats"].items()) if x)
            extra = ([f"base {p['base'] if not isinstance(p['base'], (list, tuple)) else 'x'.join(map(str, p['base']))} mm"]
                     if p["base"] is not None else []) + ([" ".join(p["tags"])] if p["tags"] else []) \
                + ([f"sub-types {' '.join(p['subtypes'])}"] if p["subtypes"] else [])
            lines.append(f"{p['key']} ({p['name']}): {stats}" + ("; " + "; ".join(extra) if extra else ""))
            if p["wargear"]:
                lines.append(f"  wargear: {', '.join(p['wargear'])}")
            lines += [f"  {_weapon(w)}" for w in p["weapons"]]
        return "\n".join(lines) if self.profiles else lines[0] + "\n(no bundled catalogue)"


@dataclass(frozen=True)
class Replay(Answer):
    """``replay``: ``ok`` when every expectation holds, the event log (every die and every
    verdict), each expectation's verdict, and the ``final`` state."""

    command: ClassVar[str] = "replay"
    ok: bool = False
    events: tuple[JSON, ...] = ()
    expectations: tuple[JSON, ...] = ()
    final: JSON = field(default_factory=_empty)

    def __str__(self) -> str:
        lines = [describe(e) for e in self.events]
        for c in sorted(self.expectations, key=lambda c: int(c["index"])):
            lines.append(f"{'PASS' if c['ok'] else 'FAIL'} expect[{c['index']}] {c['expect']}: {c['detail']}")
        return "\n".join(lines + [holding(self.expectations)])


@dataclass(frozen=True)
class Events(Answer):
    """What one move did (``push``): its ``events``, every die with its purpose and every verdict."""

    command: ClassVar[str] = "push"
    events: tuple[JSON, ...] = ()

    def __str__(self) -> str:
        return "\n".join(describe(e) for e in self.events) or "no events"


def describe(ev: JSON) -> str:
    """One event of the log in words (``[3] charge``, ``    roll 2D6 for ...: 3 5``)."""
    t = ev.get("type")
    if t == "action":
        return "\n".join([f"[{ev['index']}] {ev['action']}"] + ["    " + r for r in readings_line(ev.get("readings"))])
    if t == "roll":
        return f"    roll {ev['dice']} for {ev['purpose']}: {' '.join(map(str, ev['values']))}"
    rest = ", ".join(f"{k}={thaw(v)}" for k, v in ev.items() if k != "type")
    return f"    {t}: {rest}"


def holding(expectations: Sequence[JSON]) -> str:
    """``25 of 25 expectations hold``."""
    passed = sum(bool(c["ok"]) for c in expectations)
    return f"{passed} of {len(expectations)} expectations hold" if expectations else "no expectations"


#: Each question's answer class, by command.
BY_COMMAND: Mapping[str, type[Answer]] = {
    cls.command: cls for cls in (Measure, Sight, Charge, PathCheck, Attack, Template, Fight, Models, Replay, Events)
}


@dataclass(frozen=True)
class Analysis(Answer):
    """``analyse``: the table analysis of a layout (docs/analysis.md): the grid (``step``,
    ``origin`` of the first cell's centre, ``shape`` ``[columns, rows]``), the ``probe``, and
    per side the ``exposure`` map (rows from the bottom, ``None`` where the probe cannot stand),
    ``seen_from`` (the counts), ``hidden`` positions, the ``reach`` map and ``reach_within``
    each charge distance; ``open_lanes``, ``longest_lane`` and ``balance``."""

    command: ClassVar[str] = "analyse"
    file: str = ""
    name: str = ""
    system: str = ""
    step: float = 1.0
    origin: tuple[float, float] = (0.5, 0.5)
    shape: tuple[int, int] = (0, 0)
    probe: JSON = field(default_factory=_empty)
    sides: tuple[str, ...] = ()
    zones: tuple[JSON, ...] = ()
    positions: JSON = field(default_factory=_empty)
    standable: int = 0
    exposure: JSON = field(default_factory=_empty)
    seen_from: JSON = field(default_factory=_empty)
    hidden: JSON = field(default_factory=_empty)
    open_lanes: Optional[float] = None
    longest_lane: Optional[JSON] = None
    charge_distances: tuple[float, ...] = ()
    reach: JSON = field(default_factory=_empty)
    reach_within: JSON = field(default_factory=_empty)
    balance: JSON = field(default_factory=_empty)

    def __str__(self) -> str:
        cols, rows = self.shape
        p = self.probe
        lines = [f"{self.name}: {cols} x {rows} positions every {inches(self.step)}\" "
                 f"({self.standable} where a {p['base']:g} mm probe can stand)"]
        for s in self.sides:
            other = next(o for o in self.sides if o != s)
            e = self.balance["exposure"].get(s)
            lines.append(f"{s}: {self.positions[s]} zone positions; exposed to {other}'s zone "
                         + (percent(e) if e is not None else "-") + " on average, "
                         f"{self.hidden[s]} position{'' if self.hidden[s] == 1 else 's'} hidden from it")
        if self.open_lanes is not None:
            lines.append(f"open lanes: {percent(self.open_lanes)} of zone-to-zone pairs see each other")
        if self.longest_lane is not None:
            ln = self.longest_lane
            lines.append(f"longest open sight line: {inches(ln['length'])}\" from ({inches(ln['from'][0])}, {inches(ln['from'][1])})"
                         f" to ({inches(ln['to'][0])}, {inches(ln['to'][1])})")
        for s in self.sides:
            r = self.balance["reach"].get(s)
            within = ", ".join(f"{percent(v)} within {d}\"" for d, v in self.reach_within[s].items() if v is not None)
            lines.append(f"reach from {s}'s zone to the other's: " + (f"{inches(r)}\" on average" if r is not None else "none")
                         + (f" ({within})" if within else ""))
        b = self.balance
        de, dr = b.get("exposure_difference"), b.get("reach_difference")
        lines.append("balance: " + ("even exposure" if not de else f"exposure {self.sides[0]} - {self.sides[1]} = {100 * de:+.2f} percentage points")
                     + ("" if dr is None else f", reach {self.sides[0]} - {self.sides[1]} = {dr:+.3f}\"")
                     + (f": favours {b['favours']}" if b.get("favours") else ""))
        return "\n".join(lines)
