"""``dicepoker play GAME --server URL --table ID``: every game at a real ``dicepoker serve`` against its bots,
typed at a real terminal (pexpect). Whole games (scorecard, a tiny-stack Dice Hold'em) end with a log the server
publishes that verifies and replays; the others play a few turns, check the narration and leave.

One server for the module (it takes seconds to start); each test makes its own tables."""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pexpect
import pytest
from typer.testing import CliRunner

from dicepoker.cli import app
from dicepoker.cli import board as _board_commands  # noqa: F401  (registers the commands)
from dicepoker.cli import holdem as _holdem_commands  # noqa: F401
from dicepoker.cli import peekpoker as _peekpoker_commands  # noqa: F401
from dicepoker.cli.online import VIEW_DECODERS
from dicepoker.cli.replay import read_log
from dicepoker.games.registry import replay
from dicepoker.server.tables.fairness import verify_log
from tests.client.server_process import SRC, ServerProcess

CLI = "from dicepoker.cli import main; main()"
runner = CliRunner()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("online") / "server.db", bot_delay=0.0)
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


def new_table(server: ServerProcess, game: str, seats: list[str], **config: Any) -> str:
    body = {"game": game, "config": config, "seats": seats, "clock": 120}
    answer = httpx.post(f"{server.url}/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    table_id: str = answer.json()["id"]
    return table_id


def finished_log_checks(server: ServerProcess, table_id: str) -> None:
    """The server's log of the finished game verifies die by die and replays to the result it announced."""
    summary = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert summary["status"] == "finished" and summary["seats"][0]["name"] == "ann"
    log = read_log(httpx.get(f"{server.url}/api/tables/{table_id}/log").text)
    assert verify_log(log).ok
    assert replay(log)[-1].result().to_json() == summary["result"]


def leave(child: pexpect.spawn, status: int = 0) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status, child.before


def test_a_whole_scorecard_game_against_the_servers_bot(server: ServerProcess) -> None:
    table_id = new_table(server, "scorecard", ["open", "bot:greedy"])
    published = httpx.get(f"{server.url}/api/tables/{table_id}").json()["commitment"]
    child = spawn("play", "scorecard", "--server", server.url, "--table", table_id, "--name", "ann")
    child.expect(f"Table {table_id} on {server.url}: you are seat 1")
    child.expect(f"Dice commitment: {published}")  # issue 19 §9: kept from the join answer
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
            child.expect("\a")  # the bell: the turn came back after the bot's move (issue 21 §3)
            child.expect(r"Greedy bot: scores")  # the server's bot played its round meanwhile
    child.expect("Game over")
    child.expect(f"/api/tables/{table_id}/log")
    child.expect("Dice verified: all")  # checked against the commitment kept from the join
    leave(child)
    finished_log_checks(server, table_id)
    log = read_log(httpx.get(f"{server.url}/api/tables/{table_id}/log").text)
    assert [e.action for e in log.events if e.seat == 0].count("roll") == 13


def test_a_whole_holdem_game_with_tiny_stacks(server: ServerProcess) -> None:
    """Stacks of 20 with antes of 10: a hand or two; each decision takes the boldest legal action."""
    table_id = new_table(server, "holdem", ["open", "bot:expert"], stack=20)
    child = spawn("play", "holdem", "--server", server.url, "--table", table_id, "--name", "ann")
    child.expect(f"Table {table_id} on {server.url}: you are seat 1")
    child.expect("the server rolls")
    child.expect("Players: You, Expert bot. Stacks 20, ante 10.")
    child.expect("Hand 1")
    decisions = 0
    while child.expect([r"Legal: ([^\r\n]*)\r\n", "Game over: "]) == 0:
        legal = child.match.group(1)
        choice = next(c for c in ("allin", "call", "check") if re.search(rf"\b{c}\b", legal))
        child.expect(r"You > $")
        child.sendline(choice)
        child.expect(r"You: (call|check|bet|raise)")  # the server took it and the table told it back
        decisions += 1
    child.expect(r"won — the last player with chips wins \(HE-15\)\. Chips: You (0|40), Expert bot (0|40)\.")
    child.expect(f"/api/tables/{table_id}/log")
    leave(child)
    assert decisions >= 1
    finished_log_checks(server, table_id)


def test_play_now_waits_for_the_bots_the_server_seats_then_names_them(server: ServerProcess) -> None:
    """Without --table: the server's play-now table of the game; its other seats get bots after the wait."""
    child = spawn("play", "holdem", "--server", server.url, "--name", "ann")
    child.expect(r"Table (\w+) on .*: you are seat (\d)")
    table_id = child.match.group(1)
    child.expect("Waiting for the other players")
    child.expect(r"Players: (You, [A-Z]\w+ bot|[A-Z]\w+ bot, You)\. Stacks 1000, ante 10\.")
    child.expect(r"Legal: ")
    child.expect(r"You > $")
    child.sendline("quit")
    child.expect(r"Leave this table\? .*\[y/N\] $")
    child.sendline("y")
    child.expect("You left the game.")
    leave(child)
    seats = httpx.get(f"{server.url}/api/tables/{table_id}").json()["seats"]
    assert sorted(seat["kind"] for seat in seats) == ["bot", "human"]


def test_peekpoker_online_a_decision_then_leave(server: ServerProcess) -> None:
    table_id = new_table(server, "peekpoker", ["open", "bot:random"], stack=30)
    child = spawn("play", "peekpoker", "--server", server.url, "--table", table_id, "--name", "ann")
    child.expect("PeekPoker Hold'em: Crazy Aces")
    child.expect("Players: You, Random bot. Stacks 30; options: none.")
    child.expect("Hand 1")
    child.expect(r"Pot \d+, to call \d+; your dice ")
    child.expect(r"Legal: ([^\r\n]*)\r\n")
    choice = "check" if re.search(r"\bcheck\b", child.match.group(1)) else "call"
    child.expect(r"You > $")
    child.sendline(choice)
    child.expect(f"You: {choice}")
    index = child.expect([r"> $", "Game over"])
    if index == 0:
        child.sendline("quit")
        child.expect(r"Leave this table\? .*\[y/N\] $")
        child.sendline("y")
        child.expect("You left the game.")
    leave(child)
    summary = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert summary["version"] > 3 and summary["seats"][0]["name"] == "ann"


def play_board_turns(child: pexpect.spawn, turns: int) -> None:
    """Roll, then play what ``hint`` (the expert bot) advises until the turn ends."""
    for _ in range(turns):
        child.expect(r"roll 0 of 3> $")
        child.sendline("")  # Enter rolls
        while True:
            child.expect(r"roll \d of 3> $")
            child.sendline("hint")
            child.expect(r"The expert bot would play: \S*?(reroll [\d ]+|claim \d+ \d+|remove \d+ \d+|forfeit)")
            move = child.match.group(1).strip()
            child.expect(r"> $")
            child.sendline(move)
            if not move.startswith("reroll"):
                break
        child.expect(r"You \(Blue\) rolled [1-6 ]+.* and (claims|removes|forfeits)")


@pytest.mark.parametrize(
    ("game", "seats", "others"),
    [
        ("zepherin", ["open", "bot:random"], ["Random bot \\(Orange\\)"]),
        ("classic-board", ["open", "bot:random", "bot:greedy"], ["Random bot \\(Orange\\)", "Greedy bot \\(Green\\)"]),
    ],
)
def test_board_games_online_a_few_turns_then_leave(
    server: ServerProcess, game: str, seats: list[str], others: list[str]
) -> None:
    """BD-2: the terminal names the teams by the colours the game declares (seat 0 Blue, as in the browser); the
    terminal counts seats from 1 as the server's messages do."""
    table_id = new_table(server, game, seats, players=len(seats))
    child = spawn("play", game, "--server", server.url, "--table", table_id, "--name", "ann")
    child.expect(f"Table {table_id} on {server.url}: you are seat 1")
    child.expect("the server rolls")
    child.expect("Players: You \\(Blue\\), " + ", ".join(others) + "\\.")
    child.expect(r"\) starts?\.")  # whoever won the roll-off (CM-3)
    play_board_turns(child, 2)
    child.expect(r"roll 0 of 3> $")
    child.sendline("quit")
    child.expect(r"Leave this table\? .*\[y/N\] $")
    child.sendline("y")
    child.expect("You left the game.")
    leave(child)
    # CM-7: quitting left the table (resigned); a two-sided game is over, and the bots of three-seat
    # classic board play theirs to the end at once: either way the log is published.
    summary = wait_finished(server, table_id)
    assert summary["version"] > 10 and 0 not in summary["result"]["winners"]
    finished_log_checks(server, table_id)
    log = read_log(httpx.get(f"{server.url}/api/tables/{table_id}/log").text)
    assert [(e.seat, e.action) for e in log.events].count((0, "resign")) == 1


def wait_finished(server: ServerProcess, table_id: str, within: float = 60.0) -> dict[str, Any]:
    """The table's summary once it is finished (a server process plays on in real time: poll it)."""
    until = time.monotonic() + within
    while True:
        summary: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table_id}").json()
        if summary["status"] == "finished" or time.monotonic() > until:
            return summary
        time.sleep(0.05)


def test_CM_7_quit_asks_first_then_leaves_the_table_through_the_server(server: ServerProcess) -> None:
    """CM-7 at the terminal: ``quit`` asks; "n" plays on; "y" leaves (POST .../leave, a resignation), the
    game against the bot is over at once, the result is shown, and the log link works right away."""
    table_id = new_table(server, "scorecard", ["open", "bot:greedy"])
    child = spawn("play", "scorecard", "--server", server.url, "--table", table_id, "--name", "ann")
    child.expect(r"— roll> $")
    child.sendline("quit")
    child.expect(r"Leave this table\? Leaving resigns the game \(CM-7\)\. \[y/N\] $")
    child.sendline("n")
    child.expect(r"— roll> $")  # still playing: nothing was sent
    assert httpx.get(f"{server.url}/api/tables/{table_id}").json()["status"] == "playing"
    child.sendline("quit")
    child.expect(r"\[y/N\] $")
    child.sendline("y")
    child.expect("You left the game.")
    child.expect("Game over")
    child.expect("Greedy bot won")
    child.expect(f"/api/tables/{table_id}/log")
    leave(child)
    summary = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert summary["status"] == "finished" and summary["result"]["winners"] == [1]
    finished_log_checks(server, table_id)
    log = read_log(httpx.get(f"{server.url}/api/tables/{table_id}/log").text)
    assert [(e.seat, e.action) for e in log.events] == [(0, "resign")]


def test_server_options_need_a_server_and_a_known_table(server: ServerProcess) -> None:
    child = spawn("play", "scorecard", "--table", "abc")
    child.expect("give --server URL too")
    leave(child, 2)
    child = spawn("play", "scorecard", "--server", server.url, "--table", "nope")
    child.expect("no table")
    leave(child, 2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["holdem", "--table", "abc"], "give --server URL too"),
        (["zepherin", "--name", "ann"], "give --server URL too"),
        (["holdem", "--server", "http://127.0.0.1:9", "--seed", "3"], "--seed is for local play"),
        (["peekpoker", "--server", "http://127.0.0.1:9", "--stack", "9", "--clock", "5"], "--clock, --stack are"),
        (["classic-board", "--server", "http://127.0.0.1:9", "--players", "3"], "--players is for local play"),
    ],
)
def test_local_options_are_refused_with_server_and_online_ones_without(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_every_game_has_a_view_decoder() -> None:
    from dicepoker.games.registry import create, names

    assert set(VIEW_DECODERS) == set(names())
    for name in names():
        view = create(name).initial_state().view(0)
        assert VIEW_DECODERS[name](view.to_json()) == view
