"""Three `dicepoker serve` processes on one PostgreSQL database and one Redis, behind nginx (issue 11):
tables of all five games; people play through nginx, spectators watch on each process directly."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.scale.checks import check_table
from tests.server.scale.harness import (
    REDIS_HOST,
    REDIS_PORT,
    Nginx,
    Server,
    clear_prefix,
    fresh_database,
    missing,
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

    asyncio.run(main())
    for table in tables:
        check_table(site.db, site.nginx.url, table["id"], clients[table["id"]], site.folder)
    # The tables were timed by different processes, and the people's connections went to all of them.
    logs = "".join(s.log.read_text() for s in site.servers)
    assert logs.count('"event": "lease taken"') == 0  # nobody died: each table kept its creator's lease
