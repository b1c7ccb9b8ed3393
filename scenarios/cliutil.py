"""Helpers the command modules share: arguments, loading, looking ids up."""

from __future__ import annotations

import argparse

from tapeline.rules.errors import IllegalAction

from .load import Loaded, read


def add_file(p: argparse.ArgumentParser, json_flag: bool = True) -> None:
    p.add_argument("file", metavar="FILE", help="scenario file (.yaml, .yml or .json)")
    if json_flag:
        p.add_argument("--json", action="store_true", help="print one JSON object")


def add_pair(p: argparse.ArgumentParser) -> None:
    """The scenario file and two model ids ``A B`` (``measure``, ``los``)."""
    add_file(p)
    p.add_argument("a", metavar="A", help="model id")
    p.add_argument("b", metavar="B", help="model id")


def load(args) -> Loaded:
    return read(args.file)


def model(loaded: Loaded, ident: str) -> str:
    """A model id of the file, or an error naming what exists."""
    if ident not in loaded.state.figures:
        raise IllegalAction("arguments", f"no model {ident!r} in {loaded.file}")
    return ident


def unit(loaded: Loaded, ident: str) -> str:
    if not loaded.state.has_unit(ident):
        raise IllegalAction("arguments", f"no unit {ident!r} in {loaded.file}")
    return ident


def fmt(x: float) -> str:
    return f"{x:.6f}".rstrip("0").rstrip(".") if abs(x) < 1e6 else f"{x:g}"
