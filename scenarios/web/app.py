"""The web table's HTTP routes (Starlette): the contract of docs/web-table.md.

* ``GET /`` the page (``page/``); ``GET /page.js``, ``GET /page.css`` its script and style;
* ``GET /api/scenario`` the table as one JSON document in the file format (``?format=yaml``: the
  same document as YAML, for a download); ``PUT /api/scenario`` replaces it (200, or 422
  ``{"errors": [{"location", "message"}]}`` with nothing changed);
* ``POST /api/ask`` ``{"command": "los", "args": ["c2", "zb1"]}`` → exactly the JSON object
  ``tapeline los FILE c2 zb1 --json`` prints; 422 ``{"error": {"location", "message"}}``;
* ``POST /api/explain``, the same body → ``{"answer": ..., "text": ...}``: that answer and the
  words the command prints without ``--json`` (the page's);
* ``POST /api/push`` ``{"action": {...}}`` → ``{"events": [...]}``; ``POST /api/pop`` →
  ``{"popped": ACTION}``;
* ``POST /api/svg`` ``{"overlays": {"los": ["c2", "zb1"]}}`` → ``{"svg": ...}``, the picture
  ``tapeline render`` draws with those overlays; ``GET /api/units?system=S`` the bundled
  catalogue (``tapeline units S --json``); ``GET /api/info`` the systems and table sizes;
* ``POST /api/analyse`` ``{"step": 2}`` → ``{"analysis": ..., "layers": [...]}``: the object
  ``tapeline analyse FILE --step 2 --json`` prints and its maps as SVG layers (:mod:`.maps`).

Safety: a request whose ``Host`` header names another address than the one served gets 403 (a
page on another site cannot drive the table: DNS rebinding); a body longer than a scenario file
may be (:data:`tapeline.scenarios.yamlio.MAX_FILE_BYTES`) gets 413 with a located message; every
call that touches the game runs in the worker (:class:`Worker`), off the event loop, so the
server keeps answering while a slow question runs.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from importlib import resources
from typing import Any, Protocol, TypeVar

import yaml
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import yamlio
from .maps import DEFAULT_STEP, MAX_CELLS, Maps
from .table import SIZES, Refused, Table, catalogue

T = TypeVar("T")

#: The page's files and their media types.
ASSETS = {"/": ("page.html", "text/html; charset=utf-8"), "/page.js": ("page.js", "text/javascript; charset=utf-8"),
          "/page.css": ("page.css", "text/css; charset=utf-8")}
#: No page on another site may frame or script the table.
HEADERS = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Cache-Control": "no-store",
           "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'"}


class Worker(Protocol):
    """Where the calls that touch the game run: ``submit(fn)`` → a future of ``fn()``."""

    def submit(self, fn: Callable[[], T], /) -> "Future[T]": ...


def hosts_served(host: str, port: int) -> frozenset[str]:
    """The ``Host`` headers a request to ``host:port`` may carry: that address (with and without
    the port), and for a loopback address ``localhost`` too."""
    names = {host}
    if host in ("127.0.0.1", "::1", "localhost"):
        names |= {"127.0.0.1", "localhost", "[::1]"}
    elif ":" in host:
        names = {f"[{host}]"}
    return frozenset(names | {f"{n}:{port}" for n in names})


class HostCheck:
    """ASGI middleware: 403 for a request whose ``Host`` header is not one of ``allowed``."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]):
        self.app, self.allowed = app, frozenset(h.lower() for h in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
            if host not in self.allowed:
                said = f"Host {host[:80]!r} is not the address this table is served at"
                await JSONResponse({"error": {"location": "Host", "message": said}}, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class TooLarge(Exception):
    """A request body longer than a scenario file may be."""


async def _body(request: Request) -> Any:
    """The request's JSON body, read up to the file format's size limit."""
    limit = yamlio.MAX_FILE_BYTES
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooLarge()
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge()
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise Refused([("body", f"not a JSON document: {str(e)[:120]}")]) from None


def _field(body: Any, key: str, default: Any = None) -> Any:
    if not isinstance(body, dict):
        raise Refused([("body", f"a JSON object with {key!r}")])
    return body.get(key, default)


def app(table: Table, host: str = "127.0.0.1", port: int = 8750, worker: Worker | None = None,
        allowed: Iterable[str] | None = None) -> ASGIApp:
    """The web table's application serving ``table`` at ``host:port``; ``worker`` runs the calls
    that touch the game (default: one thread of its own); ``allowed`` the ``Host`` headers
    accepted (default: :func:`hosts_served`)."""
    work: Worker = worker or ThreadPoolExecutor(max_workers=1, thread_name_prefix="tapeline-table")
    maps = Maps(table)

    async def run(fn: Callable[[], T]) -> T:
        return await asyncio.wrap_future(work.submit(fn))

    def route(fn: Callable[[Request], Awaitable[Response]], one_error: bool = False) -> Callable[[Request], Awaitable[Response]]:
        async def handle(request: Request) -> Response:
            try:
                return await fn(request)
            except TooLarge:
                big = Refused([("body", f"the request body is larger than a scenario file may be "
                                        f"({yamlio.MAX_FILE_BYTES:,} bytes)")])
                return _json(big.first() if one_error else big.as_json(), 413)
            except Refused as e:
                return _json(e.first() if one_error else e.as_json(), 422)
            except Exception as e:  # noqa: BLE001 - as the command line: a located line, never a traceback
                said = Refused([(request.url.path, f"internal error, please report it: {type(e).__name__}: {str(e)[:300]}")])
                return _json(said.first() if one_error else said.as_json(), 500)
        return handle

    async def page(request: Request) -> Response:
        name, media = ASSETS[request.url.path]
        text = resources.files(__package__).joinpath("page", name).read_text(encoding="utf-8")
        return Response(text, media_type=media, headers=HEADERS)

    async def get_scenario(request: Request) -> Response:
        doc = table.document()
        if request.query_params.get("format") == "yaml":
            text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)
            return Response(text, media_type="application/yaml; charset=utf-8", headers=HEADERS)
        return _json(doc)

    async def put_scenario(request: Request) -> Response:
        doc = await _body(request)
        await run(lambda: table.replace(doc))
        return _json({"valid": True, "errors": []})

    async def ask(request: Request) -> Response:
        body = await _body(request)
        command, args = _field(body, "command"), _field(body, "args", [])
        return _json(await run(lambda: table.ask(command, args)))

    async def explain(request: Request) -> Response:
        body = await _body(request)
        command, args = _field(body, "command"), _field(body, "args", [])
        return _json(await run(lambda: table.explain(command, args)))

    async def push(request: Request) -> Response:
        action = _field(await _body(request), "action")
        return _json({"events": await run(lambda: table.push(action))})

    async def pop(request: Request) -> Response:
        return _json({"popped": await run(table.pop)})

    async def svg(request: Request) -> Response:
        overlays = _field(await _body(request), "overlays", {})
        return _json({"svg": await run(lambda: table.svg(overlays))})

    async def analyse(request: Request) -> Response:
        body = await _body(request)
        return _json(await run(lambda: maps.answer(body)))

    async def units(request: Request) -> Response:
        system = request.query_params.get("system", table.document().get("system", ""))
        return _json(await run(lambda: catalogue(system)))

    async def info(request: Request) -> Response:
        from tapeline.rules.systems import SYSTEMS

        return _json({"file": table.file, "systems": list(SYSTEMS), "sizes": {k: list(v) for k, v in SIZES.items()},
                      "maps": {"step": DEFAULT_STEP, "limit": MAX_CELLS}})

    routes = [Route(path, route(page), methods=["GET"]) for path in ASSETS] + [
        Route("/api/scenario", route(get_scenario), methods=["GET"]),
        Route("/api/scenario", route(put_scenario), methods=["PUT"]),
        Route("/api/ask", route(ask, one_error=True), methods=["POST"]),
        Route("/api/explain", route(explain, one_error=True), methods=["POST"]),
        Route("/api/push", route(push, one_error=True), methods=["POST"]),
        Route("/api/pop", route(pop, one_error=True), methods=["POST"]),
        Route("/api/svg", route(svg, one_error=True), methods=["POST"]),
        Route("/api/analyse", route(analyse, one_error=True), methods=["POST"]),
        Route("/api/units", route(units, one_error=True), methods=["GET"]),
        Route("/api/info", route(info), methods=["GET"]),
        Route("/favicon.ico", lambda request: Response(status_code=204), methods=["GET"]),  # the browser asks; nothing to show
    ]
    return HostCheck(Starlette(routes=routes), allowed if allowed is not None else hosts_served(host, port))


def _json(obj: Any, status: int = 200) -> Response:
    return Response(json.dumps(obj, ensure_ascii=False), status_code=status, media_type="application/json", headers=HEADERS)
