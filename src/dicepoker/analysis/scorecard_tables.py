"""Static tables for the scorecard solver: keeps, their one-die children and parents, reachable states.

A *keep* is a sorted multiset of 0-5 dice. Rolling the missing dice of a keep one at a time gives
the recursion ``E[keep] = mean(E[keep + face] for face in 1..6)``, so the expectation over every keep
costs 6 additions per keep instead of a 462 x 252 matrix product. The best keep within a roll is found
the same way: ``B[keep] = max(E[keep], B[keep - one die])``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from dicepoker.dice.scoring import SCORE_TABLE, UPPER_BONUS_THRESHOLD, Category
from dicepoker.dice.standard import FACES, ROLLS, multiset_probability

Keep = tuple[int, ...]
CATEGORIES = 13
UPPER = 6
FULL_MASK = (1 << CATEGORIES) - 1
UPPER_CAP = UPPER_BONUS_THRESHOLD  # upper totals are tracked up to 63: beyond it only "bonus earned" matters

_SUM_BOXES = (int(Category.THREE_KIND), int(Category.FOUR_KIND), int(Category.CHANCE))

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class KeepTables:
    keeps: tuple[Keep, ...]
    index: dict[Keep, int]
    by_size: tuple[IntArray, ...]
    """Indices of the keeps of each size 0..5 (size 5 keeps are the 252 rolls, in ROLLS order)."""
    children: tuple[IntArray, ...]
    """``children[k]``: for each keep of size k<5, the six keeps with one more die (shape (n_k, 6))."""
    parents: tuple[IntArray, ...]
    """``parents[k]``: for each keep of size k>0, the keeps with one die less, padded by repetition."""
    roll_probability: FloatArray
    """Probability of each of the 252 rolls of five dice."""
    face_counts: IntArray
    """``face_counts[roll, face - 1]``: how many dice of the roll show that face."""
    scores: IntArray
    """SCORE_TABLE as int64, (252, 13)."""
    roll_sums: IntArray
    """Sum of the five dice of each roll."""
    lower_pattern: IntArray
    """For each roll, the index of its pattern of lower-box scores (see :func:`lower_patterns`)."""
    pattern_sum_boxes: tuple[tuple[int, ...], ...]
    """Per pattern: lower boxes that score the sum of the dice."""
    pattern_fixed_boxes: tuple[tuple[tuple[int, int], ...], ...]
    """Per pattern: (box, points) for lower boxes that score anything else (0 included)."""


def build_keep_tables() -> KeepTables:
    keeps: list[Keep] = []
    for size in range(6):
        keeps.extend(combinations_with_replacement(FACES, size))
    # size-5 keeps must be in ROLLS order so that roll tables line up with keep tables
    assert tuple(k for k in keeps if len(k) == 5) == ROLLS
    index = {keep: i for i, keep in enumerate(keeps)}
    by_size = tuple(np.array([index[k] for k in keeps if len(k) == size], dtype=np.int64) for size in range(6))
    children = tuple(
        np.array([[index[tuple(sorted((*keeps[i], face)))] for face in FACES] for i in by_size[size]], dtype=np.int64)
        for size in range(5)
    )
    parents: list[IntArray] = [np.zeros((1, 1), dtype=np.int64)]
    for size in range(1, 6):
        rows = []
        for i in by_size[size]:
            keep = keeps[i]
            smaller = sorted({index[keep[:j] + keep[j + 1 :]] for j in range(size)})
            rows.append(smaller + [smaller[0]] * (size - len(smaller)))
        parents.append(np.array(rows, dtype=np.int64))
    probability = np.array([float(multiset_probability(roll)) for roll in ROLLS])
    counts = np.array([[roll.count(face) for face in FACES] for roll in ROLLS], dtype=np.int64)
    sums, pattern_of_roll, sum_boxes, fixed_boxes = lower_patterns()
    return KeepTables(
        keeps=tuple(keeps),
        index=index,
        by_size=by_size,
        children=children,
        parents=tuple(parents),
        roll_probability=probability,
        face_counts=counts,
        scores=SCORE_TABLE.astype(np.int64),
        roll_sums=sums,
        lower_pattern=pattern_of_roll,
        pattern_sum_boxes=sum_boxes,
        pattern_fixed_boxes=fixed_boxes,
    )


def lower_patterns() -> tuple[IntArray, IntArray, tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int], ...], ...]]:
    """Group the 252 rolls by how the lower boxes score them.

    A lower box scores a roll either its sum (three/four of a kind, chance) or a fixed number (0, 25, 30,
    40, 50). Rolls sharing that pattern differ only by their sum, so the best lower box of every roll is
    ``max(sum + A[pattern], C[pattern])`` with two small per-pattern vectors: one gather instead of seven
    passes over all rolls.
    """
    sums = np.array([sum(roll) for roll in ROLLS], dtype=np.int64)
    keys: dict[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], int] = {}
    pattern_of_roll = []
    for r, roll in enumerate(ROLLS):
        summed = tuple(
            c
            for c in range(UPPER, CATEGORIES)
            if SCORE_TABLE[r, c] and SCORE_TABLE[r, c] == sum(roll) and c in _SUM_BOXES
        )
        fixed = tuple((c, int(SCORE_TABLE[r, c])) for c in range(UPPER, CATEGORIES) if c not in summed)
        pattern_of_roll.append(keys.setdefault((summed, fixed), len(keys)))
    ordered = sorted(keys, key=keys.__getitem__)
    return (
        sums,
        np.array(pattern_of_roll, dtype=np.int64),
        tuple(summed for summed, _ in ordered),
        tuple(fixed for _, fixed in ordered),
    )


def reachable_upper_totals() -> list[set[int]]:
    """For each upper mask (6 bits), the upper totals (capped at 63) that can be on a card."""
    totals: list[set[int]] = []
    for mask in range(1 << UPPER):
        reachable = {0}
        for face in FACES:
            if mask >> (face - 1) & 1:
                reachable = {min(UPPER_CAP, t + face * n) for t in reachable for n in range(6)}
        totals.append(reachable)
    return totals


def canonical_uppers() -> IntArray:
    """``(8192, 64)``: for each state, the representative upper total with the same future.

    Once the bonus is earned (63) or can no longer be earned, or once every upper box is used,
    the exact upper total no longer changes any future score, so those totals share one value
    (63 when earned, 0 otherwise).
    """
    masks = np.arange(FULL_MASK + 1)[:, None]
    totals = np.arange(UPPER_CAP + 1)[None, :]
    faces = np.array(FACES)
    unused = ((masks & ((1 << UPPER) - 1)) >> (faces - 1)[None, :]) & 1 == 0
    still_possible = (5 * faces[None, :] * unused).sum(axis=1, keepdims=True)
    upper_full = (masks & ((1 << UPPER) - 1)) == (1 << UPPER) - 1
    canonical = np.where(totals >= UPPER_CAP, UPPER_CAP, np.where(totals + still_possible < UPPER_CAP, 0, totals))
    result: IntArray = np.where(upper_full, 0, canonical).astype(np.int64)
    return result
