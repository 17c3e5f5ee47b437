"""Server at scale (issue 11): (b) one process on PostgreSQL + Redis, (c) two processes behind nginx.

Scorecard tables of two people played over real WebSockets by a load generator (this process; the servers are
others): committed actions per second when saturated (each player acts as soon as it may), and latency from
sending an action to its ack (which follows the new state) at 250 and 1,000 human-paced tables (one action a
second each). In (c) every table also has a spectator on each process: the extra p99 of a frame reaching the
spectator on the *other* process than the player's, over the one on the same process, is the cost of the
cross-process fan-out. (a), one process on SQLite, is the single-process server benchmark. The reference in
the same run is (b) itself for (c). Needs PostgreSQL at 127.0.0.1:5432 (db `test`), Redis at 6379, nginx.

Run: ``python benchmarks/bench_scale.py [--quick]`` (or ``python benchmarks/run.py scale``);
``python benchmarks/bench_scale.py --fanout [TABLES [SECONDS]]`` measures only the fan-out (under a minute).
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.server.scale.harness import Nginx, Server, clear_prefix, fresh_database, missing  # noqa: E402

REDIS = "redis://127.0.0.1:6379/0"


class Load:
    def __init__(self, http: httpx.AsyncClient) -> None:
        # One HTTP client for the whole load: making one costs ~20 ms of CPU (its TLS context), which stalled
        # this process's event loop, and so every latency it was measuring, at each finished game.
        self.http = http
        self.latency: list[float] = []
        self.acked = 0
        self.counting = False
        self.elapsed = 0.0


async def seat(load: Load, http: str, ws: str, table: str, token: str, pace: float, end: float) -> None:
    rng = random.Random()
    loop = asyncio.get_running_loop()
    last = 0.0
    while loop.time() < end:
        async with websockets.connect(f"{ws}/api/tables/{table}/ws?token={token}", max_size=2**22) as conn:
            pending: float | None = None  # when the unanswered action was sent
            latest: dict[str, Any] | None = None
            while loop.time() < end:
                try:
                    frame = json.loads(await asyncio.wait_for(conn.recv(), max(0.01, end - loop.time())))
                except TimeoutError:
                    return
                if frame["type"] == "ack":
                    if load.counting and pending is not None:
                        load.acked += 1
                        load.latency.append(loop.time() - pending)
                    pending = None
                elif frame["type"] == "error":
                    pending = None
                elif frame["type"] == "state":
                    if frame["status"] == "finished":
                        # Both players ask for the rematch: its id is fixed by the old table's, so both get the
                        # same table at once, with no polling to weigh on the saturated figure.
                        answer = await load.http.post(f"{http}/api/tables/{table}/rematch")
                        if answer.status_code != 201:
                            return  # never hang the run on one table: the report counts what was acked
                        summary = answer.json()
                        table = summary["id"]
                        break
                    latest = frame
                if latest is not None and latest["legal_actions"] and pending is None:
                    wait = last + pace - loop.time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    action = rng.choice(latest["legal_actions"])
                    pending = last = loop.time()
                    message = {
                        "type": "action",
                        "action": action,
                        "version": latest["version"],
                        "id": secrets.token_hex(4),
                    }
                    await conn.send(json.dumps(message))
                    latest = None


async def _scorecard_table(client: httpx.AsyncClient, http: str) -> tuple[str, list[str]]:
    """A new two-player scorecard table without a clock, both seats joined: its id and the two tokens."""
    spec = {"game": "scorecard", "seats": ["open", "open"], "clock": None}
    table = (await client.post(f"{http}/api/tables", json=spec)).json()["id"]
    tokens = []
    for seat_number in (0, 1):
        answer = await client.post(f"{http}/api/tables/{table}/join", json={"seat": seat_number, "name": "b"})
        tokens.append(answer.json()["token"])
    return table, tokens


async def run_load(players: list[tuple[str, str]], tables: int, pace: float, seconds: float, warmup: float) -> Load:
    """``players``: (HTTP base, WS base) per table, round robin. Returns what was measured after ``warmup``."""
    loop = asyncio.get_running_loop()
    async with httpx.AsyncClient(timeout=30) as client:
        load = Load(client)
        made = []
        for i in range(tables):
            http, ws = players[i % len(players)]
            made.append((http, ws, *await _scorecard_table(client, http)))
        end = loop.time() + warmup + seconds  # from now: creating the tables took a while
        tasks = [asyncio.create_task(seat(load, h, w, t, tok, pace, end)) for h, w, t, toks in made for tok in toks]
        await asyncio.sleep(warmup)
        load.counting = True
        started = loop.time()
        await asyncio.gather(*tasks, return_exceptions=True)
        load.elapsed = loop.time() - started
    return load


def _ms(values: list[float]) -> str:
    return f"p50 {_pct(values, 0.5):.1f} ms, p99 {_pct(values, 0.99):.1f} ms"


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def fanout(
    servers: list[Server], tables: int, seconds: float, warmup: float = 2.0
) -> tuple[list[float], list[float], list[float]]:
    """Human-paced tables played on process 0, watched on process 0 (same) and process 1 (other): the latency
    from sending an action to each spectator's frame, and, per frame both got, how much later the other
    process's spectator got it than the same process's (paired: the load both share cancels out).

    Every client connects first; the players start acting ``warmup`` seconds after the last one got its first
    frame, so the measure is of play, not of a thousand connections (and their presence notices) arriving at
    once."""
    same: list[float] = []
    other: list[float] = []
    sent: dict[tuple[str, int], float] = {}
    arrived: dict[tuple[str, int], dict[int, float]] = {}
    loop = asyncio.get_running_loop()
    http, ws0 = servers[0].url, servers[0].url.replace("http", "ws")
    ws1 = servers[1].url.replace("http", "ws")
    async with httpx.AsyncClient(timeout=30) as client:
        made = []
        for _ in range(tables):
            made.append(await _scorecard_table(client, http))
    clients = 4 * tables
    connected: list[int] = []
    go = asyncio.Event()
    end = loop.time() + 3600.0  # until every client is connected: see below

    def first_frame() -> None:
        connected.append(1)
        if len(connected) == clients:
            loop.call_later(warmup, go.set)

    async def frames(conn: Any) -> AsyncIterator[dict[str, Any]]:
        while loop.time() < end:
            try:
                yield json.loads(await asyncio.wait_for(conn.recv(), max(0.01, end - loop.time())))
            except TimeoutError:
                return

    async def player(table: str, token: str) -> None:
        rng = random.Random()
        async with websockets.connect(f"{ws0}/api/tables/{table}/ws?token={token}", open_timeout=60) as conn:
            first = True
            async for frame in frames(conn):
                if first:
                    first = False
                    first_frame()
                    await go.wait()
                if frame["type"] == "state" and frame["legal_actions"] and frame["status"] == "playing":
                    await asyncio.sleep(rng.uniform(0.5, 1.5))
                    sent[(table, frame["version"])] = loop.time()
                    message = {
                        "type": "action",
                        "action": rng.choice(frame["legal_actions"]),
                        "version": frame["version"],
                        "id": secrets.token_hex(4),
                    }
                    await conn.send(json.dumps(message))

    async def spectator(table: str, ws: str, into: list[float], which: int) -> None:
        async with websockets.connect(f"{ws}/api/tables/{table}/ws", open_timeout=60) as conn:
            previous: int | None = None
            async for frame in frames(conn):
                if previous is None:
                    first_frame()
                if frame["type"] != "state":
                    continue
                if previous is not None and (table, previous) in sent and frame["version"] > previous:
                    into.append(loop.time() - sent[(table, previous)])
                    arrived.setdefault((table, previous), {})[which] = loop.time()
                previous = frame["version"]

    tasks = []
    for table, tokens in made:
        tasks += [asyncio.create_task(player(table, t)) for t in tokens]
        tasks += [
            asyncio.create_task(spectator(table, ws0, same, 0)),
            asyncio.create_task(spectator(table, ws1, other, 1)),
        ]
    await go.wait()
    end = loop.time() + seconds
    failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True) if isinstance(r, BaseException)]
    if failed:
        print(f"  ({len(failed)} fan-out client(s) failed: {failed[0]!r})")
    paired = [t[1] - t[0] for t in arrived.values() if len(t) == 2]
    return same, other, paired


def run(quick: bool = False) -> None:
    why = missing()
    if why:
        print(f"skipped: {why}")
        return
    seconds = 4.0 if quick else 10.0
    sizes = [50] if quick else [250, 1000]
    folder = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    for label, count in (("(b) one process, PostgreSQL + Redis", 1), ("(c) two processes behind nginx", 2)):
        prefix = f"dpbench{secrets.token_hex(3)}"
        with fresh_database() as db:
            servers = [
                Server(db, REDIS, prefix, folder / f"{count}-{i}.log", ["--bot-delay", "0"]) for i in range(count)
            ]
            nginx = Nginx([s.port for s in servers], folder / f"nginx{count}")
            try:
                for server in servers:
                    server.start()
                nginx.start()
                base = (
                    [(nginx.url, nginx.url.replace("http", "ws"))]
                    if count > 1
                    else [(servers[0].url, servers[0].url.replace("http", "ws"))]
                )
                print(f"\n{label}")
                load = asyncio.run(run_load(base, 20 if quick else 50, 0.0, seconds, 2.0))
                rate = load.acked / load.elapsed
                print(
                    f"  saturated ({20 if quick else 50} tables): {rate:8.0f} committed actions/s, {_ms(load.latency)}"
                )
                for tables in sizes:
                    load = asyncio.run(run_load(base, tables, 1.0, seconds, 3.0))
                    rate = load.acked / load.elapsed
                    print(f"  {tables:5d} human-paced tables: {rate:6.0f} actions/s, {_ms(load.latency)}")
                if count > 1:
                    same, other, paired = asyncio.run(fanout(servers, 50 if quick else 250, seconds))
                    extra = _pct(other, 0.99) - _pct(same, 0.99)
                    print(
                        f"  fan-out, player on process 0: frame on the same process {_ms(same)}; "
                        f"on the other {_ms(other)}: extra p99 {extra:.1f} ms "
                        f"(per frame, other minus same: {_ms(paired)})"
                    )
            finally:
                nginx.stop()
                for server in servers:
                    server.stop()
                clear_prefix(REDIS, prefix)


def run_fanout(tables: int, seconds: float) -> None:
    """Only the cross-process fan-out, on two processes (no nginx): a focused measurement that takes under a
    minute, to compare changes to the fan-out path. The reference (a frame on the player's own process) is
    measured in the same run, on the same tables."""
    why = missing()
    if why:
        print(f"skipped: {why}")
        return
    folder = Path(tempfile.mkdtemp(prefix="bench-fanout-"))
    prefix = f"dpbench{secrets.token_hex(3)}"
    with fresh_database() as db:
        servers = [Server(db, REDIS, prefix, folder / f"fanout-{i}.log", ["--bot-delay", "0"]) for i in range(2)]
        try:
            for server in servers:
                server.start()
            same, other, paired = asyncio.run(fanout(servers, tables, seconds))
        finally:
            for server in servers:
                server.stop()
            clear_prefix(REDIS, prefix)
    extra = _pct(other, 0.99) - _pct(same, 0.99)
    print(f"fan-out, {tables} human-paced tables for {seconds:g} s, player on process 0 ({len(same)} frames):")
    print(f"  spectator on the same process:  {_ms(same)}")
    print(f"  spectator on the other process: {_ms(other)}")
    print(f"  extra p50 {_pct(other, 0.5) - _pct(same, 0.5):.1f} ms, extra p99 {extra:.1f} ms")
    print(f"  per frame, other minus same: {_ms(paired)}")


def main(argv: list[str]) -> None:
    """``--quick``: a smoke test; ``--fanout [TABLES [SECONDS]]``: only the fan-out (default 250 tables, 20 s)."""
    if "--fanout" in argv:
        numbers = [a for a in argv[argv.index("--fanout") + 1 :] if not a.startswith("-")]
        run_fanout(int(numbers[0]) if numbers else 250, float(numbers[1]) if len(numbers) > 1 else 20.0)
    else:
        run(quick="--quick" in argv)


if __name__ == "__main__":
    main(sys.argv[1:])
