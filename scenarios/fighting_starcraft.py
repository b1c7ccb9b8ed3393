"""The ``fight`` command's answer for StarCraft TMG (§8.8) (see :mod:`tapeline.scenarios.commands.fight`)."""

from __future__ import annotations

from tapeline.rules.errors import IllegalAction


def answer(loaded, args) -> tuple[dict, str]:
    raise IllegalAction("fight", f"the fight query is not available yet for system {loaded.state.system}")
