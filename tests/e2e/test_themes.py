"""Issue 26, dark mode: the theme follows prefers-color-scheme, a light / dark / auto toggle is remembered per
browser and applied before the first paint, and axe-core finds no serious or critical problem (colour contrast
included) in either theme on the lobby and on a table of each of the five games. Every page is photographed in
both themes at 1280x800 and 390x844 into tests/e2e/out/ (theme-<page>-<theme>-<size>.png) for a person to look at."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext

from .conftest import OUT, PATIENCE, Server, Watched, wait_until
from .test_accessibility import TABLES, _axe, _report

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
THEMES = ("light", "dark")

# Records the theme at the moment <body> is created: the stylesheet is applied from then on, so a value there
# means the first paint already had the right colours (no white flash before a dark page).
FIRST_PAINT_PROBE = """
new MutationObserver((changes, observer) => {
  if (document.body) {
    window.__themeAtBody = document.documentElement.getAttribute("data-theme");
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture
def themed_page(browser: Browser, server: Server) -> Iterator[Callable[..., Watched]]:
    contexts: list[BrowserContext] = []

    def opener(scheme: str, size: str = "desktop") -> Watched:
        width, height = SIZES[size]
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
        context.set_default_timeout(PATIENCE * 1000)
        contexts.append(context)
        return Watched(context, server.url)

    yield opener
    for context in contexts:
        context.close()


def _theme(page: Watched) -> str:
    return page.page.get_attribute("html", "data-theme") or ""


def _background(page: Watched) -> str:
    return str(page.page.evaluate("getComputedStyle(document.body).backgroundColor"))


def _shoot_both_sizes(page: Watched, name: str) -> None:
    OUT.mkdir(exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.page.set_viewport_size({"width": width, "height": height})
        page.page.wait_for_timeout(300)  # the layout settles (the felt changes shape below 640 px)
        violations = _axe(page)
        assert not violations, f"{name} at {size}:\n{_report(violations)}"
        page.page.screenshot(path=str(OUT / f"theme-{name}-{size}.png"), full_page=True)


@pytest.mark.parametrize("scheme", THEMES)
def test_the_theme_follows_the_system(server: Server, themed_page, scheme: str) -> None:
    page = themed_page(scheme)
    page.page.add_init_script(FIRST_PAINT_PROBE)
    page.page.goto(f"{server.url}/")
    page.page.wait_for_selector(".game-card")
    assert _theme(page) == scheme
    assert page.page.evaluate("window.__themeAtBody") == scheme  # before the first paint
    assert page.page.get_attribute("[data-theme-value=system]", "aria-pressed") == "true"
    dark_background = _background(page) == "rgb(18, 23, 21)"
    assert dark_background == (scheme == "dark")
    page.check()


def test_the_toggle_is_remembered_and_applied_before_the_first_paint(server: Server, themed_page) -> None:
    page = themed_page("light")
    page.page.add_init_script(FIRST_PAINT_PROBE)
    page.page.goto(f"{server.url}/")
    page.page.wait_for_selector(".game-card")
    light = _background(page)
    page.page.click("[data-testid=theme-toggle] [data-theme-value=dark]")
    assert _theme(page) == "dark" and _background(page) != light
    assert page.page.get_attribute("[data-theme-value=dark]", "aria-pressed") == "true"
    assert page.page.evaluate("localStorage.getItem('dicepoker.theme')") == "dark"

    page.page.reload()  # the choice outlives the page, and is there before <body> exists
    page.page.wait_for_selector(".game-card")
    assert page.page.evaluate("window.__themeAtBody") == "dark"
    assert page.page.get_attribute("[data-theme-value=dark]", "aria-pressed") == "true"

    page.page.click("[data-theme-value=light]")  # light on a dark system, then auto follows the system again
    page.page.emulate_media(color_scheme="dark")
    assert _theme(page) == "light"
    page.page.click("[data-theme-value=system]")
    assert _theme(page) == "dark"
    assert page.page.evaluate("localStorage.getItem('dicepoker.theme')") is None
    page.page.emulate_media(color_scheme="light")  # auto: a change of the system's setting is followed at once
    wait_until(lambda: _theme(page) == "light", 10, "the theme to follow the system")
    page.check()


@pytest.mark.parametrize("scheme", THEMES)
def test_lobby_rules_and_replays_contrast_and_pictures(server: Server, themed_page, scheme: str) -> None:
    page = themed_page(scheme)
    page.page.goto(f"{server.url}/")
    page.page.wait_for_selector(".game-card")
    page.page.click(".game-card button:has-text('New table')")
    page.page.wait_for_selector("#nt-players")
    assert _theme(page) == scheme
    _shoot_both_sizes(page, f"lobby-{scheme}")
    page.page.goto(f"{server.url}/#/rules/holdem")
    page.page.wait_for_selector(".markdown li")
    _shoot_both_sizes(page, f"rules-{scheme}")
    page.page.goto(f"{server.url}/#/replay")
    page.page.wait_for_selector("main h1")
    _shoot_both_sizes(page, f"replays-{scheme}")
    page.check()


@pytest.mark.parametrize("scheme", THEMES)
@pytest.mark.parametrize("game", list(TABLES))
def test_table_contrast_and_pictures(server: Server, themed_page, game: str, scheme: str) -> None:
    seats, config = TABLES[game]
    table = server.create(game, seats, config=config, clock=60)
    page = themed_page(scheme)
    page.sit(table, 0, server.join(table, 0, "Ann"))
    wait_until(lambda: page.attr("data-my-turn") == "yes", 60, "the player's turn")
    if game in ("scorecard", "zepherin", "classic-board"):
        before = int(page.attr("data-version"))
        page.page.keyboard.press("r")
        wait_until(lambda: int(page.attr("data-version")) > before, 60, "the roll")
        if page.page.is_visible("[data-testid=die-2]"):
            page.page.keyboard.press("2")
    page.page.wait_for_timeout(700)  # let the roll animation settle before the picture
    assert _theme(page) == scheme
    _shoot_both_sizes(page, f"{game}-{scheme}")
    page.check()
