"""What five dice may claim on a board (BD-5, BD-6, BD-8): the hand's label and the lucky options.

The hand comes from the shared table-driven classifier; this module adds the faces that pick the
square (four *3s*, two pairs of *2s and 5s*) and the Lucky 7 / Lucky 11 option.

>>> reading = read_hand((1, 1, 1, 2, 2))
>>> reading.hand.label, reading.label, reading.lucky, reading.labels
('full house', 'FH', 'L7', ('FH', 'L7'))
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache

from dicepoker.dice.hands import PokerHand, classify
from dicepoker.dice.standard import ROLLS, Dice
from dicepoker.games.board.layout import FULL_HOUSE, LUCKY_7, LUCKY_11, STRAIGHT, describe_label

LUCKY_SUMS = {7: LUCKY_7, 11: LUCKY_11}
BOUNCER_LABELS = {PokerHand.STRAIGHT: STRAIGHT, PokerHand.FULL_HOUSE: FULL_HOUSE}
"""BD-9: the hands that bounce an opponent chip once every square of their label is taken."""


@dataclass(frozen=True, slots=True)
class HandReading:
    """The best hand of five dice and what it may claim."""

    dice: Dice
    hand: PokerHand
    label: str | None
    """The one label the hand itself claims (BD-5: the best hand must be played); ``None`` for nothing
    and for five of a kind, which is wild instead."""
    lucky: str | None
    """``L7`` or ``L11`` when the dice sum to 7 or 11 (BD-6)."""

    @property
    def wild(self) -> bool:
        """BD-8: five of a kind may take any open square."""
        return self.hand is PokerHand.FIVE_KIND

    @property
    def labels(self) -> tuple[str, ...]:
        """The labels this roll may claim, hand first (empty for a wild roll: it may claim any)."""
        return tuple(x for x in (self.label, self.lucky) if x is not None)

    def describe(self) -> str:
        name = self.hand.label
        if self.label is not None and self.hand not in BOUNCER_LABELS:
            name = describe_label(self.label)
        elif self.wild:
            name = f"five {self.dice[0]}s (wild)"
        return name + (f", or {describe_label(self.lucky)}" if self.lucky else "")


def read_hand(dice: Dice) -> HandReading:
    """Classify five dice in any order (raises ``NotationError`` for anything but five dice 1-6)."""
    hand = classify(tuple(dice))
    return _read_sorted(tuple(sorted(dice)), hand)


@cache
def _read_sorted(dice: Dice, hand: PokerHand) -> HandReading:
    counts = Counter(dice)
    by_count = sorted(counts, key=lambda face: (-counts[face], face))
    label: str | None
    if hand is PokerHand.FIVE_KIND or hand is PokerHand.NOTHING:
        label = None
    elif hand in BOUNCER_LABELS:
        label = BOUNCER_LABELS[hand]
    elif hand is PokerHand.FOUR_KIND:
        label = f"K{by_count[0]}"
    elif hand is PokerHand.THREE_KIND:
        label = f"T{by_count[0]}"
    elif hand is PokerHand.TWO_PAIRS:
        low, high = sorted(by_count[:2])
        label = f"D{low}{high}"
    else:
        label = f"P{by_count[0]}"
    return HandReading(dice, hand, label, LUCKY_SUMS.get(sum(dice)))


READINGS: tuple[HandReading, ...] = tuple(read_hand(dice) for dice in ROLLS)
"""The reading of each of the 252 sorted rolls, in the order of :data:`dicepoker.dice.standard.ROLLS`."""
