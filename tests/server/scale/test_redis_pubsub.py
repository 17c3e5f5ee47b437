"""RedisPubSub: ordered delivery per topic between connections, and a resync notice after Redis restarts."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from dicepoker.server.cluster.redis_pubsub import RESYNC, RedisPubSub
from tests.server.conftest import run
from tests.server.scale.harness import REDIS_HOST, REDIS_PORT, RedisServer, reachable

needs_redis = pytest.mark.skipif(
    not reachable(REDIS_HOST, REDIS_PORT), reason=f"Redis is not reachable at {REDIS_HOST}:{REDIS_PORT}"
)
URL = f"redis://{REDIS_HOST}:{REDIS_PORT}/0"


@needs_redis
def test_messages_arrive_in_order_on_every_subscriber() -> None:
    async def main() -> None:
        prefix = f"dptest{secrets.token_hex(4)}:"
        sender, receiver = RedisPubSub(URL, prefix=prefix), RedisPubSub(URL, prefix=prefix)
        try:
            first, second = receiver.subscribe("t1"), receiver.subscribe("t1")
            other = receiver.subscribe("t2")
            assert await first.ready() and await other.ready()
            for n in range(200):
                await sender.publish("t1", {"n": n})
            await sender.publish("t2", {"n": -1})
            for subscription in (first, second):
                assert [await subscription.get() for _ in range(200)] == [{"n": n} for n in range(200)]
            assert await other.get() == {"n": -1}
            first.close()
            await sender.publish("t1", {"n": 200})
            assert await second.get() == {"n": 200}
            assert first.queue.empty()
        finally:
            await sender.close()
            await receiver.close()

    run(main())


@pytest.mark.skipif(not reachable(REDIS_HOST, REDIS_PORT), reason="redis-server is needed")
def test_a_redis_restart_tells_every_subscriber_to_catch_up() -> None:
    server = RedisServer()
    server.start()

    async def main() -> None:
        bus = RedisPubSub(server.url, prefix="dp:")
        try:
            subscription = bus.subscribe("t1")
            assert await subscription.ready()
            await asyncio.to_thread(server.restart, 0.2)
            assert await asyncio.wait_for(subscription.get(), 20) == RESYNC
            assert await subscription.ready(timeout=10)
            await bus.publish("t1", {"after": True})
            assert await asyncio.wait_for(subscription.get(), 10) == {"after": True}
            assert bus.reconnects == 1
        finally:
            await bus.close()

    try:
        run(main())
    finally:
        server.stop()


@needs_redis
def test_a_subscription_confirmed_after_its_caller_stopped_waiting_gets_a_resync() -> None:
    """A starved process: Redis confirms the subscription after ``ready`` gave up, and the caller had read
    the record meanwhile; what was published in between is lost unless the subscriber catches up again."""

    async def main() -> None:
        prefix = f"dptest{secrets.token_hex(4)}:"
        bus = RedisPubSub(URL, prefix=prefix)
        try:
            subscription = bus.subscribe("t1")
            assert not await subscription.ready(timeout=0)  # not confirmed yet: the caller goes on without
            assert await asyncio.wait_for(subscription.get(), 10) == RESYNC
            assert await subscription.ready(timeout=0)
            on_time = bus.subscribe("t2")
            assert await on_time.ready()
            await bus.publish("t2", {"n": 1})
            assert await asyncio.wait_for(on_time.get(), 10) == {"n": 1}  # confirmed in time: no resync
        finally:
            await bus.close()

    run(main())
