"""Every default a player could choose differently is a reading, and strict mode refuses it
(issue 21 item 4): Horus Heresy (a model's weapon, the unit it attacks, the defender's casualty
order, the Strike Group order where it matters, Gambits, the Disgraced model), 40k 3rd (the
casualty order given to the question), StarCraft (the PRECISION and IMPACT splits, damage
reduction in the fight question, a template's firing model and Blast Target Point), and
``replay --strict`` of the bundled examples. Expected values are worked out by hand from the
seed's steps (shown beside them), never read off the program."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

import tapeline
from tapeline.rules import choices
from tapeline.rules.choices import MissingChoice
from tapeline.rules.dice import RecordedDice
from tapeline.rules.heresy import challenge as ch
from tapeline.rules.heresy import melee
from tapeline.rules.heresy.challenge import GAMBITS
from tapeline.scenarios.errors import ArgumentError
from tests.conftest import EXAMPLES, cli, cli_json
from tests.rules.test_heresy_fight import X, line

HEAD = "tapeline: 1\nsystem: heresy\nboard: {width: 24, height: 24}\n"
STRICT = "settings: {strict_choices: true}\n"

# --- Horus Heresy: a model's weapon and the defender's casualty order (§A.7) ----------------------

# a1 carries a club (Damage 1) and a hammer (Damage 2), I4, WS4 S4 A1; b: two W2 models, T4,
# no save, I1 (they strike after a1). Each attack of a1 hits on 4+ (WS 4 v 4) and wounds on 4+
# (S4 v T4): 1/4. With the club a wound never kills a W2 model; with the hammer it does.
TWO_WEAPONS = HEAD + f"""units:
  - id: a
    side: loyal
    base: 32
    stats:
      weapon_skill: 4
      strength: 4
      toughness: 4
      wounds: 1
      initiative: 4
      attacks: 1
      leadership: 7
      melee_weapons: {{club: {{damage: 1}}, hammer: {{damage: 2}}}}
      models: {{a1: {{wargear: [club, hammer]}}}}
    models:
      - {{id: a1, at: [10, 10]}}
  - id: b
    side: traitor
    base: 32
    stats: {{weapon_skill: 4, strength: 4, toughness: 4, wounds: 2, initiative: 1, attacks: 1, leadership: 7}}
    models:
      - {{id: b1, at: [{X!r}, 10]}}
      - {{id: b2, at: [{X!r}, 11.3]}}
"""


def test_heresy_weapon_and_casualty_defaults_are_readings(write):
    g = tapeline.open(write(TWO_WEAPONS))
    f = g.fight("a")
    # the first weapon a1 carries, and b's order (nobody wounded: file order); a has one model
    assert dict(f.readings) == {"weapon.a1": "club", "casualties.b": "b1 > b2"}
    assert list(f.casualties_pmf["b"]) == [1.0]                                  # club: 1 wound on W2 kills none
    hammer = g.fight("a", weapons={"a1": "hammer"}, casualties={"b": ["b2"]})
    assert hammer.readings is None                                         # b1 follows b2: no choice left
    assert hammer.casualties_pmf["b"] == pytest.approx([3 / 4, 1 / 4], abs=1e-12)


def test_heresy_strict_asks_for_the_weapon_then_the_casualty_order(write):
    g = tapeline.open(write(TWO_WEAPONS), strict=True)
    with pytest.raises(ArgumentError) as e:
        g.fight("a")
    assert e.value.location == "weapons" and e.value.message.endswith("legal: club, hammer")
    with pytest.raises(ArgumentError) as e:
        g.fight("a", weapons={"a1": "hammer"})
    assert e.value.location == "casualties" and "legal: b1, b2" in e.value.message
    assert g.fight("a", weapons={"a1": "hammer"}, casualties={"b": ["b1"]}).readings is None
    p = write(TWO_WEAPONS, "q.yaml")
    code, _, err = cli("fight", p, "--unit", "a", "--weapon", "a1=hammer", "--strict")
    assert code == 2 and err.count("\n") == 1 and ": --casualties: the order b's models take wounds in" in err
    code, out = cli_json("fight", p, "--unit", "a", "--weapon", "a1=hammer", "--casualties", "b=b2,b1", "--strict")
    assert code == 0 and "readings" not in out
    code, _, err = cli("fight", p, "--unit", "a", "--casualties", "b")
    assert code == 2 and ": --casualties: wants UNIT=M1,M2,..." in err


def test_heresy_replay_lists_the_defaults_and_strict_refuses_at_the_action(write):
    # a1's club: hit 6, wound 6 (b1 loses 1 of 2 W); b's two attacks at I1: 1, 1 (misses)
    text = TWO_WEAPONS + "dice: {rolls: [6, 6, 1, 1]}\nactions:\n  - {action: fight, unit: a, pile_in: false}\n"
    r = tapeline.open(write(text)).replay()
    head = r.events[0]
    assert head["readings"] == {"weapon.a1": "club", "casualties.b": "b1 > b2"}
    fight = next(e for e in r.events if e["type"] == "fight")
    assert fight["readings"] == head["readings"]
    code, _, err = cli("replay", write(text.replace("units:", STRICT + "units:", 1), "s2.yaml"))
    assert code == 2 and err.count("\n") == 1 and ": actions[0]: the melee weapon a1 uses must be chosen" in err


# --- Horus Heresy: the unit a model attacks, Engaged with two (§A.7 step 7) -------------------------

def test_heresy_a_model_engaged_with_two_units_attacks_the_one_chosen(write):
    # a1 at (10, 10) touches b1 (to its right) and c1 (to its left): Engaged with both
    text = HEAD + "units:\n" + line("a", "loyal", 10, (10,), "chainsword") + line("b", "traitor", X, (10,), "chainsword") \
        + line("c", "traitor", 20 - X, (10,), "chainsword")
    g = tapeline.open(write(text))
    # the first unit in file order; and b's and c's groups may both strike a1 at I4 (and, a1
    # being the only model of a, its casualty order is no choice)
    assert dict(g.fight("a").readings) == {"assign.a1": "b", "strike_order": melee.DEFAULT_ORDER}
    assert g.fight("a", assign={"a1": "c"}, strike_order=["c chainsword"]).readings is None
    with pytest.raises(ArgumentError) as e:
        g.strict_game().fight("a")
    assert e.value.location == "assign" and "the unit a1 attacks must be chosen" in e.value.message
    assert e.value.message.endswith("legal: b, c")


# --- Horus Heresy: the Strike Group order is a choice only where it matters (§A.7 step 9) ----------

def test_strict_refuses_the_strike_order_only_where_two_groups_may_strike_one_unit(write):
    from tests.rules.test_heresy_strike_order import HEAD as SO_HEAD, UNITS

    g = tapeline.open(write(SO_HEAD + UNITS), strict=True)
    everyone = {"a": ["a1", "a2"], "b": ["b1"]}          # the last model of each follows
    with pytest.raises(ArgumentError) as e:
        g.fight("a", casualties=everyone)
    # I4: the club and the hammer may both strike b; b's group strikes a, alone
    assert e.value.location == "strike_order" and e.value.message.endswith(
        "of Initiative 4 that may strike b must be chosen (strict_choices); legal: a club, a hammer")
    assert g.fight("a", casualties=everyone, strike_order=["a hammer"]).readings is None
    # the hammer at I5 (IM 5), the club at I4, the knife at I1: each step has one group that may
    # strike b, so there is no order to choose
    one_each = (SO_HEAD + UNITS).replace("hammer: {damage: 2}", "hammer: {damage: 2, initiative: 5}")
    assert tapeline.open(write(one_each, "one.yaml"), strict=True).fight("a", casualties=everyone).readings is None


# --- Horus Heresy: Gambits and the Disgraced model (§A.6) -------------------------------------------

CHAMPS = ", models: {a1: {subtypes: [champion], wounds: 2, attacks: 2, wargear: [power sword]}}"
B_CHAMPS = (", models: {b1: {subtypes: [command], wounds: 2, attacks: 2, wargear: [power fist], unit_type: infantry}, "
            "b2: {subtypes: [champion]}}")


def duel_state(write, strict: bool = False):
    text = HEAD + (STRICT if strict else "") + "units:\n" + line("a", "loyal", 10, (10, 11.3, 12.6), "chainsword", CHAMPS) \
        + line("b", "traitor", X, (10, 11.3), "chainsword", B_CHAMPS)
    return tapeline.open(write(text, "duel-strict.yaml" if strict else "duel.yaml")).state


# the dice of tests/rules/test_heresy_assault.py's worked duel: Focus 5, 2; a1's 3 attacks
# 4 4 1, wounds 5 2; b1's 2 attacks 6 3, wound 2
DUEL = [5, 2, 4, 4, 1, 5, 2, 6, 3, 2]


def test_no_gambit_by_default_is_a_reading_and_strict_lists_the_gambits(write):
    with choices.recording() as used:
        ch.run(duel_state(write), "a1", "b1", RecordedDice(DUEL))
    assert dict(used) == {"gambit.a1": "none", "gambit.b1": "none"}
    st = duel_state(write, strict=True)
    with pytest.raises(MissingChoice) as e:
        ch.run(st, "a1", "b1", RecordedDice(DUEL))
    assert e.value.choice == "gambits" and list(e.value.options) == ["none", *GAMBITS]      # a1 picks first
    # a1 picks Guard Up: b1 may pick neither it nor Feint and Riposte (first player only)
    with pytest.raises(MissingChoice) as e:
        ch.run(st, "a1", "b1", RecordedDice(DUEL), {"gambits": {"a1": ["guard_up"]}})
    assert "b1's Gambit in round 1" in e.value.message
    assert list(e.value.options) == ["none"] + [x for x in GAMBITS if x not in ("guard_up", "feint_and_riposte")]
    with choices.recording() as used:
        ch.run(st, "a1", "b1", RecordedDice(DUEL), {"gambits": {"a1": [None], "b1": [None]}})
    assert not used                                     # null: "no Gambit", stated


def test_the_disgraced_model_is_the_challengers_choice(write):
    with choices.recording() as used:
        _new, _ev, duel = ch.run(duel_state(write), "a1", None, RecordedDice([]))
    assert duel.disgraced == "b1" and dict(used) == {"disgrace": "b1"}   # b1 (Command), b2 (Champion): the first
    with pytest.raises(MissingChoice) as e:
        ch.run(duel_state(write, strict=True), "a1", None, RecordedDice([]))
    assert e.value.choice == "disgrace" and list(e.value.options) == ["b1", "b2"]
    assert ch.run(duel_state(write, strict=True), "a1", None, RecordedDice([]), {"disgrace": "b2"})[2].disgraced == "b2"


# --- StarCraft: the PRECISION and IMPACT splits, damage reduction in the fight question -------------

FIGHT = str(EXAMPLES / "fight-zerglings-two-units.yaml")
CHOSEN = {"assign": {"z5": "marauders"}, "surge_to": "marauders"}


def test_the_fight_question_takes_the_precision_split():
    g = tapeline.open(FIGHT)
    assert dict(g.fight("zerglings", precision=1, **CHOSEN).readings) == {"precision_split": "marauders"}
    assert g.fight("zerglings", precision=1, precision_split={"marines": 1}, **CHOSEN).readings is None
    with pytest.raises(ArgumentError) as e:
        g.strict_game().fight("zerglings", precision=1, **CHOSEN)
    # PRECISION (1): all of it to one of the two targets; nothing to split
    assert e.value.location == "precision_split" and "legal: marauders=1, marines=1" in e.value.message
    with pytest.raises(Exception, match="must be assigned in full"):
        g.fight("zerglings", precision=2, precision_split={"marines": 1}, **CHOSEN)
    code, _, err = cli("fight", FIGHT, "--unit", "zerglings", "--precision", "2", "--assign", "z5=marauders",
                       "--surge-to", "marauders", "--strict")
    assert code == 2 and ": --precision-split: " in err and "legal: marauders=2, marines=2, any split of 2 between" in err
    code, _, err = cli("fight", FIGHT, "--unit", "zerglings", "--precision", "2", "--assign", "z5=marauders",
                       "--surge-to", "marauders", "--strict", "--precision-split", "marauders=1",
                       "--precision-split", "marines=1")
    assert code == 0, err
    code, _, err = cli("fight", FIGHT, "--unit", "zerglings", "--precision-split", "marines=x")
    assert code == 2 and err.count("\n") == 1 and ": --precision-split: " in err


def test_the_fight_question_takes_the_impact_split():
    # Zerglings IMPACT (1) 5+; z5 touches both units. Each die: 5+ (1/3), then an Armour Roll:
    # the Marauder saves on 4+ (fails 1/2), the Marine on 5+ (fails 2/3)
    g = tapeline.open(FIGHT)
    f = g.fight("zerglings", charged="zerglings", **CHOSEN)
    assert dict(f.readings) == {"impact.z5": "marauders"} and f.impact["dice"] == {"marauders": 3, "marines": 2}
    given = g.fight("zerglings", charged="zerglings", impact_split={"z5": {"marines": 1}}, **CHOSEN)
    assert given.readings is None and given.impact["dice"] == {"marauders": 2, "marines": 3}
    assert given.impact["odds"]["marines"]["mean_damage"] == pytest.approx(3 * (1 / 3) * (2 / 3), abs=1e-12)
    assert given.impact["odds"]["marauders"]["mean_damage"] == pytest.approx(2 * (1 / 3) * (1 / 2), abs=1e-12)
    with pytest.raises(ArgumentError) as e:
        g.strict_game().fight("zerglings", charged="zerglings", **CHOSEN)
    assert e.value.location == "impact_split" and e.value.message.endswith("legal: marauders=1, marines=1")
    code, _, err = cli("fight", FIGHT, "--unit", "zerglings", "--charged", "zerglings", "--impact-split", "z5=marines:1",
                       "--assign", "z5=marauders", "--surge-to", "marauders", "--strict")
    assert code == 0, err
    for bad, says in ((["--impact-split", "z5=marines"], "wants MODEL=UNIT:N"),
                      (["--impact-split", "z5=marines:1"], "give charged=zerglings"),
                      (["--charged", "zerglings", "--impact-split", "z1=marines:1"], "may go only to marauders")):
        code, _, err = cli("fight", FIGHT, "--unit", "zerglings", *bad)
        assert code == 2 and err.count("\n") == 1 and says in err and "Traceback" not in err


def test_the_fight_question_takes_damage_reduction():
    # at the Marines: z3, z4 × RoA 2 = 4 dice, hit 4+ (1/2), Armour 5+ fails 2/3, no Surge (it goes
    # to the Marauders): each die 1 damage with 1/3. Reduction 1 off the Batch: E[max(0, D − 1)]
    g = tapeline.open(FIGHT)
    dist = [Fraction(comb(4, k)) * Fraction(1, 3) ** k * Fraction(2, 3) ** (4 - k) for k in range(5)]
    mean = sum(max(0, k - 1) * p for k, p in enumerate(dist))
    assert mean == Fraction(43, 81)
    f = g.fight("zerglings", damage_reduction=1, **CHOSEN)
    assert f.odds["marines"]["mean_damage"] == pytest.approx(float(mean), abs=1e-12)
    assert g.fight("zerglings", **CHOSEN).odds["marines"]["mean_damage"] == pytest.approx(4 / 3, abs=1e-12)
    code, out = cli_json("fight", FIGHT, "--unit", "zerglings", "--damage-reduction", "1", "--assign", "z5=marauders",
                         "--surge-to", "marauders")
    assert code == 0 and out["odds"]["marines"]["mean_damage"] == pytest.approx(float(mean), abs=1e-12)


def test_each_system_refuses_the_other_systems_fight_arguments(write):
    code, _, err = cli("fight", EXAMPLES / "assault-40k.yaml", "--after", "0", "--unit", "marines", "--damage-reduction", "1")
    assert code == 2 and ": --damage-reduction: a StarCraft TMG Close Combat argument, not classic40k's" in err
    code, _, err = cli("fight", FIGHT, "--unit", "zerglings", "--casualties", "marines=mn")
    assert code == 2 and ": --casualties: a StarCraft fight's odds do not depend on which legal casualty" in err


# --- StarCraft templates: the firing model and the Blast's Target Point (§8.7.6) --------------------

FIREBAT = (EXAMPLES / "template-firebat.yaml").read_text()


def test_the_firing_model_is_a_reading_and_strict_lists_the_models(write):
    # a second Firebat 3" below: f1 is nearer z1 (4.5" centre to centre against 5.41")
    text = FIREBAT.replace("models: [{id: f1, at: [4, 9]}]", "models: [{id: f1, at: [4, 9]}, {id: f2, at: [4, 12]}]")
    g = tapeline.open(write(text))
    t = g.template(unit="firebat", weapon="perdition-flamer", target="z1")
    assert t.readings["template.model"] == "f1" and "template.at" not in t.readings      # a Flamer has no centre to move
    assert "template.model" not in (g.template(unit="firebat", weapon="perdition-flamer", target="z1", model="f2").readings or {})
    with pytest.raises(ArgumentError) as e:
        g.strict_game().template(unit="firebat", weapon="perdition-flamer", target="z1")
    assert e.value.location == "model" and "legal: f1, f2" in e.value.message
    # the file's one Firebat: no choice
    assert "template.model" not in tapeline.open(EXAMPLES / "template-firebat.yaml").template(
        unit="firebat", weapon="perdition-flamer", target="z1").readings


def test_the_blast_target_point_is_a_choice_when_the_base_fits_under_it():
    # the 3" Blast over a 32 mm base (r 0.629921"): any centre within 1.5 − 0.629921 = 0.870079"
    # of the base's centre keeps the whole base under it
    g = tapeline.open(EXAMPLES / "template-siege-tank.yaml")
    with pytest.raises(ArgumentError) as e:
        g.strict_game().template(unit="siege-tank", weapon="crucio-shock-cannon", target="z3")
    assert e.value.location == "at" and 'any point within 0.870079" of z3\'s centre (13.5, 11)' in e.value.message
    at = g.strict_game().template(unit="siege-tank", weapon="crucio-shock-cannon", target="z3", at=(13.5 + 0.87, 11))
    assert "template.at" not in (at.readings or {})
    code, _, err = cli("template", EXAMPLES / "template-siege-tank.yaml", "--unit", "siege-tank", "--weapon",
                       "crucio-shock-cannon", "--target", "z3", "--strict")
    assert code == 2 and err.count("\n") == 1 and ": --at: the Blast's Target Point on z3 must be chosen" in err


# --- replay --strict of the bundled examples (item 5) ------------------------------------------------

@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.yaml")))
def test_a_strict_replay_of_an_example_passes_or_names_the_open_choice(name):
    code, _, err = cli("replay", EXAMPLES / name, "--strict")
    if code == 0:
        return
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    where = err.split(": ", 2)[1]
    assert where.startswith(("actions[", "expect[")) and "must be chosen (strict_choices); legal: " in err


def test_a_fight_odds_expectation_states_the_casualty_order(write):
    # expect[6] asks for the fight's odds after the assault: the defenders' orders are choices;
    # stated on the expectation it passes, and strict stops at the fight action that does not
    text = (EXAMPLES / "assault-40k.yaml").read_text()
    old = "k: 0, equals: 0.122147, tol: 1e-6, after: 0}"
    assert old in text
    p = write(text.replace(old, old[:-1] + ", casualties: {marines: [m1, m2], orks: [o3, o2]}}"))
    code, _, err = cli("replay", p, "--strict")
    assert code == 2 and ": actions[1]: the order marines's casualties are removed in must be chosen" in err
    assert cli("replay", p)[0] == 0
    code, _, err = cli("check", write(text.replace(old, old[:-1] + ", casualties: {orks: [zz]}}"), "bad.yaml"))
    assert code == 2 and "expect[6].casualties.orks[0]" in err


# --- Horus Heresy: the Aftermath option (§A.10) -------------------------------------------------------

def test_the_aftermath_default_is_a_reading_and_strict_lists_the_options(write):
    from tests.audit.test_audit_heresy_examples import aftermath_file

    # the traitors lose and fail their Panic Check (6 + 5 > Ld): Routed, they may only Fall Back
    # (no choice); the winners may Consolidate, Hold, Pursue, Gun Down ...: Consolidate by default
    r = tapeline.open(aftermath_file(write, "{}", [6, 5, 3])).replay()
    head = next(e for e in r.events if e["type"] == "action" and e["action"] == "aftermath")
    assert head["readings"] == {"aftermath.loy": "consolidate"}
    text = aftermath_file(write, "{}", [6, 5, 3]).read_text().replace("settings:\n", "settings:\n  strict_choices: true\n", 1)
    code, _, err = cli("replay", write(text, "strict.yaml"))
    assert code == 2 and err.count("\n") == 1 and ": actions[1]: loy's Aftermath option must be chosen (strict_choices); legal: " in err
    # the winner's options with an enemy falling back (§A.10): Hold, Fall Back (open to any unit),
    # Gun Down or Pursue the fleeing unit, Consolidate
    assert "legal: hold, fall_back, gun_down, pursue, consolidate (HH3 §A.10 Aftermath)" in err
    stated = aftermath_file(write, "{loy: consolidate}", [6, 5, 3]).read_text().replace("settings:\n", "settings:\n  strict_choices: true\n", 1)
    code, _, err = cli("replay", write(stated, "stated.yaml"))
    assert code == 0, err


# --- Horus Heresy: the Volley Attacks a charge's units may make (§A.3 step 4) -----------------------

def test_a_volley_left_open_is_made_and_listed(write):
    # a1's bolt pistol (Assault trait, 12") reaches the traitors: tac may volley (made by
    # default); the traitors carry only close combat weapons: no Volley to choose; the
    # Volley's wounds go to the traitors in file order (nobody wounded yet); a1, a2, a3 all
    # stand 5.759843" from their traitor (same x): the tie goes to a1, first in the file
    path = EXAMPLES / "assault-heresy.yaml"
    head = next(e for e in tapeline.open(path).replay().events if e["type"] == "action")
    assert head["readings"] == {"leader": "a1", "volley": "true", "casualties.trt": "t1 > t2 > t3"}
    code, _, err = cli("replay", path, "--strict")
    assert code == 2 and ": expect[0]: tac's initial charger" in err and "legal: a1, a2, a3" in err
    text = path.read_text()
    for plain in ("{expect: charge, unit: tac, targets: [trt]", "{action: charge, unit: tac, targets: [trt]"):
        assert plain in text
        text = text.replace(plain, plain + ", leader: a1")       # the initial charger stated
    code, _, err = cli("replay", write(text, "led.yaml"), "--strict")
    assert code == 2 and ": actions[0]: whether tac makes its Volley Attack at trt must be chosen (strict_choices); " \
                         "legal: true, false" in err
    old = "  - {action: charge, unit: tac, targets: [trt], leader: a1}"
    declined = write(text.replace(old, "  - {action: charge, unit: tac, targets: [trt], leader: a1, volley: false}"), "declined.yaml")
    code, _, err = cli("replay", declined, "--strict")
    assert code == 2 and "actions[0]" not in err      # no Volley, no casualties to order: the charge holds


def test_heresy_the_initial_charger_is_a_reading_and_strict_lists_the_models():
    # charge-heresy-setup.yaml: a1 (5, 10) faces t1 (13.259843, 10) across exactly 7" of gap;
    # a2 (5, 11.5) to t2 (13.259843, 11.4): √(8.259843² + 0.1²) − 1.259843 = 7.000605"; a3 is
    # 1.4" further back: a1 has the shortest route, and any of the three may lead
    path = str(EXAMPLES / "charge-heresy-setup.yaml")
    g = tapeline.open(path)
    assert dict(g.charge("loyal", ["traitors"]).readings or {})["leader"] == "a1"
    assert "leader" not in dict(g.charge("loyal", ["traitors"], leader="a2").readings or {})
    with pytest.raises(ArgumentError) as e:
        g.strict_game().charge("loyal", ["traitors"])
    assert e.value.location == "leader" and "legal: a1, a2, a3" in e.value.message
    code, _, err = cli("charge", path, "--unit", "loyal", "--target", "traitors", "--strict")
    assert code == 2 and err.count("\n") == 1 and ": --leader: " in err
