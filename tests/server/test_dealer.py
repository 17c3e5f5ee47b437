"""The dealer's bots: a bot thinks outside the table's lock, and a move it took too long over is dropped."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from random import Random

import pytest

from dicepoker.core.types import Action, View
from dicepoker.server.errors import Rejected
from dicepoker.server.storage.records import MemoryStorage
from dicepoker.server.tables import dealer
from tests.server.conftest import FakeClock, new_service, run


class SlowBot:
    """Chooses its first legal action once the test lets it (standing in for an expert thinking seconds)."""

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.release = threading.Event()

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        self.asked.set()
        assert self.release.wait(10), "the test never released the bot"
        return legal[0]


@pytest.fixture
def slow_bot(monkeypatch: pytest.MonkeyPatch) -> SlowBot:
    bot = SlowBot()
    monkeypatch.setattr(dealer, "create_bot", lambda game, name: bot)
    return bot


def test_a_thinking_bot_holds_neither_its_table_nor_the_other_tables_clocks(slow_bot: SlowBot) -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        slow = str((await service.create_table("scorecard", {}, ["bot:random", "open"], 30))["id"])
        await service.join(slow, 1, "ann")
        other = str((await service.create_table("scorecard", {}, ["open", "open"], 10))["id"])
        for seat in (0, 1):
            await service.join(other, seat, f"p{seat}")
        table = service._tables[slow]
        assert await service.dealer.tick(wait=False) == 0  # the bot starts thinking, the tick returns
        assert await asyncio.to_thread(slow_bot.asked.wait, 10)
        assert table.thinking is not None and not table.lock.locked()
        # The table's other seat is answered at once (no waiting for the bot) ...
        with pytest.raises(Rejected, match="turn"):
            await asyncio.wait_for(service.act(slow, 1, "roll"), 5)
        # ... and another table's clock runs out on time while the bot still thinks.
        clock.advance(11)
        assert await asyncio.wait_for(service.dealer.tick(wait=False), 5) == 1
        assert [e.action for e in service._tables[other].events].count("timeout") == 1
        assert table.thinking is not None
        slow_bot.release.set()
        assert await service.tick() >= 1  # now the bot's move is committed
        assert table.events[0].seat == 0 and table.events[0].action == "roll"
        await service.stop()

    run(main())


def test_a_move_chosen_after_the_table_moved_on_is_dropped(slow_bot: SlowBot) -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id = str((await service.create_table("scorecard", {}, ["bot:random", "open"], 30))["id"])
        await service.join(table_id, 1, "ann")
        table = service._tables[table_id]
        await service.dealer.tick(wait=False)
        assert await asyncio.to_thread(slow_bot.asked.wait, 10)
        version = table.version
        clock.advance(31)  # the bot's clock runs out while it thinks: the engine's timeout is applied
        assert await service.dealer.tick(wait=False) == 1
        assert [(e.seat, e.action) for e in table.events[version:]][:1] == [(0, "timeout")]
        after_timeout = list(table.events)
        slow_bot.release.set()
        await asyncio.gather(*service.dealer._thinking)
        assert table.events == after_timeout  # the late "roll" was not applied on top
        assert table.thinking is None
        await service.stop()

    run(main())


def test_stop_abandons_a_thinking_bot(slow_bot: SlowBot) -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id = str((await service.create_table("scorecard", {}, ["bot:random", "open"], 30))["id"])
        await service.join(table_id, 1, "ann")
        await service.dealer.tick(wait=False)
        assert await asyncio.to_thread(slow_bot.asked.wait, 10)
        version = service._tables[table_id].version
        await service.stop()
        slow_bot.release.set()
        assert service._tables[table_id].version == version and not service.dealer._thinking

    run(main())


def test_a_bot_is_created_in_its_thinking_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Creating a bot may load or build its tables (seconds on a cold cache): never on the event loop."""
    clock = FakeClock()
    created: list[str] = []
    bot = SlowBot()
    bot.release.set()

    def create(game: str, name: str) -> SlowBot:
        created.append(threading.current_thread().name)
        return bot

    monkeypatch.setattr(dealer, "create_bot", create)

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id = str((await service.create_table("scorecard", {}, ["bot:random", "open"], 30))["id"])
        await service.join(table_id, 1, "ann")
        assert await service.tick() >= 1
        assert service._tables[table_id].events[0].seat == 0
        await service.stop()

    run(main())
    assert created and threading.main_thread().name not in created
