"""``dicepoker play scorecard --server URL --table ID``: a whole game at a real ``dicepoker serve`` against its
bot, typed at a real terminal (pexpect); the log the server publishes then verifies and replays."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pexpect
import pytest

from dicepoker.cli.replay import read_log
from dicepoker.games.registry import replay
from dicepoker.server.fairness import verify_log
from tests.client.server_process import SRC, ServerProcess

CLI = "from dicepoker.cli import main; main()"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "server.db", bot_delay=0.0)
    process.start()
    try:
        yield process
    finally:
        process.stop()


def spawn(*args: str) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    return pexpect.spawn(
        sys.executable, ["-c", CLI, *args], encoding="utf-8", timeout=60, dimensions=(40, 160), env=env
    )


def test_a_whole_scorecard_game_against_the_servers_bot(server: ServerProcess) -> None:
    body = {"game": "scorecard", "seats": ["open", "bot:greedy"], "clock": 120}
    table_id = httpx.post(f"{server.url}/api/tables", json=body).json()["id"]
    child = spawn("play", "scorecard", "--server", server.url, "--table", table_id, "--name", "ann")
    child.expect(f"Table {table_id} on {server.url}: you are seat 1")
    child.expect("You vs Greedy bot")
    for box in range(1, 14):
        child.expect(r"— roll> $")
        child.sendline("roll")
        child.expect(r"roll 1 of 3> $")
        child.sendline(f"score {box}")
        if child.expect([r"\[y/N\] $", r"You: scores"]) == 0:
            child.sendline("y")
            child.expect("You: scores")
        if box < 13:
            child.expect(r"Greedy bot: scores")  # the server's bot played its round meanwhile
    child.expect("Game over")
    child.expect(f"/api/tables/{table_id}/log")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before

    summary = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert summary["status"] == "finished" and summary["seats"][0]["name"] == "ann"
    log = read_log(httpx.get(f"{server.url}/api/tables/{table_id}/log").text)
    assert [e.action for e in log.events if e.seat == 0].count("roll") == 13
    assert verify_log(log).ok
    assert replay(log)[-1].result().to_json() == summary["result"]


def test_server_options_need_a_server_and_a_game_that_plays_online(server: ServerProcess) -> None:
    child = spawn("play", "scorecard", "--table", "abc")
    child.expect("give --server URL too")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    child = spawn("play", "scorecard", "--server", server.url, "--table", "nope")
    child.expect("no table")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
