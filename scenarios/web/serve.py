"""``tapeline serve [FILE] [--host H] [--port P]``: the web table, served until interrupted.

The HTTP server (uvicorn, the standard ASGI server) runs in a thread of its own; every call
that touches the game runs in the main thread (:class:`MainThread`), one at a time, under the
command line's guards (:func:`tapeline.scenarios.guards.guarded`: the time limit's signals are
the main thread's; the memory limit is the process's). So the server keeps answering while a
slow question runs, and the page numbers its requests so that a late answer never shows as the
current one.

Binds ``127.0.0.1`` unless ``--host`` says otherwise, and says so when the address is not a
loopback one. Reads only FILE (once), writes nothing: a download is the browser's.
"""

from __future__ import annotations

import ipaddress
import queue
import socket
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Optional, TypeVar

from ..errors import ArgumentError
from .table import Table, blank

T = TypeVar("T")
#: The defaults of the contract (docs/web-table.md).
HOST, PORT = "127.0.0.1", 8750


class MainThread:
    """A worker that runs what is submitted in the thread that calls :meth:`run_until`."""

    def __init__(self) -> None:
        self._jobs: "queue.Queue[tuple[Callable[[], Any], Future[Any]]]" = queue.Queue()

    def submit(self, fn: Callable[[], T], /) -> "Future[T]":
        done: Future[T] = Future()
        self._jobs.put((fn, done))
        return done

    def run_until(self, alive: Callable[[], bool]) -> None:
        """Run the jobs as they come while ``alive()`` holds."""
        while alive():
            try:
                fn, done = self._jobs.get(timeout=0.2)
            except queue.Empty:
                continue
            if not done.set_running_or_notify_cancel():
                continue
            try:
                done.set_result(fn())
            except BaseException as e:  # noqa: BLE001 - handed to the request that asked
                done.set_exception(e)
                if isinstance(e, KeyboardInterrupt):  # Ctrl-C during a question stops the server too
                    raise


def loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (only this machine can reach it)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (``--port 0``: a free port), or an :class:`ArgumentError`."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise ArgumentError("--host", f"cannot listen on {host[:80]!r}: {getattr(e, 'strerror', None) or e}") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        raise ArgumentError("--port", f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def serve(file: Optional[str], host: str = HOST, port: int = PORT, out: Any = None) -> int:
    """Serve ``file`` (``None``: a blank table) at ``host:port`` until interrupted."""
    import uvicorn

    from .app import app, hosts_served

    out = out or sys.stdout
    table = Table.open(file) if file is not None else Table(blank())
    sock = listen(host, port)
    port = sock.getsockname()[1]
    allowed = set(hosts_served(host, port))
    if host in ("0.0.0.0", "::", ""):  # every address of this machine
        name = socket.gethostname()
        for h in {name, *socket.gethostbyname_ex(name)[2]}:
            allowed |= hosts_served(h, port)
    worker = MainThread()
    config = uvicorn.Config(app(table, host, port, worker=worker, allowed=allowed), log_level="warning", lifespan="off",
                            access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="tapeline-http", daemon=True)
    thread.start()
    shown = f"[{host}]" if ":" in host else host
    what = file if file is not None else "a blank table"
    print(f"tapeline: serving {what} at http://{shown}:{port}/ (open it in a browser; Ctrl-C stops)", file=out, flush=True)
    if not loopback(host):
        print(f"tapeline: note: listening on {host}, not only on this machine: anyone who can reach it "
              "can change the table", file=out, flush=True)
    try:
        worker.run_until(thread.is_alive)
    except KeyboardInterrupt:
        pass
    finally:
        server.should_exit = True
        thread.join(timeout=5)
    return 0
