"""The server's ping while one client hammers the heavy routes (issue 19 §4): before and after.

A ``dicepoker`` server process (SQLite) holds one finished Hold'em game of several thousand events. One
client process keeps ``--concurrency`` requests in flight against the heavy routes, as fast as they are
answered; meanwhile this process sends a WebSocket ``ping`` to a table every 20 ms, on a schedule, and
times each ``pong`` (p50/p99/max), as a player's page would see its table's ping. Each scenario runs
against a fresh server:

- ``idle``: no hammering (the reference, measured in the same run);
- ``history``: ``GET /api/tables/{id}/log?format=history`` again and again (the issue's measurement);
- ``replays``: by-id replays for every seat, verifications and the history in turn (after only: the
  routes are new);
- ``uploads``: ``POST /api/web/replay`` of the log, each body different (a trailing blank line more), so
  every request misses the cache and replays the whole game (after only: a log this long was refused
  before with 413);
- ``uploads@threads``: the same on a server that computes in worker threads (``heavy_processes=False``);
- ``limited``: ``uploads`` with the default per-client limit on (120 computations a minute: cache misses).

"before" is the server of another source tree (``--before-src``, e.g. the base commit exported with
``git archive``); "after" this tree. Run::

    git archive 2647bca src | tar -x -C /tmp/before
    python benchmarks/bench_heavy.py --before-src /tmp/before/src [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
SEED = bytes.fromhex("be7c" * 16)
PING_EVERY = 0.02
PING_SOCKETS = 10

SERVER = """
import dataclasses, sys, uvicorn
from dicepoker.server.transport.app import create_app
from dicepoker.server.settings import Settings
port, db, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
limited = mode == "limited"
names = {f.name for f in dataclasses.fields(Settings)}
options = {"db_url": db, "bot_delay": 0.0}
if "heavy_processes" in names and mode == "threads":
    options["heavy_processes"] = False
if "heavy_rate_limit" in names and not limited:
    options["heavy_rate_limit"] = None
uvicorn.run(create_app(Settings(**options)), host="127.0.0.1", port=port, log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def long_game() -> Any:
    """A finished 2-player Hold'em game of 5,000 to 12,000 events, its dice from a FairRandom."""
    from dataclasses import replace

    from dicepoker.core import Match
    from dicepoker.games.registry import create
    from dicepoker.server.tables.fairness import FairRandom, commitment, fairness_header

    for choice_seed in range(200):
        match = Match(create("holdem", players=2, stack=1000), rng=FairRandom(SEED, ["a", "b"]))
        choose = Random(choice_seed)
        while not match.state.is_terminal and len(match.log.events) < 12_000:
            seat = match.state.to_act[0]
            legal = match.state.legal_actions(seat)
            match.act(legal[choose.randrange(len(legal))], seat)
        if match.state.is_terminal and len(match.log.events) >= 5_000:
            return replace(match.log, fairness=fairness_header(SEED, ["a", "b"], commitment(SEED)))
    raise RuntimeError("no game of the wanted length")


async def store(db: str, log: Any) -> str:
    import secrets

    from dicepoker.games.registry import replay
    from dicepoker.server.storage.records import EventRecord, SeatRecord, TableRecord
    from dicepoker.server.storage.sql import SqlStorage
    from dicepoker.server.tables.fairness import commitment

    storage = SqlStorage(db)
    await storage.open()
    record = TableRecord(
        id=secrets.token_hex(8),
        game=log.game,
        config=dict(log.config),
        seats=[SeatRecord("human", name, None, None, name) for name in ("a", "b")],
        clock=None,
        status="finished",
        commitment=commitment(SEED),
        server_seed=SEED.hex(),
        created=time.time(),
        client_seeds=["a", "b"],
        version=len(log.events),
        result=replay(log)[-1].result().to_json(),
    )
    await storage.save(record, [EventRecord(i, e.seat, e.action) for i, e in enumerate(log.events, start=1)])
    await storage.close()
    return record.id


def hammer(url: str, table: str, scenario: str, log_text: str, seconds: float, concurrency: int, out: Any) -> None:
    """The abusive client (its own process): ``concurrency`` requests in flight for ``seconds``."""
    import httpx

    async def main() -> dict[str, int]:
        statuses: dict[str, int] = {}
        deadline = time.monotonic() + seconds
        counter = 0
        base = f"{url}/api/tables/{table}"
        mix = [
            f"{base}/replay",
            *(f"{base}/replay?seat={s}" for s in (0, 1)),
            f"{base}/verify",
            f"{base}/log?format=history",
        ]

        async def worker(client: httpx.AsyncClient) -> None:
            nonlocal counter
            while time.monotonic() < deadline:
                counter += 1
                if scenario == "history":
                    response = await client.get(f"{base}/log", params={"format": "history"})
                elif scenario in ("uploads", "limited"):
                    body = log_text + "\n" * counter  # another body each time: a cache miss each time
                    response = await client.post(f"{url}/api/web/replay", content=body)
                else:
                    response = await client.get(mix[counter % len(mix)])
                key = str(response.status_code)
                statuses[key] = statuses.get(key, 0) + 1

        async with httpx.AsyncClient(timeout=120) as client:
            await asyncio.gather(*(worker(client) for _ in range(concurrency)))
        return statuses

    out.put(asyncio.run(main()))


async def pings(ws_url: str, seconds: float, before: Callable[[], None]) -> list[float]:
    """Round trips of pings sent on a schedule, one every :data:`PING_EVERY` in all, whether or not the
    previous ones were answered (a ping that waits for the last would hide how long the loop stalled).
    They go over :data:`PING_SOCKETS` connections in turn: the server closes a connection that sends more
    than 50 frames a second, and pings held up by a stall arrive together. The connections are open before
    ``before()`` starts the hammering (a stalled server does not even finish a WebSocket handshake)."""
    from websockets.asyncio.client import connect

    every = PING_EVERY * PING_SOCKETS
    count = int(seconds / every)
    sockets = [await connect(ws_url, max_size=None) for _ in range(PING_SOCKETS)]
    for ws in sockets:
        await ws.recv()  # the first state frame
    before()
    await asyncio.sleep(0.5)  # the hammering is under way before the pings start
    start = time.perf_counter()

    async def one(ws: Any, offset: float) -> list[float]:
        sent: list[float] = []
        times: list[float] = []

        async def send() -> None:
            for number in range(count):
                await asyncio.sleep(max(0.0, start + offset + number * every - time.perf_counter()))
                sent.append(time.perf_counter())
                await ws.send(json.dumps({"type": "ping"}))

        sender = asyncio.create_task(send())
        while len(times) < count:
            if json.loads(await ws.recv())["type"] == "pong":
                times.append((time.perf_counter() - sent[len(times)]) * 1000)
        await sender
        await ws.close()
        return times

    results = await asyncio.gather(*(one(ws, i * PING_EVERY) for i, ws in enumerate(sockets)))
    return [t for times in results for t in times]


def scenario(src: Path, db: str, table: str, name: str, log_text: str, seconds: float, concurrency: int) -> str:
    import httpx

    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(src)}
    base, _, variant = name.partition("@")  # "uploads@threads": the uploads on a server computing in threads
    mode = "limited" if base == "limited" else "threads" if variant == "threads" else "open"
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), db, mode], env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        waiting = httpx.post(f"{url}/api/tables", json={"game": "scorecard", "clock": None}).json()["id"]
        httpx.get(f"{url}/api/tables/{table}/log", timeout=60)  # the table loaded from the archive once
        out: Any = multiprocessing.get_context("spawn").Queue()
        client = None
        if base != "idle":
            args = (url, table, base, log_text, seconds + 1.5, concurrency, out)
            client = multiprocessing.get_context("spawn").Process(target=hammer, args=args)
        times = asyncio.run(
            pings(f"ws://127.0.0.1:{port}/api/tables/{waiting}/ws", seconds, client.start if client else lambda: None)
        )
        statuses = out.get(timeout=300) if client is not None else {}
        if client is not None:
            client.join()
        ordered = sorted(times)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        answered = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())) or "-"
        return (
            f"{name:<15} pings {len(times):5d}  p50 {statistics.median(times):8.1f} ms  p99 {p99:8.1f} ms"
            f"  max {ordered[-1]:8.1f} ms   heavy answers ({seconds:g} s): {answered}"
        )
    finally:
        server.terminate()
        server.wait(10)


def run(quick: bool = False, before_src: str | None = None, seconds: float | None = None, concurrency: int = 4) -> None:
    seconds = seconds or (3.0 if quick else 10.0)
    log = long_game()
    text = log.to_jsonl()
    print(f"a finished Hold'em game of {len(log.events)} events, log {len(text) / 1024:.0f} KiB; hammering with")
    print(f"{concurrency} requests in flight, pinging every {PING_EVERY * 1000:g} ms for {seconds:g} s per scenario")
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'bench.db'}"
        table = asyncio.run(store(db, log))
        runs: list[tuple[str, Path, list[str]]] = []
        if before_src is not None:
            runs.append(("before", Path(before_src), ["idle", "history"]))
        runs.append(("after", SRC, ["idle", "history", "replays", "uploads", "uploads@threads", "limited"]))
        for label, src, names in runs:
            print(f"-- {label} ({src})")
            for name in names:
                print(scenario(src, db, table, name, text, seconds, concurrency), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before-src", help="the src folder of the tree to compare with")
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args()
    sys.path.insert(0, str(SRC))
    run(options.quick, options.before_src, options.seconds, options.concurrency)
