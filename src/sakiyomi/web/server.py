"""The ASGI app behind ``sakiyomi serve`` (Starlette, served by uvicorn).

HTTP: ``/`` the page, ``/static/*`` its script and style (packaged files only: no request
reaches the file system otherwise), ``/api/games``, ``/api/state`` (replay a game and draw it),
``/api/trace`` and ``/api/compare`` (the teaching view), ``/api/examples``.  WebSocket ``/ws``:
``{"op": "search", ...}`` starts a search in a worker thread and streams ``info`` /
``analysis`` / ``progress`` messages and a final ``done``; ``{"op": "stop"}`` stops it, and so
does closing the tab.  Bad input of any kind is answered with ``{"error": reason}`` (HTTP 400
or a WebSocket ``error`` message), never a server error.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from sakiyomi.game import GameError
from sakiyomi.web.jobs import KINDS, JobRequest, SearchJob, warm_up
from sakiyomi.web.settings import WebLimits
from sakiyomi.web.state import RequestError, describe, games_list, replay
from sakiyomi.web.teach import EXAMPLES, node_table, trace


class Slots:
    """At most ``size`` searches at once; a request finding none free is refused, not queued
    (a page that waits silently would look frozen).
    """

    def __init__(self, size: int) -> None:
        self._free = threading.BoundedSemaphore(size)

    def take(self) -> None:
        """Claim a slot or raise GameError saying the server is busy."""
        if not self._free.acquire(blocking=False):
            raise GameError("the server is busy with other searches: try again in a moment")

    def give(self) -> None:
        """Return a slot."""
        self._free.release()


class Server:
    """The shared state of one app: limits, worker threads, slots and running jobs."""

    def __init__(self, limits: WebLimits) -> None:
        self.limits = limits
        self.slots = Slots(limits.max_concurrent)
        self.executor = ThreadPoolExecutor(max_workers=limits.max_concurrent,
                                           thread_name_prefix="sakiyomi-search")
        self.jobs: set[SearchJob] = set()
        self._lock = threading.Lock()
        self.warm = threading.Event()  # set once the compiled engines are built

    def warm_up(self) -> None:
        """Build the compiled engines in the background (the page works meanwhile)."""

        def work() -> None:
            try:
                warm_up()
            finally:
                self.warm.set()

        threading.Thread(target=work, name="sakiyomi-warm-up", daemon=True).start()

    def start(self, job: SearchJob) -> Future[dict[str, Any]]:
        """Run ``job`` in a worker thread (a slot must have been taken)."""
        with self._lock:
            self.jobs.add(job)
        future = self.executor.submit(job.run)
        future.add_done_callback(lambda _: self._finished(job))
        return future

    def _finished(self, job: SearchJob) -> None:
        with self._lock:
            self.jobs.discard(job)
        self.slots.give()

    def running(self) -> int:
        """Searches still running (tests check that closed tabs leave none behind)."""
        with self._lock:
            return len(self.jobs)

    def shutdown(self) -> None:
        """Stop every search and wait for the threads."""
        with self._lock:
            jobs = list(self.jobs)
        for job in jobs:
            job.stop()
        self.executor.shutdown(wait=True)


# ---- HTTP --------------------------------------------------------------------------------


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise RequestError("the request body is not JSON") from None
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    return body


def _depth(body: dict[str, Any]) -> int | None:
    depth = body.get("depth")
    if depth is None or depth == "":
        return None
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise RequestError("depth must be a positive integer")
    return depth


def _handled(handler: Callable[[Request], Awaitable[Response]]) -> Callable[
        [Request], Awaitable[Response]]:
    """Turn bad input into a 400 with its reason."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except (GameError, RequestError) as exc:
            return _error(str(exc))

    return endpoint


def _server(request: Request | WebSocket) -> Server:
    server: Server = request.app.state.server
    return server


async def page(request: Request) -> Response:
    """The single page."""
    html = resources.files("sakiyomi.web").joinpath("static/index.html").read_text("utf-8")
    return HTMLResponse(html)


async def games(request: Request) -> Response:
    """The games the page can play."""
    return JSONResponse({"games": games_list(), "examples": EXAMPLES})


async def state(request: Request) -> Response:
    """Replay a game (start position + moves) and describe the result."""
    body = await _body(request)
    limits = _server(request).limits
    position = await run_in_threadpool(replay, body, limits)
    return JSONResponse(await run_in_threadpool(describe, position))


async def _slotted(request: Request, work: Callable[[], dict[str, Any]]) -> Response:
    server = _server(request)
    server.slots.take()
    try:
        return JSONResponse(await run_in_threadpool(work))
    finally:
        server.slots.give()


async def trace_view(request: Request) -> Response:
    """Record a search of a small tree for the step-through view."""
    body = await _body(request)
    limits = _server(request).limits
    name, position = str(body.get("game", "")), str(body.get("position", ""))[:limits.max_text]
    algorithm, depth = str(body.get("algorithm", "alphabeta")), _depth(body)
    return await _slotted(request, lambda: trace(name, position, algorithm, depth, limits))


async def compare_view(request: Request) -> Response:
    """The node-count table of every algorithm."""
    body = await _body(request)
    limits = _server(request).limits
    name, position = str(body.get("game", "")), str(body.get("position", ""))[:limits.max_text]
    depth = _depth(body)
    return await _slotted(request, lambda: node_table(name, position, depth, limits))


# ---- WebSocket ---------------------------------------------------------------------------


class Session:
    """One page's live connection: at most one search at a time, stopped when the page asks,
    starts another search, or goes away.
    """

    def __init__(self, socket: WebSocket, server: Server) -> None:
        self.socket = socket
        self.server = server
        self.job: SearchJob | None = None
        self.task: asyncio.Task[None] | None = None

    async def send(self, message: dict[str, Any]) -> None:
        """Send, ignoring a page that has just gone away."""
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await self.socket.send_json(message)

    async def handle(self, message: Any) -> None:
        """One message from the page."""
        if not isinstance(message, dict):
            raise RequestError("messages must be JSON objects")
        op = message.get("op")
        if op == "stop":
            self.stop()
        elif op == "search":
            await self.search(message)
        else:
            raise RequestError(f"unknown op {op!r}: use 'search' or 'stop'")

    async def search(self, message: dict[str, Any]) -> None:
        """Start a search (stopping the previous one)."""
        self.stop()
        limits = self.server.limits
        kind = message.get("kind", "think")
        if kind not in KINDS:
            raise RequestError(f"kind must be one of {', '.join(KINDS)}")
        seconds = message.get("seconds")
        if seconds is not None and (isinstance(seconds, bool) or
                                    not isinstance(seconds, (int, float)) or
                                    not seconds > 0):
            raise RequestError("seconds must be a positive number")
        request = JobRequest(kind, _depth(message),
                             float(seconds) if seconds is not None else None)
        position = await asyncio.to_thread(replay, message, limits)
        self.server.slots.take()
        job = SearchJob(position, request, limits)
        self.job = job
        self.task = asyncio.create_task(self._drive(job, message.get("id")))

    async def _drive(self, job: SearchJob, ident: Any) -> None:
        future = asyncio.wrap_future(self.server.start(job))
        interval = self.server.limits.info_interval
        while True:
            done, _ = await asyncio.wait({future}, timeout=interval)
            while job.messages:
                await self.send({**job.messages.popleft(), "id": ident})
            if done:
                break
            await self.send({**job.progress(), "id": ident})
        try:
            final = future.result()
        except Exception as exc:  # a bug, not bad input: the page still hears the end
            final = {"type": "error", "message": f"internal error: {type(exc).__name__}"}
        await self.send({**final, "id": ident})

    def stop(self) -> None:
        """Stop the running search, if any (its thread ends at its next poll)."""
        if self.job is not None:
            self.job.stop()
            self.job = None

    def close(self) -> None:
        """The page went away: stop its search and drop the sender."""
        self.stop()
        if self.task is not None:
            self.task.cancel()


def _same_origin(socket: WebSocket) -> bool:
    """Refuse WebSockets opened by pages of other sites (a browser sends their Origin)."""
    origin = socket.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == socket.headers.get("host", "")


async def live(socket: WebSocket) -> None:
    """The WebSocket endpoint."""
    if not _same_origin(socket):
        await socket.close(code=1008)
        return
    await socket.accept()
    session = Session(socket, _server(socket))
    try:
        while True:
            try:
                text = await socket.receive_text()
                message = json.loads(text)
                await session.handle(message)
            except json.JSONDecodeError:
                await session.send({"type": "error", "message": "messages must be JSON"})
            except (GameError, RequestError) as exc:
                await session.send({"type": "error", "message": str(exc),
                                    "id": message.get("id") if isinstance(message, dict)
                                    else None})
    except WebSocketDisconnect:
        pass
    finally:
        session.close()


# ---- the app -----------------------------------------------------------------------------


def create_app(limits: WebLimits | None = None) -> Starlette:
    """The app with its own worker threads and limits."""
    server = Server(limits if limits is not None else WebLimits())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.warm_up()
        yield
        server.shutdown()

    async def game_error(request: Request, exc: Exception) -> Response:
        return _error(str(exc))

    routes = [
        Route("/", page),
        Route("/api/games", games),
        Route("/api/state", _handled(state), methods=["POST"]),
        Route("/api/trace", _handled(trace_view), methods=["POST"]),
        Route("/api/compare", _handled(compare_view), methods=["POST"]),
        WebSocketRoute("/ws", live),
        Mount("/static", StaticFiles(packages=[("sakiyomi.web", "static")]), name="static"),
    ]
    async def internal_error(request: Request, exc: Exception) -> Response:
        return _error(f"internal error: {type(exc).__name__}", 500)

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={GameError: game_error, RequestError: game_error,
                                        Exception: internal_error})
    app.state.server = server
    return app


def run(args: argparse.Namespace) -> int:
    """``sakiyomi serve``: serve the app until Ctrl-C."""
    import uvicorn

    if not 0 < args.port < 65536:
        raise GameError(f"port {args.port} is not a port number (1-65535)")
    limits = WebLimits(max_seconds=args.max_seconds, max_concurrent=args.max_searches)
    url = f"http://{args.host}:{args.port}/"
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"sakiyomi serve: listening on {args.host}: every machine that can reach it may "
              "use this computer's CPU", flush=True)
    print(f"sakiyomi serve: {url} (Ctrl-C to stop)", flush=True)
    if args.open:
        import webbrowser

        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    try:
        uvicorn.run(create_app(limits), host=args.host, port=args.port, log_level="warning")
    except OSError as exc:
        raise GameError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    return 0
