"""``tapeline units SYSTEM [--json]``: a system's bundled catalogue, each profile's stats and
weapons, in words and as JSON; in a session, ``units [SYSTEM]``."""

from __future__ import annotations

import json

from tests.conftest import EXAMPLES, cli, cli_json


def test_units_heresy_json_lists_the_sourced_profiles():
    code, o = cli_json("units", "heresy")
    assert code == 0 and o["system"] == "heresy" and o["title"] == "Warhammer: The Horus Heresy 3rd edition"
    by = {p["key"]: p for p in o["profiles"]}
    assert set(by) == {"legion-tactical-squad", "legion-sergeant", "legion-assault-squad", "assault-sergeant"}
    tac = by["legion-tactical-squad"]
    assert tac["stats"] == {"movement": 7, "weapon_skill": 4, "ballistic_skill": 4, "strength": 4, "toughness": 4,
                            "wounds": 1, "initiative": 4, "attacks": 1, "leadership": 7, "cool": 7, "willpower": 7,
                            "intelligence": 7, "save": 3, "unit_type": "infantry"}
    assert tac["base"] == 32 and tac["wargear"] == ["bolter", "bolt-pistol"]
    bolter = next(w for w in tac["weapons"] if w["key"] == "bolter")
    assert (bolter["kind"], bolter["range"], bolter["firepower"], bolter["strength"], bolter["ap"], bolter["damage"]) == (
        "ranged", 24, 2, 4, 5, 1)
    chainsword = next(w for w in by["legion-assault-squad"]["weapons"] if w["key"] == "chainsword")
    assert (chainsword["initiative"], chainsword["attacks"], chainsword["strength"], chainsword["ap"],
            chainsword["traits"]) == ("I", "A", "S", 5, {"shred": 6})
    assert by["assault-sergeant"]["stats"]["movement"] == 12 and by["assault-sergeant"]["stats"]["leadership"] == 8
    assert by["legion-sergeant"]["subtypes"] == ["sergeant"]


def test_units_in_words():
    code, out, err = cli("units", "classic40k")
    assert code == 0 and err == ""
    assert "space-marine (Space Marine): WS4 BS4 S4 T4 W1 I4 A1 LD8 Sv3+" in out
    assert "nob (Nob): WS4 BS2 S4 T4 W2 I3 A3 LD7 Sv6+" in out
    code, out, err = cli("units", "StarCraft")
    assert code == 0 and "artanis (Artanis):" in out and "Shield 4" in out.split("artanis (Artanis):")[1].split("\n")[0]


def test_units_of_an_unknown_system_is_one_located_line():
    code, out, err = cli("units", "heressy")
    assert (code, out) == (2, "") and err.count("\n") == 1 and "argument SYSTEM" in err and "closest: heresy" in err


def test_a_session_lists_the_tables_catalogue_or_a_named_one():
    f = EXAMPLES / "assault-heresy.yaml"
    code, out, err = cli("shell", str(f), "--json", stdin="units\nunits classic40k\nunits a b\n")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and lines[0]["system"] == "heresy" and lines[1]["system"] == "classic40k"
    assert lines[2]["error"]["line"] == 3
