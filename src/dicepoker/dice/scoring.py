"""Scorecard scoring (SC-4 … SC-12): what five dice score in each of the 13 categories.

A ``(252, 13)`` table over the sorted multisets backs both the one-roll lookup and the solver.
"""

from __future__ import annotations

import enum
from collections import Counter

import numpy as np
import numpy.typing as npt

from dicepoker.core.errors import NotationError
from dicepoker.core.notation import is_ascii_number, quote
from dicepoker.dice.standard import ROLL_INDEX, ROLLS, Dice

UPPER_BONUS = 35
UPPER_BONUS_THRESHOLD = 63


class Category(enum.IntEnum):
    """The 13 boxes of the card, in card order."""

    ONES = 0
    TWOS = 1
    THREES = 2
    FOURS = 3
    FIVES = 4
    SIXES = 5
    THREE_KIND = 6
    FOUR_KIND = 7
    FULL_HOUSE = 8
    SMALL_STRAIGHT = 9
    LARGE_STRAIGHT = 10
    FIVE_KIND = 11
    CHANCE = 12

    @property
    def slug(self) -> str:
        """The name used in action text: ``score full-house``."""
        return self.name.lower().replace("_", "-")

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def is_upper(self) -> bool:
        return self <= Category.SIXES

    @property
    def face(self) -> int:
        """The face an upper box counts (1 for Ones …)."""
        if not self.is_upper:
            raise ValueError(f"{self.label} is not an upper-section box")
        return int(self) + 1

    @classmethod
    def parse(cls, text: str) -> Category:
        """A category from its slug, its label, or its 1-based number on the card.

        >>> Category.parse("full-house"), Category.parse("13"), Category.parse("Small straight")
        (<Category.FULL_HOUSE: 8>, <Category.CHANCE: 12>, <Category.SMALL_STRAIGHT: 9>)
        """
        key = text.strip().lower().replace(" ", "-").replace("_", "-")
        if is_ascii_number(key) and 1 <= int(key) <= len(cls):
            return cls(int(key) - 1)
        for category in cls:
            if key in (category.slug, _LABELS[category].lower().replace(" ", "-")):
                return category
        names = ", ".join(c.slug for c in cls)
        raise NotationError(f"unknown category {quote(text)}; categories: {names} (or 1-13)")


_LABELS = {
    Category.ONES: "Ones",
    Category.TWOS: "Twos",
    Category.THREES: "Threes",
    Category.FOURS: "Fours",
    Category.FIVES: "Fives",
    Category.SIXES: "Sixes",
    Category.THREE_KIND: "Three of a kind",
    Category.FOUR_KIND: "Four of a kind",
    Category.FULL_HOUSE: "Full house",
    Category.SMALL_STRAIGHT: "Small straight",
    Category.LARGE_STRAIGHT: "Large straight",
    Category.FIVE_KIND: "Five of a kind",
    Category.CHANCE: "Chance",
}

_SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})


def _score_slow(dice: Dice, category: Category) -> int:
    counts = Counter(dice)
    most = max(counts.values())
    total = sum(dice)
    if category.is_upper:
        return category.face * counts[category.face]
    if category is Category.THREE_KIND:
        return total if most >= 3 else 0
    if category is Category.FOUR_KIND:
        return total if most >= 4 else 0
    if category is Category.FULL_HOUSE:
        return 25 if sorted(counts.values()) == [2, 3] else 0
    if category is Category.SMALL_STRAIGHT:
        return 30 if any(run <= counts.keys() for run in _SMALL_RUNS) else 0
    if category is Category.LARGE_STRAIGHT:
        return 40 if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) else 0
    if category is Category.FIVE_KIND:
        return 50 if most == 5 else 0
    return total


SCORE_TABLE: npt.NDArray[np.int16] = np.array(
    [[_score_slow(dice, category) for category in Category] for dice in ROLLS], dtype=np.int16
)
"""``SCORE_TABLE[roll_index, category]`` for the 252 sorted rolls of :data:`ROLLS`."""

_SCORES_BY_SORTED: dict[Dice, tuple[int, ...]] = {
    dice: tuple(int(x) for x in SCORE_TABLE[i]) for dice, i in ROLL_INDEX.items()
}


def scores(dice: Dice) -> tuple[int, ...]:
    """What five dice would score in each category, in card order.

    >>> scores((1, 1, 3, 3, 3))
    (2, 0, 9, 0, 0, 0, 11, 0, 25, 0, 0, 0, 11)
    """
    try:
        return _SCORES_BY_SORTED[tuple(sorted(dice))]
    except (KeyError, TypeError):
        raise NotationError(f"expected five dice showing 1 to 6, got {dice!r}") from None


def score(dice: Dice, category: Category) -> int:
    """Example:

    >>> score((2, 3, 4, 5, 5), Category.SMALL_STRAIGHT)
    30
    """
    return scores(dice)[category]
