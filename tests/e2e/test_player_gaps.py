"""Resigning through the dialog, joining the rematch from the state frame, the replay's hands, the lobby's summaries."""

from __future__ import annotations

import httpx

from .conftest import PATIENCE, Server, wait_until


def test_leave_asks_first_then_both_pages_offer_the_rematch(server: Server, open_page) -> None:
    table = server.create("scorecard", ["open", "open"], clock=None)
    pages = [open_page(), open_page()]
    for seat, name in enumerate(("Ann", "Bob")):
        pages[seat].sit(table, seat, server.join(table, seat, name), name)
    ann, bob = pages
    wait_until(lambda: ann.attr("data-status") == "playing", what="the game to start")
    p = ann.page
    # Keyboard: focus the button, Enter opens the dialog, Escape cancels it and nothing is sent.
    p.focus("[data-testid=leave]")
    p.keyboard.press("Enter")
    p.wait_for_selector("[data-testid=leave-dialog][open]")
    p.keyboard.press("Escape")
    p.wait_for_selector("[data-testid=leave-dialog]:not([open])", state="attached")
    assert ann.attr("data-status") == "playing"
    p.click("[data-testid=leave]")
    p.click("[data-testid=leave-confirm]")
    for page in pages:
        wait_until(lambda page=page: page.attr("data-status") == "finished", what="the leaving (a resignation, CM-7)")
    assert server.summary(table)["result"]["winners"] == [1]
    # Bob asks for the rematch: Ann's page hears of it in a state frame and offers to join it.
    bob.page.click("[data-testid=rematch]")
    wait_until(lambda: server.summary(table)["rematch"] is not None, what="the rematch")
    rematch = server.summary(table)["rematch"]
    bob.page.wait_for_function("id => location.hash === `#/table/${id}`", arg=rematch)  # Bob's page went there
    ann.page.wait_for_selector("text=Join the rematch")
    assert any(f.get("rematch") for f in ann.frames if f.get("type") == "state")
    ann.page.click("[data-testid=to-rematch]")
    for page, seat in ((ann, "0"), (bob, "1")):
        wait_until(lambda page=page, seat=seat: page.attr("data-seat") == seat, what="the same seat at the rematch")
    assert server.summary(rematch)["status"] == "playing"
    for page in pages:
        page.check()


def test_a_holdem_replay_lists_its_moves_hand_by_hand(server: Server, open_page) -> None:
    table = server.create("holdem", ["bot:random", "bot:random"], config={"stack": 60}, clock=None)
    wait_until(lambda: server.summary(table)["status"] == "finished", what="the bots' game to finish")
    page = open_page()
    page.page.goto(f"{server.url}/#/replay/{table}")
    page.page.wait_for_selector("[data-testid=move-groups]")
    groups = page.page.locator("[data-testid=hand-group]")
    assert groups.count() >= 2
    assert page.page.locator("[data-testid=hand-group][open]").count() == 1  # only the current hand is open
    page.page.click("[data-testid=last]")
    wait_until(lambda: groups.nth(groups.count() - 1).get_attribute("open") is not None, what="the last hand open")
    page.check()


def test_the_lobby_shows_the_servers_summaries(server: Server, open_page) -> None:
    games = httpx.get(f"{server.url}/api/games", timeout=PATIENCE).json()["games"]
    page = open_page()
    page.page.goto(f"{server.url}/")
    page.page.wait_for_selector(".game-card .summary")
    shown = page.page.locator(".game-card .summary").all_inner_texts()
    assert shown == [g["summary"] for g in games]
    page.check()
