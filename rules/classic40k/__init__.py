"""Warhammer 40,000, 3rd edition: the Assault phase.

:mod:`.system` is the system as every client asks it (:class:`tapeline.rules.systems.RuleSystem`);
the other modules are its rules by topic: ``engagement`` (who fights), ``charge`` and
``assault`` (moving into an assault), ``melee`` (building a round), ``rounds`` (a round with
dice), ``odds`` (its exact odds), ``resolution`` (results and morale), ``aftermath``,
``charts`` and ``weapons``. Sight is the shared true line of sight (:mod:`tapeline.rules.truelos`).
"""
