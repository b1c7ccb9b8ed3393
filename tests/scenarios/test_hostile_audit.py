"""Hostile input found by an independent audit of the whole command line after issue 14 (the
commands and actions added since): each case ends with exit status 2 and one line
``FILE: PLACE: message`` on stderr — one line also for the line breaks only Unicode counts —
and nothing the user owns is overwritten."""

from __future__ import annotations

import json
import os
import time

import pytest
import yaml

from tapeline.scenarios import guards
from tapeline.scenarios.errors import one_line
from tests.conftest import cli
from tests.scenarios.test_hostile import BASE, refused


@pytest.fixture
def at(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def _at(content, name: str = "s.yaml"):
        p = tmp_path / name
        p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        return name

    return _at


# --- characters YAML does not allow, and strings that are no text --------------------------------


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x7f", "\ufffe"])
def test_a_control_character_in_yaml_is_one_located_line(at, char):
    # PyYAML's own message runs over two lines ('in "<unicode string>", position N').
    f = at(BASE.replace("system", f"sys{char}tem"))
    for command in (["check", f], ["check", f, "--json"], ["models", f], ["replay", f]):
        line = refused(cli(*command), f, "line 2")
        assert f"U+{ord(char):04X}" in line


def test_a_control_character_at_the_very_end_is_located(at):
    f = at(BASE + "\x00")
    assert "line 7" in refused(cli("check", f), f)


def test_an_escaped_control_character_inside_quotes_is_read_then_refused_in_a_name(at):
    # The escape is how YAML writes such a character: the file is read, but no id or name may
    # hold a control character (issue 21: printed, it acts on the terminal).
    f = at(BASE + 'name: "bell \\x07 here"\n')
    line = refused(cli("check", f), f, "name (line 7)")
    assert "control character \\x07 (U+0007)" in line and "\x07" not in line


def test_a_lone_surrogate_escape_in_json_is_refused_with_its_line(at):
    data = yaml.safe_load(BASE)
    text = json.dumps(data, indent=1).replace('"m2"', '"\\ud800"')
    line_no = next(i for i, ln in enumerate(text.splitlines(), 1) if "\\ud800" in ln)
    f = at(text, "s.json")
    line = refused(cli("check", f), f, f"line {line_no}")
    assert "surrogate" in line


def test_a_surrogate_pair_in_json_is_one_character(at):
    data = yaml.safe_load(BASE)
    data["name"] = "\U0001F600"
    f = at(json.dumps(data), "s.json")  # ensure_ascii: written as the pair \ud83d\ude00
    assert "\\ud83d\\ude00" in open(f).read()
    code, out, err = cli("check", f)
    assert (code, err) == (0, ""), err


def test_a_lone_surrogate_escape_in_yaml_is_refused(at):
    f = at(BASE.replace("{id: m2,", '{id: "\\ud800",'))
    refused(cli("check", f), f, "line 5")


@pytest.mark.parametrize("brk", ["\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"])
def test_one_line_joins_every_line_break(brk):
    text = f"s.yaml: arguments: no model a{brk}b"
    assert len(one_line(text).splitlines()) == 1
    assert one_line(text) == "s.yaml: arguments: no model a b"


def test_an_id_with_a_unicode_line_break_still_gives_one_line(at):
    # An id may hold U+2028 (a printable character to YAML); an error quoting it is one line.
    f = at(BASE.replace("{id: m2,", '{id: "m\\u2028two",'))
    line = refused(cli("measure", f, "m\u2028two", "nobody"), f, "argument")
    assert "nobody" in line
    line = refused(cli("measure", f, "nobody\u2029else", "m1"), f, "argument")


def test_check_of_an_invalid_file_prints_one_line_on_stderr(at):
    f = at(BASE.replace("{id: m2,", '{id: "m\\u2028two",').replace("width: 24", "width: -24"))
    code, out, err = cli("check", f)
    assert code == 2 and len(err.splitlines()) == 1, err


# --- output paths that are the input ---------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["s.yaml", "./s.yaml", "sub/../s.yaml", "link.html", "hard.html", "ABS"])
@pytest.mark.parametrize("flag", [["replay", "--html"], ["render", "-o"]])
def test_an_output_that_is_the_scenario_file_is_refused(at, tmp_path, spelling, flag):
    f = at(BASE)
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path / f, tmp_path / "link.html")
    os.link(tmp_path / f, tmp_path / "hard.html")
    out = str(tmp_path / f) if spelling == "ABS" else spelling
    command, option = flag
    line = refused(cli(command, f, option, out), f, option)
    assert "scenario file itself" in line
    assert (tmp_path / f).read_text() == BASE


@pytest.mark.parametrize("flag", [["replay", "--html"], ["render", "-o"]])
def test_an_output_that_is_a_directory_is_refused_before_any_work(at, tmp_path, monkeypatch, flag):
    f = at(BASE)
    (tmp_path / "out").mkdir()
    (tmp_path / "out.svg").mkdir()
    from tapeline.scenarios import load

    def no_work(*a, **k):  # refused before the file is even read
        raise AssertionError("the scenario was loaded")

    monkeypatch.setattr(load, "read", no_work)
    for out in ("out", "out/", "out.svg", str(tmp_path / "out")):
        line = refused(cli(flag[0], f, flag[1], out), f, f"{flag[1]}: cannot write {out}")
        assert "directory" in line
    line = refused(cli(flag[0], f, flag[1], "nowhere/x.svg"), f, f"{flag[1]}: cannot write nowhere/x.svg")
    assert "no directory nowhere" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "out.svg", "s.yaml"]
    assert list((tmp_path / "out").iterdir()) == []


# --- the time limit counts what the user waits for ----------------------------------------------------


def test_the_wall_clock_limit_stops_a_process_that_waits(monkeypatch):
    # CPU time alone lets a question on a busy machine (or one blocked) run far past the limit:
    # a ``tapeline`` process also counts wall-clock time from its start.
    monkeypatch.setattr(guards, "_STARTED", time.monotonic())
    t0 = time.monotonic()
    with pytest.raises(guards.OutOfTime) as e:
        with guards.time_limit(0.3, wall=True):
            time.sleep(5)  # no CPU time spent: only the wall clock can end it
    assert time.monotonic() - t0 < 2
    assert "wall-clock" in e.value.kind


def test_the_wall_clock_limit_counts_from_the_process_start(monkeypatch):
    # Time spent before the command (importing, parsing arguments) counts too.
    monkeypatch.setattr(guards, "_STARTED", time.monotonic() - 1.0)
    t0 = time.monotonic()
    with pytest.raises(guards.OutOfTime) as e:
        with guards.time_limit(1.0, wall=True):
            time.sleep(5)
    assert time.monotonic() - t0 < 1.0  # 1.2 s of waiting, 1 s of it before the command
    assert e.value.seconds == pytest.approx(1.0 * guards.WALL_FACTOR)


def test_without_wall_the_limit_leaves_the_alarm_alone(monkeypatch):
    import signal

    before = signal.getsignal(signal.SIGALRM)
    with guards.time_limit(5.0):
        assert signal.getsignal(signal.SIGALRM) is before
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    with guards.time_limit(5.0, wall=True):
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before


@pytest.mark.parametrize("flag", [["replay", "--html"], ["render", "-o"]])
def test_a_named_pipe_nobody_reads_is_refused_at_once(at, tmp_path, flag):
    # Opening a pipe for writing waits for a reader: forever, and without spending CPU time.
    f = at(BASE)
    os.mkfifo(tmp_path / "pipe")
    t0 = time.monotonic()
    line = refused(cli(flag[0], f, flag[1], "pipe"), f, f"{flag[1]}: cannot write pipe")
    assert "named pipe that nobody reads" in line
    assert time.monotonic() - t0 < 10


def test_a_named_pipe_with_a_reader_receives_the_picture(at, tmp_path):
    f = at(BASE)
    code, svg, err = cli("render", f, "-o", "-")
    assert code == 0 and len(svg.encode()) < 60_000  # fits in the pipe's buffer: no reader thread needed
    os.mkfifo(tmp_path / "pipe")
    fd = os.open(tmp_path / "pipe", os.O_RDONLY | os.O_NONBLOCK)  # the reader is there first
    try:
        code, out, err = cli("render", f, "-o", "pipe")
        assert (code, err) == (0, ""), err
        got = os.read(fd, 1 << 20)
    finally:
        os.close(fd)
    assert got.decode() == svg


def test_a_full_disk_is_one_line(at):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    f = at(BASE)
    line = refused(cli("render", f, "-o", "/dev/full"), f, "-o: cannot write /dev/full")
    assert "space" in line.lower()


# --- command-line ids longer than any id ------------------------------------------------------------


def test_an_id_longer_than_any_is_not_echoed_whole(at):
    f = at(BASE)
    line = refused(cli("measure", f, "a" * 5000, "m1"), f, "argument A")
    assert "5000 characters" in line and len(line) < 300
    line = refused(cli("charge", f, "--unit", "z", "--target", "b" * 101), f, "--target")
    assert "101 characters" in line and len(line) < 300


# --- the watchdog: a command stuck where Python's signals cannot reach it ------------------------

_STUCK = """
import os, signal, sys, time
from tapeline.scenarios import cli, guards

def stuck(argv=None):  # as a long call into compiled code: the limit's own signals never run
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGPROF})
    {body}

cli.main = stuck
sys.argv = ["tapeline", "check", "s.yaml"]
guards.run()
"""


def _run_stuck(tmp_path, body: str, limit: str = "0.5"):
    import subprocess
    import sys

    env = dict(os.environ, TAPELINE_TIME_LIMIT=limit)
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-c", _STUCK.replace("{body}", body)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=60)
    return r, time.monotonic() - t0


def test_the_watchdog_stops_a_command_its_signals_cannot_reach(tmp_path):
    r, took = _run_stuck(tmp_path, "time.sleep(30)")
    assert r.returncode == 2, r
    assert r.stderr.splitlines() == ["s.yaml: check: gave up after 1.1 s of wall-clock time, the limit (TAPELINE_TIME_LIMIT)"]
    assert took < 10  # 0.5 × 1.2 + 0.5 s of grace, not the 30 s asked for


def test_a_worker_killed_by_a_signal_is_one_line_and_exit_2(tmp_path):
    r, _ = _run_stuck(tmp_path, "os.kill(os.getpid(), signal.SIGKILL)")
    assert r.returncode == 2, r
    assert r.stderr.splitlines() == ["s.yaml: check: stopped by signal 9 (SIGKILL): out of memory, or killed"]


def test_the_watchdog_passes_the_exit_status_and_output_through(tmp_path):
    r, _ = _run_stuck(tmp_path, "print('answer'); sys.stdout.flush(); os._exit(1)")
    assert (r.returncode, r.stdout, r.stderr) == (1, "answer\n", "")


def test_the_wall_clock_counts_from_the_process_start():
    # the interpreter's own start-up counts: the clock starts before this module was imported
    import subprocess
    import sys

    code = ("import time; t = time.monotonic(); from tapeline.scenarios import guards; "
            "print(t - guards._STARTED)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    before = float(r.stdout)
    assert 0 < before < 30, r  # started before the first line ran, and not long before
