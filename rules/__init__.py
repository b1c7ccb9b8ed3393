"""Rules: dice, exact distributions, events, game state, and one package per system
(``rules.starcraft``, ``rules.heresy``, ``rules.classic40k``). Knows nothing of files or the
command line."""

if __name__ != "tapeline.rules":  # this folder imported as a top-level package ``rules``
    raise ImportError(
        "rules/ is tapeline's rules layer: import it as tapeline.rules (after `pip install -e .`); "
        "importing it as `rules` would make a second copy of every class")
