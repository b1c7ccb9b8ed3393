"""``tapeline shell FILE [--json]``: a session answers each line as the one-shot command would,
makes and takes back moves, refuses a bad line naming it and goes on (the contract of the
file format's specification, "Sessions")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import EXAMPLES, cli, cli_json

SHOW = EXAMPLES / "showcase.yaml"
ROACHES = EXAMPLES / "charge-roaches-7in.yaml"


def test_each_question_gets_the_one_shot_answer():
    lines = ["measure c2 zb1", "los a6 za5", "charge --unit roaches --target marines-bravo",
             "template --shape blast --at 12,12", "models --after 2", "fight --unit zerglings-a"]
    code, out, err = cli("shell", SHOW, stdin="\n".join(lines) + "\n")
    assert (code, err) == (0, "")
    expected = []
    for line in lines:
        c, o, e = cli(line.split()[0], SHOW, *line.split()[1:])
        assert c == 0, e
        expected.append(o)
    assert out == "".join(expected)


def test_with_json_each_answer_is_one_line_holding_the_commands_object():
    lines = ["measure c2 zb1", "los c2 zb1", "attack --unit marines-alpha --weapon c-14-rifle --target zerglings-a"]
    code, out, err = cli("shell", SHOW, "--json", stdin="\n".join(lines))
    assert (code, err) == (0, "")
    got = out.splitlines()
    assert len(got) == 3
    for line, answer in zip(lines, got):
        words = line.split()
        assert json.loads(answer) == cli_json(words[0], SHOW, *words[1:])[1]


def test_push_and_pop_try_a_what_if_move():
    lines = ["measure r1 m1",
             "push {action: charge, unit: roaches, targets: [marines], leader: r1}",
             "measure r1 m1",
             "pop",
             "measure r1 m1"]
    code, out, err = cli("shell", ROACHES, "--json", stdin="\n".join(lines))
    assert (code, err) == (0, "")
    before, pushed, after, popped, again = (json.loads(x) for x in out.splitlines())
    # the file's recorded roll is a 6: Speed 4 + 6 = 10" >= the 8" to base contact with m1
    assert before["contact"] is False and after["contact"] is True and again == before
    assert [e["type"] for e in pushed["events"]] == ["action", "roll", "charge"]
    assert pushed["events"][1]["values"] == [6] and pushed["events"][2]["success"] is True
    assert popped["popped"]["action"] == "charge"


def test_a_bad_line_is_refused_by_its_number_and_the_session_goes_on():
    lines = ["# a comment", "", "measure c2 zb0", "nonsense here", "push {action: charge, unit: marines-alpha, targets: [zerglings-a]}",
             "pop", "measure c2 zb1", "los c2", "quit", "measure c2 zb1"]
    code, out, err = cli("shell", SHOW, stdin="\n".join(lines))
    assert code == 2
    refusals = err.splitlines()
    assert refusals[0] == "line 3: argument B: no model 'zb0'; closest: zb10, zb9, zb8"
    assert refusals[1].startswith("line 4: unknown command 'nonsense'")
    assert refusals[2].startswith("line 5: ") and "§8.7.7" in refusals[2]   # Engaged: may not Charge
    assert refusals[3] == "line 6: pop: no move to take back"
    assert refusals[4].startswith("line 8: arguments: ")
    assert len(refusals) == 5
    assert out.count("gap c2 to zb1") == 1                                  # after quit: nothing


def test_refusals_in_json_are_objects_on_standard_output():
    code, out, err = cli("shell", SHOW, "--json", stdin="measure c2 zb0\npush {action: charge, unit: [\nmeasure c2 zb1\n")
    assert code == 2 and err == ""
    first, second, third = (json.loads(x) for x in out.splitlines())
    assert first == {"error": {"line": 1, "message": "argument B: no model 'zb0'; closest: zb10, zb9, zb8"}}
    assert second["error"]["line"] == 2 and "YAML" in second["error"]["message"]
    assert third["gap"] > 0


def test_a_malformed_move_is_located_inside_the_action():
    code, out, err = cli("shell", SHOW, stdin="push {action: charge, unit: roaches, targets: marines-bravo}\n"
                                              "push {action: charg}\n")
    assert code == 2
    one, two = err.splitlines()
    assert one.startswith("line 1: action.targets: ")
    assert two.startswith("line 2: action: unknown action 'charg'")


def test_the_tapeline_process_answers_a_session():
    script = Path(sys.executable).parent / "tapeline"
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "tapeline.scenarios"]
    r = subprocess.run(argv + ["shell", str(SHOW), "--json"], input="measure c2 zb1\nlos c2 zb1\n",
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert [json.loads(x)["a"] for x in r.stdout.splitlines()] == ["c2", "c2"]
