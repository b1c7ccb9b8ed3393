"""Rules: dice, exact distributions, events, game state, and one package per system
(``rules.starcraft``, ``rules.heresy``, ``rules.classic40k``). Knows nothing of files or the
command line."""
