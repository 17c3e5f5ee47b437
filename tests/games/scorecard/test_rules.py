"""Rule tests for the scorecard game; each names the SC clause it checks."""

from __future__ import annotations

from random import Random

import pytest

from dicepoker.core import CHANCE, ConfigError, IllegalAction, Match, NotationError, Resign, Timeout
from dicepoker.dice.scoring import Category, score, scores
from dicepoker.games.dice_turn import DiceTurn, Reroll, Roll, Rolled
from dicepoker.games.scorecard import (
    EMPTY_CARD,
    Score,
    ScorecardGame,
    ScorecardState,
    card_total,
)

GAME = ScorecardGame()


def rolled_state(dice: tuple[int, ...], rolls: int = 1, card: tuple[int | None, ...] = EMPTY_CARD) -> ScorecardState:
    """Seat 0 to act with these dice showing after ``rolls`` rolls."""
    return ScorecardState(players=2, cards=(card, EMPTY_CARD), turn=DiceTurn(dice, rolls, ()))


def full_card(**boxes: int) -> tuple[int | None, ...]:
    card: list[int | None] = [0] * 13
    for name, value in boxes.items():
        card[Category[name.upper()]] = value
    return tuple(card)


# -- SC-1 -------------------------------------------------------------------------------------------
def test_SC_1_two_players_by_default_and_one_to_six_allowed() -> None:
    assert ScorecardGame().num_players == 2
    assert ScorecardGame(players=1).num_players == 1
    assert ScorecardGame(players=6).num_players == 6
    for bad in (0, 7, "2", True):
        with pytest.raises(ConfigError):
            ScorecardGame(players=bad)
    with pytest.raises(ConfigError, match="unknown option"):
        ScorecardGame(colour="red")


def test_SC_1_thirteen_rounds_each_player_one_turn_per_round_in_seat_order() -> None:
    match = Match(ScorecardGame(players=3), seed=1)
    order = []
    while not match.state.is_terminal:
        seat = match.state.current_seat
        assert seat is not None
        if not match.state.view(seat).dice:
            order.append(seat)
        match.act(Roll() if not match.state.view(seat).dice else match.state.legal_actions()[-1])
    assert order == [0, 1, 2] * 13
    assert all(None not in card for card in match.state.cards)


# -- SC-2 -------------------------------------------------------------------------------------------
def test_SC_2_first_roll_rolls_all_five_dice() -> None:
    state = GAME.initial_state()
    assert state.legal_actions() == [Roll()]
    rolling = state.apply(Roll())
    assert rolling.to_act is CHANCE
    outcomes = rolling.chance_outcomes()
    assert len(outcomes) == 252 and all(len(o.dice) == 5 for o, _ in outcomes)  # type: ignore[attr-defined]


def test_SC_2_reroll_chosen_positions_up_to_three_rolls() -> None:
    state = GAME.initial_state().apply(Roll()).apply(Rolled((1, 2, 3, 4, 6)))
    state = state.apply(Reroll((0, 4)))
    assert state.to_act is CHANCE
    assert {len(o.dice) for o, _ in state.chance_outcomes()} == {2}  # type: ignore[attr-defined]
    state = state.apply(Rolled((5, 5)))
    assert state.turn.dice == (5, 2, 3, 4, 5)
    state = state.apply(Reroll((1,))).apply(Rolled((6,)))  # a die kept earlier may be re-rolled
    assert state.turn.dice == (5, 6, 3, 4, 5) and state.turn.rolls == 3
    assert not any(isinstance(a, Reroll) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="no rolls left"):
        state.apply(Reroll((0,)))


def test_SC_2_may_score_after_first_or_second_roll() -> None:
    state = rolled_state((6, 6, 6, 2, 2), rolls=1)
    assert Score(Category.FULL_HOUSE) in state.legal_actions()
    assert state.apply(Score(Category.FULL_HOUSE)).cards[0][Category.FULL_HOUSE] == 25


def test_SC_2_reroll_needs_one_to_five_distinct_positions() -> None:
    with pytest.raises(NotationError):
        GAME.parse_action("reroll")
    with pytest.raises(NotationError):
        GAME.parse_action("reroll 6")
    with pytest.raises(NotationError):
        GAME.parse_action("reroll 1 1")
    assert GAME.parse_action("reroll 5 1") == Reroll((0, 4))


# -- SC-3 -------------------------------------------------------------------------------------------
def test_SC_3_must_score_exactly_one_unused_category_zero_if_nothing_fits() -> None:
    state = rolled_state((1, 2, 3, 4, 6), rolls=3)
    assert all(isinstance(a, Score) for a in state.legal_actions())
    after = state.apply(Score(Category.FIVE_KIND))
    assert after.cards[0][Category.FIVE_KIND] == 0
    assert sum(box is not None for box in after.cards[0]) == 1


def test_SC_3_used_category_can_never_be_scored_again() -> None:
    card = list(EMPTY_CARD)
    card[Category.CHANCE] = 20
    state = rolled_state((6, 6, 6, 6, 6), card=tuple(card))
    assert Score(Category.CHANCE) not in state.legal_actions()
    with pytest.raises(IllegalAction, match="already used"):
        state.apply(Score(Category.CHANCE))


def test_SC_3_cannot_score_before_rolling() -> None:
    with pytest.raises(IllegalAction, match="roll before scoring"):
        GAME.initial_state().apply(Score(Category.CHANCE))


# -- SC-4 … SC-12: the boxes ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dice", "category", "points"),
    [
        ((2, 2, 2, 5, 6), Category.TWOS, 6),
        ((1, 3, 3, 4, 3), Category.THREES, 9),
        ((6, 6, 1, 1, 1), Category.SIXES, 12),
        ((1, 2, 3, 4, 5), Category.SIXES, 0),
    ],
)
def test_SC_4_upper_boxes_sum_matching_faces(dice: tuple[int, ...], category: Category, points: int) -> None:
    assert score(dice, category) == points


def test_SC_5_upper_bonus_35_at_63_or_more() -> None:
    exactly = full_card(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert card_total(exactly) == 63 + 35
    short = full_card(ones=2, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert card_total(short) == 62


def test_SC_6_three_of_a_kind() -> None:
    assert score((4, 4, 4, 1, 2), Category.THREE_KIND) == 15
    assert score((4, 4, 4, 4, 2), Category.THREE_KIND) == 18  # at least three
    assert score((4, 4, 1, 1, 2), Category.THREE_KIND) == 0


def test_SC_7_four_of_a_kind() -> None:
    assert score((5, 5, 5, 5, 1), Category.FOUR_KIND) == 21
    assert score((5, 5, 5, 5, 5), Category.FOUR_KIND) == 25
    assert score((5, 5, 5, 1, 1), Category.FOUR_KIND) == 0


def test_SC_8_full_house_and_five_alike_is_not_one() -> None:
    assert score((2, 2, 3, 3, 3), Category.FULL_HOUSE) == 25
    assert score((3, 3, 3, 3, 3), Category.FULL_HOUSE) == 0
    assert score((2, 2, 3, 3, 4), Category.FULL_HOUSE) == 0


@pytest.mark.parametrize("dice", [(1, 2, 3, 4, 6), (2, 3, 4, 5, 5), (3, 4, 5, 6, 1), (1, 2, 3, 4, 5)])
def test_SC_9_small_straight(dice: tuple[int, ...]) -> None:
    assert score(dice, Category.SMALL_STRAIGHT) == 30


def test_SC_9_small_straight_needs_four_consecutive() -> None:
    assert score((1, 2, 3, 5, 6), Category.SMALL_STRAIGHT) == 0


def test_SC_10_large_straight() -> None:
    assert score((5, 4, 3, 2, 1), Category.LARGE_STRAIGHT) == 40
    assert score((2, 3, 4, 5, 6), Category.LARGE_STRAIGHT) == 40
    assert score((1, 2, 3, 4, 6), Category.LARGE_STRAIGHT) == 0


def test_SC_11_five_of_a_kind_once_and_no_joker() -> None:
    assert score((6, 6, 6, 6, 6), Category.FIVE_KIND) == 50
    card = list(EMPTY_CARD)
    card[Category.FIVE_KIND] = 50
    state = rolled_state((2, 2, 2, 2, 2), card=tuple(card))
    assert Score(Category.FIVE_KIND) not in state.legal_actions()
    # no joker: a second five of a kind is no straight or full house, and earns nothing extra
    assert state.apply(Score(Category.LARGE_STRAIGHT)).cards[0][Category.LARGE_STRAIGHT] == 0
    after = state.apply(Score(Category.FULL_HOUSE))
    assert card_total(after.cards[0]) == 50


def test_SC_12_chance_sums_all_dice() -> None:
    assert score((1, 2, 3, 6, 6), Category.CHANCE) == 18
    assert scores((1, 1, 3, 3, 3)) == (2, 0, 9, 0, 0, 0, 11, 0, 25, 0, 0, 0, 11)


# -- SC-13 ------------------------------------------------------------------------------------------
def _finished(card0: tuple[int | None, ...], card1: tuple[int | None, ...]) -> ScorecardState:
    return ScorecardState(players=2, cards=(card0, card1))


def test_SC_13_higher_total_wins_equal_totals_tie() -> None:
    winner = _finished(full_card(chance=30), full_card(chance=20))
    assert winner.is_terminal
    assert winner.result().winners == {0} and winner.result().scores == (30, 20)
    tie = _finished(full_card(chance=30), full_card(full_house=25, ones=5))
    assert tie.result().is_tie and tie.result().winners == {0, 1}


def test_SC_13_bonus_counts_in_total() -> None:
    with_bonus = full_card(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    state = _finished(with_bonus, full_card(chance=97))
    assert state.result().scores == (98, 97) and state.result().winners == {0}


def test_SC_13_result_only_when_over() -> None:
    with pytest.raises(IllegalAction):
        GAME.initial_state().result()


# -- SC-14 ------------------------------------------------------------------------------------------
def test_SC_14_timeout_before_rolling_rolls_once_then_scores_best_box() -> None:
    state = GAME.initial_state().apply(Timeout())
    assert state.to_act is CHANCE
    state = state.apply(Rolled((2, 3, 4, 5, 6)))
    assert state.cards[0][Category.LARGE_STRAIGHT] == 40
    assert state.current_seat == 1


def test_SC_14_timeout_after_rolling_scores_highest_box_ties_first_in_card_order() -> None:
    state = rolled_state((2, 2, 3, 3, 3), rolls=2)
    after = state.apply(Timeout())
    assert after.cards[0][Category.FULL_HOUSE] == 25
    tie = rolled_state((6, 6, 6, 6, 1), rolls=1)  # sixes 24 < four of a kind 25 == three of a kind 25
    assert tie.apply(Timeout()).cards[0][Category.THREE_KIND] == 25


def test_SC_14_timeout_applies_for_the_seat_to_act_only() -> None:
    with pytest.raises(IllegalAction, match="not seat 1's turn"):
        GAME.initial_state().apply(Timeout(), 1)


# -- SC-15 ------------------------------------------------------------------------------------------
def _timeout_turn(state: ScorecardState, dice: tuple[int, ...] = (1, 2, 3, 4, 6)) -> ScorecardState:
    return state.apply(Timeout()).apply(Rolled(dice))


def test_SC_15_neither_player_starts_game_is_a_tie() -> None:
    state = _timeout_turn(_timeout_turn(GAME.initial_state()))
    assert state.is_terminal
    result = state.result()
    assert result.is_tie and result.winners == {0, 1} and "SC-15" in result.reason


def test_SC_15_one_player_starting_means_no_early_tie() -> None:
    state = GAME.initial_state().apply(Roll()).apply(Rolled((1, 1, 1, 2, 2))).apply(Timeout())
    state = _timeout_turn(state)
    assert not state.is_terminal


def test_SC_15_only_first_turns_count() -> None:
    state = GAME.initial_state().apply(Roll()).apply(Rolled((1, 1, 1, 2, 2))).apply(Score(Category.ONES))
    state = _timeout_turn(state)
    state = _timeout_turn(state)  # seat 0's second turn idles: not an opening turn
    assert not state.is_terminal


# -- CM-4, CM-5 on this game ----------------------------------------------------------------------
def test_CM_4_illegal_action_changes_nothing() -> None:
    state = rolled_state((1, 2, 3, 4, 5))
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply(Roll())
    with pytest.raises(IllegalAction):
        state.apply(Rolled((1,)))
    assert state.to_json() == before


def test_CM_5_resigning_player_loses_two_player_game() -> None:
    state = GAME.initial_state().apply(Resign(), 1)
    assert state.is_terminal and state.result().winners == {0}


def test_CM_5_resignation_leaving_one_player_ends_the_game_at_once() -> None:
    """CM-5: even while dice are rolling, the last resignation but one ends the game."""
    state = ScorecardGame(players=3).initial_state().apply(Resign(), 2).apply(Roll())
    assert state.is_chance
    state = state.apply(Resign(), 1)
    assert state.is_terminal and state.result().winners == {0}


def test_CM_5_resigned_player_is_skipped_in_bigger_games() -> None:
    game = ScorecardGame(players=3)
    match = Match(game, seed=2)
    match.act(Resign(), 0)
    assert match.state.current_seat == 1
    rng = Random(0)
    while not match.state.is_terminal:
        assert match.state.current_seat != 0
        legal = match.state.legal_actions()
        match.act(legal[rng.randrange(len(legal))])
    assert 0 not in match.state.result().winners


# -- SC-15 for any number of players ----------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 6])
def test_SC_15_every_players_idle_first_turn_ends_the_game_as_a_tie(players: int) -> None:
    """SC-15 [decision] for 1 to 6 players: the game ends at once after the last idle first turn."""
    state = ScorecardGame(players=players).initial_state()
    for seat in range(players):
        assert not state.is_terminal and state.to_act == (seat,)
        state = _timeout_turn(state)
    assert state.is_terminal and "SC-15" in state.result().reason
    result = state.result()
    assert result.is_tie
    assert result.winners == (frozenset(range(players)) if players > 1 else frozenset())


def test_SC_15_one_of_three_starting_means_no_early_tie() -> None:
    state = _timeout_turn(_timeout_turn(ScorecardGame(players=3).initial_state()))
    state = state.apply(Roll()).apply(Rolled((1, 1, 1, 2, 2))).apply(Timeout())
    assert not state.is_terminal and state.to_act == (0,)


def test_SC_15_counts_the_players_still_in_the_game() -> None:
    """A resigned player's first turn does not keep SC-15 from ending the game of the others."""
    state = ScorecardGame(players=3).initial_state().apply(Resign(), 1)
    state = _timeout_turn(state)
    assert state.to_act == (2,)
    state = _timeout_turn(state)
    assert state.is_terminal and state.result().winners == {0, 2}
    late = _timeout_turn(_timeout_turn(ScorecardGame(players=3).initial_state())).apply(Resign(), 2)
    assert late.is_terminal and late.result().winners == {0, 1} and "SC-15" in late.result().reason
