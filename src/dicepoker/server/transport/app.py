"""The ASGI app: HTTP routes and the table WebSocket over a :class:`TableService` (transport only).

``create_app(settings)`` builds everything from the settings: storage, pub/sub, service, metrics. Each
route parses and bounds its input (pydantic), hands it to the service and maps the service's errors to
4xx with ``{"detail": reason}``; nothing a client sends produces a 500.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, MutableMapping
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from dicepoker.core.types import JSON
from dicepoker.server.errors import ServiceError
from dicepoker.server.logs import log_event
from dicepoker.server.settings import Settings
from dicepoker.server.storage.dbhealth import StorageHealth
from dicepoker.server.storage.records import MemoryStorage, Storage
from dicepoker.server.tables import leaving
from dicepoker.server.tables.pubsub import InProcessPubSub
from dicepoker.server.tables.service import DEFAULT, MAX_PAGE, TableService
from dicepoker.server.transport import account_routes, replay_routes, shell, warmup, web_routes
from dicepoker.server.transport.metrics import ServerMetrics
from dicepoker.server.transport.models import CreateTable, Join, Leave, PlayNow
from dicepoker.server.transport.offload import HeavyWork
from dicepoker.server.transport.ratelimit import LocalRateLimiter, RateLimit, RateLimiter
from dicepoker.server.transport.security import protect
from dicepoker.server.transport.shell import WEB_DIR
from dicepoker.server.transport.ws import serve_socket

logger = logging.getLogger("dicepoker.server.transport.app")
TableId = Annotated[str, PathParam(min_length=1, max_length=64)]
PLACEHOLDER = """<!doctype html><title>dicepoker</title><h1>dicepoker server</h1>
<p>The browser client is not installed. The API is at <a href="/docs">/docs</a>; games at
<a href="/api/games">/api/games</a>.</p>"""

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class BodyLimit:
    """Refuse HTTP bodies above ``limit`` bytes with 413, whether announced or streamed; the paths in
    ``per_path`` (log uploads) have their own limit."""

    def __init__(
        self,
        app: Callable[[Scope, Receive, Send], Awaitable[None]],
        limit: int,
        per_path: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.limit = limit
        self.per_path = dict(per_path or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.per_path.get(scope.get("path", ""), self.limit)
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await _too_large(limit, send)
                return
        seen = 0
        exceeded = started = False

        async def limited() -> MutableMapping[str, Any]:
            nonlocal seen, exceeded
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                exceeded = True
                raise _TooLarge
            return message

        async def answer(message: MutableMapping[str, Any]) -> None:
            nonlocal started
            if exceeded and not started:
                return  # the app's answer to a body cut short (FastAPI's 400 "error parsing the body"): 413 instead
            started = started or message["type"] == "http.response.start"
            await send(message)

        with contextlib.suppress(_TooLarge):
            await self.app(scope, limited, answer)
        if exceeded and not started:  # a streamed (chunked) body over the limit
            await _too_large(limit, send)


class _TooLarge(Exception):
    pass


async def _too_large(limit: int, send: Send) -> None:
    response = JSONResponse({"detail": f"request body larger than {limit} bytes"}, status_code=413)
    await response({"type": "http"}, _no_body, send)


async def _no_body() -> MutableMapping[str, Any]:
    return {"type": "http.request", "body": b"", "more_body": False}


def create_app(settings: Settings | None = None) -> FastAPI:
    """The dicepoker server app. Storage opens and tables are restored at start-up (ASGI lifespan)."""
    settings = settings or Settings()
    storage = settings.storage or _storage(settings)
    pubsub = settings.pubsub or InProcessPubSub()
    metrics = ServerMetrics()
    service = TableService(
        storage,
        pubsub,
        now=settings.now,
        autofill=settings.autofill,
        bot_delay=settings.bot_delay,
        metrics=metrics,
        waiting_ttl=settings.waiting_ttl,
        max_open_tables=settings.max_open_tables,
    )
    metrics.count_tables = service.count_by_status
    limiter: RateLimiter = LocalRateLimiter()
    if settings.redis_url is not None:
        from dicepoker.server.cluster.coordinator import Cluster

        cluster = Cluster(settings.redis_url, prefix=settings.redis_prefix, lease_ttl=settings.lease_ttl)
        service.use(cluster)
        limiter = cluster

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.loop = asyncio.get_running_loop()  # tests reach the service through it
        if settings.warm_tables:
            # Before the first request: a Hold'em showdown reads its table on the event loop (see warmup).
            await asyncio.to_thread(warmup.warm_rules)
            warmup.warm_bots_in_background()
        await storage.open()
        try:
            await service.start(scheduler=settings.scheduler)
            yield
        finally:
            heavy_work.close()
            await service.stop()
            await storage.close()
            await pubsub.close()
            log_event(logger, "stopped", tables=service.count_by_status())

    app = FastAPI(title="dicepoker", summary="Dice poker tables: the public protocol", lifespan=lifespan)
    app.state.service = service
    app.state.settings = settings
    app.state.metrics = metrics
    heavy_work = HeavyWork(limiter=limiter, limit=settings.heavy_rate_limit, processes=settings.heavy_processes)
    app.state.heavy_work = heavy_work
    if settings.allowed_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.allowed_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["content-type"],
        )
    uploads = dict.fromkeys(web_routes.UPLOAD_PATHS, settings.max_log_upload)
    app.add_middleware(BodyLimit, limit=settings.max_body, per_path=uploads)
    if settings.rate_limit is not None:
        app.add_middleware(RateLimit, limiter=limiter, limit=settings.rate_limit)
    protect(app, settings)  # outermost: Host check, security headers, WebSockets per client (issue 19)
    _errors(app)
    _routes(app, service, metrics, heavy_work)

    @app.websocket("/api/tables/{table_id}/ws")
    async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        await serve_socket(websocket, table_id, token, service=service, settings=settings, metrics=metrics)

    app.include_router(web_routes.router)
    app.include_router(replay_routes.router)
    account_routes.install(app, settings, storage)
    app.include_router(shell.router)  # /sw.js, stamped with the shell's version (issue 26)
    if (WEB_DIR / "index.html").exists():
        # follow_symlink: in a source checkout web/rules.md links to docs/RULES.md (one rules text); a wheel has a copy.
        app.mount("/", StaticFiles(directory=WEB_DIR, html=True, follow_symlink=True), name="web")
    else:

        @app.get("/", response_class=HTMLResponse, include_in_schema=False)
        async def placeholder() -> str:
            return PLACEHOLDER

    return app


def _storage(settings: Settings) -> Storage:
    if settings.db_url is None:
        return MemoryStorage()
    from dicepoker.server.storage.sql import SqlStorage

    return SqlStorage(
        settings.db_url,
        schema=settings.db_schema,
        sqlite_synchronous=settings.sqlite_synchronous,
        allow_empty=settings.allow_empty_db,
        integrity_interval=settings.integrity_interval,
    )


def _errors(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> JSONResponse:
        retry = {"Retry-After": "5"} if exc.status == 503 else None  # the database is failing: later
        return JSONResponse({"detail": str(exc)}, status_code=exc.status, headers=retry)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "request"
        return JSONResponse({"detail": f"{where}: {first.get('msg', 'invalid')}"[:300]}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse({"detail": "internal error"}, status_code=500)


def _routes(app: FastAPI, service: TableService, metrics: ServerMetrics, heavy_work: HeavyWork) -> None:
    @app.get("/healthz")
    async def healthz() -> dict[str, JSON]:
        found: dict[str, JSON] = {"status": "ok"}
        if service.cluster is not None:  # which process answered (behind a load balancer)
            found["process"] = getattr(service.cluster, "name", "")
        health: StorageHealth | None = getattr(service.storage, "health", None)
        problems = [] if health is None else health.problems()
        if health is not None and problems:  # a failing database: 200 still (reads are served), but why
            found.update(status="degraded", problems=list(problems), database=health.report())
        return found

    @app.get("/metrics", response_class=PlainTextResponse)
    async def prometheus() -> Response:
        return Response(metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8")

    @app.get("/api/games")
    async def games() -> dict[str, JSON]:
        return {"games": service.games()}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, JSON]:
        clock = body.clock if "clock" in body.model_fields_set else DEFAULT
        owner = request.client.host if request.client else None  # its unfinished tables are capped
        return await service.create_table(
            body.game, body.config, body.seats, clock, time_bank=body.time_bank, owner=owner
        )

    @app.get("/api/tables")
    async def list_tables(
        game: Annotated[str | None, Query(max_length=40)] = None,
        status: Literal["waiting", "playing", "finished"] | None = None,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
        offset: Annotated[int, Query(ge=0, le=2**31)] = 0,
    ) -> dict[str, JSON]:
        """Every table, finished ones from the archive included, newest first, a page at a time."""
        return await service.list_tables(game=game, status=status, limit=limit, offset=offset)

    @app.get("/api/tables/{table_id}")
    async def table(table_id: TableId) -> dict[str, JSON]:
        return await service.summary(table_id)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: TableId, body: Join) -> dict[str, JSON]:
        return await service.join(table_id, body.seat, body.name, body.client_seed, client_key=body.client_key)

    @app.post("/api/play-now")
    async def play_now(body: PlayNow) -> dict[str, JSON]:
        return await service.play_now(body.game, body.name, body.client_seed, client_key=body.client_key)

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: TableId, body: Leave | None = None) -> dict[str, JSON]:
        """CM-7: the seat the token holds leaves the game (resigns); asking again answers the same."""
        return await leaving.leave(service, table_id, body.token if body is not None else None)

    @app.post("/api/tables/{table_id}/rematch", status_code=201)
    async def rematch(table_id: TableId) -> dict[str, JSON]:
        return await service.rematch(table_id)

    @app.get("/api/tables/{table_id}/log", response_class=PlainTextResponse)
    async def log(request: Request, table_id: TableId, format: Literal["log", "history"] = "log") -> Response:
        # Cached (a finished log never changes); the hand history is written in a worker thread.
        client = request.client.host if request.client else None
        text = await heavy_work.finished_log(service, table_id, history=format == "history", client=client)
        if format == "history":
            return PlainTextResponse(text)
        return Response(text, media_type="application/x-ndjson")
