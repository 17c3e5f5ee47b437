"""Issue 13 §5: every fast path gives what the plain reading of the rules gives, on every input where the
space is small enough to enumerate (it mostly is), and on large random samples otherwise."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement, product
from random import Random

import numpy as np
import pytest

from dicepoker.core.errors import NotationError
from dicepoker.dice import hands, poker, suited


def _slow_best(dice: tuple[suited.SuitedDie, ...]) -> int:
    """HE-9 read literally: the best :func:`five_value` over every five of the dice."""
    return max(suited.five_value(subset) for subset in combinations(dice, 5))


def test_HE_10_the_numpy_five_dice_table_equals_the_rules_read_literally_on_all_98280_multisets() -> None:
    table = suited.five_table()
    assert len(table) == 98_280
    for codes in combinations_with_replacement(range(suited.CODES), 5):
        assert table[suited._multiset_index(codes)] == suited.five_value([suited.die_of(c) for c in codes])


def test_HE_9_per_call_best_of_seven_equals_the_batch_path_on_all_2035800_multisets() -> None:
    multisets = suited._all_multisets(7)
    assert len(multisets) == 2_035_800
    batch = suited.best_values(multisets)
    lookup = suited.seven_code_value
    per_call = np.fromiter((lookup(row) for row in multisets.tolist()), dtype=np.int32, count=len(multisets))
    assert np.array_equal(per_call, batch)


def test_HE_9_best_value_equals_the_rules_read_literally_for_five_six_and_seven_dice() -> None:
    rng = Random(13)
    for size in (5, 6, 7, 7, 7):
        for _ in range(600):
            dice = tuple(suited.die_of(rng.randrange(suited.CODES)) for _ in range(size))
            assert suited.best_value(dice) == _slow_best(dice), dice
            assert suited.best_value(list(reversed(dice))) == _slow_best(dice)


def test_best_value_takes_dice_as_read_back_from_json_or_numpy() -> None:
    hand = suited.parse_suited("6r 6b 2w 3y 6w 2r 5y")
    expected = _slow_best(hand)
    assert suited.best_value([[face, int(suit)] for face, suit in hand]) == expected  # type: ignore[misc]
    assert suited.best_value([(np.int64(face), np.int64(suit)) for face, suit in hand]) == expected  # type: ignore[misc]
    assert suited.best_value(iter(hand)) == expected  # type: ignore[arg-type]
    assert suited.best_value([list(d) for d in hand[:5]]) == _slow_best(hand[:5])  # type: ignore[misc]


def test_best_value_refuses_what_is_not_five_to_seven_suited_dice() -> None:
    for bad in ([], [(6, suited.Suit.RED)] * 4, [(6, suited.Suit.RED)] * 8, [(7, suited.Suit.RED)] * 7, ["6r"] * 7):
        with pytest.raises(NotationError):
            suited.best_value(bad)  # type: ignore[arg-type]


def test_PK_9_strength_per_call_equals_the_old_path_and_the_batch_on_all_46656_ordered_rolls() -> None:
    rolls = list(product(poker.FACES, repeat=6))
    per_call = [poker.strength(roll) for roll in rolls]
    assert per_call == [poker.STRENGTHS[tuple(sorted(roll))] for roll in rolls]
    assert per_call == poker.strength_batch(np.array(rolls, dtype=np.int64)).tolist()
    assert [poker.evaluate(roll) for roll in rolls[:5000]] == [poker.HANDS[tuple(sorted(r))] for r in rolls[:5000]]
    assert poker.strength(iter(rolls[7])) == per_call[7]  # any iterable, not only sequences


@pytest.mark.parametrize(
    "bad",
    [(9,) * 5, (9,) * 7, (9,) * 12, (8, 9, 9, 9, 9, 9), (-1, 9, 9, 9, 9, 9), ("A",) * 6, (True,) * 6, None],
    ids=["five", "seven", "twelve", "eight", "negative", "text", "bools", "none"],
)
def test_strength_refuses_what_is_not_six_poker_dice(bad: object) -> None:
    with pytest.raises(NotationError):
        poker.strength(bad)  # type: ignore[arg-type]


def test_five_dice_hands_per_call_equal_the_batch_on_all_7776_rolls() -> None:
    rolls = list(product(range(1, 7), repeat=5))
    assert [int(hands.classify(roll)) for roll in rolls] == hands.classify_batch(np.array(rolls)).tolist()
