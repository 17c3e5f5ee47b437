"""The browser shows who is connected: presence frames (issue 18 §2) update the seats without a new state."""

from __future__ import annotations

from dicepoker.protocol.frames import SERVER_FRAMES

from .conftest import Server, wait_until


def test_the_table_page_shows_who_comes_and_goes(server: Server, open_page) -> None:
    table = server.create("scorecard", ["open", "open"], clock=None)  # no timeout moves the version on
    tokens = [server.join(table, seat, name) for seat, name in ((0, "Ann"), (1, "Bob"))]
    ann = open_page()
    ann.sit(table, 0, tokens[0], "Ann")
    presence = ann.page.locator("[data-testid=presence]")
    wait_until(lambda: presence.get_attribute("data-away") == "1", what="Bob shown away")
    version = ann.attr("data-version")
    bob = open_page()
    bob.sit(table, 1, tokens[1], "Bob")
    wait_until(lambda: presence.get_attribute("data-away") == "0", what="Bob shown connected")
    assert "Bob" in (presence.text_content() or "")
    bob.page.close()
    wait_until(lambda: presence.get_attribute("data-away") == "1", what="Bob shown away again")
    assert ann.attr("data-version") == version  # presence is news about seats, not a new state
    kinds = [frame.get("type") for frame in ann.frames]
    assert kinds.count("presence") >= 2 and set(kinds) <= set(SERVER_FRAMES)
    ann.check()
    bob.check()
