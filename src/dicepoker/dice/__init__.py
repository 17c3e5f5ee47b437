"""Dice kinds, dice notation and hand evaluation (table-driven)."""

from dicepoker.dice.hands import PokerHand, classify, classify_batch, hand_counts
from dicepoker.dice.standard import FACES, ROLLS, format_dice, outcomes, parse_dice

__all__ = [
    "FACES",
    "ROLLS",
    "PokerHand",
    "classify",
    "classify_batch",
    "format_dice",
    "hand_counts",
    "outcomes",
    "parse_dice",
]
