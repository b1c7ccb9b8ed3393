"""tapeline's rule-agnostic geometry: bases, terrain, the table, measuring, sight lines,
templates, movement space and pictures. Nothing here knows a game's rules or dice.

Each module is one topic (``measure``, ``sight``, ``templates``, ``space``, ``paths``,
``render`` ...); import what you use from it: ``from tapeline.board.measure import gap``.
"""

if __name__ != "tapeline.board":  # this folder imported as a top-level package ``board``
    raise ImportError(
        "board/ is tapeline's board layer: import it as tapeline.board (after `pip install -e .`); "
        "importing it as `board` would make a second copy of every class")
