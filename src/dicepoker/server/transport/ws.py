"""The WebSocket of a table: authenticate, then relay frames out and actions in.

Two tasks per connection: the writer sends this recipient's frame whenever the table's revision moves
on (and a small presence frame when a seat connects or disconnects, see :mod:`.service`); the reader
validates each incoming frame and hands actions to the service. Sends share a lock and
the last revision sent, so that after an accepted action the sender gets the new state *before* its ack.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from urllib.parse import urlsplit

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from dicepoker.core.types import JSON, Seat
from dicepoker.protocol.frames import ActionMessage, ClientMessage
from dicepoker.server.errors import NotFound, Rejected, Unauthorized, Unavailable
from dicepoker.server.settings import Settings
from dicepoker.server.tables.pubsub import Subscription
from dicepoker.server.tables.service import TableService
from dicepoker.server.transport.metrics import ServerMetrics

logger = logging.getLogger("dicepoker.server.transport.ws")
POLICY = 1008
INTERNAL_ERROR = 1011
TRY_AGAIN_LATER = 1013
RETRY_AFTER = 2
"""Seconds an error frame for an action the database could not take asks the client to wait."""
"""Closes a connection while the database cannot be reached (RFC 6455 §7.4.1): reconnect later."""


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """No Origin (not a browser), the server's own origin, or one configured."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


class _Closed(Exception):
    pass


class Connection:
    def __init__(
        self, websocket: WebSocket, service: TableService, settings: Settings, table_id: str, seat: Seat | None
    ) -> None:
        self.websocket = websocket
        self.service = service
        self.settings = settings
        self.table_id = table_id
        self.seat = seat
        self.sent = -1
        self.lock = asyncio.Lock()
        self.bad = 0
        self.recent: deque[float] = deque()

    async def send_json(self, message: dict[str, JSON]) -> None:
        async with self.lock:
            await self.websocket.send_text(json.dumps(message, separators=(",", ":")))

    async def send_state(self) -> None:
        """Send this recipient's frame if the table moved on since the last one it got."""
        async with self.lock:
            revision, text = await self.service.frame_text(self.table_id, self.seat)
            if revision > self.sent:
                self.sent = revision
                await self.websocket.send_text(text)

    async def writer(self, subscription: Subscription) -> None:
        while True:
            message = await subscription.get()
            if isinstance(message, dict) and "presence" in message:
                # A seat (dis)connected: only its "connected" changed, and that is all that is sent.
                await self.send_json(await self.service.presence_frame(self.table_id))
            else:
                await self.send_state()

    async def reader(self) -> None:
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                await self._bad("send JSON text frames")
                continue
            if len(text) > self.settings.max_frame:
                await self._bad(f"frame larger than {self.settings.max_frame} bytes")
                continue
            try:
                parsed = ClientMessage.validate_json(text)
            except ValidationError as exc:
                await self._bad(_reason(exc))
                continue
            if isinstance(parsed, ActionMessage) and await self._action(parsed):
                continue  # accepted actions are paced by the game itself: they never count as a flood
            self._rate()
            if not isinstance(parsed, ActionMessage):
                await self.send_json({"type": "pong"})

    async def _action(self, message: ActionMessage) -> bool:
        """Hand an action to the service and answer it; whether it was accepted."""
        if self.seat is None:
            await self.send_json({"type": "error", "id": message.id, "reason": "spectators cannot act"})
            return False
        try:
            version = await self.service.act(
                self.table_id, self.seat, message.action, version=message.version, client_id=message.id
            )
        except Rejected as exc:
            await self.send_json({"type": "error", "id": message.id, "reason": str(exc)})
            return False
        except Unavailable as exc:
            # The database failed (a full disk): not applied. The player hears so and may resend it (same
            # id) after ``retry_after``, on this connection: closing it would only bring a reconnect and
            # the same resend at once.
            frame: dict[str, JSON] = {"type": "error", "id": message.id, "reason": str(exc)}
            await self.send_json({**frame, "retry_after": RETRY_AFTER})
            return False
        await self.send_state()
        await self.send_json({"type": "ack", "id": message.id, "version": version})
        return True

    def _rate(self) -> None:
        now = time.monotonic()
        self.recent.append(now)
        while self.recent and self.recent[0] < now - 1.0:
            self.recent.popleft()
        if len(self.recent) > self.settings.max_frames_per_second:
            raise _Closed(f"more than {self.settings.max_frames_per_second} frames per second")

    async def _bad(self, reason: str) -> None:
        self._rate()
        self.bad += 1
        if self.bad > self.settings.max_bad_frames:
            raise _Closed(f"more than {self.settings.max_bad_frames} malformed frames")
        await self.send_json({"type": "error", "id": None, "reason": reason})


def _reason(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return "malformed message"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "message"
    return f"malformed message: {where}: {first.get('msg', 'invalid')}"[:300]


async def serve_socket(
    websocket: WebSocket,
    table_id: str,
    token: str | None,
    *,
    service: TableService,
    settings: Settings,
    metrics: ServerMetrics,
) -> None:
    """Run one WebSocket connection to the end; never raises for anything a client does."""
    await websocket.accept()  # refusals below are close codes with a reason: before the accept, HTTP 403 only
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), settings.allowed_origins):
        await websocket.close(POLICY, "origin not allowed")
        return
    try:
        seat = await service.authenticate(table_id[:64], token)
    except NotFound as exc:
        await websocket.close(4404, str(exc)[:120])
        return
    except Unauthorized as exc:
        await websocket.close(4401, str(exc)[:120])
        return
    except Exception as exc:  # the database is starting or failing: a clean close the client can retry on
        unavailable = isinstance(exc, Unavailable)
        if not unavailable:
            logger.warning("connection to table %s refused: %r", table_id[:64], exc)
        reason = str(exc) if unavailable else "internal error"
        await websocket.close(TRY_AGAIN_LATER if unavailable else INTERNAL_ERROR, reason[:120])
        return
    role = "spectator" if seat is None else "player"
    connection = Connection(websocket, service, settings, table_id, seat)
    metrics.connections.labels(role).inc()
    try:
        await service.connect(table_id, seat)  # before subscribing: the others hear of it, not this connection
    except Unavailable as exc:
        await websocket.close(TRY_AGAIN_LATER, str(exc)[:120])
        metrics.connections.labels(role).dec()
        return
    subscription = service.pubsub.subscribe(table_id)
    tasks: list[asyncio.Task[None]] = []
    try:
        await connection.send_state()
        tasks = [asyncio.create_task(connection.reader()), asyncio.create_task(connection.writer(subscription))]
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            ended = task.exception()
            if isinstance(ended, _Closed):
                with contextlib.suppress(Exception):
                    await websocket.close(POLICY, str(ended))
            elif isinstance(ended, Unavailable):  # the database failed under a frame: come back later
                with contextlib.suppress(Exception):
                    await websocket.close(TRY_AGAIN_LATER, str(ended)[:120])
            elif ended is not None and not isinstance(ended, (WebSocketDisconnect, RuntimeError, OSError)):
                logger.warning("connection to table %s ended: %r", table_id, ended)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    except Unavailable as exc:  # the first frame needed the database, and it failed
        with contextlib.suppress(Exception):
            await websocket.close(TRY_AGAIN_LATER, str(exc)[:120])
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        subscription.close()
        metrics.connections.labels(role).dec()
        await service.disconnect(table_id, seat)
        if websocket.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()
