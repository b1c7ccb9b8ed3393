"""``tapeline fight`` for 40k 3rd: the contract's JSON keys, the human text, bad input."""

from __future__ import annotations

from tests.c40k import BOY, D25, MARINE
from tests.conftest import EXAMPLES, cli, cli_json


FILE = f"""
tapeline: 1
system: classic40k
board: {{width: 24, height: 24}}
units:
  - id: marines
    side: imperium
    base: 25
    stats: {{{MARINE},
            wargear: [bolt-pistol, close-combat-weapon]}}
    models: [{{id: m1, at: [10, 10]}}, {{id: m2, at: [11, 10]}}]
  - id: orks
    side: orks
    base: 25
    stats: {{{BOY},
            wargear: [close-combat-weapon], models: {{nob: {{strength: 4, wargear: [power-fist]}}}}}}
    models: [{{id: o1, at: [10, {10 + D25}]}}, {{id: nob, at: [11, {10 + D25 + 1.5}]}}]
"""


def test_fight_json_keys(write):
    f = write(FILE)
    code, out = cli_json("fight", f, "--unit", "marines", "--charged", "marines", "--weapon", "m2=bolt-pistol")
    assert code == 0
    for k in ("fighters", "steps", "expected_casualties", "casualties_pmf", "result"):
        assert k in out
    assert out["fighters"] == {"marines": ["m1", "m2"], "orks": ["o1", "nob"]}
    for s in out["steps"]:
        assert {"initiative", "unit", "models", "attacks", "hit_on", "wound_on", "save_on"} <= set(s)
    assert [s["unit"] for s in out["steps"]] == ["marines", "marines", "orks", "orks"]
    assert sum(out["casualties_pmf"]["orks"]) == __import__("pytest").approx(1.0)
    assert set(out["result"]) == {"marines", "orks", "draw"}
    assert sum(out["sides"].values()) + out["result"]["draw"] == __import__("pytest").approx(1.0)
    code, text, err = cli("fight", f, "--unit", "orks")
    assert code == 0 and "last:" in text and "result:" in text


def test_fight_bad_input(write):
    f = write(FILE)
    for args in (["--unit", "nobody"], ["--unit", "marines", "--weapon", "m1=power-fist"], ["--unit", "marines", "--assign", "m1"],
                 ["--unit", "marines", "--surge-to", "orks"]):
        code, out, err = cli("fight", f, *args)
        assert code == 2 and "Traceback" not in err and err.strip().count("\n") == 0, (args, err)


def test_charge_with_a_roll_answers_in_words():
    # the 40k difficult-terrain example: a 5 (the highest of 2D6) covers a1's 4.5" route, and
    # a2's (5.484² + 1.2²)^½ − 0.984 = 4.63" too: both fit on the Boy's contact ring
    code, text, err = cli("charge", EXAMPLES / "charge-40k-difficult.yaml", "--unit", "marines", "--target", "orks", "--roll", "5")
    assert code == 0 and "the charge succeeds" in text and "Traceback" not in err
    contact = text.split("in base contact: ")[1].split()
    assert sorted(m.strip(",") for m in contact) == ["a1", "a2"]
    code, text, err = cli("charge", EXAMPLES / "charge-40k-difficult.yaml", "--unit", "marines", "--target", "orks", "--roll", "4")
    assert code == 0 and "fails" in text
