"""StarCraft: the charge's Leading Model and nominated target models (§8.7.7 "Pick the Leading
Model and one target model per target Unit"). Any model of the unit may lead and any model of
a target it can engage may be nominated: left to the default (the shortest route; the model
nearest the Leading Model's end), each is a reading, and strict mode an error listing them.
Worked out by hand on the bundled round (its header: z1 at (5, 10), z2 at (5, 11.8); m1 at
(12, 10), m2 (12, 11.4), m3 (12, 12.8))."""

from __future__ import annotations

import pytest

import tapeline
from tapeline.scenarios.errors import ArgumentError
from tests.conftest import EXAMPLES, cli

ROUND = str(EXAMPLES / "round-zealots-charge.yaml")


def test_the_leading_model_is_a_reading_and_strict_lists_the_models():
    g = tapeline.open(ROUND).after(0)
    # z1 → m1: 7 − 0.787 − 0.630 = 5.583"; z2 → m2: √(7² + 0.4²) − 1.417 = 5.594": z1 leads
    assert g.charge("zealots", ["marines"]).readings == {"leader": "z1"}
    assert g.charge("zealots", ["marines"], leader="z2").readings is None
    with pytest.raises(ArgumentError) as e:
        g.strict_game().charge("zealots", ["marines"])
    assert e.value.location == "leader" and e.value.message.startswith("zealots's Leading Model")
    assert "legal: z1, z2" in e.value.message
    code, _, err = cli("charge", ROUND, "--after", "0", "--unit", "zealots", "--target", "marines", "--strict")
    assert code == 2 and err.count("\n") == 1 and ": --leader: " in err


def test_a_unit_of_one_model_has_no_leader_to_choose():
    g = tapeline.open(ROUND).after(0)
    assert "leader" not in dict(g.charge("marauders", ["zealots"]).readings or {})


def test_the_nominated_target_model_is_a_reading_and_strict_lists_the_models():
    # z2 leads (stated) and ends touching m2's side of the Marines, nearest m2; all three
    # Marines stand on Ground Level and may be nominated
    g = tapeline.open(ROUND).after(0)
    assert dict(g.charge("zealots", ["marines"], leader="z2", roll=6).readings)["target_model.marines"] == "m2"
    with pytest.raises(ArgumentError) as e:
        g.strict_game().charge("zealots", ["marines"], leader="z2", roll=6)
    assert e.value.location == "target_models" and "legal: m1, m2, m3" in e.value.message
    code, _, err = cli("charge", ROUND, "--after", "0", "--unit", "zealots", "--target", "marines", "--leader", "z2",
                       "--roll", "6", "--strict")
    assert code == 2 and err.count("\n") == 1 and ": --target-model: " in err


# --- Run (§8.7.1, "the rest In Coherency"): where the rest of the unit ends -----------------------

RUN = str(EXAMPLES / "charge-run-grass.yaml")


def test_the_rest_of_a_running_unit_is_a_reading_and_strict_wants_set(tmp_path):
    # m1 leads along the file's path; m2 and m3 are set by the default placement around it
    r = tapeline.open(RUN).replay()
    run = next(e for e in r.events if e["type"] == "action" and e["action"] == "run")
    assert run["readings"] == {"run": "default:m2+m3"}
    code, _, err = cli("replay", RUN, "--strict")
    assert code == 2 and err.count("\n") == 1
    assert ": actions[0]: the spots of the rest of marines (set) must be chosen" in err
    # the default's own spots, given as set: m2 and m3 end where they did, and nothing is left open there
    placed = tapeline.open(RUN).after(0).state
    spots = {m: placed.figure(m).at for m in ("m2", "m3")}
    text = open(RUN).read().replace("path: [[5, 13], [6, 13]]}",
                                    "path: [[5, 13], [6, 13]], set: {%s}}" % ", ".join(f"{m}: [{x!r}, {y!r}]" for m, (x, y) in spots.items()))
    p = tmp_path / "set.yaml"
    p.write_text(text)
    r2 = tapeline.open(p).replay()
    assert "readings" not in next(e for e in r2.events if e["type"] == "action" and e["action"] == "run")
    assert {m: tapeline.open(p).after(0).state.figure(m).at for m in spots} == spots
