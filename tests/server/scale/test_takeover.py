"""A process dies holding a table's lease: the process that takes the table over gives the turn back the time
nobody was timing it (docs/architecture.md, failure cases). Two services in this test process on one PostgreSQL
database and one Redis, with an injected wall clock; the dead one's lease is expired by hand, not waited for."""

from __future__ import annotations

import secrets

import pytest

from dicepoker.server.cluster import Cluster
from dicepoker.server.pubsub import InProcessPubSub
from dicepoker.server.service import TableService
from dicepoker.server.sql import SqlStorage
from tests.server.conftest import FakeClock, run
from tests.server.scale.harness import REDIS_HOST, REDIS_PORT, clear_prefix, fresh_database, reachable

pytestmark = pytest.mark.skipif(
    not (reachable("127.0.0.1", 5432) and reachable(REDIS_HOST, REDIS_PORT)),
    reason="needs PostgreSQL at 127.0.0.1:5432 (database 'test') and Redis at 127.0.0.1:6379",
)
REDIS = f"redis://{REDIS_HOST}:{REDIS_PORT}/0"
CLOCK = 30.0


def test_a_dead_owners_downtime_is_given_back_to_the_turn() -> None:
    clock = FakeClock()
    prefix = f"dptest{secrets.token_hex(4)}"

    async def process(db: str, name: str) -> tuple[TableService, Cluster]:
        storage = SqlStorage(db)
        await storage.open()
        service = TableService(storage, InProcessPubSub(), now=clock, bot_delay=0.0)
        # A long lease: the beats below are the test's, not the background task's (it beats once at start).
        cluster = Cluster(REDIS, prefix=prefix, lease_ttl=600, name=name, now=clock)
        service.use(cluster)
        await service.start(scheduler=False)
        return service, cluster

    async def main(db: str) -> None:
        a, lease_a = await process(db, "a")
        b, lease_b = await process(db, "b")
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
            await lease_a.redis.delete(f"{prefix}:lease:{table_id}")  # its lease has expired by now
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
            for service in (a, b):
                await service.stop()
                await service.storage.close()
            clear_prefix(REDIS, prefix)

    with fresh_database() as db:
        run(main(db))
