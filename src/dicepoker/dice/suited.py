"""Suited dice (DI-3): suits, the bag, notation, and table-driven best-five-of-seven hands (HE-9 … HE-11).

A die is a face 1-6 with a suit; in tables it is the code ``(face - 1) * 4 + suit`` (0..23), so sorting
codes sorts by face, then suit. Every sorted five-dice multiset (98,280 of them) gets an integer
*hand value* once, built lazily on first use: a higher value is a better hand (HE-10 category, then the
HE-11 tie-breaks: combination dice, other dice, then the most dice of one suit). The best five of seven
dice is the largest value over the 21 five-dice subsets of the sorted seven, so any five of them are
sorted and index the table directly (combinatorial number system). :func:`best_values` does this for a
whole NumPy batch at once.

>>> hand = parse_suited("6r 6b 2w 3y 6w 2r 5y")
>>> describe(best_value(hand))
'full house 6 6 6 2 2'
>>> format_suited(hand[:2])
'6r 6b'
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
import numpy.typing as npt

from dicepoker.core.errors import NotationError


class Suit(enum.IntEnum):
    RED = 0
    BLACK = 1
    WHITE = 2
    YELLOW = 3

    @property
    def letter(self) -> str:
        return "rbwy"[self]


class HandCategory(enum.IntEnum):
    """HE-10, value order: higher beats lower."""

    HIGH_DICE = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_KIND = 3
    FULL_HOUSE = 4
    STRAIGHT = 5
    FOUR_KIND = 6
    FLUSH = 7
    YAHTZEE = 8
    STRAIGHT_FLUSH = 9
    YAHTZEE_FLUSH = 10

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").lower().replace("kind", "of a kind")


SuitedDie = tuple[int, Suit]
"""(face, suit)."""
DICE_PER_SUIT = 5
BAG: tuple[int, ...] = (DICE_PER_SUIT,) * len(Suit)
"""DI-3: 20 dice, 5 of each suit."""
CODES = 24
_CATEGORY_BASE = 7**5 * 6


def code(die: SuitedDie) -> int:
    return (die[0] - 1) * 4 + int(die[1])


def die_of(value: int) -> SuitedDie:
    return value // 4 + 1, Suit(value % 4)


# -- notation ---------------------------------------------------------------------------------------
def parse_suited(text: str, count: int | None = None) -> tuple[SuitedDie, ...]:
    """Read dice such as ``"6r 6b 2w 3y"`` (face 1-6, then r/b/w/y), separated by spaces or commas.

    >>> parse_suited("6r 7b")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dicepoker.core.errors.NotationError: '7b' is not a suited die: write a face 1-6 and a suit r, b, w or y...
    """
    dice = []
    for word in text.replace(",", " ").split():
        word = word.strip().lower()
        if len(word) != 2 or word[0] not in "123456" or word[1] not in "rbwy":
            raise NotationError(f"{word!r} is not a suited die: write a face 1-6 and a suit r, b, w or y (e.g. 6r)")
        dice.append((int(word[0]), Suit("rbwy".index(word[1]))))
    if count is not None and len(dice) != count:
        raise NotationError(f"expected {count} dice, got {len(dice)}: {text!r}")
    suits = Counter(suit for _, suit in dice)
    for suit, used in suits.items():
        if used > DICE_PER_SUIT:
            raise NotationError(f"{used} {suit.name.lower()} dice named: the bag holds only {DICE_PER_SUIT}")
    return tuple(dice)


def format_suited(dice: Sequence[SuitedDie]) -> str:
    return " ".join(f"{face}{suit.letter}" for face, suit in dice)


# -- hand values ------------------------------------------------------------------------------------
def five_value(dice: Sequence[SuitedDie]) -> int:
    """The value of exactly five dice (HE-10, HE-11); higher is better. Slow: used to build the table."""
    faces = sorted((face for face, _ in dice), reverse=True)
    counts = Counter(faces)
    suit_top = max(Counter(suit for _, suit in dice).values())
    flush = suit_top == 5
    straight = faces in ([5, 4, 3, 2, 1], [6, 5, 4, 3, 2])
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 5:
        category = HandCategory.YAHTZEE_FLUSH if flush else HandCategory.YAHTZEE
    elif straight:
        category = HandCategory.STRAIGHT_FLUSH if flush else HandCategory.STRAIGHT
    elif flush:
        category = HandCategory.FLUSH
    elif shape[0] == 4:
        category = HandCategory.FOUR_KIND
    elif shape == [3, 2]:
        category = HandCategory.FULL_HOUSE
    elif shape[0] == 3:
        category = HandCategory.THREE_KIND
    elif shape[:2] == [2, 2]:
        category = HandCategory.TWO_PAIR
    elif shape[0] == 2:
        category = HandCategory.ONE_PAIR
    else:
        category = HandCategory.HIGH_DICE
    # HE-11: the combination's dice first (most copies, then higher face), then the others, highest first.
    ordered = sorted(faces, key=lambda f: (counts[f], f), reverse=True)
    value = int(category)
    for face in ordered:
        value = value * 7 + face
    return value * 6 + suit_top


def category_of(value: int) -> HandCategory:
    return HandCategory(value // _CATEGORY_BASE)


def value_faces(value: int) -> tuple[int, ...]:
    """The five faces of a hand value, most significant first."""
    rest, faces = value // 6, []
    for _ in range(5):
        rest, face = divmod(rest, 7)
        faces.append(face)
    return tuple(reversed(faces))


def describe(value: int) -> str:
    """A hand value in words: category, then its five faces by significance.

    >>> describe(five_value(parse_suited("2r 3r 4r 5r 6r")))
    'straight flush 6 5 4 3 2'
    """
    return f"{category_of(value).label} {' '.join(str(f) for f in value_faces(value))}"


def _multiset_index(sorted_codes: Sequence[int]) -> int:
    """Colex rank of a sorted multiset of codes (combinations with replacement)."""
    return sum(comb(c + i, i + 1) for i, c in enumerate(sorted_codes))


@cache
def five_table() -> npt.NDArray[np.int32]:
    """Value of every sorted five-code multiset, indexed by :func:`_multiset_index`."""
    table = np.zeros(comb(CODES + 4, 5), dtype=np.int32)
    for codes in combinations_with_replacement(range(CODES), 5):
        table[_multiset_index(codes)] = five_value([die_of(c) for c in codes])
    return table


_SUBSETS = tuple(combinations(range(7), 5))
_BINOMIALS32 = np.array([[comb(n, k) for k in range(6)] for n in range(CODES + 7)], dtype=np.int32)


def best_value(dice: Sequence[SuitedDie]) -> int:
    """HE-9: the value of the best five of the given dice (five to seven of them)."""
    table = five_table()
    codes = sorted(code(d) for d in dice)
    if len(codes) == 5:
        return int(table[_multiset_index(codes)])
    return max(int(table[_multiset_index([codes[i] for i in subset])]) for subset in combinations(range(len(codes)), 5))


def best_values(codes: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    """Best-of-seven values of a batch: ``codes`` has shape ``(n, 7)`` of die codes 0..23."""
    table = five_table()
    ordered = np.sort(codes.astype(np.int32), axis=1)
    # Position j of the seven can only be position i = j-2 .. j of a subset: 15 partial ranks, each once.
    terms = {(i, j): _BINOMIALS32[ordered[:, j] + i, i + 1] for i in range(5) for j in range(i, i + 3)}
    best = np.zeros(len(ordered), dtype=np.int32)
    for subset in _SUBSETS:
        index = terms[0, subset[0]] + terms[1, subset[1]]
        for i in (2, 3, 4):
            index += terms[i, subset[i]]
        np.maximum(best, table[index], out=best)
    return best
