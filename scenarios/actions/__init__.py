"""The ``actions:`` words' models, a module per group of words (each registered in :mod:`scenarios.vocab`)."""


def require_system(state, systems, what: str) -> None:
    """An action available only for some systems: an illegal action naming it otherwise."""
    from tapeline.rules.errors import IllegalAction

    if state.system not in systems:
        raise IllegalAction(what, f"the {what} action is not available for system {state.system}")
