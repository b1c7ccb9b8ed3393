"""A replayed action in words: one sentence per event, its dice beside it, each die marked.

The replay viewer (:mod:`tapeline.scenarios.viewer`) explains every step with these lines:
``roaches charge marines: 7.0" needed (needs 3+), rolled 6: success (§8.7.7 Charge)``. A line
names the rule its event applies where the system says which (``RuleSystem.event_rules``).

Dice: every ``roll`` event goes with the event it is rolled for — the strike or volley whose
``to hit (GROUP vs TARGET)`` it is, the charge it is the charge roll of, the Batch, close combat
or Impact it follows (StarCraft rolls after declaring), else the next event. A die is marked
``hit`` or ``miss`` only where the events say what it needed: ``hit_on`` / ``wound_on`` of a
strike or volley, the ``N+`` of a save roll, a charge's ``min_roll`` (the kept die of "best of"
and "discard the lower" rolls; the other ``dropped``), a roll's own ``needs`` (StarCraft's to
hit, IMPACT, armour and evade rolls, §8.7.4: the target number after modifiers, clamped). A
test against a total (a Leadership check, a morale test) marks the total, not the dice; the
StarCraft Surge Die is a number, not a success, so it is not marked (its ``outcome`` is noted).

>>> lines = narrate("heresy", [
...     {"type": "roll", "purpose": "to hit (volley tac bolt pistol)", "dice": "2D6", "values": [5, 3]},
...     {"type": "volley", "unit": "tac", "target": "trt", "weapon": "bolt pistol", "shots": 2, "hit_on": 4,
...      "hits": 1, "wounds": 0, "casualties": []}])
>>> lines[0].text
'tac fire a volley of bolt pistol at trt: 2 shots, hitting on 4+ — 1 hit, 0 wounds'
>>> [(d.value, d.mark) for d in lines[0].rolls[0].dice]
[(5, 'hit'), (3, 'miss')]
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

from tapeline.rules.systems import rules_for

Event = Mapping[str, Any]


@dataclass(frozen=True)
class Die:
    """One die: its ``value`` and ``mark`` — ``hit``, ``miss``, ``dropped`` or ``""`` (the
    events do not say what it needed); ``needs``: what it needed (``4+``), when known."""

    value: int
    mark: str = ""
    needs: str = ""


@dataclass(frozen=True)
class Roll:
    """A roll: its purpose and dice (``2D6``) as the event gives them, each die, and a ``note``
    (the total against its target, the number of successes)."""

    purpose: str
    dice_text: str
    dice: tuple[Die, ...]
    note: str = ""


@dataclass(frozen=True)
class Line:
    """One event in words, the rule it applies (``""``: none named) and its rolls."""

    kind: str
    text: str
    rule: str = ""
    rolls: tuple[Roll, ...] = ()


#: Events rolled for after they are announced: the rolls that follow are theirs.
ROLLS_FOLLOW = frozenset({"batch", "close_combat", "impact"})
#: Events that never take a roll.
NO_ROLLS = frozenset({"action", "casualties", "status", "unengaged", "activated", "placed", "phase", "phase_end", "pass",
                      "hold", "duellists_return", "glory", "aftermath", "fight", "combat", "initiative_step"})


def inch(d: Any) -> str:
    """A distance for a sentence: two decimals at most, at least one (``7.0``, ``7.55``)."""
    s = f"{float(d):.2f}".rstrip("0")
    return s + "0" if s.endswith(".") else s


def _names(items: Any) -> str:
    return ", ".join(str(i) for i in items) if isinstance(items, (list, tuple)) else str(items)


def _plural(n: Any, word: str) -> str:
    if word == "die":
        return f"{n} {'die' if n == 1 else 'dice'}"
    return f"{n} {word}" + ("" if n == 1 else ("es" if word.endswith("s") else "s"))


def _values(ev: Event) -> list[int]:
    return [int(v) for v in ev.get("values", []) if isinstance(v, (int, float))]


def _marked(ev: Event, needs: Optional[int], note: str = "") -> Roll:
    """The roll with each die against ``needs`` (``None``: unmarked)."""
    dice = tuple(Die(v, "" if needs is None else ("hit" if v >= needs else "miss"), "" if needs is None else f"{needs}+")
                 for v in _values(ev))
    if needs is not None and not note:
        note = f"{sum(d.mark == 'hit' for d in dice)} of {len(dice)} succeed ({needs}+)"
    elif needs is None and not note and isinstance(ev.get("outcome"), int):
        note = f"result {ev['outcome']}"
    return Roll(str(ev.get("purpose", "")), str(ev.get("dice", "")), dice, note)


def _save_needs(purpose: str) -> Optional[int]:
    m = re.match(r"save (\d+)\+", purpose)
    return int(m.group(1)) if m else None


def _own_needs(ev: Event) -> Optional[int]:
    """What each die of ``ev`` needed, as the roll says it: its ``needs`` (StarCraft), else the
    ``N+`` of a save's purpose; ``None`` when it does not say."""
    needs = ev.get("needs")
    if isinstance(needs, int) and not isinstance(needs, bool):
        return needs
    return _save_needs(str(ev.get("purpose", "")))


def _charge_roll(ev: Event, min_roll: Optional[int]) -> tuple[Roll, str]:
    """A charge roll's dice (the kept one marked against ``min_roll``) and how it reads."""
    values = _values(ev)
    purpose = str(ev.get("purpose", ""))
    keeps_best = len(values) > 1 and ("best of" in purpose or "discard the lower" in purpose)
    if len(values) == 1 or keeps_best:
        kept = max(values) if values else 0
        k = values.index(kept) if values else -1
        dice = tuple(Die(v, ("dropped" if i != k else "" if min_roll is None else ("hit" if v >= min_roll else "miss")),
                         "" if min_roll is None or i != k else f"{min_roll}+") for i, v in enumerate(values))
        said = str(kept) if len(values) == 1 else f"{' and '.join(map(str, values))}, kept {kept}"
        return Roll(purpose, str(ev.get("dice", "")), dice, f"kept {kept}" if keeps_best else ""), said
    said = "+".join(map(str, values)) + f"={sum(values)}"
    return Roll(purpose, str(ev.get("dice", "")), tuple(Die(v) for v in values), f"total {sum(values)}"), said


def _moves(ev: Event) -> str:
    parts = []
    for m in ev.get("moves", []):
        if m.get("how") == "stayed" or not m.get("length"):
            parts.append(f"{m.get('model')} stays")
            continue
        part = f"{m.get('model')} {inch(m['length'])}\"" + (" into base contact" if m.get("contact") else "")
        check = m.get("path_check")
        if isinstance(check, Mapping):
            part += f" — {check.get('message') or check.get('rule') or 'illegal'}"
        parts.append(part)
    return ", ".join(parts) if parts else "no model moves"


# --- one sentence per kind of event ------------------------------------------------------------


def _charge(ev: Event, rolls: list[Event]) -> tuple[str, list[Roll]]:
    unit, targets = ev.get("unit"), _names(ev.get("targets", []))
    need = ev.get("min_roll")
    head = f"{unit} charge {targets}: {inch(ev['distance'])}\" needed" if ev.get("distance") is not None else f"{unit} charge {targets}"
    charge_rolls = [r for r in rolls if str(r.get("purpose", "")).startswith("charge roll")]
    out: list[Roll] = []
    said = ""
    if charge_rolls:
        roll, said = _charge_roll(charge_rolls[-1], need if isinstance(need, int) else None)
        out.append(roll)
    text = head + (f" (needs {need}+)" if isinstance(need, int) and charge_rolls else "")
    text += (f", rolled {said}" if said else "") + (": success" if ev.get("success") else ": failed")
    return text, out


def _strike_like(ev: Event, rolls: list[Event], who: str, label: str) -> tuple[str, list[Roll]]:
    hit_on, wound_on = ev.get("hit_on"), ev.get("wound_on")
    out = []
    for r in rolls:
        p = str(r.get("purpose", ""))
        if p.startswith("to hit"):
            out.append(_marked(r, hit_on if isinstance(hit_on, int) else None))
        elif p.startswith("to wound"):
            out.append(_marked(r, wound_on if isinstance(wound_on, int) else None))
        else:
            out.append(_marked(r, _own_needs(r)))
    bits = []
    if "attacks" in ev:
        bits.append(_plural(ev["attacks"], "attack"))
    if "shots" in ev:
        bits.append(_plural(ev["shots"], "shot"))
    if isinstance(hit_on, int):
        bits.append(f"hitting on {hit_on}+")
    if isinstance(wound_on, int):
        bits.append(f"wounding on {wound_on}+")
    got = []
    for key, word in (("hits", "hit"), ("wounds", "wound"), ("dealt", "wound"), ("unsaved", "unsaved wound")):
        v = ev.get(key)
        if isinstance(v, list):
            v = sum(x for x in v if isinstance(x, int))
        if isinstance(v, int) and not (key == "dealt" and "wounds" in ev):
            got.append(_plural(v, word) if word != "unsaved wound" else f"{v} unsaved")
    removed = [m for s in ev.get("saves", []) if isinstance(s, Mapping) for m in s.get("removed", [])]
    removed += [m for m in ev.get("casualties", []) if isinstance(m, str)]
    text = f"{who} {label}: {', '.join(bits)}" + (f" — {', '.join(got)}" if got else "")
    text += (f"; {_names(removed)} removed" if removed else "") + ("; slain" if ev.get("slain") else "")
    return text, out


def _sentence(ev: Event, rolls: list[Event]) -> tuple[str, list[Roll]]:
    """The event's sentence and its marked rolls (of ``rolls``, those rolled for it)."""
    t = ev.get("type")

    def g(key: str, default: Any = None) -> Any:
        return ev.get(key, default)

    if t == "charge":
        return _charge(ev, rolls)
    if t == "volley":
        return _strike_like(ev, rolls, str(g("unit", "")), f"fire a volley of {g('weapon', '')} at {g('target', '')}")
    if t == "strike":
        who = str(g("group") or g("unit", "")) + (f" ({_names(g('models', []))})" if g("models") else "")
        return _strike_like(ev, rolls, who, f"strike {g('target', '')}")
    if t == "challenge_strike":
        return _strike_like(ev, rolls, str(g("model", "")), f"strikes {g('target', '')} with {g('weapon', '')}")
    plain = [_marked(r, _own_needs(r)) for r in rolls]
    if t in ("check", "morale"):
        rs = [int(v) for v in g("rolls", [])]
        target = g("target")
        what = g("purpose") or "Leadership test"
        stat = f"{str(g('characteristic', 'leadership')).capitalize()} {g('value', g('leadership', ''))}".strip()
        mod = g("modifier")
        stat += f", modifier {mod:+d}" if isinstance(mod, int) and mod else ""
        passed = "passed" if g("passed") else "failed"
        total = f"{'+'.join(map(str, rs))}={sum(rs)}" if rs else ""
        plain = [Roll(str(r.get("purpose", "")), str(r.get("dice", "")), tuple(Die(v) for v in _values(r)),
                      f"total {sum(_values(r))} against {target} or less: {passed}") for r in rolls]
        return f"{g('unit')} take a {what} ({stat}): needs {target} or less on the dice, rolled {total}: {passed}", plain
    if t == "setup_move":
        return f"{g('unit')} make their Set-up Move of {inch(g('distance', 0))}\": {_moves(ev)}", plain
    if t == "charge_move":
        return f"{g('unit')} move in the charge, up to {inch(g('allowance', 0))}\": {_moves(ev)}", plain
    if t == "pile_in":
        return f"{g('unit')} pile in: {_moves(ev)}", plain
    if t == "consolidate":
        return f"{g('unit')} consolidate: {_moves(ev)}", plain
    if t == "advance":
        return f"{g('unit')} advance: {_moves(ev)}", plain
    if t == "fall_back":
        far = f" {inch(g('distance'))}\"" if g("distance") is not None else (f" (rolled {g('roll')})" if g("roll") is not None else "")
        return (f"{g('unit')} fall back{far}"
                + (f" toward the {g('edge')} edge" if g("edge") else "") + f": {_moves(ev)}"), plain
    if t == "pursue":
        return (f"{g('unit')} pursue (rolled {g('roll')})" + (f", catching {_names(g('caught'))}" if g("caught") else ", catching nobody")
                + f": {_moves(ev)}"), plain
    if t == "assault":
        return (f"{g('unit')} assault {_names(g('targets', []))}: " + ("success" if g("success") else "failed")
                + f"; {_moves(ev)}"), plain
    if t == "batch":
        firing = list(g("firing", [])) + list(g("long_range", []))
        return (f"{g('unit')} fire {g('weapon')} at {g('target')}: {_plural(g('dice', 0), 'die')} from {_plural(len(firing), 'model')}"
                + (f", Surge {g('surge_die')}" if g("surge_die") else "")), plain
    if t == "close_combat":
        dice = g("dice", {})
        at = ", ".join(f"{n} at {u}" for u, n in dice.items()) if isinstance(dice, Mapping) else str(dice)
        return f"{g('unit')} fight in close combat: Fighting Rank {_names(g('fighting_rank', []))}; dice {at}", plain
    if t == "impact":
        dice = g("dice", {})
        at = ", ".join(f"{n} at {u}" for u, n in dice.items()) if isinstance(dice, Mapping) else str(dice)
        return f"{g('unit')} make Impact: {at}", plain
    if t == "casualties":
        ms = list(g("models", []))
        return (f"{_names(ms)} of {g('unit')} removed as {'a casualty' if len(ms) == 1 else 'casualties'}"
                + (f" ({g('damage')} damage)" if g("damage") else "")), plain
    if t == "placed":
        x, y = g("to", [0, 0])
        return f"{g('model')} placed at ({inch(x)}, {inch(y)})", plain
    if t == "status":
        return f"{g('unit')} {'are' if g('gained') else 'lose'} {g('gained') or g('lost')}" + (f": {g('why')}" if g("why") else ""), plain
    if t == "resolution":
        pts = g("points", {})
        return "combat resolution: " + ", ".join(f"{s} {p}" for s, p in pts.items()), plain
    if t == "assault_result":
        wounds = ", ".join(f"{s} {w}" for s, w in g("wounds", {}).items())
        head = f"{g('winner')} win the assault by {g('margin')}" if g("winner") else "the assault is drawn"
        return head + (f" (wounds caused: {wounds})" if wounds else ""), plain
    if t == "challenge":
        return f"{g('challenger')} challenges {g('acceptor')}; {g('acceptor')} accepts", plain
    if t == "run":
        return f"{g('unit')} run" + (f" {inch(g('length'))}\"" if g("length") is not None else ""), plain
    return _generic(ev), plain


def _generic(ev: Event) -> str:
    parts = []
    for k, v in ev.items():
        if k == "type" or v in (None, [], {}, ""):
            continue
        if isinstance(v, (str, int, float, bool)):
            parts.append(f"{k} {inch(v) if isinstance(v, float) else v}")
        elif isinstance(v, (list, tuple)) and all(isinstance(x, (str, int)) for x in v):
            parts.append(f"{k} {_names(v)}")
        if len(parts) == 6:
            break
    return f"{str(ev.get('type', 'event')).replace('_', ' ')}" + (f": {', '.join(parts)}" if parts else "")


def _claims(ev: Event, roll: Event) -> bool:
    """Is the pending ``roll`` rolled for ``ev`` (a strike or volley by its purpose)?"""
    p = str(roll.get("purpose", ""))
    t = ev.get("type")
    if p.startswith("charge roll"):
        return t == "charge"
    if t == "strike" or t == "challenge_strike":
        who = ev.get("group") or (f"{ev.get('model')} {ev.get('weapon')}" if t == "challenge_strike" else ev.get("unit"))
        return f"({who} vs " in p or (p.startswith("save") and f"({ev.get('target')})" in p)
    if t == "volley":
        return f"(volley {ev.get('unit')} {ev.get('weapon')})" in p or (p.startswith("save") and f"({ev.get('target')})" in p)
    return True


def narrate(system: str, events: Sequence[Event]) -> list[Line]:
    """Every event of ``events`` (one action's, or a part of it) in words, with its dice."""
    rules = rules_for(system).event_rules
    lines: list[Line] = []
    pending: list[Event] = []
    following: Optional[int] = None  # the line the next rolls belong to (a Batch ...)
    for ev in events:
        t = str(ev.get("type", ""))
        if t == "action":
            continue
        if t == "roll":
            if following is not None:
                line = lines[following]
                roll = _marked(ev, _own_needs(ev))
                lines[following] = Line(line.kind, line.text, line.rule, line.rolls + (roll,))
            else:
                pending.append(ev)
            continue
        following = None
        mine = [] if t in NO_ROLLS else [r for r in pending if _claims(ev, r)]
        pending = [r for r in pending if not any(r is m for m in mine)]
        text, rolls = _sentence(ev, mine)
        lines.append(Line(t, text, rules.get(t, ""), tuple(rolls)))
        if t in ROLLS_FOLLOW:
            following = len(lines) - 1
    for r in pending:  # rolls no event claimed: a line each
        lines.append(Line("roll", str(r.get("purpose", "roll")), "", (_marked(r, _own_needs(r)),)))
    return lines
