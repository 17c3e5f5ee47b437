"""Replays: a finished table and an uploaded log stepped through in the page, with the fairness record and verify."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from dicepoker.core import EventLog
from dicepoker.server.storage.sql import SqlStorage
from dicepoker.server.tables.fairness import commitment
from tests.server.finished_tables import BODY_LIMIT, long_holdem_log, store_finished

from .conftest import Server, Watched, wait_until

SEED = bytes.fromhex("e2e0" * 16)


def test_a_finished_table_and_an_uploaded_log_replay(server: Server, open_page, tmp_path) -> None:
    table = server.create("scorecard", ["bot:greedy", "bot:greedy"], clock=None)
    wait_until(lambda: server.summary(table)["status"] == "finished", 60, "the bots' game to finish")
    page = open_page()
    page.page.goto(f"{server.url}/#/replay/{table}")
    page.page.wait_for_selector("[data-testid=fairness]")
    steps = page.page.inner_text("[data-testid=step]")
    assert steps.startswith("0 / ")
    page.page.click("[data-testid=next]")
    assert page.page.inner_text("[data-testid=step]").startswith("1 / ")
    page.page.click("[data-testid=last]")
    result = server.summary(table)["result"]
    totals = [int(page.page.inner_text(f"[data-testid=total-{seat}]")) for seat in (0, 1)]
    assert totals == result["scores"]
    assert "Commitment" in page.page.inner_text("[data-testid=fairness]")
    page.page.click("[data-testid=verify]")
    page.page.wait_for_selector("[data-testid=verify-result]")
    assert "match the revealed seeds" in page.page.inner_text("[data-testid=verify-result]")
    # The same log, downloaded and opened from a file.
    log = tmp_path / "game.jsonl"
    log.write_text(httpx.get(f"{server.url}/api/tables/{table}/log", timeout=60).text)
    page.page.goto(f"{server.url}/#/replay")
    page.page.set_input_files("#log-file", str(log))
    page.page.wait_for_selector("[data-testid=fairness]")
    page.page.click("[data-testid=last]")
    assert [int(page.page.inner_text(f"[data-testid=total-{seat}]")) for seat in (0, 1)] == result["scores"]
    page.check()


def _in_a_thread(work: Callable[[], object]) -> None:
    # Playwright's sync API keeps an event loop running in this thread: asyncio.run() must run elsewhere.
    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str, EventLog]]:
    """A server whose database holds a finished 4-player Hold'em table with a log over 64 KiB."""
    db = tmp_path_factory.mktemp("long") / "tables.db"
    log = long_holdem_log(SEED)
    found: list[str] = []

    async def store() -> None:
        storage = SqlStorage(f"sqlite:///{db}")
        await storage.open()
        try:
            found.append(await store_finished(storage, log, SEED))
        finally:
            await storage.close()

    _in_a_thread(lambda: asyncio.run(store()))
    server = Server(db).start()
    try:
        yield server, found[0], log
    finally:
        server.stop()


def _keep(page: Watched, base: str, table: str, kept: str) -> None:
    """The commitment this browser kept for ``table``, as the lobby keeps it from the join answer."""
    page.page.goto(f"{base}/")
    stored = json.dumps({table: {"commitment": kept, "at": 1}})
    page.page.evaluate("s => localStorage.setItem('dicepoker.commitments', s)", stored)


def test_a_long_holdem_game_replays_and_verifies_by_id_and_by_upload(
    long_game: tuple[Server, str, EventLog], open_page: Callable[..., Watched], tmp_path: Path
) -> None:
    """Issue 19 §3 and §9: a 4-player Hold'em log over the 64 KiB body limit replays and verifies in the
    browser, by table id (against the commitment kept when joining) and uploaded; no label claims the log's
    own commitment was "published at the start"."""
    server, table, log = long_game
    assert len(log.to_jsonl()) > BODY_LIMIT
    page = open_page(base=server.url)
    _keep(page, server.url, table, commitment(SEED))
    page.page.goto(f"{server.url}/#/replay/{table}")
    page.page.wait_for_selector("[data-testid=fairness]")
    page.page.click("[data-testid=last]")
    assert page.page.inner_text("[data-testid=step]") == f"{len(log.events)} / {len(log.events)}"
    fairness = page.page.inner_text("[data-testid=fairness]")
    assert "published at the start" not in fairness and "Commitment in this log" in fairness
    assert "the log carries it" in page.page.inner_text("[data-testid=kept-commitment]")
    page.page.click("[data-testid=verify]")
    page.page.wait_for_selector("[data-testid=verify-result]")
    verdict = page.page.inner_text("[data-testid=verify-result]")
    assert "match the revealed seeds" in verdict and "the one kept when the table was joined" in verdict

    path = tmp_path / "long.jsonl"
    path.write_text(httpx.get(f"{server.url}/api/tables/{table}/log", timeout=60).text)
    page.page.goto(f"{server.url}/#/replay")
    page.page.set_input_files("#log-file", str(path))
    page.page.wait_for_selector("[data-testid=fairness]")
    page.page.click("[data-testid=last]")
    assert page.page.inner_text("[data-testid=step]") == f"{len(log.events)} / {len(log.events)}"
    page.page.click("[data-testid=verify]")
    page.page.wait_for_selector("[data-testid=verify-result]")
    assert "match the revealed seeds" in page.page.inner_text("[data-testid=verify-result]")
    page.check()


def test_a_log_whose_commitment_is_not_the_kept_one_is_refused(
    long_game: tuple[Server, str, EventLog], open_page: Callable[..., Watched]
) -> None:
    """Issue 19 §9: the browser kept another commitment for this table (the log was re-rolled since)."""
    server, table, _ = long_game
    page = open_page(base=server.url)
    _keep(page, server.url, table, "ab" * 32)
    page.page.goto(f"{server.url}/#/replay/{table}")
    page.page.wait_for_selector("[data-testid=fairness]")
    assert "this is not the game you joined" in page.page.inner_text("[data-testid=kept-commitment]")
    page.page.click("[data-testid=verify]")
    page.page.wait_for_selector("[data-testid=verify-result]")
    verdict = page.page.inner_text("[data-testid=verify-result]")
    assert "MISMATCH" in verdict and "not the one kept" in verdict
    page.check()


def test_the_browser_keeps_the_commitment_of_its_join(server: Server, open_page: Callable[..., Watched]) -> None:
    """Issue 19 §9: the join answer's commitment is kept in this browser (the first one seen stays)."""
    table = server.create("scorecard", ["open", "open"], clock=None)
    page = open_page()
    page.page.goto(f"{server.url}/")
    script = """async (table) => {
      const api = await import("/js/api.js");
      await api.api.join(table, 0, "Ann");
      api.keepCommitment(table, "ab".repeat(32));  // a later answer cannot replace it
      return api.keptCommitment(table);
    }"""
    assert page.page.evaluate(script, table) == server.summary(table)["commitment"]
    page.check()
