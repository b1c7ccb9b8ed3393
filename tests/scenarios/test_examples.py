"""Every bundled example scenario loads, and every replay with expectations passes."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES, cli_json

FILES = sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".yaml", ".yml", ".json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_example_replays(path):
    code, out = cli_json("replay", path)
    failed = [c for c in out.get("expectations", []) if not c["ok"]]
    assert code == 0, failed or out
    assert out["ok"]


def test_same_seed_same_log():
    for path in FILES:
        a = cli_json("replay", path)
        b = cli_json("replay", path)
        assert a == b
