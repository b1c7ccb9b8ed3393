"""Warhammer: The Horus Heresy, 3rd edition: the Assault phase.

:mod:`.system` is the system as every client asks it (:class:`tapeline.rules.systems.RuleSystem`);
the other modules are its rules by topic: ``charge`` (with ``reactions`` and ``shooting``:
Volleys and Overwatch), ``combat`` (who is locked with whom), ``melee`` (the Fight sub-phase),
``challenge``, ``resolution`` and ``aftermath``, ``movement`` (the moves the assault rules
make), ``checks``, ``statuses``, ``charts``, ``weapons`` and ``wounds``. Engagement and sight
are the shared base-contact and true line of sight rules (:mod:`tapeline.rules.contact_engagement`,
:mod:`tapeline.rules.truelos`).
"""
