"""Batches of table analyses: ``tapeline analyse LAYOUT... --out DIR`` (docs/analysis.md).

Every layout is loaded first (a bad file stops the batch before any work, with its located
error); each is then analysed as one task — by local processes (``concurrent.futures``, the
default), or by a Dask cluster (``dask.distributed``) given its scheduler's address. A task is a
pure function of the file's text and the options (:func:`analyse_text`), so the numbers are the
same whatever runs it and however many workers there are.

Each layout's object is written to ``DIR/<file name without suffix>.json`` the moment it
arrives (written to a temporary name, then renamed: a reader never sees half a file). It holds
the analysis and its ``inputs`` (the file's SHA-256, the step and the probe options): a batch run
again skips every layout whose object holds the same inputs, so an interrupted batch resumes
where it stopped. ``DIR/summary.csv`` then ranks every layout of the batch (:data:`COLUMNS`).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import sys
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence, TextIO

from . import yamlio
from .errors import ArgumentError, ScenarioError

#: Seconds to wait for a Dask scheduler to answer before the batch gives up.
CONNECT_TIMEOUT = 10.0
#: The format of a layout's object's ``inputs`` (a change of what an analysis computes bumps it,
#: so older objects are computed anew).
INPUTS_VERSION = 1


@dataclass(frozen=True)
class Options:
    """What a batch asks of every layout: the grid step and the probe's values (``None``: the
    system's own)."""

    step: float = 1.0
    probe_base: Optional[float] = None
    probe_size: Optional[int] = None
    probe_height: Optional[float] = None
    probe_speed: Optional[int] = None
    probe_flying: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"step": self.step, "probe_base": self.probe_base, "probe_size": self.probe_size,
                "probe_height": self.probe_height, "probe_speed": self.probe_speed, "probe_flying": self.probe_flying}


@dataclass(frozen=True)
class Layout:
    """One file of the batch: its path, its text, and where its object goes."""

    file: str
    text: str
    out: Path

    def inputs(self, options: Options) -> dict[str, Any]:
        return {"version": INPUTS_VERSION, "sha256": hashlib.sha256(self.text.encode("utf-8")).hexdigest(), **options.as_json()}


def analyse_text(file: str, text: str, options: Options) -> dict[str, Any]:
    """The analysis of the layout ``text`` (read from ``file``) as its JSON object: the task a
    worker runs (imports inside, so a Dask worker needs only tapeline installed)."""
    from .game import Game
    from .load import parse

    game = Game(parse(text, file, is_json=Path(file).suffix.lower() == ".json"))
    return game.analyse(step=options.step, probe_base=options.probe_base, probe_size=options.probe_size,
                        probe_height=options.probe_height, probe_speed=options.probe_speed,
                        probe_flying=options.probe_flying).as_json()


def layouts(files: Sequence[str], out: Path) -> list[Layout]:
    """The batch's files, read and checked (each loads: a :class:`ScenarioError` otherwise), each
    with its object's path; two files of the same name would write the same object: refused."""
    from .load import read

    seen: dict[str, str] = {}
    todo = []
    for f in files:
        try:
            text = yamlio.read_text(f)
        except yamlio.TextError as e:
            raise ScenarioError(f, [(e.location, e.message)]) from None
        read(f)  # a located error now, before any work
        name = Path(f).stem + ".json"
        if name in seen:
            raise ArgumentError("FILE", f"{f} and {seen[name]} would both write {out / name}: give layouts distinct file names")
        seen[name] = f
        todo.append(Layout(f, text, out / name))
    return todo


def done(layout: Layout, options: Options) -> Optional[dict[str, Any]]:
    """The layout's object from an earlier run, when it holds the same inputs."""
    try:
        obj = json.loads(layout.out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return obj if isinstance(obj, dict) and obj.get("inputs") == layout.inputs(options) else None


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed over it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8", newline="\n")
    os.replace(tmp, path)


Submit = Callable[[Layout], "Future[dict[str, Any]]"]


def run(files: Sequence[str], out: str, options: Options, scheduler: Optional[str] = None, workers: Optional[int] = None,
        progress: Optional[TextIO] = None) -> list[dict[str, Any]]:
    """Analyse every layout of ``files`` not already done into ``out`` (made if missing), on a
    Dask cluster (``scheduler``: its address) or local processes (``workers`` of them; 1: in this
    process), writing each object as it arrives and then ``summary.csv``. The summary's rows."""
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ArgumentError("--out", f"{out} is not a directory")
    todo = layouts(files, folder)
    folder.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, Any]] = {}
    pending = []
    for lay in todo:
        old = done(lay, options)
        if old is not None:
            results[lay.file] = old
        else:
            pending.append(lay)
    bar = Progress(len(todo), len(results), progress)
    for lay, obj in _execute(pending, options, scheduler, workers):
        obj = {**obj, "inputs": lay.inputs(options)}
        write_atomic(lay.out, json.dumps(obj, indent=1, ensure_ascii=False) + "\n")
        results[lay.file] = obj
        bar.step(lay.file)
    bar.close()
    rows = summary_rows([results[lay.file] | {"layout": lay.out.stem} for lay in todo])
    write_atomic(folder / "summary.csv", summary_csv(rows))
    return rows


def _execute(pending: Sequence[Layout], options: Options, scheduler: Optional[str],
             workers: Optional[int]) -> Iterator[tuple[Layout, dict[str, Any]]]:
    """Each pending layout with its object, as they finish."""
    if not pending:
        return
    if scheduler is not None:
        yield from _on_dask(pending, options, scheduler)
        return
    n = workers or os.cpu_count() or 1
    if n == 1 or len(pending) == 1:
        for lay in pending:
            yield lay, analyse_text(lay.file, lay.text, options)
        return
    with ProcessPoolExecutor(max_workers=min(n, len(pending))) as pool:
        futures = {pool.submit(analyse_text, lay.file, lay.text, options): lay for lay in pending}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()


def _on_dask(pending: Sequence[Layout], options: Options, scheduler: str) -> Iterator[tuple[Layout, dict[str, Any]]]:
    """The layouts analysed on the Dask cluster at ``scheduler`` (a ``distributed.Client``
    address, ``tcp://host:8786``), as they finish."""
    try:
        from distributed import Client, as_completed as dask_completed
    except ImportError:
        raise ArgumentError("--scheduler", "a Dask cluster needs dask.distributed: pip install 'tapeline[dask]'") from None
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as e:
        raise ArgumentError("--scheduler", f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    with client:
        futures = {client.submit(analyse_text, lay.file, lay.text, options, key=f"analyse-{i}-{lay.out.stem}", pure=False): lay
                   for i, lay in enumerate(pending)}
        by_key = {f.key: lay for f, lay in futures.items()}
        for fut in dask_completed(list(futures)):  # type: ignore[no-untyped-call]
            yield by_key[fut.key], fut.result()


class Progress:
    """A progress bar on ``out`` (standard error), drawn only when it is a terminal."""

    def __init__(self, total: int, already: int, out: Optional[TextIO]):
        self.total, self.count = total, already
        self.out = out if out is not None and out.isatty() else None
        self._draw("")

    def step(self, name: str) -> None:
        self.count += 1
        self._draw(name)

    def _draw(self, name: str) -> None:
        if self.out is None or not self.total:
            return
        width = 30
        full = round(width * self.count / self.total)
        self.out.write(f"\r[{'#' * full}{'.' * (width - full)}] {self.count}/{self.total} {name[-40:]:<40}")
        self.out.flush()

    def close(self) -> None:
        if self.out is not None:
            self.out.write("\n")
            self.out.flush()


#: The summary's columns, one flat typed value each (Parquet-compatible: a name of letters,
#: digits and underscores; empty for a missing value): the rank (1 = the most balanced), the
#: layout and its file, the system, the step, the two sides and their mean exposure, hidden
#: positions and mean reach, the differences (first side minus second), the side favoured,
#: the open lanes and the longest open sight line.
COLUMNS = ("rank", "layout", "file", "system", "step", "side_a", "side_b", "exposure_a", "exposure_b",
           "exposure_difference", "hidden_a", "hidden_b", "reach_a", "reach_b", "reach_difference", "favours",
           "open_lanes", "longest_lane")


def summary_rows(objects: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per layout, ranked: the smallest exposure difference (either way) first, then the
    smallest reach difference, then the fewest open lanes, then the layout's name."""
    rows = []
    for o in objects:
        a, b = o["sides"]
        bal = o["balance"]
        lane = o.get("longest_lane")
        rows.append({"rank": 0, "layout": o["layout"], "file": o["file"], "system": o["system"], "step": o["step"],
                     "side_a": a, "side_b": b, "exposure_a": bal["exposure"][a], "exposure_b": bal["exposure"][b],
                     "exposure_difference": bal["exposure_difference"], "hidden_a": o["hidden"][a], "hidden_b": o["hidden"][b],
                     "reach_a": bal["reach"][a], "reach_b": bal["reach"][b], "reach_difference": bal["reach_difference"],
                     "favours": bal["favours"], "open_lanes": o["open_lanes"], "longest_lane": lane["length"] if lane else None})

    def key(r: Mapping[str, Any]) -> tuple[float, float, float, str]:
        def size(v: Optional[float]) -> float:
            return math.inf if v is None else abs(v)
        return size(r["exposure_difference"]), size(r["reach_difference"]), size(r["open_lanes"]), r["layout"]

    rows.sort(key=key)
    for i, r in enumerate(rows, 1):
        r["rank"] = i
    return rows


def summary_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as CSV text (a header line, then one line per layout; ``\\n`` line ends)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in rows:
        w.writerow(["" if r[c] is None else r[c] for c in COLUMNS])
    return buf.getvalue()


def stderr() -> TextIO:
    """Where the progress bar goes."""
    return sys.stderr
