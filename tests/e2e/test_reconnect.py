"""A reload rejoins the seat from the stored token; a killed and restarted server is reconnected to and play goes on."""

from __future__ import annotations

from .conftest import Server, wait_until


def _roll(page) -> None:
    before = int(page.attr("data-version"))
    page.page.click("[data-testid=roll]")
    wait_until(lambda: int(page.attr("data-version")) > before, 60, "the roll")


def test_a_reload_rejoins_the_same_seat(server: Server, open_page) -> None:
    table = server.create("scorecard", ["open", "bot:greedy"], clock=60)
    page = open_page()
    page.sit(table, 0, server.join(table, 0, "Ann"))
    wait_until(lambda: page.attr("data-my-turn") == "yes", 60, "Ann's turn")
    _roll(page)
    dice = page.page.eval_on_selector_all(
        "[data-testid^=die-] svg", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    page.page.reload()
    page.page.wait_for_selector("[data-testid=table]")
    wait_until(lambda: page.attr("data-seat") == "0" and page.attr("data-my-turn") == "yes", 60, "the seat back")
    assert (
        page.page.eval_on_selector_all("[data-testid^=die-] svg", "els => els.map(e => e.getAttribute('aria-label'))")
        == dice
    )
    before = int(page.attr("data-version"))
    page.page.click("[data-testid^=score-]")
    wait_until(lambda: int(page.attr("data-version")) > before, 60, "the score after the reload")
    page.check()


def test_a_killed_server_is_reconnected_to_and_the_game_goes_on(tmp_path, open_page) -> None:
    server = Server(tmp_path / "tables.db").start()
    try:
        table = server.create("scorecard", ["open", "open"], clock=60)
        pages = [open_page(base=server.url), open_page(base=server.url)]
        for seat, name in enumerate(("Ann", "Bob")):
            pages[seat].sit(table, seat, server.join(table, seat, name), name)
        ann = pages[0]
        wait_until(lambda: ann.attr("data-my-turn") == "yes", 60, "Ann's turn")
        _roll(ann)
        version = int(ann.attr("data-version"))
        server.kill()
        for page in pages:
            page.page.wait_for_selector("[data-testid=connection]", timeout=60_000)
            assert "Reconnecting" in page.page.inner_text("[data-testid=connection]")
        server.start()  # same port, same database: the table is restored from its log
        for page in pages:
            page.page.wait_for_selector("[data-testid=connection]", state="detached", timeout=90_000)
            wait_until(lambda p=page: int(p.attr("data-version")) == version, 60, "the state after the restart")
        wait_until(lambda: ann.attr("data-my-turn") == "yes", 60, "Ann's turn again")
        ann.page.click("[data-testid^=score-]")
        bob = pages[1]
        wait_until(lambda: bob.attr("data-my-turn") == "yes", 60, "Bob's turn after Ann scored")
        _roll(bob)
        # A page loses its WebSocket when the server dies: the browser may log that; nothing else may go wrong.
        for page in pages:
            page.problems = [p for p in page.problems if "WebSocket" not in p and "net::ERR_CONNECTION" not in p]
            page.check()
    finally:
        server.stop()
