"""The file format's validator without rebuilding it each run (docs/performance.md, "Kept
beside the byte code").

pydantic validates with a validator it builds from a model's *core schema*: plain data
(mappings, lists, strings, numbers) that names the classes and validator functions it uses.
pydantic generates that schema from the models' annotations (here the mirrors of the format's
plain classes, :mod:`scenarios.plain`, with the plain classes put in their place); for the
file format this costs about 40 ms of every command, more than reading and checking the file
itself. This module keeps the core schema of the whole vocabulary (every ``actions:`` and
``expect:`` word), once pydantic has generated it, beside the package's byte code, and builds
a file's validator from it with ``pydantic_core.SchemaValidator`` — the call pydantic makes
with the schema it generates — taking only the words the file uses, as
:func:`scenarios.schema.scenario_model_for` does. The errors found are pydantic's own: the
tests check that the schema assembled here equals the one pydantic generates for the same
words, and that both validate every bundled and malformed file and broken entry alike.

The snapshot (``__pycache__/schema.<python tag>.pickle`` in this package) is written when it is
missing or out of date, as Python writes byte code: it is keyed by the versions of Python,
pydantic and pydantic-core, and by the size and modification time of every source file of the
``tapeline`` package. Where it is missing or out of date and cannot be written (a read-only
install, PYTHONDONTWRITEBYTECODE set), each run builds its model as before: slower, with the
same answers.
``python -m tapeline.scenarios.schemasnap`` writes it (``make`` does, after byte-compiling).
"""

from __future__ import annotations

import importlib
import io
import os
import pickle
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

#: Bumped when the snapshot's own layout changes.
LAYOUT = 3
#: The two fields of a file holding entries of a vocabulary, by the vocabulary's tag.
SLOTS = {"action": "actions", "expect": "expect"}
#: The packages whose sources key the snapshot.
PACKAGES = ("tapeline", "tapeline.board", "tapeline.rules", "tapeline.scenarios")


def path() -> Path:
    return Path(__file__).resolve().parent / "__pycache__" / f"schema.{sys.implementation.cache_tag}.pickle"


def key() -> str:
    """What the snapshot depends on: Python's, pydantic's and pydantic-core's versions and every
    source file of the package (path, size, modification time, as byte code is checked), written
    out whole (no digest: ``hashlib`` alone would cost about 3 ms of every command)."""
    from importlib.util import find_spec

    import pydantic
    import pydantic_core

    parts: list[Any] = [LAYOUT, sys.version, pydantic.VERSION, pydantic_core.__version__]
    for name in PACKAGES:
        spec = find_spec(name)
        for top in (spec.submodule_search_locations or []) if spec else []:
            for root, dirs, files in os.walk(top):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
                for f in sorted(files):
                    if f.endswith(".py"):
                        st = os.stat(os.path.join(root, f))
                        parts.append((name, os.path.relpath(os.path.join(root, f), top), st.st_size, st.st_mtime_ns))
    return repr(parts)


# --- the snapshot's pieces ------------------------------------------------------------------

def strip(node: Any) -> Any:
    """A core schema without pydantic's notes to itself: each schema node's ``metadata`` (JSON
    Schema hooks) and ``ref`` (a name built from a class's id, used only by definitions, which
    the file format's schema has none of). Values (defaults, literals) are kept as they are."""
    if isinstance(node, dict):
        if isinstance(node.get("type"), str):  # a schema node
            return {k: (v if k in _VALUES else strip(v)) for k, v in node.items() if k not in ("metadata", "ref")}
        return {k: strip(v) for k, v in node.items()}  # fields, choices: names to nodes
    if isinstance(node, list):
        return [strip(v) for v in node]
    if isinstance(node, tuple):
        return tuple(strip(v) for v in node)
    return node


#: Keys of a schema node whose value is a value, not a schema.
_VALUES = frozenset({"default", "expected", "cls", "function", "config", "cls_name", "model_name"})


def _nodes(node: Any):
    """Every schema node of a core schema."""
    if isinstance(node, dict):
        if isinstance(node.get("type"), str):
            yield node
            node = {k: v for k, v in node.items() if k not in _VALUES}
        for v in node.values():
            yield from _nodes(v)
    elif isinstance(node, (list, tuple)):
        for v in node:
            yield from _nodes(v)


def _slot(scenario_schema: dict, field: str) -> dict:
    """The ``list`` node of a file's ``actions`` or ``expect`` field (under its default)."""
    node = scenario_schema["schema"]["fields"][field]["schema"]
    while node["type"] == "default":
        node = node["schema"]
    if node["type"] != "list":
        raise ValueError(f"{field}: not a list in the schema")
    return node


class _Refs(pickle.Pickler):
    """Pickles a schema with its classes and functions as references (module, qualified name),
    resolved when they are needed."""

    def __init__(self, f):
        super().__init__(f, protocol=pickle.HIGHEST_PROTOCOL)

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, type) or callable(obj) and hasattr(obj, "__qualname__"):
            ref = (obj.__module__, obj.__qualname__)
            if _resolve(ref) is not obj:
                raise ValueError(f"{ref} cannot be found again by its name")
            return ref
        return None


def _resolve(ref: tuple) -> Any:
    module, qualname = ref
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = vars(obj)[part] if isinstance(obj, type) and part in vars(obj) else getattr(obj, part)
    return obj


def _dumps(obj: Any) -> bytes:
    buf = io.BytesIO()
    _Refs(buf).dump(obj)
    return buf.getvalue()


def _loads(data: bytes) -> Any:
    u = pickle.Unpickler(io.BytesIO(data))
    u.persistent_load = _resolve  # type: ignore[method-assign]
    return u.load()


def build() -> dict:
    """The snapshot, from the models pydantic generates: the file's schema with the two
    vocabularies' entries left out, each word's schema apart, the entries' schema of a file
    that uses no word, the validator's configuration, and the listing of which module defines
    which word (:func:`scenarios.vocab.read_words`)."""
    from .plain import config_of, core_schema
    from .schema import _scenario_model

    full = _scenario_model(None, None)
    schema, empty = strip(core_schema(full)), strip(core_schema(_scenario_model(frozenset(), frozenset())))
    if any(n["type"] in ("definitions", "definition-ref") for n in _nodes(schema)):
        raise ValueError("the schema uses definitions")
    words, unions, no_words = {}, {}, {}
    for tag, field in SLOTS.items():
        union = _slot(schema, field)["items_schema"]
        if union["type"] != "tagged-union":
            raise ValueError(f"{field}: not a tagged union")
        words[tag] = {w: _dumps(s) for w, s in union["choices"].items()}
        unions[tag] = {k: v for k, v in union.items() if k != "choices"}
        no_words[tag] = _slot(empty, field)["items_schema"]
        _slot(schema, field)["items_schema"] = None
    from .vocab import read_words

    snap = {"layout": LAYOUT, "base": _dumps({"schema": schema, "config": config_of(full), "unions": unions, "empty": no_words}),
            "words": words, "listing": {tag: read_words(tag) for tag in SLOTS}}
    if assemble(snap, None, None)[0] != strip(core_schema(full)):
        raise ValueError("the snapshot does not give the schema back")
    return snap


def assemble(snap: dict, actions: Optional[frozenset], expects: Optional[frozenset]) -> tuple[dict, dict]:
    """The core schema and configuration of the file model with the words given (``None``: all
    of them), as pydantic generates them for :func:`scenarios.schema._scenario_model` (with its
    plain classes, :func:`scenarios.plain.core_schema`)."""
    base = _loads(snap["base"])
    schema = base["schema"]
    for (tag, field), used in zip(SLOTS.items(), (actions, expects)):
        choices = snap["words"][tag]
        if used is not None and not used:
            items = base["empty"][tag]
        else:
            keep = [w for w in choices if used is None or w in used]
            items = dict(base["unions"][tag], choices={w: _loads(choices[w]) for w in keep})
        _slot(schema, field)["items_schema"] = items
    return schema, base["config"]


# --- kept on disk -----------------------------------------------------------------------------

_MISSING: Any = object()
_snap: Any = _MISSING


def snapshot() -> Optional[dict]:
    """The snapshot for the sources as they are: read, else built (and written where it may be);
    ``None`` where pydantic's schema cannot be kept this way."""
    global _snap
    if _snap is _MISSING:
        _snap = None  # while it is read or built, whoever asks (the word listing) goes without
        _snap = _read_or_build()
    return _snap


def _read_or_build(write: Optional[bool] = None) -> Optional[dict]:
    """The snapshot on disk if it is the sources' own; else built and written — unless it may
    not be written (``write`` false, or PYTHONDONTWRITEBYTECODE set): building the whole
    vocabulary's schema costs more than the one model a run needs, so that run builds its model
    instead (``None``)."""
    k = key()
    try:
        snap = pickle.loads(path().read_bytes())
        if isinstance(snap, dict) and snap.get("key") == k and snap.get("layout") == LAYOUT:
            return snap
    except Exception:  # noqa: BLE001 - missing, unreadable or torn: build it anew
        pass
    if not (write if write is not None else not sys.dont_write_bytecode):
        return None
    try:
        snap = dict(build(), key=k)
    except Exception:  # noqa: BLE001 - a pydantic whose schema this cannot keep: build models
        return None
    _write(snap)
    return snap


def _write(snap: dict) -> None:
    """Write the snapshot whole or not at all (a temporary file renamed over it)."""
    import tempfile

    target = path()
    try:
        target.parent.mkdir(exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".schema-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(pickle.dumps(snap, protocol=pickle.HIGHEST_PROTOCOL))
            os.chmod(tmp, 0o644)  # readable as the byte code beside it is
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


@lru_cache(maxsize=64)
def validator(actions: Optional[frozenset], expects: Optional[frozenset]):
    """A validator for the file model with these words (``None``: all): from the snapshot where
    there is one, else from the model pydantic generates now (slower, the same validator)."""
    from pydantic_core import SchemaValidator

    snap = snapshot()
    if snap is not None:
        schema, config = assemble(snap, actions, expects)
    else:
        from .plain import config_of, core_schema
        from .schema import _scenario_model

        model = _scenario_model(actions, expects)
        schema, config = core_schema(model), config_of(model)
    return SchemaValidator(schema, config)  # type: ignore[arg-type]


def refresh() -> Optional[Path]:
    """Write the snapshot for the sources as they are, whatever PYTHONDONTWRITEBYTECODE says
    (``make`` does, after byte-compiling); its path, or ``None`` where it cannot be kept."""
    global _snap
    _snap = None
    _snap = _read_or_build(write=True)
    return path() if _snap is not None and path().exists() else None


if __name__ == "__main__":  # pragma: no cover
    print(f"schema snapshot: {refresh() or 'not kept (the models are built each run)'}")
