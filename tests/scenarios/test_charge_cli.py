"""The ``charge`` and ``path`` commands: JSON keys, numbers, exit statuses."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES, cli, cli_json

ROACHES = EXAMPLES / "charge-roaches-7in.yaml"
WALL = EXAMPLES / "charge-around-wall.yaml"


def test_charge_json_has_the_spec_keys_and_the_rules_guide_numbers():
    code, o = cli_json("charge", ROACHES, "roaches", "--target", "marines", "--leader", "r1")
    assert code == 0
    for k in ("distance", "min_roll", "probability", "path", "end"):
        assert k in o
    assert o["distance"] == pytest.approx(7.0, abs=1e-6)
    assert (o["min_roll"], o["probability_fraction"]) == (3, "2/3")
    assert o["reach"] == {"min": 5, "max": 10, "mean": 7.5}
    assert "success" not in o
    code, o = cli_json("charge", ROACHES, "roaches", "--target", "marines", "--leader", "r1", "--modifier", "-2")
    assert (o["min_roll"], o["probability_fraction"]) == (5, "1/3")


def test_charge_with_roll_reports_success_and_end():
    code, o = cli_json("charge", ROACHES, "roaches", "--target", "marines", "--leader", "r1", "--roll", "6")
    assert code == 0 and o["success"] is True and o["roll"]["contact"] is True
    assert o["end"] == pytest.approx([13.0, 10.0], abs=1e-5)
    code, o = cli_json("charge", ROACHES, "roaches", "--target", "marines", "--leader", "r1", "--roll", "2")
    assert o["success"] is False


def test_charge_human_output_states_the_roll_needed():
    code, out, err = cli("charge", ROACHES, "roaches", "--target", "marines")
    assert code == 0 and "needs a 3+" in out and "2/3" in out


@pytest.mark.parametrize("args", [
    ("--unit", "roaches", "--target", "nobody"),
    ("--unit", "nobody", "--target", "marines"),
    ("--unit", "roaches", "--target", "marines", "--leader", "m1"),
    ("--unit", "roaches", "--target", "marines", "--roll", "9"),
    ("--unit", "roaches", "--target", "roaches"),
])
def test_charge_bad_input_exits_2_without_traceback(args):
    code, out, err = cli("charge", ROACHES, *args)
    assert code == 2 and "Traceback" not in err and err.startswith(f"{ROACHES}: ") and err.count("\n") == 1


def test_path_command_legal_and_first_violation():
    code, o = cli_json("path", WALL, "z1", "--via", "11.5,7.4", "--via", "14,7.4", "--max", "8")
    assert code == 0 and o["legal"] is True and o["violation"] is None
    assert o["length"] == pytest.approx(((3.5**2 + 2.6**2) ** 0.5) + 2.5, abs=1e-9)
    code, o = cli_json("path", WALL, "z1", "--via", "14,10")
    assert o["legal"] is False and o["violation"]["kind"] == "crosses_terrain"
    assert o["violation"]["at"] == pytest.approx([12, 10]) and o["violation"]["obstacle"] == "ruin"
    # The 0.9" gap between the ruin and the crates is narrower than the 1" Gap Clearance.
    code, o = cli_json("path", WALL, "z1", "--via", "8,13.45", "--via", "16,13.45")
    assert o["violation"]["kind"] == "gap" and o["violation"]["obstacle"] in ("ruin", "crates")
    code, o = cli_json("path", WALL, "z1", "--via", "11.5,7.4", "--via", "14,7.4", "--max", "5")
    assert o["violation"]["kind"] == "too_long"
    code, o = cli_json("path", WALL, "z1", "--via", "9,3.5")
    assert o["legal"] and o["grass_crossed"] == ["grass"]
    code, o = cli_json("path", WALL, "z1", "--via", "11.5,7.4", "--via", "14.5,7.4", "--via", "15.3,8.2")
    assert o["violation"]["kind"] == "end_near_enemy" and o["violation"]["obstacle"] == "m1"


@pytest.mark.parametrize("via", ["1,2,3", "a,b", "nan,1"])
def test_path_bad_via_exits_2(via):
    code, out, err = cli("path", WALL, "z1", "--via", via)
    assert code == 2 and "Traceback" not in err


def test_path_and_charge_agree():
    """The path ``charge`` returns passes ``path`` with the same allowance."""
    code, o = cli_json("charge", WALL, "zerglings", "--target", "marines")
    vias = [a for p in o["path"][1:] for a in ("--via", f"{p[0]!r},{p[1]!r}")]
    code, c = cli_json("path", WALL, o["leader"], *vias, "--may-engage", "--max", str(o["distance"] + 1e-3))
    assert c["legal"], c["violation"]
    assert c["length"] == pytest.approx(o["distance"], abs=1e-3)


RUN = """
tapeline: 1
system: starcraft
board: {width: 36, height: 24}
terrain:
  - {id: wall, footprint: {rect: [9, 0, 2, 12]}, size: 2}
  - {id: grass, footprint: {rect: [4, 11.5, 2, 2]}, size: 2, traits: [grass]}
units:
  - id: marines
    side: terran
    profile: marine
    models:
      - {id: m1, at: [5, 10]}
      - {id: m2, at: [5, 8.5]}
  - id: zerg
    side: zerg
    profile: zergling
    models:
      - {id: z1, at: [20, 20]}
actions:
  - {action: run, unit: marines, leader: m1, path: PATH}
"""


def test_run_action_checks_the_path_and_removes_grass(write):
    code, o = cli_json("replay", write(RUN.replace("PATH", "[[5, 13], [6, 13]]")))
    assert code == 0
    assert {"type": "grass_removed", "pieces": ["grass"]} in o["events"]
    code, out, err = cli("replay", write(RUN.replace("PATH", "[[5, 13], [7.5, 13]]")))
    assert code == 2 and "too_long" in err and "actions[0]" in err and "Traceback" not in err
    # Into the wall's clearance within the allowance: the first violation is the gap.
    code, out, err = cli("replay", write(RUN.replace("PATH", "[[8.7, 10]]")))
    assert code == 2 and "gap" in err and "wall" in err


# --- what a judge reads: the gate that decides eligibility, and what a failed roll does -------

HH_FAILED = EXAMPLES / "charge-heresy-failed.yaml"    # a1 and t1 7" apart (the file's comment)
C40K = EXAMPLES / "charge-40k-difficult.yaml"          # o1 at 10.484252: 10.484252 - 5 - 2 × 12.5/25.4 = 4.5" from a1


def test_charge_states_its_gate_with_the_margin_in_words():
    code, out, _ = cli("charge", HH_FAILED, "--unit", "loyal", "--target", "traitors")
    assert code == 0 and 'may charge: in sight and within 12" by 5" (HH3 §A.3 step 2)' in out.splitlines()
    code, out, _ = cli("charge", C40K, "--unit", "marines", "--target", "orks")
    assert code == 0 and 'may charge: within 6" by 1.5" (40k 3rd Moving Into An Assault)' in out.splitlines()
    code, o = cli_json("charge", C40K, "--unit", "marines", "--target", "orks")
    assert o["details"]["gate"]["margin"] == pytest.approx(1.5, abs=1e-6) and o["details"]["gate"]["limit"] == 6


def test_a_failed_roll_says_what_happens_in_each_system():
    # Horus Heresy: the Set-up Move (3" for M7) is made and stays made; the roll 2 is short of
    # the 4" left; a Cool Check follows
    # (a1 leads: 7" from t1 where a2 is √(8.259843² + 0.1²) − 1.259843 = 7.0006" from t2)
    code, out, _ = cli("charge", HH_FAILED, "--unit", "loyal", "--target", "traitors", "--roll", "2")
    *_, last, readings = out.splitlines()
    assert code == 0 and last.startswith("rolled 2: the charge fails: ") and readings == "readings: leader=a1"
    assert "Cool Check" in last and 'Set-up Move made: a1 3" to (8, 10)' in last and "(no move)" not in last
    # 40k 3rd: the models move the 2" rolled through the difficult ground and fall short
    code, out, _ = cli("charge", C40K, "--unit", "marines", "--target", "orks", "--roll", "2")
    last = out.splitlines()[-1]
    assert code == 0 and "falls short" in last and "moved: a1 to (7, 10)" in last and "(no move)" not in last
