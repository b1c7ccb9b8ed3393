"""Batches of table analyses: the same objects whatever runs them (this process, two local
processes, a Dask cluster on the loopback address), each written as it finishes, a batch run
again resuming where it stopped, and the ranked summary."""

from __future__ import annotations

import csv
import json
import shutil

import pytest

from tapeline.scenarios import batch
from tests.conftest import EXAMPLES, cli

FILES = [str(EXAMPLES / n) for n in ("showcase.yaml", "table-heresy.yaml", "table-40k.yaml")]
OPTIONS = batch.Options(step=6.0)


def _objects(folder):
    return {p.name: json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))}


@pytest.fixture(scope="module")
def sequential(tmp_path_factory):
    out = tmp_path_factory.mktemp("sequential")
    rows = batch.run(FILES, str(out), OPTIONS, workers=1)
    return out, rows


def test_sequential_batch_writes_an_object_per_layout_and_a_ranked_summary(sequential):
    out, rows = sequential
    objs = _objects(out)
    assert sorted(objs) == ["showcase.json", "table-40k.json", "table-heresy.json"]
    for name, obj in objs.items():
        assert obj["inputs"]["step"] == 6.0 and len(obj["inputs"]["sha256"]) == 64
        assert {"step", "origin", "shape", "probe", "exposure", "hidden", "open_lanes", "reach", "balance"} <= set(obj)
    with open(out / "summary.csv", newline="") as fh:
        table = list(csv.DictReader(fh))
    assert tuple(table[0]) == batch.COLUMNS
    assert [int(r["rank"]) for r in table] == [1, 2, 3]
    diffs = [abs(float(r["exposure_difference"])) for r in table]
    assert diffs == sorted(diffs)  # ranked by balance
    by = {r["layout"]: r for r in table}
    assert by["table-40k"]["system"] == "classic40k" and by["showcase"]["side_a"] == "terran"
    assert float(by["showcase"]["open_lanes"]) == objs["showcase.json"]["open_lanes"]


def test_two_local_processes_give_the_same_objects(sequential, tmp_path):
    out, rows = sequential
    assert batch.run(FILES, str(tmp_path), OPTIONS, workers=2) == rows
    assert _objects(tmp_path) == _objects(out)
    assert (tmp_path / "summary.csv").read_text() == (out / "summary.csv").read_text()


def test_a_dask_cluster_gives_the_same_objects(sequential, tmp_path):
    distributed = pytest.importorskip("distributed")
    out, rows = sequential
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        got = batch.run(FILES, str(tmp_path), OPTIONS, scheduler=cluster.scheduler_address)
    assert got == rows
    assert _objects(tmp_path) == _objects(out)


def test_an_interrupted_batch_resumes_where_it_stopped(sequential, tmp_path, monkeypatch):
    out, rows = sequential
    folder = tmp_path / "again"
    shutil.copytree(out, folder)
    (folder / "table-heresy.json").unlink()  # the batch stopped before this layout was written
    (folder / "summary.csv").unlink()
    calls = []
    real = batch.analyse_text

    def counting(file, text, options):
        calls.append(file)
        return real(file, text, options)

    monkeypatch.setattr(batch, "analyse_text", counting)
    assert batch.run(FILES, str(folder), OPTIONS, workers=1) == rows
    assert calls == [FILES[1]]
    assert _objects(folder) == _objects(out)
    # other inputs (a step) are another analysis: done anew
    calls.clear()
    batch.run(FILES[:1], str(folder), batch.Options(step=9.0), workers=1)
    assert calls == [FILES[0]]


def test_the_command_line_batch_and_its_errors(tmp_path, monkeypatch):
    code, out, err = cli("analyse", *FILES[1:], "--out", tmp_path / "o", "--step", "6", "--workers", "1")
    assert code == 0, err
    assert "summary.csv" in out and (tmp_path / "o" / "table-40k.json").exists()
    monkeypatch.setattr(batch, "CONNECT_TIMEOUT", 1.0)
    code, _, err = cli("analyse", FILES[0], "--out", tmp_path / "p", "--step", "6", "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and err.count("\n") == 1 and "--scheduler" in err
    twin = tmp_path / "showcase.yaml"
    twin.write_text((EXAMPLES / "showcase.yaml").read_text())
    code, _, err = cli("analyse", FILES[0], twin, "--out", tmp_path / "q")
    assert code == 2 and "distinct file names" in err
    assert not (tmp_path / "q").exists()  # refused before any work


class _Terminal:
    def __init__(self, tty):
        self.text, self.tty = "", tty

    def isatty(self):
        return self.tty

    def write(self, s):
        self.text += s

    def flush(self):
        pass


def test_the_progress_bar_is_drawn_only_on_a_terminal():
    for tty in (True, False):
        out = _Terminal(tty)
        bar = batch.Progress(4, 1, out)
        bar.step("a.yaml")
        bar.close()
        if tty:
            assert "2/4 a.yaml" in out.text and out.text.endswith("\n") and "#" * 15 in out.text
        else:
            assert out.text == ""
