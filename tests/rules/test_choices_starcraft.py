"""The StarCraft player's choices (issue 21 item 4): Guardian Shield's die as the defender's
per-Batch choice, damage reduction (§8.7.4 step 5), the defaults listed as readings, and strict
mode. Every expected number is worked out by hand from the seed's steps (shown beside it) or by
enumerating the dice."""

from __future__ import annotations

import itertools
import textwrap
from fractions import Fraction
from math import comb

import pytest

import tapeline
from tapeline.rules.errors import IllegalAction
from tapeline.scenarios.errors import ArgumentError
from tests.conftest import EXAMPLES, cli

# A Marauder (Quad K12: RoA 3, Hit 3+, Surge Armoured D3, PIERCE Armoured 2) 5" from a Roach
# (Armour 3+, HP 4, Armoured, no Evade roll: not Engaged) under Guardian Shield.
SHOT = """
tapeline: 1
system: starcraft
board: {width: 30, height: 20}
units:
  - id: marauders
    side: terran
    profile: marauder
    models: [{id: a1, at: [5, 10]}]
  - id: roaches
    side: zerg
    profile: roach
    status: [guardian_shield]
    models: [{id: r1, at: [12, 10]}]
"""

P_HIT, P_FAIL = Fraction(2, 3), Fraction(1, 3)   # Hit 3+; Armour 3+ fails on 1, 2


def game(tmp_path, text: str = SHOT, extra: str = "", strict: bool = False) -> tapeline.Game:
    p = tmp_path / "shot.yaml"
    p.write_text(textwrap.dedent(text) + textwrap.dedent(extra))
    return tapeline.open(p, strict=strict)


def enumerate_kill(attack_dice: int, surge: bool, reduction: int = 0) -> tuple[Fraction, Fraction]:
    """(mean damage, P(the Roach dies)) by enumerating the attack dice and the Surge Die face by
    face, the Armour Rolls by the binomial law: the seed's §8.7.4 steps 1–5 written out."""
    mean, kill = Fraction(0), Fraction(0)
    for faces in itertools.product(range(1, 7), repeat=attack_dice + int(surge)):
        p = Fraction(1, 6 ** len(faces))
        hits = sum(f >= 3 for f in faces[:attack_dice])
        moved = min((faces[-1] + 1) // 2, hits) if surge else 0        # D3 = D6 halved up
        saves_rolled = hits - moved
        for fails in range(saves_rolled + 1):
            q = p * comb(saves_rolled, fails) * P_FAIL ** fails * (1 - P_FAIL) ** (saves_rolled - fails)
            damage = max(0, 2 * (moved + fails) - reduction)          # PIERCE Armoured: DMG 2
            mean += q * damage
            kill += q * (damage >= 4)
    return mean, kill


def test_the_defender_picks_the_die_guardian_shield_removes(tmp_path):
    g = game(tmp_path)
    surge = g.attack("marauders", "quad-k12", "roaches", guardian_shield="surge")
    attack = g.attack("marauders", "quad-k12", "roaches", guardian_shield="attack")
    # surge removed: 3 attack dice, each a damage die with 2/3 × 1/3 = 2/9: 3 × 2/9 × DMG 2 = 4/3
    assert surge.batches[0]["dice"] == 3 and surge.mean_damage == pytest.approx(4 / 3, abs=1e-12)
    # an attack die removed: 2 dice and the D3. E[min(S, H)] = 4/9·1 + 4/9·5/3 = 32/27, the other
    # E[H] − 32/27 = 4/27 hits roll Armour (1/3 fail): 32/27 + 4/81 = 100/81 dice, × 2 = 200/81
    assert attack.batches[0]["dice"] == 2 and attack.mean_damage == pytest.approx(200 / 81, abs=1e-12)
    # kills: P(damage ≥ 4); surge removed: at least 2 of 3 damage dice, 3·(2/9)²·7/9 + (2/9)³ = 92/729
    assert surge.kills_at_least[1] == pytest.approx(92 / 729, abs=1e-12)
    assert attack.kills_at_least[1] == pytest.approx(float(enumerate_kill(2, True)[1]), abs=1e-12)
    assert enumerate_kill(2, True)[0] == Fraction(200, 81) and enumerate_kill(3, False)[0] == Fraction(4, 3)
    # a stated choice is no reading
    assert surge.readings is None and "readings" not in str(surge)


def test_the_setting_stays_the_default_and_is_listed_as_a_reading(tmp_path):
    default = game(tmp_path).attack("marauders", "quad-k12", "roaches")
    assert default.mean_damage == pytest.approx(200 / 81, abs=1e-12)     # an attack die
    assert dict(default.readings) == {"guardian_shield.quad-k12": "attack"}
    assert str(default).splitlines()[-1] == "readings: guardian_shield.quad-k12=attack"
    surge = game(tmp_path, extra="settings: {guardian_shield_die: surge}\n").attack("marauders", "quad-k12", "roaches")
    assert surge.mean_damage == pytest.approx(4 / 3, abs=1e-12)
    assert surge.as_json()["readings"] == {"guardian_shield.quad-k12": "surge"}


def test_a_die_the_batch_lacks_is_refused_with_the_legal_ones(tmp_path):
    g = game(tmp_path)
    with pytest.raises(ArgumentError, match=r"no long range die to remove; legal: attack, surge"):
        g.attack("marauders", "quad-k12", "roaches", guardian_shield="long_range")
    with pytest.raises(ArgumentError, match="one of attack, long_range, surge"):
        g.attack("marauders", "quad-k12", "roaches", guardian_shield="armour")
    bare = game(tmp_path, SHOT.replace("    status: [guardian_shield]\n", ""))
    with pytest.raises(ArgumentError, match="not under Guardian Shield"):
        bare.attack("marauders", "quad-k12", "roaches", guardian_shield="surge")


def test_strict_mode_asks_for_the_guardian_shield_die(tmp_path):
    g = game(tmp_path, strict=True)
    assert g.strict
    with pytest.raises(ArgumentError) as e:
        g.attack("marauders", "quad-k12", "roaches")
    assert e.value.location == "guardian_shield" and "legal: attack, surge" in e.value.message
    assert g.attack("marauders", "quad-k12", "roaches", guardian_shield="surge").readings is None
    code, out, err = cli("attack", tmp_path / "shot.yaml", "--unit", "marauders", "--weapon", "quad-k12",
                         "--target", "roaches", "--strict")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"{tmp_path / 'shot.yaml'}: --guardian-shield: ") and "legal: attack, surge" in err


def test_damage_reduction_takes_off_each_batch_s_damage(tmp_path):
    g = game(tmp_path)
    r = g.attack("marauders", "quad-k12", "roaches", guardian_shield="surge", damage_reduction=1)
    # D ~ Bin(3, 2/9) damage dice, damage max(0, 2D − 1): E = 2·2/3 − 1 + P(D = 0) = 1/3 + 343/729
    assert r.mean_damage == pytest.approx(586 / 729, abs=1e-12)
    assert r.kills_at_least[1] == pytest.approx(8 / 729, abs=1e-12)              # 2D − 1 ≥ 4: D = 3
    assert enumerate_kill(3, False, 1) == (Fraction(586, 729), Fraction(8, 729))
    code, out, _ = cli("attack", tmp_path / "shot.yaml", "--unit", "marauders", "--weapon", "quad-k12",
                       "--target", "roaches", "--guardian-shield", "surge", "--damage-reduction", "1", "--json")
    assert code == 0 and '"mean_damage": 0.80384' in out


SHOOT = """
dice:
  rolls: [%s]
actions:
  - action: shoot
    unit: marauders
    batches: [{weapon: quad-k12, target: roaches%s}]
"""


def replay(tmp_path, rolls: str, batch: str, strict: bool = False):
    g = game(tmp_path, extra=SHOOT % (rolls, batch), strict=strict)
    return g.replay()


def _events(r, kind):
    return [e for e in r.events if e["type"] == kind]


def test_the_replay_removes_the_chosen_die_and_reduces_the_damage(tmp_path):
    # surge removed: 3 attack dice 6 6 6 hit; Armour 1 1 1 fail: 3 damage dice × 2 = 6, − 1 = 5:
    # the Roach (HP 4) dies and the 1 left is discarded (no model left to take it)
    r = replay(tmp_path, "6, 6, 6, 1, 1, 1", ", guardian_shield: surge, damage_reduction: 1")
    rolls = [e for e in r.events if e["type"] == "roll"]
    assert [(e["dice"], e["purpose"]) for e in rolls] == [("3D6", "to hit"), ("3D6", "armour")]
    cas = _events(r, "casualties")[0]
    assert cas["damage"] == 5 and list(cas["models"]) == ["r1"]
    # an attack die removed: 2 dice 6 6 hit, Surge Die 6 (D3 = 3) moves both: no Armour Roll;
    # 2 × 2 = 4, − 1 = 3 < HP 4: the Roach lives with a Damage Marker of 3
    r = replay(tmp_path, "6, 6, 6", ", guardian_shield: attack, damage_reduction: 1")
    assert [(e["dice"], e["purpose"]) for e in _events(r, "roll")] == [("2D6", "to hit"), ("1D6", "surge die (D3)")]
    cas = _events(r, "casualties")[0]
    assert cas["damage"] == 3 and list(cas["models"]) == [] and cas["marker"] == 3
    assert "readings" not in r.events[0]


def test_the_replay_lists_the_default_it_took_and_strict_refuses_it(tmp_path):
    r = replay(tmp_path, "6, 6, 6", "")
    assert r.events[0]["readings"] == {"guardian_shield.quad-k12": "attack"}
    assert "    readings: guardian_shield.quad-k12=attack" in str(r).splitlines()
    with pytest.raises(IllegalAction, match=r"actions\[0\]: .* legal: attack, surge"):
        replay(tmp_path, "6, 6, 6", "", strict=True)
    code, _, err = cli("replay", tmp_path / "shot.yaml", "--strict")
    assert code == 2 and err.count("\n") == 1
    assert "actions[0]: the die Guardian Shield removes from the quad-k12 Batch must be chosen" in err
    assert "legal: attack, surge (§4.7 Guardian Shield)" in err


# --- Close Combat: the melee assignment and the Surge Die's target (§8.8.1) ----------------------

FIGHT = str(EXAMPLES / "fight-zerglings-two-units.yaml")


def test_the_fight_lists_the_assignment_and_surge_it_defaulted():
    # the rulebook's example: z5 touches the Marauder and the Marine (it may attack either);
    # the Shredding Claws surge on Light and Armoured: both targets could take the Surge Die
    g = tapeline.open(FIGHT)
    f = g.fight("zerglings")
    assert dict(f.readings) == {"assign.z5": "marauders", "surge_to": "marauders"}
    assert str(f).splitlines()[-1] == "readings: assign.z5=marauders, surge_to=marauders"
    chosen = g.fight("zerglings", assign={"z5": "marines"}, surge_to="marines")
    assert chosen.readings is None and chosen.dice == {"marauders": 4, "marines": 6}


def test_strict_fight_asks_for_each_choice_in_turn():
    g = tapeline.open(FIGHT, strict=True)
    with pytest.raises(ArgumentError) as e:
        g.fight("zerglings")
    assert e.value.location == "assign" and e.value.message.endswith("legal: marauders, marines")
    with pytest.raises(ArgumentError) as e:
        g.fight("zerglings", assign={"z5": "marauders"})
    assert e.value.location == "surge_to" and e.value.message.endswith("legal: marauders, marines")
    assert g.fight("zerglings", assign={"z5": "marauders"}, surge_to="marauders").readings is None
    code, _, err = cli("fight", FIGHT, "--unit", "zerglings", "--assign", "z5=marauders", "--strict")
    assert code == 2 and ": --surge-to: the unit the Surge Die goes to must be chosen" in err
    # the file's action makes both choices, but its first expectation asks for the dice by
    # default: strict mode refuses that expectation, located
    code, _, err = cli("replay", FIGHT, "--strict")
    assert code == 2 and ": expect[0]: the unit z5 attacks must be chosen (strict_choices)" in err


# --- the rest of a charging unit (§8.7.7 step 4) --------------------------------------------------

ROUND = str(EXAMPLES / "round-zealots-charge.yaml")


def test_charge_followers_default_is_a_reading_and_strict_wants_set(tmp_path):
    # z1's gap to m1 is 7 − 0.787 − 0.630 = 5.583", z2's to m2 √(49 + 0.16) − 1.417 = 5.594": z1
    # has the shortest route and leads; it ends at (12 − 1.417, 10), nearest m1 (m2 is 1.4" off
    # the line); z2 is set by default.
    r = tapeline.open(ROUND).replay()
    charge = next(e for e in r.events if e["type"] == "action" and e["action"] == "charge")
    assert charge["readings"] == {"leader": "z1", "target_model.marines": "m1", "charge_followers": "default:z2"}
    code, _, err = cli("replay", ROUND, "--strict")
    assert code == 2 and err.count("\n") == 1
    assert ": actions[1]: zealots's Leading Model" in err and "legal: z1, z2 (§8.7.7 Charge)" in err
    chosen = tmp_path / "chosen.yaml"
    chosen.write_text(open(ROUND).read().replace("targets: [marines]}", "targets: [marines], leader: z1, target_models: {marines: m1}}"))
    code, _, err = cli("replay", chosen, "--strict")
    assert code == 2 and err.count("\n") == 1
    assert ": actions[1]: the spots of the rest of zealots (set) must be chosen" in err
    assert "(§8.7.7 Charge step 4)" in err


def test_the_file_format_and_the_rules_name_the_same_guardian_shield_dice():
    from tapeline.rules.starcraft.batches import GUARDIAN_SHIELD as RULES
    from tapeline.scenarios.actions.shoot import GUARDIAN_SHIELD as FORMAT

    assert RULES == FORMAT == ("attack", "long_range", "surge")


# --- Close Ranks (§8.8.1 step 1): the Leading Model, its path, the rest ---------------------------

R32, R50 = 32 / 25.4 / 2, 50 / 25.4 / 2
LOOSE = """
tapeline: 1
system: starcraft
board: {width: 24, height: 24}
units:
  - id: zerglings
    side: zerg
    profile: zergling
    models:
      - {id: z1, at: [10, 11.8]}
      - {id: z2, at: [8.6, 12.4]}
      - {id: z3, at: [11.4, 12.6]}
      - {id: z4, at: [10, 13.4]}
      - {id: z5, at: [8.5, 14]}
  - id: enemy
    side: terran
    profile: marauder
    models: [{id: mr, at: [10, 10]}]
actions:
  - %s
"""


def close_ranks(tmp_path, action: str, strict: bool = False):
    p = tmp_path / "ranks.yaml"
    p.write_text(LOOSE % action)
    return tapeline.open(p, strict=strict), p


def test_close_ranks_defaults_are_readings_and_strict_asks_for_each(tmp_path):
    g, p = close_ranks(tmp_path, "{action: close_ranks, unit: zerglings}")
    head = g.replay().events[0]
    # none of the five touches the Marauder, so any may lead; z1, 0.185827" away, is the nearest
    assert head["readings"] == {"close_ranks.leader": "z1", "close_ranks": "default:z1+z2+z3+z4+z5"}
    placed = next(e for e in g.replay().events if e["type"] == "close_ranks")["placed"]
    code, _, err = cli("replay", p, "--strict")
    assert code == 2 and "actions[0]: the Leading Model of zerglings's Close Ranks must be chosen (strict_choices); " \
                         "legal: z1, z2, z3, z4, z5 (§8.8.1 Close Ranks)" in err
    _, p = close_ranks(tmp_path, "{action: close_ranks, unit: zerglings, leader: z1}")
    code, _, err = cli("replay", p, "--strict")
    assert code == 2 and "actions[0]: where zerglings's models end (path, set) must be chosen" in err
    # every choice made: the Leading Model straight into base contact, the rest where the
    # default had put them (the player may choose those spots too): strict holds, no reading
    contact = 10 + R50 + R32
    spots = ", ".join(f"{m}: [{x!r}, {y!r}]" for m, (x, y) in placed.items() if m != "z1")
    g, p = close_ranks(tmp_path, f"{{action: close_ranks, unit: zerglings, leader: z1, path: [[10, {contact!r}]], "
                                 f"set: {{{spots}}}}}", strict=True)
    r = g.replay()
    assert "readings" not in r.events[0]
    assert cli("replay", p, "--strict")[0] == 0


def test_the_charge_question_takes_the_followers_spots(tmp_path):
    g = tapeline.open(ROUND).after(0)
    # the Leading Model and the nominated Marine (worked out in the test above) stated
    lead = {"leader": "z1", "target_models": {"marines": "m1"}}
    assert dict(g.charge("zealots", ["marines"], roll=6).readings) == {
        "leader": "z1", "target_model.marines": "m1", "charge_followers": "default:z2"}
    plain = g.charge("zealots", ["marines"], roll=6, **lead)
    assert plain.success and dict(plain.readings) == {"charge_followers": "default:z2"}
    assert str(plain).splitlines()[-1] == "readings: charge_followers=default:z2"
    spot = plain.roll["placed"]["z2"]
    strict = g.strict_game()
    with pytest.raises(ArgumentError) as e:
        strict.charge("zealots", ["marines"], roll=6, **lead)
    assert e.value.location == "set" and "the spots of the rest of zealots (set) must be chosen" in e.value.message
    given = strict.charge("zealots", ["marines"], roll=6, **lead, spots={"z2": tuple(spot)})
    assert given.success and given.readings is None and tuple(given.roll["placement"]["given"]) == ("z2",)
    code, _, err = cli("charge", ROUND, "--after", "0", "--unit", "zealots", "--target", "marines", "--roll", "6",
                       "--strict", "--leader", "z1", "--target-model", "marines=m1", "--set", f"z2={spot[0]!r},{spot[1]!r}")
    assert code == 0, err
    with pytest.raises(ArgumentError, match="need the charge's --roll"):
        g.charge("zealots", ["marines"], spots={"z2": (1.0, 1.0)})
    code, _, err = cli("charge", ROUND, "--after", "0", "--unit", "zealots", "--target", "marines", "--roll", "6",
                       "--set", "z2=1,1")
    assert code == 2 and err.count("\n") == 1 and ": --set: " in err      # refused where it is given


def test_template_answer_lists_its_casualty_readings():
    t = tapeline.open(EXAMPLES / "template-siege-tank.yaml").template(unit="siege-tank", weapon="crucio-shock-cannon",
                                                                       target="z3")
    # the Blast (3" across) over a 32 mm Zergling may sit anywhere that keeps the base under it:
    # centred on z3 by default, a reading too (one firing model: no choice of it)
    assert dict(t.readings) == {"template.at": "centred on z3", "template_casualties": "visible", "casualties": "file_order"}
    assert str(t).splitlines()[-1] == "readings: template.at=centred on z3, template_casualties=visible, casualties=file_order"


def test_strict_reaches_the_other_systems_defaults():
    # 40k 3rd: the defenders' casualty order by tier (three Marines in base contact) is a choice;
    # the file's expectation asks for odds that need it
    code, _, err = cli("replay", EXAMPLES / "assault-40k.yaml", "--strict")
    assert code == 2 and err.count("\n") == 1
    assert ": expect[6]: the order marines's casualties are removed in must be chosen (strict_choices)" in err
    assert cli("replay", EXAMPLES / "assault-40k.yaml")[0] == 0
    # the 40k fight's settings are readings, never refused; then the defaults it took: after the
    # assault each Marine is in base contact with the Boy above it, so both casualty orders
    # are the defending player's choice within one tier, file order by default
    g = tapeline.open(EXAMPLES / "assault-40k.yaml").after(0)
    assert str(g.fight("marines")).splitlines()[-1] == (
        "readings: c40k_frag_grenades=simultaneous, c40k_fist_extra_attack=any_weapon, c40k_fresh_opponent=within_2, c40k_morale_modifier=none, "
        "casualties.marines=m1 > m2 > m3, casualties.orks=o1 > o2 > o3")
    chosen = g.fight("marines", casualties={"marines": ["m2", "m1"], "orks": ["o3", "o1"]})
    assert "casualties" not in str(chosen).splitlines()[-1]      # the last of each tier follows


def test_a_precision_split_left_open_is_listed(tmp_path):
    # PRECISION (1) from an ability, two targets: by default all of it goes to the Surge target
    p = tmp_path / "fight.yaml"
    text = open(FIGHT).read()
    p.write_text(text[: text.index("\ndice:") + 1] + "dice: {seed: 1}\n")
    g = tapeline.open(p)
    act = {"action": "close_combat", "unit": "zerglings", "assign": {"z5": "marauders"}, "surge_to": "marauders",
           "precision": 1}
    assert g.push(act)[0]["readings"] == {"precision_split": "marauders"}
    g.pop()
    assert "readings" not in g.push(act | {"precision_split": {"marines": 1}})[0]
