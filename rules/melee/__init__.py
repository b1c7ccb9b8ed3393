"""The shared melee engine: one round of a close combat fought in Initiative steps, resolved
with dice or as an exact distribution, for Horus Heresy 3rd and Warhammer 40,000 3rd.

A fight is the same pipeline as a shot (the house example is :mod:`tapeline.rules.starcraft.attack`):
each resolution step is written once, as data, and two engines read it. A rule system supplies
what differs — its charts, who strikes in which step, which models are taken as casualties
first — by building a :class:`~tapeline.rules.melee.combat.Combat`; everything else lives here.

Modules, bottom up:

* :mod:`~tapeline.rules.melee.charts` — d6 tests against tables: the S vs T wound chart (the same
  in both games), target numbers as per-face tables, the save a wound allows
  (:func:`~tapeline.rules.melee.charts.save_on`), :class:`~tapeline.rules.melee.charts.Charts`
  (a system's hit chart, wound chart and characteristic cap).
* :mod:`~tapeline.rules.melee.weapons` — :class:`~tapeline.rules.melee.weapons.Modifier` (a
  characteristic as the model's, ``+n`` / ``-n``, ``xn`` or a fixed value) and the melee weapon
  profile :class:`~tapeline.rules.melee.weapons.MeleeWeapon` (Strength / Attacks / Initiative
  modifiers, AP, Damage, ignores armour, strikes last, traits).
* :mod:`~tapeline.rules.melee.strike` — a Strike Group's dice: the hit roll and the wound roll
  as :class:`~tapeline.rules.melee.strike.Roll` steps (each face of the die mapped to a
  category: miss, hit, or a wound of some :class:`~tapeline.rules.melee.strike.WoundKind`), read
  by :func:`~tapeline.rules.melee.strike.roll_strike` (dice) and
  :func:`~tapeline.rules.melee.strike.strike_distribution` (exact, multinomial).
* :mod:`~tapeline.rules.melee.wounds` — taking wounds one at a time in a unit's casualty order:
  the save (armour or invulnerable), optional damage mitigation, Damage that never carries over
  to another model. :class:`~tapeline.rules.melee.wounds.Losses` is one unit's state (models
  removed so far, damage on the next one).
* :mod:`~tapeline.rules.melee.chains` — the exact engine's arrays: a unit's states of losses as
  one chain (:class:`~tapeline.rules.melee.chains.Chain`), a wound as a move along it, a Strike
  Group's dice as the losses they bring from every starting state at once
  (:func:`~tapeline.rules.melee.chains.after_dice`: binomial by folding each die's hit, wound
  and save into one chance; several wound kinds in kind order by Horner's rule).
* :mod:`~tapeline.rules.melee.combat` — the round: :class:`~tapeline.rules.melee.combat.Combat`
  (units with their casualty orders, Initiative steps of Strike Groups);
  :func:`~tapeline.rules.melee.combat.resolve_round` rolls it,
  :func:`~tapeline.rules.melee.combat.round_odds` carries the exact joint distribution over
  every unit's losses through the same steps, as one array (earlier steps' casualties remove
  later attackers; groups within one step strike simultaneously, casualties are removed at the
  end of the step). Nothing is remembered between questions.

A system's side (40k 3rd: :mod:`tapeline.rules.classic40k.melee`) works out from the board who
fights, their attacks, hit / wound / save target numbers and the step order, and reads the
results (wounds inflicted, models removed) off the final states.
"""

from .charts import Charts, faces_at_least, save_on, wound_chart
from .combat import Combat, CombatUnit, InitiativeStep, RoundOdds, resolve_round, round_distribution, round_odds
from .strike import HIT, MISS, Against, StrikeGroup, WoundKind, wound_category
from .weapons import KEEP, MeleeWeapon, Modifier
from .chains import Chain
from .wounds import Defender, Losses

__all__ = [
    "Charts", "faces_at_least", "save_on", "wound_chart",
    "Combat", "CombatUnit", "InitiativeStep", "RoundOdds", "resolve_round", "round_distribution", "round_odds",
    "HIT", "MISS", "Against", "StrikeGroup", "WoundKind", "wound_category",
    "KEEP", "MeleeWeapon", "Modifier",
    "Chain", "Defender", "Losses",
]
