"""Start-up without waste (docs/performance.md): a command loads only what it needs, and doing
so changes no answer.

- ``tapeline --help`` lists every command without loading numpy, shapely, pydantic, PyYAML or
  networkx;
- a file is validated by a model built with only the ``actions:``/``expect:`` words it uses, and
  that model reports exactly the errors the whole vocabulary's model reports (checked on every
  bundled example and malformed file, and on entries broken on purpose);
- the registry of words (:mod:`scenarios.vocab`) names every model of the two vocabularies'
  packages, each under the word its ``Literal`` tag gives.
"""

from __future__ import annotations

import copy
import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path
from typing import Literal, get_args, get_origin

import pydantic
import pytest

from tapeline.scenarios import vocab, yamlio
from tapeline.scenarios.schema import scenario_model, scenario_model_for

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "scenarios" / "examples").iterdir()) + sorted((Path(__file__).parent / "malformed").iterdir())
HEAVY = ("numpy", "shapely", "pydantic", "yaml", "networkx")


def _python(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_entry_point_loads_no_heavy_library_before_its_guards():
    """The ``tapeline`` process sets one BLAS thread and its limits before numpy is loaded
    (scenarios/guards.py, ``run``): importing the entry point loads none of the heavy libraries."""
    out = _python(
        "import sys, json\n"
        "import tapeline.scenarios.guards\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n"
    )
    assert json.loads(out) == []


def test_help_lists_every_command():
    from tests.conftest import cli

    from tapeline.scenarios.cli import COMMANDS

    code, text, _ = cli("--help")
    assert code == 0
    for name in COMMANDS:
        assert f"\n    {name} " in text or f"\n    {name}\n" in text, name


def _loaded_by_a_query(*prefixes: str) -> list[str]:
    """The modules under ``prefixes`` a fresh process has loaded once it has answered
    ``tapeline measure`` on the showcase."""
    show = ROOT / "scenarios" / "examples" / "showcase.yaml"
    out = _python(
        "import sys, json, contextlib, io\n"
        "from tapeline.scenarios import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert cli.main(['measure', {str(show)!r}, 'a6', 'za5']) == 0\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.startswith({prefixes!r}))))\n"
    )
    return json.loads(out)


def test_a_query_loads_only_the_words_the_file_uses():
    show = ROOT / "scenarios" / "examples" / "showcase.yaml"
    loaded = {m.rsplit(".", 1)[1] for m in _loaded_by_a_query("tapeline.scenarios.actions.", "tapeline.scenarios.expectations.")}
    data = yamlio.parse(show.read_text(), False)[0]
    want = {vocab.ACTIONS[a["action"]].split(":")[0].rsplit(".", 1)[1] for a in data["actions"]}
    want |= {vocab.EXPECTATIONS[e["expect"]].split(":")[0].rsplit(".", 1)[1] for e in data["expect"]}
    assert want <= loaded
    assert "run" not in loaded and "close_ranks" not in loaded and "assault" not in loaded


@pytest.mark.parametrize("kind, package", [("action", "actions"), ("expect", "expectations")])
def test_the_registry_names_every_model_under_its_own_word(kind, package):
    """Every class of the package that declares the tag field (``action: Literal["word"]``) is
    in the registry under that word, named by its own module and class; nothing else is."""
    from tapeline.scenarios.schema import Strict

    pkg = importlib.import_module(f"tapeline.scenarios.{package}")
    found = {}
    for m in pkgutil.iter_modules(pkg.__path__):
        module = importlib.import_module(f"{pkg.__name__}.{m.name}")
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, Strict) and obj.__module__ == module.__name__ and kind in obj.model_fields:
                tag = obj.model_fields[kind].annotation
                assert get_origin(tag) is Literal and len(get_args(tag)) == 1, obj
                assert get_args(tag)[0] not in found, f"{get_args(tag)[0]!r} is declared twice"
                found[get_args(tag)[0]] = f"{obj.__module__}:{obj.__qualname__}"
    assert found == vocab.KINDS[kind]
    assert {w: f"{c.__module__}:{c.__qualname__}" for w, c in vocab.models(kind).items()} == found


def _errors(model, data):
    try:
        model.model_validate(data)
    except pydantic.ValidationError as e:
        return [(err["type"], err["loc"], err["msg"]) for err in e.errors(include_url=False)]
    return []


def _broken(data):
    """Copies of ``data`` with one action or expectation entry broken: an unknown key, a field
    of the wrong type (a list, a string, a mapping), a field left out."""
    for key in ("actions", "expect"):
        for i, entry in enumerate(data.get(key) or []):
            if not isinstance(entry, dict):
                continue
            for field in list(entry):
                for bad in ([], "x", {"k": 1}, None, 10**6, -1.5):
                    if field in ("action", "expect"):
                        continue
                    d = copy.deepcopy(data)
                    d[key][i][field] = bad
                    yield d
                d = copy.deepcopy(data)
                if field not in ("action", "expect"):
                    del d[key][i][field]
                    yield d
            d = copy.deepcopy(data)
            d[key][i]["no_such_key"] = 1
            yield d


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_files_words_validate_as_the_whole_vocabulary(path):
    try:
        data = yamlio.parse(path.read_text(encoding="utf-8"), path.suffix == ".json")[0]
    except (yamlio.TextError, UnicodeDecodeError):
        pytest.skip("not readable text: refused before any model")
    full = scenario_model()
    cases = [data] + (list(_broken(data)) if isinstance(data, dict) else [])
    for d in cases:
        assert _errors(scenario_model_for(d), d) == _errors(full, d)


def test_a_tapeline_process_flushes_all_its_output_before_it_ends():
    """The ``tapeline`` process skips the interpreter's teardown (scenarios/guards.py, ``finish``):
    a long answer through a pipe still arrives whole, with the command's exit status."""
    script = Path(sys.executable).parent / "tapeline"
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "tapeline.scenarios"]
    show = ROOT / "scenarios" / "examples" / "showcase.yaml"
    r = subprocess.run(argv + ["replay", str(show), "--json"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["ok"] is True and len(out["events"]) > 0
    r = subprocess.run(argv + ["schema"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and len(r.stdout) > 65536  # more than a pipe holds
    assert json.loads(r.stdout)["$defs"] == scenario_model().model_json_schema()["$defs"]
    r = subprocess.run(argv + ["measure", str(show), "a6", "nope"], capture_output=True, text=True, timeout=300)
    assert (r.returncode, r.stdout) == (2, "") and r.stderr.count("\n") == 1 and "argument B" in r.stderr


def test_the_catalogue_is_the_yaml_files_data_read_once():
    import yaml

    cat = importlib.import_module("tapeline.rules.starcraft.catalogue")
    assert cat.catalogue() == yaml.safe_load(cat.SOURCE.read_text(encoding="utf-8"))
    assert cat.catalogue() is cat.catalogue()
