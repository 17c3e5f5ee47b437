"""The :class:`~.pubsub.PubSub` protocol over Redis (redis-py asyncio), between server processes.

One connection publishes, one subscribes to every topic this process listens to; a reader task hands each
message to the local subscriptions of its topic (bounded queues, as :class:`~.pubsub.InProcessPubSub`).
Redis delivers the messages of one channel in the order they were published by one connection; the
messages carry what is needed to spot a gap (the table's version, see :mod:`.cluster`), so this layer
does not number them.

:class:`RedisPublisher` sends messages in a given order without waiting for Redis's answer to one before
sending the next (the cross-process fan-out, see :mod:`.cluster`).

Redis keeps nothing here. When the subscribing connection breaks (Redis restarted, a network cut), the
reader reconnects with back-off, subscribes again, and puts :data:`RESYNC` into every subscription: its
owner may have missed messages meanwhile and must catch up from the record (the database). RESYNC goes
in once Redis has *confirmed* the subscription again, so that a catch-up read is never older than the
first message heard. Likewise when Redis confirms a subscription later than a :meth:`RedisSubscription.ready`
caller waited for (a starved process): the caller read the record without being subscribed yet, and the
messages published in between would otherwise be lost for good if no other followed (a finished game's
last one, say). A publish
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
OUTBOX = 10_000
"""Messages a :class:`RedisPublisher` holds while Redis is slow or away; beyond that they are dropped."""
BATCH = 500
RESYNC: JSON = {"resync": True}
"""Put into every subscription after the subscribing connection came back: messages may have been lost."""
RESYNC_TEXT = json.dumps(RESYNC)
"""RESYNC as a :class:`RedisPublisher` sends it on a channel whose messages it may have lost."""
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
    """Topics are Redis channels ``prefix + topic``; messages are JSON text. ``ignore``: messages whose text
    starts with it are dropped unread (a process hears its own messages back on every channel it follows;
    parsing them only to throw them away cost the busiest process a JSON parse per commit)."""

    def __init__(
        self, url: str, *, prefix: str = "dicepoker:", client: redis.Redis | None = None, ignore: str | None = None
    ) -> None:
        self.url = url
        self.prefix = prefix
        self.ignore = ignore
        self.redis: redis.Redis = client or redis.from_url(url, decode_responses=True, socket_timeout=5.0)
        self._subscriptions: dict[str, set[RedisSubscription]] = {}
        self._confirmed: set[str] = set()
        self._resync: set[str] = set()  # topics whose subscribers catch up when Redis confirms them
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
            self._resync.discard(subscription.topic)
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
            self._resync.add(topic)  # confirmed later: the subscribers get RESYNC then (module docstring)
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
                    self._resync.update(self._subscriptions)  # on each confirmation, read below
                first = False
                delay = 0.05
                while True:
                    # Blocks until Redis sends something (no timeout, no polling): a message is handed on
                    # as soon as it arrives. A closed connection raises; close() cancels the wait.
                    message = await pubsub.get_message(timeout=None)
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
            if topic in self._resync:
                self._resync.discard(topic)
                for subscription in list(self._subscriptions.get(topic, ())):
                    subscription.put(RESYNC)
            return
        if kind != "message":
            return
        text = message["data"]
        if self.ignore is not None and isinstance(text, str) and text.startswith(self.ignore):
            return
        try:
            data = json.loads(text)
        except (TypeError, ValueError):
            logger.warning("redis: a message on %s that is not JSON", channel)
            return
        for subscription in list(self._subscriptions.get(topic, ())):
            subscription.put(data)


class RedisPublisher:
    """Publishes ``(channel, text)`` messages in the order they are handed over, on a connection of its own.

    Why not a pipeline per batch (as before): each batch waited for Redis's answers before the next could
    go, so a message committed meanwhile waited a whole round trip on a busy event loop first; measured on
    the process that commits, 80 ms at p99 between the commit and the publish (issue 11's fan-out). Here a
    writer sends whatever the outbox holds at once, and a reader takes the answers as they come: one task
    wake-up between a commit and its message on the wire. One connection, written in order, keeps the order.

    A message that cannot be sent (Redis away, the connection broken, the outbox full) is dropped and counted
    in ``dropped``, and so may be one that was sent when the connection broke before Redis answered it. Their
    channels are remembered, and the first thing a new connection sends is :data:`RESYNC` on each of them:
    whoever follows those tables catches up from the database. (Waiting for the table's next message to show
    the gap is not enough: a finished game's last move has none, and its followers would never see the end.)"""

    def __init__(self, client: redis.Redis, *, limit: int = OUTBOX) -> None:
        self._client = client
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue(limit)
        self._task: asyncio.Task[None] | None = None
        self.dropped = 0
        self.published = 0
        self.connections = 0
        self._lost: set[str] = set()  # channels whose messages may not have reached Redis: RESYNC goes first
        self._reading: list[str] = []  # the channels of the sent batch whose answers are being read

    def publish(self, channel: str, text: str) -> None:
        """Queue a message (the caller does not wait): it goes out on the writer's next turn."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="dicepoker-redis-publisher")
        try:
            self._outbox.put_nowait((channel, text))
        except asyncio.QueueFull:
            self.dropped += 1
            self._lost.add(channel)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.wait([task], timeout=0.5)

    async def _run(self) -> None:
        failures = 0
        carried: list[tuple[str, str]] = []  # taken from the outbox when the idle connection was found broken
        while True:
            connection: Any = self._client.connection_pool.make_connection()  # type: ignore[no-untyped-call]
            # ^ a connection of its own, never shared: its answers come in the order of its messages
            unanswered: asyncio.Queue[list[str]] = asyncio.Queue()  # the channels of each sent batch
            answers: asyncio.Task[None] | None = None
            batch: list[tuple[str, str]] = []
            try:
                await connection.connect()
                self.connections += 1
                answers = asyncio.create_task(self._read_answers(connection, unanswered))
                failures = 0
                if self._lost:  # tell the followers of what may have been lost to read the record
                    carried = [(channel, RESYNC_TEXT) for channel in sorted(self._lost)] + carried
                    self._lost.clear()
                while True:
                    batch, carried = carried or await self._next_batch(), []
                    if answers.done():
                        # Broken while idle (Redis restarted, say): nothing of this batch was sent, so it
                        # goes out on the next connection rather than being dropped.
                        carried, batch = batch, []
                        why = "cancelled" if answers.cancelled() else repr(answers.exception())
                        raise ConnectionError(f"the publishing connection was closed: {why}")
                    packed = connection.pack_commands([("PUBLISH", channel, text) for channel, text in batch])
                    await connection.send_packed_command(packed, check_health=False)
                    unanswered.put_nowait([channel for channel, _ in batch])
                    self.published += len(batch)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away, a broken connection: drop what was in hand, start over
                lost = len(batch)
                self._lost.update(channel for channel, _ in batch)
                self._lost.update(self._reading)  # sent, but Redis may never have had them
                while not unanswered.empty():
                    self._lost.update(unanswered.get_nowait())
                if answers is None:  # could not connect: what waits would go out late, if ever
                    lost += len(carried) + self._outbox.qsize()
                    self._lost.update(channel for channel, _ in carried)
                    carried = []
                    while not self._outbox.empty():
                        self._lost.add(self._outbox.get_nowait()[0])
                self.dropped += lost
                if failures % 50 == 0:
                    logger.warning("redis publisher: connection lost, %d message(s) dropped: %r", lost, exc)
                failures += 1
                if answers is None:
                    await asyncio.sleep(min(1.0, 0.05 * 2 ** min(failures, 5)))
            finally:
                if answers is not None:
                    answers.cancel()
                with contextlib.suppress(Exception):
                    await connection.disconnect(nowait=True)

    async def _next_batch(self) -> list[tuple[str, str]]:
        batch = [await self._outbox.get()]
        while not self._outbox.empty() and len(batch) < BATCH:
            batch.append(self._outbox.get_nowait())
        return batch

    async def _read_answers(self, connection: Any, unanswered: asyncio.Queue[list[str]]) -> None:
        """Read one answer per message sent (a subscriber count each), so the socket never fills up;
        a failed read (the socket timeout with answers due, a closed connection) ends the connection."""
        while True:
            self._reading = []
            self._reading = await unanswered.get()
            for _ in self._reading:
                await connection.read_response()
