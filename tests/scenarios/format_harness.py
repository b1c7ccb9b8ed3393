"""The file format's outcomes, written out canonically, for a byte-for-byte comparison.

Every bundled example and malformed file, and a few hundred files broken on purpose from them
(unknown ``actions:``/``expect:`` words, a missing or odd word, wrong types inside an action
and inside an expectation, unknown keys at every depth, each word's entry empty ...), is loaded
as ``tapeline check`` loads it (:func:`scenarios.load.read` / :func:`scenarios.load.parse`), and
its outcome written as text:

- a file that is refused: the exact ``ScenarioError.problems``, each location and message;
- a file that loads: the validated objects, recursively in field order — each object's class
  (module and name), the fields it was given (``model_fields_set``), every field's type and
  ``repr`` — and the state's plain values made from them (``settings``, each unit's stats). A
  broken copy of a file is written as a digest of that text and the text of the entry changed.

``format_golden.json`` beside this module holds the outcomes as the format's earlier
implementation gave them; ``test_format_harness.py`` checks that the code as it is gives the
same text for every case. ``python -m tests.scenarios.format_harness --write`` writes the file
anew (only when a change of outcome is meant).
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from tapeline.scenarios import load, yamlio
from tapeline.scenarios.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "scenarios" / "examples"
MALFORMED = Path(__file__).parent / "malformed"
GOLDEN = Path(__file__).with_name("format_golden.json")

#: The vocabularies, written out (not read from the code under test).
ACTION_WORDS = ("advance", "aftermath", "assault", "challenge", "charge", "close_combat", "close_ranks", "consolidate",
                "end_turn", "fight", "hold", "impact", "morale", "move", "pass", "phase", "pile_in", "place",
                "resolution", "run", "shoot")
EXPECT_WORDS = ("activation", "attack", "casualties", "charge", "charged", "close_combat", "coherency", "combat_result",
                "contact", "covered", "damage_marker", "engaged", "fight_dice", "fight_odds", "gap", "glory", "locked",
                "position", "ranks", "round", "shielded", "status", "template", "unit_engaged", "visible", "within")

#: Files whose every mapping gets an unknown key and every value a wrong type.
DEEP = ("showcase.yaml", "assault-heresy.yaml", "assault-40k.yaml", "template-siege-tank.yaml", "elevation.yaml",
        "charge-heresy-setup.yaml", "template-exclusions.yaml", "round-zealots-charge.yaml")
#: Values put in place of an entry's field.
WRONG = ([], "x", {"k": 1}, None, 10**6, -1.5)


# --- the canonical text ---------------------------------------------------------------------

def _is_model(value: Any) -> bool:
    return hasattr(value, "__pydantic_fields_set__") and hasattr(value, "__dict__")


def dump(value: Any, name: str = "", depth: int = 0) -> list[str]:
    """``value`` as lines of text: objects of the format by class, given fields and fields in
    order; lists, tuples and mappings item by item; anything else by type and ``repr``."""
    pad = "  " * depth
    head = f"{pad}{name} = " if name else pad
    if _is_model(value):
        cls = type(value)
        given = " ".join(sorted(value.model_fields_set))
        lines = [f"{head}{cls.__module__}.{cls.__qualname__} (given: {given})"]
        for k, v in vars(value).items():
            lines += dump(v, f".{k}", depth + 1)
        return lines
    if isinstance(value, (list, tuple)):
        lines = [f"{head}{type(value).__name__} of {len(value)}"]
        for i, v in enumerate(value):
            lines += dump(v, f"[{i}]", depth + 1)
        return lines
    if isinstance(value, (frozenset, set)):
        return [f"{head}{type(value).__name__} {sorted(value, key=repr)!r}"]
    if hasattr(value, "items") and hasattr(value, "keys"):
        lines = [f"{head}{type(value).__name__} of {len(value)}"]
        for k, v in value.items():
            lines += dump(v, f"[{type(k).__name__} {k!r}]", depth + 1)
        return lines
    if isinstance(value, (str, int, float, bool, type(None))):
        return [f"{head}{type(value).__name__} {value!r}"]
    raise TypeError(f"no canonical text for {type(value).__module__}.{type(value).__qualname__}")


def _state_lines(loaded: load.Loaded) -> list[str]:
    s = loaded.state
    lines = dump(s.settings, "state.settings")
    for u in s.units:
        lines += dump(u.stats, f"state.units[{u.id!r}].stats")
    return lines


def outcome(run: Callable[[], load.Loaded], whole: bool, entry: Optional[tuple[str, int]] = None) -> list[str]:
    """The outcome of loading: the problems, or the objects — the ``whole`` text, or a digest
    of it and the text of ``entry`` (``(key, index)``: the entry a broken copy changed)."""
    try:
        loaded = run()
    except ScenarioError as e:
        return ["refused"] + [f"{loc}: {msg}" for loc, msg in e.problems]
    except Exception as e:  # noqa: BLE001 - written down: a crash is an outcome to compare too
        return [f"crash {type(e).__name__}: {e}"]
    lines = dump(loaded.spec) + _state_lines(loaded)
    if whole:
        return ["loaded"] + lines
    digest = ["loaded, digest " + hashlib.sha256("\n".join(lines).encode()).hexdigest()]
    if entry is None:
        return digest
    key, i = entry
    items = getattr(loaded.spec, key)
    part = dump(items[i], f"{key}[{i}]") if i < len(items) else [f"{key} of {len(items)}"]
    return digest + part


# --- the cases --------------------------------------------------------------------------------

def _data(path: Path) -> Any:
    return yamlio.parse(path.read_text(encoding="utf-8"), path.suffix == ".json")[0]


def _text(data: Any) -> str:
    return json.dumps(data, indent=1, allow_nan=False)


def _general(path: tuple) -> tuple:
    """A path with list indices as ``*`` (one case per place in the file's shape)."""
    return tuple("*" if isinstance(p, int) else p for p in path)


def _walk(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, path + (i,))


def _at(data: Any, path: tuple) -> Any:
    for p in path:
        data = data[p]
    return data


def _entry_of(path: tuple) -> Optional[tuple[str, int]]:
    if len(path) >= 2 and path[0] in ("actions", "expect") and isinstance(path[1], int):
        return path[0], path[1]
    return None


def _other_type(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, str):
        return 12345
    if isinstance(value, (int, float)):
        return "12"
    if isinstance(value, list):
        return {"k": 1}
    if isinstance(value, dict):
        return [1]
    return True


Case = tuple[str, Callable[[], list[str]]]


def _parsed(name: str, data: Any, entry: Optional[tuple[str, int]] = None) -> Case:
    text = _text(data)
    return name, lambda: outcome(lambda: load.parse(text, name, is_json=True), False, entry)


def _file_cases() -> Iterator[Case]:
    for folder in (EXAMPLES, MALFORMED):
        for path in sorted(folder.iterdir()):
            yield f"{folder.name}/{path.name}", (lambda p=path: outcome(lambda: load.read(p), True))


def _entry_cases() -> Iterator[Case]:
    """Each field of each ``actions:``/``expect:`` entry of every example (first place a word's
    field is met): set to a value of each wrong type, left out; each entry given an unknown
    key."""
    seen: set = set()
    for path in sorted(EXAMPLES.iterdir()):
        data = _data(path)
        for key, tag in (("actions", "action"), ("expect", "expect")):
            for i, entry in enumerate(data.get(key) or []):
                word = entry.get(tag)
                if (key, word, None) not in seen:
                    seen.add((key, word, None))
                    d = copy.deepcopy(data)
                    d[key][i]["no_such_key"] = 1
                    yield _parsed(f"{path.name} {key}[{i}] ({word}) + no_such_key", d, (key, i))
                for field in entry:
                    if field == tag or (key, word, field) in seen:
                        continue
                    seen.add((key, word, field))
                    for bad in WRONG:
                        d = copy.deepcopy(data)
                        d[key][i][field] = bad
                        yield _parsed(f"{path.name} {key}[{i}] ({word}).{field} = {bad!r}", d, (key, i))
                    d = copy.deepcopy(data)
                    del d[key][i][field]
                    yield _parsed(f"{path.name} {key}[{i}] ({word}) without {field}", d, (key, i))


def _deep_cases() -> Iterator[Case]:
    """In a few files, every mapping (once per place in the file's shape) given an unknown key,
    and every value replaced by one of another type."""
    for name in DEEP:
        data = _data(EXAMPLES / name)
        keyed, typed = set(), set()
        for path, node in list(_walk(data)):
            g = _general(path)
            if isinstance(node, dict) and g not in keyed:
                keyed.add(g)
                d = copy.deepcopy(data)
                _at(d, path)["no_such_key"] = 1
                yield _parsed(f"{name} {load._loc(path)} + no_such_key", d, _entry_of(path))
            if path and g not in typed:
                typed.add(g)
                d = copy.deepcopy(data)
                _at(d, path[:-1])[path[-1]] = _other_type(node)
                yield _parsed(f"{name} {load._loc(path)} = {_other_type(node)!r}", d, _entry_of(path))


def _word_cases() -> Iterator[Case]:
    """Each word alone in a file, its entry empty and with an unknown key; the words' entries
    in odd forms (no word, an unknown one, not a mapping, the list not a list)."""
    base = _data(EXAMPLES / "charge-roaches-7in.yaml")
    base.pop("actions", None)
    base.pop("expect", None)
    for key, tag, words in (("actions", "action", ACTION_WORDS), ("expect", "expect", EXPECT_WORDS)):
        for word in words:
            yield _parsed(f"{key}: [{{{tag}: {word}}}]", dict(base, **{key: [{tag: word}]}), (key, 0))
            yield _parsed(f"{key}: [{{{tag}: {word}, no_such_key: 1}}]",
                          dict(base, **{key: [{tag: word, "no_such_key": 1}]}), (key, 0))
    show = _data(EXAMPLES / "showcase.yaml")
    odd: list[tuple[str, Callable[[dict], None]]] = [
        ("actions[0] an unknown word", lambda d: d["actions"][0].update(action="no_such_word")),
        ("expect[0] an unknown word", lambda d: d["expect"][0].update(expect="no_such_word")),
        ("actions[0] a word in capitals", lambda d: d["actions"][0].update(action=d["actions"][0]["action"].upper())),
        ("actions[0] without its word", lambda d: d["actions"][0].pop("action")),
        ("expect[0] without its word", lambda d: d["expect"][0].pop("expect")),
        ("actions[0] the word a number", lambda d: d["actions"][0].update(action=3)),
        ("expect[0] the word null", lambda d: d["expect"][0].update(expect=None)),
        ("actions[0] an expectation's key", lambda d: d["actions"].__setitem__(0, d["expect"][0])),
        ("expect[0] an action's key", lambda d: d["expect"].__setitem__(0, d["actions"][0])),
        ("actions[0] text", lambda d: d["actions"].__setitem__(0, "run")),
        ("actions[0] a list", lambda d: d["actions"].__setitem__(0, [1])),
        ("expect[0] a number", lambda d: d["expect"].__setitem__(0, 5)),
        ("actions a mapping", lambda d: d.update(actions={"action": "run"})),
        ("expect text", lambda d: d.update(expect="visible")),
        ("actions and expect empty", lambda d: d.update(actions=[], expect=[])),
        ("actions null", lambda d: d.update(actions=None)),
        ("an unknown word and a wrong field elsewhere",
         lambda d: (d["actions"][0].update(action="no_such_word"), d["expect"][0].update(no_such_key=1))),
        ("a wrong field in an action and in an expectation",
         lambda d: (d["actions"][-1].update(unit=[]), d["expect"][-1].update(after="z"))),
        ("unknown keys at the top, in the board, a unit, a model, the settings and the dice",
         lambda d: (d.update(no_such_key=1), d["board"].update(depth=3), d["units"][0].update(colour="red"),
                    d["units"][0]["models"][0].update(hp=1), d.update(settings={"strict": True}),
                    d.update(dice={"seed": 1, "sides": 6}))),
        ("two problems in one model", lambda d: d["units"][1]["models"][0].update(at=["a", 1], base=-3)),
    ]
    for name, change in odd:
        d = copy.deepcopy(show)
        change(d)
        yield _parsed(f"showcase.yaml {name}", d)


#: Files as text, for what only YAML can say.
TEXTS = {
    "a width of .inf": "tapeline: 1\nsystem: starcraft\nboard: {width: .inf, height: 10}\nunits: []\n",
    "a coordinate of .nan": ("tapeline: 1\nsystem: heresy\nboard: {width: 10, height: 10}\n"
                             "units: [{id: u, side: a, base: 32, models: [{id: m, at: [.nan, 1]}]}]\n"),
    "a tolerance of -.inf": ("tapeline: 1\nsystem: starcraft\nboard: {width: 10, height: 10}\nunits: []\n"
                             "expect: [{expect: gap, a: m, b: n, equals: 1, tol: -.inf}]\n"),
    "nothing": "",
    "a bare list": "- 1\n- 2\n",
}


def _text_cases() -> Iterator[Case]:
    for name, text in TEXTS.items():
        yield f"text: {name}", (lambda t=text, n=name: outcome(lambda: load.parse(t, n), True))


def cases() -> Iterator[Case]:
    yield from _file_cases()
    yield from _entry_cases()
    yield from _deep_cases()
    yield from _word_cases()
    yield from _text_cases()


def outcomes() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, run in cases():
        if name in out:
            raise ValueError(f"two cases named {name!r}")
        out[name] = run()
    return out


def main(argv: list[str]) -> int:
    got = outcomes()
    if argv == ["--write"]:
        GOLDEN.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{len(got)} cases written to {GOLDEN}")
        return 0
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    bad = [n for n in sorted(set(got) | set(want)) if got.get(n) != want.get(n)]
    for n in bad:
        print(f"differs: {n}")
    print(f"{len(got)} cases, {len(bad)} differ")
    return 1 if bad else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
