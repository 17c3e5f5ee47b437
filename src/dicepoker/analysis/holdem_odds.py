"""Exact Dice Hold'em odds: best-hand categories over seven dice from the bag, and pocket equity.

Unseen dice are enumerated as multisets per suit: a suit-count vector ``n`` (at most the dice of each
suit left in the bag) has probability ``prod C(left_s, n_s) / C(left, k)``, and the faces within each
suit group are a multiset with its multinomial weight over ``6 ** n_s``. Every weight is an integer over
one common denominator, so results are exact :class:`~fractions.Fraction` values.

>>> probabilities = category_probabilities()
>>> sum(probabilities.values())
Fraction(1, 1)
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import comb, factorial
from random import Random

import numpy as np
import numpy.typing as npt

from dicepoker.core.errors import NotationError
from dicepoker.dice.suited import BAG, HandCategory, SuitedDie, best_values, code
from dicepoker.dice.table_cache import cached_fractions, source_version

FACES = range(1, 7)


def _suit_vectors(left: Sequence[int], count: int) -> Iterator[tuple[int, ...]]:
    for vector in product(*(range(min(n, count) + 1) for n in left)):
        if sum(vector) == count:
            yield vector


def _face_multisets(size: int) -> list[tuple[tuple[int, ...], int]]:
    """Face multisets of ``size`` dice with the number of ordered rolls giving each."""
    result = []
    for faces in combinations_with_replacement(FACES, size):
        ways = factorial(size)
        for face in set(faces):
            ways //= factorial(faces.count(face))
        result.append((faces, ways))
    return result


def unseen_outcomes(
    left: Sequence[int], count: int, *, by_symmetry: bool = False
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """Every multiset of ``count`` unseen dice: codes ``(m, count)``, integer weights, and their denominator.

    ``by_symmetry`` (only for questions that do not name suits, with equal suits left) keeps one suit-count
    vector per permutation class, weighted by the size of the class.
    """
    rows: list[list[int]] = []
    weights: list[int] = []
    for vector in _suit_vectors(left, count):
        if by_symmetry and list(vector) != sorted(vector, reverse=True):
            continue
        suit_ways = _permutations(vector) if by_symmetry else 1
        for suit, n in enumerate(vector):
            suit_ways *= comb(left[suit], n)
        groups = [[(faces, ways, suit) for faces, ways in _face_multisets(n)] for suit, n in enumerate(vector)]
        for choice in product(*groups):
            row = [(face - 1) * 4 + suit for faces, _, suit in choice for face in faces]
            weight = suit_ways
            for _, ways, _ in choice:
                weight *= ways
            rows.append(row)
            weights.append(weight)
    denominator = comb(sum(left), count) * 6**count
    codes = np.array(rows, dtype=np.int64).reshape(len(rows), count)
    return codes, np.array(weights, dtype=np.int64), denominator


def _permutations(vector: Sequence[int]) -> int:
    ways = factorial(len(vector))
    for value in set(vector):
        ways //= factorial(list(vector).count(value))
    return ways


@cache
def category_probabilities() -> dict[HandCategory, Fraction]:
    """Exact probability of each best-hand category over seven dice drawn from the full bag (HE-9, HE-10).

    Computed once per machine and code version (about half a second), then read from the user cache.
    """
    modules = [sys.modules[__name__], sys.modules[best_values.__module__]]
    values = cached_fractions("holdem-odds", source_version(modules), lambda: list(_category_probabilities().values()))
    return dict(zip(HandCategory, values, strict=True))


def _category_probabilities() -> dict[HandCategory, Fraction]:
    codes, weights, denominator = unseen_outcomes(BAG, 7, by_symmetry=True)
    categories = best_values(codes) // (7**5 * 6)
    totals = {category: 0 for category in HandCategory}
    for category in HandCategory:
        totals[category] = int(weights[categories == category].sum())
    return {category: Fraction(total, denominator) for category, total in totals.items()}


@dataclass(frozen=True, slots=True)
class Equity:
    win: float
    tie: float
    exact: Fraction | None
    """The exact equity (win + tie share) when enumerated; ``None`` for Monte Carlo."""
    error: float
    """Half-width of the 95% interval of a Monte Carlo estimate; 0 when exact."""
    samples: int
    method: str


def _remaining(known: Sequence[SuitedDie]) -> list[int]:
    left = list(BAG)
    for _, suit in known:
        left[suit] -= 1
        if left[suit] < 0:
            raise NotationError("more dice of one suit than the bag holds (5 of each)")
    return left


def equity(
    pocket: Sequence[SuitedDie],
    versus: Sequence[SuitedDie] | None,
    board: Sequence[SuitedDie] = (),
    *,
    samples: int = 200_000,
    seed: int = 0,
) -> Equity:
    """Win and tie probability of ``pocket`` against ``versus`` (or one random opponent) given ``board``.

    Exact by enumeration when the opponent's dice are known; Monte Carlo with a stated error otherwise.
    """
    if len(pocket) != 2 or (versus is not None and len(versus) != 2) or len(board) > 5:
        raise NotationError("give two pocket dice, two opponent dice (or none) and at most five board dice")
    known = [*pocket, *(versus or ()), *board]
    left = _remaining(known)
    mine_fixed = [code(d) for d in (*pocket, *board)]
    if versus is not None:
        fill, weights, denominator = unseen_outcomes(left, 5 - len(board))
        theirs_fixed = [code(d) for d in (*versus, *board)]
        mine = best_values(np.hstack([np.broadcast_to(mine_fixed, (len(fill), 7 - fill.shape[1])), fill]))
        theirs = best_values(np.hstack([np.broadcast_to(theirs_fixed, (len(fill), 7 - fill.shape[1])), fill]))
        win = int(weights[mine > theirs].sum())
        tie = int(weights[mine == theirs].sum())
        exact = Fraction(2 * win + tie, 2 * denominator)
        return Equity(win / denominator, tie / denominator, exact, 0.0, len(fill), "exact enumeration")
    generator = np.random.default_rng(Random(seed).getrandbits(64))
    suits_left = np.repeat(np.arange(4), left)
    needed = 7 - len(board)
    order = np.argsort(generator.random((samples, len(suits_left))), axis=1)[:, :needed]
    drawn = suits_left[order] + 4 * generator.integers(0, 6, size=(samples, needed))
    board_codes = np.hstack([np.broadcast_to([code(d) for d in board], (samples, len(board))), drawn[:, 2:]])
    mine = best_values(np.hstack([np.broadcast_to([code(d) for d in pocket], (samples, 2)), board_codes]))
    theirs = best_values(np.hstack([drawn[:, :2], board_codes]))
    wins, ties = (mine > theirs).astype(float), (mine == theirs).astype(float)
    share = wins + ties / 2
    error = 1.959963984540054 * float(share.std(ddof=1)) / samples**0.5
    return Equity(float(wins.mean()), float(ties.mean()), None, error, samples, "Monte Carlo")
