"""The schema's own guarantees: every field a user writes is bounded, every action and
expectation declares what it names (so `check` validates it: scenarios/validate.py)."""

from __future__ import annotations

import pytest

from tapeline.scenarios import validate, vocab
from tapeline.scenarios.schema import scenario_model


def _unbounded(node, path="") -> list[str]:
    out = []
    if isinstance(node, dict):
        t = node.get("type")
        if t in ("number", "integer") and path != ".properties.tapeline":
            if not (({"minimum", "exclusiveMinimum"} & node.keys()) and ({"maximum", "exclusiveMaximum"} & node.keys())):
                out.append(path)
        if t == "array" and "prefixItems" not in node and "maxItems" not in node:
            out.append(path)
        if t == "object" and node.get("additionalProperties") not in (None, False) and "maxProperties" not in node:
            out.append(path)
        for k, v in node.items():
            out += _unbounded(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _unbounded(v, f"{path}[{i}]")
    return out


def test_every_number_list_and_mapping_a_user_writes_is_bounded():
    assert _unbounded(scenario_model().model_json_schema()) == []


@pytest.mark.parametrize("name, cls", sorted({**vocab.models("action"), **vocab.models("expect")}.items()))
def test_every_action_and_expectation_declares_its_references(name, cls):
    assert callable(getattr(cls, "refs", None)), f"{name}: implement refs() (scenarios/validate.py)"


def test_every_reference_kind_is_registered():
    for kind in ("model", "unit", "terrain", "weapon", "action"):
        assert kind in validate.KINDS


def _lax(node) -> int:
    if isinstance(node, dict):
        own = node.get("type") in ("bool", "int", "float", "str") and not node.get("strict")
        return int(own) + sum(_lax(v) for v in node.values())
    if isinstance(node, list):
        return sum(_lax(v) for v in node)
    return 0


def test_every_number_flag_and_text_a_user_writes_is_strict():
    """No "3" for 3, no 1 for true, no 2.0 for a whole number, anywhere in the file."""
    assert _lax(scenario_model().__pydantic_core_schema__) == 0


def test_the_visible_expectations_reasons_are_the_rules_own():
    """``expect: visible``'s ``blocked_by`` takes exactly the reasons the systems report."""
    from typing import get_args

    from tapeline.rules.sightcommon import BLOCK_REASONS
    from tapeline.scenarios.expectations.visibility import BlockReason

    assert get_args(BlockReason) == BLOCK_REASONS
