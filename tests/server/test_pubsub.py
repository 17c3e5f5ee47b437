"""The in-process pub/sub: subscribers of a topic get its messages; a slow one keeps the newest."""

from __future__ import annotations

from dicepoker.server.tables.pubsub import QUEUE_SIZE, InProcessPubSub
from tests.server.conftest import run


def test_messages_reach_the_topics_subscribers_only() -> None:
    async def main() -> None:
        bus = InProcessPubSub()
        a, b = bus.subscribe("t1"), bus.subscribe("t2")
        await bus.publish("t1", {"revision": 1})
        assert await a.get() == {"revision": 1} and b.queue.empty()
        for revision in range(QUEUE_SIZE + 5):
            await bus.publish("t2", {"revision": revision})
        assert b.queue.qsize() == QUEUE_SIZE and (await b.get())["revision"] == 5
        a.close()
        assert bus.subscribers("t1") == 0 and bus.subscribers("t2") == 1

    run(main())
