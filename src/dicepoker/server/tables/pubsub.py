"""Publish/subscribe of table changes: a small protocol and its in-process implementation.

A message only says *that* a table changed (``{"table": id, "revision": n}``); each subscriber then builds
the frame for its own recipient from the table's state, so no secret ever travels through the bus and a
Redis implementation (a later issue) carries a few bytes per change.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Protocol

from dicepoker.core.types import JSON

QUEUE_SIZE = 64
"""Messages a slow subscriber may fall behind before the oldest are dropped (each message says only
"table X changed", so the latest one is all a subscriber needs)."""


class Subscription(Protocol):
    def __aiter__(self) -> AsyncIterator[JSON]: ...

    async def get(self) -> JSON: ...

    def close(self) -> None: ...


class PubSub(Protocol):
    async def publish(self, topic: str, message: JSON) -> None: ...

    def subscribe(self, topic: str) -> Subscription: ...

    async def close(self) -> None: ...


class _QueueSubscription:
    def __init__(self, owner: InProcessPubSub, topic: str) -> None:
        self._owner = owner
        self._topic = topic
        self.queue: asyncio.Queue[JSON] = asyncio.Queue(QUEUE_SIZE)

    def put(self, message: JSON) -> None:
        if self.queue.full():  # drop the oldest: a newer "changed" message supersedes it
            self.queue.get_nowait()
        self.queue.put_nowait(message)

    async def get(self) -> JSON:
        return await self.queue.get()

    async def __aiter__(self) -> AsyncIterator[JSON]:
        while True:
            yield await self.queue.get()

    def close(self) -> None:
        self._owner._remove(self._topic, self)


class InProcessPubSub:
    """Subscribers of one process, each with a bounded queue."""

    def __init__(self) -> None:
        self._topics: dict[str, set[_QueueSubscription]] = {}

    async def publish(self, topic: str, message: JSON) -> None:
        for subscription in list(self._topics.get(topic, ())):
            subscription.put(message)

    def subscribe(self, topic: str) -> _QueueSubscription:
        subscription = _QueueSubscription(self, topic)
        self._topics.setdefault(topic, set()).add(subscription)
        return subscription

    def _remove(self, topic: str, subscription: _QueueSubscription) -> None:
        subscribers = self._topics.get(topic)
        if subscribers is not None:
            subscribers.discard(subscription)
            if not subscribers:
                del self._topics[topic]

    def subscribers(self, topic: str) -> int:
        return len(self._topics.get(topic, ()))

    async def close(self) -> None:
        self._topics.clear()
