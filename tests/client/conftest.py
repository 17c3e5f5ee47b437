"""A real ``dicepoker serve`` process for the client tests (one per test module)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.client.server_process import ServerProcess

SHORT_CONFIGS: dict[str, dict[str, object]] = {
    "holdem": {"stack": 100},
    "zepherin": {"runs_to_win": 1},
    "classic-board": {"runs_to_win": 1},
}
"""Configs that keep games between random players short (Hold'em's default stacks last thousands of bets,
a board game to two runs about 500 decisions)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("serve") / "server.db", autofill=0.1, bot_delay=0.0)
    process.start()
    try:
        yield process
    finally:
        process.stop()
