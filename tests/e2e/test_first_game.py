"""A first game that is right (issue 21 §4): what a new player reads at the start, during and after a game.

Finished tables are played by bots only (fast), then opened as a spectator and as a replay. Screenshots of the
finished Hold'em, PeekPoker and board game at 1280×800 and 390×844 are saved under tests/e2e/out/ to look at.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import OUT, Server, Watched, wait_until

CLAUSE = re.compile(r"\([A-Z]{2}-\d+\)")

FINISHED: dict[str, tuple[list[str], dict[str, Any]]] = {
    "holdem": (["bot:random", "bot:random"], {"stack": 60}),
    "peekpoker": (["bot:random", "bot:random"], {"players": 2, "stack": 20}),
    "zepherin": (["bot:greedy", "bot:greedy"], {}),
}


def _finished_table(server: Server, game: str) -> str:
    seats, config = FINISHED[game]
    table = server.create(game, seats, config=config, clock=None)
    wait_until(lambda: server.summary(table)["status"] == "finished", what=f"the bots' {game} game to finish")
    return table


def _seat_tags(page: Watched) -> list[str]:
    return [t.strip().lower() for t in page.page.locator(".seat .tag").all_inner_texts()]


def _screenshots(open_page, server: Server, table: str, game: str) -> None:
    OUT.mkdir(exist_ok=True)
    for width, height in ((1280, 800), (390, 844)):
        shot = open_page(width, height)
        shot.page.goto(f"{server.url}/#/table/{table}")
        shot.page.wait_for_selector("[data-testid=result]")
        shot.page.wait_for_selector("[data-testid=felt], [data-testid=board]")  # the game drawn, not "Loading…"
        shot.page.screenshot(path=str(OUT / f"finished-{game}-{width}x{height}.png"), full_page=True)
        shot.check()


@pytest.mark.parametrize("game", ["holdem", "peekpoker"])
def test_no_seat_reads_folded_after_the_game_or_at_the_start_of_its_replay(
    server: Server, open_page, game: str
) -> None:
    """The winner's seat is not FOLDED at the end, and no seat is FOLDED before the first deal of a replay."""
    table = _finished_table(server, game)
    page = open_page()
    page.page.goto(f"{server.url}/#/table/{table}")
    page.page.wait_for_selector("[data-testid=result]")
    page.page.wait_for_selector(".seat")
    winners = server.summary(table)["result"]["winners"]
    for seat in winners:
        label = page.page.get_attribute(f"[data-testid=seat-{seat}]", "aria-label") or ""
        assert "folded" not in label, label
    assert "folded" not in _seat_tags(page)
    page.page.goto(f"{server.url}/#/replay/{table}")
    page.page.wait_for_selector(".seat")
    assert page.page.inner_text("[data-testid=step]").startswith("0 / ")
    assert "folded" not in _seat_tags(page), "no seat has folded before the first deal"
    assert " · hand 0" not in page.page.inner_text("[data-testid=felt]")
    page.check()
    _screenshots(open_page, server, table, game)


def test_result_banner_speaks_plainly_and_keeps_the_clause_in_a_tooltip(server: Server, open_page) -> None:
    table = _finished_table(server, "zepherin")
    reason = server.summary(table)["result"]["reason"]
    clause = CLAUSE.search(reason)
    assert clause, reason  # the result's prose names its clause; the banner must not
    page = open_page()
    page.page.goto(f"{server.url}/#/table/{table}")
    line = page.page.wait_for_selector("[data-testid=result-reason]")
    assert not CLAUSE.search(line.inner_text()), line.inner_text()
    assert line.inner_text()[0].isupper()
    assert clause.group(0).strip("()") in (line.get_attribute("title") or "")
    # One colour per team, as the game declares it, in the teams panel and in the result's words (BD-13).
    assert page.page.locator(".teams strong").all_inner_texts() == ["Blue", "Orange"]
    winner = server.summary(table)["result"]["winners"][0]
    assert line.inner_text() == f"{['Blue', 'Orange'][winner % 2]} made 2 runs"
    # After the game the dice tray neither shows face-down dice nor counts rolls left.
    tray = page.page.inner_text("[data-testid=dice-tray]")
    assert "rolls left" not in tray and "game is over" in tray
    assert page.page.locator("[data-testid=dice-tray] .die-slot").count() == 0
    # The replay keeps the clause (it is the record of the game).
    page.page.goto(f"{server.url}/#/replay/{table}")
    page.page.wait_for_selector("[data-testid=fairness]")
    assert clause.group(0) in page.page.inner_text(".replay")
    page.check()
    _screenshots(open_page, server, table, "zepherin")


def test_replay_title_icons_and_hand_counts(server: Server, open_page) -> None:
    table = _finished_table(server, "holdem")
    page = open_page()
    page.page.goto(f"{server.url}/#/replay/{table}")
    page.page.wait_for_selector("[data-testid=move-groups]")
    assert page.page.inner_text(".replay h1") == "Replay: Dice Hold'em"
    for name in ("first position", "previous move", "play", "next move", "last position"):
        button = page.page.locator(f".replay-controls button[aria-label='{name}']")
        assert button.locator("svg").count() == 1, name  # drawn, not a glyph the font may lack
        assert button.inner_text().strip() == "", name
    summaries = page.page.locator("[data-testid=hand-group] summary").all_inner_texts()
    assert summaries[0].startswith("Before the first hand"), summaries[0]
    assert summaries[1].startswith("Hand 1 · "), summaries[1]
    for text in summaries:
        assert not text.startswith("Hand 0"), text
        count = int(re.search(r"· (\d+) move", text).group(1))  # type: ignore[union-attr]
        assert text.endswith(" move" if count == 1 else " moves"), text
    page.check()


def test_the_review_separates_the_name_from_the_points(server: Server, open_page) -> None:
    table = server.create("scorecard", ["bot:greedy", "bot:greedy"], clock=None)
    wait_until(lambda: server.summary(table)["status"] == "finished", what="the bots' scorecard game to finish")
    page = open_page()
    page.page.goto(f"{server.url}/#/table/{table}")
    page.page.click("[data-testid=review]")
    page.page.wait_for_selector("[data-testid=review-panel]")
    lines = page.page.locator("[data-testid=review-panel] ul.lost li").all_inner_texts()
    assert lines and all(re.search(r"bot \d+ \d+\.\d points", line) for line in lines), lines
    page.check()


def test_a_bad_table_link_says_no_such_table_with_a_way_back(server: Server, open_page) -> None:
    page = open_page()
    page.page.goto(f"{server.url}/#/table/no-such-id")
    page.page.wait_for_selector("[data-testid=no-such-table]")
    assert "No such table" in page.page.inner_text("[data-testid=no-such-table]")
    assert "Connecting" not in page.page.inner_text("body")
    page.page.click("text=Back to the lobby")
    wait_until(lambda: page.page.evaluate("location.hash") in ("", "#/"), what="the lobby")
    page.problems = [p for p in page.problems if "404" not in p]  # the refused WebSocket is the point here
    page.check()


@pytest.mark.parametrize("game", ["scorecard", "holdem"])
def test_a_table_waiting_for_an_opponent_says_so(server: Server, open_page, game: str) -> None:
    table = server.create(game, ["open", "open"], clock=None)
    page = open_page()
    page.sit(table, 0, server.join(table, 0, "Ann"))
    assert page.attr("data-status") == "waiting"
    page.page.wait_for_selector("text=Waiting for an opponent…")
    body = page.page.inner_text("[data-testid=table]")
    assert "Your turn" not in body and "Dice are rolling" not in body
    if game == "holdem":
        assert "folded" not in _seat_tags(page)
        assert " · hand 0" not in page.page.inner_text("[data-testid=felt]")
    page.check()
