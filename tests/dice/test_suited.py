"""Suited dice: notation, the HE-10 ranking, HE-11 tie-breaks, best five of seven (HE-9), batch = scalar."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicepoker.core.errors import NotationError
from dicepoker.dice.suited import (
    HandCategory,
    Suit,
    best_value,
    best_values,
    category_of,
    code,
    describe,
    die_of,
    five_value,
    format_suited,
    parse_suited,
)


def value(text: str) -> int:
    return best_value(parse_suited(text))


def test_notation_round_trips_and_errors_are_clear() -> None:
    dice = parse_suited("6r 6b 2w 3y")
    assert dice == ((6, Suit.RED), (6, Suit.BLACK), (2, Suit.WHITE), (3, Suit.YELLOW))
    assert format_suited(dice) == "6r 6b 2w 3y"
    assert parse_suited("6R,6b") == ((6, Suit.RED), (6, Suit.BLACK))
    for bad, reason in (("6g", "not a suited die"), ("0r", "not a suited die"), ("6r 6b", "expected 3")):
        with pytest.raises(NotationError, match=reason):
            parse_suited(bad, count=3)
    with pytest.raises(NotationError, match="holds only 5"):
        parse_suited("1r 2r 3r 4r 5r 6r")


def test_codes_round_trip() -> None:
    for c in range(24):
        assert code(die_of(c)) == c


@pytest.mark.parametrize(
    ("dice", "category"),
    [
        ("3r 3r 3r 3r 3r", HandCategory.YAHTZEE_FLUSH),
        ("1b 2b 3b 4b 5b", HandCategory.STRAIGHT_FLUSH),
        ("3r 3b 3r 3w 3y", HandCategory.YAHTZEE),
        ("1w 1w 4w 6w 6w", HandCategory.FLUSH),
        ("4r 4b 4w 4y 2r", HandCategory.FOUR_KIND),
        ("2r 3b 4w 5y 6r", HandCategory.STRAIGHT),
        ("4r 4b 4w 3y 3r", HandCategory.FULL_HOUSE),
        ("4r 4b 4w 3y 1r", HandCategory.THREE_KIND),
        ("4r 4b 3w 3y 1r", HandCategory.TWO_PAIR),
        ("4r 4b 3w 2y 1r", HandCategory.ONE_PAIR),
        ("6r 4b 3w 2y 1r", HandCategory.HIGH_DICE),
    ],
)
def test_HE_10_categories(dice: str, category: HandCategory) -> None:
    """HE-10: each category is recognised."""
    assert category_of(value(dice)) is category


def test_HE_10_ranking_order() -> None:
    """HE-10: Yahtzee flush > straight flush > Yahtzee > flush > four > straight > full house > … > high dice."""
    ladder = [
        "3r 3r 3r 3r 3r",
        "1b 2b 3b 4b 5b",
        "6r 6b 6r 6w 6y",
        "1w 1w 4w 6w 6w",
        "6r 6b 6w 6y 5r",
        "2r 3b 4w 5y 6r",
        "6r 6b 6w 5y 5r",
        "6r 6b 6w 5y 4r",
        "6r 6b 5w 5y 4r",
        "6r 6b 5w 4y 3r",
        "6r 5b 4w 3y 1r",
    ]
    values = [value(d) for d in ladder]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


def test_HE_11_full_house_tiebreak() -> None:
    """HE-11: full house 4-4-4-3-3 beats 2-2-2-6-6."""
    assert value("4r 4b 4w 3y 3r") > value("2r 2b 2w 6y 6r")


def test_HE_11_straight_2_to_6_beats_1_to_5() -> None:
    assert value("2r 3b 4w 5y 6r") > value("1r 2b 3w 4y 5r")


def test_HE_11_kickers_then_suits_then_split() -> None:
    """HE-11: other dice of the five next, highest first; then more dice of one suit; then a tie."""
    assert value("5r 5b 6w 2y 1r") > value("5w 5y 4w 3y 2r")
    same_faces_more_suited = value("5r 5r 6r 2y 1b")
    assert same_faces_more_suited > value("5r 5b 6w 2y 1r")
    assert value("5r 5b 6w 2y 1r") == value("5w 5y 6r 2b 1w")


def test_HE_9_best_five_of_seven_may_be_the_board_alone() -> None:
    """HE-9: the best five of seven; the five community dice alone may be the hand."""
    board = "2r 3b 4w 5y 6r"
    assert value("1b 1w " + board) == value(board)
    assert describe(value("6r 6b 2w 3y 6w 2r 5y")) == "full house 6 6 6 2 2"


def test_best_of_seven_picks_the_most_suited_five() -> None:
    """HE-11's suit tie-break chooses among equal-faced fives: six 3s of which five are red … not possible;
    four red 3s and two other 3s: Yahtzee with four red is better than with three."""
    hand = parse_suited("3r 3r 3r 3r 3b 3w 1y")
    assert value("3r 3r 3r 3r 3b") == best_value(hand)


seven_dice = st.lists(st.integers(0, 23), min_size=7, max_size=7)


@settings(max_examples=200, deadline=None)
@given(codes=seven_dice)
def test_table_agrees_with_brute_force_and_batch(codes: list[int]) -> None:
    dice = [die_of(c) for c in codes]
    brute = max(five_value(five) for five in combinations(dice, 5))
    assert best_value(dice) == brute
    assert int(best_values(np.array([codes]))[0]) == brute
