"""Bounds on what one client may hold open (issue 19, item 6), below and above the ASGI app.

uvicorn on its own reads headers of any size (50 MiB were accepted), waits for ever for a request that
never finishes, and lets one address open connections until the process runs out of file descriptors
(1,100 unfinished requests took ``/healthz`` down; 1,004 idle WebSockets locked newcomers out). Two
pieces bound that, both configured by :class:`~.settings.Settings` and documented in docs/deploy.md:

- :func:`guarded_protocol`, the HTTP/1.1 connection (uvicorn's h11 one, whose header buffer is bounded by
  ``h11_max_incomplete_event_size``) with deadlines for the headers and the body to arrive and a cap on
  connections per peer address (proxies that are trusted are not capped: they carry everybody). A request
  answered while its body is still coming (413 from its Content-Length) is closed once answered (uvicorn
  does that; tests/server/test_limits.py keeps it so).
- :class:`SocketCap`, ASGI middleware: WebSockets per client address (the forwarded one behind a trusted
  proxy), refused with close code 1008 as the other refusals are.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
POLICY = 1008
TOO_MANY = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\nconnection: close\r\n"


def guarded_protocol(
    *, header_timeout: float, body_timeout: float, max_connections: int, exempt: frozenset[str] = frozenset()
) -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol class with the connection bounds (``max_connections`` 0: no cap).

    ``header_timeout``: seconds from a connection's opening, or a request's first byte, until its headers
    are all in. ``body_timeout``: seconds the body may pause between two reads (a slow upload that keeps
    moving goes on; nginx's ``client_body_timeout`` works the same). A request late on either is dropped
    without an answer. A keep-alive connection idle between requests is uvicorn's ``timeout_keep_alive``.
    ``exempt``: peer addresses never capped (the proxies)."""
    open_per_peer: Counter[str] = Counter()

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _peer: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = self.client[0] if self.client else None
            if peer is not None and peer not in exempt and max_connections:
                if open_per_peer[peer] >= max_connections:
                    # Refused before anything is read: the answer is written blind and the socket closed.
                    body = f"more than {max_connections} connections from one address\n".encode()
                    transport.write(TOO_MANY + b"content-length: %d\r\n\r\n" % len(body) + body)
                    transport.close()
                    return
                open_per_peer[peer] += 1
                self._peer = peer
            self._arm(header_timeout)

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.is_closing():
                return
            state = self.conn.their_state
            if state is h11.SEND_BODY:
                self._arm(body_timeout)  # the body moved on: it may pause that long again
            elif state is h11.IDLE:
                if self._deadline is None:  # the first byte of a request after a keep-alive pause; a
                    self._arm(header_timeout)  # byte at a time does not push the deadline back
            else:
                self._disarm()  # the whole request is in: the app's answer may take its time

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._disarm()
            super().handle_websocket_upgrade(event)
            # The transport now belongs to the WebSocket protocol, and this object hears nothing more:
            # the connection's count is released when *that* protocol loses the connection.
            socket_protocol = self.transport.get_protocol()
            lost = socket_protocol.connection_lost
            release = self._release

            def connection_lost(exc: Exception | None) -> None:
                release()
                lost(exc)

            socket_protocol.connection_lost = connection_lost  # type: ignore[method-assign]

        def _arm(self, seconds: float) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
                self.transport.abort()  # a request that has not arrived in time: slow, stuck or hostile

        def _release(self) -> None:
            self._disarm()
            if self._peer is not None:
                open_per_peer[self._peer] -= 1
                if open_per_peer[self._peer] <= 0:
                    del open_per_peer[self._peer]
                self._peer = None

    GuardedH11Protocol.open_per_peer = open_per_peer  # type: ignore[attr-defined]  # tests read it
    return GuardedH11Protocol


class SocketCap:
    """ASGI middleware: at most ``limit`` open WebSockets per client address; over it, the handshake is
    accepted and closed at once with 1008 and a reason (a browser sees a close code, not an HTTP 403)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], limit: int) -> None:
        self.app = app
        self.limit = limit
        self.open: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("unknown", 0))[0]
        if self.open[client] >= self.limit:
            await refuse_socket(receive, send, f"more than {self.limit} WebSockets from one address")
            return
        self.open[client] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[client] -= 1
            if self.open[client] <= 0:
                del self.open[client]


async def refuse_socket(receive: Receive, send: Send, reason: str) -> None:
    """Accept a WebSocket only to close it with 1008 and ``reason``: closing before the accept makes the
    server answer the handshake with HTTP 403, which a browser reports without code or reason."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": POLICY, "reason": reason[:120]})
