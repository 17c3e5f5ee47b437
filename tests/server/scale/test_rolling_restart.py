"""A rolling restart behind deploy/nginx.conf with only WebSocket traffic (issue 19, item 5).

The recipe of docs/deploy.md: restart one process, wait for its /healthz, then the next. Meanwhile spectators
hold WebSockets through nginx and reconnect whenever theirs ends, as the browser does. nginx must send each
reconnect to a process that is up: with ``max_fails=1 fail_timeout=2s`` the sockets that a stopping process
closed marked the live processes failed too, and reconnects got 502 for most of the restart."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from tests.server.scale.harness import (
    REDIS_HOST,
    REDIS_PORT,
    Nginx,
    Server,
    clear_prefix,
    explain_failure,
    fresh_database,
    missing,
    report,
)

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))

SOCKETS = 24
"""Spectator connections held through nginx (a few per table)."""
TABLES = 4


@dataclass
class Reconnects:
    """What the spectators met while reconnecting."""

    attempts: int = 0
    failures: int = 0
    bad_gateway: list[float] = field(default_factory=list)
    """When a handshake was answered 502 (seconds since the start)."""
    other: list[str] = field(default_factory=list)

    @property
    def seconds_of_502(self) -> int:
        """In how many distinct seconds of the restart some reconnect was answered 502."""
        return len({int(t) for t in self.bad_gateway})

    def summary(self) -> str:
        return (
            f"{self.attempts} handshakes, {self.failures} failed, {len(self.bad_gateway)} answered 502 "
            f"in {self.seconds_of_502} distinct seconds; other failures: {self.other[:5]}"
        )


@dataclass
class Site:
    servers: list[Server]
    nginx: Nginx
    db: str


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    redis_url = f"redis://{REDIS_HOST}:{REDIS_PORT}/0"
    prefix = f"dptest{secrets.token_hex(4)}"
    with fresh_database() as db:
        servers = [Server(db, redis_url, prefix, tmp_path / f"server{i}.log") for i in range(2)]
        nginx = Nginx([s.port for s in servers], tmp_path / "nginx")
        try:
            servers[0].start()  # the first migrates the new database
            servers[1].start()
            nginx.start()
            yield Site(servers, nginx, db)
        finally:
            nginx.stop()
            for server in servers:
                server.stop()
            clear_prefix(redis_url, prefix)


async def spectate(url: str, stop: asyncio.Event, seen: Reconnects, start: float, connected: list[bool]) -> None:
    """Hold a WebSocket until ``stop``; reconnect (after 0.1 s, as the browser does) whenever it ends."""
    index = len(connected)
    connected.append(False)
    while not stop.is_set():
        seen.attempts += 1
        try:
            async with websockets.connect(url, open_timeout=5, close_timeout=1, max_size=2**22) as ws:
                connected[index] = True
                recv = asyncio.ensure_future(ws.recv())
                halt = asyncio.ensure_future(stop.wait())
                while not stop.is_set():
                    done, _ = await asyncio.wait({recv, halt}, return_when=asyncio.FIRST_COMPLETED)
                    if recv in done:
                        recv.result()  # raises ConnectionClosed when the process goes away
                        recv = asyncio.ensure_future(ws.recv())
                recv.cancel()
                halt.cancel()
                return
        except ConnectionClosed:
            connected[index] = False  # the process went away: not a failed reconnect
        except (InvalidStatus, InvalidHandshake, OSError, TimeoutError) as exc:
            connected[index] = False
            seen.failures += 1
            status = getattr(getattr(exc, "response", None), "status_code", None)
            if status == 502:
                seen.bad_gateway.append(time.monotonic() - start)
            else:
                seen.other.append(repr(exc)[:120])
        await asyncio.sleep(0.1)


def test_a_rolling_restart_through_nginx_keeps_websocket_reconnects_working(site: Site) -> None:
    """Item 5: no reconnect is answered 502 while the other process is up, and every socket is back after."""
    with httpx.Client(base_url=site.nginx.url, timeout=10) as http:
        tables = []
        for _ in range(TABLES):
            created = http.post("/api/tables", json={"game": "scorecard", "seats": ["open", "open"]})
            assert created.status_code == 201, created.text
            tables.append(created.json()["id"])
    ws_base = site.nginx.url.replace("http", "ws")
    seen = Reconnects()
    connected: list[bool] = []
    plain: list[int] = []

    async def main() -> float:
        stop = asyncio.Event()
        start = time.monotonic()
        clients = [
            asyncio.create_task(spectate(f"{ws_base}/api/tables/{tables[i % TABLES]}/ws", stop, seen, start, connected))
            for i in range(SOCKETS)
        ]
        await wait_until(lambda: len(connected) == SOCKETS and all(connected), 20)
        began = time.monotonic()
        for server in site.servers:  # docs/deploy.md: restart one, wait for its /healthz, then the next
            await asyncio.to_thread(server.stop)
            plain.extend(await asyncio.to_thread(health_through_nginx, site.nginx.url, 10))  # one process down
            await asyncio.to_thread(server.start)  # returns once /healthz answers
        took = time.monotonic() - began
        await wait_until(lambda: all(connected), 20)  # everyone is back, on whichever process
        stop.set()
        await asyncio.wait_for(asyncio.gather(*clients), 20)
        return took

    with explain_failure(lambda: seen.summary() + "\n" + report(site.servers, nginx=site.nginx, db=site.db)):
        took = asyncio.run(main())
        print(f"rolling restart of 2 processes took {took:.1f} s; {seen.summary()}")
        assert seen.seconds_of_502 == 0, seen.summary()
        assert seen.failures <= 2, seen.summary()  # a connect racing a process's stop may still fail, once
        assert plain == [200] * 20  # plain HTTP goes to the process that is up as well


def health_through_nginx(url: str, count: int) -> list[int]:
    with httpx.Client(base_url=url, timeout=10) as http:
        return [http.get("/healthz").status_code for _ in range(count)]


async def wait_until(condition: object, timeout: float) -> None:
    """Poll ``condition`` on the loop (the clients run meanwhile); fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached within {timeout} s")
        await asyncio.sleep(0.05)
