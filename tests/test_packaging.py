"""One import package: everything installs as ``tapeline`` and nothing else.

The repository keeps ``board/``, ``rules/`` and ``scenarios/`` at its top level; ``pyproject.toml``
maps them to ``tapeline.board``, ``tapeline.rules`` and ``tapeline.scenarios``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_folder_is_listed():
    """A new sub-package that is not listed in pyproject.toml would be missing from the wheel."""
    found = {"tapeline"}
    for layer in ("board", "rules", "scenarios"):
        for init in (ROOT / layer).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT)
            if rel.parts[:2] == ("scenarios", "tapeline"):
                continue  # the package root itself, mapped to "tapeline"
            found.add(".".join(("tapeline",) + rel.parts))
    assert found == set(CONFIG["packages"])


def test_same_named_modules_in_the_working_folder_do_not_break_it(tmp_path):
    """A user's own rules.py / board.py / scenarios.py must not shadow tapeline's layers."""
    for name in ("rules", "board", "scenarios"):
        (tmp_path / f"{name}.py").write_text("raise ImportError('wrong module imported')\n")
    r = subprocess.run(
        [sys.executable, "-c", "import tapeline.scenarios.cli, tapeline.rules.starcraft.attack"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert r.returncode == 0, r.stderr


def test_the_wheel_holds_only_the_tapeline_package(tmp_path):
    """``pip install .`` puts exactly one import package, ``tapeline``, into site-packages."""
    pytest.importorskip("setuptools")
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for layer in ("board", "rules", "scenarios"):
        shutil.copytree(ROOT / layer, src / layer, ignore=shutil.ignore_patterns("__pycache__"))
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path / "dist"), str(src)],
        capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    (wheel,) = (tmp_path / "dist").glob("tapeline-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"tapeline"}
    for must in ("tapeline/__init__.py", "tapeline/py.typed", "tapeline/board/sight.py", "tapeline/rules/starcraft/catalogue.yaml",
                 "tapeline/scenarios/cli.py", "tapeline/scenarios/examples/showcase.yaml"):
        assert must in names
    assert not any(n.startswith("tapeline/scenarios/tapeline/") for n in names)


@pytest.mark.parametrize("layer", ["board", "rules", "scenarios"])
def test_a_layer_imported_by_its_folder_name_is_refused(layer):
    """From the repository's root, ``import board`` would find the folder and make a second copy
    of every class (``board.errors.TapelineError`` is not ``tapeline.board.errors.TapelineError``):
    one name per class, however the code is run."""
    r = subprocess.run([sys.executable, "-c", f"import {layer}.errors"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode != 0
    assert f"import it as tapeline.{layer}" in r.stderr


def test_the_package_says_it_is_typed():
    """PEP 561: ``py.typed`` ships beside the package root, so type checkers read tapeline's hints."""
    assert (ROOT / "scenarios" / "tapeline" / "py.typed").is_file()
    assert "py.typed" in CONFIG["package-data"]["tapeline"]
