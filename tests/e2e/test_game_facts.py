"""Issue 18: the browser names each game, draws its card and picks its rules from ``GET /api/games`` only.

The lobby, the table page and the rules page used to keep three title tables that disagreed; now each title
is the game's own, fetched once per page load.
"""

from __future__ import annotations

import json

import httpx

from .conftest import Server, Watched, wait_until


def _games(server: Server) -> dict[str, dict[str, object]]:
    return {g["name"]: g for g in httpx.get(f"{server.url}/api/games").json()["games"]}


def test_lobby_rules_and_table_pages_read_the_games_facts(server: Server, open_page) -> None:
    games = _games(server)
    page: Watched = open_page()
    games_fetched: list[str] = []
    page.page.on("request", lambda r: games_fetched.append(r.url) if r.url.endswith("/api/games") else None)
    page.page.goto(f"{server.url}/")
    for facts in games.values():
        card = page.page.locator(f"#title-{facts['name']}")
        assert card.inner_text() == facts["title"]
    # The rules page: the game's full title and only its own sections (the board games' for zepherin).
    page.page.goto(f"{server.url}/#/rules/zepherin")
    heading = page.page.locator("article.rules h1")
    wait_until(lambda: heading.inner_text() == f"Rules: {games['zepherin']['title']}", what="the rules title")
    wait_until(lambda: page.page.locator("article.rules section h2").count() > 0, what="the rules sections")
    sections = page.page.locator("article.rules section h2").all_inner_texts()
    assert sections and all(s.startswith(tuple(games["zepherin"]["rules_sections"])) for s in sections)  # type: ignore[arg-type]
    assert not any(s.startswith("Scorecard") for s in sections)
    # The table page: the game's short title.
    table = server.create("zepherin", ["open", "bot:greedy"], clock=60)
    page.sit(table, 0, server.join(table, 0, "Ann"))
    wait_until(lambda: page.page.locator(".table-head h1").inner_text() == games["zepherin"]["short_title"])
    # (while it is Ann's turn the turn alert marks the title: issue 21 §3)
    assert page.page.title().removeprefix("● Your turn · ") == f"dicepoker · {games['zepherin']['short_title']}"
    assert len(games_fetched) <= 2, json.dumps(games_fetched)  # once per page load (the lobby, then the table)
    page.check()
