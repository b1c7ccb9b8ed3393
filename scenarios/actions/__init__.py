"""The ``actions:`` vocabulary: one module per topic, each class one word (see scenarios.vocab)."""
