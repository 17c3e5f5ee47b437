"""Two browser contexts play a whole scorecard game against each other through the page (SC-1 … SC-15)."""

from __future__ import annotations

import httpx
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import Server, Watched, wait_until


def _version(page: Watched) -> int:
    return int(page.attr("data-version") or 0)


def _after(page: Watched, before: int, what: str) -> None:
    wait_until(lambda: _version(page) > before, 60, what)


def _mine(page: Watched) -> bool:
    return page.attr("data-my-turn") == "yes"


def _play_turn(page: Watched, done: dict[str, bool], *, idle: bool) -> None:
    """One turn through the UI: roll; once a game hold two dice and re-roll, ask for a hint; then score.

    On a loaded machine the clock may still run out in the middle of a turn: then the turn is simply over.
    """
    if idle:
        # Let the clock run out (SC-14): the server rolls and scores for us; the turn passes.
        wait_until(lambda: not _mine(page), 90, "the turn to time out")
        done["timeout"] = True
        return
    p = page.page
    before = _version(page)
    p.keyboard.press("r")  # R rolls (keyboard control)
    _after(page, before, "the first roll")
    if not done["hold"] and _mine(page) and p.is_visible("[data-testid=die-2]"):
        p.keyboard.press("1")
        p.click("[data-testid=die-2]")
        assert p.get_attribute("[data-testid=die-1]", "aria-pressed") == "true"
        assert p.get_attribute("[data-testid=die-2]", "aria-pressed") == "true"
        kept = [p.get_attribute(f"[data-testid=die-{i}] svg", "aria-label") for i in (1, 2)]
        before = _version(page)
        p.click("[data-testid=roll]")
        _after(page, before, "the re-roll")
        if _mine(page):
            assert [p.get_attribute(f"[data-testid=die-{i}] svg", "aria-label") for i in (1, 2)] == kept
            done["hold"] = True
    try:
        if not done["hint"] and _mine(page):
            p.click("[data-testid=hint]", timeout=30_000)
            p.wait_for_selector("[data-testid=hint-panel]", timeout=30_000)
            assert "Best:" in p.inner_text("[data-testid=hint-panel]")
            done["hint"] = True
        if _mine(page) and p.is_visible("[data-testid^=score-]"):
            before = _version(page)
            p.click("[data-testid^=score-]", timeout=30_000)
            _after(page, before, "the score")
    except PlaywrightTimeout:
        assert not _mine(page), "a control of the turn did not answer while the turn was still ours"


def test_two_people_play_a_whole_game_with_hold_reroll_hint_and_a_timeout(server: Server, open_page) -> None:
    # Load the solver in the server before the clock runs (a fresh machine builds its table once).
    warm = {"card": [None] * 13, "dice": [1, 2, 3, 4, 5], "rolls_used": 1}
    assert httpx.post(f"{server.url}/api/web/scorecard/hint", json=warm, timeout=600).status_code == 200
    table = server.create("scorecard", ["open", "open"], clock=20)
    pages = [open_page(), open_page(390, 844)]
    for seat, name in enumerate(("Ann", "Bob")):
        pages[seat].sit(table, seat, server.join(table, seat, name), name)
    done = {"hold": False, "hint": False, "timeout": False}
    turns = [0, 0]
    wait_until(lambda: pages[0].attr("data-status") == "playing", 60, "the game to start")
    while pages[0].attr("data-status") != "finished":
        acted = False
        for seat, page in enumerate(pages):
            if page.attr("data-my-turn") == "yes" and page.page.is_visible("[data-testid=roll]:not([disabled])"):
                # Bob (seat 1) lets his third turn run out: one timeout in the game.
                _play_turn(page, done, idle=seat == 1 and turns[1] == 2)
                turns[seat] += 1
                acted = True
        if not acted:
            page.page.wait_for_timeout(50)
        assert sum(turns) <= 40, "the game should end after 26 turns"
    assert done == {"hold": True, "hint": True, "timeout": True}
    result = server.summary(table)["result"]
    for page in pages:
        page.page.wait_for_selector("[data-testid=result]")
        shown = [int(page.page.inner_text(f"[data-testid=final-{seat}]")) for seat in (0, 1)]
        assert shown == result["scores"]
        assert [int(page.page.inner_text(f"[data-testid=total-{seat}]")) for seat in (0, 1)] == result["scores"]
    # The post-game review: expected points lost per player, from the solver.
    review = pages[0].page
    review.click("[data-testid=review]")
    review.wait_for_selector("[data-testid=review-panel]")
    assert "points over" in review.inner_text("[data-testid=review-panel]")
    for page in pages:
        page.check()
