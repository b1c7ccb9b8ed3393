"""Horus Heresy 3rd Fight sub-phase (§A.7): the worked examples, odds worked by hand,
and the exact round against a seeded Monte Carlo of the dice engine."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from tapeline.rules.dice import RecordedDice, SeededDice
from tapeline.rules.errors import IllegalAction
from tapeline.rules.heresy import melee
from tapeline.rules.heresy.charts import armour_save_allowed, melee_hit_tn, penetration, wound_tn
from tapeline.rules.heresy.weapons import ARMOURY, combat_initiative
from tests.conftest import cli, cli_json, scenario

R32 = 16 / 25.4
X = 10 + 2 * R32          # a base in contact with one at x = 10

STATS = dict(movement=7, weapon_skill=4, ballistic_skill=4, strength=4, toughness=4, wounds=1, initiative=4, attacks=1,
             leadership=7, cool=7, save=3)


def line(uid, side, x, ys, gear, extra="", status="", **over):
    ms = "\n".join(f"      - {{id: {uid}{i + 1}, at: [{x}, {y}]}}" for i, y in enumerate(ys))
    stats = ", ".join(f"{k}: {v}" for k, v in {**STATS, **over}.items())
    return f"""  - id: {uid}
    side: {side}
    base: 32
    status: [{status}]
    stats: {{{stats}, wargear: [{gear}]{extra}}}
    models:
{ms}
"""


def fight_file(a_gear="chainsword", b_gear="power fist", a_ys=(10, 11.3, 12.6), b_ys=(10, 11.3), a_extra="", b_extra="", b_status="", **b_over):
    return scenario("tapeline: 1\nsystem: heresy\nboard: {width: 24, height: 24}\nunits:\n"
                    + line("a", "loyal", 10, a_ys, a_gear, a_extra) + line("b", "traitor", X, b_ys, b_gear, b_extra, b_status, **b_over)).state


# --- worked examples ----------------------------------------------------------------

def test_combat_initiative_examples():
    # official example 1: I 4 with IM +2, −1, x2, 2, I → 6, 3, 8, 2, 4; case 20: any status → 1
    assert [combat_initiative(4, m) for m in ("+2", "-1", "x2", "2", "I")] == [6, 3, 8, 2, 4]
    assert combat_initiative(4, "+2", has_status=True) == 1


def test_initiative_steps_5_4_1():
    # official example 2: 9 models at CI 4 and 1 at CI 1 against 5 at CI 5 → steps 5, 4, 1
    ys = [1 + 1.3 * i for i in range(10)]
    st = scenario("tapeline: 1\nsystem: heresy\nboard: {width: 30, height: 30}\nunits:\n"
                  + line("a", "loyal", 10, ys, "chainsword", ", models: {a10: {wargear: [power fist]}}")
                  + line("b", "traitor", X, ys[:5], "chainsword", initiative=5)).state
    assert melee.build_round(st, "a").initiatives == [5, 4, 1]


def test_hit_and_wound_tables_cases_14_15():
    assert [melee_hit_tn(a, d) for a, d in ((4, 4), (5, 4), (4, 5), (4, 2), (2, 4), (3, 6))] == [4, 3, 5, 2, 6, 6]
    assert [wound_tn(s, t) for s, t in ((4, 4), (5, 4), (8, 4), (4, 6), (4, 7), (4, 8), (3, 7))] == [4, 3, 2, 6, 6, None, None]
    assert melee_hit_tn(10, 5) == 2 and melee_hit_tn(10, 5, "transcription") == 3


def test_power_fist_cases_16_to_19():
    pf = ARMOURY["power fist"]
    assert combat_initiative(4, pf.initiative) == 1 and pf.strength.apply(4) == 8          # case 16
    assert wound_tn(8, 4) == 2 and not armour_save_allowed(3, pf.ap) and pf.damage == 2   # case 17
    assert armour_save_allowed(3, ARMOURY["chainsword"].ap)                               # case 18
    assert not armour_save_allowed(3, ARMOURY["power sword"].ap)                          # case 19


def test_armour_penetration_cases_21_to_23():
    assert penetration(8, 3, 11) == "glancing" and penetration(8, 3, 10) == "penetrating"
    assert penetration(4, 6, 10) == "glancing"


def test_status_sets_combat_initiative_1():
    st = fight_file(b_gear="chainsword", b_status="stunned")
    rnd = melee.build_round(st, "a")
    assert {rnd.fighters[m].ci for m in ("b1", "b2")} == {1} and rnd.initiatives == [4, 1]


# --- exact odds worked by hand -------------------------------------------------------------------

def test_three_chainswords_then_two_power_fists_by_hand():
    # I4: a1–a3 chainswords (a3 within 2" of a2, in contact): each kills with 1/2 × 1/2 × 1/3 =
    # 1/12 (hit 4+, wound 4+, fail a 3+ save). I1: b's surviving power fists kill with 1/2 × 5/6
    # (hit 4+, wound 2+, no save). b's casualties: Binomial(3, 1/12) capped at 2.
    o = melee.odds(fight_file(), "a")
    p = Fraction(1, 12)
    b0, b1 = (1 - p) ** 3, 3 * p * (1 - p) ** 2
    assert o["casualties_pmf"]["b"] == pytest.approx([float(b0), float(b1), float(1 - b0 - b1)], abs=1e-12)
    q = Fraction(5, 12)
    a0 = b0 * (1 - q) ** 2 + b1 * (1 - q) + (1 - b0 - b1)
    a2 = b0 * q ** 2
    assert o["casualties_pmf"]["a"] == pytest.approx([float(a0), float(1 - a0 - a2), float(a2)], abs=1e-12)
    # CRP (casualties + 1 for the most models; 3 v 2 at the start): a wins unless it loses one
    # model while killing none (2 v 2: b 1 – a 0) or two (1 v 2)
    # (k_a, k_b) = (1, 0): 2 v 2, b 1 – a 0; (2, 0): b 1 + 2 – 0; (1, 1): a 1 + 1 – b 1, a wins
    lose = b0 * (2 * q * (1 - q)) + b0 * q ** 2
    assert o["sides"]["traitor"] == pytest.approx(float(lose), abs=1e-12)
    assert o["result"]["draw"] == pytest.approx(0.0, abs=1e-12)
    assert [s["initiative"] for s in o["steps"]] == [4, 1] and o["steps"][1]["save_on"] is None


def test_earlier_casualties_remove_later_attackers():
    # one loyalist (I4, power sword: kills a W1 Sv3+ model on hit 4+ × wound 4+ = 1/4, no save)
    # against one traitor with a power fist (I1): the fist strikes only if its bearer lives.
    st = fight_file(a_gear="power sword", a_ys=(10,), b_ys=(10,))
    o = melee.odds(st, "a")
    assert o["casualties_pmf"]["b"] == pytest.approx([0.75, 0.25])
    assert o["casualties_pmf"]["a"] == pytest.approx([1 - 0.75 * 5 / 12, 0.75 * 5 / 12])   # not 5/12


def test_multi_wound_defender_and_shred():
    # a chainsword with Shred (6+): a W2 defender dies only to two unsaved wounds, or one from a
    # natural 6 to wound (Damage 2). One attack: hit 4+ (1/2); wound on 4 or 5 (1/3) → D1, on 6
    # (1/6) → D2; save 3+ fails 1/3. P(kill) = 1/2 × 1/6 × 1/3 = 1/36.
    st = fight_file(a_ys=(10,), b_ys=(10,), b_gear="chainsword", wounds=2, initiative=1)
    o = melee.odds(st, "a")
    assert o["casualties_pmf"]["b"][1] == pytest.approx(1 / 36, abs=1e-12)


# --- the exact round against a Monte Carlo of the dice engine ------------------------------------

def test_exact_round_matches_seeded_monte_carlo():
    # a mixed fight: a sergeant W2 with a power axe (CI 3, S5, Breaching 5+), two chainswords;
    # against two W1 models and a W2 champion with a lightning claw (Rending 6+, Breaching 6+).
    st = fight_file(a_ys=(10, 11.3, 12.6), b_ys=(10, 11.3, 12.6),
                    a_extra=", models: {a1: {wounds: 2, attacks: 2, wargear: [power axe]}}",
                    b_extra=", models: {b3: {wounds: 2, attacks: 3, wargear: [lightning claw]}}")
    o = melee.odds(st, "a")
    n = 1500
    dice = SeededDice(20240601)
    counts = {"a": [0] * 4, "b": [0] * 4}
    for _ in range(n):
        new, _ev, summary = melee.fight_round(st, "a", dice, pile_ins=False)
        for u in ("a", "b"):
            counts[u][len(summary["casualties"][u])] += 1
    for u in ("a", "b"):
        pmf = o["casualties_pmf"][u] + [0.0] * 4
        for k in range(4):
            p = pmf[k]
            se = math.sqrt(max(p * (1 - p), 1e-12) / n)
            assert abs(counts[u][k] / n - p) <= 4 * se + 1e-9, (u, k, counts[u][k] / n, p)


def test_fight_command_contract(write):
    p = write("tapeline: 1\nsystem: heresy\nboard: {width: 24, height: 24}\nunits:\n"
              + line("a", "loyal", 10, (10, 11.3, 12.6), "chainsword") + line("b", "traitor", X, (10, 11.3), "power fist"))
    code, out = cli_json("fight", p, "--unit", "a")
    assert code == 0
    for key in ("fighters", "steps", "expected_casualties", "casualties_pmf", "result"):
        assert key in out
    assert set(out["steps"][0]) >= {"initiative", "unit", "models", "attacks", "hit_on", "wound_on", "save_on"}
    assert out["fighters"] == {"a": ["a1", "a2", "a3"], "b": ["b1", "b2"]}
    assert sum(out["casualties_pmf"]["b"]) == pytest.approx(1.0)
    assert out["result"]["a"] + out["result"]["b"] + out["result"]["draw"] == pytest.approx(1.0)
    code, _ = cli_json("fight", p, "--unit", "a", "--weapon", "a1=power fist")
    assert code == 2                                   # a1 carries no power fist


def test_dice_round_recorded():
    # I4: a1–a3 chainswords: hits 4, 5, 1 → 2; wounds 6 (Shred, D2), 2 → 1; save 1 → b1 dies.
    # I1: b2's power fist: hit 4, wound 3 → a1 dies (no save).
    st = fight_file()
    new, events, summary = melee.fight_round(st, "a", RecordedDice([4, 5, 1, 6, 2, 1, 4, 3]), pile_ins=False)
    assert summary["casualties"] == {"a": ["a1"], "b": ["b1"]}
    assert new.turn["fight_casualties"] == {"a": 1, "b": 1}


def test_power_fists_against_a_vehicle():
    # two power fists (S8) at a vehicle (WS 1, rear AV 10, 3 Hull Points): hit 2+ (WS4 v 1),
    # D6 + 8 > 10 on a 3+ penetrates (no armour save), Damage 2 each: both must penetrate,
    # (5/6 · 4/6)² = 0.3086; a glancing hit (a 2) does nothing here
    st = scenario("tapeline: 1\nsystem: heresy\nboard: {width: 24, height: 24}\nunits:\n"
                  + line("a", "loyal", 10, (10, 11.3), "power fist")
                  + f"  - {{id: tank, side: traitor, base: 32, stats: {{unit_type: vehicle, wounds: 3, armour_rear: 10, toughness: 7}}, "
                    f"models: [{{id: v1, at: [{X}, 10]}}]}}\n").state
    o = melee.odds(st, "a")
    assert o["steps"][0]["hit_on"] == 2 and o["fighters"] == {"a": ["a1", "a2"]}
    assert o["casualties_pmf"]["tank"][1] == pytest.approx((5 / 6 * 4 / 6) ** 2, abs=1e-12)


# --- a stated casualty order carries through the round ------------------------------------------
# loy: a1 (I4) and a2 (I1), two attacks each; trt, in file order t3 (W1, Sv 2+), t2 (W2, Sv 5+),
# c1 (W1, Sv 4+, the only traitor with an attack, at I1). Everyone in base contact, WS 4, S 4,
# T 4, the basic close combat weapon (AP –, D1): hits on 4+, wounds on 4+. The defender states
# the order c1, t2, t3 — not file order.

ORDER = """
tapeline: 1
system: heresy
board: {width: 24, height: 24}
units:
  - id: loy
    side: loyal
    base: 32
    stats: {movement: 7, weapon_skill: 4, ballistic_skill: 4, strength: 4, toughness: 4, wounds: 1, initiative: 4, attacks: 2,
            leadership: 7, cool: 7, save: 3, models: {a2: {initiative: 1}}}
    models:
      - {id: a1, at: [10, 10]}
      - {id: a2, at: [10, 11.3]}
  - id: trt
    side: traitor
    base: 32
    stats: {movement: 7, weapon_skill: 4, ballistic_skill: 4, strength: 4, toughness: 4, wounds: 1, initiative: 1, attacks: 0,
            leadership: 7, cool: 7, save: 2, models: {t2: {wounds: 2, save: 5}, c1: {save: 4, attacks: 1}}}
    models:
      - {id: t3, at: [11.259843, 10]}
      - {id: t2, at: [11.259843, 11.3]}
      - {id: c1, at: [8.740157, 11.3]}
"""
STATED = ["c1", "t2", "t3"]
# I4: a1 hits 4, 2 (one hit), wounds 4; c1, first in the stated order, saves 1 (4+): removed.
# I1: a2 hits 6, 6, wounds 5, 5; c1 is gone: t2, next in the stated order (not t3, first in file
#     order), saves 1 (5+, W2 → 1) and 2: removed. c1 fell before its step: trt makes no attack.
ORDER_DICE = [4, 2, 4, 1, 6, 6, 5, 5, 1, 2]


def test_stated_order_carries_through_the_steps_in_a_replay(write):
    f = write(ORDER + f"""
dice: {{rolls: {ORDER_DICE}}}
actions:
  - {{action: fight, unit: loy, casualties: {{trt: {STATED}}}}}
expect:
  - {{expect: casualties, unit: trt, models: [c1, t2], after: 0}}
  - {{expect: casualties, unit: loy, count: 0, after: 0}}
""")
    code, o = cli_json("replay", f)
    assert code == 0 and o["ok"], o
    assert [(e["initiative"], e["models"]) for e in o["events"] if e["type"] == "casualties"] == [(4, ["c1"]), (1, ["t2"])]
    saves = [(e["initiative"], [(s["save_on"], s["removed"]) for s in e["saves"]]) for e in o["events"]
             if e["type"] == "strike" and e["unit"] == "loy"]
    assert saves == [(4, [(4, ["c1"])]), (1, [(5, []), (5, ["t2"])])]


def _brute_force_round(order):
    """The round of ORDER enumerated die by die (every face of every die that is rolled, grouped
    into pass / fail), each wound to the first model of ``order`` still standing: the exact
    joint distribution {(trt removed, loy removed): probability} and the CRP result."""
    sixth = Fraction(1, 6)
    wounds0 = {"t3": 1, "t2": 2, "c1": 1, "a1": 1, "a2": 1}
    save = {"t3": 2, "t2": 5, "c1": 4, "a1": 3, "a2": 3}
    orders = {"trt": list(order), "loy": ["a1", "a2"]}

    def die(tn):                                   # [(passed, probability)] over the six faces
        ok = sum(sixth for face in range(1, 7) if face >= tn)
        return [(True, ok), (False, 1 - ok)]

    def attacks(left, hits, p, out):             # resolve ``hits``: a list of target units
        if not hits:
            key = tuple(sorted(left.items()))
            out[key] = out.get(key, 0) + p
            return
        unit, rest = hits[0], hits[1:]
        for hit, ph in die(4):
            if not hit:
                attacks(left, rest, p * ph, out)
                continue
            for wound, pw in die(4):
                target = next((m for m in orders[unit] if left[m] > 0), None)
                if not wound or target is None:
                    attacks(left, rest, p * ph * pw, out)
                    continue
                for saved, ps in die(save[target]):
                    after = dict(left)
                    if not saved:
                        after[target] -= 1
                    attacks(after, rest, p * ph * pw * ps, out)

    def step(dist, strikers):                     # strikers(left) -> the targets of the step's attacks
        out = {}
        for key, p in dist.items():
            left = dict(key)
            attacks(left, strikers(left), p, out)
        return out

    dist = {tuple(sorted(wounds0.items())): Fraction(1)}
    dist = step(dist, lambda left: ["trt"] * 2 * (left["a1"] > 0))                                   # I4: a1
    dist = step(dist, lambda left: ["trt"] * 2 * (left["a2"] > 0) + ["loy"] * (left["c1"] > 0))      # I1: a2, c1
    joint = {}
    for key, p in dist.items():
        left = dict(key)
        k = (sum(left[m] == 0 for m in ("t3", "t2", "c1")), sum(left[m] == 0 for m in ("a1", "a2")))
        joint[k] = joint.get(k, 0) + p
    win = {"loyal": Fraction(0), "traitor": Fraction(0)}
    draw = Fraction(0)
    for (kt, kl), p in joint.items():
        trt_left, loy_left = 3 - kt, 2 - kl
        if trt_left == 0 or loy_left == 0:        # a side wiped out: Massacre
            win["loyal" if trt_left == 0 else "traitor"] += p
            continue
        pts_loy = kt + (loy_left > trt_left)
        pts_trt = kl + (trt_left > loy_left)
        if pts_loy == pts_trt:
            draw += p
        else:
            win["loyal" if pts_loy > pts_trt else "traitor"] += p
    return joint, win, draw


@pytest.mark.parametrize("stated", [STATED, None])
def test_stated_order_exact_odds_against_brute_force(stated):
    st = scenario(ORDER).state
    joint, win, draw = _brute_force_round(stated or ["t3", "t2", "c1"])   # none stated: file order
    o = melee.odds(st, "loy", casualties={"trt": stated} if stated else None)
    trt = [float(sum(p for (kt, _), p in joint.items() if kt == k)) for k in range(4)]
    loy = [float(sum(p for (_, kl), p in joint.items() if kl == k)) for k in range(3)]
    assert (o["casualties_pmf"]["trt"] + [0.0] * 4)[:4] == pytest.approx(trt, abs=1e-12)
    assert (o["casualties_pmf"]["loy"] + [0.0] * 3)[:3] == pytest.approx(loy, abs=1e-12)
    assert o["sides"]["loyal"] == pytest.approx(float(win["loyal"]), abs=1e-12)
    assert o["sides"]["traitor"] == pytest.approx(float(win["traitor"]), abs=1e-12)
    assert o["result"]["draw"] == pytest.approx(float(draw), abs=1e-12)


def test_stated_order_brute_force_by_hand():
    # the case discriminates, and the enumeration agrees with a count by hand: trt loses nobody
    # only if none of the four attacks at it is an unsaved wound on the first model of its order,
    # who stays first: c1 (Sv 4+: 1/2 · 1/2 · 1/2 = 1/8 each) stated, t3 (Sv 2+: 1/24) in file order
    stated, _, _ = _brute_force_round(STATED)
    file_order, _, _ = _brute_force_round(["t3", "t2", "c1"])
    assert sum(p for (kt, _), p in stated.items() if kt == 0) == Fraction(7, 8) ** 4
    assert sum(p for (kt, _), p in file_order.items() if kt == 0) == Fraction(23, 24) ** 4


def test_stated_order_replay_matches_exact_odds_on_average():
    # the dice engine follows the same carried-through order: a seeded Monte Carlo of the replay
    # agrees with the exact casualty distribution
    st = scenario(ORDER).state
    o = melee.odds(st, "loy", casualties={"trt": STATED})
    n, dice = 2000, SeededDice(2126)
    counts = [0] * 4
    for _ in range(n):
        _new, _ev, summary = melee.fight_round(st, "loy", dice, casualties={"trt": STATED}, pile_ins=False)
        counts[len(summary["casualties"]["trt"])] += 1
    for k, p in enumerate((o["casualties_pmf"]["trt"] + [0.0] * 4)[:4]):
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(counts[k] / n - p) <= 4 * se + 1e-9, (k, counts[k] / n, p)


def test_stated_order_naming_another_units_model_is_refused_where_it_stands(write):
    f = write(ORDER + """
dice: {seed: 1}
actions:
  - {action: fight, unit: loy, casualties: {trt: [c1, a1]}}
""")
    for command in ("check", "replay"):
        code, out, err = cli(command, f)
        assert code == 2 and "actions[0].casualties.trt[1]" in err and "not in unit 'trt'" in err, (command, err)
    st = scenario(ORDER).state
    with pytest.raises(IllegalAction, match="'a1' is not a model of trt"):
        melee.fight_round(st, "loy", SeededDice(1), casualties={"trt": ["c1", "a1"]})
    with pytest.raises(IllegalAction, match="'a1' is not a model of trt"):
        melee.odds(st, "loy", casualties={"trt": ["c1", "a1"]})


def test_stated_order_naming_a_model_dead_before_the_fight_is_refused_where_it_stands(write):
    # action 0 kills c1, first in its order (I4: hits 4, 2; wound 4; save 1), I1: a2 misses
    # twice; action 2 (the next turn) names c1 again
    f = write(ORDER + """
dice: {rolls: [4, 2, 4, 1, 1, 1]}
actions:
  - {action: fight, unit: loy, casualties: {trt: [c1]}}
  - {action: end_turn}
  - {action: fight, unit: loy, casualties: {trt: [c1, t2]}}
""")
    code, out, err = cli("replay", f)
    assert code == 2 and "actions[2].casualties.trt[0]" in err and "'c1' is no longer on the table" in err, err
    st = scenario(ORDER).state.without_models("trt", ["c1"])
    with pytest.raises(IllegalAction, match="'c1' is not a model of trt"):
        melee.fight_round(st, "loy", SeededDice(1), casualties={"trt": ["c1", "t2"]})
