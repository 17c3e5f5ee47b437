"""Request rate limits per client: fixed windows, counted in this process or (cluster) in Redis."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Protocol


class RateLimiter(Protocol):
    async def allow(self, key: str, limit: int, window: float = 60.0) -> bool:
        """Count one request of ``key`` in the current window; whether it is within ``limit``."""


class LocalRateLimiter:
    """One process's counts (the embedded server); :class:`~.cluster.Cluster` shares them through Redis."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self._counts: dict[str, tuple[int, int]] = {}

    async def allow(self, key: str, limit: int, window: float = 60.0) -> bool:
        slot = int(self.now() // window)
        if len(self._counts) > 100_000:  # forget the windows that are over
            self._counts = {k: v for k, v in self._counts.items() if v[0] == slot}
        seen_slot, count = self._counts.get(key, (slot, 0))
        count = count + 1 if seen_slot == slot else 1
        self._counts[key] = (slot, count)
        return count <= limit


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class RateLimit:
    """ASGI middleware: at most ``limit`` POST requests and WebSocket connections a minute per client
    address (behind a proxy, the address it forwards: uvicorn's ``--proxy-headers``). Over it: 429 with
    ``{"detail"}``, or the WebSocket closed with 1008."""

    def __init__(
        self, app: Callable[[Scope, Receive, Send], Awaitable[None]], limiter: RateLimiter, limit: int
    ) -> None:
        self.app = app
        self.limiter = limiter
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        counted = scope["type"] == "websocket" or (scope["type"] == "http" and scope.get("method") == "POST")
        if counted:
            client = scope.get("client") or ("unknown", 0)
            if not await self.limiter.allow(f"{scope['type']}:{client[0]}", self.limit):
                await self._refuse(scope, send)
                return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        reason = f"too many requests: at most {self.limit} a minute"
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": reason})
            return
        body = json.dumps({"detail": reason}).encode()
        headers = [(b"content-type", b"application/json"), (b"retry-after", b"60")]
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body})
