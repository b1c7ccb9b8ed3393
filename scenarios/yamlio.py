"""The one reader of user input: a scenario file's bytes to plain data, bounded and safe.

Every file a command is given goes through :func:`read_text` and :func:`parse`, and each
limit is enforced *while* reading, so a hostile file costs at most a bounded amount of time
and memory before it is refused with a located message (docs/reliability.md):

* only a regular file is read (a device, a named pipe or a directory is refused before it is
  opened for reading), at most :data:`MAX_FILE_BYTES` bytes, read with that limit (the size
  the file system reports is not trusted), as UTF-8 text;
* YAML is read event by event (libyaml's C parser where it is installed, PyYAML's own
  otherwise) and the data is built here, iteratively: lists and mappings nested at most
  :data:`MAX_DEPTH` deep, at most :data:`MAX_VALUES` values in all, integers of at most
  :data:`MAX_INT_DIGITS` digits; aliases (``*name``, a tiny file growing into gigabytes),
  duplicate keys, lists or mappings used as keys, tags other than the standard ones and
  more than one document are refused;
* scalars are read the YAML 1.2 way: ``true``/``false`` are the only booleans (so the spec's
  key ``on:`` stays a key), ``1e3`` and ``36e0`` are numbers, ``017`` is seventeen;
* JSON is checked for depth and size on its skeleton (strings removed) before the standard
  parser runs, with the same integer limit.

The data comes with a :class:`Where` tree giving the line of every value, so a location such
as ``units[2].models[0].at`` can be given a line.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Optional, Protocol, Union

import numpy as np
import yaml

#: Largest file read (bytes). A 60-model table with twelve terrain pieces takes 12 kB.
MAX_FILE_BYTES = 2_000_000
#: Deepest nesting of lists and mappings (a scenario needs five or six levels).
MAX_DEPTH = 40
#: Most values in one file: every number, text, list, mapping and mapping key counts one.
MAX_VALUES = 200_000
#: Most digits in an integer (a seed of 2**64 has 20).
MAX_INT_DIGITS = 40


class _Parser(Protocol):
    """What :func:`_compose` uses of a PyYAML loader (libyaml's or PyYAML's own): its events,
    which PyYAML's stubs leave untyped."""

    def get_event(self) -> Any: ...

    def peek_event(self) -> Any: ...

    def check_event(self, *choices: type) -> bool: ...

    def dispose(self) -> None: ...


#: PyYAML's event parser: libyaml's (C) where installed, else the pure-Python one.
_C_LOADER = getattr(yaml, "CBaseLoader", None) if getattr(yaml, "__with_libyaml__", False) else None
_LOADER: Callable[[str], _Parser] = _C_LOADER or yaml.BaseLoader


class TextError(Exception):
    """The text cannot be read: ``location`` (``file`` or ``line N``) and ``message``."""

    def __init__(self, location: str, message: str):
        self.location, self.message = location, message
        super().__init__(f"{location}: {message}")


@dataclass
class Where:
    """The 1-based line of a value and, for a list or mapping, of its items."""

    line: int
    items: Union[None, list["Where"], dict[Any, "Where"]] = None


# --- reading the bytes ------------------------------------------------------------------------


def read_text(path: str, limit: int = MAX_FILE_BYTES) -> str:
    """The text of the regular file ``path`` (UTF-8, at most ``limit`` bytes)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError) as e:
        raise TextError("file", f"cannot read: {_why(e)}") from None
    _regular(st.st_mode)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise TextError("file", f"cannot read: {_why(e)}") from None
    with os.fdopen(fd, "rb") as fh:
        _regular(os.fstat(fh.fileno()).st_mode)  # the same file, not one swapped in since
        try:
            data = fh.read(limit + 1)
        except OSError as e:
            raise TextError("file", f"cannot read: {_why(e)}") from None
    if len(data) > limit:
        raise TextError("file", f"the file is larger than {limit} bytes, the limit")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise TextError(f"line {line}", f"not UTF-8 text (byte 0x{data[e.start]:02x})") from None
    return text[1:] if text.startswith("\ufeff") else text


def _regular(mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise TextError("file", "cannot read: it is a directory")
    if not stat.S_ISREG(mode):
        raise TextError("file", "cannot read: not a regular file (a device, a pipe or a socket)")


def _why(e: Exception) -> str:
    return getattr(e, "strerror", None) or str(e)


# --- parsing ------------------------------------------------------------------------------------


def parse(text: str, is_json: bool) -> tuple[Any, Optional[Where]]:
    """The data and the lines of its values; raises :class:`TextError`."""
    if is_json:
        return _parse_json(text), None
    bad = _NOT_PRINTABLE.search(text)
    if bad:  # YAML text holds printable characters only (YAML 1.2 §5.1); escapes are fine
        line = text.count("\n", 0, bad.start()) + 1
        raise TextError(f"line {line}", f"not valid YAML: the character U+{ord(bad.group()):04X} is not allowed "
                                        "in YAML text (write it as an escape inside double quotes)")
    try:
        return _compose(_LOADER(text))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        where = f"line {mark.line + 1}" if mark else "file"
        problem = (getattr(e, "problem", None) or getattr(e, "reason", None) or str(e)).splitlines()[0]
        if "nesting depth" in problem:  # libyaml's own (deeper) limit, met while scanning ahead
            raise TextError(where, f"lists and mappings nested more than {MAX_DEPTH} deep, the limit") from None
        raise TextError(where, f"not valid YAML: {problem}") from None


_STD = "tag:yaml.org,2002:"
#: A character YAML does not allow in its text (YAML 1.2 §5.1: c-printable is tab, line feed,
#: carriage return, NEL and the printable ranges).
_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _compose(loader: _Parser) -> tuple[Any, Optional[Where]]:
    """Build the data from the parser's events, bounded (see the module's docstring)."""
    try:
        loader.get_event()  # stream start
        if loader.check_event(yaml.StreamEndEvent):
            return None, None
        loader.get_event()  # document start
        stack: list[list[Any]] = []  # frames: [container, Where, pending key (or _NOKEY), its line]
        root: Any = None
        root_where: Optional[Where] = None
        count = 0
        while True:
            ev = loader.get_event()
            if isinstance(ev, yaml.DocumentEndEvent):
                break
            line = ev.start_mark.line + 1
            if isinstance(ev, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                container, where, _, _ = stack.pop()
                value = container
            else:
                count += 1
                if count > MAX_VALUES:
                    raise TextError(f"line {line}", f"more than {MAX_VALUES} values in one file, the limit")
                if isinstance(ev, yaml.AliasEvent):
                    raise TextError(f"line {line}", "YAML aliases (*name) are not allowed in scenario files")
                if isinstance(ev, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                    is_map = isinstance(ev, yaml.MappingStartEvent)
                    _container_tag(ev.tag, _STD + ("map" if is_map else "seq"), line)
                    if stack and isinstance(stack[-1][0], dict) and stack[-1][2] is _NOKEY:
                        raise TextError(f"line {line}", "a mapping key must be a plain value (text or a number), not a list or mapping")
                    if len(stack) >= MAX_DEPTH:
                        raise TextError(f"line {line}", f"lists and mappings nested more than {MAX_DEPTH} deep, the limit")
                    stack.append([{} if is_map else [], Where(line, {} if is_map else []), _NOKEY, 0])
                    continue
                value, where = _scalar(ev, line), Where(line)
            if not stack:
                root, root_where = value, where
                continue
            top = stack[-1]
            if isinstance(top[0], list):
                top[0].append(value)
                top[1].items.append(where)
            elif top[2] is _NOKEY:
                _key(top[0], value, line)
                top[2], top[3] = value, line
            else:
                top[0][top[2]] = value
                top[1].items[top[2]] = where
                top[2] = _NOKEY
        if not loader.check_event(yaml.StreamEndEvent):
            ev = loader.peek_event()
            raise TextError(f"line {ev.start_mark.line + 1}", "more than one YAML document in the file")
        return root, root_where
    finally:
        loader.dispose()


_NOKEY = object()


def _key(mapping: dict[Any, Any], key: Any, line: int) -> None:
    if key in mapping:
        raise TextError(f"line {line}", f"duplicate key {key!r}")


def _container_tag(tag: Optional[str], std: str, line: int) -> None:
    if tag not in (None, "!", std):
        raise TextError(f"line {line}", f"YAML tag {tag} is not allowed in scenario files")


_NULL = re.compile(r"(?:~|null|Null|NULL|)\Z")
_TRUE = re.compile(r"(?:true|True|TRUE)\Z")
_FALSE = re.compile(r"(?:false|False|FALSE)\Z")
_INT = re.compile(r"[-+]?[0-9]+\Z")
_INT_BASE = re.compile(r"0o[0-7]+\Z|0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z")
_NAN = re.compile(r"\.(?:nan|NaN|NAN)\Z")


def _scalar(ev: yaml.ScalarEvent, line: int) -> Any:
    """A scalar's value: plain scalars by the YAML 1.2 core schema, quoted ones are text."""
    v, tag = ev.value, ev.tag
    if tag is None and ev.implicit[0]:
        return _plain(v, line)
    if tag is None or tag in ("!", _STD + "str"):
        return v
    kind = tag[len(_STD):] if tag.startswith(_STD) else None
    if kind in ("int", "float", "bool", "null"):
        got = _plain(v, line)
        if kind == "float" and type(got) is int:
            got = float(got)
        want = {"int": int, "float": float, "bool": bool, "null": type(None)}[kind]
        if type(got) is want:
            return got
        raise TextError(f"line {line}", f"{v!r} is not a valid !!{kind}")
    raise TextError(f"line {line}", f"YAML tag {tag} is not allowed in scenario files")


def _plain(v: str, line: int) -> Any:
    if not v[:1].isalpha():  # no number starts with a letter: words skip the number tests
        if _INT.match(v):
            return _int(v, 10, line)
        if _INT_BASE.match(v):
            return _int(v[2:], 8 if v[1] == "o" else 16, line)
        if _FLOAT.match(v):
            return float(v)
        if _INF.match(v):
            return -math.inf if v[0] == "-" else math.inf
        if _NAN.match(v):
            return math.nan
    if _NULL.match(v):
        return None
    if _TRUE.match(v):
        return True
    if _FALSE.match(v):
        return False
    return v


def _int(digits: str, base: int, line: Union[int, str]) -> int:
    n = len(digits.lstrip("+-"))
    if n > MAX_INT_DIGITS:
        where = f"line {line}" if isinstance(line, int) else line
        raise TextError(where, f"an integer of {n} digits; the limit is {MAX_INT_DIGITS}")
    return int(digits, base)


# --- JSON ---------------------------------------------------------------------------------------

_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _parse_json(text: str) -> Any:
    skeleton = _JSON_STRING.sub('""', text)  # no string holds a newline: lines are kept
    raw = np.frombuffer(skeleton.encode("utf-8", "replace"), dtype=np.uint8)
    opens = (raw == ord("[")) | (raw == ord("{"))
    depth = np.cumsum(opens.astype(np.int64) - ((raw == ord("]")) | (raw == ord("}"))))
    deep = np.nonzero(depth > MAX_DEPTH)[0]
    if len(deep):
        line = int(np.count_nonzero(raw[: deep[0]] == ord("\n"))) + 1
        raise TextError(f"line {line}", f"lists and mappings nested more than {MAX_DEPTH} deep, the limit")
    values = int(np.count_nonzero(raw == ord(","))) + int(np.count_nonzero(raw == ord(":"))) + int(opens.sum()) + 1
    if values > MAX_VALUES:
        raise TextError("file", f"more than {MAX_VALUES} values in one file, the limit")
    try:
        data = json.loads(text, object_pairs_hook=_json_pairs, parse_int=lambda s: _int(s, 10, "file"))
    except json.JSONDecodeError as e:
        raise TextError(f"line {e.lineno}", f"not valid JSON: {e.msg}") from None
    except RecursionError:  # pragma: no cover - the skeleton check bounds the depth first
        raise TextError("file", f"lists and mappings nested more than {MAX_DEPTH} deep, the limit") from None
    if _SURROGATE_ESCAPE.search(text):
        _no_lone_surrogates(data, text)
    return data


#: A UTF-16 surrogate escape (``\ud83d``): JSON may pair two into one character; one alone is
#: no character at all (it could be neither printed nor written back).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _no_lone_surrogates(data: Any, text: str) -> None:
    """Refuse a text or key holding a lone surrogate (the line of the first such escape)."""
    stack = [data]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                at = next((m.start() for m in _SURROGATE_ESCAPE.finditer(text)
                           if not _paired(text, m.start())), 0)
                raise TextError(f"line {text.count(chr(10), 0, at) + 1}",
                                "a lone UTF-16 surrogate escape (such as \\ud800) is no character: not valid text") from None


def _paired(text: str, at: int) -> bool:
    """Whether the surrogate escape at ``at`` is half of a pair (high then low)."""
    hi = text[at + 3] in "89abAB"
    if hi:
        return bool(re.match(r"\\u[dD][c-fC-F]", text[at + 6: at + 12]))
    return bool(re.match(r"\\u[dD][89abAB]", text[max(0, at - 6): at]))


def _json_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise TextError("file", f"duplicate key {k!r}")
        out[k] = v
    return out


def line_of(where: Optional[Where], path: tuple[Union[str, int], ...]) -> Optional[int]:
    """The 1-based line of the value at ``path`` (keys and indices), or the nearest parent's."""
    line = None
    for part in path:
        if where is None:
            break
        line = where.line
        items = where.items
        if isinstance(items, dict):
            where = items.get(part)
            if where is None and not isinstance(part, str):
                where = items.get(str(part))
        elif isinstance(items, list) and isinstance(part, int) and 0 <= part < len(items):
            where = items[part]
        else:
            where = None
    if where is not None:
        line = where.line
    return line
