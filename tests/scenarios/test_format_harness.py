"""Every example, malformed and broken file validates to the objects and the located errors
written in format_golden.json (tests/scenarios/format_harness.py): the file format's outcomes,
byte for byte, as its earlier implementation gave them."""

from __future__ import annotations

import difflib
import json

from tests.scenarios import format_harness


def test_every_case_gives_the_golden_outcome():
    want = json.loads(format_harness.GOLDEN.read_text(encoding="utf-8"))
    got = format_harness.outcomes()
    assert sorted(got) == sorted(want)
    bad = [name for name in want if got[name] != want[name]]
    report = []
    for name in bad[:5]:
        report.append(f"--- {name}")
        report += list(difflib.unified_diff(want[name], got[name], "golden", "now", lineterm="", n=2))[:40]
    assert not bad, f"{len(bad)} of {len(want)} cases differ:\n" + "\n".join(report)


def test_the_cases_cover_every_file_and_each_kind_of_outcome():
    want = json.loads(format_harness.GOLDEN.read_text(encoding="utf-8"))
    for folder in (format_harness.EXAMPLES, format_harness.MALFORMED):
        for path in folder.iterdir():
            assert f"{folder.name}/{path.name}" in want, path
    kinds = [v[0].split(",")[0] for v in want.values()]
    assert kinds.count("refused") > 1000 and kinds.count("loaded") > 100 and not any(k.startswith("crash") for k in kinds)
