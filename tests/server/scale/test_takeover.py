"""A process dies holding a table's lease: the process that takes the table over gives the turn back the time
nobody was timing it (docs/architecture.md, failure cases). Two services in this test process on one PostgreSQL
database and one Redis, with an injected wall clock; the dead one's lease is expired by hand, not waited for."""

from __future__ import annotations

import secrets

import pytest

from dicepoker.server.cluster.coordinator import Cluster
from dicepoker.server.storage.sql import SqlStorage
from dicepoker.server.tables.pubsub import InProcessPubSub
from dicepoker.server.tables.service import TableService
from tests.server.conftest import FakeClock, run
from tests.server.scale.harness import REDIS_HOST, REDIS_PORT, clear_prefix, fresh_database, reachable

pytestmark = pytest.mark.skipif(
    not (reachable("127.0.0.1", 5432) and reachable(REDIS_HOST, REDIS_PORT)),
    reason="needs PostgreSQL at 127.0.0.1:5432 (database 'test') and Redis at 127.0.0.1:6379",
)
REDIS = f"redis://{REDIS_HOST}:{REDIS_PORT}/0"
CLOCK = 30.0


async def process(db: str, name: str, prefix: str, clock: FakeClock) -> tuple[TableService, Cluster]:
    """A server process's service and cluster part, on ``db`` and the shared Redis, with an injected clock."""
    storage = SqlStorage(db)
    await storage.open()
    service = TableService(storage, InProcessPubSub(), now=clock, bot_delay=0.0)
    # A long lease: the beats below are the tests', not the background task's (it beats once at start).
    cluster = Cluster(REDIS, prefix=prefix, lease_ttl=600, name=name, now=clock)
    service.use(cluster)
    await service.start(scheduler=False)
    return service, cluster


async def stop(prefix: str, *services: TableService) -> None:
    for service in services:
        await service.stop()
        await service.storage.close()
    clear_prefix(REDIS, prefix)


def test_a_dead_owners_downtime_is_given_back_to_the_turn() -> None:
    clock = FakeClock()
    prefix = f"dptest{secrets.token_hex(4)}"

    async def main(db: str) -> None:
        a, lease_a = await process(db, "a", prefix, clock)
        b, lease_b = await process(db, "b", prefix, clock)
        try:
            table_id = str((await a.create_table("holdem", {}, ["open", "open"], CLOCK))["id"])
            await a.join(table_id, 0, "ann")
            await a.join(table_id, 1, "bob")
            deadline = a._tables[table_id].record.deadline
            assert deadline == clock() + CLOCK and lease_a.owns(table_id)
            clock.advance(10)
            await lease_a._beat(1)  # a renews its lease, 20 s before the deadline
            clock.advance(2)  # and dies (SIGKILL) a moment later: nothing released, nothing renewed
            for task in lease_a._tasks:
                task.cancel()
            clock.advance(38)  # nobody times the table for 40 s: the deadline passed 20 s ago
            await lease_a.redis.delete(f"{prefix}:lease:{table_id}")  # its lease has expired by now,
            await lease_a.redis.zrem(f"{prefix}:processes", "a")  # and its sign of life (3 beats, not 5) before
            await lease_b._beat(1)
            assert lease_b.owns(table_id)
            table = b._tables[table_id]
            # The 40 s since a was last seen alive are given back: the 20 s the turn had left then are left now.
            assert table.record.deadline == pytest.approx(deadline + 40, abs=1e-3)
            assert await b.tick() == 0 and table.version == a._tables[table_id].version  # no timeout yet
            stored = await b.storage.load(table_id)
            assert stored is not None and stored[0].deadline == pytest.approx(deadline + 40, abs=1e-3)
            clock.advance(19)
            assert await b.tick() == 0
            clock.advance(2)
            assert await b.tick() == 1  # the timeout, once the given-back time is up too
            assert [e.action for e in table.events].count("timeout") == 1
        finally:
            await stop(prefix, a, b)

    with fresh_database() as db:
        run(main(db))


def test_orphan_tables_are_looked_for_when_a_process_leaves_not_every_beat() -> None:
    # Reading every unfinished table's lease each beat cost a fifth of a busy process's time: the scan runs
    # at start, for a lease's life after a process leaves, and every SAFETY_SCAN_BEATS beats otherwise.
    from dicepoker.server.cluster import coordinator as cluster_module

    clock = FakeClock()
    prefix = f"dptest{secrets.token_hex(4)}"

    async def main(db: str) -> None:
        service, lease = await process(db, "b", prefix, clock)
        storage = service.storage
        scans = 0
        unfinished = storage.unfinished_ids

        async def counted() -> list[str]:
            nonlocal scans
            scans += 1
            return await unfinished()

        storage.unfinished_ids = counted  # type: ignore[method-assign]
        try:
            await lease.redis.zadd(f"{prefix}:processes", {"a": clock() + 10_000})  # another live process
            await lease._beat(1)  # a new member is no reason to look (the start-up window is over below)
            clock.advance(600 + 3 * 120)  # past the start-up window
            scans = 0
            for beat in range(2, 2 + 5):
                await lease.redis.zadd(f"{prefix}:processes", {"a": clock() + 10_000})
                await lease._beat(beat)
                clock.advance(120)
            assert scans == 0  # steady: nobody left, nothing to look for
            await lease._beat(cluster_module.SAFETY_SCAN_BEATS)
            assert scans == 1  # now and then all the same
            await lease.redis.zrem(f"{prefix}:processes", "a")  # a died: its sign of life expired
            scans = 0
            for beat in range(31, 31 + 3):
                await lease._beat(beat)
                clock.advance(120)
            assert scans == 3  # every beat while a's leases run out
            clock.advance(600)
            scans = 0
            await lease._beat(40)
            assert scans == 0
        finally:
            await stop(prefix, service)

    with fresh_database() as db:
        run(main(db))


def test_a_beat_renews_every_lease_recreates_a_lost_one_and_lets_go_of_a_taken_one() -> None:
    clock = FakeClock()
    prefix = f"dptest{secrets.token_hex(4)}"

    async def main(db: str) -> None:
        service, lease = await process(db, "a", prefix, clock)
        try:
            ids = []
            for _ in range(3):
                table_id = str((await service.create_table("scorecard", {}, ["open", "open"], None))["id"])
                await service.join(table_id, 0, "ann")
                await service.join(table_id, 1, "bob")
                ids.append(table_id)
            assert all(lease.owns(i) for i in ids)
            kept, forgotten, taken = ids
            await lease.redis.pexpire(f"{prefix}:lease:{kept}", 10)  # about to expire: the beat renews it
            await lease.redis.delete(f"{prefix}:lease:{forgotten}")  # Redis lost it (a restart): re-created
            await lease.redis.set(f"{prefix}:lease:{taken}", "b")  # another process holds it now
            await lease._beat(1)
            assert lease.owns(kept) and lease.owns(forgotten) and not lease.owns(taken)
            assert await lease.redis.pttl(f"{prefix}:lease:{kept}") > 500_000
            assert await lease.redis.get(f"{prefix}:lease:{forgotten}") == "a"
            assert await lease.redis.get(f"{prefix}:lease:{taken}") == "b"
        finally:
            await stop(prefix, service)

    with fresh_database() as db:
        run(main(db))


def test_when_a_process_leaves_the_others_read_back_the_tables_they_follow() -> None:
    # a commits a game's last move and dies before publishing it: no later message shows b the gap, so b's
    # clients would wait at the last-but-one state for ever. b reads its tables back when a is gone.
    clock = FakeClock()
    prefix = f"dptest{secrets.token_hex(4)}"

    async def main(db: str) -> None:
        a, lease_a = await process(db, "a", prefix, clock)
        b, lease_b = await process(db, "b", prefix, clock)
        try:
            table_id = str((await a.create_table("scorecard", {}, ["open", "open"], None))["id"])
            await a.join(table_id, 0, "ann")
            await a.join(table_id, 1, "bob")
            await b.summary(table_id)
            lease_b.local[table_id] = {None: 1}  # a spectator of this table is connected to b,
            await lease_b._follow(table_id)  # so b follows it
            lease_a.publisher.publish = lambda channel, text: None  # type: ignore[method-assign]
            await a.act(table_id, 0, "resign")  # committed; the message dies with a
            assert b._tables[table_id].status == "playing"
            await lease_b._beat(1)
            assert b._tables[table_id].status == "playing"  # a is alive: nothing to suspect
            await lease_a.redis.zrem(f"{prefix}:processes", "a")  # a's sign of life lapses
            await lease_b._beat(2)
            assert b._tables[table_id].status == "finished"
        finally:
            await stop(prefix, a, b)

    with fresh_database() as db:
        run(main(db))
