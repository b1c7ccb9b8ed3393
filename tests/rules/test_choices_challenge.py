"""Horus Heresy 3rd: the challenged player's answer to a challenge (§A.6 Declare: "the opponent
accepts with one eligible model, or refuses") is never left to a default. A ``challenge`` action
must give ``acceptor`` (which model accepts) or ``refuse: true``; one with neither is refused by
``check`` and the replay, located, so no reading and no strict error is needed for it. A stated
refusal in a strict replay asks only for the challenger's own choice (the Disgraced model)."""

from __future__ import annotations

from tests.conftest import cli
from tests.rules.test_choices_readings import B_CHAMPS, CHAMPS, HEAD, STRICT
from tests.rules.test_heresy_fight import X, line

UNITS = "units:\n" + line("a", "loyal", 10, (10, 11.3, 12.6), "chainsword", CHAMPS) \
    + line("b", "traitor", X, (10, 11.3), "chainsword", B_CHAMPS)


def doc(action: str) -> str:
    return HEAD + STRICT + UNITS + "actions:\n  - {action: challenge, challenger: a1, " + action + "}\n"


def test_a_challenge_that_neither_accepts_nor_refuses_is_refused(write):
    p = write(doc("disgrace: b2"))
    for cmd in ("check", "replay"):
        code, _, err = cli(cmd, p)
        assert code == 2 and len(err.strip().splitlines()) == 1
        assert "actions[0]" in err and "give an acceptor, or refuse: true" in err


def test_a_stated_refusal_is_no_reading(write):
    # refuse: true and the Disgraced model given: b2 (a Champion, eligible) is Disgraced;
    # nothing was left open, so the strict replay passes and lists no reading.
    code, out, err = cli("replay", write(doc("refuse: true, disgrace: b2")))
    assert code == 0, err
    assert "readings:" not in out and "b2" in out
    code, _, err = cli("replay", write(doc("refuse: true"), "open.yaml"))
    assert code == 2 and "legal: b1, b2" in err            # the Disgraced model is still a choice
