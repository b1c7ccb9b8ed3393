"""The round's activations (§8.2.1, §8.6, §8.8) replayed from files: the whole-round example,
and every way to act out of turn, twice or with the wrong action (exit 2 naming the rule)."""

from __future__ import annotations

import pytest

from tapeline.rules.errors import IllegalAction
from tapeline.scenarios.load import read
from tapeline.scenarios.replay import run, state_after
from tests.conftest import EXAMPLES, cli, cli_json

ROUND = EXAMPLES / "round-zealots-charge.yaml"


def test_whole_round_example_holds():
    r = run(read(ROUND))
    assert r.ok, [c for c in r.expectations if not c["ok"]]
    assert r.final.round.phase == "over" and r.final.unit("marines").models == ()


def _variant(tmp_path, old: str, new: str, name="v.yaml"):
    """The example with one change to its actions, and without its expectations (they name
    actions by index: a shifted list would make the loader refuse them before the replay)."""
    text = ROUND.read_text()
    assert old in text
    text = text.replace(old, new, 1)
    p = tmp_path / name
    p.write_text(text[: text.index("\nexpect:") + 1] if "\nexpect:" in text else text)
    return p


def _illegal(path) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        run(read(path))
    return e.value


@pytest.mark.parametrize("old,new,index,rule,words", [
    # the Marines act on Protoss' turn
    ("  - {action: charge, unit: zealots, targets: [marines]}\n",
     "  - {action: hold, unit: marines}\n  - {action: charge, unit: zealots, targets: [marines]}\n", 1, "§8.6 Activations", "turn"),
    # IMPACT skipped: the next action must be the Zealots' IMPACT
    ("  - {action: impact, unit: zealots}\n", "", 2, "§11 IMPACT", "resolve it first"),
    # the Zealots activate twice in Phase 2
    ("  - {action: hold, unit: marauders}\n", "  - {action: hold, unit: zealots}\n", 5, "§8.2.1 Pass", "passed"),
    # a close combat in Phase 2
    ("  - {action: hold, unit: marines}\n", "  - {action: close_combat, unit: marines}\n", 3, "§8.6 Activations", "Phase 2"),
    # Terran passes in Phase 3 while the Marines are Engaged and have not fought
    ("  - {action: close_combat, unit: zealots}\n  - {action: pass, side: terran}\n",
     "  - {action: pass, side: terran}\n", 8, "§8.2.1 Pass", "turn"),
    # a Hold in Phase 3 by a unit that is not BURROWED
    ("  - {action: close_combat, unit: zealots}\n", "  - {action: hold, unit: zealots}\n", 8, "§8.8 Combat phase", "cannot Hold"),
    # the Combat phase before both have passed
    ("  - {action: pass, side: terran}\n  - {action: phase, phase: combat}\n", "  - {action: phase, phase: combat}\n", 6,
     "§8.8 Combat phase", "both players"),
])
def test_out_of_turn_twice_or_wrong_action(tmp_path, old, new, index, rule, words):
    e = _illegal(_variant(tmp_path, old, new))
    assert e.index == index and e.rule == rule and words in e.message


def test_pass_with_engaged_units_left(tmp_path):
    # Protoss starts Phase 3 and passes at once although the Zealots are Engaged
    p = _variant(tmp_path, "  - {action: close_combat, unit: zealots}\n", "  - {action: pass, side: protoss}\n")
    e = _illegal(p)
    assert e.index == 8 and e.rule == "§8.8 Combat phase" and "still has Engaged units" in e.message


def test_reserves_cannot_act(tmp_path):
    p = _variant(tmp_path, "{action: phase, phase: assault, first_player: protoss}",
                 "{action: phase, phase: assault, first_player: protoss, reserves: [marauders]}")
    e = _illegal(p)
    assert e.index == 5 and "Reserves" in e.message


def test_bad_round_exits_2_and_the_state_is_unchanged(tmp_path):
    p = _variant(tmp_path, "  - {action: impact, unit: zealots}\n", "")
    code, out, err = cli("replay", p)
    assert code == 2 and "actions[2]" in err and "§11 IMPACT" in err and "Traceback" not in err
    # the state after the last legal action is what --after answers from
    st = state_after(read(p), 1)
    assert st.round.pending_impact == "zealots" and len(st.unit("marines").models) == 3


def test_impact_odds_through_fight(tmp_path):
    # After the charge: 2 Zealots × IMPACT (3) 4+ at Marines (Armour 5+, HP 2): a die deals
    # damage with p = 1/2 × 2/3 = 1/3; one kill needs 2 damage: 1 − (2/3)^6 − 6·(1/3)·(2/3)^5.
    code, o = cli_json("fight", ROUND, "--unit", "zealots", "--charged", "zealots", "--after", "1")
    assert code == 0
    im = o["impact"]
    assert (im["x"], im["y"], im["dice"]) == (3, 4, {"marines": 6})
    assert im["odds"]["marines"]["kills_at_least"][1] == pytest.approx(1 - 64 / 729 - 192 / 729, abs=1e-12)
    assert im["odds"]["marines"]["mean_hits"] == pytest.approx(3.0, abs=1e-12)


BURROWED = """
tapeline: 1
system: starcraft
board: {width: 24, height: 24}
units:
  - id: roaches
    side: zerg
    profile: roach
    status: [burrowed]
    models:
      - {id: r1, at: [10, 11.7]}
      - {id: r2, at: [12.5, 12.5]}
  - id: marines
    side: terran
    profile: marine
    models:
      - {id: m1, at: [10, 10]}
actions:
  - {action: phase, phase: assault, first_player: zerg}
  - {action: pass, side: zerg}
  - {action: pass, side: terran}
  - {action: phase, phase: combat}
%s
"""


def test_engaged_burrowed_unit_must_activate_and_attacks_only_after_close_ranks(write):
    # r1 is 11.7 − 10 − 0.984252 − 0.629921 = 0.085827" from the Marine: the Roaches are Engaged
    ok = write(BURROWED % "  - {action: close_ranks, unit: roaches}\n  - {action: close_combat, unit: roaches}")
    r = run(read(ok))
    assert "burrowed" not in r.final.unit("roaches").status
    assert any(e["type"] == "close_combat" for e in r.events)
    held = write(BURROWED % "  - {action: hold, unit: roaches}\n  - {action: close_combat, unit: marines}", "h.yaml")
    r = run(read(held))
    assert "burrowed" in r.final.unit("roaches").status              # enemies attack it normally
    e = _illegal(write(BURROWED % "  - {action: close_combat, unit: roaches}", "c.yaml"))
    assert e.index == 4 and e.rule == "§8.8.1 Engaged BURROWED units"
    e = _illegal(write(BURROWED % "  - {action: pass, side: zerg}", "p.yaml"))
    assert e.index == 4 and "still has Engaged units" in e.message
