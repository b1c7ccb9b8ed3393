"""The ``tapeline`` command.

Each sub-command lives in its own module of :mod:`scenarios.commands` with a
``register(subparsers)`` function; they are discovered, so adding a command touches nothing
else. A command module stays light at the top (argparse and this package's small helpers): what
its answer needs (numpy, shapely, the file format, the rules) it imports when it runs, so that
``tapeline --help`` and every command start without loading what they do not use
(docs/performance.md; tests/scenarios/test_startup.py checks it). Exit status: 0 answered, 1 a replay's expectation failed, 2 invalid input: one line
``FILE: PLACE: message`` on stderr, nothing else there, never a traceback (docs/reliability.md).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import pkgutil
import sys
import threading
import time
import warnings
from contextlib import contextmanager
from typing import NoReturn, Optional, Sequence

from tapeline.board.errors import TapelineError

from . import commands
from .errors import ScenarioError, one_line


class UsageError(Exception):
    """A command line argparse cannot read (reported as one located line, exit status 2)."""


class Parser(argparse.ArgumentParser):
    """argparse, but a bad command line raises :class:`UsageError` instead of printing the usage
    and a second line (the sub-commands' parsers are of this class too)."""

    def error(self, message: str):
        raise UsageError(message)

    def later(self, add) -> None:
        """Call ``add(self)`` (which adds arguments) only when this parser is used: parsing or
        help. A command whose options come from modules it would otherwise import up front (the
        ``render`` overlays) registers them this way."""
        self.__dict__.setdefault("_later", []).append(add)

    def _complete(self) -> None:
        for add in self.__dict__.pop("_later", ()):
            add(self)

    def parse_known_args(self, args=None, namespace=None):
        self._complete()
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        self._complete()
        return super().format_help()

    def format_usage(self) -> str:
        self._complete()
        return super().format_usage()


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0,
                         help=help or "show program's version number and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        from tapeline import __version__

        formatter = parser._get_formatter()
        formatter.add_text(f"tapeline {__version__}")
        parser._print_message(formatter.format_help(), sys.stdout)
        parser.exit()


def parser(command: Optional[str] = None) -> argparse.ArgumentParser:
    """The ``tapeline`` parser with every command, or with ``command`` alone when it names one
    (what :func:`main` asks for: the other commands' modules need not be loaded to answer)."""
    p = Parser(
        prog="tapeline",
        description="Exact geometry for miniature wargames: measure, sight lines, charges, odds, replays.",
    )
    p.add_argument("--version", action=_Version)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    names = command_names()
    for name in [command] if command in names else names:
        importlib.import_module(f"{commands.__name__}.{name}").register(sub)
    return p


def command_names() -> list[str]:
    """The modules of :mod:`scenarios.commands`, as ``pkgutil.iter_modules`` lists them, read
    from its folder (``pkgutil`` imports ``inspect``: about 6 ms of every command)."""
    names = set()
    for folder in commands.__path__:
        try:
            entries = os.listdir(folder)
        except OSError:  # not a folder (a zip ...): pkgutil knows how to look
            return sorted(m.name for m in pkgutil.iter_modules(commands.__path__))
        for entry in entries:
            stem, ext = os.path.splitext(entry)
            if ext == ".py" and stem != "__init__" and stem.isidentifier():
                names.add(stem)
            elif not ext and entry.isidentifier() and os.path.isfile(os.path.join(folder, entry, "__init__.py")):
                names.add(entry)
    return sorted(names)


def emit(obj: dict, as_json: bool, human: str) -> None:
    """Print ``obj`` as one JSON object with ``--json``, else the human text."""
    if as_json:
        print(json.dumps(obj, indent=2, ensure_ascii=False))
    else:
        print(human)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser(argv[0] if argv else None).parse_args(argv)
    except UsageError as e:
        file = _file_argument(argv)
        print(one_line(f"{file}: arguments: {e}" if file else f"tapeline: error: {e}"), file=sys.stderr)
        return 2
    from .cliutil import NOTES

    NOTES.clear()
    try:
        with quiet_numerics(), time_limit(_env_number("TAPELINE_TIME_LIMIT", TIME_LIMIT), wall=_WALL_CLOCK):
            code = args.func(args)
    except TapelineError as e:
        return fail(args, e)
    except OutOfTime as e:
        return fail(args, TapelineError(f"gave up after {e.seconds:g} s{e.kind}, the limit (TAPELINE_TIME_LIMIT)"))
    except BrokenPipeError:  # pragma: no cover - `tapeline ... | head`
        return 0
    except (RecursionError, MemoryError) as e:  # limits should make these impossible
        return fail(args, TapelineError(f"the input is too large to answer ({type(e).__name__})"))
    except Exception as e:  # noqa: BLE001 - the contract: never a traceback
        return fail(args, TapelineError(f"internal error, please report it: {type(e).__name__}: {str(e)[:300]}"))
    for note in NOTES:
        print(note, file=sys.stderr)
    return int(code or 0)


def _file_argument(argv: Sequence[str]) -> Optional[str]:
    """The FILE of a command line argparse refused: the first word after the command that
    names a file, else the word right after the command."""
    words = [w for w in argv if not w.startswith("-")][1:]
    return next((w for w in words if os.path.isfile(w)), words[0] if words else None)


def fail(args, e: TapelineError) -> int:
    """Print ``e`` as the one line ``FILE: PLACE: message`` on stderr; exit status 2."""
    file = getattr(args, "file", None)
    if isinstance(e, ScenarioError) or getattr(e, "file", None) or file is None:
        line = str(e)  # it names its file itself (a ScenarioError, cliutil's ArgumentError)
    elif e.location:
        line = f"{file}: {e}"
    else:
        line = f"{file}: {args.command}: {e}"
    print(one_line(line), file=sys.stderr)
    return 2


@contextmanager
def quiet_numerics():
    """numpy's floating-point warnings and Python's numeric warnings stay off stderr: every
    verdict that reaches the user is checked where it is made, not by a warning."""
    import numpy as np

    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)
        yield


#: Seconds one command may take before it gives up with exit status 2 (a bound on every
#: question, whatever the file asks; the environment variable TAPELINE_TIME_LIMIT changes it,
#: 0 switches it off): CPU time, and in a ``tapeline`` process also wall-clock time from its
#: start — on a busy machine CPU time alone lets a question keep its user waiting far longer.
TIME_LIMIT = 15.0
#: The wall-clock limit is this many times the CPU-time limit (15 s of CPU, 18 s of waiting): a
#: question that computes well within its CPU time keeps some room on a busy machine, and the
#: user still has an answer or a refusal within 20 s.
WALL_FACTOR = 1.2
#: Whether the time limit also counts wall-clock time (set by :func:`run`, the ``tapeline``
#: process; code calling :func:`main` in a process of its own choosing keeps CPU time only).
_WALL_CLOCK = False
def _process_start() -> float:
    """When this process started, on the :func:`time.monotonic` clock: Linux's ``/proc`` tells
    (the interpreter's own start-up counts too, a good part of a second on a busy machine);
    elsewhere, now."""
    now = time.monotonic()
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            start_ticks = int(fh.read().rsplit(")", 1)[1].split()[19])  # field 22: starttime
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - age if 0 <= age < 60 else now


#: When the process started: the wall-clock limit counts from here.
_STARTED = _process_start()
#: Address space a ``tapeline`` process may take (bytes; TAPELINE_MEMORY_LIMIT, 0: none): an
#: allocation past it is a MemoryError, reported as one line, instead of the machine swapping.
MEMORY_LIMIT = 3 * 2**30


class OutOfTime(BaseException):
    """Raised in the main thread when the time limit passes (a BaseException, so that no
    ``except Exception`` on the way can swallow it)."""

    def __init__(self, seconds: float, kind: str = " of computing"):
        super().__init__(seconds)
        self.seconds, self.kind = seconds, kind


@contextmanager
def time_limit(seconds: float, wall: bool = False):
    """Raise :class:`OutOfTime` once the process has spent ``seconds`` more CPU time (user and
    system) or, with ``wall``, once ``seconds`` × :data:`WALL_FACTOR` of wall-clock time have
    passed since the process started (:data:`_STARTED`): what a user waits for, however busy the
    machine is."""
    import signal

    if not seconds or seconds <= 0 or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise OutOfTime(seconds)

    waiting = seconds * WALL_FACTOR

    def expire_wall(signum, frame):
        raise OutOfTime(waiting, " of wall-clock time (the machine is busy or the question is large)")

    old = signal.signal(signal.SIGPROF, expire)
    old_wall = signal.signal(signal.SIGALRM, expire_wall) if wall else None
    signal.setitimer(signal.ITIMER_PROF, seconds)
    if wall:
        signal.setitimer(signal.ITIMER_REAL, max(waiting - (time.monotonic() - _STARTED), 1e-3))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        if wall:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_wall)


def _env_number(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def limit_memory(limit: float) -> None:
    """Cap this process's address space at ``limit`` bytes (soft limit; where supported)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = int(limit)
        if want > 0 and (hard == resource.RLIM_INFINITY or want < hard) and (soft == resource.RLIM_INFINITY or want < soft):
            resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not every platform
        pass


#: The cyclic garbage collector's thresholds in a ``tapeline`` process: loading the libraries
#: makes hundreds of thousands of long-lived objects, and with Python's defaults (700, 10, 10) the
#: collector scans them again and again while a command starts; a young-generation pass every
#: 100,000 allocations instead (the older generations as ever, every 10 passes of the one below)
#: still collects all cyclic garbage, a few megabytes later at most.
GC_THRESHOLDS = (100_000, 10, 10)


#: numpy's BLAS library starts a pool of threads when numpy is imported, one per core, which
#: spin waiting for work: on the benchmark machine about 100 ms of CPU a command, taken from
#: the command itself on a busy machine. tapeline's arrays are small (no large matrix products),
#: so a ``tapeline`` process asks for one thread, unless its environment already says how many.
BLAS_THREADS = {"OPENBLAS_NUM_THREADS": "1"}


def run() -> NoReturn:  # console-script entry point
    global _WALL_CLOCK
    _WALL_CLOCK = True
    gc.set_threshold(*GC_THRESHOLDS)
    for name, value in BLAS_THREADS.items():  # before numpy is imported
        os.environ.setdefault(name, value)
    from . import cliutil

    cliutil.FREEZE_AFTER_LOAD = True
    limit_memory(_env_number("TAPELINE_MEMORY_LIMIT", MEMORY_LIMIT))
    seconds = _env_number("TAPELINE_TIME_LIMIT", TIME_LIMIT)
    if seconds > 0:
        watchdog(seconds * WALL_FACTOR + WATCHDOG_GRACE, sys.argv[1:])  # returns in the worker only
    try:
        code = main()
    except SystemExit as e:  # --help and --version end through argparse's exit
        code = e.code
    finish(code)


#: Seconds the watchdog waits past the wall-clock limit before it stops the command itself.
WATCHDOG_GRACE = 0.5


def watchdog(deadline: float, argv: Sequence[str]) -> None:
    """Run the command in a forked worker and watch it: the time limit's signals are handled by
    Python between two steps of its bytecode, so one long call into compiled code (a shapely or
    numpy operation on a huge table) can hold them off well past the limit. Once ``deadline``
    seconds have passed since the start (:data:`_STARTED`), the watchdog stops the worker and
    says so in the one-line form (exit status 2); a worker ended by a signal (the kernel's
    out-of-memory killer ...) is reported the same way. Returns in the worker; the watchdog
    process ends with the worker's exit status. Without ``fork`` nothing is watched."""
    import signal

    try:
        pid = os.fork()
    except (AttributeError, OSError):
        return
    if pid == 0:
        return

    class Late(Exception):
        pass

    def late(signum, frame):
        raise Late

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the worker, which ends itself
    signal.signal(signal.SIGTERM, lambda signum, frame: os.kill(pid, signal.SIGTERM))  # `timeout`, `kill`
    signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, max(deadline - (time.monotonic() - _STARTED), 1e-3))
    try:
        _, status = os.waitpid(pid, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
    except Late:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        _watchdog_says(argv, f"gave up after {deadline:g} s of wall-clock time, the limit (TAPELINE_TIME_LIMIT)")
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        try:
            name = f" ({signal.Signals(-code).name})"
        except ValueError:
            name = ""
        _watchdog_says(argv, f"stopped by signal {-code}{name}: out of memory, or killed")
    os._exit(code)


def _watchdog_says(argv: Sequence[str], message: str) -> NoReturn:
    file = _file_argument(argv)
    command = next((w for w in argv if not w.startswith("-")), "tapeline")
    print(one_line(f"{file}: {command}: {message}" if file else f"tapeline: error: {message}"), file=sys.stderr, flush=True)
    os._exit(2)


def finish(code) -> NoReturn:
    """End the process with ``code`` (read as :func:`sys.exit` reads it) once the output is
    flushed, without the interpreter's teardown: freeing every module a command loaded (numpy,
    shapely, pydantic ...) costs about a fifth of a short command's time, and a finished command
    needs none of it (every file it writes is closed when it returns). A reader that has gone
    away (``tapeline ... | head``) is no error."""
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
