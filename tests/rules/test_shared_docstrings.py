"""The docstring examples of the modules every rule system shares (rules/melee, the dice, the
distributions, sight, charge and move geometry) run and give what they show. pytest's
--doctest-modules cannot collect them (the layers refuse to be imported by their folder
names), so they are run here by their package names."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["melee", "melee.charts", "melee.combat", "melee.loadout", "melee.strike", "melee.weapons", "melee.wounds",
           "pmf", "dice", "charge_odds", "sightcommon", "truelos", "contact_search", "unit_move", "table_edges",
           "contact_charge", "contact_engagement", "charge_geometry", "engagement"]
#: The modules above that show examples (each must keep at least one).
WITH_EXAMPLES = {"melee.charts", "melee.combat", "melee.loadout", "melee.strike", "melee.weapons", "melee.wounds", "pmf",
                 "dice", "charge_odds", "contact_search"}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"tapeline.rules.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    if name in WITH_EXAMPLES:
        assert result.attempted > 0
