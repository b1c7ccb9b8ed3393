"""The shared melee engine (rules/melee) against brute-force enumeration and hand-worked odds."""

from __future__ import annotations

import doctest
import itertools
from collections import defaultdict
from fractions import Fraction

import pytest

from tapeline.rules.dice import RecordedDice
from tapeline.rules.melee import charts, combat, strike, weapons, wounds
from tapeline.rules.melee.charts import faces_at_least, save_on, wound_chart
from tapeline.rules.melee.combat import Combat, CombatUnit, InitiativeStep, resolve_round, round_odds
from tapeline.rules.melee.strike import Against, StrikeGroup, WoundKind, strike_distribution, wound_category
from tapeline.rules.melee.weapons import Modifier
from tapeline.rules.melee.wounds import Defender, Losses, allocate_distribution


@pytest.mark.parametrize("mod", [charts, weapons, strike, wounds, combat])
def test_docstring_examples(mod):
    assert doctest.testmod(mod).failed == 0


def test_wound_chart_digest_rows():
    # §A.8 / §B.6 spot checks, and the 40k derived case 3
    assert [wound_chart(s, t) for s, t in ((1, 4), (1, 5), (4, 7), (4, 8), (10, 10))] == [6, None, 6, None, 4]
    assert [wound_chart(4, 3), wound_chart(3, 4), wound_chart(3, 6), wound_chart(3, 7)] == [3, 5, 6, None]


def test_saves():
    assert save_on(3, None) == 3
    assert save_on(3, None, ignores_armour=True) is None      # power weapon
    assert save_on(3, 5, ignores_armour=True) == 5            # invulnerable still allowed
    assert save_on(2, 5) == 2                                 # the better save
    assert save_on(3, None, ap=3) is None and save_on(3, None, ap=4) == 3   # HH AP ≤ Sv denies
    assert save_on(7, None) is None and save_on(None, 7) is None


def test_modifiers():
    assert Modifier.parse("x2").apply(4, cap=10) == 8
    assert Modifier.parse("x2").apply(6, cap=10) == 10        # power fist, S6: 10 not 12
    assert Modifier.parse("+1").apply(4) == 5 and Modifier.parse("-3").apply(4) == 1
    assert Modifier.parse(None).apply(7) == 7 and Modifier.parse("S").apply(7) == 7
    assert Modifier.parse(6).apply(3) == 6
    with pytest.raises(ValueError):
        Modifier.parse("double")


def _brute_strike(a: Against, n: int) -> dict:
    """Every sequence of hit dice, then every sequence of wound dice for the hits."""
    out: dict = defaultdict(Fraction)
    K = len(a.kinds)
    for hits_roll in itertools.product(range(1, 7), repeat=n):
        w = [0] * K
        hits = 0
        for v in hits_roll:
            c = a.hit_faces[v - 1]
            if c == strike.HIT:
                hits += 1
            elif c >= 2:
                w[c - 2] += 1
        for wr in itertools.product(range(1, 7), repeat=hits):
            ww = list(w)
            for v in wr:
                c = a.wound_faces[v - 1]
                if c >= 2:
                    ww[c - 2] += 1
            out[tuple(ww)] += Fraction(1, 6 ** (n + hits))
    return out


def test_strike_distribution_matches_enumeration_with_two_kinds():
    # hit 4+, a natural 6 wounds outright with the second kind (Rending-like); wound 3+, a
    # natural 6 on the wound roll gives the second kind (Breaching-like)
    a = Against("t", (0, 0, 0, 1, 1, wound_category(1)), (0, 0, wound_category(0), wound_category(0), wound_category(0), wound_category(1)),
                (WoundKind(), WoundKind(ap=2, label="breaching")))
    for n in (1, 2, 3):
        ex = strike_distribution(a, n)
        bf = _brute_strike(a, n)
        assert set(ex) == {k for k, v in bf.items() if v}
        for k, v in bf.items():
            assert ex[k] == pytest.approx(float(v), abs=1e-12)


def _brute_allocate(order, start, kinds, counts):
    """Every save die and mitigation die of the wounds in order."""
    seq = [k for k, n in zip(kinds, counts) for _ in range(n)]
    out: dict = defaultdict(Fraction)

    def go(i, losses, p):
        if i == len(seq):
            out[losses] += p
            return
        m = wounds.current(order, losses)
        if m is None:
            go(i + 1, losses, p)
            return
        tn = m.save_on(seq[i])
        for v in range(1, 7):
            saved = tn is not None and v >= max(2, tn)
            if saved:
                go(i + 1, losses, p / 6)
            elif m.mitigation is not None:
                for u in range(1, 7):
                    go(i + 1, losses if u >= max(2, m.mitigation) else wounds.take(order, losses, seq[i]), p / 36)
            else:
                go(i + 1, wounds.take(order, losses, seq[i]), p / 6)

    go(0, start, Fraction(1))
    return out


def test_allocation_multi_wound_damage_two_mixed_saves():
    # a W3 model with a 4+ invulnerable, then two W1 models with 3+ armour; Damage 2 wounds
    # ignoring armour, then Damage 1 wounds; a mitigation roll on the second model
    order = (Defender("big", 3, save=2, invulnerable=4), Defender("a", 1, save=3, mitigation=5), Defender("b", 1, save=3))
    kinds = (WoundKind(damage=2, ignores_armour=True), WoundKind())
    for counts in ((2, 0), (1, 2), (3, 2)):
        ex = allocate_distribution(order, Losses(), kinds, counts)
        bf = _brute_allocate(order, Losses(), kinds, counts)
        for k, v in bf.items():
            assert ex.get(k, 0.0) == pytest.approx(float(v), abs=1e-12)
        assert sum(ex.values()) == pytest.approx(1.0)


def test_damage_does_not_carry_over():
    # two unsaved Damage 2 wounds on W3 models: the first leaves 1 wound, the second removes
    # the model; nothing carries to the next model (§A.9)
    order = (Defender("x", 3), Defender("y", 3))
    d = allocate_distribution(order, Losses(), (WoundKind(damage=2),), (2,))
    assert d == {Losses(1, 0): 1.0}
    assert wounds.wounds_lost(order, Losses(1, 0)) == 3


def _sure(target):
    """Hits and wounds on every face but a 1."""
    return Against(target, faces_at_least(2), faces_at_least(2, yes=wound_category(0)), (WoundKind(),), 2, 2)


def test_simultaneous_strikes_within_a_step():
    # both models in one step: each strikes whatever the other does (casualties are removed at
    # the end of the step), so both die with (25/36)² and so on, independently
    a = CombatUnit("a", "red", (Defender("a1"),))
    b = CombatUnit("b", "blue", (Defender("b1"),))
    step = InitiativeStep("I4", (StrikeGroup("a", "a1", (("a1", 1),), (_sure("b"),)), StrikeGroup("b", "b1", (("b1", 1),), (_sure("a"),))))
    o = round_odds(Combat((a, b), (step,)))
    p = 25 / 36
    assert o.probability(lambda s: s == (Losses(1), Losses(1))) == pytest.approx(p * p)
    assert o.removed_pmf("a").prob(1) == pytest.approx(p)


def test_fresh_opponent_and_earlier_steps_remove_attackers():
    # a1 (I5) strikes unit b; b1 (I3) strikes back only if alive; c1 (I1) would strike b but
    # b is gone with 25/36: then c1 strikes its fresh opponent, unit d
    a = CombatUnit("a", "red", (Defender("a1"),))
    c = CombatUnit("c", "red", (Defender("c1"),))
    b = CombatUnit("b", "blue", (Defender("b1"),))
    d = CombatUnit("d", "blue", (Defender("d1"),))
    steps = (
        InitiativeStep("I5", (StrikeGroup("a", "a1", (("a1", 1),), (_sure("b"),)),)),
        InitiativeStep("I3", (StrikeGroup("b", "b1", (("b1", 1),), (_sure("a"),)),)),
        InitiativeStep("I1", (StrikeGroup("c", "c1", (("c1", 1),), (_sure("b"), _sure("d"))),)),
    )
    o = round_odds(Combat((a, c, b, d), steps))
    p = 25 / 36
    assert o.removed_pmf("a").prob(1) == pytest.approx((1 - p) * p)
    assert o.removed_pmf("d").prob(1) == pytest.approx(p * p)               # b died, c1 turns on d
    assert o.removed_pmf("b").prob(1) == pytest.approx(p + (1 - p) * p)      # else c1 finishes b


class _Enumerate(RecordedDice):
    """Dice that follow a prefix, then stop the run with the number of dice asked for."""

    class Need(Exception):
        pass

    def _draw(self, n, sides, purpose):
        if self._next + n > len(self._rolls):
            raise _Enumerate.Need(n)
        return super()._draw(n, sides, purpose)


def _enumerate_round(cb: Combat) -> dict:
    """Every sequence of dice the dice engine can ask for, each weighted 6^-len."""
    out: dict = defaultdict(Fraction)
    stack = [()]
    while stack:
        prefix = stack.pop()
        try:
            log = resolve_round(cb, _Enumerate(list(prefix)))
        except _Enumerate.Need as need:
            for ext in itertools.product(range(1, 7), repeat=need.args[0]):
                stack.append(prefix + ext)
            continue
        out[log.state] += Fraction(1, 6 ** len(prefix))
    return out


def test_exact_round_equals_every_dice_sequence():
    # a1 (I4, 1 attack, hit 4+, wound 3+) into b1, b2 (W1, 5+ save; b1 taken first); at I3 the
    # survivors strike back (b1 1 attack, 3+/4+) at a1 (W1, 4+ save): if a1 killed b1, b1 never
    # strikes. Every dice sequence the dice engine can ask for, against the exact engine.
    a = CombatUnit("a", "red", (Defender("a1", 1, save=4),))
    b = CombatUnit("b", "blue", (Defender("b1", 1, save=5), Defender("b2", 1, save=5)))
    hit_b = Against("b", faces_at_least(4), faces_at_least(3, yes=wound_category(0)), (WoundKind(),), 4, 3)
    hit_a = Against("a", faces_at_least(3), faces_at_least(4, yes=wound_category(0)), (WoundKind(),), 3, 4)
    steps = (
        InitiativeStep("I4", (StrikeGroup("a", "a", (("a1", 1),), (hit_b,)),)),
        InitiativeStep("I3", (StrikeGroup("b", "b", (("b1", 1),), (hit_a,)),)),
    )
    cb = Combat((a, b), steps)
    bf = _enumerate_round(cb)
    ex = round_odds(cb).dist
    assert set(ex) == set(bf)
    for k, v in bf.items():
        assert ex[k] == pytest.approx(float(v), abs=1e-12)
    # by hand: b1 falls with 1/2 · 2/3 · 2/3 = 2/9; then a1 falls with 7/9 · (2/3 · 1/2 · 1/2)
    assert ex[(Losses(1), Losses(0))] == pytest.approx(7 / 9 * 1 / 6)
    assert round_odds(cb).removed_pmf("b").prob(1) == pytest.approx(2 / 9)


def test_dice_engine_reads_recorded_rolls():
    a = CombatUnit("a", "red", (Defender("a1", 1, save=4),))
    b = CombatUnit("b", "blue", (Defender("b1", 1, save=5), Defender("b2", 1, save=5)))
    hit_b = Against("b", faces_at_least(4), faces_at_least(3, yes=wound_category(0)), (WoundKind(),), 4, 3)
    cb = Combat((a, b), (InitiativeStep("I4", (StrikeGroup("a", "a1", (("a1", 3),), (hit_b,)),)),))
    # hits: 6, 4, 1 -> 2 hits; wounds: 3, 2 -> 1 wound; save 5+: 4 -> unsaved: b1 removed
    log = resolve_round(cb, RecordedDice([6, 4, 1, 3, 2, 4]))
    assert log.state == (Losses(), Losses(1, 0))
    assert log.steps[0]["removed"] == {"b": ["b1"]}


def test_loadout_and_file_weapons(write):
    from tapeline.rules.classic40k.weapons import WEAPONS
    from tapeline.rules.melee.loadout import armoury, model_line, wargear

    st = _squad()
    u = st.unit("a")
    assert model_line(u, "a2")["attacks"] == 2 and model_line(u, "a1")["attacks"] == 1
    assert wargear(u, "a1") == ["bolt-pistol", "chainsword"] and wargear(u, "a2") == ["power-fist"]
    arm = armoury(u, WEAPONS)
    assert arm["claws"].strength.apply(4) == 5 and arm["claws"].ap == 2
    assert arm["power-fist"].strength.apply(6, cap=10) == 10 and arm["power-fist"].strikes_last
    # Traits pass through to the profile (40k 3rd reads none and its files may give none; the
    # loadout is shared with Horus Heresy, which reads them).
    from tapeline.rules.state import UnitState, frozen_map

    hh = UnitState("h", "red", ("h1",), stats=frozen_map({"melee_weapons": {"claws": {"ap": 2, "traits": {"rending": 6}}}}))
    assert armoury(hh, {})["claws"].traits["rending"] == 6


def _squad():
    from tests.conftest import scenario

    return scenario(
        """
        tapeline: 1
        system: classic40k
        board: {width: 24, height: 24}
        units:
          - id: a
            side: red
            base: 25
            stats: {weapon_skill: 4, attacks: 1, wargear: [bolt-pistol, chainsword],
                    models: {a2: {attacks: 2, wargear: [power-fist]}},
                    melee_weapons: {claws: {strength: "+1", ap: 2}}}
            models: [{id: a1, at: [5, 5]}, {id: a2, at: [7, 5]}]
        """
    ).state


@pytest.mark.parametrize("stats, where", [
    ("{models: {zz: {attacks: 2}}}", "units[0].stats.models.zz"),
    ("{wargear: [frag-grenade]}", "units[0].stats.wargear[0]"),
    ("{melee_weapons: {w: {strength: double}}}", "units[0].stats.melee_weapons.w.strength"),
    ("{melee_weapons: {w: {damage: 0}}}", "units[0].stats.melee_weapons.w.damage"),
])
def test_bad_close_combat_stats_are_located(write, stats, where):
    from tests.conftest import cli

    f = write(f"""
        tapeline: 1
        system: classic40k
        board: {{width: 24, height: 24}}
        units:
          - {{id: a, side: red, base: 25, stats: {stats}, models: [{{id: a1, at: [5, 5]}}]}}
        """)
    code, out, err = cli("check", f)
    assert code == 2 and where in out + err and "Traceback" not in err


def test_the_multinomial_array_gives_the_dice_by_dice_floats_in_the_same_order():
    """rules/melee/strike.py: the distribution of n dice's category counts is carried on an
    array; adding the dice one at a time to a mapping (the way it was computed before, kept for
    arrays too large) gives the very same floats, listed in the same order — checked for face
    tables with categories that cannot occur, one to four that can, and 0 to 40 dice."""
    import math
    import random

    from tapeline.rules.melee import strike

    rng = random.Random(12)
    tables = [(0, 0, 1, 1, 1, 1), (0, 1, 1, 1, 2, 3), (0, 0, 0, 0, 0, 2), (1, 1, 1, 1, 1, 1), (3, 3, 3, 0, 0, 1)]
    tables += [tuple(rng.randrange(5) for _ in range(6)) for _ in range(6)]
    for faces in tables:
        for n in (0, 1, 2, 3, 7, 12, 25, 40):
            got, want = strike._multinomial(faces, n), strike._multinomial_by_dice(faces, n)
            assert list(got) == list(want), (faces, n)
            assert all(got[k] == want[k] for k in want), (faces, n)
            # and it is the multinomial law: n! / prod(k_i!) * prod(p_i ** k_i)
            p = [faces.count(c) / 6 for c in range(max(faces) + 1)]
            for k, v in list(want.items())[:50]:
                law = math.factorial(n) / math.prod(math.factorial(x) for x in k) * math.prod(pi ** x for pi, x in zip(p, k))
                assert v == pytest.approx(law, rel=1e-9, abs=1e-300)


def _taken_one_at_a_time(order, start, kinds, counts):
    """The losses after the wounds, each wound taken from the start with :func:`wounds.take`
    (what allocate_distribution computed before it kept the sequences it had worked out)."""
    dist = {start: 1.0}
    for kind, n in zip(kinds, counts):
        for _ in range(n):
            new = defaultdict(float)
            for losses, q in dist.items():
                m = wounds.current(order, losses)
                if m is None:
                    new[losses] += q
                    continue
                u = wounds.unsaved_chance(m, kind)
                if u > 0:
                    new[wounds.take(order, losses, kind)] += q * u
                if u < 1:
                    new[losses] += q * (1 - u)
            dist = dict(new)
    return dist


def test_allocation_gives_the_floats_of_taking_each_wound_from_the_start():
    """Sequences of wounds from several starting losses: bit for bit the distribution of taking
    each wound with wounds.take and its unsaved chance, from the start."""
    import random

    order = (Defender("c", 2, save=2, invulnerable=4), Defender("a", 1, save=3), Defender("b", 1, save=3, mitigation=5),
             Defender("d", 3, save=None), Defender("e", 1, save=6))
    kinds = (WoundKind(), WoundKind(ap=2, damage=2, label="power"), WoundKind(ignores_armour=True, label="rend"))
    rng = random.Random(7)
    asked = [tuple(rng.randint(0, 5) for _ in kinds) for _ in range(120)] + [(0, 0, 0), (9, 0, 0), (0, 0, 9)]
    for start in (Losses(), Losses(1, 0), Losses(0, 1), Losses(3, 2), Losses(5, 0)):
        for counts in asked:
            got = allocate_distribution(order, start, kinds, counts)
            want = _taken_one_at_a_time(order, start, kinds, counts)
            assert list(got.items()) == list(want.items()), (start, counts)


def _two_units_of_ten():
    """Ten models a side, 3+ saves and a two-Wound model each, Initiative steps 4 and 1."""
    a = CombatUnit("a", "red", tuple(Defender(f"a{i}", 2 if i == 0 else 1, save=3) for i in range(10)))
    b = CombatUnit("b", "blue", tuple(Defender(f"b{i}", 2 if i == 0 else 1, save=3, invulnerable=5) for i in range(10)))
    rend = (WoundKind(), WoundKind(ap=2, label="rend"))
    at_b = Against("b", faces_at_least(4), (0, 0, 0, wound_category(0), wound_category(0), wound_category(1)), rend)
    steps = (InitiativeStep("I4", (StrikeGroup("a", "a", tuple((m.id, 2) for m in a.order), (at_b,)),)),
             InitiativeStep("I1", (StrikeGroup("b", "b", tuple((m.id, 2) for m in b.order), (_sure("a"),)),)))
    return Combat((a, b), steps)


def _reference_round(cb: Combat) -> dict:
    """The round as the exact engine worked it out before it was array arithmetic (the test's
    own plain walk): from every state at the start of a step, each group's wounds by kind
    (strike_distribution for its dice), each wound vector taken one wound at a time
    (allocate_distribution), groups in step order, casualties removed at the end of the step."""
    dist = {cb.start(): 1.0}
    for step in cb.steps:
        new: dict = defaultdict(float)
        for begin, p in dist.items():
            sub = {begin: p}
            for g in step.groups:
                n = cb.attack_dice(g, begin)
                a = cb.against(g, begin)
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


def _random_combat(seed: int) -> Combat:
    """Two to four units of one to six models (one to three Wounds, armour, invulnerable and
    mitigation saves mixed, some already down a model or a wound), one to three steps of one to
    three groups with one to three wound kinds each (AP, Damage, ignoring armour), several target
    options (a fresh opponent when the first is gone)."""
    import random

    rng = random.Random(seed)
    n_units = rng.choice([2, 2, 3, 4])
    units = []
    for u in range(n_units):
        order = tuple(Defender(f"u{u}m{i}", rng.choice([1, 1, 2, 3]), rng.choice([None, 2, 3, 4, 5, 6]), rng.choice([None, None, 4, 5]),
                               rng.choice([None, None, None, 5, 6])) for i in range(rng.randint(1, 6)))
        start = Losses()
        if rng.random() < 0.2:
            r = rng.randrange(len(order))
            start = Losses(r, rng.randrange(order[r].wounds) if rng.random() < 0.5 else 0)
        units.append(CombatUnit(f"u{u}", "ab"[u % 2], order, start))
    steps = []
    for s in range(rng.randint(1, 3)):
        groups = []
        for _ in range(rng.randint(1, 3)):
            att = rng.choice(units)
            foes = [v.id for v in units if v.side != att.side]
            rng.shuffle(foes)
            k = rng.randint(1, 3)
            kinds = tuple(WoundKind(rng.choice([None, 2, 3, 4, 5]), rng.choice([1, 1, 2, 3]), rng.random() < 0.2) for _ in range(k))
            hit = (0,) + tuple(rng.choice([0, 1, 1, 1] + [wound_category(j) for j in range(k)]) for _ in range(5))
            wound = (0,) + tuple(rng.choice([0, 0, wound_category(0)] + [wound_category(j) for j in range(k)]) for _ in range(5))
            dice = tuple((d.id, rng.randint(0, 3)) for d in rng.sample(att.order, rng.randint(1, len(att.order))))
            opts = tuple(Against(t, hit, wound, kinds) for t in foes[:rng.randint(1, len(foes))])
            groups.append(StrikeGroup(att.id, att.id, dice, opts))
        steps.append(InitiativeStep(f"s{s}", tuple(groups)))
    return Combat(tuple(units), tuple(steps))


@pytest.mark.parametrize("seed", range(120))
def test_the_array_engine_equals_the_plain_walk_of_every_state(seed):
    """rules/melee/combat.py: the exact round as array arithmetic (chains of losses, folded dice,
    Horner's rule over the wound kinds, the joint array pushed through each step class by class)
    against the plain walk over every state and every wound vector: the same states, each chance
    equal to 1e-14 (the sums are taken in another order, so not always to the last bit)."""
    cb = _random_combat(seed)
    got = round_odds(cb).dist
    want = _reference_round(cb)
    assert set(got) == set(want)
    assert max(abs(got[s] - want[s]) for s in want) <= 1e-14
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-13)


def test_the_exact_round_gives_the_same_floats_every_time_and_from_several_threads():
    """The exact engine keeps nothing between questions: the same round asked again, or from
    several threads at once, gives the very same floats."""
    import threading

    c = _two_units_of_ten()
    want = list(combat.round_distribution(c).items())
    assert list(round_odds(c).dist.items()) == want
    wrong = []

    def ask():
        for _ in range(3):
            if list(combat.round_distribution(c).items()) != want:
                wrong.append(1)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []


def test_readings_off_the_array_equal_the_readings_off_the_states():
    """RoundOdds reads casualties and wounds lost off the joint array; the same read off every
    state of ``dist`` (to 1e-15), and a chance read through ``values`` / ``chance``."""
    cb = _random_combat(5)
    o = round_odds(cb)
    for u in cb.units:
        by_state = o.pmf(lambda s, u=u: o.removed(s, u.id))
        assert o.removed_pmf(u.id).as_list() == pytest.approx(by_state.as_list(), abs=1e-15)
        lost = o.pmf(lambda s, u=u: o.wounds_lost(s, u.id))
        assert o.wounds_lost_pmf(u.id).as_list() == pytest.approx(lost.as_list(), abs=1e-15)
        some = o.values(u.id, [s.removed > u.start.removed for s in o.states(u.id)])
        assert o.chance(some) == pytest.approx(o.probability(lambda s, u=u: o.removed(s, u.id) > 0), abs=1e-15)
