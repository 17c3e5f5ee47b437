"""A whole board game against a fast bot, played through the page to its end (BD-1 … BD-14)."""

from __future__ import annotations

from .conftest import Server, Watched, wait_until


def _step(page: Watched) -> str:
    """Make one move the page offers: claim, remove, roll (or re-roll all), else forfeit."""
    p = page.page
    for selector, kind in (
        ("button.square.claimable", "claim"),
        ("button.square.removable", "remove"),
        ("[data-testid=roll]:not([disabled])", "roll"),
        ("[data-testid=act-forfeit]", "forfeit"),
    ):
        if p.is_visible(selector):
            p.click(selector)
            return kind
    return ""


def test_a_whole_zepherin_game_against_a_bot(server: Server, open_page) -> None:
    table = server.create("zepherin", ["open", "bot:greedy"], clock=60)
    page = open_page()
    page.sit(table, 0, server.join(table, 0, "Ann"))
    wait_until(lambda: page.attr("data-status") == "playing", 60, "the game to start")
    moves: dict[str, int] = {}
    while page.attr("data-status") != "finished":
        if page.attr("data-my-turn") != "yes":
            page.page.wait_for_timeout(30)
            continue
        before = int(page.attr("data-version"))
        kind = _step(page)
        if kind:
            moves[kind] = moves.get(kind, 0) + 1
            wait_until(lambda b=before: int(page.attr("data-version")) > b, 60, f"the {kind} to be applied")
        assert sum(moves.values()) < 1500
    assert moves.get("claim", 0) > 0 and moves.get("roll", 0) > 0
    result = server.summary(table)["result"]
    assert result is not None and result["winners"]
    page.page.wait_for_selector("[data-testid=result]")
    # The board shows the runs that decided it: protected squares are marked.
    assert page.page.locator(".square.protected").count() >= 5
    page.check()
