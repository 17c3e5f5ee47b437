"""A finished server table's published log: what ``dicepoker verify`` and ``dicepoker replay`` read as it is.

Every game is played to its end by server bots on a real uvicorn server; the log (and, for the betting
games, the hand history) is downloaded over HTTP and checked by the fairness verifier and by both commands.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

import dicepoker.cli.replay
import dicepoker.cli.verify  # noqa: F401  (both register their commands)
from dicepoker.cli.app import app
from dicepoker.cli.replay import read_log
from dicepoker.core.log import EventLog
from dicepoker.server.tables.fairness import commitment, verify_log
from tests.server.live import Live, live_server

runner = CliRunner()
GAMES = [
    ("scorecard", {}, "greedy"),
    ("zepherin", {}, "greedy"),
    ("classic-board", {}, "greedy"),
    ("holdem", {"stack": 20}, "random"),
    ("peekpoker", {"stack": 6}, "random"),
]


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    with live_server() as server:
        yield server


def _finished_bot_game(live: Live, game: str, config: dict[str, Any], bot: str) -> tuple[str, str]:
    """(table id, commitment) of a game two server bots played to its end."""
    body = {"game": game, "config": config, "seats": [f"bot:{bot}", f"bot:{bot}"], "clock": 60}
    created = httpx.post(f"{live.url}/api/tables", json=body).json()
    table_id = str(created["id"])
    for _ in range(200):
        if httpx.get(f"{live.url}/api/tables/{table_id}").json()["status"] == "finished":
            return table_id, str(created["commitment"])
        live.advance(0)  # bots act at once (bot delay 0): this only waits for them
    raise AssertionError(f"{game}: the bots did not finish")


def _check_file(tmp_path: Path, name: str, text: str, published: str) -> EventLog:
    log = read_log(text)
    assert log.fairness is not None and log.fairness["commitment"] == published
    assert log.fairness["server_seed"] is not None
    assert commitment(bytes.fromhex(str(log.fairness["server_seed"]))) == published
    report = verify_log(log)
    assert report.ok and report.commitment_ok and report.error is None
    chance = [e for e in log.events if e.seat is None]
    assert len(report.checks) == len(chance) > 0 and all(c.ok for c in report.checks)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    verified = runner.invoke(app, ["verify", str(path), "--json"])
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.stdout)["ok"] is True
    replayed = runner.invoke(app, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout)["result"] is not None
    return log


@pytest.mark.parametrize(("game", "config", "bot"), GAMES, ids=[g for g, _, _ in GAMES])
def test_a_finished_tables_log_verifies_and_replays(
    live: Live, tmp_path: Path, game: str, config: dict[str, Any], bot: str
) -> None:
    table_id, published = _finished_bot_game(live, game, config, bot)
    response = httpx.get(f"{live.url}/api/tables/{table_id}/log")
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/x-ndjson")
    log = _check_file(tmp_path, "game.jsonl", response.text, published)
    assert log.game == game and log.seed is None
    assert log.to_jsonl() == response.text  # written by EventLog itself, fairness record included
    history = httpx.get(f"{live.url}/api/tables/{table_id}/log", params={"format": "history"})
    if game not in ("holdem", "peekpoker"):
        assert history.status_code == 404
        return
    assert history.status_code == 200
    from_history = _check_file(tmp_path, "game.phh", history.text, published)
    assert from_history.events == log.events and from_history.fairness == log.fairness
