"""Chaos (issue 11): three server processes behind nginx, a Redis of the test's own; while games of all five
games run, server processes are SIGKILLed at random (seeded) moments and restarted, at least 30 times, and
Redis is restarted once (it keeps nothing). Afterwards: every game finished, every action a client saw
accepted is in its log exactly once, every log passes `replay` and `verify`, and no timeout was applied twice.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.scale.checks import check_table, stored_events
from tests.server.scale.harness import (
    Nginx,
    RedisServer,
    Server,
    explain_failure,
    fresh_database,
    missing,
    query,
    report,
    wait_for,
)
from tests.server.scale.players import Record, play

pytestmark = [pytest.mark.skipif(missing() is not None, reason=str(missing())), pytest.mark.slow]

KILLS = 30
SEED = 20261123
LANES: list[tuple[str, dict[str, Any], list[str], dict[str, Any]]] = [
    ("scorecard", {}, ["bot:greedy", "bot:random"], {}),
    ("holdem", {"stack": 30}, ["open", "open"], {"sleepy": 0.05}),
    ("peekpoker", {"stack": 12}, ["open", "bot:random"], {"sleepy": 0.05}),
    ("zepherin", {"chips": 10, "runs_to_win": 1}, ["bot:expert", "open"], {"resign_after": 15}),
    ("classic-board", {"chips": 10, "runs_to_win": 1}, ["open", "bot:greedy"], {"resign_after": 15}),
    ("scorecard", {}, ["open", "open"], {"sleepy": 0.03}),
]


def post(base: str, path: str, body: dict[str, Any]) -> httpx.Response | None:
    """POST through nginx, again while no process answers; ``None`` if a dying process may have done it."""
    for _ in range(100):
        try:
            response = httpx.post(base + path, json=body, timeout=10)
        except httpx.TransportError:
            return None  # sent, no answer: it may have been committed
        if response.status_code not in (502, 503, 504):
            return response
        time.sleep(0.2)  # every process down at this moment: nginx could not send it anywhere
    raise AssertionError(f"POST {path}: no process answered")


def test_kill_processes_and_redis_while_games_run(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    redis = RedisServer()
    redis.start()
    prefix = f"dpchaos{secrets.token_hex(3)}"
    try:
        with fresh_database() as db:
            servers = [
                Server(db, redis.url, prefix, tmp_path / f"server{i}.log", ["--bot-delay", "0.1"]) for i in range(3)
            ]
            nginx = Nginx([s.port for s in servers], tmp_path / "nginx")
            try:
                servers[0].start()
                for server in servers[1:]:
                    server.start()
                nginx.start()
                run_chaos(db, servers, nginx, redis, rng, tmp_path)
            finally:
                nginx.stop()
                for server in servers:
                    server.stop()
    finally:
        redis.stop()


def run_chaos(
    db: str, servers: list[Server], nginx: Nginx, redis: RedisServer, rng: random.Random, folder: Path
) -> None:
    stop = threading.Event()
    kills: list[tuple[float, int]] = []
    chaos_rng = random.Random(rng.random())
    started = time.monotonic()

    def chaos() -> None:
        time.sleep(3)
        while len(kills) < KILLS:
            time.sleep(chaos_rng.uniform(0.4, 1.6))
            victim = chaos_rng.randrange(len(servers))
            servers[victim].kill()
            servers[victim].start(wait=False)  # restarted at once; it is ready some seconds later
            kills.append((time.monotonic() - started, victim))
            if len(kills) == KILLS // 2:
                redis.restart(down=1.5)
        stop.set()

    tables: list[dict[str, Any]] = []
    lost: list[str] = []
    playing: dict[int, dict[str, Any]] = {}  # each lane's game in progress (the diagnostics' "where")

    async def lane(index: int, game: str, config: dict[str, Any], seats: list[str], style: dict[str, Any]) -> None:
        lane_rng = random.Random(rng.random())
        while not stop.is_set():
            body = {"game": game, "config": config, "seats": seats, "clock": 2}
            created = await asyncio.to_thread(post, nginx.url, "/api/tables", body)
            if created is None:
                continue  # the table may exist: bots finish it, or it waits for people forever (no game)
            assert created.status_code == 201, created.text
            table_id = created.json()["id"]
            tokens: dict[int, str] = {}
            for seat, kind in enumerate(seats):
                if kind == "open":
                    joined = await asyncio.to_thread(
                        post, nginx.url, f"/api/tables/{table_id}/join", {"seat": seat, "name": "p"}
                    )
                    if joined is not None and joined.status_code == 200:
                        tokens[seat] = joined.json()["token"]
            if len(tokens) != seats.count("open"):
                lost.append(table_id)  # a join's answer was lost with its process: nobody holds that seat
                if "resign_after" in style:
                    continue  # a board game nobody can end: left out of the checks below (reported)
            clients: list[tuple[int | None, Record]] = []
            playing[index] = {"game": game, "id": table_id, "clients": clients}
            tasks = []
            path = f"/api/tables/{table_id}/ws"
            spectator = Record()
            clients.append((None, spectator))
            direct = servers[lane_rng.randrange(len(servers))].url.replace("http", "ws") + path
            tasks.append(play(direct, None, spectator, rng=lane_rng))
            for seat, token in tokens.items():
                record = Record()
                clients.append((seat, record))
                ws = nginx.url.replace("http", "ws") + path
                tasks.append(play(ws, token, record, rng=random.Random(lane_rng.random()), **style))
            await asyncio.gather(*tasks)
            tables.append({"id": table_id, "clients": clients})

    async def main() -> None:
        await asyncio.wait_for(asyncio.gather(*(lane(i, *spec) for i, spec in enumerate(LANES))), timeout=240)

    def describe() -> str:
        lines = [
            f"{len(kills)} kills (seconds into the run, victim), the last: {kills[-5:]}; "
            f"{redis.restarts} Redis restart(s); {len(tables)} games done; join answers lost: {lost}",
            report(servers, db=db, nginx=nginx, tables=[p["id"] for p in playing.values()]),
        ]
        for index, now in sorted(playing.items()):
            lines.append(f"lane {index}: {now['game']} table {now['id']}")
            lines += [f"  {'spectator' if s is None else f'seat {s}'}: {r.summary()}" for s, r in now["clients"]]
        return "\n".join(lines)

    with explain_failure(describe):
        thread = threading.Thread(target=chaos, daemon=True)
        thread.start()
        asyncio.run(main())
        thread.join(60)
        assert len(kills) >= KILLS and redis.restarts == 1
        for server in servers:
            server.wait_ready()

        # Tables created by a request whose answer was lost are games too if bots took every seat.
        def settled() -> bool:
            return not [r for r in query(db, "SELECT id FROM dp_tables WHERE status = 'playing'") if r[0] not in lost]

        wait_for(settled, 120, "games still running after the chaos")
        for table in tables:
            check_table(db, nginx.url, table["id"], table["clients"], folder)

        # No timeout applied twice: each commit of a timeout is logged by its process with the version it made;
        # no (table, version) is logged twice, and each is a timeout in the table's log.
        logged = []
        for server in servers:
            for line in server.log.read_text().splitlines():
                if line.startswith("{") and '"event": "timeout"' in line:
                    entry = json.loads(line)
                    logged.append((entry["table"], entry["version"], entry["seat"]))
        repeated = [k for k, n in Counter(logged).items() if n > 1]
        assert not repeated, f"timeouts applied twice: {repeated}"
        events = {table_id: stored_events(db, table_id) for table_id in {t for t, _, _ in logged}}
        for table_id, version, seat in logged:
            commit = []  # the events of that commit: its timeouts, then the dice they made due
            for event in reversed(events[table_id][:version]):
                if event[1] is not None and event[2] != "timeout":
                    break
                commit.append(event)
            assert (seat, "timeout") in [e[1:3] for e in commit], (table_id, version, commit)
        finished = query(db, "SELECT count(*) FROM dp_tables WHERE status = 'finished'")[0][0]
        takeovers = sum(s.log.read_text().count('"event": "lease taken"') for s in servers)
        print(
            f"\nchaos: {len(kills)} SIGKILLs, {redis.restarts} Redis restart, {len(tables)} games checked "
            f"({finished} finished in all), {len(logged)} timeouts logged, {takeovers} leases taken over, "
            f"{len(lost)} join answers lost"
        )
