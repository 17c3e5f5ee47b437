"""A spectator of a betting table never sees a hidden die: not in the page, not in any WebSocket frame."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Server, Watched


@pytest.fixture(scope="module")
def slow_bots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots think for 0.15 s, so that the spectator sees the hands being played, not only the end."""
    running = Server(tmp_path_factory.mktemp("spectator") / "tables.db", bot_delay=0.15).start()
    yield running
    running.stop()


SHOWN_PHASES = {"aces", "reroll", "over"}
"""PeekPoker phases after the showdown has revealed the hidden dice (PK-8)."""


def _frame_leaks(frame: dict[str, Any]) -> str | None:
    if frame.get("type") != "state":
        return None
    view = frame["view"]
    if frame["seat"] is not None or frame["legal_actions"]:
        return f"a spectator frame for seat {frame['seat']} with actions {frame['legal_actions']}"
    if view["game"] == "holdem" and view["pocket"]:
        return f"pocket dice {view['pocket']} in a spectator frame (version {frame['version']})"
    if view["game"] == "peekpoker" and view["phase"] not in SHOWN_PHASES and any(view["dice"]):
        return f"hidden dice {view['dice']} in phase {view['phase']} (version {frame['version']})"
    return None


def _dom_leaks(page: Watched) -> str | None:
    # During a hand every die at a seat is drawn face down for a spectator (revealed ones only after the showdown).
    # One evaluation reads the phase and the dice of the same render.
    phase, labels = page.page.evaluate(
        """() => [document.querySelector('.street')?.textContent || '',
                  [...document.querySelectorAll('.seat-dice svg')].map(e => e.getAttribute('aria-label'))]"""
    )
    if "aces" in phase.lower() or "over" in phase.lower():
        return None
    shown = [label for label in labels if label != "hidden die"]
    return f"dice {shown} drawn at seats ({phase})" if shown else None


@pytest.mark.parametrize(
    ("game", "config"),
    [("holdem", {"players": 3, "stack": 200}), ("peekpoker", {"players": 4, "stack": 48})],
)
def test_a_spectator_never_sees_hidden_dice(slow_bots: Server, open_page, game: str, config: dict[str, Any]) -> None:
    server = slow_bots
    table = server.create(game, ["bot:random"] * config["players"], config=config, clock=60)
    page = open_page(base=server.url)
    page.page.goto(f"{server.url}/#/table/{table}?watch")
    page.page.wait_for_selector("[data-testid=table]")
    assert page.attr("data-seat") == ""
    assert page.page.locator(".bet-controls, [data-testid=roll], .ace-choice").count() == 0
    deadline = time.monotonic() + 8
    checked = 0
    while page.attr("data-status") != "finished" and time.monotonic() < deadline:
        leak = _dom_leaks(page)
        assert leak is None, leak
        checked += 1
        page.page.wait_for_timeout(40)
    frames = [f for f in page.frames if f.get("type") == "state"]
    assert len(frames) > 10 and checked > 10
    for frame in page.frames:
        leak = _frame_leaks(frame)
        assert leak is None, leak
    # No controls ever appeared for the spectator.
    assert page.page.locator(".bet-controls, .ace-choice").count() == 0
    page.check()
