"""``tapeline render FILE -o OUT.svg``: an SVG picture of the board the file describes.

Terrain is shaded by Size class (``--fill size``, the default) or by the height of its top
surface (``--fill height``); bases are drawn true to size and facing, coloured by side, with
model ids; Leading Models carry a gold ring and star. ``--final`` draws the state after
replaying the file's actions. Overlays (sight lines, paths, templates) add their own flags:
see :mod:`scenarios.overlays`. ``-o -`` writes the SVG to standard output.
"""

from __future__ import annotations

import os
import sys

from ..cliutil import ArgumentError, add_file, check_output, load, write_output


def register(sub) -> None:
    p = sub.add_parser("render", help="draw the board as an SVG picture")
    add_file(p, json_flag=False)
    p.add_argument("-o", "--output", required=True, metavar="OUT.svg", help="file to write ('-' for stdout)")
    p.add_argument("--fill", choices=("size", "height"), default="size",
                   help="shade terrain by Size class (default) or by height of its top surface")
    p.add_argument("--title", default=None, help="picture title (default: the scenario's name)")
    p.add_argument("--final", action="store_true", help="draw the state after replaying all the file's actions (the same as --after -1)")
    p.later(_overlay_arguments)  # the overlays' flags: loaded only when render is asked for
    p.set_defaults(func=run)


def _overlay_arguments(p) -> None:
    from .. import overlays

    overlays.add_arguments(p)


def run(args) -> int:
    from .. import overlays

    check_output(args, args.output, "-o")
    if args.final:
        if args.after is not None and args.after != -1:
            raise ArgumentError(args.file, "--final", "--final is --after -1; give one or the other")
        args.after = -1
    loaded = load(args)
    title = args.title if args.title is not None else (loaded.spec.name or os.path.basename(args.file))
    svg = overlays.render_state(loaded.state, overlays.layers(args, loaded), title=title, fill_by=args.fill)
    if args.output == "-":
        sys.stdout.write(svg)
        return 0
    write_output(args, args.output, "-o", svg)
    print(f"wrote {args.output}")
    return 0
