"""What server bots cost (issue 19 §1): one strategy per process, shared by every seat of every table,
and nothing kept once a table is over."""

from __future__ import annotations

import tracemalloc

from dicepoker.bots.scorecard import shared_strategy
from dicepoker.server.storage.records import MemoryStorage
from dicepoker.server.tables.table import FINISHED
from tests.server.conftest import FakeClock, new_service, run


def test_optimal_bots_of_many_tables_share_one_strategy_and_finished_tables_keep_no_bots() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        ids = []
        for _ in range(3):
            created = await service.create_table("scorecard", {}, ["bot:optimal", "bot:optimal"], None)
            ids.append(str(created["id"]))
        tables = [service._tables[i] for i in ids]
        await service.dealer.tick(wait=False)  # every table's first bot starts thinking
        for _ in range(2000):
            if all(t.status == FINISHED for t in tables):
                break
            seen = [bot for t in tables for bot in t.bots.values()]
            assert all(getattr(bot, "strategy", None) is shared_strategy("optimal") for bot in seen)
            await service.tick()
        assert all(t.status == FINISHED for t in tables)
        assert [t.bots for t in tables] == [{}, {}, {}]  # nothing to decide any more: no bots kept
        await service.stop()

    run(main())


def test_a_new_optimal_bot_costs_no_copy_of_the_strategy() -> None:
    """Memory, not time: a fourth bot allocates a few hundred bytes, not the 4.2 MB table again."""
    from dicepoker.bots.registry import create_bot

    for name in ("optimal", "greedy"):
        create_bot("scorecard", name)  # the one shared load
        tracemalloc.start()
        try:
            bots = [create_bot("scorecard", name) for _ in range(6)]
            grown, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert grown < 64 * 1024, f"{name}: six bots allocated {grown} bytes"
        assert len({id(bot.strategy) for bot in bots}) == 1  # type: ignore[attr-defined]
