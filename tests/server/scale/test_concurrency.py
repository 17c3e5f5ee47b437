"""Two table services on one database, as two server processes are: optimistic writes (issue 11).

No Redis here: the services believe they both time every table, which the lease normally prevents, to
show that correctness does not rest on the lease. A timeout both apply lands once (the unique seq key);
an action one accepts is seen by the other after a conflict; a stale record never overwrites a newer one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from dicepoker.core.types import Seat
from dicepoker.server.storage.records import EventRecord, MemoryStorage, SeatRecord, StaleWrite, Storage, TableRecord
from dicepoker.server.storage.sql import SqlStorage
from dicepoker.server.tables.pubsub import InProcessPubSub
from dicepoker.server.tables.service import TableService
from dicepoker.server.tables.table import Table
from tests.server.conftest import FakeClock, run


class Everything:
    """A coordinator that owns and follows every table (what two processes would be without the lease)."""

    def owns(self, table_id: str) -> bool:
        return True

    def tracks(self, table_id: str) -> bool:
        return False  # never told of the other's changes: every read goes to the database

    async def changed(self, table: Table, events: Sequence[EventRecord], extra: dict[str, int]) -> None:
        return None

    async def start(self, service: TableService) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def created(self, table: Table) -> None:
        return None

    async def connection(self, table: Table, seat: Seat | None, delta: int) -> bool:
        return False


def two_services(storage_a: Storage, storage_b: Storage, clock: FakeClock) -> tuple[TableService, TableService]:
    services = []
    for storage in (storage_a, storage_b):
        service = TableService(storage, InProcessPubSub(), now=clock, bot_delay=0.0)
        service.use(Everything())
        services.append(service)
    return services[0], services[1]


@pytest.fixture(params=["memory", "sql"])
def storages(request: pytest.FixtureRequest, sql_settings: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return request.param, sql_settings


async def _open(kind: str, settings: dict[str, Any]) -> tuple[Storage, Storage]:
    if kind == "memory":
        shared = MemoryStorage()
        return shared, shared
    a, b = SqlStorage(**settings), SqlStorage(**settings)
    await a.open()
    await b.open()
    return a, b


def test_a_timeout_two_processes_apply_at_once_is_applied_once(storages: tuple[str, dict[str, Any]]) -> None:
    kind, settings = storages
    clock = FakeClock()

    async def main() -> None:
        storage_a, storage_b = await _open(kind, settings)
        a, b = two_services(storage_a, storage_b, clock)
        created = await a.create_table("holdem", {}, ["open", "open"], 30)  # a timeout folds: the game goes on
        table_id = str(created["id"])
        await a.join(table_id, 0, "ann")
        await b.join(table_id, 1, "bob")  # b reads the table back: ann's seat is taken, bob's is free
        await a.adopt(table_id)
        await b.adopt(table_id)
        for service in (a, b):  # both players are connected (slow, not away: CM-7 does not make them leave)
            service._tables[table_id].connections.update({0: 1, 1: 1})
        for _ in range(5):  # five decisions in a row run out, and both processes fire each one
            clock.advance(31)
            await asyncio.gather(a.tick(), b.tick())
        await a.dealer.refresh(a._tables[table_id])
        assert a._tables[table_id].status == "playing"
        events = a._tables[table_id].events
        timeouts = [e for e in events if e.action == "timeout"]
        assert len(timeouts) == 5, events
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        loaded = await storage_a.load(table_id)
        assert loaded is not None and loaded[1] == events
        for storage in {id(storage_a): storage_a, id(storage_b): storage_b}.values():
            await storage.close()

    run(main())


def test_CM_7_a_seat_away_for_two_timeouts_two_processes_fire_leaves_once(storages: tuple[str, dict[str, Any]]) -> None:
    """CM-7 with two processes firing every timeout: nobody is connected, so after two decisions in a row
    run out the seat to act has left; its resignation is in the log once, with no gap in the versions."""
    kind, settings = storages
    clock = FakeClock()

    async def main() -> None:
        storage_a, storage_b = await _open(kind, settings)
        a, b = two_services(storage_a, storage_b, clock)
        table_id = str((await a.create_table("holdem", {}, ["open", "open"], 30))["id"])
        await a.join(table_id, 0, "ann")
        await b.join(table_id, 1, "bob")
        await a.adopt(table_id)
        await b.adopt(table_id)
        for _ in range(4):
            clock.advance(31)
            await asyncio.gather(a.tick(), b.tick())
        await a.dealer.refresh(a._tables[table_id])
        events = a._tables[table_id].events
        assert a._tables[table_id].status == "finished"
        assert [e.action for e in events if e.action == "resign"] == ["resign"]
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        for storage in {id(storage_a): storage_a, id(storage_b): storage_b}.values():
            await storage.close()

    run(main())


def test_an_action_through_either_process_is_accepted_once(storages: tuple[str, dict[str, Any]]) -> None:
    kind, settings = storages
    clock = FakeClock()

    async def main() -> None:
        storage_a, storage_b = await _open(kind, settings)
        a, b = two_services(storage_a, storage_b, clock)
        created = await a.create_table("scorecard", {}, ["open", "open"], None)
        table_id = str(created["id"])
        token = str((await a.join(table_id, 0, "ann"))["token"])
        await b.join(table_id, 1, "bob")
        assert await b.authenticate(table_id, token) == 0  # joined through a, known to b
        version = a._tables[table_id].version
        after = await a.act(table_id, 0, "roll", version=version, client_id="x1")
        # b's copy is behind: the same id through b is answered with a's acceptance, not applied again
        assert await b.act(table_id, 0, "roll", version=version, client_id="x1") == after
        stale = b._tables[table_id]
        assert stale.version == after
        assert len([e for e in stale.events if e.client_id == "x1"]) == 1
        for storage in {id(storage_a): storage_a, id(storage_b): storage_b}.values():
            await storage.close()

    run(main())


def test_a_stale_record_is_refused(storages: tuple[str, dict[str, Any]]) -> None:
    kind, settings = storages

    async def main() -> None:
        storage_a, storage_b = await _open(kind, settings)
        record = TableRecord("t1", "scorecard", {"players": 2}, [SeatRecord("open")], 30.0, "waiting", "c", "ab", 1.0)
        await storage_a.save(record)
        assert record.stamp == 1
        loaded = await storage_b.load("t1")
        assert loaded is not None
        other = loaded[0]
        other.status, other.version = "playing", 1
        await storage_b.save(other, [EventRecord(1, None, "rolled 1 2 3 4 5")])
        record.seats[0] = SeatRecord("human", "ann")
        with pytest.raises(StaleWrite):
            await storage_a.save(record)  # written from an older read: refused, nothing changed
        with pytest.raises(StaleWrite):
            await storage_b.save(other, [EventRecord(1, None, "rolled 6 6 6 6 6")])  # seq 1 is taken
        found = await storage_a.load("t1")
        assert found is not None and found[0].seats[0].kind == "open" and found[0].status == "playing"
        assert [e.action for e in found[1]] == ["rolled 1 2 3 4 5"]
        for storage in {id(storage_a): storage_a, id(storage_b): storage_b}.values():
            await storage.close()

    run(main())


def test_play_now_at_once_on_two_processes_opens_one_table(storages: tuple[str, dict[str, Any]]) -> None:
    """Two people press "play now" at the same moment, each through another process: one table, two seats."""
    kind, settings = storages
    clock = FakeClock()

    async def main() -> None:
        storage_a, storage_b = await _open(kind, settings)
        a, b = two_services(storage_a, storage_b, clock)
        for round_ in range(3):
            ann, bob = await asyncio.gather(
                a.play_now("scorecard", f"ann{round_}"), b.play_now("scorecard", f"bob{round_}")
            )
            assert ann["id"] == bob["id"], "two play-now tables were opened at once"
            assert {ann["seat"], bob["seat"]} == {0, 1}
            table_id = str(ann["id"])
            assert await b.authenticate(table_id, str(ann["token"])) == ann["seat"]
            assert await a.authenticate(table_id, str(bob["token"])) == bob["seat"]
            assert (await a.summary(table_id))["status"] == "playing"
        assert len(await storage_a.list_tables(game="scorecard")) == 3
        for storage in {id(storage_a): storage_a, id(storage_b): storage_b}.values():
            await storage.close()

    run(main())


class DiesBeforeTheRematchTable:
    """Storage whose process dies (the write fails) when it stores a rematch's new table, once."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.died = False

    async def save(self, table: TableRecord, events: Sequence[EventRecord] = ()) -> None:
        if table.rematch_of is not None and not self.died:
            self.died = True
            raise ConnectionResetError("the process died between the two writes of a rematch")
        await self.storage.save(table, events)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.storage, name)


def test_a_rematch_interrupted_between_its_writes_is_completed_by_another_process(
    storages: tuple[str, dict[str, Any]],
) -> None:
    kind, settings = storages
    clock = FakeClock()

    async def main() -> None:
        storage_a, storage_b = await _open(kind, settings)
        dying = DiesBeforeTheRematchTable(storage_a)
        a, b = two_services(dying, storage_b, clock)  # type: ignore[arg-type]
        created = await a.create_table("scorecard", {}, ["open", "open"], None)
        table_id = str(created["id"])
        ann = await a.join(table_id, 0, "ann")
        await a.join(table_id, 1, "bob")
        await a.act(table_id, 0, "resign")
        with pytest.raises(ConnectionResetError):
            await a.rematch(table_id)  # the old table names its rematch; the new one is never stored
        assert dying.died
        named = (await b.summary(table_id))["rematch"]
        assert named is not None
        again = await b.rematch(table_id)  # asked again, through another process: completed, same id
        assert again["id"] == named
        new_id = str(named)
        assert (await a.summary(new_id))["status"] == "playing"
        assert await a.authenticate(new_id, str(ann["token"])) == 0
        assert await a.rematch(table_id) == again  # and the first process finds the same one
        for storage in {id(storage_a): storage_a, id(storage_b): storage_b}.values():
            await storage.close()

    run(main())


class Behind(Everything):
    """A coordinator that follows every table but whose messages have not arrived yet: a process behind."""

    def tracks(self, table_id: str) -> bool:
        return True


def test_a_rematch_asked_of_a_process_not_yet_told_the_game_ended_is_made(
    storages: tuple[str, dict[str, Any]],
) -> None:
    # A client sees the final state from one process and asks another for the rematch (nginx spreads
    # requests), before that one has heard of the end: it must read the table back, not answer 409.
    kind, settings = storages
    clock = FakeClock()

    async def main() -> None:
        storage_a, storage_b = await _open(kind, settings)
        a, b = two_services(storage_a, storage_b, clock)
        b.use(Behind())
        created = await a.create_table("scorecard", {}, ["open", "open"], None)
        table_id = str(created["id"])
        await a.join(table_id, 0, "ann")
        await a.join(table_id, 1, "bob")
        assert (await b.summary(table_id))["status"] == "playing"  # b's copy, kept as if it followed it
        await a.act(table_id, 0, "resign")
        made = await b.rematch(table_id)
        assert (await a.summary(table_id))["rematch"] == made["id"]
        for storage in {id(storage_a): storage_a, id(storage_b): storage_b}.values():
            await storage.close()

    run(main())
