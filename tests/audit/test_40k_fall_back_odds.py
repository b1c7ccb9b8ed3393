"""Audit of the chance to fall back in a 40k 3rd close combat (seed "Loser Checks Morale"; digest
§B.9): the losing unit tests on the Leadership of the models it has left after the round (its
highest, a leader's while he stands), as the replay's morale test does — not on the Leadership
it had when the round began.

The expected values are worked out here: by enumerating every face of every die of a small
round (exact fractions), and by hand; a seeded run of replays is a further cross-check."""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction
from itertools import product

import pytest

import tapeline
from tapeline.rules.classic40k.system import Classic40k
from tapeline.rules.dice import SeededDice
from tests.audit.c40k_files import D25, MARINE, scenario_text, unit
from tests.conftest import cli_json

#: A Guardsman: WS3 S3 T3 W1 I3 A1 Ld7 Sv5+.
GUARD = {"weapon_skill": 3, "strength": 3, "toughness": 3, "wounds": 1, "initiative": 3, "attacks": 1, "leadership": 7, "save": 5}
#: The Sergeant Ld 9, the first trooper Ld 8, the second the squad's Ld 7.
SQUAD = dict(GUARD, models={"sgt": {"leadership": 9}, "t1": {"leadership": 8}})
MODES = ["none", "per_wound"]
SIXTH = Fraction(1, 6)
PAIRS = list(product(range(1, 7), repeat=2))


def fight(write, units, settings, name="f.yaml"):
    f = write(scenario_text(units, settings=settings), name)
    code, out = cli_json("fight", f, "--unit", "marines")
    assert code == 0, out
    return out


# --- the brute force: every face of every die ---------------------------------------------------


def successes(n: int, tn) -> dict[int, Fraction]:
    """How many of ``n`` dice score ``tn`` or more (``None``: none can), by enumerating the 6^n
    faces."""
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for faces in product(range(1, 7), repeat=n):
        out[0 if tn is None else sum(f >= tn for f in faces)] += SIXTH ** n
    return out


def unsaved(saves: list[int], removed: int, wounds: int) -> dict[int, Fraction]:
    """Models removed after ``wounds`` wounds, from ``removed`` gone: each wound goes to the next
    model of the casualty order (``saves``: each one's armour save), which rolls its save — the
    6^wounds save faces enumerated (a wound with no model left is lost)."""
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for faces in product(range(1, 7), repeat=wounds):
        k = removed
        for f in faces:
            if k < len(saves) and f < saves[k]:
                k += 1
        out[k] += SIXTH ** wounds
    return out


def strike(n: int, hit: int, wound, saves: list[int], removed: int) -> dict[int, Fraction]:
    """``n`` attacks: the hit dice, a wound die for each hit, a save for each wound."""
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for h, ph in successes(n, hit).items():
        for w, pw in successes(h, wound).items():
            for k, pk in unsaved(saves, removed, w).items():
                out[k] += ph * pw * pk
    return out


def fails(target: int) -> Fraction:
    """P(2D6 > ``target``): the 36 rolls of the Leadership test."""
    return Fraction(sum(a + b > target for a, b in PAIRS), 36)


#: The roll-off of equal wounds: P(the first side's D6 higher), P(the second's higher).
FIRST_HIGHER = Fraction(sum(a > b for a, b in PAIRS), 36)
SECOND_HIGHER = Fraction(sum(a < b for a, b in PAIRS), 36)


def fall_back(rnd: dict, squad_ld, marines_ld: int, squad_size: int, marines_size: int, mode: str) -> dict[str, Fraction]:
    """{unit: P(it loses and fails its test)} from the round's joint distribution of (guards
    removed, Marines removed): a side wiped out does not test and loses to its enemy outright;
    more wounds inflicted wins (every model W1: wounds are models); equal wounds roll off. The
    guards test on ``squad_ld(k)`` with ``k`` of them removed."""
    out = {"guards": Fraction(0), "marines": Fraction(0)}
    for (k, j), p in rnd.items():
        if k == squad_size or j == marines_size:
            continue
        if k > j:
            losers = [("guards", Fraction(1), k - j)]
        elif j > k:
            losers = [("marines", Fraction(1), j - k)]
        else:
            losers = [("guards", FIRST_HIGHER, 0), ("marines", SECOND_HIGHER, 0)]
        for who, chance, margin in losers:
            ld = squad_ld(k) if who == "guards" else marines_ld
            out[who] += p * chance * fails(ld - (margin if mode == "per_wound" else 0))
    return out


# --- a Sergeant often among the casualties --------------------------------------------------------


def sergeant_first_units():
    """The Sergeant (Ld 9), t1 (Ld 8) and t2 (Ld 7) in a line 1" apart; two Marines (A2, bare
    hands: 2 Attacks each, not charging) in base contact with sgt and t1, t2 within 2" of m2
    (0.419"). Casualty order: sgt, t1 (base contact, file order), t2."""
    return [unit("guards", "guard", SQUAD, {"sgt": (10, 10), "t1": (11, 10), "t2": (12, 10)}),
            unit("marines", "imperium", dict(MARINE, attacks=2), {"m1": (10, 10 + D25), "m2": (11, 10 + D25)})]


def sergeant_first_round() -> dict[tuple[int, int], Fraction]:
    """Marines strike first (I4): 4 attacks, 3+ to hit (WS4 v WS3), 3+ to wound (S4 v T3),
    guard saves 5+ in the order sgt, t1, t2; then the guards left (I3), 1 attack each: 4+ to
    hit (WS3 v WS4), 5+ to wound (S3 v T4), Marine saves 3+ (m1, m2)."""
    out: defaultdict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for k, pk in strike(4, 3, 3, [5, 5, 5], 0).items():
        for j, pj in strike(3 - k, 4, 5, [3, 3], 0).items():
            out[(k, j)] += pk * pj
    return out


LD_LEFT = [9, 8, 7]            # the guards' highest Leadership with k removed (sgt, then t1, then t2)


@pytest.mark.parametrize("mode", MODES)
def test_the_survivors_leadership_when_the_sergeant_falls_first(write, mode):
    out = fight(write, sergeant_first_units(), {"c40k_morale_modifier": mode})
    assert [s["attacks"] for s in out["steps"]] == [4, 3]        # the round the enumeration reads
    rnd = sergeant_first_round()
    for u, idx in (("guards", 0), ("marines", 1)):
        pmf: defaultdict[int, Fraction] = defaultdict(Fraction)
        for key, p in rnd.items():
            pmf[key[idx]] += p
        assert out["casualties_pmf"][u] == pytest.approx([float(pmf[k]) for k in range(len(out["casualties_pmf"][u]))], abs=1e-12)
    want = fall_back(rnd, lambda k: LD_LEFT[k], 8, 3, 2, mode)
    assert out["falls_back"]["guards"] == pytest.approx(float(want["guards"]), abs=1e-12)
    assert out["falls_back"]["marines"] == pytest.approx(float(want["marines"]), abs=1e-12)
    # the start-of-round reading (Ld 9 whoever fell) is a different answer: the Sergeant falls
    # first in 1 − (19/27)^4 = 75 % of rounds
    old = fall_back(rnd, lambda k: 9, 8, 3, 2, mode)
    assert abs(float(old["guards"]) - out["falls_back"]["guards"]) > 0.02


# --- a Sergeant who cannot fall ------------------------------------------------------------------


def sergeant_safe_units():
    """One Marine (A1, T7: the guards' S3 cannot wound it) in base contact with t1 only; sgt
    and t2 within 2" of it. Casualty order t1, sgt, t2: its one attack can remove t1 at most, so
    the guards always test on the Sergeant's Ld 9."""
    return [unit("guards", "guard", SQUAD, {"sgt": (11, 10), "t1": (10, 10), "t2": (9, 10)}),
            unit("marines", "imperium", dict(MARINE, toughness=7), {"m1": (10, 10 + D25)})]


@pytest.mark.parametrize("mode, guards, marines", [
    # the Marine kills t1 with (4/6)^3 = 8/27 (3+ hit, 3+ wound, the 5+ save failed): the
    # guards lose by 1 and test on Ld 9 (with the modifier: 8); else 0 - 0 and the roll-off
    # (the Marine higher: 15/36) loses it for the guards (margin 0), or for the Marine (15/36,
    # Ld 8: fails on 9+, 10/36). P(2D6 > 9) = 6/36, P(2D6 > 8) = 10/36.
    ("none", Fraction(8, 27) * Fraction(6, 36) + Fraction(19, 27) * Fraction(15, 36) * Fraction(6, 36),
     Fraction(19, 27) * Fraction(15, 36) * Fraction(10, 36)),
    ("per_wound", Fraction(8, 27) * Fraction(10, 36) + Fraction(19, 27) * Fraction(15, 36) * Fraction(6, 36),
     Fraction(19, 27) * Fraction(15, 36) * Fraction(10, 36)),
])
def test_a_sergeant_who_cannot_fall_keeps_the_units_leadership(write, mode, guards, marines):
    out = fight(write, sergeant_safe_units(), {"c40k_morale_modifier": mode})
    assert [(s["unit"], s["attacks"], s["hit_on"], s["wound_on"], s["save_on"]) for s in out["steps"]] == [
        ("marines", 1, 3, 3, 5), ("guards", 3, 4, None, 3)]
    assert out["casualties_pmf"]["guards"] == pytest.approx([19 / 27, 8 / 27], abs=1e-12)
    assert out["falls_back"]["guards"] == pytest.approx(float(guards), abs=1e-12)
    assert out["falls_back"]["marines"] == pytest.approx(float(marines), abs=1e-12)


# --- the replay's reading -----------------------------------------------------------------------


def test_the_odds_agree_with_replayed_morale_tests(write):
    # 1,500 seeded replays of the round and the guards' morale test: each replay where the
    # guards lose with models left counts P(2D6 > the target its morale event names), so the
    # mean estimates the chance to fall back by the replay's own reading of the Leadership
    txt = scenario_text(sergeant_first_units(), settings={"home_edges": {"guard": "bottom", "imperium": "top"}})
    out = fight(write, sergeant_first_units(), {"home_edges": {"guard": "bottom", "imperium": "top"}})
    state = tapeline.parse_text(txt).state
    system = Classic40k()
    n, total, sq, read = 1500, 0.0, 0.0, set()
    for seed in range(n):
        dice = SeededDice(seed)
        after, _, summary = system.fight(state, "marines", dice, {}, {}, {}, None, True, ())
        x = 0.0
        if summary["result"]["loser"] == "guard" and after.unit("guards").models:
            _, events = system.morale(after, "guards", dice)
            test = next(e for e in events if e["type"] == "morale")
            read.add((len(after.unit("guards").models), test["leadership"]))
            x = float(fails(test["target"]))
        total += x
        sq += x * x
    mean = total / n
    se = math.sqrt(max(sq / n - mean * mean, 1e-12) / n)
    assert read == {(3, 9), (2, 8), (1, 7)}                      # the replay tests the survivors' Leadership
    assert abs(out["falls_back"]["guards"] - mean) <= 4 * se
    old = float(fall_back(sergeant_first_round(), lambda k: 9, 8, 3, 2, "none")["guards"])
    assert abs(old - mean) > 4 * se                              # ... which the start-of-round reading misses


def test_only_the_sergeant_gives_a_leadership(write):
    # the squad's line has no Leadership, the Sergeant's has 9: where he may fall and the squad
    # still test, the replay's test would be refused (no model left with a Leadership), so the
    # chance is unknown (null); where he cannot fall, it is the chance worked out above
    lone = {k: v for k, v in GUARD.items() if k != "leadership"}
    lone["models"] = {"sgt": {"leadership": 9}}
    first = sergeant_first_units()
    first[0] = unit("guards", "guard", lone, {"sgt": (10, 10), "t1": (11, 10), "t2": (12, 10)})
    assert fight(write, first, {})["falls_back"]["guards"] is None
    safe = sergeant_safe_units()
    safe[0] = unit("guards", "guard", lone, {"sgt": (11, 10), "t1": (10, 10), "t2": (9, 10)})
    want = Fraction(8, 27) * Fraction(6, 36) + Fraction(19, 27) * Fraction(15, 36) * Fraction(6, 36)
    assert fight(write, safe, {}, name="g.yaml")["falls_back"]["guards"] == pytest.approx(float(want), abs=1e-12)
