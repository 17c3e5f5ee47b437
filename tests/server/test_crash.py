"""Crash test (issue 9): ``dicepoker serve`` is SIGKILLed at random moments while all five games are played
over real WebSockets, and started again on the same SQLite file each time.

Each game is played by a scripted person (the project's client, random legal actions, seeded) against a
server-side bot. Tables are played one after another per game while the killing goes on, so every kill
lands in running games. At the end every game has finished, its log holds every action a client saw
acknowledged (at the place the ack's version says), and ``dicepoker replay`` and ``dicepoker verify``
accept each log.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from dicepoker.client import Acked, ServerClient, ServerError, TableConnection, play_seat, random_chooser
from dicepoker.core.log import EventLog
from dicepoker.games.registry import replay
from dicepoker.server.tables.fairness import verify_log
from tests.client.conftest import SHORT_CONFIGS
from tests.client.server_process import SRC, ServerProcess

GAMES = ["scorecard", "holdem", "peekpoker", "zepherin", "classic-board"]
KILLS = 20
OPPONENT = {"zepherin": "bot:greedy", "classic-board": "bot:greedy"}  # ends board games sooner than random
SEED = 9
pytestmark = pytest.mark.slow
T = TypeVar("T")


@dataclass
class Played:
    game: str
    table: str
    acks: list[Acked]
    kills: int = 0
    reconnects: int = 0


@dataclass
class Run:
    rng: random.Random
    played: list[Played] = field(default_factory=list)
    running: dict[str, Played] = field(default_factory=dict)
    killing: bool = True
    restarts: list[float] = field(default_factory=list)
    kills_done_at: float = 0.0


async def _retry(call: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
    """An HTTP call, again while the server is down (status 0) or restarting."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return await call(*args, **kwargs)
        except ServerError as exc:
            if exc.status not in (0, 502, 503) or time.monotonic() > deadline:
                raise
        await asyncio.sleep(0.1)


async def _play_one(server: ServerClient, url: str, game: str, rng: random.Random, run: Run) -> Played:
    while True:
        created = await _retry(
            server.create_table,
            game,
            config=SHORT_CONFIGS.get(game, {}),
            seats=["open", OPPONENT.get(game, "bot:random")],
            clock=None,
        )
        try:
            seated = await _retry(server.join, created.table, 0, "scripted person")
            break
        except ServerError as exc:
            # A join whose answer died with the server may have taken the seat: start over at a new table.
            if exc.status not in (404, 409):
                raise
    played = Played(game, created.table, [])
    run.running[game] = played
    connection = TableConnection(url, created.table, seated.token, reconnect_timeout=90)
    try:
        await connection.open()
        final = await play_seat(connection, random_chooser(rng), act_timeout=120)
        assert final.finished, f"{game} table {created.table} did not finish"
    finally:
        played.acks = list(connection.acks)
        played.reconnects = connection.reconnects
        run.running.pop(game, None)
        await connection.close()
    return played


async def _slot(server: ServerClient, url: str, game: str, run: Run) -> None:
    rng = random.Random(f"{SEED}-{game}")
    while True:
        run.played.append(await _play_one(server, url, game, rng, run))
        if not run.killing:
            return


async def _killer(process: ServerProcess, run: Run) -> None:
    while process.kills < KILLS:
        await asyncio.sleep(run.rng.uniform(0.05, 1.0))
        for played in run.running.values():
            played.kills += 1
        process.kill()
        started = time.monotonic()
        await asyncio.to_thread(process.start, 60.0)
        run.restarts.append(time.monotonic() - started)
    run.killing = False
    run.kills_done_at = time.monotonic()


def _check_log(path: Path, played: Played, *, with_cli: bool) -> None:
    log = EventLog.from_jsonl(path.read_text())
    assert log.game == played.game
    last = -1
    for ack in played.acks:
        # The ack's version counts the action and the dice that followed it in the same commit.
        index = ack.version - 1
        while index >= 0 and log.events[index].seat is None:
            index -= 1
        assert index > last, f"{played.table}: ack {ack} out of order"
        event = log.events[index]
        assert (event.seat, event.action) == (ack.seat, ack.action), f"{played.table}: ack {ack} not in the log"
        last = index
    assert replay(log)[-1].is_terminal
    assert verify_log(log).ok, f"{played.table}: the dice do not verify"
    if not with_cli:
        return
    for command in ("replay", "verify"):
        done = subprocess.run(
            [sys.executable, "-c", "from dicepoker.cli import main; main()", command, str(path)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(SRC)},
            timeout=120,
        )
        assert done.returncode == 0, f"{command} {played.game}: {done.stdout[-2000:]} {done.stderr[-2000:]}"


def test_sigkilled_server_loses_nothing_acknowledged(tmp_path: Path) -> None:
    process = ServerProcess(tmp_path / "server.db", autofill=0.1, bot_delay=0.0)
    process.start()
    run = Run(random.Random(SEED))
    started = ended = time.monotonic()

    async def main() -> None:
        nonlocal ended
        async with ServerClient(process.url, timeout=10) as server:
            slots = [asyncio.create_task(_slot(server, process.url, game, run)) for game in GAMES]
            await asyncio.wait_for(asyncio.gather(_killer(process, run), *slots), timeout=400)
            ended = time.monotonic()
            for played in run.played:
                summary = await _retry(server.summary, played.table)
                assert summary["status"] == "finished", played
                (tmp_path / f"{played.table}.jsonl").write_text(await _retry(server.log, played.table))

    try:
        asyncio.run(main())
    finally:
        process.stop()
    # Every log is checked in-process; the commands themselves run on the most-killed table of each game.
    most_killed = {game: max((p for p in run.played if p.game == game), key=lambda p: p.kills) for game in GAMES}
    for played in run.played:
        _check_log(tmp_path / f"{played.table}.jsonl", played, with_cli=any(played is p for p in most_killed.values()))
    per_game = {game: sum(p.kills for p in run.played if p.game == game) for game in GAMES}
    acks = sum(len(p.acks) for p in run.played)
    reconnects = sum(p.reconnects for p in run.played)
    print(
        f"\ncrash test: {process.kills} SIGKILLs in {ended - started:.0f} s of play ({sum(run.restarts):.0f} s of it"
        f" restarting the server, at most {max(run.restarts):.1f} s once; {ended - run.kills_done_at:.0f} s to finish"
        f" after the last kill); kills seen per game {per_game}; {len(run.played)} games finished, {acks}"
        f" acknowledged actions all in the logs, {reconnects} reconnects"
    )
    assert process.kills >= KILLS
    assert all(per_game[game] >= 1 for game in GAMES), per_game
