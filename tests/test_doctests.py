"""Every ``>>>`` example in the package runs, module by module: the modules are found by walking
the installed ``tapeline`` package (a module added later is checked with no list to update)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tapeline


def _modules() -> list[str]:
    names = ["tapeline"]
    for layer in ("board", "rules", "scenarios"):
        package = importlib.import_module(f"tapeline.{layer}")
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
                  if not m.name.endswith(".__main__")]  # (importing a __main__ runs the command)
    return sorted(set(names))


MODULES = _modules()


def test_every_layer_is_walked():
    assert {"tapeline.board.sight", "tapeline.rules.systems", "tapeline.scenarios.game"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_modules_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} fail (python -m doctest -v)"
