"""Auto-discovered modules: one per actions word (see scenarios.vocab / scenarios.cli)."""


def require_system(state, systems, what: str) -> None:
    """An action available only for some systems: an illegal action naming it otherwise."""
    from tapeline.rules.errors import IllegalAction

    if state.system not in systems:
        raise IllegalAction(what, f"the {what} action is not available for system {state.system}")
