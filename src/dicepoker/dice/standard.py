"""Standard dice (DI-1): faces 1-6, equally likely; notation and exact roll outcomes.

Rolls of several dice are enumerated as multisets (five dice: 252 outcomes, not 7,776 ordered
rolls), each with its exact multinomial probability.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

from dicepoker.core.errors import NotationError
from dicepoker.core.notation import is_ascii_number, quote

FACES = (1, 2, 3, 4, 5, 6)
Dice = tuple[int, ...]


def parse_dice(text: str, count: int | None = 5) -> Dice:
    """Read dice written as faces separated by spaces or commas (``"1 1 3 3 3"``, ``"11333"``).

    >>> parse_dice("6 1 3 3 3")
    (6, 1, 3, 3, 3)
    >>> parse_dice("1 1 7 3 3")
    Traceback (most recent call last):
    ...
    dicepoker.core.errors.NotationError: '7' is not a die face: standard dice show 1 to 6
    """
    cleaned = text.replace(",", " ").split()
    if len(cleaned) == 1 and len(cleaned[0]) > 1 and cleaned[0].isascii() and cleaned[0].isdigit():
        cleaned = list(cleaned[0])
    dice = []
    for word in cleaned:
        if not is_ascii_number(word) or not 1 <= int(word) <= 6:
            raise NotationError(f"{quote(word)} is not a die face: standard dice show 1 to 6")
        dice.append(int(word))
    if count is not None and len(dice) != count:
        raise NotationError(f"expected {count} dice, got {len(dice)}: {quote(text)}")
    return tuple(dice)


def format_dice(dice: Dice) -> str:
    """Example:

    >>> format_dice((1, 1, 3, 3, 3))
    '1 1 3 3 3'
    """
    return " ".join(str(d) for d in dice)


def multiset_probability(dice: Dice) -> Fraction:
    """Probability that rolling ``len(dice)`` dice shows exactly this multiset."""
    ways = factorial(len(dice))
    for face in set(dice):
        ways //= factorial(dice.count(face))
    return Fraction(ways, 6 ** len(dice))


@cache
def outcomes(count: int) -> tuple[tuple[Dice, Fraction], ...]:
    """All multisets of ``count`` dice (sorted ascending) with their exact probabilities.

    >>> len(outcomes(5)), sum(p for _, p in outcomes(5))
    (252, Fraction(1, 1))
    """
    return tuple((combo, multiset_probability(combo)) for combo in combinations_with_replacement(FACES, count))


ROLLS: tuple[Dice, ...] = tuple(dice for dice, _ in outcomes(5))
"""The 252 sorted five-dice multisets, in a fixed order used by every table."""

ROLL_INDEX: dict[Dice, int] = {dice: i for i, dice in enumerate(ROLLS)}
