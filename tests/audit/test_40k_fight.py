"""Audit of a 40k 3rd close combat round (seed "Fighting A Close Combat", "Who Can Fight",
"Special Close Combat Attacks", "Removing Casualties") through ``tapeline fight`` and
``measure``: the charts, attacks, saves, strike order, casualty order, and the exact round
against an independent Markov chain and Monte Carlo of our own (tests/audit/ref40k.py).
Expected values are worked out here from the seed and the digest's charts."""

from __future__ import annotations

import math

import pytest

from tapeline.rules.classic40k.charts import hit_on
from tapeline.rules.melee.charts import wound_chart
from tests.audit import ref40k as ref
from tests.audit.c40k_files import BOY, D25, MARINE, scenario_text, unit
from tests.conftest import cli, cli_json

PISTOL_CCW = ["bolt-pistol", "chainsword"]


def fight(write, units, *args, name="f.yaml", **kw):
    f = write(scenario_text(units, **kw), name)
    code, out = cli_json("fight", f, *args)
    assert code == 0, out
    return out


def step_of(out, unit_id, weapon=None):
    return next(s for s in out["steps"] if s["unit"] == unit_id and (weapon is None or s["weapon"] == weapon))


# --- the charts -----------------------------------------------------------------------------

# the digest's WS chart, typed in row by row (attacker WS 1..10 down, defender WS 1..10 across)
WS_CHART = {
    1: [4, 4, 5, 5, 5, 5, 5, 5, 5, 5],
    2: [3, 4, 4, 4, 5, 5, 5, 5, 5, 5],
    3: [3, 3, 4, 4, 4, 4, 5, 5, 5, 5],
    4: [3, 3, 3, 4, 4, 4, 4, 4, 5, 5],
    5: [3, 3, 3, 3, 4, 4, 4, 4, 4, 4],
    6: [3, 3, 3, 3, 3, 4, 4, 4, 4, 4],
    7: [3, 3, 3, 3, 3, 3, 4, 4, 4, 4],
    8: [3, 3, 3, 3, 3, 3, 3, 4, 4, 4],
    9: [3, 3, 3, 3, 3, 3, 3, 3, 4, 4],
    10: [3, 3, 3, 3, 3, 3, 3, 3, 3, 4],
}


def test_ws_chart_every_cell():
    for a, row in WS_CHART.items():
        assert [hit_on(a, d) for d in range(1, 11)] == row, a


def test_s_v_t_chart_every_cell():
    want = {2: 2, 1: 3, 0: 4, -1: 5, -2: 6, -3: 6}
    for s in range(1, 11):
        for t in range(1, 11):
            d = s - t
            assert wound_chart(s, t) == (2 if d >= 2 else want.get(d)), (s, t)


def _duel(ws=4, s=4, t_ws=4, t_t=4, wargear=PISTOL_CCW, t_extra=None, m_extra=None):
    m = dict(MARINE, weapon_skill=ws, strength=s, wargear=list(wargear), **(m_extra or {}))
    o = dict(BOY, weapon_skill=t_ws, toughness=t_t, **(t_extra or {}))
    return [unit("marines", "imperium", m, {"m1": (10, 10)}), unit("orks", "orks", o, {"o1": (10, 10 + D25)})]


@pytest.mark.parametrize("ws, t_ws, want", [(4, 3, 3), (3, 4, 4), (4, 4, 4), (2, 5, 5), (1, 2, 4), (1, 3, 5)])
def test_derived_cases_1_and_2_to_hit_through_fight(write, ws, t_ws, want):
    out = fight(write, _duel(ws=ws, t_ws=t_ws), "--unit", "marines")
    assert step_of(out, "marines")["hit_on"] == want


@pytest.mark.parametrize("s, t, want", [(4, 3, 3), (3, 4, 5), (3, 6, 6), (3, 7, None)])
def test_derived_case_3_to_wound_through_fight(write, s, t, want):
    out = fight(write, _duel(s=s, t_t=t), "--unit", "marines")
    st = step_of(out, "marines")
    assert st["wound_on"] == want
    if want is None:               # no effect: the Boy can never be hurt this round
        assert out["casualties_pmf"]["orks"] == [pytest.approx(1.0)]


def test_derived_case_4_a_charging_marine_with_pistol_and_chainsword_has_3_attacks(write):
    out = fight(write, _duel(), "--unit", "marines", "--charged", "marines")
    assert out["attacks"]["m1"]["attacks"] == 3 and step_of(out, "marines")["attacks"] == 3
    assert fight(write, _duel(), "--unit", "marines", name="g.yaml")["attacks"]["m1"]["attacks"] == 2     # not charging
    one = fight(write, _duel(wargear=["chainsword"]), "--unit", "marines", "--charged", "marines", name="h.yaml")
    assert one["attacks"]["m1"]["attacks"] == 2                                                              # one weapon


def test_derived_case_5_power_fist(write):
    # S4 doubled: S8 against T4 wounds on 2+; no armour save; strikes after the I2 Boy
    out = fight(write, _duel(wargear=["power-fist"]), "--unit", "marines")
    st = step_of(out, "marines")
    assert (st["wound_on"], st["save_on"]) == (2, None)
    assert [s["unit"] for s in out["steps"]] == ["orks", "marines"] and st["strikes"] == "last"
    # S6 doubled is 10, not 12; S10 against T7 wounds on 2+ (a difference of 3)
    big = fight(write, _duel(wargear=["power-fist"], s=6, t_t=7), "--unit", "marines", name="g.yaml")
    assert big["attacks"]["m1"]["strength"] == 10 and step_of(big, "marines")["wound_on"] == 2


def test_a_fist_and_a_pistol_are_two_close_combat_weapons(write):
    # seed "Attacks": "bonuses for wielding two close combat weapons" — a fist and a pistol are
    # two; A2 sergeant charging: 2 + 1 + 1 = 4, every one at S8; the other reading: 3
    sgt = {"attacks": 2}
    out = fight(write, _duel(wargear=["power-fist", "bolt-pistol"], m_extra=sgt), "--unit", "marines", "--charged", "marines")
    assert out["attacks"]["m1"]["attacks"] == 4 and out["attacks"]["m1"]["strength"] == 8
    assert out["readings"]["c40k_fist_extra_attack"] == "any_weapon"
    other = fight(write, _duel(wargear=["power-fist", "bolt-pistol"], m_extra=sgt), "--unit", "marines", "--charged", "marines",
                  name="g.yaml", settings={"c40k_fist_extra_attack": "second_fist"})
    assert other["attacks"]["m1"]["attacks"] == 3 and other["readings"]["c40k_fist_extra_attack"] == "second_fist"


# --- saves ------------------------------------------------------------------------------------


@pytest.mark.parametrize("wargear, m_extra, t_extra, want", [
    (PISTOL_CCW, None, {"save": 4}, 4),                                    # armour as normal
    (["power-sword"], None, {"save": 2}, None),                            # a power weapon ignores armour
    (["power-sword"], None, {"save": 2, "invulnerable": 5}, 5),            # ... not an invulnerable save
    (PISTOL_CCW, None, {"save": 4, "invulnerable": 5}, 4),                 # the better of the two
    (PISTOL_CCW, None, {"save": 5, "invulnerable": 4}, 4),
    (PISTOL_CCW, {"unit_type": "monstrous_creature"}, {"save": 2}, None),  # monstrous: no armour save
    (PISTOL_CCW, {"unit_type": "monstrous_creature"}, {"save": 2, "invulnerable": 4}, 4),
])
def test_saves(write, wargear, m_extra, t_extra, want):
    out = fight(write, _duel(wargear=wargear, m_extra=m_extra, t_extra=t_extra), "--unit", "marines")
    assert step_of(out, "marines")["save_on"] == want


def test_cover_gives_no_save_in_close_combat(write):
    # the Boy stands in a ruin (cover): its save stays its armour, 6+
    ruin = {"id": "ruin", "footprint": {"rect": [8, 10.6, 4, 2]}, "height": 2, "traits": ["cover"]}
    out = fight(write, _duel(), "--unit", "marines", terrain=[ruin])
    assert step_of(out, "marines")["save_on"] == 6


# --- who fights, measure ----------------------------------------------------------------------


def test_who_fights_every_model_within_2_inches_and_measure(write):
    # o1 touches m1; o2 is exactly 2" from m1 (in); o3 2.01" (out); m2 is 1.5" from o1
    units = [unit("marines", "imperium", dict(MARINE, wargear=PISTOL_CCW), {"m1": (10, 10), "m2": (10 - D25 - 1.5, 10 + D25)}),
             unit("orks", "orks", BOY, {"o1": (10, 10 + D25), "o2": (10 + D25 + 2.0, 10), "o3": (10, 10 - D25 - 2.01)})]
    f = write(scenario_text(units))
    code, out = cli_json("fight", f, "--unit", "orks")
    assert code == 0
    assert out["fighters"] == {"marines": ["m1", "m2"], "orks": ["o1", "o2"]}
    code, m = cli_json("measure", f, "m2", "o1")
    assert code == 0 and m["gap"] == pytest.approx(1.5, abs=1e-9)
    assert (m["contact"], m["engagement_range"], m["engaged"]) == (False, True, True)
    code, m = cli_json("measure", f, "m1", "o1")
    assert (m["contact"], m["engagement_range"], m["engaged"]) == (True, True, True) and abs(m["gap"]) < 1e-9
    code, m = cli_json("measure", f, "m1", "o3")
    assert (m["contact"], m["engagement_range"], m["engaged"]) == (False, False, False)
    assert m["gap"] == pytest.approx(2.01, abs=1e-9)


# --- strike order -----------------------------------------------------------------------------


RUIN = {"id": "ruin", "footprint": {"rect": [8, 10.6, 4, 2]}, "height": 2, "traits": ["cover"]}
P_M = 1 / 2 * 1 / 2 * 5 / 6            # one marine attack kills a Boy: 4+, 4+, Boy's 6+ save fails
P_O = 1 / 2 * 1 / 3 * 1 / 3            # one Boy attack kills a marine: 4+, 5+, marine's 3+ fails


def test_defenders_in_cover_strike_first(write):
    # the marine assaulted (3 attacks); the Boy in the ruin strikes first with its 2 attacks
    out = fight(write, _duel(), "--unit", "marines", "--charged", "marines", terrain=[RUIN])
    assert [(s["unit"], s["strikes"]) for s in out["steps"]] == [("orks", "first"), ("marines", "initiative")]
    q = 1 - (1 - P_O) ** 2
    assert out["casualties_pmf"]["marines"][1] == pytest.approx(q, abs=1e-12)
    assert out["casualties_pmf"]["orks"][1] == pytest.approx((1 - q) * (1 - (1 - P_M) ** 3), abs=1e-12)
    # not assaulted this turn (no --charged): Initiative order, the marine first
    calm = fight(write, _duel(), "--unit", "marines", terrain=[RUIN], name="g.yaml")
    assert [s["unit"] for s in calm["steps"]] == ["marines", "orks"]


def test_behind_cover_counts_too(write):
    # a thin wall with the trait cover between the Boy and the marine, 1" apart: the Boy is
    # behind cover and strikes first
    wall = {"id": "wall", "footprint": {"rect": [9, 11.45, 2, 0.1]}, "height": 1, "traits": ["cover"]}
    units = [unit("marines", "imperium", dict(MARINE, wargear=PISTOL_CCW), {"m1": (10, 10)}),
             unit("orks", "orks", BOY, {"o1": (10, 10 + D25 + 1.0)})]
    out = fight(write, units, "--unit", "marines", "--charged", "marines", terrain=[wall])
    assert [(s["unit"], s["strikes"]) for s in out["steps"]] == [("orks", "first"), ("marines", "initiative")]


def test_frag_grenades_make_the_defenders_fight_simultaneously(write):
    # seed "Frag Grenades": the marine with frag grenades and the Boy in cover strike together,
    # first; each side's losses are then independent
    units = _duel(wargear=PISTOL_CCW + ["frag-grenades"])
    out = fight(write, units, "--unit", "marines", "--charged", "marines", terrain=[RUIN])
    assert {(s["unit"], s["step"], s["strikes"]) for s in out["steps"]} == {("orks", 0, "first"), ("marines", 0, "first")}
    assert out["readings"]["c40k_frag_grenades"] == "simultaneous"
    assert out["casualties_pmf"]["orks"][1] == pytest.approx(1 - (1 - P_M) ** 3, abs=1e-12)
    assert out["casualties_pmf"]["marines"][1] == pytest.approx(1 - (1 - P_O) ** 2, abs=1e-12)
    # the other reading: the first strike is lost, Initiative order (the marine's I4 first)
    ini = fight(write, units, "--unit", "marines", "--charged", "marines", terrain=[RUIN], name="g.yaml",
                settings={"c40k_frag_grenades": "initiative"})
    assert [(s["unit"], s["strikes"]) for s in ini["steps"]] == [("marines", "initiative"), ("orks", "initiative")]
    pk = 1 - (1 - P_M) ** 3
    assert ini["casualties_pmf"]["marines"][1] == pytest.approx((1 - pk) * (1 - (1 - P_O) ** 2), abs=1e-12)


def test_equal_initiatives_strike_simultaneously(write):
    # an I4 Boy against an I4 marine (1 attack, one weapon): one step; both may die
    units = _duel(wargear=["chainsword"], t_extra={"initiative": 4})
    out = fight(write, units, "--unit", "marines")
    assert {s["step"] for s in out["steps"]} == {0}
    pm, qo = P_M, 1 - (1 - P_O) ** 2
    assert out["casualties_pmf"]["orks"][1] == pytest.approx(pm, abs=1e-12)
    assert out["casualties_pmf"]["marines"][1] == pytest.approx(qo, abs=1e-12)
    tie = (1 - pm) * (1 - qo)                  # 0 wounds each: roll off, 15/36 each, 6/36 drawn
    assert out["result"]["draw"] == pytest.approx(pm * qo + tie * 6 / 36, abs=1e-12)      # both wiped out: drawn
    assert out["result"]["marines"] == pytest.approx(pm * (1 - qo) + tie * 15 / 36, abs=1e-12)
    assert out["result"]["orks"] == pytest.approx((1 - pm) * qo + tie * 15 / 36, abs=1e-12)


def test_a_power_fist_strikes_last_even_from_cover(write):
    # a Nob with a fist in the ruin: the marine (I4) strikes before it although it is in cover
    units = _duel(t_extra={"strength": 4, "wargear": ["power-fist"]})
    out = fight(write, units, "--unit", "marines", "--charged", "marines", terrain=[RUIN])
    assert [(s["unit"], s["strikes"]) for s in out["steps"]] == [("marines", "initiative"), ("orks", "last")]
    # with frag grenades: the fist still last
    units = _duel(wargear=PISTOL_CCW + ["frag-grenades"], t_extra={"strength": 4, "wargear": ["power-fist"]})
    out = fight(write, units, "--unit", "marines", "--charged", "marines", terrain=[RUIN], name="g.yaml")
    assert [(s["unit"], s["strikes"]) for s in out["steps"]][-1] == ("orks", "last")


# --- the exact round against our own engines --------------------------------------------------


def brawl_units():
    """Four marines (pistol and chainsword) and a sergeant (power fist, pistol, A2) assaulted
    a mob: four Boyz and a Nob (W2, S4, A3, power fist) in base contact, two Boyz 1.316" behind,
    one more 3.5" behind (it does not fight)."""
    xs = [10, 11.2, 12.4, 13.6]
    marines = {f"m{i + 1}": (x, 10) for i, x in enumerate(xs)} | {"sgt": (14.8, 10)}
    boyz = {f"b{i + 1}": (x, 10 + D25) for i, x in enumerate(xs)} | {"nob": (14.8, 10 + D25), "b5": (10.6, 12.3), "b6": (12.0, 12.3),
                                                                     "b7": (11.0, 14.5)}
    mstats = dict(MARINE, wargear=PISTOL_CCW, models={"sgt": {"attacks": 2, "wargear": ["power-fist", "bolt-pistol"]}})
    ostats = dict(BOY, models={"nob": {"wounds": 2, "strength": 4, "attacks": 3, "wargear": ["power-fist"]}})
    return [unit("marines", "imperium", mstats, marines, status=["charged"]), unit("orks", "orks", ostats, boyz)]


#: Who is within 2" of whom in the brawl, by hand: two 25 mm bases (0.984" across) are within 2"
#: when their centres are at most 2.984" apart. In a row (dy 0.984) that is dx ≤ 2.4 (2.594"),
#: not 3.6; b5 and b6 (dy 2.3 from the marines) need dx ≤ (2.984² − 2.3²)^½ = 1.901.
BRAWL_FOES = {
    "m1": ("b1", "b2", "b3", "b5"), "m2": ("b1", "b2", "b3", "b4", "b5", "b6"),
    "m3": ("b1", "b2", "b3", "b4", "nob", "b5", "b6"), "m4": ("b2", "b3", "b4", "nob", "b6"), "sgt": ("b3", "b4", "nob"),
    "b1": ("m1", "m2", "m3"), "b2": ("m1", "m2", "m3", "m4"), "b3": ("m1", "m2", "m3", "m4", "sgt"),
    "b4": ("m2", "m3", "m4", "sgt"), "nob": ("m3", "m4", "sgt"), "b5": ("m1", "m2", "m3"), "b6": ("m2", "m3", "m4"),
}


def brawl_reference(fresh: str = "within_2") -> ref.Round:
    # by hand: each marine 1 + 1 (charged) + 1 (two weapons) = 3 attacks, 4+ / 4+ (S4 v T4) /
    # Boy save 6+; the sergeant 2 + 1 + 1 = 4 at S8: 4+ / 2+ / no save, last; each fighting Boy
    # 2 attacks 4+ / 5+ (S3 v T4) / marine 3+; the Nob 3 fist attacks 4+ / 2+ / no save, last.
    # Casualties: base contact first (file order), then within 2", then the rest. Reading
    # "within_2": a model strikes while one of its foes within 2" stands (the sergeant's fist
    # not once b1-b4 and the Nob have fallen at I4: b5-b7 are beyond 2" of him).
    M, O = "marines", "orks"
    foes = (lambda m: BRAWL_FOES[m]) if fresh == "within_2" else (lambda m: None)
    units = [ref.Unit(M, "imperium", [ref.Model(m, 1, 3) for m in ("m1", "m2", "m3", "m4", "sgt")]),
             ref.Unit(O, "orks", [ref.Model(b, 1, 6) for b in ("b1", "b2", "b3", "b4")] + [ref.Model("nob", 2, 6)] +
                      [ref.Model(b, 1, 6) for b in ("b5", "b6", "b7")])]
    fighters = [ref.Fighter(m, M, 0, 3, (ref.Option(O, 4, 4, foes=foes(m)),)) for m in ("m1", "m2", "m3", "m4")]
    fighters += [ref.Fighter(b, O, 1, 2, (ref.Option(M, 4, 5, foes=foes(b)),)) for b in ("b1", "b2", "b3", "b4", "b5", "b6")]
    fighters += [ref.Fighter("sgt", M, 2, 4, (ref.Option(O, 4, 2, True, foes("sgt")),)),
                 ref.Fighter("nob", O, 2, 3, (ref.Option(M, 4, 2, True, foes("nob")),))]
    return ref.Round(units, fighters)


def test_brawl_steps_as_worked_by_hand(write):
    out = fight(write, brawl_units(), "--unit", "marines")
    assert out["fighters"] == {"marines": ["m1", "m2", "m3", "m4", "sgt"], "orks": ["b1", "b2", "b3", "b4", "nob", "b5", "b6"]}
    got = [(s["unit"], s["strikes"], s["attacks"], s["hit_on"], s["wound_on"], s["save_on"]) for s in out["steps"]]
    assert got == [("marines", "initiative", 12, 4, 4, 6), ("orks", "initiative", 12, 4, 5, 3),
                   ("marines", "last", 4, 4, 2, None), ("orks", "last", 3, 4, 2, None)]


@pytest.mark.parametrize("fresh", ["within_2", "any_of_unit"])
def test_brawl_exact_round_equals_our_markov_chain(write, fresh):
    out = fight(write, brawl_units(), "--unit", "marines", settings={"c40k_fresh_opponent": fresh})
    assert out["readings"]["c40k_fresh_opponent"] == fresh
    rnd = brawl_reference(fresh)
    dist = ref.exact(rnd)
    for u in ("marines", "orks"):
        want = ref.casualties_pmf(rnd, dist, u)
        got = out["casualties_pmf"][u]
        assert len(got) == len(want) and all(abs(a - b) < 1e-9 for a, b in zip(got, want)), u
        assert out["expected_casualties"][u] == pytest.approx(sum(k * p for k, p in enumerate(want)), abs=1e-9)
    res = ref.result(rnd, dist)
    assert out["result"]["marines"] == pytest.approx(res["imperium"], abs=1e-9)
    assert out["result"]["orks"] == pytest.approx(res["orks"], abs=1e-9)
    assert out["result"]["draw"] == pytest.approx(res["draw"], abs=1e-9)


def test_brawl_exact_round_within_4_standard_errors_of_our_monte_carlo(write):
    out = fight(write, brawl_units(), "--unit", "marines")
    rnd = brawl_reference()
    n = 20_000
    states = ref.simulate(rnd, n, seed=2024)
    for u in ("marines", "orks"):
        mc = ref.mc_casualties(rnd, states, u)
        for k, p in enumerate(out["casualties_pmf"][u]):
            q = mc[k] if k < len(mc) else 0.0
            assert abs(p - q) <= 4 * math.sqrt(max(p * (1 - p), 1 / n) / n), (u, k, p, q)
    mres = ref.mc_result(rnd, states)
    for key, side in (("marines", "imperium"), ("orks", "orks"), ("draw", "draw")):
        p = out["result"][key]
        assert abs(p - mres[side]) <= 4 * math.sqrt(max(p * (1 - p), 1 / n) / n), key


def _fails_leadership(target: int) -> float:
    """P(2D6 > target), by enumerating the 36 rolls."""
    return sum(a + b > target for a in range(1, 7) for b in range(1, 7)) / 36


@pytest.mark.parametrize("modifier", ["none", "per_wound"])
def test_brawl_chance_the_orks_fall_back(write, modifier):
    # the Orks fall back when they lose (more wounds against them, or the roll-off: 15/36) with
    # models left and fail 2D6 <= Ld 7 (every Boy and the Nob: Ld 7), less the margin lost by
    # with the per-wound modifier (a roll-off loss: margin 0)
    out = fight(write, brawl_units(), "--unit", "marines", settings={"c40k_morale_modifier": modifier})
    rnd = brawl_reference()
    want = 0.0
    for st, p in ref.exact(rnd).items():
        if not ref._has_models(rnd, st, "orks") or not ref._has_models(rnd, st, "marines"):
            continue                                   # destroyed, or winning outright: no test
        margin = ref.wounds_lost(rnd, st, "orks") - ref.wounds_lost(rnd, st, "marines")
        lose = 1.0 if margin > 0 else ref.ROLL_OFF[0] if margin == 0 else 0.0
        want += p * lose * _fails_leadership(7 - (max(margin, 0) if modifier == "per_wound" else 0))
    assert out["falls_back"]["orks"] == pytest.approx(want, abs=1e-9)


# --- a fresh opponent -------------------------------------------------------------------------


def fresh_units():
    """m1 (pistol, chainsword) 0.568" from the Boy o1; the sergeant (power fist only, A2) in base
    contact with o1 and 1.016" from the Grot g1 (another unit); m1 is 2.216" from g1."""
    mstats = dict(MARINE, wargear=PISTOL_CCW, models={"sgt": {"attacks": 2, "wargear": ["power-fist"]}})
    return [unit("marines", "imperium", mstats, {"m1": (10, 10), "sgt": (11.2, 10)}),
            unit("boyz", "orks", BOY, {"o1": (11.2, 10 + D25)}),
            unit("grots", "orks", BOY, {"g1": (13.2, 10)})]


def test_a_fist_whose_foe_fell_strikes_a_fresh_opponent(write):
    # I4: m1's 2 attacks at the Boy (its only foe); I2: the Boy (if alive) and the Grot, 2
    # attacks each at the marines, the sergeant (in base contact) taken first; last: the
    # sergeant's 2 fist attacks at the Boy — or, the Boy fallen, at the Grot within 2" of him
    out = fight(write, fresh_units(), "--unit", "marines")
    fist = step_of(out, "marines", "power-fist")
    assert fist["target"] == "boyz" and fist["fresh_opponents"] == ["grots"]
    M, A, G = "marines", "boyz", "grots"
    rnd = ref.Round([ref.Unit(M, "imperium", [ref.Model("sgt", 1, 3), ref.Model("m1", 1, 3)]),
                     ref.Unit(A, "orks", [ref.Model("o1", 1, 6)]), ref.Unit(G, "orks", [ref.Model("g1", 1, 6)])],
                    [ref.Fighter("m1", M, 0, 2, (ref.Option(A, 4, 4),)),
                     ref.Fighter("o1", A, 1, 2, (ref.Option(M, 4, 5),)), ref.Fighter("g1", G, 1, 2, (ref.Option(M, 4, 5),)),
                     ref.Fighter("sgt", M, 2, 2, (ref.Option(A, 4, 2, True), ref.Option(G, 4, 2, True)))])
    dist = ref.exact(rnd)
    for u in (M, A, G):
        assert out["casualties_pmf"][u] == pytest.approx(ref.casualties_pmf(rnd, dist, u), abs=1e-9), u
    res = ref.result(rnd, dist)
    assert out["result"]["draw"] == pytest.approx(res["draw"], abs=1e-9)
    assert out["result"]["grots"] == out["result"]["boyz"] == pytest.approx(res["orks"], abs=1e-9)
    # by hand, the Grot falls only to the fist after the Boy fell to m1 and the sergeant lived:
    # P = (1 − (19/24)²) · P(sgt survives the I2 strikes | Boy dead: the Grot's 2 attacks)
    #     · (1 − (1 − 1/2 · 5/6)²)
    p_boy = 1 - (1 - P_M) ** 2
    p_sgt = (1 - P_O) ** 2
    assert out["casualties_pmf"]["grots"][1] == pytest.approx(p_boy * p_sgt * (1 - (1 - 5 / 12) ** 2), abs=1e-12)


# --- casualties: base contact first ------------------------------------------------------------


def _contact_first(write, extra_action="", name="c.yaml"):
    # o_far is first in the file but 1.5" away; o_near touches the marine. Dice: to hit 6 1,
    # to wound 6, save 1 (fails): one casualty, taken from base contact: o_near; then o_far's 2
    # attacks miss (1 1)
    units = [unit("marines", "imperium", dict(MARINE, wargear=PISTOL_CCW), {"m1": (10, 10)}),
             unit("orks", "orks", BOY, {"o_far": (10 - D25 - 1.5, 10), "o_near": (10, 10 + D25)})]
    act = "{action: fight, unit: marines" + extra_action + "}"
    return write(scenario_text(units, actions=[act], dice=[6, 1, 6, 1, 1, 1]), name)


def test_casualties_come_from_base_contact_first(write):
    code, out = cli_json("replay", _contact_first(write))
    assert code == 0
    cas = [e for e in out["events"] if e["type"] == "casualties"]
    assert [(e["unit"], e["models"]) for e in cas] == [("orks", ["o_near"])]
    res = next(e for e in out["events"] if e["type"] == "assault_result")
    assert (res["winner"], res["wounds"]) == ("imperium", {"imperium": 1, "orks": 0})
    # the defender may not remove the model 1.5" away first
    code, text, err = cli("replay", _contact_first(write, ", casualties: {orks: [o_far]}", "d.yaml"))
    assert code == 2 and "actions[0]" in err and "Removing Casualties" in err and "Traceback" not in err


# --- the command line: --after, determinism ---------------------------------------------------


def test_fight_after_the_assault_and_the_replay_are_deterministic(write):
    # the marines assault from 3" away (each straight up into contact); `fight --after 0` asks the
    # state after it: the same answer as a file with the marines already in contact and charged
    mstats = dict(MARINE, wargear=PISTOL_CCW)
    start = [unit("marines", "imperium", mstats, {"m1": (10, 7), "m2": (12, 7)}), unit("orks", "orks", BOY, {"o1": (10, 10 + D25), "o2": (12, 10 + D25)})]
    acts = ["{action: assault, unit: marines, targets: [orks]}", "{action: fight, unit: marines}"]
    f = write(scenario_text(start, actions=acts, dice=7))
    code, after = cli_json("fight", f, "--unit", "marines", "--after", "0")
    assert code == 0
    placed = [unit("marines", "imperium", mstats, {"m1": (10, 10), "m2": (12, 10)}, status=["charged"]),
              unit("orks", "orks", BOY, {"o1": (10, 10 + D25), "o2": (12, 10 + D25)})]
    direct = fight(write, placed, "--unit", "marines", name="direct.yaml")
    assert after["steps"] == direct["steps"]
    for u in ("marines", "orks"):
        assert after["casualties_pmf"][u] == pytest.approx(direct["casualties_pmf"][u], abs=1e-9)
    # each charging marine: 3 attacks; 6 in all at 4+ / 4+ / 6+
    assert step_of(after, "marines")["attacks"] == 6
    assert after["casualties_pmf"]["orks"][0] == pytest.approx((1 - P_M) ** 6, abs=1e-7)
    # the same file and seed: the same event log, byte for byte
    runs = [cli("replay", f, "--json")[1] for _ in range(2)]
    assert runs[0] == runs[1] and '"assault_result"' in runs[0]


# --- allocating attacks -------------------------------------------------------------------------


def test_attacks_split_between_a_boy_and_a_grot_before_rolling(write):
    # m1 (A2 + 1 for pistol and chainsword = 3) touches the Boy o1 and the Grot g1: 2 attacks at
    # the Boy (WS4 v WS4: 4+, S4 v T4: 4+), 1 at the Grot (WS4 v WS2: 3+, S4 v T2: 2+), each
    # rolled as its own group; 4 allocated of 3 is refused, naming the rule
    grot = {"weapon_skill": 2, "strength": 2, "toughness": 2, "wounds": 1, "initiative": 2, "attacks": 1, "leadership": 5, "save": 7}
    units = [unit("marines", "imperium", dict(MARINE, attacks=2, wargear=PISTOL_CCW), {"m1": (10, 10)}),
             unit("orks", "orks", BOY, {"o1": (10, 10 + D25)}), unit("grots", "orks", grot, {"g1": (10 + D25, 10)})]

    def run(split, name):
        return cli_json("replay", write(scenario_text(units, dice=5, actions=["{action: fight, unit: marines, targets: {m1: " + split + "}}"]), name))

    code, out = run("{orks: 2, grots: 1}", "split.yaml")
    assert code == 0
    got = sorted((e["target"], e["attacks"], e["hit_on"], e["wound_on"]) for e in out["events"] if e["type"] == "strike" and e["unit"] == "marines")
    assert got == [("grots", 1, 3, 2), ("orks", 2, 4, 4)]
    f = write(scenario_text(units, dice=5, actions=["{action: fight, unit: marines, targets: {m1: {orks: 3, grots: 1}}}"]), "bad.yaml")
    code, _, err = cli("replay", f)
    assert code == 2 and "actions[0]" in err and "Allocating Attacks" in err and "Traceback" not in err
