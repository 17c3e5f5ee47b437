"""The example bot of docs/protocol.md plays every game to its end against a real server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from tests.client.conftest import SHORT_CONFIGS
from tests.client.server_process import ServerProcess

BOT = Path(__file__).resolve().parents[2] / "examples" / "protocol_bot.py"
GAMES = ["scorecard", "holdem", "peekpoker", "zepherin", "classic-board"]


def test_example_bot_is_short_and_uses_no_dicepoker() -> None:
    text = BOT.read_text()
    assert len(text.splitlines()) <= 45
    assert "dicepoker." not in text.replace("dicepoker game", "")


def test_example_bot_plays_every_game_to_the_end(server: ServerProcess) -> None:
    tables: dict[str, str] = {}
    commands = {"scorecard": [server.url, "scorecard"]}  # play now: the server's bots fill the other seat
    for game in GAMES[1:]:
        created = httpx.post(
            f"{server.url}/api/tables",
            json={"game": game, "config": SHORT_CONFIGS.get(game, {}), "seats": ["open", "bot:random"]},
        )
        assert created.status_code == 201, created.text
        tables[game] = created.json()["id"]
        commands[game] = [server.url, game, tables[game], "0"]
    bots = {
        game: subprocess.Popen([sys.executable, str(BOT), *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for game, args in commands.items()
    }
    for game, bot in bots.items():
        output, _ = bot.communicate(timeout=120)
        assert bot.returncode == 0 and b"game over:" in output, f"{game}: {output.decode()}"
    for game, table in tables.items():
        summary = httpx.get(f"{server.url}/api/tables/{table}").json()
        assert summary["status"] == "finished", game
        assert httpx.get(f"{server.url}/api/tables/{table}/log").status_code == 200
    played = httpx.get(f"{server.url}/api/tables", params={"game": "scorecard", "status": "finished"}).json()
    assert any(seat["name"] == "protocol bot" for t in played["tables"] for seat in t["seats"])
