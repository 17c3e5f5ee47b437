"""Issue 18 §4: one screen registry for every game, used by local play and the online client alike."""

from __future__ import annotations

import io
from random import Random
from typing import Any

import pytest
from rich.console import Console

from dicepoker.core.errors import ConfigError
from dicepoker.core.game import Game
from dicepoker.core.match import Match
from dicepoker.games import registry
from dicepoker.tui.common import LineReader
from dicepoker.tui.screens import SCREENS, local_game, make_screen, screen_maker
from dicepoker.tui.table import LocalTable

EXPECTED = {
    "scorecard": "ScorecardScreen",
    "holdem": "HoldemScreen",
    "peekpoker": "PeekPokerScreen",
    "zepherin": "BoardScreen",
    "classic-board": "BoardScreen",
}


def test_every_game_has_a_registered_screen() -> None:
    """Screens are found by the view type a game declares: every game has one, and none is left over."""
    assert set(SCREENS) == {registry.info(name).view_type.__name__ for name in registry.names()}


@pytest.mark.parametrize("game", registry.names())
def test_the_registry_builds_each_games_screen(game: str) -> None:
    table = LocalTable(Match(registry.create(game), seed=1), bots={}, bot_rng=Random(0))
    console = Console(file=io.StringIO())
    screen = make_screen(table, ["You", "Expert bot"], console, bots={1}, reader=LineReader(io.StringIO()))
    assert type(screen).__name__ == EXPECTED[game]


def test_a_game_without_a_screen_is_refused_clearly() -> None:
    with pytest.raises(ConfigError, match="unknown game 'chess'"):
        screen_maker("chess")


def test_local_game_seats_the_bots_and_names_the_players() -> None:
    loop = local_game(
        "holdem",
        lambda: registry.create("holdem", players=3),
        lambda game: [None, "random", "random"],
        seed=5,
        clock=None,
        save=None,
        force=False,
        resume=None,
        console=Console(file=io.StringIO()),
        reader=LineReader(io.StringIO("")),
    )
    assert loop.humans == [0]
    assert type(loop.screen).__name__ == "HoldemScreen"
    assert sorted(loop.table.bots) == [1, 2]  # type: ignore[attr-defined]


def test_the_clock_is_checked_before_anything_starts() -> None:
    def no_game() -> Game[Any, Any]:
        raise AssertionError("no game is made with a bad clock")

    with pytest.raises(ConfigError, match="--clock must be a positive number"):
        local_game(
            "holdem",
            no_game,
            lambda game: [None, "random"],
            seed=1,
            clock=-1.0,
            save=None,
            force=False,
            resume=None,
            console=None,
            reader=None,
        )
