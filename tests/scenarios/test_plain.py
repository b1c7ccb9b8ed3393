"""The file format's plain classes (scenarios/plain.py): their pydantic models (the mirrors)
generate the schema pydantic generates when the same declarations are pydantic models
themselves; plain objects behave as pydantic's objects where tapeline uses them; a query
command never imports pydantic's model machinery."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pydantic
import pytest

from tapeline.scenarios import plain, schema, vocab

ROOT = Path(__file__).resolve().parents[2]

#: Word sets whose schema is compared: all, none, and each word alone.
_CASES = """
cases = [(None, None), (frozenset(), frozenset())]
vocab.load_all()
cases += [(frozenset({w}), frozenset()) for w in sorted(vocab.ACTIONS_MODELS)]
cases += [(frozenset(), frozenset({w})) for w in sorted(vocab.EXPECT_MODELS)]
"""

#: The same declarations made pydantic models directly: ``scenarios.plain`` replaced by
#: pydantic's own words before any module of the format is imported.
_DIRECT = '''
import sys, types
import pydantic
direct = types.ModuleType("tapeline.scenarios.plain")
for name in ("AfterValidator", "ConfigDict", "Field", "model_validator"):
    setattr(direct, name, getattr(pydantic, name))
direct.Plain = pydantic.BaseModel

def model(name, plain, fields, base, module, qualname, doc=None):
    ns = {"__module__": module, "__qualname__": qualname, "__doc__": doc,
          "__annotations__": {k: t for k, (t, _) in fields.items()}}
    ns.update({k: d for k, (_, d) in fields.items() if d is not ...})
    return type(base)(name, (base,), ns)

def core_schema(m):
    m.model_rebuild()
    return m.__pydantic_core_schema__

direct.model = model
direct.core_schema = core_schema
direct.annotation_of = lambda cls, name: cls.model_fields[name].annotation
sys.modules["tapeline.scenarios.plain"] = direct
'''

_DUMP = '''
import json
from tapeline.scenarios import schemasnap, vocab
from tapeline.scenarios.schema import _scenario_model, scenario_model
from tapeline.scenarios.plain import core_schema

def canon(x):
    if isinstance(x, type) or (callable(x) and hasattr(x, "__qualname__")):
        return "class or function " + x.__module__ + "." + x.__qualname__
    if isinstance(x, dict):
        return {str(k): canon(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [type(x).__name__] + [canon(v) for v in x]
    if type(x).__module__.startswith("tapeline."):
        return {"object of": canon(type(x)), "fields": canon(vars(x)), "set": sorted(x.__pydantic_fields_set__)}
    return repr(x)
''' + _CASES + '''
out = [canon(schemasnap.strip(core_schema(_scenario_model(*c)))) for c in cases]
print(json.dumps({"schemas": out, "json_schema": scenario_model().model_json_schema()}))
'''


def _run(code: str) -> dict:
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def test_the_mirrors_generate_the_schema_of_the_same_declarations_as_pydantic_models():
    """Every word set's core schema (classes and functions by name, defaults by class and
    fields) and the JSON Schema: the mirrors' are those of the declarations made pydantic
    models directly."""
    via_mirrors = _run(_DUMP)
    direct = _run(_DIRECT + _DUMP)
    assert len(direct["schemas"]) > 40
    for got, want in zip(via_mirrors["schemas"], direct["schemas"], strict=True):
        assert got == want
    assert via_mirrors["json_schema"] == direct["json_schema"]
    # the plain classes and functions are in the schema, not their mirrors
    text = json.dumps(via_mirrors["schemas"][0])
    assert "class or function tapeline.scenarios.schema.Scenario" in text
    assert "class or function tapeline.scenarios.schema.Footprint._exactly_one" in text


#: What ``from pydantic import BaseModel, Field`` loads beyond ``import pydantic``.
MACHINERY = ("pydantic.main", "pydantic.fields", "pydantic.types", "pydantic._internal._model_construction",
             "pydantic._internal._generate_schema", "pydantic._internal._fields", "pydantic._internal._decorators")


def test_a_query_never_imports_pydantics_model_machinery():
    """With the schema snapshot kept (as `make` keeps it), a query validates its file without
    pydantic's models."""
    from tapeline.scenarios import schemasnap

    if schemasnap.refresh() is None:
        pytest.skip("the schema snapshot cannot be kept here")
    show = ROOT / "scenarios" / "examples" / "showcase.yaml"
    for argv in (["measure", str(show), "a6", "za5"], ["replay", str(show)], ["check", str(show)]):
        out = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(f"""
                import sys, json, contextlib, io
                from tapeline.scenarios import cli
                MACHINERY = {MACHINERY!r}
                with contextlib.redirect_stdout(io.StringIO()):
                    code = cli.main({argv!r})
                print(json.dumps([code, sorted(m for m in sys.modules if m in MACHINERY)]))
            """)], capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert out.returncode == 0, out.stderr
        code, loaded = json.loads(out.stdout)
        assert code in (0, 1) and loaded == [], (argv, loaded)


def _errors(cls, fields):
    try:
        cls(**fields)
    except pydantic.ValidationError as e:
        return e.errors(include_url=False)
    return []


def test_plain_objects_behave_as_pydantics():
    S = schema.Settings
    mirror = plain.mirror(S)
    a, b = S(hh_ws_table="transcription"), mirror(hh_ws_table="transcription")
    assert type(a) is S and not isinstance(a, pydantic.BaseModel)
    assert a.hh_ws_table == "transcription" and a.model_fields_set == b.model_fields_set == {"hh_ws_table"}
    assert a.model_dump() == b.model_dump() and a.model_dump(mode="json", exclude_unset=True) == {"hh_ws_table": "transcription"}
    assert a == S(hh_ws_table="transcription") and a != S() and a != b  # a mirror's object is another class's
    assert S.model_construct() == S() and S.model_construct().model_fields_set == set()
    assert repr(S()).startswith("Settings(strict_choices=False, casualty_default='file_order',")
    with pytest.raises(TypeError):
        hash(a)
    for bad in ({"hh_ws_table": "x"}, {"no_such_setting": 1}, {"points_limit": 1.5}):
        assert _errors(S, bad) == _errors(mirror, bad) != []
    # a model validator runs on construction as in validation
    with pytest.raises(pydantic.ValidationError, match="exactly one of rect, polygon, circle"):
        schema.Footprint(rect=(0, 0, 1, 1), circle=(0, 0, 1))


def test_every_word_is_a_plain_class_with_its_tag():
    vocab.load_all()
    for tag, table in (("action", vocab.ACTIONS_MODELS), ("expect", vocab.EXPECT_MODELS)):
        for word, cls in table.items():
            assert issubclass(cls, plain.Plain) and not issubclass(cls, pydantic.BaseModel)
            assert plain.plain_of(plain.mirror(cls)) is cls
            assert plain.mirror(cls).model_fields[tag].annotation.__args__ == (word,)
            assert plain.field_names(cls) == list(plain.mirror(cls).model_fields) == list(cls.model_fields)


def test_the_format_is_declared_with_the_stand_ins():
    """The format's modules take ``Field``, ``model_validator`` ... from scenarios/plain.py: a
    pydantic decorator on a plain class would not reach its mirror."""
    folder = ROOT / "scenarios"
    sources = [folder / "schema.py", *sorted((folder / "actions").glob("*.py")), *sorted((folder / "expectations").glob("*.py"))]
    for path in sources:
        text = path.read_text(encoding="utf-8")
        assert "from pydantic import" not in text and "import pydantic" not in text, path.name
