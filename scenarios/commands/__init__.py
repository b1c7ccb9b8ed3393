"""Auto-discovered modules: one per commands word (see scenarios.vocab / scenarios.cli)."""
