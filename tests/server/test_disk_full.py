"""A full disk under SQLite (issue 19, item 8): players get an error frame, not a dropped socket; nothing
is applied; new tables get 503 with the reason; reads go on; /healthz says degraded; all works again once
there is room.

The fault is SQLite's own error, raised where the database raises it: at the cursor of the storage's
connections (``sqlite3.OperationalError: database or disk is full``), and, at the storage level, by
SQLite itself with ``PRAGMA max_page_count`` (a database that may not grow is a full disk to SQLite).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import event

from dicepoker.server.storage.records import EventRecord, MemoryStorage, SeatRecord, StorageUnavailable, TableRecord
from dicepoker.server.storage.sql import SqlStorage
from dicepoker.server.tables.dealer import STORAGE_RETRY
from tests.server.conftest import FakeClock, new_service, run
from tests.server.live import live_server

CLOCK = 5
WRITES = ("INSERT", "UPDATE", "DELETE")


class Disk:
    """Makes every write of a storage's connections fail as SQLite does when the disk is full."""

    def __init__(self, storage: SqlStorage, *, reads_fail: bool = False) -> None:
        self.full = False
        self.reads_fail = reads_fail
        event.listen(storage.engine.sync_engine, "before_cursor_execute", self._execute)

    def _execute(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if self.full and statement.lstrip().upper().startswith(WRITES):
            raise sqlite3.OperationalError("database or disk is full")
        if self.reads_fail and statement.lstrip().upper().startswith("SELECT"):
            raise sqlite3.OperationalError("unable to open database file")


async def _next(ws: Any, *kinds: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await ws.recv())
        if message["type"] in kinds:
            return message


def test_a_full_disk_answers_with_error_frames_503_and_degraded_health(tmp_path: Path) -> None:
    from websockets.asyncio.client import connect

    storage = SqlStorage(f"sqlite:///{tmp_path / 'server.db'}", integrity_interval=None)
    with live_server(storage=storage) as live:
        client = httpx.Client(base_url=live.url)
        table_id = client.post("/api/tables", json={"game": "scorecard", "clock": CLOCK}).json()["id"]
        tokens = [client.post(f"/api/tables/{table_id}/join", json={"seat": s, "name": f"p{s}"}).json() for s in (0, 1)]
        disk = Disk(storage)

        async def main() -> None:
            async with connect(f"{live.ws_url}/api/tables/{table_id}/ws?token={tokens[0]['token']}") as ws:
                first = await _next(ws, "state")
                assert first["legal_actions"], "seat 0 starts"
                action = {"type": "action", "action": "roll", "version": first["version"], "id": "a1"}
                disk.full = True
                await ws.send(json.dumps(action))
                error = await _next(ws, "error", "ack")
                assert error["type"] == "error" and error["id"] == "a1" and error["retry_after"] == 2
                assert "database or disk is full" in error["reason"] and "nothing was changed" in error["reason"]
                await ws.send('{"type": "ping"}')
                assert (await _next(ws, "pong"))["type"] == "pong"  # the socket is still open
                assert client.get(f"/api/tables/{table_id}").json()["version"] == first["version"]

                created = client.post("/api/tables", json={"game": "scorecard"})
                assert created.status_code == 503 and created.headers["retry-after"] == "5"
                assert "database or disk is full" in created.json()["detail"]
                played = client.post("/api/play-now", json={"game": "scorecard", "name": "ann"})
                assert played.status_code == 503
                health = client.get("/healthz")
                assert health.status_code == 200 and health.json()["status"] == "degraded"
                assert "database or disk is full" in health.json()["problems"][0]
                assert health.json()["database"]["writes"] == "failing"
                assert client.get("/api/tables").status_code == 200  # reads go on
                assert client.get(f"/api/tables/{table_id}").status_code == 200

                # A clock that runs out meanwhile waits for the database instead of spinning on it.
                failed = storage.health.failed_writes
                assert await asyncio.to_thread(live.advance, CLOCK + 1) == 0
                assert storage.health.failed_writes - failed <= 2
                assert client.get(f"/api/tables/{table_id}").json()["version"] == first["version"]

                disk.full = False  # room again: the same frame, resent, is applied once
                await ws.send(json.dumps(action))
                ack = await _next(ws, "ack", "error")
                assert ack["type"] == "ack" and ack["id"] == "a1" and ack["version"] > first["version"]
            assert client.get("/healthz").json() == {"status": "ok"}
            assert client.post("/api/tables", json={"game": "scorecard"}).status_code == 201

        asyncio.run(asyncio.wait_for(main(), 60))


def test_the_probe_clears_a_write_fault_on_an_idle_server(tmp_path: Path) -> None:
    async def main() -> None:
        storage = SqlStorage(f"sqlite:///{tmp_path / 'server.db'}", integrity_interval=None)
        await storage.open()
        try:
            await storage.save(_record("t0"))
            disk = Disk(storage)
            disk.full = True
            with pytest.raises(StorageUnavailable, match="disk is full"):
                await storage.save(_record("t1"))
            assert not await storage.probe() and storage.health.problems()
            disk.full = False
            assert await storage.probe() and storage.health.problems() == []
            assert (await storage.load("t0")) is not None and (await storage.load("t1")) is None
            disk.reads_fail = True  # and a read fault (PostgreSQL away) clears the same way
            with pytest.raises(StorageUnavailable, match="unable to open"):
                await storage.load("t0")
            assert not await storage.probe() and storage.health.read_fault is not None
            disk.reads_fail = False
            assert await storage.probe() and storage.health.problems() == []
        finally:
            await storage.close()

    run(main())


def test_sqlite_itself_reports_a_full_database_as_unavailable(tmp_path: Path) -> None:
    """``PRAGMA max_page_count``: SQLite refuses to grow the file with SQLITE_FULL, as on a full disk."""

    async def main() -> None:
        storage = SqlStorage(f"sqlite:///{tmp_path / 'server.db'}", integrity_interval=None)
        await storage.open()
        try:
            limit = {"pages": 1}

            def cap(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                cursor.execute(f"PRAGMA max_page_count={limit['pages']}")
                cursor.close()

            async with storage.engine.connect() as conn:
                from sqlalchemy import text

                limit["pages"] = int((await conn.execute(text("PRAGMA page_count"))).scalar_one())
            event.listen(storage.engine.sync_engine, "connect", cap)
            await storage.engine.dispose()  # every connection from now on has the cap
            big = "x" * 2000
            with pytest.raises(StorageUnavailable, match="database or disk is full"):
                for i in range(200):
                    await storage.save(_record(f"t{i}", commitment=big))
            kept = len(await storage.list_tables(limit=200))
            assert kept < 200 and storage.health.write_fault is not None
            limit["pages"] = 1_000_000
            await storage.engine.dispose()
            await storage.save(_record("after", commitment=big))
            assert storage.health.write_fault is None
            assert len(await storage.list_tables(limit=200)) == kept + 1
        finally:
            await storage.close()

    run(main())


def test_handshakes_and_reads_while_the_database_cannot_be_read(tmp_path: Path) -> None:
    """A database that cannot be read (PostgreSQL starting, a lost file): 503, and a clean 1013 close."""
    storage = SqlStorage(f"sqlite:///{tmp_path / 'server.db'}", integrity_interval=None)
    with live_server(storage=storage) as live:
        disk = Disk(storage, reads_fail=True)
        unknown = "0123456789abcdef"  # not in memory: the server must read the database to know it
        response = httpx.get(f"{live.url}/api/tables/{unknown}")
        assert response.status_code == 503 and "unable to open database file" in response.json()["detail"]
        assert httpx.get(f"{live.url}/healthz").json()["status"] == "degraded"
        assert live.close_code(unknown) == 1013
        disk.reads_fail = False
        assert live.close_code(unknown) == 4404
        assert httpx.get(f"{live.url}/healthz").json() == {"status": "ok"}


def _record(table_id: str, *, commitment: str = "c") -> TableRecord:
    seats = [SeatRecord("open"), SeatRecord("open")]
    return TableRecord(table_id, "scorecard", {"players": 2}, seats, 30.0, "waiting", commitment, "ab", 1.0)


def test_the_python_client_waits_on_a_failing_database_instead_of_looping(tmp_path: Path) -> None:
    """Its action is answered with ``retry_after`` (and ``play_seat`` waits that long); a 1013 close makes
    it wait longer before each reconnect, instead of reconnecting at once (the loop of issue 19 item 8)."""
    from dicepoker.client.connection import ActionRejected
    from dicepoker.client.protocol import ErrorFrame, parse_frame
    from dicepoker.client.rest import ServerClient

    assert parse_frame('{"type": "error", "id": "a", "reason": "r", "retry_after": 2}') == ErrorFrame("a", "r", 2.0)
    assert parse_frame('{"type": "error", "id": "a", "reason": "r"}') == ErrorFrame("a", "r")
    storage = SqlStorage(f"sqlite:///{tmp_path / 'server.db'}", integrity_interval=None)
    with live_server(storage=storage) as live:

        async def main() -> None:
            async with ServerClient(live.url) as server:
                created = await server.create_table("scorecard", seats=["open", "open"])
                seated = await server.join(created.table, 0, "ann")
                await server.join(created.table, 1, "bob")
                table = server.table(created.table, seated.token)
                state = await table.open()
                disk = Disk(storage)
                disk.full = True
                with pytest.raises(ActionRejected) as rejected:
                    await table.act("roll", version=state.version)
                assert rejected.value.retry_after == 2 and not rejected.value.stale
                disk.full = False
                assert (await table.act("roll", version=state.version)).version > state.version
                await table.close()

                disk.reads_fail = True
                lost = server.table("0123456789abcdef", None)
                opening = asyncio.create_task(lost.open())
                await asyncio.sleep(1.0)  # how many reconnects fit in a second: a bound, not a speed
                assert lost.reconnects <= 4, lost.reconnects
                opening.cancel()
                await lost.close()
                disk.reads_fail = False

        asyncio.run(asyncio.wait_for(main(), 60))


class FullMemoryStorage(MemoryStorage):
    """Memory storage whose writes fail as a full database's do, while ``full``."""

    def __init__(self) -> None:
        super().__init__()
        self.full = False
        self.failed = 0

    async def save(self, table: TableRecord, events: Sequence[EventRecord] = ()) -> None:
        if self.full:
            self.failed += 1
            raise StorageUnavailable("the server cannot use its database right now (database or disk is full)")
        await super().save(table, events)


def test_a_clock_that_runs_out_on_a_full_disk_waits_instead_of_spinning() -> None:
    """Before: the due timeout was put back on the schedule at once, and one tick tried it 100,000 times."""
    clock = FakeClock()

    async def main() -> None:
        storage = FullMemoryStorage()
        service = new_service(storage, clock)
        await service.start(scheduler=False)
        try:
            table_id = str((await service.create_table("scorecard", seats=["open", "open"], clock=CLOCK))["id"])
            await service.join(table_id, 0, "ann")
            await service.join(table_id, 1, "bob")
            version = storage.tables[table_id].version
            storage.full = True
            clock.advance(CLOCK + 1)
            assert await service.tick() == 0
            assert storage.failed == 1
            assert service.next_due() == clock() + STORAGE_RETRY
            storage.full = False
            clock.advance(STORAGE_RETRY)
            assert await service.tick() >= 1  # the timeout, applied once the database takes it
            assert storage.tables[table_id].version > version
        finally:
            await service.stop()

    run(main())
