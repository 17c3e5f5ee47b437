"""The cross-process fan-out (issue 11): what it costs per commit, counted rather than timed.

- A process that follows a table catches up from the messages alone (the record and the events of each
  commit): no database read per change, one read when a message is missing (a gap).
- The publisher sends a message without waiting for Redis's answer to the previous one (a batch that
  waited a round trip before the next could go kept commits waiting tens of ms on a busy process).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import signal
from collections.abc import Callable, Sequence
from typing import Any

import pytest
import redis.asyncio as redis

from dicepoker.core.types import JSON, Seat
from dicepoker.server.cluster.redis_pubsub import RedisPublisher, RedisPubSub
from dicepoker.server.storage.records import EventRecord, MemoryStorage, TableRecord
from dicepoker.server.tables.pubsub import InProcessPubSub
from dicepoker.server.tables.replica import events_from_json, events_json, record_from_json, record_json
from dicepoker.server.tables.service import TableService
from dicepoker.server.tables.table import Table
from tests.server.conftest import FakeClock, run
from tests.server.scale.harness import REDIS_HOST, REDIS_PORT, RedisServer, reachable


class CountingStorage:
    """One process's view of the shared record, counting its reads of a table."""

    def __init__(self, shared: MemoryStorage) -> None:
        self.shared = shared
        self.loads = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.shared, name)

    async def load(self, table_id: str) -> tuple[TableRecord, list[EventRecord]] | None:
        self.loads += 1
        return await self.shared.load(table_id)


class Wire:
    """A coordinator that hands every commit over as the cluster's message would be (through JSON)."""

    def __init__(self, *, follows: bool) -> None:
        self.follows = follows
        self.messages: list[dict[str, Any]] = []

    def owns(self, table_id: str) -> bool:
        return not self.follows

    def tracks(self, table_id: str) -> bool:
        return self.follows

    async def changed(self, table: Table, events: Sequence[EventRecord], extra: dict[str, int]) -> None:
        if "presence" not in extra:
            message = {"record": record_json(table.record), "events": events_json(events)}
            self.messages.append(json.loads(json.dumps(message)))

    async def start(self, service: TableService) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def created(self, table: Table) -> None:
        return None

    async def connection(self, table: Table, seat: Seat | None, delta: int) -> bool:
        return False


def test_a_follower_catches_up_from_the_messages_and_reads_the_database_only_for_a_gap() -> None:
    clock = FakeClock()
    shared = MemoryStorage()

    async def main() -> None:
        origin, follower = Wire(follows=False), Wire(follows=True)
        a = TableService(shared, InProcessPubSub(), now=clock, bot_delay=0.0)
        a.use(origin)
        reads = CountingStorage(shared)
        b = TableService(reads, InProcessPubSub(), now=clock, bot_delay=0.0)
        b.use(follower)
        table_id = str((await a.create_table("scorecard", {}, ["open", "open"], None))["id"])
        for seat in (0, 1):
            await a.join(table_id, seat, f"p{seat}")
        copy = await b._table(table_id, fresh=True)  # the follower's first read: it subscribed, then read
        frames = b.pubsub.subscribe(table_id)
        reads.loads = 0
        origin.messages.clear()

        async def play(actions: int) -> None:
            table = a._tables[table_id]
            for _ in range(actions):
                seat = table.to_act()[0]
                action = str(table.state.legal_actions(seat)[0])
                await a.act(table_id, seat, action, version=table.version)

        def deliver(messages: list[dict[str, Any]]) -> Callable[[], Any]:
            async def each() -> None:
                for message in messages:
                    record = record_from_json(message["record"])
                    await b.dealer.receive(copy, record, events_from_json(message["events"]))

            return each

        await play(12)
        assert len(origin.messages) == 12
        await deliver(origin.messages)()
        assert reads.loads == 0, "a follower read the database although every message continued its copy"
        assert copy.version == a._tables[table_id].version and copy.state == a._tables[table_id].state
        assert frames.queue.qsize() == 12  # each change told the follower's own WebSockets once

        origin.messages.clear()
        await play(3)
        await deliver(origin.messages[1:])()  # the first of the three was lost on the way
        assert reads.loads == 1, "a gap is caught up with one read of the record"
        assert copy.version == a._tables[table_id].version and copy.state == a._tables[table_id].state
        frames.close()

    run(main())


needs_redis = pytest.mark.skipif(
    not reachable(REDIS_HOST, REDIS_PORT), reason=f"Redis is not reachable at {REDIS_HOST}:{REDIS_PORT}"
)


async def _until(condition: Callable[[], bool], what: str) -> None:
    """Wait for the publisher's task to have run (event-loop turns, not game time)."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


@needs_redis
def test_the_publisher_sends_the_next_message_before_redis_answered_the_last() -> None:
    server = RedisServer()
    server.start()

    async def main() -> None:
        client = redis.from_url(server.url, decode_responses=True, socket_timeout=60)
        publisher = RedisPublisher(client)
        bus = RedisPubSub(server.url, prefix="dp:")
        try:
            subscription = bus.subscribe("t1")
            assert await subscription.ready()
            publisher.publish("dp:t1", '{"n":0}')
            assert await asyncio.wait_for(subscription.get(), 30) == {"n": 0}  # connected, answered
            assert server.process is not None
            server.process.send_signal(signal.SIGSTOP)  # Redis answers nothing from now on
            try:
                publisher.publish("dp:t1", '{"n":1}')
                await _until(lambda: publisher.published == 2, "the first message was not sent")
                publisher.publish("dp:t1", '{"n":2}')
                await _until(lambda: publisher.published == 3, "the publisher waited for Redis's answer")
            finally:
                server.process.send_signal(signal.SIGCONT)
            assert [await asyncio.wait_for(subscription.get(), 30) for _ in range(2)] == [{"n": 1}, {"n": 2}]
            assert publisher.dropped == 0 and publisher.connections == 1
        finally:
            await publisher.close()
            await bus.close()
            await client.aclose()

    try:
        run(main())
    finally:
        server.stop()


@needs_redis
def test_a_process_drops_its_own_messages_unread() -> None:
    url = f"redis://{REDIS_HOST}:{REDIS_PORT}/0"

    async def main() -> None:
        prefix = f"dptest{secrets.token_hex(4)}:"
        mine = '{"origin":"me",'
        sender, receiver = RedisPubSub(url, prefix=prefix), RedisPubSub(url, prefix=prefix, ignore=mine)
        try:
            subscription = receiver.subscribe("t1")
            assert await subscription.ready()
            own: JSON = {"origin": "me", "n": 1}
            await sender.publish("t1", own)
            await sender.publish("t1", {"origin": "other", "n": 2})
            assert await asyncio.wait_for(subscription.get(), 30) == {"origin": "other", "n": 2}
        finally:
            await sender.close()
            await receiver.close()

    run(main())


@needs_redis
def test_a_message_the_publisher_lost_is_followed_by_a_resync_on_its_channel() -> None:
    # The publishing connection breaks as a game's last move goes out: no later message would show the gap,
    # so the publisher's next connection first tells that table's followers to read the record.
    url = f"redis://{REDIS_HOST}:{REDIS_PORT}/0"

    async def main() -> None:
        prefix = f"dptest{secrets.token_hex(4)}:"
        client = redis.from_url(url, decode_responses=True)
        make_connection = client.connection_pool.make_connection
        broken = 0

        def connection() -> Any:
            nonlocal broken
            made = make_connection()  # type: ignore[no-untyped-call]
            if broken == 0:  # the first connection breaks as its first batch is sent (not while connecting)
                send = made.send_packed_command

                async def fail(command: Any, check_health: bool = True) -> None:
                    if not check_health:  # the publisher's own sends (connecting sends with the default)
                        raise ConnectionError("the connection broke mid-send")
                    await send(command, check_health)

                made.send_packed_command = fail
            broken += 1
            return made

        client.connection_pool.make_connection = connection  # type: ignore[method-assign]
        publisher = RedisPublisher(client)
        bus = RedisPubSub(url, prefix=prefix)
        try:
            subscription = bus.subscribe("t1")
            assert await subscription.ready()
            publisher.publish(f"{prefix}t1", '{"n":1}')  # the last move: lost with the connection
            assert await asyncio.wait_for(subscription.get(), 30) == {"resync": True}
            await _until(lambda: publisher.connections == 2, "no second connection")
            assert publisher.dropped == 1
            publisher.publish(f"{prefix}t1", '{"n":2}')
            assert await asyncio.wait_for(subscription.get(), 30) == {"n": 2}  # and nothing resent twice
        finally:
            await publisher.close()
            await bus.close()
            await client.aclose()

    run(main())
