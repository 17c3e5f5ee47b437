from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicepoker.core import NotationError
from dicepoker.dice import PokerHand, classify, classify_batch, hand_counts, outcomes, parse_dice
from dicepoker.dice.standard import multiset_probability


def counter_classifier(dice: tuple[int, ...]) -> PokerHand:
    """An independent reference: the way a person reads the hand."""
    shape = sorted(Counter(dice).values(), reverse=True)
    if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]):
        return PokerHand.STRAIGHT
    return {
        (5,): PokerHand.FIVE_KIND,
        (4, 1): PokerHand.FOUR_KIND,
        (3, 2): PokerHand.FULL_HOUSE,
        (3, 1, 1): PokerHand.THREE_KIND,
        (2, 2, 1): PokerHand.TWO_PAIRS,
        (2, 1, 1, 1): PokerHand.ONE_PAIR,
    }.get(tuple(shape), PokerHand.NOTHING)


def test_classify_agrees_with_reference_on_all_7776_rolls() -> None:
    rolls = list(product(range(1, 7), repeat=5))
    assert [classify(r) for r in rolls] == [counter_classifier(r) for r in rolls]
    assert classify_batch(np.array(rolls)).tolist() == [int(counter_classifier(r)) for r in rolls]


def test_classify_accepts_lists_and_rejects_bad_dice() -> None:
    assert classify([6, 6, 6, 6, 6]) is PokerHand.FIVE_KIND  # type: ignore[arg-type]
    for bad in [(1, 2, 3), (0, 1, 2, 3, 4), (1, 2, 3, 4, 7), None]:
        with pytest.raises(NotationError):
            classify(bad)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        classify_batch([[1, 2, 3, 4, 7]])
    with pytest.raises(NotationError):
        classify_batch([1, 2, 3, 4, 5])


def test_DI_1_hand_probabilities_are_exact() -> None:
    counts = {hand: p * 7776 for hand, p in hand_counts().items()}
    assert counts == {
        PokerHand.FIVE_KIND: 6,
        PokerHand.FOUR_KIND: 150,
        PokerHand.FULL_HOUSE: 300,
        PokerHand.STRAIGHT: 240,
        PokerHand.THREE_KIND: 1200,
        PokerHand.TWO_PAIRS: 1800,
        PokerHand.ONE_PAIR: 3600,
        PokerHand.NOTHING: 480,
    }


def test_DI_1_outcomes_are_multisets_with_exact_probabilities() -> None:
    for count in range(1, 6):
        table = outcomes(count)
        assert sum(p for _, p in table) == 1
        assert len(table) == len({dice for dice, _ in table})
    assert multiset_probability((1, 1, 2)) == Fraction(3, 216)


def test_parse_dice_forms_and_errors() -> None:
    assert parse_dice("1 1 3 3 3") == (1, 1, 3, 3, 3)
    assert parse_dice("1,1,3,3,3") == (1, 1, 3, 3, 3)
    assert parse_dice("11333") == (1, 1, 3, 3, 3)
    with pytest.raises(NotationError, match="expected 5 dice"):
        parse_dice("1 2 3")
    with pytest.raises(NotationError, match="not a die face"):
        parse_dice("1 2 3 4 x")


@given(st.lists(st.integers(1, 6), min_size=5, max_size=5))
def test_property_classify_ignores_order(dice: list[int]) -> None:
    assert classify(tuple(dice)) == classify(tuple(sorted(dice)))
