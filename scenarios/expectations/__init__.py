"""The ``expect:`` words' models, a module per group of words (each registered in :mod:`scenarios.vocab`)."""
