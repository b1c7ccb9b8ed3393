"""Fuzzing the command line against the contract (docs/reliability.md).

Hypothesis generates and mutates scenario files (the bundled examples, mutated value by value:
types, nesting, sizes, references, numbers; and text mangled byte by byte) and command lines
(every sub-command argparse knows, with the file's own ids, made-up ids and hostile numbers),
runs them in-process and asserts the contract for every run:

* exit status 0, 1 or 2;
* on 2, exactly one line on stderr, starting with the file's name; on 0 or 1, nothing on
  stderr but deprecation notes;
* never a traceback, never an "internal error" (an exception the code did not foresee);
* bounded time: every command runs under the CPU-time limit (set low here), so a hang is a
  failure, not a stuck suite;
* what ``check`` passes, ``replay`` does not refuse for a reference.

The commands, actions and expectations are discovered (argparse's sub-commands, the registered
action and expectation models), so what others add is fuzzed too. ``make test`` runs the fast
profile; ``make fuzz`` (TAPELINE_FUZZ=long) runs many more examples.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapeline.scenarios import cli as cli_module
from tapeline.scenarios import vocab, yamlio
from tests.conftest import EXAMPLES, cli

LONG = os.environ.get("TAPELINE_FUZZ") == "long"
settings.register_profile("fuzz-fast", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=list(HealthCheck))
settings.register_profile("fuzz-long", max_examples=200, deadline=None,
                          suppress_health_check=list(HealthCheck))
PROFILE = settings.get_profile("fuzz-long" if LONG else "fuzz-fast")

#: Small examples (fast to answer) whose mutants are fuzzed; the long profile takes them all.
SMALL = ["within-zerglings.yaml", "los-direct-cover.yaml", "charge-roaches-7in.yaml",
         "attack-zealot-shield.yaml", "charge-heresy-setup.yaml", "template-40k-blast.yaml",
         "elevation.yaml"]
FILES = sorted(p.name for p in EXAMPLES.glob("*.yaml")) if LONG else SMALL
#: Files whose command lines are fuzzed (every command on each: the costlier part).
CLI_FILES = FILES if LONG else ["within-zerglings.yaml", "charge-heresy-setup.yaml", "template-40k-blast.yaml"]
CLI_PROFILE = settings(PROFILE, max_examples=40 if LONG else 8)


@pytest.fixture(autouse=True)
def _sandbox(monkeypatch, tmp_path):
    """A short time limit (a hang fails the test), and a scratch directory as the working one
    (a fuzzed output option writes there)."""
    monkeypatch.setenv("TAPELINE_TIME_LIMIT", "60" if LONG else "20")
    monkeypatch.chdir(tmp_path)


def _data(name: str):
    data, _ = yamlio.parse((EXAMPLES / name).read_text(), False)
    return data


def commands() -> dict:
    """Every sub-command argparse knows: name -> its parser."""
    p = cli_module.parser()
    sub = next(a for a in p._actions if a.__class__.__name__ == "_SubParsersAction")
    return dict(sub.choices)


#: Commands that serve until interrupted, not one-shot: ``serve`` (its HTTP inputs are
#: tested in tests/scenarios/test_serve_api.py).
SERVERS = {"serve"}

#: A reference error: what the static checks (scenarios/validate.py) should have seen.
REFERENCE = re.compile(r"no (model|unit|terrain piece|unit or model|side) with id |no (model|unit) '[^']*' in the file|is not in unit ")


def assert_contract(code: int, out: str, err: str, file) -> None:
    assert code in (0, 1, 2), (code, out[-500:], err)
    assert "Traceback" not in err and "Traceback" not in out
    assert "internal error" not in err, err
    if code == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and err.endswith("\n"), err
        if file is not None:
            assert lines[0].startswith(f"{file}: ") or lines[0].startswith("tapeline: error: "), lines[0]
    else:  # an answer: notes ("wrote X", deprecations) at most, never an error or a warning
        assert "error" not in err.lower() and "warning" not in err.lower(), err


# --- hostile values ------------------------------------------------------------------------------

NUMBERS = st.one_of(
    st.integers(-3, 60), st.integers(-10**30, 10**30), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, -0.0, 1e-300, 1e300, 10**40, -1, 0.5, 2**63, 1e-7, 36.0, 1000.0, 1000.0001]),
)
TEXTS = st.one_of(st.text(max_size=12), st.sampled_from(["", "m1", "z1", "zz", "true", "1e3", "~", "a" * 200]))
SCALARS = st.one_of(NUMBERS, TEXTS, st.booleans(), st.none())
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                      max_leaves=8)


def _paths(node, path=()):
    """Every place in the data: (path, value)."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


def _ids(data) -> list[str]:
    out = []
    for _, v in _paths(data):
        if isinstance(v, dict) and isinstance(v.get("id"), str):
            out.append(v["id"])
    return out


@st.composite
def mutated(draw, data):
    """``data`` with one to three mutations: a value replaced (hostile value, another id, the
    same id twice), a key removed or added, an item duplicated, dropped or nested deeper."""
    data = copy.deepcopy(data)
    ids = _ids(data) or ["x"]
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p, _ in _paths(data) if p]
        if not places:
            break
        path = draw(st.sampled_from(places))
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        last = path[-1]
        what = draw(st.sampled_from(["value", "id", "remove", "add_key", "duplicate", "nest", "number"]))
        if what == "value":
            parent[last] = draw(VALUES)
        elif what == "id":
            parent[last] = draw(st.sampled_from(ids + ["nobody"]))
        elif what == "number":
            parent[last] = draw(NUMBERS)
        elif what == "remove":
            del parent[last]
        elif what == "add_key" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "after", "leader", "on", "base", "id", "expect", "action"]))] = draw(VALUES)
        elif what == "duplicate" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        elif what == "nest":
            parent[last] = [[parent[last]]]
    return data


def _write(tmp_path, data, as_json: bool) -> Path:
    p = tmp_path / ("f.json" if as_json else "f.yaml")
    if as_json:
        p.write_text(json.dumps(data, allow_nan=True, default=str))
    else:
        p.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return p


def _queries(file, data, rnd: random.Random) -> list[list[str]]:
    """A few command lines for every discovered command, with the file's ids and others."""
    ids = _ids(data) + ["nobody", "m1", ""]
    units = [u.get("id") for u in (data.get("units") or []) if isinstance(u, dict) and isinstance(u.get("id"), str)] or ["u"]
    pick = rnd.choice
    num = lambda: pick(["3", "-1", "0", "1e309", "nan", "99999999999999999999", "2.5", "x", "-7"])  # noqa: E731
    f = str(file)
    lines = []
    for name, parser in commands().items():
        if name in SERVERS:
            continue
        opts = {a.option_strings[0]: a for a in parser._actions if a.option_strings and a.option_strings[0] != "-h"}
        pos = [a for a in parser._actions if not a.option_strings and a.dest not in ("file", "help")]
        args = [name, f] if any(a.dest == "file" for a in parser._actions) else [name]
        args += [pick(ids) for _ in pos]
        for opt, a in opts.items():
            if rnd.random() < 0.5 and opt not in ("--json",):
                continue
            if a.nargs == 0:
                args.append(opt)
            elif opt in ("--unit", "--target", "--charge", "--also", "--surge-to", "--charged"):
                args += [opt, pick(units + ids)]
            elif opt in ("-o", "--output") or "html" in opt or str(a.metavar or "").endswith((".svg", ".html")):
                args += [opt, pick(["-", str(file), os.devnull, "out.x"])]
            elif opt in ("--via", "--at", "--toward"):
                args += [opt, f"{num()},{num()}"]
            elif a.nargs in (2, "+"):
                args += [opt, pick(ids), pick(ids)]
            else:
                args += [opt, pick([num(), pick(ids), "a=b", f"{pick(units)}={pick(ids)}"])]
        lines.append(args)
    return lines


# --- the properties -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_mutated_files_keep_the_contract(tmp_path, name):
    base = _data(name)

    @PROFILE
    @given(mutated(base), st.booleans())
    def run(data, as_json):
        p = _write(tmp_path, data, as_json)
        code, out, err = cli("check", p)
        assert_contract(code, out, err, p)
        code2, out2, err2 = cli("replay", p, "--json")
        assert_contract(code2, out2, err2, p)
        if code == 0:
            # what check passes, replay never refuses for a reference check could have seen
            assert not (code2 == 2 and REFERENCE.search(err2)), err2
        if code == 2:
            assert code2 == 2  # the same file problems for every command

    run()


@pytest.mark.parametrize("name", CLI_FILES)
def test_fuzzed_command_lines_keep_the_contract(tmp_path, name):
    data = _data(name)
    p = tmp_path / name
    p.write_text((EXAMPLES / name).read_text())

    @CLI_PROFILE
    @given(st.randoms(use_true_random=False))
    def run(rnd):
        for args in _queries(p, data, rnd):
            code, out, err = cli(*args)
            assert_contract(code, out, err, p if len(args) > 1 and args[1] == str(p) else None)

    run()
    assert p.read_text() == (EXAMPLES / name).read_text()  # nothing overwrote the scenario


@PROFILE
@given(st.sampled_from(SMALL), st.data())
def test_mangled_text_keeps_the_contract(tmp_path_factory, name, data):
    """The bytes themselves: cut, spliced, bracket storms, control characters, BOMs."""
    text = (EXAMPLES / name).read_bytes()
    op = data.draw(st.sampled_from(["cut", "splice", "brackets", "bytes", "indent", "alias"]))
    i = data.draw(st.integers(0, len(text)))
    if op == "cut":
        text = text[:i]
    elif op == "splice":
        text = text[:i] + data.draw(st.binary(max_size=20)) + text[i:]
    elif op == "brackets":
        n = data.draw(st.integers(1, 5000))
        text = text + b"\nname: " + b"[" * n + b"]" * data.draw(st.integers(0, n)) + b"\n"
    elif op == "bytes":
        text = text[:i] + data.draw(st.sampled_from([b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b"\t", b"\r", b"\x85"])) + text[i:]
    elif op == "indent":
        text = text.replace(b"\n  ", b"\n   ", data.draw(st.integers(1, 3)))
    else:
        text = text + b"\nx: &a [1]\ny: *a\n"
    p = tmp_path_factory.mktemp("m") / data.draw(st.sampled_from(["f.yaml", "f.json"]))
    p.write_bytes(text)
    for args in (("check", p), ("measure", p, "m1", "z1"), ("render", p, "-o", os.devnull)):
        assert_contract(*cli(*args), p)


@PROFILE
@given(st.data())
def test_generated_actions_and_expectations(tmp_path_factory, data):
    """Entries of every registered action and expectation, filled with the file's ids and
    hostile values: check and replay keep the contract, and agree on references."""
    base = _data("charge-roaches-7in.yaml")
    ids = _ids(base)
    units = [u["id"] for u in base["units"]]
    kinds = {"action": vocab.models("action"), "expect": vocab.models("expect")}
    section = data.draw(st.sampled_from(["actions", "expect"]))
    word = data.draw(st.sampled_from(sorted(kinds["action" if section == "actions" else "expect"])))
    model = kinds["action" if section == "actions" else "expect"][word]
    entry = {("action" if section == "actions" else "expect"): word}
    for fname, f in model.model_fields.items():
        if fname in ("action", "expect") or (not f.is_required() and data.draw(st.booleans())):
            continue
        key = f.alias or fname
        entry[key] = data.draw(st.one_of(st.sampled_from(ids), st.sampled_from(units), st.lists(st.sampled_from(units + ids), max_size=3),
                                         st.dictionaries(st.sampled_from(units + ids), st.sampled_from(ids), max_size=2),
                                         NUMBERS, st.booleans(), st.tuples(NUMBERS, NUMBERS).map(list)))
    doc = copy.deepcopy(base)
    doc.setdefault(section, []).insert(0, entry)
    if section == "actions":
        doc.pop("expect", None)
    p = _write(tmp_path_factory.mktemp("g"), doc, data.draw(st.booleans()))
    code, out, err = cli("check", p)
    assert_contract(code, out, err, p)
    code2, out2, err2 = cli("replay", p)
    assert_contract(code2, out2, err2, p)
    if code == 0:
        assert not (code2 == 2 and REFERENCE.search(err2)), err2


def test_the_fuzzer_discovers_every_command():
    assert {"check", "replay", "measure", "los", "charge", "path", "attack", "render"} <= set(commands())
