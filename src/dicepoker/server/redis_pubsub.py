"""The :class:`~.pubsub.PubSub` protocol over Redis (redis-py asyncio), between server processes.

One connection publishes, one subscribes to every topic this process listens to; a reader task hands each
message to the local subscriptions of its topic (bounded queues, as :class:`~.pubsub.InProcessPubSub`).
Redis delivers the messages of one channel in the order they were published by one connection; the
messages carry what is needed to spot a gap (the table's version, see :mod:`.cluster`), so this layer
does not number them.

Redis keeps nothing here. When the subscribing connection breaks (Redis restarted, a network cut), the
reader reconnects with back-off, subscribes again, and puts :data:`RESYNC` into every subscription: its
owner may have missed messages meanwhile and must catch up from the record (the database). A publish
while Redis is away raises ``redis.exceptions.RedisError``; the caller decides (the cluster drops the
message: whoever misses it catches up from the database).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import redis.asyncio as redis
from redis.exceptions import RedisError

from dicepoker.core.types import JSON

QUEUE_SIZE = 256
RESYNC: JSON = {"resync": True}
"""Put into every subscription after the subscribing connection came back: messages may have been lost."""
logger = logging.getLogger("dicepoker.server.redis")


class RedisSubscription:
    def __init__(self, owner: RedisPubSub, topic: str) -> None:
        self._owner = owner
        self.topic = topic
        self.queue: asyncio.Queue[JSON] = asyncio.Queue(QUEUE_SIZE)
        self.overflowed = False

    def put(self, message: JSON) -> None:
        if self.queue.full():
            # A subscriber this far behind has lost messages anyway: drop them all, and say so.
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(RESYNC)
            self.overflowed = True
            return
        self.queue.put_nowait(message)

    async def get(self) -> JSON:
        return await self.queue.get()

    async def __aiter__(self) -> AsyncIterator[JSON]:
        while True:
            yield await self.queue.get()

    async def ready(self, timeout: float = 5.0) -> bool:
        """Wait until Redis confirmed the subscription (messages published from then on arrive)."""
        return await self._owner.ready(self.topic, timeout)

    def close(self) -> None:
        self._owner._remove(self)


class RedisPubSub:
    """Topics are Redis channels ``prefix + topic``; messages are JSON text."""

    def __init__(self, url: str, *, prefix: str = "dicepoker:", client: redis.Redis | None = None) -> None:
        self.url = url
        self.prefix = prefix
        self.redis: redis.Redis = client or redis.from_url(url, decode_responses=True, socket_timeout=5.0)
        self._subscriptions: dict[str, set[RedisSubscription]] = {}
        self._confirmed: set[str] = set()
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._commands: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self.reconnects = 0

    # -- the protocol -------------------------------------------------------------------------------
    async def publish(self, topic: str, message: JSON) -> None:
        await self.redis.publish(self.prefix + topic, json.dumps(message, separators=(",", ":")))

    def subscribe(self, topic: str) -> RedisSubscription:
        self._ensure_started()
        subscription = RedisSubscription(self, topic)
        subscribers = self._subscriptions.setdefault(topic, set())
        subscribers.add(subscription)
        if len(subscribers) == 1:
            self._commands.put_nowait(("subscribe", topic))
        return subscription

    def _remove(self, subscription: RedisSubscription) -> None:
        subscribers = self._subscriptions.get(subscription.topic)
        if subscribers is None:
            return
        subscribers.discard(subscription)
        if not subscribers:
            del self._subscriptions[subscription.topic]
            self._confirmed.discard(subscription.topic)
            self._commands.put_nowait(("unsubscribe", subscription.topic))

    async def close(self) -> None:
        tasks = [t for t in (self._reader, self._writer) if t is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            # Not waited for long: a read redis-py is in may take its socket timeout to notice.
            await asyncio.wait(tasks, timeout=0.5)
        self._reader = self._writer = None
        await self._drop_pubsub()
        with contextlib.suppress(RedisError, OSError, RuntimeError, TimeoutError):
            await asyncio.wait_for(self.redis.aclose(), 1.0)

    async def ready(self, topic: str, timeout: float = 5.0) -> bool:
        if topic in self._confirmed:
            return True
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(topic, []).append(waiter)
        try:
            await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            return False
        return True

    def topics(self) -> list[str]:
        return list(self._subscriptions)

    # -- the connection -----------------------------------------------------------------------------
    def _ensure_started(self) -> None:
        if self._reader is None:
            self._reader = asyncio.create_task(self._read_loop(), name="dicepoker-redis-reader")
            self._writer = asyncio.create_task(self._command_loop(), name="dicepoker-redis-subscriber")

    async def _command_loop(self) -> None:
        """(Un)subscribe commands, one at a time, on the subscribing connection once it is up."""
        while True:
            command, topic = await self._commands.get()
            while self._pubsub is None:
                await asyncio.sleep(0.05)
            wanted = topic in self._subscriptions
            if (command == "subscribe") != wanted:
                continue  # changed its mind meanwhile
            try:
                channel = self.prefix + topic
                if command == "subscribe":
                    await self._pubsub.subscribe(channel)
                else:
                    await self._pubsub.unsubscribe(channel)
            except (RedisError, OSError) as exc:
                logger.warning("redis %s %s failed: %r (the reader starts over)", command, topic, exc)

    async def _read_loop(self) -> None:
        delay = 0.05
        first = True
        while True:
            try:
                pubsub = self.redis.pubsub()
                # A channel of our own keeps the connection subscribed (and so readable) when no table is.
                await pubsub.subscribe(f"{self.prefix}_alive_{id(self)}")
                if self._subscriptions:
                    await pubsub.subscribe(*(self.prefix + t for t in self._subscriptions))
                self._pubsub = pubsub
                if not first:
                    self.reconnects += 1
                    logger.warning("redis subscriber connected again: every subscriber catches up")
                    for subscribers in list(self._subscriptions.values()):
                        for subscription in list(subscribers):
                            subscription.put(RESYNC)
                first = False
                delay = 0.05
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self._dispatch(message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a broken connection, whatever redis-py calls it: start over
                logger.warning("redis subscriber lost its connection: %r", exc)
                await self._drop_pubsub()
                await asyncio.sleep(delay)
                delay = min(1.0, delay * 2)

    async def _drop_pubsub(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        self._confirmed.clear()
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        channel = message.get("channel")
        if not isinstance(channel, str) or not channel.startswith(self.prefix):
            return
        topic = channel[len(self.prefix) :]
        if kind == "subscribe":
            self._confirmed.add(topic)
            for waiter in self._waiters.pop(topic, []):
                if not waiter.done():
                    waiter.set_result(None)
            return
        if kind != "message":
            return
        try:
            data = json.loads(message["data"])
        except (TypeError, ValueError):
            logger.warning("redis: a message on %s that is not JSON", channel)
            return
        for subscription in list(self._subscriptions.get(topic, ())):
            subscription.put(data)
