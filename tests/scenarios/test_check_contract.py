"""``check`` is the contract (issue 21): a file ``tapeline check`` calls valid is never refused
by ``replay`` for a reference or a word. Each class of file that once passed ``check`` and failed
later (or was silently ignored) is refused by ``check`` with one located line, exit status 2.
The malformed-file corpus (tests/scenarios/malformed/) holds one file per class; the cases here
are the ones an inline file shows more plainly, or that the corpus cannot hold."""

from __future__ import annotations

import json

import pytest

from tests.conftest import cli
from tests.scenarios.test_hostile import refused

#: Two Horus Heresy units in base contact (the static checks need no more).
HERESY = """\
tapeline: 1
system: heresy
board: {width: 24, height: 24}
units:
  - {id: tac, side: loyalist, base: 32, stats: {weapon_skill: 4, strength: 4, toughness: 4, wounds: 1, initiative: 4,
     attacks: 1, leadership: 7, save: 3, models: {a1: {subtypes: [champion]}}}, models: [{id: a1, at: [5, 5]}, {id: a2, at: [5, 7]}]}
  - {id: trt, side: traitor, base: 32, stats: {weapon_skill: 4, strength: 4, toughness: 4, wounds: 1, initiative: 4,
     attacks: 1, leadership: 7, save: 3, models: {t1: {subtypes: [champion]}}}, models: [{id: t1, at: [6.26, 5]}, {id: t2, at: [6.26, 7]}]}
"""

#: A StarCraft Marine unit and a Zergling in reach of it.
STARCRAFT = """\
tapeline: 1
system: starcraft
board: {width: 24, height: 24}
units:
  - {id: t, side: terran, profile: marine, leader: m1, models: [{id: m1, at: [5, 5]}, {id: m2, at: [7, 5]}]}
  - {id: z, side: zerg, profile: zergling, models: [{id: z1, at: [5.9, 6]}]}
"""


def check_refuses(write, text: str, where: str, name: str = "s.yaml") -> str:
    """``check`` (and ``replay``) refuse the file with one line naming ``where``; that line."""
    path = write(text, name)
    line = refused(cli("check", path), path, where)
    assert refused(cli("replay", path), path, where) == line
    code, out, _ = cli("check", path, "--json")
    assert code == 2 and json.loads(out)["errors"][0]["location"].startswith(where)
    return line


# --- casualties of another unit, sides no unit has ----------------------------------------------


@pytest.mark.parametrize("action, where", [
    ("{action: fight, unit: tac, casualties: {trt: [t2, a1]}}", "actions[0].casualties.trt[1]"),
    ("{action: challenge, challenger: a1, acceptor: t1, active: orks}", "actions[0].active"),
    ("{action: resolution, unit: tac, bonus: {loyalist: 1, orks: 1}}", "actions[0].bonus.orks"),
])
def test_a_heresy_casualty_or_side_that_is_not_there_is_refused(write, action, where):
    line = check_refuses(write, HERESY + f"actions:\n  - {action}\n", where)
    assert "'orks'" in line or "is not in unit 'trt'" in line


def test_an_impact_casualty_of_another_unit_is_refused(write):
    line = check_refuses(write, STARCRAFT + "actions:\n  - {action: impact, unit: z, casualties: {t: [z1]}}\n",
                         "actions[0].casualties.t[0]")
    assert "model 'z1' is not in unit 't' (it is in 'z')" in line


def test_a_home_edge_of_a_side_no_unit_has_is_refused(write):
    line = check_refuses(write, HERESY + "settings: {home_edges: {traitor: right, Traitor: left}}\n",
                         "settings.home_edges.Traitor")
    assert "no side 'Traitor' (the file's sides: loyalist, traitor)" in line


# --- close combat weapons ----------------------------------------------------------------------


def test_an_assault_phase_weapon_in_a_close_combat_is_refused(write):
    line = check_refuses(write, STARCRAFT + "actions:\n  - {action: close_combat, unit: t, weapons: {m1: c-14-rifle}}\n",
                         "actions[0].weapons.m1")
    assert "C-14 Rifle is an Assault-phase weapon" in line


def test_a_weapon_the_model_carries_passes_check_in_any_spelling(write):
    kit = HERESY.replace("save: 3, models: {a1", "save: 3, wargear: [power sword], models: {a1")
    for action in ("{action: fight, unit: tac, weapons: {a2: Power-Sword}}",
                   "{action: challenge, challenger: a1, acceptor: t1, weapons: {a1: power_sword, t1: basic close combat weapon}}"):
        path = write(kit + f"actions:\n  - {action}\n")
        assert cli("check", path)[0] == 0, cli("check", path)
    path = write(STARCRAFT + "actions:\n  - {action: close_combat, unit: t, weapons: {m1: Bayonet, m2: strike}}\n")
    assert cli("check", path)[0] == 0, cli("check", path)


# --- Gambits ------------------------------------------------------------------------------------


def test_a_gambit_named_by_feint_and_riposte_must_be_a_gambit(write):
    line = check_refuses(write, HERESY + "actions:\n  - {action: challenge, challenger: a1, acceptor: t1, "
                         "gambits: {a1: [feint_and_riposte]}, banned: {a1: taunt}}\n", "actions[0].banned.a1")
    assert "'taunt' is not a core Gambit; closest: taunt_and_bait" in line


def test_one_gambit_per_round_of_the_challenge_passes(write):
    path = write(HERESY + "actions:\n  - {action: challenge, challenger: a1, acceptor: t1, rounds: 3, "
                 "gambits: {a1: [guard_up, null, withdraw], t1: [grandstand]}}\n")
    assert cli("check", path)[:2] == (0, f"{path}: valid (heresy, 2 units, 4 models, 0 terrain pieces)\n")
    path = write(HERESY + "actions:\n  - {action: challenge, challenger: a1, acceptor: t1, rounds: 2, "
                 "gambits: {a1: [guard_up, null, null]}}\n")
    assert "3 Gambits for a1 in a challenge of 2 rounds" in refused(cli("check", path), path, "actions[0].gambits.a1")


# --- weapon traits ------------------------------------------------------------------------------


def test_every_weapon_trait_a_system_accepts_is_read_by_its_rules():
    """The lists ``check`` accepts are the names the rules read: each appears as a string in the
    system's rules (outside the list itself), and the bundled profiles use no other."""
    import re
    from pathlib import Path

    from tapeline.rules.heresy import weapons
    from tapeline.rules.starcraft.catalogue import catalogue
    from tapeline.rules.systems import REGISTRY, rules_for

    root = Path(__file__).resolve().parents[2] / "rules"
    lists = re.compile(r"^(MELEE_TRAITS|RANGED_TRAITS|KEYWORDS) = frozenset\(\{[^}]*\}\)", re.M)  # the lists themselves
    for name in REGISTRY:
        system = rules_for(name)
        code = "\n".join(lists.sub("", p.read_text()) for p in (root / name).glob("*.py"))
        for profiles, known in system.weapon_traits.items():
            for t in known - {"instant"}:  # INSTANT: Reactions, which tapeline does not model (catalogue.py)
                assert re.search(rf"[\"']{t}[\"']", code), (name, profiles, t)
    assert {t for w in weapons.ARMOURY.values() for t in w.traits} <= weapons.MELEE_TRAITS
    used = {k for unit in catalogue().values() for w in (unit.get("weapons") or {}).values() for k in w.get("keywords") or {}}
    assert used <= rules_for("starcraft").weapon_traits["weapons"]
    import importlib

    for name in ("heresy", "classic40k"):  # the bundled catalogues' profiles: only traits the system reads
        system, units = rules_for(name), importlib.import_module(f"tapeline.rules.{name}.catalogue").catalogue()
        for profiles, known in system.weapon_traits.items():
            named = {t for unit in units.values() for w in (unit.get(profiles) or {}).values() for t in w.get("traits") or {}}
            assert named <= known, (name, profiles, named - known)


def test_a_ranged_trait_typo_is_refused_with_the_closest_trait(write):
    text = HERESY.replace("save: 3, models: {a1", "save: 3, ranged_weapons: {bolter: {range: 24, strength: 4, "
                          "traits: {asault: null}}}, models: {a1")
    line = check_refuses(write, text, "units[0].stats.ranged_weapons.bolter.traits.asault")
    assert "unknown weapon trait 'asault'; closest: assault" in line


# --- settings of another system -------------------------------------------------------------------


def test_every_setting_is_read_by_some_system_and_only_its_own_pass():
    from tapeline.rules.systems import COMMON_SETTINGS, REGISTRY, rules_for
    from tapeline.scenarios.schema import Settings

    owned = set().union(*(rules_for(n).settings for n in REGISTRY))
    assert owned == set(Settings.model_fields)
    assert all(COMMON_SETTINGS <= rules_for(n).settings for n in REGISTRY)


@pytest.mark.parametrize("text, setting, owner", [
    (STARCRAFT, "los_area_terrain: see_out", "heresy and classic40k"),      # even at its default
    (HERESY, "template_casualties: affected", "starcraft"),
    (HERESY, "c40k_morale_modifier: per_wound", "classic40k"),
])
def test_a_setting_of_another_system_is_refused(write, text, setting, owner):
    line = check_refuses(write, text + f"settings: {{strict_choices: true, {setting}}}\n", "settings." + setting.split(":")[0])
    assert f"is a setting of system {owner}: a" in line


def test_the_common_settings_pass_in_every_system(write):
    common = "settings: {strict_choices: true, edge_clearance: base, path_reference: centre, templates: {big: {diameter: 7}}}\n"
    for text in (STARCRAFT, HERESY):
        path = write(text + common)
        assert cli("check", path)[0] == 0, cli("check", path)


# --- words of another system --------------------------------------------------------------------


def test_the_methods_a_system_may_lack_are_the_ones_that_refuse():
    """:data:`OPTIONAL` lists exactly the interface's methods whose base version refuses, each
    with the name its refusal gives."""
    import inspect

    from tapeline.rules.errors import NotInThisSystem
    from tapeline.rules.systems import OPTIONAL, RuleSystem, rules_for

    refusing = {name for name, fn in vars(RuleSystem).items() if callable(fn) and "self.unavailable(" in inspect.getsource(fn)}
    assert refusing == set(OPTIONAL)
    system = rules_for("starcraft")
    for name, what in OPTIONAL.items():
        fn = getattr(RuleSystem, name)
        nargs = len(inspect.signature(fn).parameters) - 1
        with pytest.raises(NotInThisSystem) as e:
            fn(system, *([None] * nargs))
        assert e.value.what == what


@pytest.mark.parametrize("word, cls", sorted(__import__("tapeline.scenarios.vocab", fromlist=["x"]).models("action").items())
                         + sorted(__import__("tapeline.scenarios.vocab", fromlist=["x"]).models("expect").items()))
def test_every_entry_names_the_rules_it_may_lack(word, cls):
    """Each action and expectation declares in ``needs`` every method of :data:`OPTIONAL` it
    calls, so that ``check`` refuses it in a system without that rule."""
    import inspect
    import re

    from tapeline.rules.systems import OPTIONAL

    calls = set(re.findall(r"rules(?:_for\(state\.system\))?\.(\w+)\(", inspect.getsource(cls)))
    assert calls & set(OPTIONAL) <= set(getattr(cls, "needs", ())), word
    assert set(getattr(cls, "needs", ())) <= set(OPTIONAL), word


@pytest.mark.parametrize("text, entry, where, says", [
    (STARCRAFT, "actions:\n  - {action: challenge, challenger: m1, acceptor: z1}", "actions[0].action",
     "the challenge action is not available for system starcraft"),
    (STARCRAFT, "actions:\n  - {action: fight, unit: t}", "actions[0].action", "the fight action is not available"),
    (HERESY, "actions:\n  - {action: shoot, unit: tac, batches: [{weapon: bolter, target: trt}]}", "actions[0].action",
     "shoot resolves StarCraft TMG Ranged Attacks (system starcraft)"),
    (HERESY, "actions:\n  - {action: morale, unit: trt}", "actions[0].action", "the morale action is not available for system heresy"),
    (HERESY, "actions:\n  - {action: phase, phase: assault, first_player: loyalist}", "actions[0].action",
     "phase follows the StarCraft TMG round"),
    (STARCRAFT, "expect:\n  - {expect: locked, unit: t, with: [z]}", "expect[0].expect", "locked in combat is a Horus Heresy"),
    (HERESY, "expect:\n  - {expect: shielded, unit: tac}", "expect[0].expect", "Shields are StarCraft TMG's"),
    (HERESY, "expect:\n  - {expect: round, number: 1}", "expect[0].expect", "phase follows the StarCraft TMG round"),
    (STARCRAFT, "expect:\n  - {expect: combat_result, unit: t, winner: terran}", "expect[0].expect",
     "the combat_result action is not available for system starcraft"),
])
def test_a_word_of_another_system_is_refused_where_the_file_names_it(write, text, entry, where, says):
    line = check_refuses(write, text + entry + "\n", where)
    assert says in line


# --- options of another system ------------------------------------------------------------------

CLASSIC40K = """\
tapeline: 1
system: classic40k
board: {width: 24, height: 24}
units:
  - {id: marines, side: imperium, base: 25, stats: {weapon_skill: 4, strength: 4, toughness: 4, wounds: 1, initiative: 4,
     attacks: 1, leadership: 8, save: 3}, models: [{id: m1, at: [5, 5]}, {id: m2, at: [7, 5]}]}
  - {id: orks, side: orks, base: 25, stats: {weapon_skill: 4, strength: 3, toughness: 4, wounds: 1, initiative: 2,
     attacks: 2, leadership: 7, save: 6}, models: [{id: o1, at: [5, 6]}]}
"""


@pytest.mark.parametrize("text, action, where", [
    (CLASSIC40K, "{action: fight, unit: marines, active: imperium}", "actions[0].active"),
    (CLASSIC40K, "{action: fight, unit: marines, pile_in: false}", "actions[0].pile_in"),
    (CLASSIC40K, "{action: pile_in, unit: marines, models: [m1]}", "actions[0].models"),
    (CLASSIC40K, "{action: charge, unit: marines, targets: [orks], overwatch: true}", "actions[0].overwatch"),
    (STARCRAFT, "{action: charge, unit: z, targets: [t], evade: false}", "actions[0].evade"),
    (HERESY, "{action: fight, unit: tac, charged: [tac]}", "actions[0].charged"),
    (HERESY, "{action: fight, unit: tac, targets: {a1: trt, a2: {trt: 1}}}", "actions[0].targets.a2"),
])
def test_an_option_of_another_system_is_refused_where_the_file_gives_it(write, text, action, where):
    check_refuses(write, text + f"actions:\n  - {action}\n", where)


def test_the_call_itself_refuses_the_same_options():
    from tapeline.rules.dice import SeededDice
    from tapeline.rules.errors import IllegalAction
    from tapeline.rules.systems import rules_for
    from tests.conftest import scenario

    state = scenario(CLASSIC40K).state
    with pytest.raises(IllegalAction, match="^action.active: the active side is a Horus Heresy option") as e:
        rules_for("classic40k").fight(state, "marines", SeededDice(1), {}, {}, {}, "imperium", True, [])
    assert e.value.at(3).location == "actions[3].active"
    with pytest.raises(IllegalAction, match="^action.moves: a Horus Heresy option"):
        rules_for("classic40k").pile_in(state, "marines", None, {"m1": (5.0, 5.5)})
    with pytest.raises(IllegalAction, match="^action.overwatch: Volleys and Overwatch are Horus Heresy rules"):
        rules_for("starcraft").no_reactions({"overwatch": True, "set": {}})


def test_a_starcraft_charge_may_set_the_rest_of_its_unit_and_nowhere_else_volleys(write):
    # set: is StarCraft's own charge option (§8.7.7 step 4), not a Horus Heresy Reaction
    path = write(STARCRAFT + "actions:\n  - {action: charge, unit: t, targets: [z], set: {m2: [6.5, 6.5]}}\n")
    assert cli("check", path)[0] == 0, cli("check", path)
    line = check_refuses(write, CLASSIC40K + "actions:\n  - {action: charge, unit: marines, targets: [orks], "
                         "set: {m2: [6, 5.8]}}\n", "actions[0].set")
    assert "StarCraft" in line and "Volleys" not in line


# --- control characters ----------------------------------------------------------------------------

CONTROLS = ["\\e", "\\x1b", "\\x07", "\\t", "\\x7f", "\\x9b", "\\0"]


def _no_raw_control(text: str) -> None:
    from tapeline.scenarios.errors import CONTROL

    assert not CONTROL.search(text.replace("\n", "")), repr(text)


@pytest.mark.parametrize("escape", CONTROLS)
@pytest.mark.parametrize("before, after, where", [
    ("side: zerg", 'side: "zerg{e}[31m"', "units[1].side (line 6)"),
    ("{id: m2,", '{id: "m{e}2",', "units[0].models[1].id (line 5)"),
    ("{id: z,", '{id: "z{e}",', "units[1].id (line 6)"),
    ("profile: zergling", 'profile: "zergling{e}"', "units[1].profile (line 6)"),
    ("board:", 'name: "a{e}b"\nboard:', "name (line 3)"),
])
def test_a_control_character_in_an_id_or_a_name_is_refused_and_never_printed(write, escape, before, after, where):
    text = STARCRAFT.replace(before, after.replace("{e}", escape), 1)
    path = write(text)
    for args in (("check", path), ("replay", path), ("los", path, "m1", "z1")):
        code, out, err = cli(*args)
        line = refused((code, out, err), path, where)
        assert "ids and names may hold no control characters" in line
        _no_raw_control(out + err)
    code, out, err = cli("check", path, "--json")
    assert code == 2 and json.loads(out)["errors"][0]["location"] == where
    _no_raw_control(out + err)


def test_a_control_character_in_a_key_is_escaped_in_the_location(write):
    path = write(HERESY + 'settings: {home_edges: {"loyal\\eist": left}}\n')
    line = refused(cli("check", path), path, "settings.home_edges.loyal\\x1bist (line 9)")
    assert "control character \\x1b (U+001B)" in line
    path = write(STARCRAFT + '"zz\\x1b": 1\n')
    line = refused(cli("check", path), path, "zz\\x1b (line 7): unknown key")
    _no_raw_control(line)


def test_no_control_character_from_the_command_line_reaches_the_terminal(write):
    path = write(STARCRAFT)
    code, out, err = cli("measure", path, "m1", "z\x1b[2J")
    assert "argument B" in refused((code, out, err), path) and "\\x1b" in err
    _no_raw_control(out + err)


# --- the environment's limits ---------------------------------------------------------------------


def _tapeline(tmp_path, env: dict, *args: str):
    import os
    import subprocess
    import sys

    path = tmp_path / "s.yaml"
    path.write_text(STARCRAFT)
    full = {k: v for k, v in os.environ.items() if not k.startswith("TAPELINE_")} | env
    r = subprocess.run([sys.executable, "-m", "tapeline.scenarios", *args, str(path)], env=full, cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    return r, path


@pytest.mark.parametrize("variable, value", [
    ("TAPELINE_TIME_LIMIT", "inf"), ("TAPELINE_TIME_LIMIT", "nan"), ("TAPELINE_TIME_LIMIT", "1e308"),
    ("TAPELINE_TIME_LIMIT", "-1"), ("TAPELINE_TIME_LIMIT", "15s"),
    ("TAPELINE_MEMORY_LIMIT", "inf"), ("TAPELINE_MEMORY_LIMIT", "nan"), ("TAPELINE_MEMORY_LIMIT", "1e308"),
    ("TAPELINE_MEMORY_LIMIT", "1000"), ("TAPELINE_MEMORY_LIMIT", "-1"), ("TAPELINE_MEMORY_LIMIT", "3 GiB"),
])
def test_a_limit_the_environment_cannot_set_is_one_line_naming_the_variable(tmp_path, variable, value):
    r, path = _tapeline(tmp_path, {variable: value}, "check")
    assert r.returncode == 2 and r.stdout == "", r
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: {variable}: {value!r} "), r
    assert ("not a finite number" if value in ("inf", "nan", "15s", "3 GiB") else "is out of range") in r.stderr


@pytest.mark.parametrize("env", [{"TAPELINE_TIME_LIMIT": "1000"}, {"TAPELINE_TIME_LIMIT": "0"}, {"TAPELINE_TIME_LIMIT": ""},
                                 {"TAPELINE_MEMORY_LIMIT": "0"}, {"TAPELINE_MEMORY_LIMIT": "4e9"},
                                 {"TAPELINE_MEMORY_LIMIT": str(2**28)}])
def test_the_limits_the_environment_may_set_are_taken(tmp_path, env):
    r, path = _tapeline(tmp_path, env, "check")
    assert (r.returncode, r.stderr) == (0, ""), r


def test_a_bad_time_limit_in_process_is_one_line_too(write, monkeypatch):
    path = write(STARCRAFT)
    monkeypatch.setenv("TAPELINE_TIME_LIMIT", "inf")
    assert "TAPELINE_TIME_LIMIT: 'inf' is not a finite number" in refused(cli("check", path), path)


# --- file suffixes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name, says", [("s.txt", "unknown file suffix '.txt'"), ("s.yaml.bak", "unknown file suffix '.bak'"),
                                        ("scenario", "no file suffix"), ("s.yam", "unknown file suffix '.yam'")])
def test_a_file_suffix_other_than_yaml_yml_json_is_refused(write, name, says):
    path = write(STARCRAFT, name)
    for command in ("check", "replay"):
        line = refused(cli(command, path), path, "file")
        assert line == f"{path}: file: {says}: a scenario file ends in .yaml or .yml (YAML) or .json (JSON)"


@pytest.mark.parametrize("name", ["s.yaml", "s.yml", "S.YAML", "s.Yml"])
def test_the_yaml_suffixes_are_read_in_any_case(write, name):
    assert cli("check", write(STARCRAFT, name))[0] == 0


def test_a_json_file_is_read_as_json(write):
    import yaml

    path = write(json.dumps(yaml.safe_load(STARCRAFT)), "s.JSON")
    assert cli("check", path)[0] == 0


# --- '-' is standard output ------------------------------------------------------------------------


def test_replay_html_dash_writes_the_page_to_standard_output(tmp_path, monkeypatch, write):
    from tests.conftest import EXAMPLES

    monkeypatch.chdir(tmp_path)
    code, out, err = cli("replay", EXAMPLES / "charge-roaches-7in.yaml", "--html", "-")
    assert (code, err) == (0, "") and out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    assert not (tmp_path / "-").exists()
    failing = write(STARCRAFT + "expect:\n  - {expect: contact, a: m1, b: m2}\n")
    code, out, err = cli("replay", failing, "--html", "-")
    assert code == 1 and out.startswith("<!DOCTYPE html>") and "FAIL" in out and err == ""
    line = refused(cli("replay", failing, "--html", "-", "--json"), failing, "--html: ")
    assert "give one of them" in line and not (tmp_path / "-").exists()
