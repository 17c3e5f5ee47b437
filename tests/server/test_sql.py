"""SQL storage on SQLite and PostgreSQL: migrations, group commit, and a service restored from it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dicepoker.server.storage.records import EventRecord, SeatRecord, TableRecord
from dicepoker.server.storage.sql import SqlStorage, normalise_url
from tests.server.conftest import FakeClock, new_service, run


def _record(table_id: str, created: float = 1.0) -> TableRecord:
    return TableRecord(table_id, "scorecard", {"players": 2}, [SeatRecord("open")], 30.0, "waiting", "c", "ab", created)


def test_urls_get_the_async_drivers() -> None:
    assert normalise_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert normalise_url("postgresql://u@h/db") == "postgresql+asyncpg://u@h/db"


def test_tables_and_logs_round_trip_with_group_commit(sql_settings: dict[str, Any]) -> None:
    async def main() -> None:
        storage = SqlStorage(**sql_settings)
        await storage.open()
        try:
            records = [_record(f"t{i}", created=i) for i in range(20)]
            await asyncio.gather(*(storage.save(r) for r in records))
            for r in records:
                r.status, r.version = "playing", 1
            commits = storage.commits
            await asyncio.gather(*(storage.save(r, [EventRecord(1, 0, "roll", f"id{r.id}")]) for r in records))
            assert storage.commits - commits < len(records)  # concurrent saves shared transactions
            records[0].status, records[0].version = "finished", 2
            await storage.save(records[0], [EventRecord(2, None, "rolled 1 2 3 4 5")])
            loaded = await storage.load("t0")
            assert loaded is not None
            assert loaded[0] == records[0]
            assert loaded[1] == [EventRecord(1, 0, "roll", "idt0"), EventRecord(2, None, "rolled 1 2 3 4 5")]
            assert {t.id for t, _ in await storage.unfinished()} == {f"t{i}" for i in range(1, 20)}
            assert [t.id for t in await storage.list_tables(status="finished")] == ["t0"]
            assert [t.id for t in await storage.list_tables(limit=3, offset=2)] == ["t17", "t16", "t15"]
            assert [t.id for t in await storage.list_tables(limit=3, offset=19)] == ["t0"]
            assert await storage.load("missing") is None
            with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
                await storage.save(records[0], [EventRecord(2, 0, "again")])  # a log is append-only
            assert len((await storage.load("t0") or (None, []))[1]) == 2
        finally:
            await storage.close()

    run(main())


def test_a_service_restarts_from_the_database(sql_settings: dict[str, Any]) -> None:
    clock = FakeClock()

    async def main() -> None:
        storage = SqlStorage(**sql_settings)
        await storage.open()
        service = new_service(storage, clock)
        await service.start(scheduler=False)
        created = await service.create_table("holdem", {"stack": 50}, ["open", "bot:random"], 60)
        table_id = str(created["id"])
        await service.join(table_id, 0, "ann", "seed!")
        before = service._tables[table_id]
        await service.stop()
        await storage.close()

        storage = SqlStorage(**sql_settings)
        await storage.open()  # migrations run again: nothing to do
        restored = new_service(storage, clock)
        await restored.start(scheduler=False)
        table = restored._tables[table_id]
        assert table.events == before.events and table.state == before.state
        assert table.record.client_seeds == ["seed!"]
        for _ in range(200):
            if table.status == "finished":
                break
            clock.advance(61)
            await restored.tick()
        assert table.status == "finished"
        text = await restored.log_text(table_id)
        await storage.close()
        storage = SqlStorage(**sql_settings)
        await storage.open()
        archive = new_service(storage, clock)
        await archive.start(scheduler=False)
        assert table_id not in archive._tables  # finished tables are not restored ...
        assert await archive.log_text(table_id) == text  # ... but stay in the archive
        await storage.close()

    run(main())
