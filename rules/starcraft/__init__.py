"""StarCraft: Tabletop Miniatures Game (Archon Studio): Phase 2 Assault and Phase 3 Combat.

Section numbers in docstrings are the rulebook's. :mod:`.system` is the system as every client
asks it (:class:`tapeline.rules.systems.RuleSystem`); the other modules are its rules by topic:
``engagement``, ``visibility``, ``terrain`` and ``elevation``, ``movement``, ``charge`` (with
``charge_goal``), ``shooting`` (``targeting``, ``attack``, ``odds``, ``casualties``,
``template_attack``), ``melee`` (``ranks``, ``close_ranks``, ``impact``), ``activation`` (the
round) and ``catalogue`` (the bundled unit cards).
"""
