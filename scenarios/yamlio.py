"""Reading YAML and JSON scenario text safely, with line numbers for locations.

Plain ``yaml.safe_load`` accepts duplicate keys silently (the last wins) and expands aliases,
which lets a tiny file grow into gigabytes. Here duplicate keys and aliases are errors, and the
composed node tree is kept so a location such as ``units[2].models[0].at`` can be given a line.
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional

import yaml


class TextError(Exception):
    def __init__(self, location: str, message: str):
        self.location, self.message = location, message
        super().__init__(f"{location}: {message}")


class _Loader(yaml.SafeLoader):
    pass


def _compose_node(self, parent, index):
    if self.check_event(yaml.AliasEvent):
        ev = self.peek_event()
        raise TextError(f"line {ev.start_mark.line + 1}", "YAML aliases (*name) are not allowed in scenario files")
    return yaml.SafeLoader.compose_node(self, parent, index)


_Loader.compose_node = _compose_node


def _construct_mapping(loader, node, deep=False):
    seen = set()
    for k, _ in node.value:
        kv = loader.construct_object(k, deep=True)
        if kv in seen:
            raise TextError(f"line {k.start_mark.line + 1}", f"duplicate key {kv!r}")
        seen.add(kv)
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)

# YAML 1.1 reads on/off/yes/no as booleans, which turns the spec's key `on:` ("standing on")
# into True. Scenario files use YAML 1.2 booleans: only true/false.
_BOOL = "tag:yaml.org,2002:bool"
_Loader.yaml_implicit_resolvers = {
    k: [r for r in v if r[0] != _BOOL] for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def parse(text: str, is_json: bool) -> tuple[Any, Optional[yaml.Node]]:
    """The data and (for YAML) the node tree; raises :class:`TextError`."""
    if is_json:
        try:
            return json.loads(text, object_pairs_hook=_json_pairs), None
        except json.JSONDecodeError as e:
            raise TextError(f"line {e.lineno}", f"not valid JSON: {e.msg}") from None
    try:
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else "file"
        raise TextError(where, f"not valid YAML: {getattr(e, 'problem', None) or e}") from None
    return data, node


def _json_pairs(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise TextError("file", f"duplicate key {k!r}")
        out[k] = v
    return out


def line_of(node: Optional[yaml.Node], path: tuple) -> Optional[int]:
    """The 1-based line of the value at ``path`` (keys and indices), or the nearest parent's."""
    line = None
    for part in path:
        if node is None:
            break
        line = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == str(part)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            node = node.value[part]
        else:
            node = None
    if node is not None:
        line = node.start_mark.line + 1
    return line
