"""Shared helpers of the server tests: a fake clock, a service on it, and storage backends."""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
from collections.abc import Awaitable, Iterator
from typing import Any, TypeVar

import pytest

from dicepoker.core.types import JSON
from dicepoker.server.storage.records import Storage
from dicepoker.server.tables.pubsub import InProcessPubSub
from dicepoker.server.tables.service import TableService

T = TypeVar("T")
POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


class FakeClock:
    """A wall clock that moves only when told."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.time = start

    def __call__(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds


def run(coroutine: Awaitable[T]) -> T:
    async def main() -> T:
        return await coroutine

    return asyncio.run(main())


def new_service(storage: Storage, clock: FakeClock, **options: Any) -> TableService:
    options.setdefault("bot_delay", 0.0)
    return TableService(storage, InProcessPubSub(), now=clock, **options)


async def frame(service: TableService, table_id: str, seat: int | None) -> dict[str, JSON]:
    _, text = await service.frame_text(table_id, seat)
    result: dict[str, JSON] = json.loads(text)
    return result


def postgres_available() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.fixture(params=["sqlite", "postgresql"])
def sql_settings(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[dict[str, Any]]:
    """Keyword arguments for SqlStorage: a SQLite file, or a fresh PostgreSQL schema dropped afterwards."""
    if request.param == "sqlite":
        yield {"url": f"sqlite:///{tmp_path / 'server.db'}"}
        return
    if not postgres_available():
        pytest.skip("PostgreSQL is not reachable at 127.0.0.1:5432 (database 'test')")
    schema = f"dp_test_{secrets.token_hex(6)}"
    yield {"url": POSTGRES_URL, "schema": schema}

    async def drop() -> None:
        from dicepoker.server.storage.sql import SqlStorage

        storage = SqlStorage(POSTGRES_URL, schema=schema)
        await storage.open()
        await storage.drop_schema()
        await storage.close()

    run(drop())
