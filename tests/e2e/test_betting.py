"""Dice Hold'em and PeekPoker against bots through the page: several hands, a fold and an all-in each."""

from __future__ import annotations

import re

from .conftest import Server, Watched, wait_until


def _label(page: Watched, selector: str) -> str:
    return page.page.inner_text(selector) if page.page.is_visible(selector) else ""


def _decide(page: Watched, seen: dict[str, bool]) -> str:
    """Fold the first time folding is possible; after that bet as much as allowed (all-in soon)."""
    p = page.page
    if not seen["fold"] and p.is_visible("[data-testid=fold]"):
        p.click("[data-testid=fold]")
        seen["fold"] = True
        return "fold"
    if p.is_visible("[data-testid=stand]"):
        # PeekPoker's ace decision (PK-8): re-roll one ace if offered, else stand.
        p.click("[data-testid=reroll-1]" if p.is_visible("[data-testid=reroll-1]") else "[data-testid=stand]")
        return "aces"
    if not seen["fold"]:
        for selector in ("[data-testid=check]", "[data-testid=call]"):
            if p.is_visible(selector):
                p.click(selector)
                return selector
    if p.is_visible("[data-testid=bet-size]"):
        p.click("text=All-in")  # the no-limit preset: the slider moves to the largest legal size
        text = _label(page, "[data-testid=bet]")
        seen["all-in"] |= "all-in" in text
        p.click("[data-testid=bet]")
        return text
    sized = p.locator("button.bet")
    if sized.count():
        button = sized.nth(sized.count() - 1)
        text = button.inner_text()
        seen["all-in"] |= "all-in" in text
        button.click()
        return text
    for selector in ("[data-testid=call]", "[data-testid=check]"):
        if p.is_visible(selector):
            text = _label(page, selector)
            seen["all-in"] |= "all-in" in text
            p.click(selector)
            return text
    return ""


def _play(server: Server, page: Watched, table: str) -> dict[str, bool]:
    seen = {"fold": False, "all-in": False}
    wait_until(lambda: page.attr("data-status") == "playing", 60, "the game to start")
    decisions = 0
    while page.attr("data-status") != "finished":
        # An all-in (anyone's) shows on the seat as the all-in tag while the hand runs (HE-13, PK-12).
        seen["all-in"] |= page.page.locator(".seat .tag.all-in").count() > 0
        if page.attr("data-my-turn") != "yes":
            page.page.wait_for_timeout(30)
            continue
        before = int(page.attr("data-version"))
        if _decide(page, seen):
            decisions += 1
            wait_until(lambda b=before: int(page.attr("data-version")) > b or page.attr("data-my-turn") != "yes", 60)
        assert decisions < 400
    return seen


def _hands_played(page: Watched) -> int:
    text = page.page.inner_text("[data-testid=showdown] h2")
    match = re.search(r"Hand (\d+)", text)
    return int(match.group(1)) if match else 0


def test_holdem_against_bots_with_a_fold_and_an_all_in(server: Server, open_page) -> None:
    table = server.create("holdem", ["open", "bot:random", "bot:random"], config={"players": 3, "stack": 60}, clock=60)
    page = open_page()
    page.sit(table, 0, server.join(table, 0, "Ann"))
    seen = _play(server, page, table)
    assert seen == {"fold": True, "all-in": True}
    assert _hands_played(page) >= 2
    page.page.wait_for_selector("[data-testid=result]")
    assert server.summary(table)["result"]["reason"]
    # The history names seats as the seats panel does: "Random bot 2 …", "Ann (you) …", never "random bot".
    history = page.page.inner_text("[data-testid=history]")
    assert "Random bot 2 " in history and "Ann (you) " in history, history[-400:]
    assert "random bot" not in history
    page.check()


def test_peekpoker_against_a_bot_with_a_fold_and_an_all_in(server: Server, open_page) -> None:
    table = server.create("peekpoker", ["open", "bot:random"], config={"players": 2, "stack": 20}, clock=60)
    page = open_page(390, 844)
    page.sit(table, 0, server.join(table, 0, "Ann"))
    seen = _play(server, page, table)
    assert seen == {"fold": True, "all-in": True}
    assert _hands_played(page) >= 2
    page.page.wait_for_selector("[data-testid=result]")
    page.check()
