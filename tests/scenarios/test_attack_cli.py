"""``tapeline attack`` and attack replays through the command line."""

import pytest

from tests.conftest import EXAMPLES, cli, cli_json

OPEN = """
tapeline: 1
system: starcraft
name: 9 Marines, 18 Zerglings in the open
board: {width: 30, height: 30}
units:
  - id: marines
    side: terran
    profile: marine
    models:
%s
  - id: zerglings
    side: zerg
    profile: zergling
    models:
%s
dice: {seed: 42}
actions:
  - action: shoot
    unit: marines
    batches: [{weapon: c-14-rifle, target: zerglings}]
"""


def open_board(write):
    marines = "\n".join(f"      - {{id: m{i}, at: [4, {2 + 2 * i}]}}" for i in range(9))
    lings = "\n".join(f"      - {{id: z{i}, at: [{12 + 2 * (i % 2)}, {2 + 1.5 * (i // 2)}]}}" for i in range(18))
    return write(OPEN % (marines, lings))


def test_rules_guide_numbers_on_the_board(write):
    p = open_board(write)
    code, o = cli_json("attack", p, "--unit", "marines", "--weapon", "C-14 Rifle", "--target", "zerglings")
    assert code == 0
    assert len(o["firing_models"]) == 9 and len(o["visible_targets"]) == 18 and o["dice"] == 18
    assert o["mean_hits"] == pytest.approx(12.0, abs=1e-12)
    assert round(o["mean_damage"], 4) == 10.3333
    assert round(o["kills_at_least"][7], 4) == 0.9699 and round(o["kills_at_least"][10], 4) == 0.6596
    for k in ("hits_pmf", "damage_pmf", "kills_pmf"):
        assert sum(o[k]) == pytest.approx(1.0)
    assert o["kills_at_least"][0] == pytest.approx(1.0)
    assert sum(k * p for k, p in enumerate(o["kills_pmf"])) == pytest.approx(o["mean_kills"])
    code, out, _ = cli("attack", p, "--unit", "marines", "--weapon", "c-14-rifle", "--target", "zerglings")
    assert code == 0 and "10: 65.96%" in out and "7: 96.99%" in out


def test_two_batches_and_visible_cap():
    f = EXAMPLES / "attack-direct-cover.yaml"
    code, o = cli_json("attack", f, "--unit", "marines", "--weapon", "c-14-rifle", "--target", "zerglings")
    assert code == 0 and o["visible_targets"] == ["z1", "z2", "z3", "z4", "z5", "z6"]
    assert len(o["kills_pmf"]) == 7  # never more than the 6 Visible Zerglings
    code, o2 = cli_json("attack", f, "--unit", "marines", "--weapon", "c-14-rifle", "--weapon", "c-14-rifle",
                        "--target", "zerglings")
    assert code == 0 and o2["dice"] == 36 and o2["mean_hits"] == pytest.approx(24.0)
    assert o2["kills_at_least"][6] > o["kills_at_least"][6]


@pytest.mark.parametrize("args, needle", [
    (["--unit", "nobody", "--weapon", "c-14-rifle", "--target", "zerglings"], "no unit"),
    (["--unit", "marines", "--weapon", "gauss", "--target", "zerglings"], "no weapon"),
    (["--unit", "marines", "--weapon", "strike", "--target", "zerglings"], "Combat-phase"),
    (["--unit", "marines", "--weapon", "c-14-rifle", "--target", "marines"], "not an enemy"),
    (["--unit", "marines", "--weapon", "c-14-rifle", "--target", "zerglings", "--also", "x"], "UNIT:WEAPON"),
])
def test_bad_input_exit_2(args, needle):
    code, out, err = cli("attack", EXAMPLES / "attack-direct-cover.yaml", *args)
    assert code == 2 and needle in err and "Traceback" not in err


def test_replay_same_seed_same_log(write):
    p = open_board(write)
    c1, a = cli_json("replay", p)
    c2, b = cli_json("replay", p)
    assert c1 == c2 == 0 and a["events"] == b["events"]
    rolls = [e for e in a["events"] if e["type"] == "roll"]
    assert [e["purpose"] for e in rolls][:2] == ["to hit", "surge die (D3)"]
    cas = [e for e in a["events"] if e["type"] == "casualties"][0]
    assert cas["damage"] == len(cas["models"])  # 1-HP Zerglings, all 18 Visible


def test_illegal_shoot_exit_2(write, tmp_path):
    text = (EXAMPLES / "attack-direct-cover.yaml").read_text().replace("target: zerglings}", "target: zerglings, casualties: [z9]}")
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    code, out, err = cli("replay", p)
    assert code == 2 and "actions[0]" in err and "§8.7.4" in err


def test_also_adds_another_units_batch(write):
    p = open_board(write)
    text = p.read_text().replace("dice: {seed: 42}", """  - id: more-marines
    side: terran
    profile: marine
    models:
      - {id: n1, at: [2, 3]}
      - {id: n2, at: [2, 5]}
dice: {seed: 42}""")
    p.write_text(text)
    code, o = cli_json("attack", p, "--unit", "marines", "--weapon", "c-14-rifle", "--target", "zerglings",
                       "--also", "more-marines:c-14-rifle")
    assert code == 0 and o["dice"] == 22 and len(o["batches"]) == 2
    assert o["mean_hits"] == pytest.approx(22 * 2 / 3)
    assert o["firing_models"][-2:] == ["n1", "n2"]
