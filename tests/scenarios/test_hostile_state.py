"""An illegal action leaves the state exactly as it was (rules/state.py: the state is a value).

Every action of every bundled example is tried again at the wrong moments — on the state
before any action and after each, with its own dice and with no dice left — and, whenever the
rules refuse it, the state it was given must be unchanged to the last field (its full ``repr``,
mapping contents included: a rule that appended to a list inside ``turn`` or a unit's stats
before refusing would show here), and the same action on the same state must still give the
same answer (nothing cached on the way).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tapeline.board.errors import TapelineError
from tapeline.rules.dice import RecordedDice, SeededDice
from tapeline.rules.errors import IllegalAction
from tapeline.scenarios import replay
from tapeline.scenarios.load import read
from tapeline.scenarios.vocab import ReplayContext

EXAMPLES = Path(__file__).resolve().parents[2] / "scenarios" / "examples"
WITH_ACTIONS = sorted(p.name for p in EXAMPLES.glob("*.yaml") if "\nactions:" in p.read_text())


def _states(loaded):
    """The state before any action and after each (as far as the file's own dice go)."""
    out = [loaded.state]
    for step in replay.steps(loaded):
        out.append(step.state)
    return out


def _try(act, state, dice, settings):
    ctx = ReplayContext(dice=dice, settings=settings, index=0)
    try:
        return ("ok", act.apply(state, ctx)[0].snapshot())
    except IllegalAction as e:
        return ("illegal", e.message)
    except TapelineError as e:  # a geometry refusal: the same contract
        return ("error", str(e))


@pytest.mark.parametrize("name", WITH_ACTIONS)
def test_an_illegal_action_leaves_the_state_as_it_was(name):
    loaded = read(str(EXAMPLES / name))
    states = _states(loaded)
    actions = loaded.spec.actions
    settings = loaded.spec.settings
    refused = 0
    for i, state in enumerate(states):
        for j, act in enumerate(actions):
            if j == i:  # the file's own order: legal by construction
                continue
            for dice in (lambda: SeededDice(j), lambda: RecordedDice([])):
                before = repr(state), state.snapshot()
                first = _try(act, state, dice(), settings)
                assert (repr(state), state.snapshot()) == before, (name, i, j, first)
                if first[0] != "ok":
                    refused += 1
                    assert _try(act, state, dice(), settings) == first, (name, i, j)
    assert refused or len(actions) == 1, "no action was ever refused: the test tried nothing"
