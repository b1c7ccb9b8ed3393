"""Shared test helpers: build states from inline YAML, run the CLI in-process."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from tapeline.scenarios.cli import main
from tapeline.scenarios.load import parse

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "scenarios" / "examples"


def scenario(text: str):
    """A loaded scenario from inline YAML (dedented)."""
    return parse(textwrap.dedent(text), "<test>")


def cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """Run ``tapeline ARGS`` in-process, ``stdin`` its standard input: (exit status, stdout,
    stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), _stdin(stdin):
        try:
            code = main([str(a) for a in args])
        except SystemExit as e:  # argparse
            code = e.code if isinstance(e.code, int) else 2
    return code, out.getvalue(), err.getvalue()


@contextmanager
def _stdin(text: str) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        yield
    finally:
        sys.stdin = saved


def cli_json(*args: str) -> tuple[int, dict]:
    code, out, err = cli(*args, "--json")
    assert "Traceback" not in err
    return code, json.loads(out) if out.strip() else {}


@pytest.fixture
def write(tmp_path):
    """Write a dedented scenario text to a file and return its path."""

    def _write(text: str, name: str = "s.yaml") -> Path:
        p = tmp_path / name
        p.write_text(textwrap.dedent(text), encoding="utf-8")
        return p

    return _write
