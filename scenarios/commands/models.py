"""``tapeline models FILE``: the file's units and models — the ids a user needs for every other
command, with positions, bases, what each model stands on, its level, and each unit's
statuses, Leading Model and casualties (with ``--after N``: as they stand after action N)."""

from __future__ import annotations

from ..cli import emit
from ..cliutil import add_file, answer, fmt, load


def register(sub) -> None:
    p = sub.add_parser("models", help="list the file's units and models: ids, positions, bases, levels, statuses")
    add_file(p)
    p.set_defaults(func=run)


def query(loaded, args=None) -> dict:
    """The JSON answer: ``{"system", "units": [...]}``, units and models in file order."""
    from tapeline.rules.systems import rules_for

    st = loaded.state
    rules = rules_for(st.system)
    units = []
    for u in st.units:
        models = []
        for m in u.models:
            f = st.figure(m)
            models.append({"id": m, "at": [round(f.x, 6), round(f.y, 6)], "base": f.base.describe(), "on": f.on}
                          | rules.level(st, f))
        units.append({
            "id": u.id, "side": u.side, "profile": u.profile, "size": u.size, "tags": sorted(u.tags),
            "status": sorted(u.status), "leader": u.leader, "damage": u.damage,
            "models": models, "removed": list(u.removed),
        })
    return {"system": st.system, "units": units}


def human(o: dict) -> str:
    lines = []
    for u in o["units"]:
        what = ", ".join(x for x in (u["profile"], f"Size {u['size']}" if o["system"] == "starcraft" else None,
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
            lines.append(f"  {m['id']:<8} ({fmt(m['at'][0])}, {fmt(m['at'][1])})  {m['base']}{on}, {m['level']}{star}")
    return "\n".join(lines) if lines else "no units"


def run(args) -> int:
    out = answer("models", query(load(args)))
    emit(out, args.json, human(out))
    return 0
