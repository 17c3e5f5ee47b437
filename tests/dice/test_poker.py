"""Poker dice (DI-2) and six-dice PeekPoker hands (PK-9, PK-10), checked against tables of examples."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicepoker.core.errors import NotationError
from dicepoker.dice.poker import (
    FACES,
    HANDS,
    RANKED_KEYS,
    Colour,
    Face,
    HandCategory,
    category_probabilities,
    describe,
    evaluate,
    format_dice,
    outcomes,
    parse_dice,
    strength,
    strength_batch,
)

C = HandCategory


def test_DI_2_faces_ranks_and_colours() -> None:
    """DI-2: faces 9, 10, J, Q, K, A ranked in that order; 9 and K red, 10 and Q black, J and A green."""
    assert [f.symbol for f in FACES] == ["9", "T", "J", "Q", "K", "A"]
    assert sorted(FACES) == list(FACES)
    colours = {f.symbol: f.colour for f in FACES}
    assert colours == {
        "9": Colour.RED,
        "K": Colour.RED,
        "T": Colour.BLACK,
        "Q": Colour.BLACK,
        "J": Colour.GREEN,
        "A": Colour.GREEN,
    }


def test_DI_2_faces_equally_likely() -> None:
    """DI-2: each face 1/6; multisets of n dice carry their exact multinomial probability."""
    assert outcomes(1) == tuple(((f,), Fraction(1, 6)) for f in FACES)
    for count in range(1, 7):
        assert sum(p for _, p in outcomes(count)) == 1
    assert dict(outcomes(2))[(Face.NINE, Face.ACE)] == Fraction(2, 36)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9 T J Q K A", "9 T J Q K A"),
        ("9tjqka", "9 T J Q K A"),
        ("10, j, 10", "T J T"),
        ("A10K", "A T K"),
        ("", ""),
    ],
)
def test_notation_round_trips(text: str, expected: str) -> None:
    dice = parse_dice(text)
    assert format_dice(dice) == expected
    assert parse_dice(format_dice(dice)) == dice


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A A 8", "'8' is not a poker-die face"),
        ("1 2 3", "'1' is not a poker-die face"),
        ("AKX", "'X' is not a poker-die face"),
        ("A+K", r"'\+' is not a poker-die face"),
    ],
)
def test_notation_errors_are_clear(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_dice(text)


def test_notation_counts_dice() -> None:
    with pytest.raises(NotationError, match="expected 3 poker dice, got 2"):
        parse_dice("A K", count=3)
    with pytest.raises(NotationError, match="6 dice"):
        evaluate(parse_dice("A K Q"))


# (dice, category, tie-break ranks): the PK-9 categories with their PK-10 keys.
CATEGORY_TABLE = [
    ("A A A A A A", C.FIVE_KIND, "A"),
    ("9 9 9 9 9 K", C.FIVE_KIND, "9"),  # five of a kind outranks the red flush it also is
    ("K K K 9 9 9", C.FLUSH, "K K K 9 9 9"),  # also two trips: flush outranks full house
    ("T Q Q T T T", C.FLUSH, "Q Q T T T T"),  # also four of a kind
    ("9 T J Q K A", C.LARGE_STRAIGHT, ""),
    ("T J Q K A A", C.STRAIGHT, ""),  # a pair of aces as well
    ("T J Q K A T", C.STRAIGHT, ""),
    ("9 J Q K A T", C.LARGE_STRAIGHT, ""),
    ("Q Q Q Q K K", C.FOUR_KIND, "Q K"),
    ("Q Q Q Q 9 J", C.FOUR_KIND, "Q J"),
    ("J J J 9 9 A", C.FULL_HOUSE, "J 9"),
    ("J J J A A A", C.FULL_HOUSE, "A J"),  # two trips: the higher is the three
    ("Q Q Q 9 T A", C.THREE_KIND, "Q A T"),
    ("K K Q Q 9 9", C.TWO_PAIRS, "K Q 9"),  # three pairs: the lowest pair gives the kicker
    ("K K 9 9 T A", C.TWO_PAIRS, "K 9 A"),
    ("9 9 T J Q K", C.PAIR, "9 K Q J"),
    ("A A 9 T J Q", C.PAIR, "A Q J T"),
]


@pytest.mark.parametrize(("text", "category", "ranks"), CATEGORY_TABLE)
def test_PK_9_categories_and_PK_10_keys(text: str, category: HandCategory, ranks: str) -> None:
    """PK-9: six dice, ranked five of a kind > flush > large straight > straight > four > full house > three >
    two pairs > pair. PK-10: the combination's dice, then the best remaining dice of a five-dice hand."""
    key = evaluate(parse_dice(text))
    assert key.category is category
    assert key.ranks == parse_dice(ranks)
    assert describe(key)


def test_PK_9_order_of_categories() -> None:
    """PK-9: each category of the table beats every hand of a lower category."""
    keys = [evaluate(parse_dice(text)) for text, _, _ in CATEGORY_TABLE]
    for a, b in product(keys, keys):
        if a.category > b.category:
            assert a > b and strength(a_dice(a)) > strength(a_dice(b))


def a_dice(key: object) -> tuple[Face, ...]:
    return next(d for d, k in HANDS.items() if k == key)


# (better, worse) or (equal, equal) pairs by PK-10.
TIE_TABLE = [
    ("A A A A A K", "K K K K K K", ">"),
    ("A A A A A K", "A A A A A A", "="),  # five of a kind: only the five count
    ("K K K K 9 9", "Q Q Q Q Q 9", "<"),  # five of a kind beats a flush
    ("K K K 9 9 9", "K K 9 9 9 9", ">"),  # flush compares all six dice, highest first
    ("Q Q T T T T", "K 9 9 9 9 9", "<"),
    ("9 T J Q K A", "A K Q J T 9", "="),
    ("T J Q K A A", "T J Q K A 9", "<"),  # a six-dice large straight beats the plain straight
    ("T J Q K A A", "T J Q K A T", "="),  # straights: no kickers beyond the five
    ("A A A A 9 9", "K K K K A A", ">"),
    ("Q Q Q Q A 9", "Q Q Q Q K K", ">"),  # four of a kind: then the best remaining die
    ("Q Q Q Q 9 9", "Q Q Q Q 9 J", "<"),
    ("K K K 9 9 A", "Q Q Q A A A", "<"),  # the higher three decides
    ("K K K 9 9 A", "K K K T T 9", "<"),  # same three: the pair decides
    ("J J J 9 T A", "J J J 9 Q K", ">"),  # three of a kind: the two best remaining dice
    ("J J J 9 T A", "J J J 9 T A", "="),
    ("K K Q Q 9 9", "K K Q Q A 9", "<"),
    ("K K Q Q 9 A", "K K Q Q A 9", "="),
    ("A A 9 9 T J", "K K Q Q J T", ">"),  # two pairs: the higher pair first
    ("A A T T 9 J", "A A 9 9 Q K", ">"),  # then the lower pair
    ("9 9 T J Q K", "9 9 T J Q A", "<"),
    ("9 9 T J Q K", "9 9 A J Q K", "<"),  # pair: the best three remaining dice
    ("A A 9 T J Q", "A A 9 T J K", "<"),
    ("A A 9 T J K", "A A T 9 J K", "="),
]


@pytest.mark.parametrize(("left", "right", "order"), TIE_TABLE)
def test_PK_10_tie_breaks(left: str, right: str, order: str) -> None:
    """PK-10: within a category compare the combination's dice, then the best remaining dice of a
    five-dice hand; flush compares all six; still equal splits the pot."""
    a, b = evaluate(parse_dice(left)), evaluate(parse_dice(right))
    sa, sb = strength(parse_dice(left)), strength(parse_dice(right))
    if order == ">":
        assert a > b and sa > sb
    elif order == "<":
        assert a < b and sa < sb
    else:
        assert a == b and sa == sb


def test_PK_9_every_hand_has_a_category_and_the_table_is_exact() -> None:
    """PK-9 over all 462 multisets: six dice on six faces always make at least a pair or a large straight."""
    assert len(HANDS) == 462
    probabilities = category_probabilities()
    assert sum(probabilities.values()) == 1
    # Hand counts over the 46,656 ordered rolls, checked independently by brute force.
    counts: Counter[HandCategory] = Counter()
    for ordered in product(FACES, repeat=6):
        counts[evaluate(ordered).category] += 1
    assert {c: Fraction(n, 6**6) for c, n in counts.items()} == probabilities
    assert counts[C.LARGE_STRAIGHT] == 720
    assert counts[C.FLUSH] == 100  # 2 colours x (64 two-face rolls - 14 with five or six alike)
    assert counts[C.FIVE_KIND] == 6 * (1 + 6 * 5)


def test_strengths_order_keys() -> None:
    assert list(RANKED_KEYS) == sorted(RANKED_KEYS)
    for dice, key in HANDS.items():
        assert RANKED_KEYS[strength(dice)] == key


@given(st.lists(st.lists(st.sampled_from([int(f) for f in FACES]), min_size=6, max_size=6), max_size=20))
def test_strength_batch_matches_scalar(rolls: list[list[int]]) -> None:
    array = np.array(rolls, dtype=np.int64).reshape(len(rolls), 6)
    assert strength_batch(array).tolist() == [strength(Face(d) for d in roll) for roll in rolls]


def test_strength_batch_rejects_bad_input() -> None:
    with pytest.raises(NotationError):
        strength_batch([[9, 9, 9]])
    with pytest.raises(NotationError):
        strength_batch([[8, 9, 9, 9, 9, 9]])
