"""Scenario text for the 40k 3rd audit tests: units from stat lines and model positions."""

from __future__ import annotations

D25 = 25 / 25.4                 # centre to centre of two 25 mm bases in base contact (inches)

MARINE = {"weapon_skill": 4, "strength": 4, "toughness": 4, "wounds": 1, "initiative": 4, "attacks": 1, "leadership": 8, "save": 3}
BOY = {"weapon_skill": 4, "strength": 3, "toughness": 4, "wounds": 1, "initiative": 2, "attacks": 2, "leadership": 7, "save": 6}


def _flow(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    if v is None:
        return "null"
    return repr(v) if isinstance(v, float) else str(v)


def unit(uid: str, side: str, stats: dict, models: dict, base=25, status=(), **extra) -> str:
    """One unit: ``models`` maps model ids to ``(x, y)``."""
    ms = [{"id": m, "at": [float(x), float(y)]} for m, (x, y) in models.items()]
    body = {"id": uid, "side": side, "base": base, "stats": stats, "models": ms}
    if status:
        body["status"] = list(status)
    body.update(extra)
    return "  - " + _flow(body) + "\n"


def scenario_text(units: list, terrain=(), settings=None, actions=(), dice=None, expect=(), board=(30, 30)) -> str:
    out = f"tapeline: 1\nsystem: classic40k\nboard: {{width: {board[0]}, height: {board[1]}}}\n"
    if terrain:
        out += "terrain:\n" + "".join("  - " + _flow(t) + "\n" for t in terrain)
    if settings:
        out += "settings: " + _flow(settings) + "\n"
    if dice is not None:
        out += "dice: " + (_flow({"rolls": list(dice)}) if isinstance(dice, (list, tuple)) else _flow({"seed": dice})) + "\n"
    out += "units:\n" + "".join(units)
    if actions:
        out += "actions:\n" + "".join("  - " + (a if isinstance(a, str) else _flow(a)) + "\n" for a in actions)
    if expect:
        out += "expect:\n" + "".join("  - " + (e if isinstance(e, str) else _flow(e)) + "\n" for e in expect)
    return out
