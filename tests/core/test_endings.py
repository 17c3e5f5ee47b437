"""``Result.ending``: why a game ended as a value (issue 18), beside the prose of ``Result.reason``."""

from __future__ import annotations

from random import Random

import pytest

from dicepoker.core.state import State
from dicepoker.core.types import Ending, Resign, Timeout
from dicepoker.games.registry import create, names


def _play_out(state: State, seed: int) -> State:
    rng = Random(seed)
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        to_act = state.to_act
        assert isinstance(to_act, tuple)
        for seat in to_act:
            state = state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    return state


@pytest.mark.parametrize("game", names())
def test_cm5_the_last_one_left_after_resignations_is_a_resignation(game: str) -> None:
    """CM-5: everyone but seat 0 resigns at the start, and the result says so as a value."""
    state = create(game, players=2).initial_state()
    state = state.apply(Resign(), 1)
    result = state.result()
    assert result.ending is Ending.RESIGNATION
    assert result.to_json()["ending"] == "resignation"


def test_sc15_nobody_started_is_a_timeout() -> None:
    """SC-15: every first turn timed out, so the game ends as a timeout, not as a completed game."""
    state = create("scorecard", players=2).initial_state()
    rng = Random(1)
    while not state.is_terminal:
        state = state.apply(state.sample_chance(rng)) if state.is_chance else state.apply(Timeout())
    assert state.result().ending is Ending.TIMEOUT


def test_sc13_thirteen_rounds_complete_the_game() -> None:
    """SC-13: a game played to its last box is completed."""
    result = _play_out(create("scorecard", players=1).initial_state(), seed=3).result()
    assert result.ending is Ending.COMPLETED and "SC-13" in result.reason


@pytest.mark.parametrize("game", ["holdem", "peekpoker"])
def test_he15_pk13_betting_games_end_with_the_last_player_with_chips(game: str) -> None:
    """HE-15, PK-13 (and HE-12's Yahtzee flush in Hold'em): random play ends with one of the chip endings."""
    endings = {_play_out(create(game, players=2, stack=20).initial_state(), seed).result().ending for seed in range(6)}
    assert endings <= {Ending.LAST_WITH_CHIPS, Ending.YAHTZEE_FLUSH}
    assert Ending.LAST_WITH_CHIPS in endings


@pytest.mark.parametrize("game", ["zepherin", "classic-board"])
def test_bd13_a_board_game_ends_with_runs_or_blocked(game: str) -> None:
    """BD-13: a board game played out ends with a team's runs, or with a board where nothing can change."""
    result = _play_out(create(game).initial_state(), seed=2).result()
    assert result.ending in (Ending.COMPLETED, Ending.BLOCKED)
    assert (result.ending is Ending.COMPLETED) == ("BD-13" in result.reason)
