"""The shared melee engine's parts (rules/melee/): charts, weapons and loadout against the
rulebook tables and hand-worked values (the wound chart cell by cell, face tables, saves with AP
and invulnerable saves, weapon modifiers, a model's stat line and wargear); and the target
options' ``foes`` (40k 3rd's fresh opponent) and Strike Group pools in both engines, by hand,
against every dice sequence and against a plain walk over every state."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict

import numpy as np
import pytest

from tapeline.rules.dice import RecordedDice
from tapeline.rules.melee.charts import BEST_TN, Charts, faces_at_least, save_on, wound_chart
from tapeline.rules.melee.combat import Combat, CombatUnit, InitiativeStep, resolve_round, round_odds
from tapeline.rules.melee.loadout import armoury, model_line, wargear
from tapeline.rules.melee.strike import Against, Pool, StrikeGroup, WoundKind, strike_distribution, wound_category
from tapeline.rules.melee.weapons import KEEP, MeleeWeapon, Modifier
from tapeline.rules.melee.wounds import Defender, Losses, allocate_distribution
from tapeline.rules.state import UnitState, frozen_map

# --- charts -----------------------------------------------------------------------------------


def test_the_wound_chart_cell_by_cell():
    # §A.8 / seed "Rolling To Wound": S − T ≥ 2: 2+; +1: 3+; 0: 4+; −1: 5+; −2, −3: 6+; ≤ −4: none
    want = {2: 2, 1: 3, 0: 4, -1: 5, -2: 6, -3: 6}
    for s in range(1, 11):
        for t in range(1, 11):
            d = s - t
            assert wound_chart(s, t) == (2 if d >= 2 else want.get(d)), (s, t)


def test_face_tables():
    # a 1 always fails (1+ and 2+ alike), 7+ or None never succeeds; yes / no categories
    assert faces_at_least(1) == faces_at_least(2) == (0, 1, 1, 1, 1, 1)
    assert [sum(faces_at_least(tn)) for tn in range(2, 7)] == [5, 4, 3, 2, 1]
    assert faces_at_least(6) == (0, 0, 0, 0, 0, 1)
    assert faces_at_least(7) == faces_at_least(None) == (0,) * 6
    assert faces_at_least(3, yes=2, no=5) == (5, 5, 2, 2, 2, 2)
    assert faces_at_least(None, yes=2, no=5) == (5,) * 6
    assert BEST_TN == 2


@pytest.mark.parametrize("save,inv,ap,ignores,want", [
    (3, None, None, False, 3),        # armour as normal
    (3, None, 4, False, 3),           # AP 4 against a 3+: AP worse than the save, allowed
    (3, None, 3, False, None),        # AP equal to the save: denied (§A.9)
    (3, None, 2, False, None),        # AP better: denied
    (3, 5, 2, False, 5),              # the invulnerable save is always allowed
    (3, 5, None, True, 5),            # ignores armour: only the invulnerable
    (2, 4, None, False, 2),           # the better of the two
    (4, 3, None, False, 3),
    (7, None, None, False, None),     # a 7 is no save
    (None, 7, None, False, None),
    (1, None, None, False, 2),        # a 1 always fails: a 1+ save saves on 2+
    (6, None, None, False, 6),
])
def test_saves(save, inv, ap, ignores, want):
    assert save_on(save, inv, ap, ignores) == want


def test_save_defaults_and_the_6_plus_invulnerable():
    # no AP and armour not ignored unless said; a 6+ invulnerable save is a save
    assert save_on(3, None) == 3 and save_on(4, None, ap=None) == 4
    assert save_on(None, 6) == 6 and save_on(7, 6) == 6 and save_on(None, 7) is None


def test_charts_default_to_the_rulebooks_maximum_of_10_and_are_fixed():
    # 40k 3rd "Power Fist": Strength doubled "to a maximum of 10" — the charts' default cap
    import dataclasses

    c = Charts("any", lambda a, d: 4)
    assert c.max_characteristic == 10 and c.wound_on(5, 4) == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.max_characteristic = 12  # type: ignore[misc]


# --- weapons ----------------------------------------------------------------------------------


@pytest.mark.parametrize("spec,base,cap,want", [
    ("+2", 4, None, 6), ("-1", 4, None, 3), ("-6", 4, None, 0),       # floored at 0
    ("x2", 4, 10, 8), ("x2", 6, 10, 10), ("×2", 3, None, 6), ("*3", 2, None, 6),
    ("3", 4, None, 3), (5, 4, None, 5), (12, 4, 10, 10),               # a number replaces (capped)
    ("S", 4, None, 4), ("I", 7, 3, 7), (None, 4, None, 4),            # kept: no cap applies
    (" + 1 ", 4, None, 5),
])
def test_modifiers(spec, base, cap, want):
    assert Modifier.parse(spec).apply(base, cap=cap) == want


def test_modifier_floor_and_text():
    assert Modifier.parse("-3").apply(2, floor=1) == 1
    assert Modifier.parse("+1").apply(2, floor=1) == 3
    assert [str(Modifier.parse(v)) for v in ("I", "4", "+2", "-1", "x2")] == ["as the model", "4", "+2", "-1", "x2"]
    assert Modifier.parse(KEEP) is KEEP and Modifier.parse(Modifier("+", 1)) == Modifier("+", 1)
    assert Modifier.parse("+2") == Modifier("+", 2) and Modifier.parse("-2") == Modifier("+", -2)


def test_modifier_and_weapon_defaults_change_nothing_and_are_fixed():
    import dataclasses

    assert Modifier() == KEEP == Modifier("keep", 0) and Modifier("+").apply(4) == 4
    w = MeleeWeapon("knife")
    with pytest.raises(dataclasses.FrozenInstanceError):
        w.damage = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        KEEP.value = 3  # type: ignore[misc]


@pytest.mark.parametrize("bad", [True, False, "++2", "y2", "2x", "", "1000"])
def test_modifier_refuses_what_is_no_modifier(bad):
    with pytest.raises(ValueError):
        Modifier.parse(bad)


def test_a_weapon_from_a_files_spec():
    w = MeleeWeapon.from_spec("axe", {"strength": "+1", "ap": 4, "damage": 2, "ignores_armour": True, "strikes_last": True,
                                      "two_weapons": "pair", "traits": {"shred": 6}, "initiative": "-1"})
    assert (w.name, w.strength.apply(4), w.initiative.apply(4), w.ap, w.damage) == ("axe", 5, 3, 4, 2)
    assert w.ignores_armour and w.strikes_last and w.two_weapons == "pair" and dict(w.traits) == {"shred": 6}
    plain = MeleeWeapon.from_spec("club", {})
    assert plain == MeleeWeapon("club") and plain.damage == 1 and plain.two_weapons == "any"
    assert not plain.ignores_armour and not plain.strikes_last and plain.attacks == KEEP
    assert MeleeWeapon.from_spec("club", {"name": "big club", "damage": 0}).name == "big club"
    assert MeleeWeapon.from_spec("club", {"damage": 0}).damage == 1          # no damage given: 1


# --- a model's line and wargear -------------------------------------------------------------------


def _unit():
    return UnitState("squad", "red", ("s1", "s2", "s3"), stats=frozen_map({
        "attacks": 1, "strength": 4, "wargear": ["bolt-pistol", "chainsword"],
        "melee_weapons": {"chainsword": {"strength": "+1"}, "maul": {"strength": "+2", "ap": 4}},
        "models": {"s1": {"attacks": 2, "wargear": ["power-fist"]}, "s2": {"strength": None, "leadership": 9}}}))


def test_a_models_line_lays_its_own_values_over_the_units():
    u = _unit()
    assert model_line(u, "s1")["attacks"] == 2 and model_line(u, "s3")["attacks"] == 1
    assert model_line(u, "s2")["strength"] == 4            # a None difference is no difference
    assert model_line(u, "s2")["leadership"] == 9 and "leadership" not in model_line(u, "s3")
    assert "models" not in model_line(u, "s1")
    assert wargear(u, "s1") == ["power-fist"] and wargear(u, "s3") == ["bolt-pistol", "chainsword"]
    bare = UnitState("b", "red", ("b1",), stats=frozen_map({"attacks": 1}))
    assert wargear(bare, "b1") == [] and model_line(bare, "b1") == {"attacks": 1}


def test_the_files_weapons_join_and_override_the_armoury():
    base = {"chainsword": MeleeWeapon("chainsword"), "power-fist": MeleeWeapon("power-fist", strength=Modifier("x", 2))}
    arm = armoury(_unit(), base)
    assert set(arm) == {"chainsword", "power-fist", "maul"}
    assert arm["chainsword"].strength.apply(4) == 5 and arm["maul"].ap == 4
    assert arm["power-fist"] is base["power-fist"]
    assert base["chainsword"].strength == KEEP                 # the system's own is untouched


# --- foes: a model whose foe fell strikes a fresh opponent, or not at all (40k 3rd) --------------

P = 25 / 36          # hits on 2+, wounds on 2+, no save


def _sure(target, foes=None):
    return Against(target, faces_at_least(2), faces_at_least(2, yes=wound_category(0)), (WoundKind(),), 2, 2, foes)


def _two_steps(foes):
    # a1 strikes b first (one die); a2 last (one die) at b — with foes {b1}: only while b1
    # stands. b's casualty order: b1, b2.
    a = CombatUnit("a", "red", (Defender("a1"), Defender("a2")))
    b = CombatUnit("b", "blue", (Defender("b1"), Defender("b2")))
    steps = (InitiativeStep("I4", (StrikeGroup("a", "a1", (("a1", 1),), (_sure("b"),)),)),
             InitiativeStep("I1", (StrikeGroup("a", "a2", (("a2", 1),), (_sure("b", foes),)),)))
    return Combat((a, b), steps)


def test_a_group_strikes_only_while_one_of_its_foes_stands():
    # foes {b1}: b1 falls at I4 with 25/36, and a2 then has no foe: never two removed;
    # foes {b1, b2} or None: a2 strikes whatever fell: two removed with (25/36)²
    for foes, two in ((frozenset({"b1"}), 0.0), (frozenset({"b1", "b2"}), P * P), (None, P * P), (frozenset({"b2"}), P * P)):
        o = round_odds(_two_steps(foes))
        one = P * (1 - P) + (1 - P) * P if two else P + (1 - P) * P
        assert o.removed_pmf("b").as_list() == pytest.approx([(1 - P) ** 2, one, two][: 3 if two else 2], abs=1e-15), foes
    # the dice engine: a1 hits and wounds (2, 2): b1 falls; a2 then strikes nothing (foes {b1})
    log = resolve_round(_two_steps(frozenset({"b1"})), RecordedDice([2, 2]))
    assert log.state[1] == Losses(1) and log.steps[1]["groups"][0]["note"] == "no enemy model left within reach to strike"
    assert log.steps[1]["groups"][0]["target"] is None
    log = resolve_round(_two_steps(frozenset({"b2"})), RecordedDice([2, 2, 2, 2]))
    assert log.state[1] == Losses(2) and log.steps[1]["groups"][0]["target"] == "b"


def test_a_foe_outside_the_casualty_order_always_stands():
    # a model the order does not hold (never removed) keeps the option open
    o = round_odds(_two_steps(frozenset({"b1", "x9"})))
    assert o.removed_pmf("b").prob(2) == pytest.approx(P * P, abs=1e-15)


def test_the_fresh_opponent_is_the_next_option_whose_foes_stand():
    # c strikes last at b (foes {b1}) or else at d: b1 gone at I4 with 25/36, then c turns to d
    a = CombatUnit("a", "red", (Defender("a1"),))
    c = CombatUnit("c", "red", (Defender("c1"),))
    b = CombatUnit("b", "blue", (Defender("b1"), Defender("b2")))
    d = CombatUnit("d", "blue", (Defender("d1"),))
    steps = (InitiativeStep("I4", (StrikeGroup("a", "a1", (("a1", 1),), (_sure("b"),)),)),
             InitiativeStep("I1", (StrikeGroup("c", "c1", (("c1", 1),), (_sure("b", frozenset({"b1"})), _sure("d"))),)))
    o = round_odds(Combat((a, c, b, d), steps))
    assert o.removed_pmf("d").prob(1) == pytest.approx(P * P, abs=1e-15)
    assert o.removed_pmf("b").prob(1) == pytest.approx(P + (1 - P) * P, abs=1e-15)
    assert o.removed_pmf("b").prob(2) == 0.0


def test_a_pool_rolls_its_groups_together():
    # one weapon, two groups (a1 near b1, a2 and a3 near b2) of one pool: one roll of 3 dice, the
    # models listed in the pool's order; hits 2, 1, 2 -> wounds 2, 2: b1 and b2 fall
    a = CombatUnit("a", "red", tuple(Defender(m) for m in ("a1", "a2", "a3")))
    b = CombatUnit("b", "blue", (Defender("b1"), Defender("b2"), Defender("b3")))
    pool = Pool(0, ("a1", "a2", "a3"))
    g1 = StrikeGroup("a", "a sword", (("a2", 1), ("a3", 1)), (_sure("b", frozenset({"b2"})),), {}, pool)
    g2 = StrikeGroup("a", "a sword", (("a1", 1),), (_sure("b", frozenset({"b1"})),), {}, pool)
    cb = Combat((a, b), (InitiativeStep("I4", (g1, g2)),))
    log = resolve_round(cb, RecordedDice([2, 1, 2, 2, 2]))
    (entry,) = log.steps[0]["groups"]
    assert entry["models"] == ["a1", "a2", "a3"] and entry["attacks"] == 3 and entry["target"] == "b"
    assert [r["values"] for r in entry["rolls"]] == [[2, 1, 2], [2, 2]] and log.state[1] == Losses(2)
    # the same dice without the pool: two rolls (2 dice, then 1)
    apart = Combat((a, b), (InitiativeStep("I4", (StrikeGroup("a", "x", g1.dice, g1.against), StrikeGroup("a", "y", g2.dice, g2.against))),))
    log = resolve_round(apart, RecordedDice([2, 1, 2, 2, 2]))
    assert [len(g["rolls"][0]["values"]) for g in log.steps[0]["groups"]] == [2, 1]
    # and the exact engine: three dice at 25/36 each, as one pool or two groups
    for cbx in (cb, apart):
        pm = round_odds(cbx).removed_pmf("b").as_list()
        assert pm == pytest.approx([(1 - P) ** 3, 3 * P * (1 - P) ** 2, 3 * P * P * (1 - P), P ** 3], abs=1e-15)


def test_a_pool_whose_groups_strike_apart_rolls_apart():
    # the pool's second group has lost its foe (b1 fell at I4): it strikes nothing, its
    # partner strikes on; two entries in the log
    a = CombatUnit("a", "red", tuple(Defender(m) for m in ("a0", "a1", "a2")))
    b = CombatUnit("b", "blue", (Defender("b1"), Defender("b2")))
    pool = Pool(0, ("a1", "a2"))
    first = InitiativeStep("I4", (StrikeGroup("a", "a0", (("a0", 1),), (_sure("b"),)),))
    last = InitiativeStep("I1", (StrikeGroup("a", "a fist", (("a1", 1),), (_sure("b", frozenset({"b1"})),), {}, pool),
                                 StrikeGroup("a", "a fist", (("a2", 1),), (_sure("b", frozenset({"b2"})),), {}, pool)))
    log = resolve_round(Combat((a, b), (first, last)), RecordedDice([2, 2, 2, 2]))
    entries = log.steps[1]["groups"]
    assert [(e["models"], e["target"]) for e in entries] == [(["a1"], None), (["a2"], "b")]
    assert log.state[1] == Losses(2)


def _walk(cb: Combat) -> dict:
    """The round by a plain walk over every state, each group's option chosen here from the
    positions in the casualty order (a foe stands while fewer models than its place are gone),
    its wounds from strike_distribution, taken one by one by allocate_distribution."""
    def stands(a, state):
        i = cb.index[a.target]
        order = [d.id for d in cb.units[i].order]
        gone = state[i].removed
        if a.foes is None:
            return gone < len(order)
        return any(m not in order or order.index(m) >= gone for m in a.foes)

    dist = {cb.start(): 1.0}
    for step in cb.steps:
        new: dict = defaultdict(float)
        for begin, p in dist.items():
            sub = {begin: p}
            for g in step.groups:
                u = cb.units[cb.index[g.unit]]
                order = [d.id for d in u.order]
                n = sum(k for m, k in g.dice if m not in order or order.index(m) >= begin[cb.index[g.unit]].removed)
                a = next((x for x in g.against if stands(x, begin)), None)
                if n == 0 or a is None:
                    continue
                ti = cb.index[a.target]
                nxt: dict = defaultdict(float)
                for s, q in sub.items():
                    for w, r in strike_distribution(a, n).items():
                        for after, r2 in allocate_distribution(cb.units[ti].order, s[ti], a.kinds, w).items():
                            nxt[s[:ti] + (after,) + s[ti + 1:]] += q * r * r2
                sub = dict(nxt)
            for s, q in sub.items():
                new[s] += q
        dist = {s: q for s, q in new.items() if q > 0}
    return dist


def _random(seed: int) -> Combat:
    rng = random.Random(seed)
    units = [CombatUnit(f"u{k}", "ab"[k % 2], tuple(Defender(f"u{k}m{i}", rng.choice([1, 1, 2]), rng.choice([None, 3, 5]))
                                                   for i in range(rng.randint(1, 4)))) for k in range(rng.choice([2, 3, 4]))]
    steps = []
    for s in range(rng.randint(2, 3)):
        groups = []
        for _ in range(rng.randint(1, 3)):
            att = rng.choice(units)
            enemies = [v for v in units if v.side != att.side]
            rng.shuffle(enemies)
            opts = []
            for v in enemies[:rng.randint(1, len(enemies))]:
                ids = [d.id for d in v.order]
                foes = None if rng.random() < 0.3 else frozenset(rng.sample(ids, rng.randint(1, len(ids))))
                opts.append(Against(v.id, faces_at_least(rng.randint(2, 5)), faces_at_least(rng.randint(2, 5), yes=wound_category(0)), (WoundKind(),), foes=foes))
            dice = tuple((d.id, rng.randint(0, 2)) for d in rng.sample(att.order, rng.randint(1, len(att.order))))
            groups.append(StrikeGroup(att.id, att.id, dice, tuple(opts)))
        steps.append(InitiativeStep(f"s{s}", tuple(groups)))
    return Combat(tuple(units), tuple(steps))


@pytest.mark.parametrize("seed", range(40))
def test_the_exact_engine_with_foes_equals_the_plain_walk(seed):
    cb = _random(seed)
    got, want = round_odds(cb).dist, _walk(cb)
    assert set(got) == set(want)
    assert max(abs(got[s] - want[s]) for s in want) <= 1e-14


def test_every_dice_sequence_with_foes_gives_the_exact_round():
    # the dice engine, every sequence it can ask for (each weighted 6^-len), on a round where
    # a foe falls: the same distribution as the exact engine
    cb = _two_steps(frozenset({"b1"}))
    out: dict = defaultdict(float)
    for rolls in itertools.product(range(1, 7), repeat=4):
        dice = RecordedDice(list(rolls))
        log = resolve_round(cb, dice)
        used = dice._next
        if all(r == 1 for r in rolls[used:]):     # count each used prefix once
            out[log.state] += 6.0 ** -used
    ex = round_odds(cb).dist
    assert set(out) == set(ex)
    for s, p in ex.items():
        assert out[s] == pytest.approx(p, abs=1e-12)


def test_a_unit_that_starts_the_round_hurt_counts_only_this_rounds_losses():
    # b1 (2 Wounds) already lost one before the round; a1's one sure-ish die (25/36) takes its
    # last: this round b loses one wound and one model with 25/36 — not the wound from before
    a = CombatUnit("a", "red", (Defender("a1"),))
    b = CombatUnit("b", "blue", (Defender("b1", 2), Defender("b2")), Losses(0, 1))
    o = round_odds(Combat((a, b), (InitiativeStep("I4", (StrikeGroup("a", "a1", (("a1", 1),), (_sure("b"),)),)),)))
    assert o.wounds_lost_pmf("b").as_list() == pytest.approx([1 - P, P], abs=1e-15)
    assert o.removed_pmf("b").as_list() == pytest.approx([1 - P, P], abs=1e-15)
    hurt = next(s for s in o.dist if s[1] == Losses(1, 0))
    assert o.wounds_lost(hurt, "b") == 1 and o.removed(hurt, "b") == 1
    assert o.wounds_lost(hurt, "a") == 0


def test_the_engines_records_are_fixed_and_odds_compare_by_identity():
    import dataclasses

    a = CombatUnit("a", "red", (Defender("a1"),))
    step = InitiativeStep("I4", ())
    for obj, name in ((a, "side"), (step, "label")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, "x")
    o = round_odds(_two_steps(None))
    assert {o: 1}[o] == 1 and o == o          # (an array inside: compared and hashed by identity)


def test_a_die_that_always_wounds():
    # every face hits and wounds, no save: n dice remove n single-Wound models, exactly
    sure = Against("b", (1,) * 6, (wound_category(0),) * 6, (WoundKind(),))
    a = CombatUnit("a", "red", (Defender("a1"),))
    b = CombatUnit("b", "blue", tuple(Defender(f"b{i}") for i in range(4)))
    o = round_odds(Combat((a, b), (InitiativeStep("I4", (StrikeGroup("a", "a1", (("a1", 3),), (sure,)),)),)))
    assert o.removed_pmf("b").as_list() == [0.0, 0.0, 0.0, 1.0]


@pytest.mark.parametrize("kinds", [1, 2])
def test_after_dice_in_small_batches_gives_the_same_rows(monkeypatch, kinds):
    # the batch bound (rules/melee/chains.py BATCH_FLOATS) only splits the work: with room for
    # one starting state a batch, every row as in one batch
    from tapeline.rules.melee import chains

    order = tuple(Defender(f"m{i}", 2, save=4) for i in range(4))
    ks = (WoundKind(), WoundKind(ap=1, damage=2))[:kinds]
    faces = (0, 0, 1, 1, 1, 1) if kinds == 1 else (0, 0, 1, 1, wound_category(1), wound_category(1))
    ag = Against("u", faces, (0, 0, 0, wound_category(0), wound_category(0), wound_category(0)), ks)
    ch = chains.Chain(order)
    starts = np.array([0, 3, 1, 5, 0, 7, 2])
    counts = np.array([2, 1, 3, 0, 4, 2, 1])
    whole = chains.after_dice(ch.strikes(ag), ch.size, starts, counts)
    monkeypatch.setattr(chains, "BATCH_FLOATS", 1)
    assert np.array_equal(chains.after_dice(ch.strikes(ag), ch.size, starts, counts), whole)
    assert np.allclose(whole.sum(axis=1), 1.0)


def test_saves_and_mitigation_with_real_dice():
    from tapeline.rules.melee.wounds import allocate_dice

    # two 5+ saves rolled together (the same save for every model left): 5 saves, 4 does not
    order = (Defender("b1", 1, save=5), Defender("b2", 1, save=5))
    dice = RecordedDice([5, 4])
    after, log = allocate_dice(order, Losses(), (WoundKind(label="rend"),), [2], dice, "orks")
    assert after == Losses(1) and log[0]["unsaved"] == 1 and log[0]["removed"] == ["b1"]
    assert [e["purpose"] for e in dice.take_events()] == ["save 5+ (orks) rend"]
    # different saves left: one wound at a time — b1's 2+ fails on a 1, then b2's 6+ on a 5
    order = (Defender("b1", 1, save=2), Defender("b2", 1, save=6))
    dice = RecordedDice([1, 5])
    after, log = allocate_dice(order, Losses(), (WoundKind(),), [2], dice)
    assert after == Losses(2) and [e["save_on"] for e in log] == [2, 6]
    # a 6+ damage mitigation (no save): a 6 keeps the model, a 5 does not
    for roll, gone in ((6, 0), (5, 1)):
        dice = RecordedDice([roll])
        after, log = allocate_dice((Defender("c1", 1, mitigation=6),), Losses(), (WoundKind(),), [1], dice)
        assert after == Losses(gone) and log[0]["unsaved"] == gone
        assert [e["purpose"] for e in dice.take_events()] == ["damage mitigation 6+"]
    # a mitigation of 7 is none: no die is rolled for it
    dice = RecordedDice([])
    after, _log = allocate_dice((Defender("c1", 1, mitigation=7),), Losses(), (WoundKind(),), [1], dice)
    assert after == Losses(1) and dice.take_events() == []


def test_strike_distribution_of_two_dice_by_hand_and_fixed_records():
    import dataclasses

    from tapeline.rules.melee.strike import strike_distribution

    # hits on 4+, wounds on 4+: a die wounds with 1/4; two dice: 9/16, 6/16, 1/16
    a = Against("u", faces_at_least(4), faces_at_least(4, yes=wound_category(0)))
    got = strike_distribution(a, 2)
    assert {k: v for k, v in got.items() if v} == pytest.approx({(0,): 9 / 16, (1,): 6 / 16, (2,): 1 / 16}, abs=1e-15)
    roll = a.steps()[0]
    group = StrikeGroup("a", "a", (("a1", 1),), (a,))
    for obj, name in ((roll, "purpose"), (group, "label")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, "x")
