"""A spectator of a betting table never sees a hidden die: not in the page, not in any WebSocket frame."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PATIENCE, Server, Watched, wait_until


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


ENOUGH = 30
"""State frames (and as many DOM checks) that make a good sample of a game; a short game is watched to its end."""
BOT_SEATS_CLOCK = 1
"""The clock of the one person's seat, who never connects: each of their decisions times out after this long."""


@pytest.mark.parametrize(
    ("game", "config"),
    [("holdem", {"players": 3, "stack": 200}), ("peekpoker", {"players": 4, "stack": 48})],
)
def test_a_spectator_never_sees_hidden_dice(slow_bots: Server, open_page, game: str, config: dict[str, Any]) -> None:
    server = slow_bots
    # Seat 0 is a person who joins only once the spectator watches, so the page sees the game from its first
    # frame however slowly it opens; that person never connects, so their turns time out and the bots go on.
    seats = ["open"] + ["bot:random"] * (config["players"] - 1)
    table = server.create(game, seats, config=config, clock=BOT_SEATS_CLOCK)
    page = open_page(base=server.url)
    page.page.goto(f"{server.url}/#/table/{table}?watch")
    page.page.wait_for_selector("[data-testid=table]")
    wait_until(lambda: page.attr("data-connection") == "open", what="the spectator's connection")
    assert page.attr("data-seat") == "" and page.attr("data-status") == "waiting"
    assert page.page.locator(".bet-controls, [data-testid=roll], .ace-choice").count() == 0
    server.join(table, 0, "Absent")
    checked = 0
    deadline = time.monotonic() + PATIENCE  # an upper bound: the loop ends once it has seen enough
    while time.monotonic() < deadline:
        leak = _dom_leaks(page)
        assert leak is None, leak
        checked += 1
        states = sum(1 for f in page.frames if f.get("type") == "state")
        if page.attr("data-status") == "finished" or (states >= ENOUGH and checked >= ENOUGH):
            break
        page.page.wait_for_timeout(40)
    frames = [f for f in page.frames if f.get("type") == "state"]
    assert len(frames) > 10 and checked > 10, f"{len(frames)} frames and {checked} checks in {PATIENCE:g} s"
    assert any(f["status"] == "playing" for f in frames)
    for frame in page.frames:
        leak = _frame_leaks(frame)
        assert leak is None, leak
    # No controls ever appeared for the spectator.
    assert page.page.locator(".bet-controls, .ace-choice").count() == 0
    page.check()
