"""Memory per finished table, with each server bot (issue 19 §1).

For every game and every bot it offers, a table whose seats are all that bot is played to its end on a
:class:`~dicepoker.server.tables.service.TableService` (in-memory storage, no bot delay), and the Python memory
still held afterwards (``tracemalloc``, after a garbage collection) is divided by the tables played: what
a server keeps for each finished table (it keeps up to ``KEEP_FINISHED`` of them). Each kind is warmed
first with one table of its own, so that what every bot of the process shares (the strategy tables, loaded
once) is not charged to a table. The reference, measured in the same run, is one private copy of the
scorecard's optimal strategy: what each optimal seat cost before the bots shared one.

The storage is in memory too, so each figure includes the stored copy of the table's log: a long game
(two Hold'em calling stations play thousands of hands) costs megabytes for its log, not for its bots; the
``bots held`` column shows that a finished table keeps none.

Memory-mapped tables (the optimal strategy's values) are outside ``tracemalloc``: they are shared by the
processes of a machine through the page cache and counted once, in the reference line.

Run: ``python benchmarks/bench_memory.py [--quick]`` (or ``python benchmarks/run.py memory``).
"""

from __future__ import annotations

import asyncio
import gc
import sys
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from dicepoker.bots.registry import bot_names
from dicepoker.games.registry import create
from dicepoker.server.storage.records import MemoryStorage
from dicepoker.server.tables.pubsub import InProcessPubSub
from dicepoker.server.tables.service import TableService
from dicepoker.server.tables.table import FINISHED

GAMES = ("scorecard", "zepherin", "classic-board", "peekpoker", "holdem")


async def _play(service: TableService, game: str, bot: str, tables: int) -> list[str]:
    seats = [f"bot:{bot}"] * create(game).num_players
    ids = [str((await service.create_table(game, {}, seats, None))["id"]) for _ in range(tables)]
    for _ in range(100_000):
        if all(service._tables[i].status == FINISHED for i in ids):
            return ids
        await service.tick()
    raise RuntimeError(f"{game} with {bot} bots did not finish")


async def _per_table(game: str, bot: str, tables: int) -> tuple[float, int]:
    """(bytes held per finished table, bots still held by them)."""
    service = TableService(MemoryStorage(), InProcessPubSub(), bot_delay=0.0)
    await service.start(scheduler=False)
    await _play(service, game, bot, 1)  # warm: shared tables load now, not inside the measure
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        ids = await _play(service, game, bot, tables)
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    held_bots = sum(len(service._tables[i].bots) for i in ids)
    await service.stop()
    return (after - before) / tables, held_bots


def _private_copy() -> int:
    """Bytes of one private copy of the optimal strategy (what each optimal seat used to load)."""
    from dicepoker.analysis.scorecard_solver import load_strategy

    gc.collect()
    tracemalloc.start()
    try:
        strategy = load_strategy().strategy
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del strategy
    return held


def run(quick: bool = False) -> None:
    tables = 1 if quick else 3
    print(f"reference: one private copy of the scorecard optimal strategy {_private_copy() / 1e6:.2f} MB")
    print(f"{'game':<14} {'bot':<8} {'seats':>5} {'KB per finished table':>22} {'bots held':>9}")
    for game in GAMES:
        for bot in bot_names(game):
            per_table, held = asyncio.run(_per_table(game, bot, tables))
            seats = create(game).num_players
            print(f"{game:<14} {bot:<8} {seats:>5} {per_table / 1024:>22.1f} {held:>9}")


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
