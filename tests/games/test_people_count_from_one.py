"""Texts meant for people count seats from 1 (issue 21 §4): CM-1 numbers seats 0..n-1 in the protocol and the
logs, so seat 0 is "seat 1" in a result's reason or an error message."""

from __future__ import annotations

import pytest

from dicepoker.core.errors import IllegalAction
from dicepoker.core.types import Resign
from dicepoker.games.registry import create


@pytest.mark.parametrize("game", ["scorecard", "holdem"])
def test_cm5_a_resignation_names_the_seat_as_people_count(game: str) -> None:
    """CM-5: seat 0 resigns: the reason reads "seat 1 resigned", never "seat 0"."""
    state = create(game, players=2).initial_state().apply(Resign(), 0)
    assert state.is_terminal
    assert state.result().reason == "seat 1 resigned"


@pytest.mark.parametrize("game", ["scorecard", "holdem", "peekpoker"])
def test_cm5_resigning_twice_names_the_seat_from_one(game: str) -> None:
    """CM-5: a second resignation of the same seat is refused, naming seat 2 for seat 1."""
    state = create(game, players=3).initial_state().apply(Resign(), 1)
    with pytest.raises(IllegalAction, match="seat 2 has already resigned"):
        state.apply(Resign(), 1)


def test_bd2_a_conceded_team_is_named_by_the_seat_from_one() -> None:
    """BD-2: seat 0's team (seats 0 and 3 of three teams) has conceded: the refusal speaks of seat 4 for seat 3."""
    state = create("classic-board", players=6, teams=3).initial_state().apply(Resign(), 0)
    with pytest.raises(IllegalAction, match="seat 4's team has already conceded"):
        state.apply(Resign(), 3)
