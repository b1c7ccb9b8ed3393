"""Audit of the numbers the StarCraft seeds give (rules guide, Phase 2 and Phase 3) and of IMPACT
and Close Combat odds, each worked out by hand here (binomials, or a sum over hit count, Surge
result and armour failures) — never copied from tapeline's output.

* Phase 3 simulator: 9 Marines' Strike (RoA 1, 5+) at Zerglings (Armour 6+, no Evade in melee):
  a die kills with p = 1/3 · 5/6 = 5/18; mean hits 3, P(at least 1 kill) = 1 − (13/18)^9.
* The rulebook's Zerglings against Marauders and Marines: 6 attacks at the Marauders, 4 at the
  Marines, the Surge Die on the Marauders.
* Phase 2 charge odds: Speed 4 needing 7" → a 3+, 2/3, 5"–10", 7.5" average; with Concussive
  Shells (−2) a 5+, 1/3.
* Phase 2 simulator (C-14 Rifle at Zerglings): the guide's Monte Carlo figures against the exact
  distribution.
* IMPACT (X) Y: Zealot (3) 4+, Goliath (4) 3+, Zergling (1) 5+ against Marines."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from tests.audit.sc_brute import R32, R40, R50, binomial
from tests.conftest import cli, cli_json

HEAD = """tapeline: 1
system: starcraft
name: audit
board: {width: 30, height: 24}
"""


def _row(ident: str, xs, y: float) -> str:
    return ", ".join(f"{{id: {ident}{i + 1}, at: [{x!r}, {y!r}]}}" for i, x in enumerate(xs))


# Nine Marines in a row 1.5" apart, each 0.24" below a Zergling of a row of twelve (1.5" apart).
STRIKE = HEAD + f"""units:
  - {{id: marines, side: terran, profile: marine, models: [{_row("m", [2 + 1.5 * i for i in range(9)], 10)}]}}
  - {{id: zerglings, side: zerg, profile: zergling, models: [{_row("z", [2 + 1.5 * i for i in range(12)], 11.5)}]}}
"""


def _kills(damage_pmf, hp: int, models: int) -> list[float]:
    """Kills from a damage distribution: every model has ``hp``, at most ``models`` die."""
    out = [0.0] * (models + 1)
    for d, p in enumerate(damage_pmf):
        out[min(d // hp, models)] += p
    return out


def _trim(p):
    p = list(p)
    while len(p) > 1 and p[-1] < 1e-15:
        p.pop()
    return p


def test_phase3_simulator_strike_5_plus(write):
    code, o = cli_json("fight", write(STRIKE), "--unit", "marines")
    assert code == 0
    assert o["fighting_rank"] == [f"m{i}" for i in range(1, 10)] and o["supporting_rank"] == []
    assert o["dice"] == {"zerglings": 9} and o["evade"] == {}           # no Evade in melee
    od = o["odds"]["zerglings"]
    assert od["mean_hits"] == pytest.approx(3.0, abs=1e-12)
    assert od["mean_kills"] == pytest.approx(9 * 5 / 18, abs=1e-12)
    assert 1 - od["kills_pmf"][0] == pytest.approx(1 - (13 / 18) ** 9, abs=1e-12)
    assert _trim(od["kills_pmf"]) == pytest.approx(binomial(9, 5 / 18), abs=1e-12)
    # the guide's Monte Carlo (94.4 %, 77.2 %, 51 %, 24 %, 9.4 %, 2.2 %) is a small sample of
    # these exact chances (94.65 %, 76.15 %, 47.68 %, 22.13 %, 7.39 %, 1.72 %)
    guide = [0.944, 0.772, 0.51, 0.24, 0.094, 0.022]
    exact = [sum(binomial(9, 5 / 18)[k:]) for k in range(1, 7)]
    assert od["kills_at_least"][1:7] == pytest.approx(exact, abs=1e-12)
    assert all(abs(g - e) < 0.04 for g, e in zip(guide, exact))


def test_strike_at_burrowed_zerglings_evades(write):
    # BURROWED grants Evade against every attack (Zergling Evade 4+): p = 1/3 · 5/6 · 1/2
    text = STRIKE.replace("profile: zergling,", "profile: zergling, status: [burrowed],")
    code, o = cli_json("fight", write(text), "--unit", "marines")
    assert code == 0 and "zerglings" in o["evade"]
    assert _trim(o["odds"]["zerglings"]["kills_pmf"]) == pytest.approx(binomial(9, 5 / 36), abs=1e-12)


def test_one_weapon_per_model_bayonet(write):
    # m1 fights with its Bayonet (RoA 2, 5+), the others with Strike: 8 + 2 = 10 dice, one
    # Batch per profile; every die still kills with 5/18
    code, o = cli_json("fight", write(STRIKE), "--unit", "marines", "--weapon", "m1=bayonet")
    assert code == 0 and o["weapons"]["m1"] == "bayonet" and o["weapons"]["m2"] == "strike"
    assert o["dice"] == {"zerglings": 10}
    assert _trim(o["odds"]["zerglings"]["kills_pmf"]) == pytest.approx(binomial(10, 5 / 18), abs=1e-12)


# The rulebook's example on our own board: a Marauder mr at (6, 6), a Marine mn at (6, 8.6).
# z1, z2 touch the Marauder only, z3, z4 the Marine only, z5 touches both (the two circles of
# centres in base contact meet at x = (d² + a² − b²) / 2d, a = r50 + r32, b = 2 r32, d = 2.6).
_A, _B, _D = R50 + R32, 2 * R32, 2.6
_X = (_D * _D + _A * _A - _B * _B) / (2 * _D)
_Z5 = (6 + math.sqrt(_A * _A - _X * _X), 6 + _X)
ZERGLINGS = HEAD + f"""units:
  - id: zerglings
    side: zerg
    profile: zergling
    models:
      - {{id: z1, at: [{6 - _A!r}, 6]}}
      - {{id: z2, at: [6, {6 - _A!r}]}}
      - {{id: z3, at: [6, {8.6 + _B!r}]}}
      - {{id: z4, at: [{6 + _B!r}, 8.6]}}
      - {{id: z5, at: [{_Z5[0]!r}, {_Z5[1]!r}]}}
  - {{id: marauders, side: terran, profile: marauder, models: [{{id: mr, at: [6, 6]}}]}}
  - {{id: marines, side: terran, profile: marine, models: [{{id: mn, at: [6, 8.6]}}]}}
"""
SHREDDING = ZERGLINGS.replace("    profile: zergling\n", """    profile: zergling
    stats:
      weapons:
        claws: {name: Shredding Claws, phase: combat, range: E, target: ground, roa: 2, hit: 4,
                surge: [light, armoured], surge_dice: D3, damage: 1}
""")


def _surge_damage(n: int, hit: Fraction, armour_fail: Fraction, surge: bool) -> list[Fraction]:
    """Damage dice of a Batch of ``n`` dice: hits ~ Bin(n, hit); a D3 Surge Die (each of 1, 2, 3
    with 1/3) moves min(S, hits) past Armour if ``surge``; the rest fail Armour with
    ``armour_fail`` each."""
    out = [Fraction(0)] * (n + 1)
    for h in range(n + 1):
        ph = math.comb(n, h) * hit ** h * (1 - hit) ** (n - h)
        for s in (1, 2, 3) if surge else (0,):
            moved = min(s, h)
            rest = h - moved
            for f in range(rest + 1):
                pf = math.comb(rest, f) * armour_fail ** f * (1 - armour_fail) ** (rest - f)
                out[moved + f] += ph * pf * (Fraction(1, 3) if surge else 1)
    return out


def test_rulebook_zerglings_dice(write):
    p = write(ZERGLINGS)
    code, o = cli_json("fight", p, "--unit", "zerglings", "--assign", "z5=marauders", "--surge-to", "marauders")
    assert code == 0
    assert sorted(o["fighting_rank"]) == ["z1", "z2", "z3", "z4", "z5"] and o["supporting_rank"] == []
    assert o["dice"] == {"marauders": 6, "marines": 4} and o["surge_to"] == "marauders"
    assert o["fighters"] == {"zerglings": ["z1", "z2", "z3", "z4", "z5"]}
    # plain Claws surge on Light only: the Surge Die at the (Armoured) Marauders moves nothing,
    # and the Marines get no Surge Die. Marauders: 6 dice, 4+ to hit, Armour 4+ → 1/4 a die,
    # HP 5; Marine: 4 dice, 4+, Armour 5+ → 1/3 a die, HP 2
    mr = _surge_damage(6, Fraction(1, 2), Fraction(1, 2), False)
    mn = _surge_damage(4, Fraction(1, 2), Fraction(2, 3), False)
    assert _trim(o["odds"]["marauders"]["kills_pmf"]) == pytest.approx([float(x) for x in _kills(mr, 5, 1)], abs=1e-12)
    assert o["odds"]["marauders"]["kills_pmf"][1] == pytest.approx(19 / 4096, abs=1e-12)
    assert o["odds"]["marines"]["kills_pmf"][1] == pytest.approx(11 / 27, abs=1e-12)
    assert _trim(o["odds"]["marines"]["kills_pmf"]) == pytest.approx([float(x) for x in _kills(mn, 2, 1)], abs=1e-12)
    # z5 touches both and may go either way; without --assign it takes the first unit it may attack
    code, o = cli_json("fight", p, "--unit", "zerglings", "--assign", "z5=marines")
    assert o["dice"] == {"marauders": 4, "marines": 6}


def test_rulebook_zerglings_with_shredding_claws(write):
    code, o = cli_json("fight", write(SHREDDING), "--unit", "zerglings", "--assign", "z5=marauders",
                       "--surge-to", "marauders")
    assert code == 0 and o["dice"] == {"marauders": 6, "marines": 4} and o["surge_to"] == "marauders"
    mr = _surge_damage(6, Fraction(1, 2), Fraction(1, 2), True)
    assert _trim(o["odds"]["marauders"]["kills_pmf"]) == pytest.approx([float(x) for x in _kills(mr, 5, 1)], abs=1e-12)
    assert o["odds"]["marauders"]["mean_hits"] == pytest.approx(3.0, abs=1e-12)
    # the Marines get no Surge in that fight
    mn = _surge_damage(4, Fraction(1, 2), Fraction(2, 3), False)
    assert _trim(o["odds"]["marines"]["kills_pmf"]) == pytest.approx([float(x) for x in _kills(mn, 2, 1)], abs=1e-12)
    # by default the Surge Die goes to the first target whose tags match the Surge Type: here the
    # Marauders (Armoured) come first
    code, o = cli_json("fight", write(SHREDDING, "d.yaml"), "--unit", "zerglings")
    assert o["surge_to"] == "marauders"


# --- charge odds (Phase 2 guide) ----------------------------------------------------------------

# Two Roaches (Speed 4): r1 needs exactly 7" of straight path to come within 1" of the Marine.
ROACHES = HEAD + f"""units:
  - {{id: roaches, side: zerg, profile: roach, models: [{{id: r1, at: [5, 10]}}, {{id: r2, at: [5, 12.2]}}]}}
  - {{id: marines, side: terran, profile: marine, models: [{{id: m1, at: [{5 + 7 + 1 + R50 + R32!r}, 10]}}]}}
  - {{id: marauders, side: terran, profile: marauder, models: [{{id: mr, at: [25, 20]}}]}}
"""


def test_charge_odds_of_the_rules_guide(write):
    p = write(ROACHES)
    code, o = cli_json("charge", p, "--unit", "roaches", "--target", "marines")
    assert code == 0 and o["distance"] == pytest.approx(7.0, abs=1e-6)
    assert o["min_roll"] == 3 and o["probability"] == pytest.approx(2 / 3, abs=1e-12)
    assert (o["reach"]["min"], o["reach"]["max"], o["reach"]["mean"]) == (5, 10, 7.5)
    code, o = cli_json("charge", p, "--unit", "roaches", "--target", "marines", "--modifier", "-2")
    assert o["min_roll"] == 5 and o["probability"] == pytest.approx(1 / 3, abs=1e-12)
    # "James rolls a 6 and makes it": 4 − 2 + 6 = 8 ≥ 7
    code, o = cli_json("charge", p, "--unit", "roaches", "--target", "marines", "--modifier", "-2", "--roll", "6")
    assert o["success"] is True
    code, o = cli_json("charge", p, "--unit", "roaches", "--target", "marines", "--modifier", "-2", "--roll", "4")
    assert o["success"] is False
    # the status `concussed` applies the same −2 itself
    code, o = cli_json("charge", write(ROACHES.replace("profile: roach,", "profile: roach, status: [concussed],"), "c.yaml"),
                       "--unit", "roaches", "--target", "marines")
    assert o["min_roll"] == 5 and o["probability"] == pytest.approx(1 / 3, abs=1e-12)


# --- Phase 2 simulator: C-14 Rifle at Zerglings ------------------------------------------------

def test_phase2_simulator_c14_at_zerglings(write):
    # 9 Marines (18 dice, 3+, Surge Light D3) at 20 unengaged Zerglings in the open (Armour 6+,
    # no Evade): the guide's Monte Carlo (hits 11.90, kills 10.26; at least 7: 97.6 %, 10:
    # 61.8 %, 15: 2.6 %) against the exact numbers worked out here
    text = HEAD + f"""units:
  - {{id: marines, side: terran, profile: marine, models: [{_row("m", [2 + 1.4 * i for i in range(9)], 4)}]}}
  - {{id: zerglings, side: zerg, profile: zergling, models: [{_row("z", [1 + 1.4 * i for i in range(20)], 12)}]}}
"""
    code, o = cli_json("attack", write(text), "--unit", "marines", "--weapon", "c-14-rifle", "--target", "zerglings")
    assert code == 0 and o["dice"] == 18
    dmg = _surge_damage(18, Fraction(2, 3), Fraction(5, 6), True)
    kills = [float(x) for x in _kills(dmg, 1, 20)]
    assert o["mean_hits"] == pytest.approx(12.0, abs=1e-9)
    assert o["mean_kills"] == pytest.approx(sum(k * p for k, p in enumerate(kills)), abs=1e-9)
    at_least = [sum(kills[k:]) for k in range(len(kills))]
    assert o["kills_at_least"][7] == pytest.approx(at_least[7], abs=1e-9)
    assert o["kills_at_least"][10] == pytest.approx(at_least[10], abs=1e-9)
    for k, guide in ((7, 0.976), (8, 0.89), (9, 0.784), (10, 0.618), (11, 0.438), (12, 0.294),
                     (13, 0.17), (14, 0.068), (15, 0.026)):
        assert abs(at_least[k] - guide) < 0.045, k


# --- IMPACT (X) Y ------------------------------------------------------------------------------

# Three Marines in a row; two Zealots below them, q1 in base contact with m1, q2 0.055" from m2.
IMPACT = HEAD + f"""units:
  - {{id: zealots, side: protoss, profile: zealot, models: [{{id: q1, at: [10, {10 - R40 - R32!r}]}}, {{id: q2, at: [11.8, {10 - R40 - R32!r}]}}]}}
  - {{id: marines, side: terran, profile: marine, models: [{_row("m", [10, 11.4, 12.8], 10)}]}}
"""


def test_zealot_impact_3_4_plus(write):
    code, o = cli_json("fight", write(IMPACT), "--unit", "zealots", "--charged", "zealots")
    assert code == 0
    im = o["impact"]
    assert (im["x"], im["y"]) == (3, 4) and im["dice"] == {"marines": 6}
    # a die: 4+ (1/2), then the Marine's Armour 5+ fails on 1–4 (2/3): 1/3 a die; no Surge,
    # Damage 1; three Marines of HP 2
    want = _kills([float(x) for x in binomial(6, 1 / 3)], 2, 3)
    assert im["odds"]["marines"]["mean_hits"] == pytest.approx(3.0, abs=1e-12)
    assert _trim(im["odds"]["marines"]["kills_pmf"]) == pytest.approx(want, abs=1e-12)
    # the Close Combat Attack that follows: Psi Blades, 8 dice 3+, Surge Light D3 at the Marines
    dmg = _surge_damage(8, Fraction(2, 3), Fraction(2, 3), True)
    assert _trim(o["odds"]["marines"]["kills_pmf"]) == pytest.approx([float(x) for x in _kills(dmg, 2, 3)], abs=1e-12)
    # no --charged: no IMPACT in the answer
    code, o = cli_json("fight", write(IMPACT, "b.yaml"), "--unit", "zealots")
    assert "impact" not in o


def test_goliath_and_zergling_impact(write):
    goliath = HEAD + f"""units:
  - {{id: goliath, side: terran, profile: goliath, models: [{{id: g1, at: [10, {10 - 1.575 - R32 - 0.3!r}]}}]}}
  - {{id: lings, side: zerg, profile: zergling, models: [{_row("z", [8.6, 10, 11.4], 10)}]}}
"""
    code, o = cli_json("fight", write(goliath), "--unit", "goliath", "--charged", "goliath")
    im = o["impact"]
    # IMPACT (4) 3+: 4 dice, 2/3 each; Zergling Armour 6+ fails 5/6; HP 1
    assert (im["x"], im["y"], im["dice"]) == (4, 3, {"lings": 4})
    want = _kills([float(x) for x in binomial(4, 2 / 3 * 5 / 6)], 1, 3)
    assert _trim(im["odds"]["lings"]["kills_pmf"]) == pytest.approx(want, abs=1e-12)
    # IMPACT (1) 5+ for the three Zerglings at the Goliath (Armour 4+, HP 10): no kill possible
    code, o = cli_json("fight", write(goliath, "z.yaml"), "--unit", "lings", "--charged", "lings")
    im = o["impact"]
    assert (im["x"], im["y"]) == (1, 5) and im["dice"]["goliath"] == len(o["fighters"]["lings"])
    assert im["odds"]["goliath"]["mean_hits"] == pytest.approx(im["dice"]["goliath"] / 3, abs=1e-12)
    assert im["odds"]["goliath"]["kills_pmf"] == pytest.approx([1.0])


def test_hidden_units_are_immune_to_impact(write):
    code, o = cli_json("fight", write(IMPACT.replace("profile: marine,", "profile: marine, status: [hidden],")),
                       "--unit", "zealots", "--charged", "zealots")
    assert code == 0 and o["impact"]["dice"] == {}
    # HIDDEN grants Evade against the Close Combat Attack (Marine Evade 5+)
    assert "marines" in o["evade"]
