"""CM-1: seats are numbered 0..n-1, and "to the left" / "clockwise" is the next seat number, wrapping."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dicepoker.core import CHANCE, Match
from dicepoker.dice.scoring import Category
from dicepoker.games.board.actions import Forfeit
from dicepoker.games.board.rules import ClassicBoardGame
from dicepoker.games.dice_turn import DiceTurn, Roll, Rolled
from dicepoker.games.holdem import HoldemGame
from dicepoker.games.peekpoker import PeekPokerGame
from dicepoker.games.registry import create, names
from dicepoker.games.scorecard import Score, ScorecardGame


@pytest.mark.parametrize("name", names())
def test_CM_1_seats_are_numbered_from_0(name: str) -> None:
    game = create(name)
    match = Match(game, seed=1)
    to_act = match.state.to_act
    assert to_act is not CHANCE and set(to_act) <= set(range(game.num_players))
    for seat in range(game.num_players):
        match.state.view(seat)


def test_CM_1_scorecard_turns_pass_to_the_next_seat_and_wrap() -> None:
    state = ScorecardGame(players=3).initial_state()
    seen = []
    for category in (Category.ONES, Category.ONES, Category.ONES, Category.TWOS):
        seen.append(state.current_seat)
        state = state.apply(Roll()).apply(Rolled((1, 2, 3, 4, 5))).apply(Score(category))
    assert seen == [0, 1, 2, 0]


def test_CM_1_board_play_passes_to_the_next_seat_and_wraps() -> None:
    state = replace(ClassicBoardGame(players=3).initial_state(), opening=None, seat=2)
    state = replace(state, turn=DiceTurn((1, 2, 3, 4, 6), 1, ())).apply(Forfeit())
    assert state.to_act == (0,)


def test_CM_1_holdem_acts_from_the_dealers_left_and_the_deal_wraps() -> None:
    game = HoldemGame(players=3, stack=100)
    state = game.initial_state()
    for text in ("highroll 1", "highroll 1", "highroll 6", *(f"draw 1{s}" for s in "rbwyrb"), "bet 10", "fold", "fold"):
        state = state.apply(game.parse_action(text))
    assert state.dealer == 0 and state.betting is not None and state.betting.order == (1, 2, 0)


def test_CM_1_peekpoker_acts_from_the_dealers_left_and_the_deal_wraps() -> None:
    game = PeekPokerGame(players=3)
    state = game.initial_state()
    for text in ("high-roll 1 1 6", "rolled 9 9 9", "rolled T T T", "rolled J J J", "bet 5", "fold", "fold"):
        state = state.apply(game.parse_action(text))
    assert state.dealer == 0 and state.betting is not None and state.betting.order == (1, 2, 0)
