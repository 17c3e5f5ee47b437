"""axe-core (vendored, run in the page) on the lobby, the rules and every table page, at phone and desktop width;
each page's screenshot is saved under tests/e2e/out/ for a person to look at (CI keeps it as an artifact)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import AXE, OUT, Server, Watched, wait_until

WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
TABLES = {
    "scorecard": (["open", "bot:greedy"], {}),
    "zepherin": (["open", "bot:greedy"], {}),
    "classic-board": (["open", "bot:greedy", "bot:greedy"], {"players": 3}),
    "holdem": (["open", "bot:random", "bot:random"], {"players": 3}),
    "peekpoker": (["open", "bot:random", "bot:random"], {"players": 3}),
}


def _axe(page: Watched) -> list[dict[str, Any]]:
    # Evaluated through the DevTools protocol: a <script> tag with axe inline would break the page's CSP
    # (no inline script), which the other tests keep in force.
    page.page.evaluate(AXE.read_text())
    results = page.page.evaluate("async () => JSON.stringify((await axe.run(document)).violations)")
    violations: list[dict[str, Any]] = json.loads(results)
    return [v for v in violations if v["impact"] in ("serious", "critical")]


def _report(violations: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in violations
    )


def _shoot(page: Watched, name: str) -> None:
    OUT.mkdir(exist_ok=True)
    page.page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_lobby_rules_and_replays_pages(server: Server, open_page, width: str) -> None:
    page = open_page(*WIDTHS[width])
    for name, hash_ in (("lobby", "#/"), ("rules-holdem", "#/rules/holdem"), ("replays", "#/replay")):
        page.page.goto(f"{server.url}/{hash_}")
        page.page.wait_for_selector("main h1")
        if name == "lobby":
            page.page.wait_for_selector(".game-card")
            page.page.click(".game-card button:has-text('New table')")
            page.page.wait_for_selector("#nt-players")
        if name.startswith("rules"):
            page.page.wait_for_selector(".markdown li")
        violations = _axe(page)
        assert not violations, _report(violations)
        _shoot(page, f"{name}-{width}")
    page.check()


@pytest.mark.parametrize("game", list(TABLES))
def test_table_pages(server: Server, open_page, game: str) -> None:
    seats, config = TABLES[game]
    for width, size in WIDTHS.items():
        table = server.create(game, seats, config=config, clock=60)
        page = open_page(*size)
        page.sit(table, 0, server.join(table, 0, "Ann"))
        wait_until(lambda p=page: p.attr("data-my-turn") == "yes", 60, "the player's turn")
        if game in ("scorecard", "zepherin", "classic-board"):
            before = int(page.attr("data-version"))
            page.page.keyboard.press("r")
            wait_until(lambda p=page, b=before: int(p.attr("data-version")) > b, 60, "the roll")
            if page.page.is_visible("[data-testid=die-2]"):
                page.page.keyboard.press("2")
        page.page.wait_for_timeout(700)  # let the roll animation settle before the picture
        violations = _axe(page)
        assert not violations, _report(violations)
        _shoot(page, f"{game}-{width}")
        page.check()
