"""Issue 21 §5, "How to play": the lobby's card and the table page link each game's guide; the guide shows its
title (the game's own, from ``/api/games``), the hands drawn with the client's dice and a link to the full rules.
axe-core runs on a guide at phone and desktop width; every guide's screenshot is saved under tests/e2e/out/."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Locator

from .conftest import OUT, Server, Watched, wait_until
from .test_accessibility import _axe, _report

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def _games(server: Server) -> list[dict[str, object]]:
    games: list[dict[str, object]] = httpx.get(f"{server.url}/api/games").json()["games"]
    return games


def _shows(locator: Locator, text: str) -> Callable[[], bool]:
    return lambda: bool(locator.inner_text() == text)


@pytest.mark.parametrize("size", list(SIZES))
def test_each_guide_opens_from_the_lobby_with_its_title_dice_and_full_rules(
    server: Server, open_page: Callable[..., Watched], size: str
) -> None:
    page: Watched = open_page(*SIZES[size])
    p = page.page
    OUT.mkdir(exist_ok=True)
    for game in _games(server):
        name, title = str(game["name"]), str(game["title"])
        p.goto(f"{server.url}/")
        p.click(f".game-card a[href='#/guide/{name}']")
        wait_until(_shows(p.locator("article.guide h1"), f"How to play {title}"), what=f"the {name} guide")
        p.wait_for_selector(".guide-dice svg.die")
        assert p.locator("article.guide section h2").all_inner_texts()[0] == "The goal"
        assert p.locator(".guide-dice svg.die").count() >= 8 * 5  # every hand, in the client's own dice
        assert "{" not in p.inner_text("article.guide")  # every fact was filled in
        assert p.title() == f"dicepoker · how to play · {title}"
        p.wait_for_timeout(300)  # fonts and layout settle before the picture
        p.screenshot(path=str(OUT / f"guide-{name}-{size}.png"), full_page=True)
        full = p.locator("[data-testid=full-rules]")
        assert full.get_attribute("href") == f"#/rules/{name}"
        full.click()
        wait_until(_shows(p.locator("article.rules h1"), f"Rules: {title}"), what=f"the {name} rules")
    page.check()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_guide_passes_axe(server: Server, open_page: Callable[..., Watched], size: str) -> None:
    page: Watched = open_page(*SIZES[size])
    page.page.goto(f"{server.url}/#/guide/holdem")
    page.page.wait_for_selector(".guide-dice svg.die")
    violations = _axe(page)
    assert not violations, _report(violations)
    page.check()


def test_the_table_links_the_guide_in_a_new_tab_and_an_unknown_game_says_so(
    server: Server, open_page: Callable[..., Watched]
) -> None:
    page: Watched = open_page()
    table = server.create("scorecard", ["open", "bot:greedy"], clock=60)
    page.sit(table, 0, server.join(table, 0, "Ann"))
    link = page.page.locator("[data-testid=how-to-play]")
    assert link.get_attribute("href") == "#/guide/scorecard"
    assert link.get_attribute("target") == "_blank"  # the game stays open in its own tab
    page.page.goto(f"{server.url}/#/guide/no-such-game")
    page.page.wait_for_selector("article.guide [role=alert]")
    assert "no game called no-such-game" in page.page.inner_text("article.guide")
    page.check()
