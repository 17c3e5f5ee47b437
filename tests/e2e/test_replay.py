"""Replays: a finished table and an uploaded log stepped through in the page, with the fairness record and verify."""

from __future__ import annotations

import httpx

from .conftest import Server, wait_until


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
