"""CM-3: the one roll-off every game opens with (board games, Dice Hold'em, PeekPoker)."""

from __future__ import annotations

import pytest

from dicepoker.core.rolloff import RollOff
from dicepoker.games.board import ZepherinGame
from dicepoker.games.board.actions import OpeningRoll
from dicepoker.games.holdem import HighRoll, HoldemGame
from dicepoker.games.peekpoker import PeekPokerGame
from dicepoker.games.peekpoker.actions import HighRoll as PeekHighRoll


def test_cm3_highest_roller_wins_once_everyone_rolled() -> None:
    rolloff = RollOff((0, 1, 2)).add(3)
    assert rolloff.settle() is rolloff and rolloff.roller == 1
    assert rolloff.add(6).add(2).settle() == 1


def test_cm3_tied_highest_roll_again_among_themselves() -> None:
    assert RollOff((0, 1, 2)).add_all((6, 2, 6)).settle() == RollOff((0, 2))


def test_cm3_rolling_all_at_once_needs_one_face_each() -> None:
    with pytest.raises(ValueError, match="one face for each"):
        RollOff((0, 1)).add_all((4,))


def test_cm5_leaving_contenders_keep_the_others_rolls() -> None:
    rolloff = RollOff((0, 1, 2)).add(5).add(4)
    assert rolloff.without({0, 2}) == RollOff((0, 2), (5,))
    assert RollOff((1, 2)).without({0, 3}) == RollOff((0, 3))
    assert rolloff.without({0}).settle() == 0


def test_cm3_every_game_settles_the_same_rolls_the_same_way() -> None:
    """Seat 0 rolls 2, seat 1 rolls 5: seat 1 starts in the board game and deals in the betting games."""
    board = ZepherinGame(players=2).initial_state().apply(OpeningRoll(2)).apply(OpeningRoll(5))
    assert board.seat == 1
    holdem = HoldemGame(players=2).initial_state().apply(HighRoll(2)).apply(HighRoll(5))
    assert holdem.dealer == 1
    peek = PeekPokerGame(players=2).initial_state().apply(PeekHighRoll((2, 5)))
    assert peek.dealer == 1
