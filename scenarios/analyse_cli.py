"""The ``tapeline analyse`` command: one layout in words, ``--json`` or ``-o map.svg``; many
layouts with ``--out DIR`` (local processes, or a Dask cluster with ``--scheduler``).

A client of :meth:`tapeline.Game.analyse` (one layout) and :mod:`scenarios.batch` (a batch);
docs/analysis.md says what each number means. The batch and picture modules are imported when
used: every other command's start-up stays as it was.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Callable

from . import answers as A
from .errors import ArgumentError
from .game import Game
from .limits import MAX_BASE_MM, MIN_BASE_MM

if TYPE_CHECKING:
    from tapeline.board.render_maps import HeatMap

    from . import batch


def add_parser(sub: Any, number_in: Callable[[float, float], Callable[[str], float]],
               whole_in: Callable[[int, int], Callable[[str], int]]) -> None:
    """The command's arguments (``sub``: the command line's subparsers)."""
    p = sub.add_parser("analyse", help="map a table: exposure, hidden spots, open lanes, charge reach, balance (docs/analysis.md)")
    p.add_argument("files", nargs="+", metavar="FILE", help="scenario file(s) with zones of two sides")
    p.add_argument("--step", type=number_in(0.1, 12), default=1.0, metavar="S", help="grid step in inches (default 1)")
    p.add_argument("--probe-base", type=number_in(MIN_BASE_MM, MAX_BASE_MM), metavar="MM", help="the probe's round base (mm)")
    p.add_argument("--probe-size", type=whole_in(0, 20), metavar="N", help="the probe's Size class (StarCraft)")
    p.add_argument("--probe-height", type=number_in(0.01, 100), metavar="H", help="the probe's height in inches (Heresy, 40k)")
    p.add_argument("--probe-speed", type=whole_in(0, 20), metavar="N", help="the probe's Speed (StarCraft: charge Speed + 1..6)")
    p.add_argument("--probe-flying", action="store_true", help="a Flying probe (StarCraft)")
    p.add_argument("--json", action="store_true", help="print the analysis as one JSON object (one FILE)")
    p.add_argument("-o", "--output", metavar="MAP.svg", default=None, help="also draw the maps as one SVG picture (one FILE)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="batch: write one JSON object per layout and summary.csv into DIR (resumes where it stopped)")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None, help="batch on the Dask cluster at ADDRESS (tcp://host:8786)")
    p.add_argument("--workers", type=whole_in(1, 256), metavar="N", default=None,
                   help="batch: local worker processes (default: one per CPU)")


def _options(args: argparse.Namespace) -> "batch.Options":
    from . import batch

    return batch.Options(args.step, args.probe_base, args.probe_size, args.probe_height, args.probe_speed, args.probe_flying)


def command(args: argparse.Namespace, open_game: Callable[[str], Game], emit: Callable[[Any, bool, str], None],
            check_output: Callable[[str, str, str], None], write_output: Callable[[str, str, str, str], None]) -> int:
    """Run ``tapeline analyse``; the exit status."""
    if args.out is None:
        if args.scheduler is not None or args.workers is not None:
            raise ArgumentError("--scheduler" if args.scheduler is not None else "--workers", "a batch option: give --out DIR")
        if len(args.files) > 1:
            raise ArgumentError("--out", f"{len(args.files)} layouts: give --out DIR to analyse a batch")
        return _one(args, open_game, emit, check_output, write_output)
    if args.output is not None or args.json:
        raise ArgumentError("-o" if args.output is not None else "--json", "a batch writes its objects into --out DIR")
    if args.scheduler is not None and args.workers is not None:
        raise ArgumentError("--workers", "the Dask cluster has its own workers: give --scheduler or --workers")
    from . import batch

    rows = batch.run(args.files, args.out, _options(args), args.scheduler, args.workers, sys.stderr)
    for r in rows:
        print(f"{r['rank']:>3}. {r['layout']}: exposure difference {_signed(r['exposure_difference'])}, "
              f"reach difference {_signed(r['reach_difference'], 3)}\", open lanes {_pct(r['open_lanes'])}")
    print(f"wrote {len(rows)} layout(s) and summary.csv to {args.out}")
    return 0


def _one(args: argparse.Namespace, open_game: Callable[[str], Game], emit: Callable[[Any, bool, str], None],
         check_output: Callable[[str, str, str], None], write_output: Callable[[str, str, str, str], None]) -> int:
    file = args.files[0]
    if args.output is not None:
        check_output(file, args.output, "-o")
    game = open_game(file)
    o = _options(args)
    answer = game.analyse(step=o.step, probe_base=o.probe_base, probe_size=o.probe_size, probe_height=o.probe_height,
                          probe_speed=o.probe_speed, probe_flying=o.probe_flying)
    if args.output is not None:
        svg = picture(game, answer)
        if args.output == "-":
            sys.stdout.write(svg)
            return 0
        write_output(file, args.output, "-o", svg)
    emit(answer.as_json(), args.json, str(answer))
    if args.output is not None:
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def picture(game: Game, a: A.Analysis) -> str:
    """The maps of ``a`` over ``game``'s board: each side's exposure, then each side's reach
    with its contours at the charge distances."""
    from tapeline.board.render_maps import maps_svg

    maps = heatmaps(game, a)
    return maps_svg(game.state.table, [maps[("exposure", s)] for s in a.sides] + [maps[("reach", s)] for s in a.sides],
                    title=f"{game.name}: table analysis", fill_by=game.rules.terrain_shading)


def heatmaps(game: Game, a: A.Analysis) -> "dict[tuple[str, str], HeatMap]":
    """The heatmaps of ``a``, keyed ``(map, side)``: ``exposure`` (pale: seen from few of the
    other side's zone positions, dark red: from all), ``hidden`` (the positions none of them
    sees) and ``reach`` (one scale for both sides, contours at the charge distances); the
    zones outlined on each (``tapeline analyse -o`` draws the exposure and reach maps, the web
    table all of them)."""
    from tapeline.board.render_maps import DISTANCE, HEAT, HIDDEN, HeatMap

    origin = (float(a.origin[0]), float(a.origin[1]))
    zones = [z.shape.footprint for z in game.zones]
    far = max([v for s in a.sides for row in a.reach[s] for v in row if v is not None], default=1.0)
    maps: dict[tuple[str, str], HeatMap] = {}
    for s in a.sides:
        other = next(o for o in a.sides if o != s)
        maps[("exposure", s)] = HeatMap(f"{game.name}: exposure of {s} to {other}'s zone", a.exposure[s], origin, a.step,
                                        0.0, 1.0, HEAT, zones=zones)
        hidden = [[0.0 if n == 0 else None for n in row] for row in a.seen_from[s]]
        maps[("hidden", s)] = HeatMap(f"{game.name}: spots of {s} hidden from {other}'s zone", hidden, origin, a.step,
                                      0.0, 1.0, HIDDEN, zones=zones)
    for s in a.sides:
        maps[("reach", s)] = HeatMap(f"{game.name}: reach from {s}'s zone (shortest legal path)", a.reach[s], origin, a.step,
                                     0.0, far, DISTANCE, unit='"', percent=False, contours=a.charge_distances, zones=zones)
    return maps


def _signed(v: Any, digits: int = 4) -> str:
    return "-" if v is None else f"{v:+.{digits}f}"


def _pct(v: Any) -> str:
    return "-" if v is None else A.percent(v)


