"""The scorecard clauses RULES.md gained or extended: SC-14 (box value only), SC-15 (one player: no winner),
CM-5 (a resigner's total stays in the scores, never a winner) and CM-7 (leaving is resigning, at any time)."""

from __future__ import annotations

from dicepoker.core import CHANCE, Resign, Timeout
from dicepoker.dice.scoring import Category
from dicepoker.games.dice_turn import DiceTurn, Roll, Rolled
from dicepoker.games.scorecard import EMPTY_CARD, Score, ScorecardGame, ScorecardState, card_total


def card(**boxes: int) -> tuple[int | None, ...]:
    """A card with only these boxes filled."""
    filled: list[int | None] = list(EMPTY_CARD)
    for name, value in boxes.items():
        filled[Category[name.upper()]] = value
    return tuple(filled)


def all_but(open_box: str, value: int = 0) -> tuple[int | None, ...]:
    """A card with every box filled with ``value`` except ``open_box``."""
    filled: list[int | None] = [value] * len(Category)
    filled[Category[open_box.upper()]] = None
    return tuple(filled)


# -- SC-14 ------------------------------------------------------------------------------------------
def test_SC_14_timeout_scores_the_box_value_only_not_an_upper_bonus_it_would_complete() -> None:
    """SC-14 [decision]: 3-3-3-6-6 in Threes (9) would complete the upper bonus (+35 = 44), but the default
    compares box values only, so it scores the Full House (25)."""
    upper_54 = card(ones=3, twos=6, fours=12, fives=15, sixes=18)
    state = ScorecardState(players=1, cards=(upper_54,), turn=DiceTurn((3, 3, 3, 6, 6), 1, ()))
    after = state.apply(Timeout())
    assert after.cards[0][Category.FULL_HOUSE] == 25 and after.cards[0][Category.THREES] is None
    # Scoring the Threes by hand would have been worth more in total: the default does not look at that.
    by_hand = state.apply(Score(Category.THREES))
    assert card_total(by_hand.cards[0]) - card_total(upper_54) == 44 > 25


# -- SC-15 ------------------------------------------------------------------------------------------
def test_SC_15_a_one_player_game_ended_by_its_idle_first_turn_has_no_winner() -> None:
    """SC-15 [decision]: one player whose first turn ends by timeout with no action: the game ends, no winner."""
    state = ScorecardGame(players=1).initial_state().apply(Timeout())
    assert state.to_act is CHANCE
    state = state.apply(Rolled((6, 6, 6, 6, 6)))
    assert state.is_terminal
    result = state.result()
    assert result.winners == frozenset() and "SC-15" in result.reason
    assert result.scores == (50,)


# -- CM-5 / CM-7 ------------------------------------------------------------------------------------
def test_CM_5_a_resigners_total_stays_in_the_scores_but_never_wins() -> None:
    """CM-5 [decision]: seat 0 leads by far and resigns off turn; the other two finish; seat 0's total is in
    the final scores, and the best of the others wins."""
    leader = card(chance=30, large_straight=40, five_kind=50)
    cards = (leader, all_but("chance"), all_but("chance"))
    state = ScorecardState(players=3, cards=cards, seat=1, turn=DiceTurn((1, 1, 2, 2, 3), 1, ()))
    state = state.apply(Resign(), 0)
    assert not state.is_terminal and state.to_act == (1,)
    state = state.apply(Score(Category.CHANCE))
    assert state.to_act == (2,)  # seat 0's turn is skipped
    state = state.apply(Roll()).apply(Rolled((5, 6, 6, 6, 6))).apply(Score(Category.CHANCE))
    assert state.is_terminal
    result = state.result()
    assert result.scores == (120, 9, 29)
    assert result.winners == frozenset({2})


def test_CM_7_leaving_is_resigning_at_any_time_even_while_the_dice_roll() -> None:
    """CM-7: a seat may leave off turn, or while the player to act's dice are in the air."""
    state = ScorecardGame(players=3).initial_state().apply(Roll())
    assert state.is_chance
    state = state.apply(Resign(), 2)  # off turn, at a chance node
    assert state.is_chance and state.resigned == frozenset({2})
    state = state.apply(Rolled((1, 2, 3, 4, 5))).apply(Score(Category.LARGE_STRAIGHT))
    assert state.to_act == (1,)
    state = state.apply(Resign(), 1)  # the player to act leaves: one player left, the game ends
    assert state.is_terminal and state.result().winners == frozenset({0})
