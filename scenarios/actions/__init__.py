"""Auto-discovered modules: one per actions word (see scenarios.vocab / scenarios.cli)."""
