"""Three `dicepoker serve` processes on one PostgreSQL database and one Redis, behind nginx (issue 11):
tables of all five games; people play through nginx, spectators watch on each process directly."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from dicepoker.core.log import EventLog
from dicepoker.games.registry import replay
from tests.server.scale.checks import check_table, stored_events
from tests.server.scale.harness import (
    REDIS_HOST,
    REDIS_PORT,
    Nginx,
    Server,
    clear_prefix,
    explain_failure,
    fresh_database,
    missing,
    report,
    wait_for,
)
from tests.server.scale.players import Record, play, watch_all

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))

GAMES: list[tuple[str, dict[str, Any], list[str], dict[str, Any]]] = [
    # game, config, seats, how the people at the open seats play
    ("scorecard", {}, ["bot:greedy", "bot:random"], {}),
    ("holdem", {"stack": 30}, ["bot:random", "bot:equity"], {}),
    ("peekpoker", {"stack": 12}, ["bot:random", "bot:random"], {}),
    ("zepherin", {"chips": 10, "runs_to_win": 1}, ["bot:expert", "open"], {"resign_after": 12}),
    ("classic-board", {"chips": 10, "runs_to_win": 1}, ["open", "bot:greedy"], {"resign_after": 12}),
    ("scorecard", {}, ["open", "open"], {}),
    ("holdem", {"stack": 30}, ["open", "bot:random"], {}),
    ("peekpoker", {"stack": 12}, ["open", "open"], {}),
]


@dataclass
class Site:
    db: str
    redis: str
    prefix: str
    servers: list[Server]
    nginx: Nginx
    folder: Path


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("site")
    redis_url = f"redis://{REDIS_HOST}:{REDIS_PORT}/0"
    prefix = f"dptest{secrets.token_hex(4)}"
    with fresh_database() as db:
        servers = [Server(db, redis_url, prefix, folder / f"server{i}.log", ["--bot-delay", "0.05"]) for i in range(3)]
        nginx = Nginx([s.port for s in servers], folder / "nginx")
        try:
            servers[0].start()  # the first migrates the new database; the others find it done
            for server in servers[1:]:
                server.start(wait=False)
            for server in servers[1:]:
                server.wait_ready()
            nginx.start()
            yield Site(db, redis_url, prefix, servers, nginx, folder)
        finally:
            nginx.stop()
            for server in servers:
                server.stop()
            clear_prefix(redis_url, prefix)


def create_tables(
    base: str, games: list[tuple[str, dict[str, Any], list[str], dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Create and fill the tables through nginx (so through every process); returns what the clients need."""
    tables = []
    with httpx.Client(base_url=base, timeout=10) as http:
        for game, config, seats, style in games:
            created = http.post("/api/tables", json={"game": game, "config": config, "seats": seats, "clock": 5})
            assert created.status_code == 201, created.text
            table_id = created.json()["id"]
            tokens = {}
            for seat, kind in enumerate(seats):
                if kind == "open":
                    joined = http.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": f"p{seat}"})
                    assert joined.status_code == 200, joined.text
                    tokens[seat] = joined.json()["token"]
            tables.append({"id": table_id, "game": game, "tokens": tokens, "style": style})
    return tables


def test_healthz_through_nginx_reaches_every_process(site: Site) -> None:
    seen = {httpx.get(site.nginx.url + "/healthz", timeout=5).json()["process"] for _ in range(30)}
    assert len(seen) == 3


def test_all_five_games_on_three_processes(site: Site) -> None:
    tables = create_tables(site.nginx.url, GAMES)
    ws_nginx = site.nginx.url.replace("http", "ws")
    clients: dict[str, list[tuple[int | None, Record]]] = {t["id"]: [] for t in tables}
    rng = random.Random(11)

    async def main() -> None:
        tasks = []
        for table in tables:
            path = f"/api/tables/{table['id']}/ws"
            for server in site.servers:  # a spectator on every process
                record = Record()
                clients[table["id"]].append((None, record))
                url = server.url.replace("http", "ws") + path
                watcher = play(url, None, record, rng=random.Random(rng.random()))
                tasks.append(asyncio.create_task(watcher, name=f"{table['id']} spectator on {server.port}"))
            for seat, token in table["tokens"].items():  # the people through nginx
                record = Record()
                clients[table["id"]].append((seat, record))
                player = play(ws_nginx + path, token, record, rng=random.Random(rng.random()), **table["style"])
                tasks.append(asyncio.create_task(player, name=f"{table['id']} {table['game']} seat {seat}"))
        await watch_all(tasks, timeout=150)

    def describe() -> str:
        lines = [report(site.servers, db=site.db, nginx=site.nginx, tables=[t["id"] for t in tables])]
        for table in tables:
            lines.append(f"table {table['id']} ({table['game']}):")
            for seat, record in clients[table["id"]]:
                lines.append(f"  {'spectator' if seat is None else f'seat {seat}'}: {record.summary()}")
        return "\n".join(lines)

    with explain_failure(describe):
        asyncio.run(main())
        for table in tables:
            check_table(site.db, site.nginx.url, table["id"], clients[table["id"]], site.folder)


@pytest.mark.parametrize(("game", "config"), [("holdem", {"stack": 30}), ("peekpoker", {"stack": 6})])
def test_no_frame_on_any_process_shows_another_seats_hidden_dice(site: Site, game: str, config: dict[str, Any]) -> None:
    """The leak test of the single process, with each recipient on a different process."""
    [table] = create_tables(site.nginx.url, [(game, config, ["open", "open"], {})])
    path = f"/api/tables/{table['id']}/ws"
    seen: dict[int | None, Record] = {0: Record(), 1: Record(), None: Record()}
    urls = [s.url.replace("http", "ws") + path for s in site.servers]

    async def everyone() -> None:
        await asyncio.gather(
            play(urls[0], table["tokens"][0], seen[0], rng=random.Random(2)),
            play(urls[1], table["tokens"][1], seen[1], rng=random.Random(3)),
            play(urls[2], None, seen[None], rng=random.Random(4)),
        )

    asyncio.run(asyncio.wait_for(everyone(), 90))
    log = EventLog.from_jsonl(httpx.get(f"{site.nginx.url}/api/tables/{table['id']}/log", timeout=10).text)
    states = replay(log)
    checked = 0
    for recipient, record in seen.items():
        for frame in record.frames:
            if frame["type"] != "state":
                continue
            assert frame["seat"] == recipient
            state = states[frame["version"]]
            assert frame["view"] == state.view(recipient).to_json()
            rest = json.dumps({k: v for k, v in frame.items() if k != "view"})
            for other in (0, 1):
                secret = state.hidden_from_others(other)
                if other == recipient or secret is None:
                    continue
                checked += 1
                for trial in range(3):  # the frame would be the same whatever the other seat holds
                    assert (
                        state.with_other_secret(other, random.Random(trial)).view(recipient).to_json() == frame["view"]
                    )
                dice = secret if isinstance(secret, list) else [secret.get("dice")]
                assert not any(d and json.dumps(d) in rest for d in dice)
    assert checked > 10


def test_bad_frames_through_nginx_get_errors_and_break_nothing(site: Site) -> None:
    """The WebSocket fuzzing of the single process, through nginx, on a table created by another process."""
    [table] = create_tables(site.servers[0].url, [("scorecard", {}, ["open", "open"], {})])
    base = f"{site.nginx.url.replace('http', 'ws')}/api/tables/{table['id']}/ws"
    frames = [
        "not json",
        "[]",
        '{"type": "action", "action": 5}',
        '{"type": "action"}',
        json.dumps({"type": "action", "action": "roll", "version": 10**30}),
        json.dumps({"type": "action", "action": "\x00" * 100, "version": -1, "id": "a"}),
        "x" * 20_000,
    ]

    async def reply(ws: Any) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if message["type"] not in ("state", "presence"):
                return message

    async def main() -> None:
        async with websockets.connect(f"{base}?token={'0' * 32}") as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        async with websockets.connect(f"{base}?token={table['tokens'][1]}") as ws:
            first = json.loads(await ws.recv())
            assert first["seat"] == 1 and first["legal_actions"] == []
            for frame in frames:
                await ws.send(frame)
                answer = await reply(ws)
                assert answer["type"] == "error", (frame[:40], answer)
            await ws.send(json.dumps({"type": "action", "action": "roll", "version": first["version"], "id": "z"}))
            answer = await reply(ws)
            assert answer["id"] == "z" and "turn" in answer["reason"]  # seat 0's turn, not seat 1's
        async with websockets.connect(f"{base}?token={table['tokens'][0]}") as ws:
            await ws.send(json.dumps({"type": "action", "action": "roll", "id": "ok"}))
            assert (await reply(ws))["type"] == "ack"

    asyncio.run(asyncio.wait_for(main(), 30))
    for server in site.servers:
        assert httpx.get(server.url + "/healthz", timeout=5).status_code == 200


def test_a_dead_processes_clock_is_taken_over_within_ten_seconds(site: Site) -> None:
    """The process timing a table dies; another takes the lease over within 10 s, gives the turn back the time
    nobody timed it, and applies the timeout once that is up too (once)."""
    owner = site.servers[0]
    with httpx.Client(base_url=owner.url, timeout=10) as http:
        table_id = http.post("/api/tables", json={"game": "holdem", "seats": ["open", "open"], "clock": 3}).json()["id"]
        for seat in (0, 1):
            assert http.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": "x"}).status_code == 200
    owner.kill()  # the creator holds the lease: nobody renews it now
    killed = time.monotonic()
    try:

        def taken_by() -> list[Server]:
            return [s for s in site.servers[1:] if f'"lease taken", "table": "{table_id}"' in s.log.read_text()]

        def timed_out() -> bool:
            return any(e[2] == "timeout" for e in stored_events(site.db, table_id))

        wait_for(lambda: bool(taken_by()), 20, "nobody took the lease over")
        took = time.monotonic() - killed
        assert not timed_out(), "the turn lost its time to the server's death"
        wait_for(timed_out, 20, "nobody applied the timeout")
        timeout_after = time.monotonic() - killed
        print(
            f"\nlease taken {took:.1f} s, timeout applied {timeout_after:.1f} s after the owner was killed (clock 3 s)"
        )
        assert took <= 10, f"the table was taken over {took:.1f} s after the owner died"
        assert len(taken_by()) == 1
        assert timeout_after - took <= 3 + 2  # the turn's 3 s (at most) once timed again, and a beat
        time.sleep(1)  # a second process applying the same timeout would have done so by now
        events = stored_events(site.db, table_id)
        first = [e for e in events if e[2] == "timeout"]
        assert first and [e[0] for e in events] == list(range(1, len(events) + 1))
    finally:
        owner.start()
