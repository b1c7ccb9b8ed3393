"""``tapeline template``: which models a template covers — placed by hand in every system, or
fired by a StarCraft TMG template weapon with its Batches and exact odds.

```
tapeline template FILE --shape S --at X,Y [--toward X,Y]
tapeline template FILE --unit U --weapon W --target MODEL [--model FIRER] [--at X,Y]
tapeline template FILE --unit U --weapon W --at X,Y [--on PIECE]      (ability templates)
```

The first form places shape ``S`` (``blast``, ``large_blast``, ``flamer`` or a name from the
file's ``settings.templates``): a disc centred on ``--at``; a teardrop with its narrow tip at
``--at`` and its axis through ``--toward``. JSON: ``template`` (``{shape, centre, radius}`` for
a disc, ``{shape, polygon}`` for a teardrop, with its exact circles), ``covered`` (every model
whose base the template overlaps: ``{model, unit, full, margin, overlap, inside}``) and
``near_misses`` (models within 1" of the outline that it does not cover, with the gap).

The second form is a StarCraft weapon with RNG BT or FT aimed at a target model (§8.7.6,
docs/templates.md): ``template``, ``target_point``, ``affected`` (``{unit: [ids]}``),
``excluded`` (``{model, unit, reason, detail}``), ``batches`` (``{unit, primary, dice, surge,
mean_kills, kills_pmf, ...}``), ``covered``, ``firing_model``, ``level``.
"""

from __future__ import annotations

from tapeline.board.errors import GeometryError

from ..cli import emit
from ..cliutil import ArgumentError, add_file, answer, fmt, load, model, unit, xy

NEAR_MISS = 1.0


def register(sub) -> None:
    p = sub.add_parser("template", help="which models a Blast or Flamer template covers (and, StarCraft, what it does)")
    add_file(p)
    p.add_argument("--shape", metavar="S", help="a template placed by hand: blast, large_blast, flamer or a settings.templates name")
    p.add_argument("--at", metavar="X,Y", help="disc centre / teardrop tip; with --weapon, a Blast's Target Point")
    p.add_argument("--toward", metavar="X,Y", help="a teardrop's aim point")
    p.add_argument("--unit", metavar="U", help="StarCraft: the unit firing a template weapon")
    p.add_argument("--weapon", metavar="W", help="StarCraft: its weapon with RNG BT or FT")
    p.add_argument("--target", metavar="MODEL", help="StarCraft: the target model")
    p.add_argument("--model", metavar="FIRER", help="StarCraft: the firing model (default: the unit's model nearest the target)")
    p.add_argument("--on", metavar="PIECE", help="StarCraft ability template: the piece its Target Point stands on")
    p.set_defaults(func=run)


def run(args) -> int:
    out = answer("template", query(load(args), args))
    emit(out, args.json, human(out))
    return 0


def query(loaded, args) -> dict:
    """The JSON answer of either form."""
    weapon_form = [f"--{k}" for k in ("unit", "weapon", "target", "model", "on") if getattr(args, k, None) is not None]
    if args.shape is not None:
        if weapon_form:
            raise ArgumentError(loaded.file, weapon_form[0], "give either --shape (a template placed by hand) or "
                                "--unit/--weapon/--target (a StarCraft template weapon), not both")
        return _shape(loaded, args)
    if args.unit is None or args.weapon is None:
        raise ArgumentError(loaded.file, "arguments", "give --shape S --at X,Y [--toward X,Y], or --unit U --weapon W --target MODEL")
    return _weapon(loaded, args)


def _shape(loaded, args) -> dict:
    from tapeline.board.templates import coverage, place, shape_table

    st = loaded.state
    known = shape_table(st.settings.get("templates"))
    if args.shape not in known:
        raise ArgumentError(loaded.file, "--shape", f"unknown template shape {args.shape!r} (known: {', '.join(sorted(known))})")
    if args.at is None:
        raise ArgumentError(loaded.file, "--at", f"place the {args.shape} template: give --at X,Y")
    at = xy(args.at, "--at")
    toward = xy(args.toward, "--toward") if args.toward is not None else None
    try:
        tpl = place(known[args.shape], at, toward, args.shape)
    except GeometryError as e:
        raise ArgumentError(loaded.file, "--toward", str(e)) from None
    cov = coverage(tpl, st.all_figures())
    return {"template": tpl.as_dict(), "covered": cov.rows(), "near_misses": cov.near_misses(NEAR_MISS)}


def _weapon(loaded, args) -> dict:
    from tapeline.rules.errors import ChoiceError, NotInThisSystem
    from tapeline.rules.systems import rules_for

    st = loaded.state
    u = unit(loaded, args.unit, "--unit")
    target = model(loaded, args.target, "--target") if args.target is not None else None
    firer = model(loaded, args.model, "--model") if args.model is not None else None
    if args.on is not None and args.on not in st.table.by_id:
        raise ArgumentError(loaded.file, "--on", f"no terrain piece {args.on!r}")
    at = xy(args.at, "--at") if args.at is not None else None
    try:
        return rules_for(st.system).template_attack(st, u, args.weapon, target, firer, at, args.on)
    except NotInThisSystem as e:
        raise ArgumentError(loaded.file, "--weapon", f"{e.message}; for {st.system} place a template with --shape S --at X,Y") from None
    except ChoiceError as e:
        raise ArgumentError(loaded.file, f"--{e.choice}", e.message) from None


def human(o: dict) -> str:
    t = o["template"]
    if t["kind"] == "disc":
        where = f"{t['shape']} ({fmt(t['diameter'])}\" disc) centred at ({fmt(t['centre'][0])}, {fmt(t['centre'][1])})"
    else:
        where = (f"{t['shape']} ({fmt(t['length'])}\" teardrop) tip at ({fmt(t['tip'][0])}, {fmt(t['tip'][1])}) "
                 f"toward ({fmt(t['toward'][0])}, {fmt(t['toward'][1])})")
    lines = []
    if "weapon" in o:
        lines.append(f"{o['unit']}'s {o['weapon']} fired by {o['firing_model']}"
                     + (f" at {o['target_model']} ({o['primary']})" if o.get("target_model") else ""))
        tp = o["target_point"]
        lines.append(f"  {where}; Target Point ({fmt(tp[0])}, {fmt(tp[1])}) on {o['level'] or 'no level (Flying)'}")
    else:
        lines.append(where)
    cov = o["covered"]
    lines.append(f"covers {len(cov)} model(s)" + (":" if cov else ""))
    for c in cov:
        if c["full"]:
            lines.append(f"  {c['model']} ({c['unit']}): wholly under, {fmt(c['inside'])}\" inside the outline")
        else:
            lines.append(f"  {c['model']} ({c['unit']}): partly, overlapping by {fmt(c['overlap'])}\""
                         f" (reaching {fmt(-c['inside'])}\" beyond the outline)")
    if o.get("near_misses"):
        lines.append("not covered, near: " + ", ".join(f"{n['model']} ({n['unit']}) clear by {fmt(n['gap'])}\""
                                                       for n in o["near_misses"]))
    if "affected" in o:
        for uid, ids in o["affected"].items():
            lines.append(f"affected {uid}: {', '.join(ids)}")
        for e in o["excluded"]:
            lines.append(f"not affected {e['model']} ({e['unit']}): {e['reason']} — {e['detail']}")
        for b in o["batches"]:
            kind = "primary" if b["primary"] else ("Spillover" if o.get("primary") else "Batch")
            surge = f", Surge {b['surge']} (not rolled)" if b["surge"] is not None else ""
            ev = f"; Evade {b['evade']}+" if b["evade"] is not None else ""
            lines.append(f"  {kind} {b['unit']}: {b['dice']} {'die' if b['dice'] == 1 else 'dice'}{surge}{ev}; kills (avg) {fmt(b['mean_kills'])}"
                         + "".join(f"  {k}+: {100 * p:.2f}%" for k, p in enumerate(b["kills_at_least"]) if k > 0))
    return "\n".join(lines)
