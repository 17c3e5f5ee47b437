"""Play-now bursts (issue 19 §2): every caller of a burst is seated, on one process or several sharing one
database, and a lobby slot whose table is not in memory never wedges play-now."""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from dicepoker.server.settings import Settings
from dicepoker.server.storage.records import EventRecord, MemoryStorage, Storage, TableRecord
from dicepoker.server.tables.service import TableService
from dicepoker.server.tables.table import WAITING
from dicepoker.server.transport.app import create_app
from tests.server.conftest import FakeClock, new_service, run
from tests.server.scale.test_concurrency import _open, two_services

BURSTS = (2, 6, 10, 25, 50)


async def burst(client: httpx.AsyncClient, callers: int, game: str = "scorecard") -> list[httpx.Response]:
    return list(
        await asyncio.gather(
            *(client.post("/api/play-now", json={"game": game, "name": f"p{i}"}) for i in range(callers))
        )
    )


def assert_everyone_seated(seated: Sequence[dict[str, Any]], callers: int, seats_per_table: int) -> None:
    assert len(seated) == callers
    places = {(s["id"], s["seat"]) for s in seated}
    assert len(places) == callers, "two callers were given the same seat"
    per_table = collections.Counter(s["id"] for s in seated)
    # Queued onto tables: every table full but the last one opened.
    assert sorted(per_table.values(), reverse=True)[: callers // seats_per_table] == [seats_per_table] * (
        callers // seats_per_table
    )
    assert len(per_table) == -(-callers // seats_per_table)


@pytest.mark.parametrize("db", ["memory", "sqlite"])
def test_a_burst_of_play_nows_through_the_app_seats_every_caller(db: str, tmp_path: Path) -> None:
    async def main() -> None:
        url = None if db == "memory" else f"sqlite:///{tmp_path / 'server.db'}"
        settings = Settings(
            db_url=url, now=FakeClock(), scheduler=False, warm_tables=False, bot_delay=0.0, rate_limit=None
        )  # about a hundred play-nows from one address in a minute: the burst, not the rate limit, is tested
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                for callers in BURSTS:
                    answers = await burst(client, callers)
                    assert [a.status_code for a in answers] == [200] * callers, [a.text for a in answers]
                    seated = [a.json() for a in answers]
                    assert_everyone_seated(seated, callers, 2)
                    if callers % 2:  # one caller waits alone: the next play-now fills that table first
                        (alone,) = [i for i, n in collections.Counter(s["id"] for s in seated).items() if n == 1]
                        (answer,) = await burst(client, 1)
                        assert answer.status_code == 200 and answer.json()["id"] == alone
                service: TableService = app.state.service
                waiting = [t for t in service._tables.values() if t.status == WAITING]
                assert waiting == []  # every burst was even once topped up: nothing left half-filled

    run(main())


@pytest.fixture(params=["memory", "sql"])
def storages(request: pytest.FixtureRequest, sql_settings: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return request.param, sql_settings


@pytest.mark.parametrize("callers", [6, 25])
def test_two_processes_on_one_database_seat_every_caller_of_a_burst(
    storages: tuple[str, dict[str, Any]], callers: int
) -> None:
    kind, settings = storages
    clock = FakeClock()

    async def main() -> None:
        storage_a, storage_b = await _open(kind, settings)
        a, b = two_services(storage_a, storage_b, clock)
        calls = [(a if i % 2 else b).play_now("scorecard", f"p{i}") for i in range(callers)]
        seated = await asyncio.gather(*calls)
        assert_everyone_seated(seated, callers, 2)
        for s in seated:  # every token works through either process
            assert await b.authenticate(str(s["id"]), str(s["token"])) == s["seat"]
        assert len(await storage_a.list_tables(game="scorecard")) == -(-callers // 2)
        for storage in {id(storage_a): storage_a, id(storage_b): storage_b}.values():
            await storage.close()

    run(main())


class LosesTheAnswerOfTheFirstLobbyWrite:
    """Storage that commits a new play-now table and then fails, as a request cancelled (or a connection
    lost) after the write reached the database: the table holds the game's slot but is not in memory."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.lost = False

    async def save(self, table: TableRecord, events: Sequence[EventRecord] = ()) -> None:
        await self.storage.save(table, events)
        if table.lobby is not None and table.stamp == 1 and not self.lost:
            self.lost = True
            raise ConnectionResetError("the answer of the commit was lost")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.storage, name)


def test_a_lobby_slot_whose_table_left_memory_is_joined_not_a_409_for_ever() -> None:
    async def main() -> None:
        storage = MemoryStorage()
        service = new_service(LosesTheAnswerOfTheFirstLobbyWrite(storage), FakeClock())  # type: ignore[arg-type]
        await service.start(scheduler=False)
        with pytest.raises(ConnectionResetError):
            await service.play_now("scorecard", "ann")
        (holder,) = storage.tables.values()
        assert holder.lobby == "scorecard" and holder.id not in service._tables
        bob = await service.play_now("scorecard", "bob")
        assert (bob["id"], bob["seat"]) == (holder.id, 0)  # read back from the database and joined
        carl = await service.play_now("scorecard", "carl")
        assert (carl["id"], carl["seat"]) == (holder.id, 1)
        assert service._tables[holder.id].status == "playing"
        dora = await service.play_now("scorecard", "dora")
        assert dora["id"] != holder.id
        await service.stop()

    run(main())


def test_a_lobby_slot_held_by_a_table_that_cannot_take_a_player_is_let_go() -> None:
    async def main() -> None:
        storage = MemoryStorage()
        service = new_service(storage, FakeClock())
        await service.start(scheduler=False)
        ann = await service.play_now("scorecard", "ann")
        stuck = storage.tables[str(ann["id"])]
        stuck.status = "playing"  # e.g. written by an older server that did not clear the slot on starting
        del service._tables[stuck.id]
        bob = await service.play_now("scorecard", "bob")
        assert bob["id"] != stuck.id
        assert storage.tables[stuck.id].lobby is None
        assert storage.tables[str(bob["id"])].lobby == "scorecard"
        await service.stop()

    run(main())


def test_a_waiting_full_table_holding_the_slot_is_started() -> None:
    async def main() -> None:
        storage = MemoryStorage()
        service = new_service(storage, FakeClock())
        await service.start(scheduler=False)
        ann = await service.play_now("scorecard", "ann")
        table = service._tables[str(ann["id"])]
        table.record.seats[1].kind = "human"  # a crash between the last join and the start
        await storage.save(table.record)
        del service._tables[table.id]
        bob = await service.play_now("scorecard", "bob")
        assert bob["id"] != table.id
        assert storage.tables[table.id].status == "playing" and storage.tables[table.id].lobby is None
        await service.stop()

    run(main())
