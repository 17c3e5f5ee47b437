"""Play-now bursts (issue 19 §2): N simultaneous ``POST /api/play-now`` for one game, and how many of the
callers were seated or refused, through the ASGI app on a SQLite file (one process), then the same bursts
split between two services sharing one SQLite database (two processes' races, without Redis).

Each burst starts from an empty lobby (a fresh database). The figures are counts, not times.

Run: ``python benchmarks/bench_playnow.py [--quick]`` (or ``python benchmarks/run.py playnow``).
"""

from __future__ import annotations

import asyncio
import collections
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import httpx

from dicepoker.server.settings import Settings
from dicepoker.server.storage.sql import SqlStorage
from dicepoker.server.tables.pubsub import InProcessPubSub
from dicepoker.server.tables.service import TableService
from dicepoker.server.transport.app import create_app

CALLERS = (2, 6, 10, 25, 50)


async def _one_process(callers: int, folder: Path) -> collections.Counter[int]:
    settings = Settings(db_url=f"sqlite:///{folder / 'one.db'}", scheduler=False, warm_tables=False, rate_limit=None)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            posts = [client.post("/api/play-now", json={"game": "scorecard", "name": f"p{i}"}) for i in range(callers)]
            answers = await asyncio.gather(*posts)
    return collections.Counter(a.status_code for a in answers)


async def _two_processes(callers: int, folder: Path) -> collections.Counter[int]:
    url = f"sqlite:///{folder / 'two.db'}"
    storages = [SqlStorage(url), SqlStorage(url)]
    services = []
    for storage in storages:
        await storage.open()
        service = TableService(storage, InProcessPubSub(), bot_delay=0.0)
        services.append(service)
    calls = [services[i % 2].play_now("scorecard", f"p{i}") for i in range(callers)]
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    for storage in storages:
        await storage.close()
    return collections.Counter(200 if isinstance(o, dict) else getattr(o, "status", 500) for o in outcomes)


def run(quick: bool = False) -> None:
    print(f"{'callers':>7} {'one process: seated':>20} {'refused':>8} {'two processes: seated':>22} {'refused':>8}")
    for callers in CALLERS[:3] if quick else CALLERS:
        with tempfile.TemporaryDirectory() as tmp:
            one = asyncio.run(_one_process(callers, Path(tmp)))
            two = asyncio.run(_two_processes(callers, Path(tmp)))
        print(f"{callers:>7} {one[200]:>20} {callers - one[200]:>8} {two[200]:>22} {callers - two[200]:>8}")


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
