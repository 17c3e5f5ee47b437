"""A real uvicorn server on a free loopback port, in a thread, with a fake clock the test moves."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import uvicorn
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from dicepoker.server.settings import Settings
from dicepoker.server.tables.service import TableService
from dicepoker.server.transport.app import create_app
from dicepoker.server.transport.listener import uvicorn_config
from tests.server.conftest import FakeClock


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Live:
    url: str
    ws_url: str
    clock: FakeClock
    service: TableService
    loop: asyncio.AbstractEventLoop

    def advance(self, seconds: float) -> int:
        """Move the clock on and let the service apply whatever fell due (timeouts, bots, autofill)."""
        self.clock.advance(seconds)
        applied: int = asyncio.run_coroutine_threadsafe(self.service.tick(), self.loop).result(timeout=30)
        return applied

    def close_code(self, table: str, *, timeout: float = 20) -> int:
        """Open the WebSocket of ``table`` and return the code the server closes it with (1013: its database
        cannot be read now; 4404: no such table)."""

        async def handshake() -> int:
            async with connect(f"{self.ws_url}/api/tables/{table}/ws") as ws:
                try:
                    await ws.recv()
                except ConnectionClosed as closed:
                    assert closed.rcvd is not None, "closed without a close frame"
                    return closed.rcvd.code
            raise AssertionError("the server sent a frame instead of closing")

        return asyncio.run(asyncio.wait_for(handshake(), timeout))


@contextmanager
def live_server(*, serve: bool = False, **settings: Any) -> Iterator[Live]:
    """``serve``: with the uvicorn configuration of ``dicepoker serve`` (its limits and proxy trust)."""
    clock = FakeClock()
    settings.setdefault("bot_delay", 0.0)
    # The tests of a module share one server and one address, open many tables and move the clock by
    # hours: the default limits (issue 19 §7) are off unless a test asks for them.
    for limit in ("rate_limit", "max_open_tables", "waiting_ttl"):
        settings.setdefault(limit, None)
    app = create_app(Settings(now=clock, **settings))
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=64 * 1024)
    if serve:
        config = uvicorn_config(app, app.state.settings, host="127.0.0.1", port=port)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(1000):
        if server.started:
            break
        time.sleep(0.01)  # waiting for the server to listen, not for game time
    assert server.started, "uvicorn did not start"
    try:
        yield Live(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", clock, app.state.service, app.state.loop)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
