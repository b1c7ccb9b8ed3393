"""The ``tapeline`` process's guards: what keeps one command (or one question of a session)
within bounds whatever it is asked, and the entry point that sets them.

* a **time limit** (:func:`time_limit`, ``TAPELINE_TIME_LIMIT`` seconds, 15 by default; 0: none):
  CPU time, and in a one-shot command wall-clock time from the process's start too;
* a **watchdog** process (:func:`watchdog`) that stops a command whose compiled code holds the
  limit's signal off, and reports a worker ended by a signal;
* a **memory limit** (:func:`limit_memory`, ``TAPELINE_MEMORY_LIMIT`` bytes, 3 GiB by default);
* **one BLAS thread** (:data:`BLAS_THREADS`): numpy's pool of spinning threads costs a short
  command a tenth of a second of CPU for arrays this small;
* numpy's floating-point warnings kept off stderr (:func:`quiet_numerics`);
* the **exit without teardown** (:func:`finish`): freeing every module a command loaded is a
  fifth of a short command's time and does nothing a finished command needs.

Exit status: 0 answered, 1 a replay's expectation failed, 2 invalid input (docs/reliability.md).
"""

from __future__ import annotations

import math
import os
import resource
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn, Optional, TypeVar, Union

from tapeline.board.errors import TapelineError

from .errors import one_line

T = TypeVar("T")


@contextmanager
def quiet_numerics() -> Iterator[None]:
    """numpy's floating-point warnings and Python's numeric warnings stay off stderr: every
    verdict that reaches the user is checked where it is made, not by a warning."""
    import numpy as np  # here, not at the top: run() sets BLAS_THREADS before numpy is loaded

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
def time_limit(seconds: float, wall: bool = False) -> Iterator[None]:
    """Raise :class:`OutOfTime` once the process has spent ``seconds`` more CPU time (user and
    system) or, with ``wall``, once ``seconds`` × :data:`WALL_FACTOR` of wall-clock time have
    passed since the process started (:data:`_STARTED`): what a user waits for, however busy the
    machine is."""
    if not seconds or seconds <= 0 or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Optional[FrameType]) -> None:
        raise OutOfTime(seconds)

    waiting = seconds * WALL_FACTOR

    def expire_wall(signum: int, frame: Optional[FrameType]) -> None:
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


#: The largest time limit (seconds: about 11.6 days): longer than anyone waits for an answer,
#: and well inside the range of the timers (``1e308`` overflowed them).
MAX_TIME_LIMIT = 1_000_000
#: The smallest memory limit but 0 (bytes, 256 MiB): with less address space a ``tapeline``
#: process cannot even load its libraries (numpy, shapely, pydantic), let alone answer.
MIN_MEMORY_LIMIT = 256 * 2**20
#: The largest (bytes, 128 TiB): the whole address space a process has on a 64-bit machine.
MAX_MEMORY_LIMIT = 2**47


class LimitError(TapelineError):
    """An environment variable that sets a limit holds no value the limit can take: ``location``
    names the variable, the message says what it may hold."""

    def __init__(self, variable: str, message: str):
        super().__init__(message)
        self.location, self.message = variable, message


def _env_number(name: str, default: float) -> tuple[float, str]:
    """The number ``name`` holds (``default`` when it is unset or empty) and its text; a
    :class:`LimitError` for text that is no finite number."""
    raw = os.environ.get(name, "")
    if not raw.strip():
        return default, ""
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise LimitError(name, f"{raw[:40]!r} is not a finite number{_RANGES[name]}")
    return value, raw


_RANGES = {
    "TAPELINE_TIME_LIMIT": f": give seconds, from 0 (no limit) to {MAX_TIME_LIMIT:,}",
    "TAPELINE_MEMORY_LIMIT": (f": give bytes, from {MIN_MEMORY_LIMIT:,} (256 MiB, the least tapeline starts with) "
                              f"to {MAX_MEMORY_LIMIT:,} (128 TiB), or 0 (no limit)"),
}


#: Commands that run as long as their work lasts (``analyse``: a batch of layouts): no time
#: limit unless TAPELINE_TIME_LIMIT gives one, and no watchdog (docs/analysis.md).
BATCH_COMMANDS = frozenset({"analyse"})


def time_limit_seconds(default: float = TIME_LIMIT) -> float:
    """``TAPELINE_TIME_LIMIT``: seconds, 0 (no limit) to :data:`MAX_TIME_LIMIT`; unset or
    empty: ``default`` (:data:`TIME_LIMIT`). Anything else is a :class:`LimitError` naming the
    variable."""
    name = "TAPELINE_TIME_LIMIT"
    value, raw = _env_number(name, default)
    if not 0 <= value <= MAX_TIME_LIMIT:
        raise LimitError(name, f"{raw[:40]!r} is out of range{_RANGES[name]}")
    return value


def memory_limit_bytes() -> int:
    """``TAPELINE_MEMORY_LIMIT``: bytes, 0 (no limit) or :data:`MIN_MEMORY_LIMIT` to
    :data:`MAX_MEMORY_LIMIT`; unset or empty: :data:`MEMORY_LIMIT`. Anything else is a
    :class:`LimitError` naming the variable."""
    name = "TAPELINE_MEMORY_LIMIT"
    value, raw = _env_number(name, MEMORY_LIMIT)
    if value != 0 and not MIN_MEMORY_LIMIT <= value <= MAX_MEMORY_LIMIT:
        raise LimitError(name, f"{raw[:40]!r} is out of range{_RANGES[name]}")
    return int(value)


def limit_memory(limit: float) -> None:
    """Cap this process's address space at ``limit`` bytes (soft limit; where supported)."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = int(limit)
        if want > 0 and (hard == resource.RLIM_INFINITY or want < hard) and (soft == resource.RLIM_INFINITY or want < soft):
            resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ValueError, OSError):  # pragma: no cover - not every platform
        pass


#: numpy's BLAS library starts a pool of threads when numpy is imported, one per core, which
#: spin waiting for work: on the benchmark machine about 100 ms of CPU a command, taken from
#: the command itself on a busy machine. tapeline's arrays are small (no large matrix products),
#: so a ``tapeline`` process asks for one thread, unless its environment already says how many.
BLAS_THREADS = {"OPENBLAS_NUM_THREADS": "1"}


def run() -> NoReturn:  # console-script entry point
    """The ``tapeline`` process: the guards set (before numpy is imported), then the command
    (:func:`tapeline.scenarios.cli.main`), then the exit without teardown. A session
    (``tapeline shell``, and the web table, ``tapeline serve``) runs as long as its input lasts,
    each question under the time limit: it has no watchdog and no wall-clock limit from the
    process's start."""
    global _WALL_CLOCK
    argv = sys.argv[1:]
    session = bool(argv) and argv[0] in ("shell", "serve")  # a session; the web table is one too
    batch = bool(argv) and argv[0] in BATCH_COMMANDS
    _WALL_CLOCK = not session and not batch
    for name, value in BLAS_THREADS.items():  # before numpy is imported
        os.environ.setdefault(name, value)
    try:
        memory, seconds = memory_limit_bytes(), time_limit_seconds(0.0 if batch else TIME_LIMIT)
    except LimitError as e:
        _says(argv, f"{e.location}: {e.message}")
    limit_memory(memory)
    if seconds > 0 and not session and not batch:
        watchdog(seconds * WALL_FACTOR + WATCHDOG_GRACE, argv)  # returns in the worker only
    from .cli import main  # the command's modules: numpy is loaded from here on

    code: Union[str, int, None]
    try:
        code = main(argv)
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
    process ends with the worker's exit status. Without ``fork`` (or ``sigtimedwait``) nothing
    is watched.

    The watchdog waits for the worker's end as a signal (``SIGCHLD``, blocked from before the
    fork, so an end cannot be missed) with a timeout, rather than with an alarm that interrupts
    the wait: an alarm firing just as the worker ends could not tell a finished worker from a
    stuck one."""
    if not hasattr(os, "fork") or not hasattr(signal, "sigtimedwait"):
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
    try:
        pid = os.fork()
    except OSError:
        pid = 0
    if pid == 0:  # the worker (or no fork): the command runs here
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        return

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the worker, which ends itself
    signal.signal(signal.SIGTERM, lambda signum, frame: os.kill(pid, signal.SIGTERM))  # `timeout`, `kill`
    while True:  # a SIGCHLD also comes when the worker is stopped or continued: wait on then
        left = deadline - (time.monotonic() - _STARTED)
        if signal.sigtimedwait([signal.SIGCHLD], max(left, 1e-3)) is None:  # still running at the deadline
            os.kill(pid, signal.SIGKILL)  # (a worker that ended this instant is a zombie: no harm done)
            _, status = os.waitpid(pid, 0)
            if os.waitstatus_to_exitcode(status) == -signal.SIGKILL:
                _says(argv, f"{_command(argv)}: gave up after {deadline:g} s of wall-clock time, the limit (TAPELINE_TIME_LIMIT)")
            break
        ended, status = os.waitpid(pid, os.WNOHANG)
        if ended:
            break
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        try:
            name = f" ({signal.Signals(-code).name})"
        except ValueError:
            name = ""
        _says(argv, f"{_command(argv)}: stopped by signal {-code}{name}: out of memory, or killed")
    os._exit(code)


def file_argument(argv: Sequence[str]) -> str | None:
    """The FILE of a command line: the first word after the command that names a file, else
    the word right after the command."""
    words = [w for w in argv if not w.startswith("-")][1:]
    return next((w for w in words if os.path.isfile(w)), words[0] if words else None)


def _command(argv: Sequence[str]) -> str:
    return next((w for w in argv if not w.startswith("-")), "tapeline")


def _says(argv: Sequence[str], message: str) -> NoReturn:
    """End the process with ``FILE: message`` (``tapeline: error: message`` without a file) as
    its one line on stderr, exit status 2."""
    file = file_argument(argv)
    print(one_line(f"{file}: {message}" if file else f"tapeline: error: {message}"), file=sys.stderr, flush=True)
    os._exit(2)


def finish(code: Union[str, int, None]) -> NoReturn:
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


def guarded(action: Callable[[], T], batch: bool = False) -> T:
    """``action()`` with numpy's warnings quiet and the time limit (TAPELINE_TIME_LIMIT) set:
    one command, or one question of a session; a ``batch`` command has none unless the
    variable gives one."""
    with quiet_numerics(), time_limit(time_limit_seconds(0.0 if batch else TIME_LIMIT), wall=_WALL_CLOCK):
        return action()


if __name__ == "__main__":  # pragma: no cover
    run()
