"""The pictures of docs/: each one a ``tapeline render`` of a bundled example.

``python docs/pictures.py`` (from the repository, with tapeline installed) writes them all
again; ``python docs/pictures.py --check`` exits 1 naming the pictures that differ from what
the renderer draws now (tests/test_docs_pictures.py runs it). Pictures are deterministic, so a
picture changes only when the renderer, an overlay or an example does.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tapeline.scenarios.cli import main

DOCS = Path(__file__).resolve().parent
EXAMPLES = DOCS.parent / "scenarios" / "examples"

#: picture → the example and the ``tapeline render`` arguments that draw it
PICTURES: dict[str, tuple[str, list[str]]] = {
    "showcase.svg": ("showcase.yaml", []),
    "levels.svg": ("charge-up-ramp.yaml", ["--charge", "roaches", "--target", "marines",
                                          "--title", "Roaches charge up the ramp onto the mesa"]),
    "combat-ranks.svg": ("fight-zerglings-two-units.yaml", ["--ranks", "zerglings",
                                                            "--title", "Zerglings against Marauders and Marines (§8.8.1)"]),
    "heresy-charge.svg": ("assault-heresy.yaml", ["--charge", "tac", "--target", "trt", "--title",
                                                  "Legionaries charge the traitors: 4.5 in to base contact, Set-up Move 3 in"]),
    "heresy-fight.svg": ("assault-heresy.yaml", ["--after", "4", "--title", "After the Aftermath: t3 fell back 7 in and was caught"]),
    "close-combat-40k-before.svg": ("assault-40k.yaml", ["--charge", "marines", "--target", "orks", "--title",
                                                         "40k assault: the Marines' shortest route, 5 inches"]),
    "close-combat-40k-after.svg": ("assault-40k.yaml", ["--after", "2", "--title", "after the fight and the fall back"]),
    "template-40k-blast.svg": ("template-40k-blast.yaml", ["--template", "blast", "--at", "12,12",
                                                           "--title", "A blast marker over a squad"]),
    "template-exclusions.svg": ("template-exclusions.yaml", ["--template", "siege-tank", "crucio-shock-cannon", "z1",
                                                             "--title", "Covered but not affected"]),
    "template-firebat.svg": ("template-firebat.yaml", ["--template", "firebat", "perdition-flamer", "z1",
                                                       "--title", "Firebat Flamer (§8.7.6)"]),
    "template-siege-tank.svg": ("template-siege-tank.yaml", ["--template", "siege-tank", "crucio-shock-cannon", "z1",
                                                             "--title", "Siege Tank Blast (§8.7.6)"]),
}


def draw(name: str, out: Path) -> None:
    example, args = PICTURES[name]
    code = main(["render", str(EXAMPLES / example), "-o", str(out)] + args)
    if code != 0:
        raise SystemExit(f"{name}: tapeline render exited {code}")


def run(argv: list[str]) -> int:
    import tempfile

    check = "--check" in argv
    stale = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in PICTURES:
            target = DOCS / name
            out = Path(tmp) / name if check else target
            draw(name, out)
            if check and (not target.exists() or target.read_bytes() != out.read_bytes()):
                stale.append(name)
    if stale:
        print("out of date (python docs/pictures.py draws them again): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
