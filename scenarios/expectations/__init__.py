"""Auto-discovered modules: one per expectations word (see scenarios.vocab / scenarios.cli)."""
