"""Suited dice (DI-3): suits, the bag, notation, and table-driven best-five-of-seven hands (HE-9 … HE-11).

A die is a face 1-6 with a suit; in tables it is the code ``(face - 1) * 4 + suit`` (0..23), so sorting
codes sorts by face, then suit. Every sorted five-dice multiset (98,280 of them) gets an integer
*hand value*: a higher value is a better hand (HE-10 category, then the HE-11 tie-breaks: combination
dice, other dice, then the most dice of one suit). The best five of seven dice is the largest value over
the 21 five-dice subsets of the sorted seven, so any five of them are sorted and index the table
directly (combinatorial number system). :func:`best_values` does this for a whole NumPy batch at once.

One call at a time, :func:`best_value` of seven dice is a single lookup: the whole space is small, so the
best value of every one of the 2,035,800 seven-dice multisets is computed once (by the batch path, about
a second) and kept in the user cache (:mod:`dicepoker.dice.table_cache`); the package ships it too (0.5 MB
compressed), so a fresh machine reads it in milliseconds. Nothing is built at import: tables are made or
read on first use, and NumPy itself is imported only then. The lookup itself runs in a small optional C
accelerator (``_fast.c``, built at install when a compiler is there) that reads the same table and gives the
same values and errors; without it, the pure-Python functions below run.

>>> hand = parse_suited("6r 6b 2w 3y 6w 2r 5y")
>>> describe(best_value(hand))
'full house 6 6 6 2 2'
>>> format_suited(hand[:2])
'6r 6b'
"""

from __future__ import annotations

import enum
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations
from math import comb
from types import ModuleType
from typing import TYPE_CHECKING

from dicepoker.core.errors import NotationError
from dicepoker.core.notation import quote

if TYPE_CHECKING:  # NumPy is imported where tables are used: ``dicepoker --help`` never loads it
    import numpy as np
    import numpy.typing as npt


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
            raise NotationError(
                f"{quote(word)} is not a suited die: write a face 1-6 and a suit r, b, w or y (e.g. 6r)"
            )
        dice.append((int(word[0]), Suit("rbwy".index(word[1]))))
    if count is not None and len(dice) != count:
        raise NotationError(f"expected {count} dice, got {len(dice)}: {quote(text)}")
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


def _all_multisets(size: int) -> npt.NDArray[np.int64]:
    """Every sorted multiset of ``size`` codes, ``(comb(CODES + size - 1, size), size)``, in colex-rank order.

    A multiset ``c_0 <= ... <= c_k`` is the combination ``c_i + i`` of ``CODES + size - 1`` numbers, and the
    first ``comb(t, k)`` combinations in colex order are those of ``range(t)``: each size extends the last.
    """
    import numpy as np

    rows = np.arange(CODES + size - 1, dtype=np.int64)[:, None]
    for k in range(1, size):
        blocks = [
            np.hstack([rows[: comb(top, k)], np.full((comb(top, k), 1), top, dtype=np.int64)])
            for top in range(k, CODES + size - 1)
        ]
        rows = np.vstack(blocks)
    result: npt.NDArray[np.int64] = rows - np.arange(size, dtype=np.int64)
    return result


def five_values(codes: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    """:func:`five_value` of a batch of exactly five dice, ``(n, 5)`` die codes: the same rules, in NumPy."""
    import numpy as np

    ordered = np.sort(np.asarray(codes, dtype=np.int64), axis=1)
    faces, suits = ordered // 4 + 1, ordered % 4
    counts = (faces[:, :, None] == np.arange(1, 7)).sum(axis=1)  # (n, 6): dice per face
    suit_top = (suits[:, :, None] == np.arange(4)).sum(axis=1).max(axis=1)
    flush = suit_top == 5
    shape = -np.sort(-counts, axis=1)
    distinct = (faces[:, 1:] != faces[:, :-1]).all(axis=1)
    straight = distinct & (faces[:, 4] - faces[:, 0] == 4)
    category = np.select(
        [
            (shape[:, 0] == 5) & flush,
            shape[:, 0] == 5,
            straight & flush,
            straight,
            flush,
            shape[:, 0] == 4,
            (shape[:, 0] == 3) & (shape[:, 1] == 2),
            shape[:, 0] == 3,
            (shape[:, 0] == 2) & (shape[:, 1] == 2),
            shape[:, 0] == 2,
        ],
        [
            HandCategory.YAHTZEE_FLUSH,
            HandCategory.YAHTZEE,
            HandCategory.STRAIGHT_FLUSH,
            HandCategory.STRAIGHT,
            HandCategory.FLUSH,
            HandCategory.FOUR_KIND,
            HandCategory.FULL_HOUSE,
            HandCategory.THREE_KIND,
            HandCategory.TWO_PAIR,
            HandCategory.ONE_PAIR,
        ],
        HandCategory.HIGH_DICE,
    )
    # HE-11 order: most copies first, then the higher face (the key sorts both at once).
    copies = np.take_along_axis(counts, faces - 1, axis=1)
    by_significance = -np.sort(-(copies * 7 + faces), axis=1) % 7
    value = category.astype(np.int64)
    for j in range(5):
        value = value * 7 + by_significance[:, j]
    result: npt.NDArray[np.int32] = (value * 6 + suit_top).astype(np.int32)
    return result


@cache
def five_table() -> npt.NDArray[np.int32]:
    """Value of every sorted five-code multiset, indexed by :func:`_multiset_index`.

    Built in NumPy in about a tenth of a second, then read from the user cache in a millisecond or two.
    """
    import numpy as np

    from dicepoker.dice import table_cache

    def build() -> dict[str, npt.NDArray[np.int32]]:
        return {"values": five_values(_all_multisets(5))}

    version = table_cache.source_version([sys.modules[__name__]])
    values = table_cache.cached_arrays(FIVE_TABLE_NAME, version, build)["values"]
    if values.shape != (comb(CODES + 4, 5),) or values.dtype.str != "<i4":
        raise ValueError("the five-dice table has the wrong shape")  # only a build bug can do this
    result: npt.NDArray[np.int32] = np.asarray(values, dtype=np.int32)
    return result


_SUBSETS = tuple(combinations(range(7), 5))
_RANK_TERMS = tuple(tuple(comb(c + i, i + 1) for c in range(CODES)) for i in range(7))
"""``_RANK_TERMS[i][c]``: the colex-rank term of code ``c`` at position ``i`` of a sorted multiset."""
_CODE_OF: dict[tuple[int, int], int] = {(face, suit): (face - 1) * 4 + suit for face in range(1, 7) for suit in Suit}
SEVEN_TABLE_NAME = "holdem-best-of-seven"
FIVE_TABLE_NAME = "holdem-best-of-five"


def _build_seven_table() -> dict[str, npt.NDArray[np.int32]]:
    import numpy as np

    values = np.empty(comb(CODES + 6, 7), dtype=np.int32)
    multisets = _all_multisets(7)
    for start in range(0, len(multisets), 1 << 18):  # bounded working memory
        values[start : start + (1 << 18)] = best_values(multisets[start : start + (1 << 18)])
    return {"values": values}


_seven: memoryview | None = None


def _seven_lookup() -> memoryview:
    """Best-of-seven value of every sorted seven-code multiset (2,035,800 of them, 8 MB), by colex rank.

    Read from the user cache (:mod:`.table_cache`) on first use, or built from :func:`best_values` (about
    a second) the first time on a machine. A memoryview, because indexing one yields a plain ``int`` fast.
    """
    global _seven
    if _seven is None:
        from dicepoker.dice import table_cache  # file I/O, loaded only when a table is needed

        version = table_cache.source_version([sys.modules[__name__]])
        values = table_cache.cached_arrays(SEVEN_TABLE_NAME, version, _build_seven_table)["values"]
        if values.shape != (comb(CODES + 6, 7),) or values.dtype.str != "<i4":
            raise ValueError("the best-of-seven table has the wrong shape")  # only a build bug can do this
        _seven = values.data.cast("B").cast("i")
    return _seven


def forget_seven_table() -> None:
    """Drop the loaded best-of-seven table (both paths' hold of it): the next lookup loads it again."""
    global _seven
    _seven = None
    if _FAST is not None:
        _FAST.forget()


@cache
def _five_lookup() -> memoryview:
    return five_table().data.cast("B").cast("i")


def python_best_value(dice: Sequence[SuitedDie]) -> int:
    """HE-9: the value of the best five of the given dice (five to seven of them); see :data:`best_value`.

    Seven dice are one lookup in the table of every seven-dice multiset (this path is kept short: it is
    the per-call hot path); five and six dice, one or six lookups in the five-dice table.
    """
    try:
        a, b, c, d, e, f, g = sorted(map(_CODE_OF.__getitem__, dice))
    except (KeyError, TypeError, ValueError):  # not seven (face, suit) tuples: the checked path
        return _best_of_checked(dice)
    t0, t1, t2, t3, t4, t5, t6 = _RANK_TERMS
    return (_seven or _seven_lookup())[t0[a] + t1[b] + t2[c] + t3[d] + t4[e] + t5[f] + t6[g]]


def python_seven_code_value(codes: Sequence[int]) -> int:
    """Best-of-seven value of seven die codes (0..23, see :func:`code`) in any order: one table lookup.

    The per-call path for callers that keep dice as codes (as eval7 keeps cards as ``Card`` objects): it
    skips turning ``(face, suit)`` pairs into codes, which is most of the cost of :func:`best_value`.
    Codes are not checked: out-of-range codes give a wrong value or an ``IndexError``.

    >>> python_seven_code_value([code(d) for d in parse_suited("6r 6b 2w 3y 6w 2r 5y")]) == best_value(
    ...     parse_suited("6r 6b 2w 3y 6w 2r 5y"))
    True
    """
    a, b, c, d, e, f, g = sorted(codes)
    t0, t1, t2, t3, t4, t5, t6 = _RANK_TERMS
    return (_seven or _seven_lookup())[t0[a] + t1[b] + t2[c] + t3[d] + t4[e] + t5[f] + t6[g]]


def _best_of_checked(dice: Sequence[SuitedDie]) -> int:
    """Any sequence of (face, suit) pairs (lists too, as read from JSON), five to seven of them."""
    try:
        codes = sorted(_CODE_OF[tuple(die)] for die in dice)  # type: ignore[index]
    except (KeyError, TypeError):
        raise NotationError(f"expected suited dice (face 1-6, suit 0-3), got {dice!r}") from None
    if len(codes) == 7:
        return python_seven_code_value(codes)
    if len(codes) not in (5, 6):
        raise NotationError(f"a hand is the best five of five to seven dice, got {len(codes)}")
    table, terms = _five_lookup(), _RANK_TERMS
    return max(
        table[sum(terms[i][codes[j]] for i, j in enumerate(subset))] for subset in combinations(range(len(codes)), 5)
    )


def _accelerator() -> ModuleType | None:
    """The optional C accelerator (``_fast.c``): None if it was not built, is stale, or is switched off.

    ``DICEPOKER_PURE_PYTHON=1`` switches it off (the tests run both paths). The C code holds no table and no
    rules of its own: it reads the table :func:`_seven_lookup` loads, and hands any input that is not seven
    plain ``(face, suit)`` tuples to :func:`_best_of_checked`, so both paths give the same values and errors.
    """
    if os.environ.get("DICEPOKER_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        from dicepoker.dice import _fast
    except ImportError:  # no compiler when the package was installed: the Python path is complete
        return None
    if getattr(_fast, "INTERFACE", None) != 1:  # an editable install's old build of an older source
        return None
    _fast.configure(_seven_lookup, _best_of_checked)
    return _fast


_FAST = _accelerator()
IMPLEMENTATION = "C" if _FAST is not None else "Python"
"""Which per-call path :data:`best_value` and :data:`seven_code_value` run: ``"C"`` or ``"Python"``."""
best_value: Callable[[Sequence[SuitedDie]], int] = _FAST.best_value if _FAST else python_best_value
"""HE-9: the value of the best five of the given dice (five to seven of them); higher is better.

Seven ``(face, suit)`` dice are one lookup in the table of every seven-dice multiset, in C when the
accelerator is built (:data:`IMPLEMENTATION`), else :func:`python_best_value`; other inputs always take the
checked Python path, with the same values and errors.
"""
seven_code_value: Callable[[Sequence[int]], int] = _FAST.seven_code_value if _FAST else python_seven_code_value
"""Best-of-seven value of seven die codes 0..23 in any order (see :func:`python_seven_code_value`)."""


@cache
def _binomials() -> npt.NDArray[np.int32]:
    import numpy as np

    return np.array([[comb(n, k) for k in range(6)] for n in range(CODES + 7)], dtype=np.int32)


def best_values(codes: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    """Best-of-seven values of a batch: ``codes`` has shape ``(n, 7)`` of die codes 0..23."""
    table = five_table()
    import numpy as np

    binomials = _binomials()
    ordered = np.sort(codes.astype(np.int32), axis=1)
    # Position j of the seven can only be position i = j-2 .. j of a subset: 15 partial ranks, each once.
    terms = {(i, j): binomials[ordered[:, j] + i, i + 1] for i in range(5) for j in range(i, i + 3)}
    best = np.zeros(len(ordered), dtype=np.int32)
    for subset in _SUBSETS:
        index = terms[0, subset[0]] + terms[1, subset[1]]
        for i in (2, 3, 4):
            index += terms[i, subset[i]]
        np.maximum(best, table[index], out=best)
    return best
