"""Poker dice (DI-2) and the six-dice hands of PeekPoker (PK-9, PK-10), classified by table lookup.

A poker die shows 9, 10, J, Q, K or A, equally likely, ranked in that order; 9 and K are red, 10 and Q
black, J and A green. A PeekPoker hand is six dice (three own + three community). There are only 462
multisets of six poker dice, so each is evaluated once, on first use, by a plain reading of the rules,
and every later call is one lookup by face counts (or a NumPy gather for batches).

Six dice on six faces either repeat a face or show all six faces (a large straight), so every hand is
at least a pair: there is no "high dice" category.

>>> key = evaluate(parse_dice("K K 9 9 9 Q"))
>>> key.category.label, describe(key)
('full house', 'full house, nines full of kings')
>>> evaluate(parse_dice("T J Q K A A")) > evaluate(parse_dice("A A A A K Q"))
True
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from typing import TYPE_CHECKING

from dicepoker.core.errors import NotationError
from dicepoker.core.notation import quote

if TYPE_CHECKING:  # NumPy is imported where tables are used: ``dicepoker --help`` never loads it
    import numpy as np
    import numpy.typing as npt

HAND_SIZE = 6


class Colour(enum.Enum):
    RED = "red"
    BLACK = "black"
    GREEN = "green"


class Face(enum.IntEnum):
    """A poker-die face; the value is its rank (A high), so faces compare as DI-2 ranks them."""

    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """The one-character notation: ``9 T J Q K A``."""
        return _SYMBOLS[self]

    @property
    def colour(self) -> Colour:
        """DI-2: 9 and K red; 10 and Q black; J and A green."""
        return _COLOURS[self]

    @property
    def plural(self) -> str:
        return _PLURALS[self]

    @property
    def index(self) -> int:
        """0 for 9 … 5 for A: the position in :data:`FACES` and in NumPy tables."""
        return int(self) - int(Face.NINE)


_SYMBOLS = {
    Face.NINE: "9",
    Face.TEN: "T",
    Face.JACK: "J",
    Face.QUEEN: "Q",
    Face.KING: "K",
    Face.ACE: "A",
}
_COLOURS = {
    Face.NINE: Colour.RED,
    Face.KING: Colour.RED,
    Face.TEN: Colour.BLACK,
    Face.QUEEN: Colour.BLACK,
    Face.JACK: Colour.GREEN,
    Face.ACE: Colour.GREEN,
}
_PLURALS = {
    Face.NINE: "nines",
    Face.TEN: "tens",
    Face.JACK: "jacks",
    Face.QUEEN: "queens",
    Face.KING: "kings",
    Face.ACE: "aces",
}
FACES: tuple[Face, ...] = tuple(Face)
PokerDice = tuple[Face, ...]
_BY_SYMBOL = {face.symbol: face for face in Face} | {"10": Face.TEN}
_TOKEN = re.compile(r"10|[9TJQKA]", re.IGNORECASE)


# -- notation ---------------------------------------------------------------------------------------
def parse_face(text: str) -> Face:
    """One face: ``9``, ``T`` (or ``10``), ``J``, ``Q``, ``K``, ``A``, any case.

    >>> parse_face("q"), parse_face("10")
    (<Face.QUEEN: 12>, <Face.TEN: 10>)
    """
    face = _BY_SYMBOL.get(text.strip().upper())
    if face is None:
        raise NotationError(f"{quote(text)} is not a poker-die face: faces are 9 T J Q K A (10 may be written T)")
    return face


def parse_dice(text: str, count: int | None = None) -> PokerDice:
    """Poker dice written as faces separated by spaces or commas, or run together (``"AKQ"``).

    >>> parse_dice("9 T j, Q")
    (<Face.NINE: 9>, <Face.TEN: 10>, <Face.JACK: 11>, <Face.QUEEN: 12>)
    >>> parse_dice("A A 8")
    Traceback (most recent call last):
    ...
    dicepoker.core.errors.NotationError: '8' is not a poker-die face: faces are 9 T J Q K A (10 ...
    """
    dice: list[Face] = []
    for word in text.replace(",", " ").split():
        if word.upper() in _BY_SYMBOL:
            dice.append(_BY_SYMBOL[word.upper()])
            continue
        tokens = _TOKEN.findall(word)
        if "".join(tokens).upper() != word.upper():
            bad = next((ch for ch in _TOKEN.sub(" ", word).split()), word)
            raise NotationError(f"{quote(bad)} is not a poker-die face: faces are 9 T J Q K A (10 may be written T)")
        dice.extend(parse_face(token) for token in tokens)
    if count is not None and len(dice) != count:
        raise NotationError(f"expected {count} poker dice, got {len(dice)}: {quote(text)}")
    return tuple(dice)


def format_dice(dice: Iterable[Face]) -> str:
    """Dice in notation, e.g. ``'A T 9'``; :func:`parse_dice` reads it back."""
    return " ".join(face.symbol for face in dice)


# -- hands ------------------------------------------------------------------------------------------
class HandCategory(enum.IntEnum):
    """PK-9 ranking of six-dice hands (value: higher is better)."""

    PAIR = 1
    TWO_PAIRS = 2
    THREE_KIND = 3
    FULL_HOUSE = 4
    FOUR_KIND = 5
    STRAIGHT = 6
    LARGE_STRAIGHT = 7
    FLUSH = 8
    FIVE_KIND = 9

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").lower().replace("kind", "of a kind")


@dataclass(frozen=True, order=True, slots=True)
class HandKey:
    """A comparable hand: the category (PK-9), then the tie-break ranks (PK-10), most significant first.

    Equal keys split the pot.
    """

    category: HandCategory
    ranks: tuple[Face, ...]


_STRAIGHT = frozenset({Face.TEN, Face.JACK, Face.QUEEN, Face.KING, Face.ACE})


def _evaluate_slow(dice: PokerDice) -> HandKey:
    """The rules read literally (PK-9 then PK-10); run once per multiset to build the table."""
    counts = Counter(dice)
    # Groups of equal faces, biggest group first, then higher rank first.
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    high_first = sorted(dice, reverse=True)
    top, top_count = groups[0]

    def kickers(used: Iterable[Face], how_many: int) -> tuple[Face, ...]:
        # PK-10: "the best remaining dice of a five-dice hand, highest first".
        rest = list(high_first)
        for face in used:
            rest.remove(face)
        return tuple(rest[:how_many])

    if top_count >= 5:
        return HandKey(HandCategory.FIVE_KIND, (top,))
    if len({face.colour for face in dice}) == 1 and dice[0].colour is not Colour.GREEN:
        return HandKey(HandCategory.FLUSH, tuple(high_first))
    if len(counts) == HAND_SIZE:
        return HandKey(HandCategory.LARGE_STRAIGHT, ())
    if counts.keys() >= _STRAIGHT:
        return HandKey(HandCategory.STRAIGHT, ())
    if top_count == 4:
        return HandKey(HandCategory.FOUR_KIND, (top, *kickers([top] * 4, 1)))
    second, second_count = groups[1]
    if top_count == 3 and second_count >= 2:
        return HandKey(HandCategory.FULL_HOUSE, (top, second))
    if top_count == 3:
        return HandKey(HandCategory.THREE_KIND, (top, *kickers([top] * 3, 2)))
    if second_count == 2:
        return HandKey(HandCategory.TWO_PAIRS, (top, second, *kickers([top, top, second, second], 1)))
    return HandKey(HandCategory.PAIR, (top, *kickers([top, top], 3)))


@cache
def outcomes(count: int) -> tuple[tuple[PokerDice, Fraction], ...]:
    """Every multiset of ``count`` poker dice (ascending) with its exact probability.

    >>> len(outcomes(3)), len(outcomes(6)), sum(p for _, p in outcomes(6))
    (56, 462, Fraction(1, 1))
    """
    return tuple((combo, multiset_probability(combo)) for combo in combinations_with_replacement(FACES, count))


def multiset_probability(dice: Sequence[Face]) -> Fraction:
    """Probability that ``len(dice)`` rolled poker dice show exactly this multiset."""
    ways = factorial(len(dice))
    for face in set(dice):
        ways //= factorial(list(dice).count(face))
    return Fraction(ways, 6 ** len(dice))


@dataclass(frozen=True, slots=True)
class _Tables:
    hands: dict[PokerDice, HandKey]
    ranked_keys: tuple[HandKey, ...]
    strengths: dict[PokerDice, int]
    by_count_key: list[int]
    """Strength by the base-7 number whose digit ``i`` counts the dice showing face ``i`` (-1: not 6 dice)."""
    by_code: npt.NDArray[np.int16]
    """Strength of every ordered roll by its base-6 code, so a batch lookup needs no sort."""


_PLACE = (6**5, 6**4, 6**3, 6**2, 6, 1)
_COUNT_WEIGHT: dict[int, int] = {face: 7**face.index for face in Face}
"""Face -> its digit of the count key; a dict, so that anything but a face (9..14) misses."""


@cache
def _tables() -> _Tables:
    """The whole of PK-9/PK-10 as tables, built on first use (~10 ms): importing this module stays cheap."""
    import numpy as np

    hands = {dice: _evaluate_slow(dice) for dice, _ in outcomes(HAND_SIZE)}
    ranked = tuple(sorted(set(hands.values())))
    position = {key: index for index, key in enumerate(ranked)}
    strengths = {dice: position[key] for dice, key in hands.items()}
    by_count_key = [-1] * 7**HAND_SIZE
    for dice, value in strengths.items():
        by_count_key[sum(map(_COUNT_WEIGHT.__getitem__, dice))] = value
    # Row r holds the faces (0-5) of the ordered roll whose base-6 code is r.
    ordered = np.arange(6**HAND_SIZE)[:, None] // np.array(_PLACE) % 6
    count_keys = (7 ** np.arange(6))[ordered].sum(axis=1)
    by_code = np.array(by_count_key, dtype=np.int16)[count_keys]
    return _Tables(hands, ranked, strengths, by_count_key, by_code)


HANDS: dict[PokerDice, HandKey]
"""Every sorted six-dice multiset and its hand key: the whole of PK-9/PK-10 as a table (built on first use)."""
RANKED_KEYS: tuple[HandKey, ...]
"""Distinct hand keys, weakest first; a key's position is its :func:`strength`."""
STRENGTHS: dict[PokerDice, int]
"""Strength (see :func:`strength`) of every sorted six-dice multiset."""
_LAZY = {"HANDS": "hands", "RANKED_KEYS": "ranked_keys", "STRENGTHS": "strengths"}


def __getattr__(name: str) -> object:
    """PEP 562: the tables above are attributes computed on first access."""
    if name in _LAZY:
        return getattr(_tables(), _LAZY[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_by_count_key: list[int] | None = None


def _count_lookup() -> list[int]:
    global _by_count_key
    _by_count_key = _tables().by_count_key
    return _by_count_key


def _sorted_six(dice: Iterable[Face]) -> PokerDice:
    try:
        values = tuple(sorted(Face(d) for d in dice))
    except (TypeError, ValueError):
        raise NotationError(f"expected {HAND_SIZE} poker dice (9 to A), got {dice!r}") from None
    if len(values) != HAND_SIZE:
        raise NotationError(f"a PeekPoker hand is {HAND_SIZE} dice (3 own + 3 community), got {len(values)}")
    return values


def evaluate(dice: Iterable[Face]) -> HandKey:
    """The hand key of six poker dice in any order (PK-9, PK-10).

    >>> evaluate(parse_dice("9 9 K K K 9")).category.label
    'flush'
    """
    return _tables().ranked_keys[strength(dice)]


def strength(dice: Iterable[Face]) -> int:
    """A dense integer with the same order as :func:`evaluate`: equal strengths split the pot.

    One table lookup by the dice's face counts (no sort); anything unusual takes the checked path.
    """
    try:
        if len(dice) == HAND_SIZE:  # type: ignore[arg-type]
            found = (_by_count_key or _count_lookup())[sum(map(_COUNT_WEIGHT.__getitem__, dice))]
            if found >= 0:
                return found
    except (TypeError, KeyError):
        pass  # not a sized collection of faces: the checked path says what is wrong
    return _tables().strengths[_sorted_six(dice)]


def strength_batch(dice: npt.ArrayLike) -> npt.NDArray[np.int16]:
    """Strengths of many hands at once: an ``(n, 6)`` array of face values 9-14, any order.

    >>> strength_batch([[9, 10, 11, 12, 13, 14], [14, 14, 14, 14, 14, 9]]).tolist() == [
    ...     strength(parse_dice("9TJQKA")), strength(parse_dice("AAAAA9"))]
    True
    """
    import numpy as np

    array = np.asarray(dice)
    if array.ndim != 2 or array.shape[1] != HAND_SIZE:
        raise NotationError(f"expected an (n, {HAND_SIZE}) array of poker dice, got shape {array.shape}")
    if array.size and (array.min() < int(Face.NINE) or array.max() > int(Face.ACE)):
        raise NotationError("poker dice show 9 to 14 (A)")
    result: npt.NDArray[np.int16] = _tables().by_code[(array.astype(np.int64) - int(Face.NINE)) @ np.array(_PLACE)]
    return result


def describe(key: HandKey) -> str:
    """The hand in words, e.g. ``'two pairs, kings and nines, ace kicker'``."""
    ranks, category = key.ranks, key.category
    if category is HandCategory.FIVE_KIND:
        return f"five {ranks[0].plural}"
    if category is HandCategory.FLUSH:
        return f"{ranks[0].colour.value} flush {format_dice(ranks)}"
    if category in (HandCategory.STRAIGHT, HandCategory.LARGE_STRAIGHT):
        return category.label
    if category is HandCategory.FULL_HOUSE:
        return f"full house, {ranks[0].plural} full of {ranks[1].plural}"
    if category is HandCategory.TWO_PAIRS:
        return f"two pairs, {ranks[0].plural} and {ranks[1].plural}, {format_dice(ranks[2:])} kicker"
    name = {HandCategory.FOUR_KIND: "four", HandCategory.THREE_KIND: "three", HandCategory.PAIR: "pair of"}
    return f"{name[category]} {ranks[0].plural}, {format_dice(ranks[1:])} kicker"


def category_probabilities() -> dict[HandCategory, Fraction]:
    """Exact probability of each category for six rolled poker dice (no ace re-rolls).

    >>> category_probabilities()[HandCategory.LARGE_STRAIGHT]
    Fraction(5, 324)
    """
    probabilities = dict.fromkeys(HandCategory, Fraction(0))
    for dice, probability in outcomes(HAND_SIZE):
        probabilities[_tables().hands[dice].category] += probability
    return probabilities
