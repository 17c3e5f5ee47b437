"""Poker-dice hands of five standard dice, classified by table lookup.

Every one of the 7,776 ordered rolls is classified once, on first use; a call is then one dict lookup,
and a batch is one NumPy gather over a base-6 code.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from functools import cache
from itertools import product
from typing import TYPE_CHECKING

from dicepoker.core.errors import NotationError
from dicepoker.dice.standard import Dice, outcomes

if TYPE_CHECKING:  # NumPy is imported where tables are used: ``dicepoker --help`` never loads it
    import numpy as np
    import numpy.typing as npt


class PokerHand(enum.IntEnum):
    """Poker-dice hands of five dice, ranked high to low as in BD-5 (value: higher is better)."""

    NOTHING = 0
    ONE_PAIR = 1
    TWO_PAIRS = 2
    THREE_KIND = 3
    STRAIGHT = 4
    FULL_HOUSE = 5
    FOUR_KIND = 6
    FIVE_KIND = 7

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").lower().replace("kind", "of a kind")


def _classify_slow(dice: Dice) -> PokerHand:
    counts = sorted(Counter(dice).values(), reverse=True)
    if counts[0] == 5:
        return PokerHand.FIVE_KIND
    if counts[0] == 4:
        return PokerHand.FOUR_KIND
    if counts == [3, 2]:
        return PokerHand.FULL_HOUSE
    if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]):
        return PokerHand.STRAIGHT
    if counts[0] == 3:
        return PokerHand.THREE_KIND
    if counts[:2] == [2, 2]:
        return PokerHand.TWO_PAIRS
    if counts[0] == 2:
        return PokerHand.ONE_PAIR
    return PokerHand.NOTHING


_PLACE = (6**4, 6**3, 6**2, 6, 1)
_hand_by_dice: dict[Dice, PokerHand] = {}
"""Every ordered roll and its hand, filled on first use (~30 ms) so that importing this module is cheap."""


@cache
def _hand_codes() -> npt.NDArray[np.int8]:
    """Hands of the 7,776 ordered rolls by base-6 code (the ``product`` order), for batches."""
    import numpy as np

    _fill()
    return np.array([int(_hand_by_dice[dice]) for dice in product(range(1, 7), repeat=5)], dtype=np.int8)


def _fill() -> dict[Dice, PokerHand]:
    if not _hand_by_dice:
        _hand_by_dice.update({dice: _classify_slow(dice) for dice in product(range(1, 7), repeat=5)})
    return _hand_by_dice


def classify(dice: Dice) -> PokerHand:
    """The poker-dice hand of five dice, in any order.

    >>> classify((3, 1, 3, 1, 3))
    <PokerHand.FULL_HOUSE: 5>
    >>> classify((2, 3, 4, 5, 6)).label
    'straight'
    """
    try:
        return (_hand_by_dice or _fill())[dice]
    except (KeyError, TypeError):
        return _fill()[_validated(dice)]


def _validated(dice: object) -> Dice:
    if not isinstance(dice, Iterable):
        raise NotationError(f"expected five dice, got {dice!r}")
    try:
        values = tuple(dice)
    except TypeError:
        raise NotationError(f"expected five dice, got {dice!r}") from None
    if len(values) != 5 or not all(isinstance(d, int) and 1 <= d <= 6 for d in values):
        raise NotationError(f"expected five dice showing 1 to 6, got {dice!r}")
    return values


def classify_batch(dice: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """Hands (as ``PokerHand`` values) of many rolls at once: an ``(n, 5)`` array of faces 1-6.

    >>> classify_batch([[1, 1, 1, 1, 1], [1, 2, 3, 4, 6]]).tolist()
    [7, 0]
    """
    import numpy as np

    array = np.asarray(dice)
    if array.ndim != 2 or array.shape[1] != 5:
        raise NotationError(f"expected an (n, 5) array of dice, got shape {array.shape}")
    if array.size and (array.min() < 1 or array.max() > 6):
        raise NotationError("dice must show 1 to 6")
    codes = (array.astype(np.int64) - 1) @ np.array(_PLACE, dtype=np.int64)
    result: npt.NDArray[np.int8] = _hand_codes()[codes]
    return result


def hand_counts() -> dict[PokerHand, Fraction]:
    """Exact probability of each hand in one roll of five dice.

    >>> hand_counts()[PokerHand.FIVE_KIND]
    Fraction(1, 1296)
    """
    probabilities = dict.fromkeys(PokerHand, Fraction(0))
    for dice, probability in outcomes(5):
        probabilities[_fill()[dice]] += probability
    return probabilities
