"""The house's layers, checked by reading the sources: ``scenarios/`` reads files, replays them and
serves clients, and asks every rule of the system the file names through the one registry
(:func:`tapeline.rules.systems.rules_for`); it never chooses a system itself and holds no rule.
``board/`` knows no rules and ``rules/`` no files or clients."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: A comparison with a system's name, or a lookup of something by the system's name.
CHOOSES = re.compile(r"""\.system\s*(==|!=|\bin\b|\bnot in\b)|system\s*(==|!=)\s*["']|\[[\w.]*\bsystem\s*\]""")
SYSTEM_PACKAGES = ("tapeline.rules.starcraft", "tapeline.rules.heresy", "tapeline.rules.classic40k")


def _sources(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return out


@pytest.mark.parametrize("path", _sources("scenarios"), ids=lambda p: str(p.relative_to(ROOT)))
def test_scenarios_never_chooses_a_system(path):
    bad = [f"{n}: {line.strip()}" for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
           if CHOOSES.search(line)]
    assert not bad, "choose through tapeline.rules.systems.rules_for:\n" + "\n".join(bad)


@pytest.mark.parametrize("path", _sources("scenarios"), ids=lambda p: str(p.relative_to(ROOT)))
def test_scenarios_asks_the_systems_only_through_the_registry(path):
    """No module of ``scenarios/`` imports a system's package: its rules are reached through
    the system's RuleSystem."""
    bad = [m for m in _imports(path) if m.startswith(SYSTEM_PACKAGES)]
    assert not bad, bad


@pytest.mark.parametrize("layer, forbidden", [("board", ("tapeline.rules", "tapeline.scenarios")),
                                              ("rules", ("tapeline.scenarios",))])
def test_layers_point_one_way(layer, forbidden):
    bad = [f"{p.relative_to(ROOT)}: {m}" for p in _sources(layer) for m in _imports(p) if m.startswith(forbidden)]
    assert not bad, bad


def test_each_system_package_has_its_rule_system():
    from tapeline.rules.systems import REGISTRY, RuleSystem, rules_for

    for name in REGISTRY:
        system = rules_for(name)
        assert isinstance(system, RuleSystem) and system.name == name
        assert (ROOT / "rules" / name / "system.py").is_file()
