"""CM-7 in the browser: the Leave button (with its confirmation), what the other player sees at once, and the
lobby, which never calls a table nobody is connected to "playing"."""

from __future__ import annotations

import httpx

from .conftest import OUT, Server, Watched, wait_until
from .test_accessibility import _axe, _report


def _history(page: Watched) -> str:
    return page.page.inner_text("[data-testid=history]")


def test_CM_7_leave_asks_first_then_the_other_player_sees_ann_left_and_the_result(server: Server, open_page) -> None:
    table = server.create("scorecard", ["open", "open"], clock=120)
    ann_token, bob_token = server.join(table, 0, "Ann"), server.join(table, 1, "Bob")
    ann, bob = open_page(), open_page()
    ann.sit(table, 0, ann_token, "Ann")
    bob.sit(table, 1, bob_token, "Bob")
    for page in (ann, bob):
        wait_until(lambda page=page: page.attr("data-status") == "playing", what="the game to start")
    p = ann.page
    # Cancel first: the dialog closes and nothing is sent.
    p.click("[data-testid=leave]")
    assert p.is_visible("[data-testid=leave-dialog]")
    assert "resigns the game" in p.inner_text("[data-testid=leave-dialog]")
    p.click("[data-testid=leave-cancel]")
    assert not p.is_visible("[data-testid=leave-dialog]")
    assert server.summary(table)["status"] == "playing"
    # Then leave for good.
    p.click("[data-testid=leave]")
    p.click("[data-testid=leave-confirm]")
    bob.page.wait_for_selector("[data-testid=left-notice]")
    assert bob.page.inner_text("[data-testid=left-notice]").strip() == "Ann left"
    wait_until(lambda: "Ann left" in _history(bob), what="Bob's history to say Ann left")
    bob.page.wait_for_selector("[data-testid=result]")
    assert bob.page.inner_text("#result-title") == "You win!"
    p.wait_for_selector("[data-testid=you-left]")
    p.wait_for_selector("[data-testid=result]")
    assert ann.page.inner_text("#result-title") == "Bob wins"
    assert p.locator("[data-testid=leave]").count() == 0  # nothing left to leave
    summary = server.summary(table)
    assert summary["status"] == "finished" and summary["result"]["winners"] == [1]
    OUT.mkdir(exist_ok=True)
    bob.page.screenshot(path=str(OUT / "leaving-opponent-1280.png"), full_page=True)
    p.screenshot(path=str(OUT / "leaving-leaver-1280.png"), full_page=True)
    ann.check()
    bob.check()


def test_CM_7_the_lobby_calls_a_game_nobody_is_connected_to_abandoned(server: Server, open_page) -> None:
    table = server.create("scorecard", ["open", "open"], clock=120)
    zed = server.join(table, 0, "Zed")
    server.join(table, 1, "Yan")  # both seated, neither connected: the game runs for nobody
    assert server.summary(table)["abandoned"] is True
    lobby = open_page()
    lobby.page.goto(f"{server.url}/")
    badge = lobby.page.locator(".table-row", has_text="Zed").locator("[data-testid=table-status]")
    badge.wait_for()
    assert badge.inner_text().strip().lower() == "abandoned"
    # Once Zed's page connects somebody plays it again: the lobby (it refreshes every 3 s) says so.
    player = open_page()
    player.sit(table, 0, zed, "Zed")
    wait_until(lambda: badge.inner_text().strip().lower() == "playing", what="the lobby to list it as playing")
    lobby.check()
    player.check()


def test_CM_7_a_player_who_is_away_for_two_timeouts_has_left_and_the_page_says_so(server: Server, open_page) -> None:
    """Bob takes his seat at a Hold'em table and never opens it: after two of his decisions time out (1 s
    clock) he has left; Ann, connected the whole time (her own timeouts do not make her leave), sees "Bob
    left" and wins. (Hold'em: the scorecard game would end as a tie first if both let the first turn go, SC-15.)"""
    table = server.create("holdem", ["open", "open"], clock=1)
    ann_token = server.join(table, 0, "Ann")
    server.join(table, 1, "Bob")
    ann = open_page()
    ann.sit(table, 0, ann_token, "Ann")
    ann.page.wait_for_selector("[data-testid=left-notice]")
    assert ann.page.inner_text("[data-testid=left-notice]").strip() == "Bob left"
    ann.page.wait_for_selector("[data-testid=result]")
    assert ann.page.inner_text("#result-title") == "You win!"
    wait_until(lambda: "Bob left" in _history(ann), what="the history to say Bob left")
    summary = server.summary(table)
    assert summary["status"] == "finished" and summary["result"]["winners"] == [0]
    ann.check()


def test_CM_7_on_a_phone_leaving_a_table_of_bots_shows_their_result_at_once(server: Server, open_page) -> None:
    """390×844: the dialog and the page after leaving pass axe-core; the two bots finish the game at once
    (CM-7), so the result and a working log link follow the leave."""
    table = server.create("classic-board", ["open", "bot:greedy", "bot:greedy"], config={"players": 3}, clock=60)
    ann = open_page(390, 844)
    ann.sit(table, 0, server.join(table, 0, "Ann"), "Ann")
    wait_until(lambda: ann.attr("data-status") == "playing", what="the game to start")
    p = ann.page
    p.click("[data-testid=leave]")
    p.wait_for_selector("[data-testid=leave-dialog]")
    violations = _axe(ann)
    assert not violations, _report(violations)
    OUT.mkdir(exist_ok=True)
    p.screenshot(path=str(OUT / "leaving-dialog-390.png"))
    p.click("[data-testid=leave-confirm]")
    p.wait_for_selector("[data-testid=you-left]")
    p.wait_for_selector("[data-testid=result]")
    assert server.summary(table)["status"] == "finished"
    assert httpx.get(f"{server.url}/api/tables/{table}/log", timeout=30).status_code == 200
    assert "You left" in _history(ann)
    violations = _axe(ann)
    assert not violations, _report(violations)
    p.screenshot(path=str(OUT / "leaving-after-390.png"), full_page=True)
    ann.check()
