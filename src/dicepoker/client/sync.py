"""A synchronous face for the asyncio client, for code that runs its own loop (the terminal client).

One background thread runs an event loop; each call hands a coroutine to it and waits for the answer.

    with SyncClient("http://127.0.0.1:8000") as server:
        seat = server.play_now("scorecard", name="ann")
        table = server.table(seat.table, seat.token)
        state = table.next_state()
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Literal, Self, TypeVar

from dicepoker.client.connection import Acked, TableConnection
from dicepoker.client.protocol import AckFrame, StateFrame
from dicepoker.client.rest import Created, Left, Seated, ServerClient
from dicepoker.core.types import JSON, Seat

T = TypeVar("T")


class _LoopThread:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="dicepoker-client", daemon=True)
        self._thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=5)
        if not self.loop.is_running():
            self.loop.close()


class SyncTable:
    """:class:`TableConnection` with blocking methods; the timeouts are in seconds (None: wait forever)."""

    def __init__(self, runner: _LoopThread, connection: TableConnection) -> None:
        self._run = runner.run
        self.connection = connection

    @property
    def state(self) -> StateFrame | None:
        return self.connection.state

    @property
    def acks(self) -> list[Acked]:
        return self.connection.acks

    def next_state(self, timeout: float | None = None) -> StateFrame:
        return self._run(self.connection.next_state(timeout))

    def wait_for(self, predicate: Callable[[StateFrame], bool], timeout: float | None = None) -> StateFrame:
        return self._run(self.connection.wait_for(predicate, timeout))

    def act(self, action: str, *, version: int | None = None, id: str | None = None, timeout: float = 30.0) -> AckFrame:
        return self._run(self.connection.act(action, version=version, id=id, timeout=timeout))

    def redeliver(self) -> None:
        self.connection.redeliver()

    def close(self) -> None:
        self._run(self.connection.close())

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SyncClient:
    """:class:`ServerClient` with blocking methods, plus :meth:`table` to open a :class:`SyncTable`."""

    def __init__(self, base_url: str, *, timeout: float = 10.0) -> None:
        self._loop = _LoopThread()
        self._timeout = timeout
        self._client = self._loop.run(_make_client(base_url, timeout))

    def games(self) -> list[dict[str, JSON]]:
        return self._loop.run(self._client.games())

    def create_table(
        self,
        game: str,
        *,
        config: Mapping[str, JSON] | None = None,
        seats: list[str] | None = None,
        clock: float | Literal["default"] | None = "default",
    ) -> Created:
        return self._loop.run(self._client.create_table(game, config=config, seats=seats, clock=clock))

    def join(
        self, table: str, seat: Seat, name: str, client_seed: str | None = None, *, client_key: str | None = None
    ) -> Seated:
        return self._loop.run(self._client.join(table, seat, name, client_seed, client_key=client_key))

    def play_now(
        self, game: str, name: str, client_seed: str | None = None, *, client_key: str | None = None
    ) -> Seated:
        return self._loop.run(self._client.play_now(game, name, client_seed, client_key=client_key))

    def rematch(self, table: str) -> Created:
        return self._loop.run(self._client.rematch(table))

    def leave(self, table: str, token: str) -> Left:
        return self._loop.run(self._client.leave(table, token))

    def tables(self, game: str | None = None, status: str | None = None) -> list[dict[str, JSON]]:
        return self._loop.run(self._client.tables(game, status))

    def summary(self, table: str) -> dict[str, JSON]:
        return self._loop.run(self._client.summary(table))

    def log(self, table: str, *, history: bool = False) -> str:
        return self._loop.run(self._client.log(table, history=history))

    def table(self, table: str, token: str | None = None, *, reconnect_timeout: float = 30.0) -> SyncTable:
        """Connect to a table (waits for its first state frame)."""
        connection = self._loop.run(_open(self._client.base_url, table, token, reconnect_timeout))
        return SyncTable(self._loop, connection)

    def close(self) -> None:
        try:
            self._loop.run(self._client.aclose(), timeout=self._timeout)
        finally:
            self._loop.stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


async def _make_client(base_url: str, timeout: float) -> ServerClient:
    return ServerClient(base_url, timeout=timeout)  # built inside the loop that will use it


async def _open(base_url: str, table: str, token: str | None, reconnect_timeout: float) -> TableConnection:
    connection = TableConnection(base_url, table, token, reconnect_timeout=reconnect_timeout)
    await connection.open()
    return connection
