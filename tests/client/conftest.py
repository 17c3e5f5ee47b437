"""A real ``dicepoker serve`` process for the client tests (one per test module)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.client.server_process import ServerProcess

SHORT_CONFIGS: dict[str, dict[str, object]] = {"holdem": {"stack": 100}}
"""Configs that keep games between random players short (Hold'em's default stacks last thousands of bets)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("serve") / "server.db", autofill=0.1, bot_delay=0.0)
    process.start()
    try:
        yield process
    finally:
        process.stop()
