"""Every bundled example scenario loads, and every replay with expectations passes."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES, cli, cli_json

FILES = sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".yaml", ".yml", ".json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_example_replays(path):
    code, out = cli_json("replay", path)
    failed = [c for c in out.get("expectations", []) if not c["ok"]]
    assert code == 0, failed or out
    assert out["ok"]


def test_same_seed_same_log():
    """Same file, same seed: a byte-identical event log (JSON and human output alike)."""
    for path in FILES:
        for extra in ((), ("--json",)):
            a = cli("replay", path, *extra)
            b = cli("replay", path, *extra)
            assert a == b
