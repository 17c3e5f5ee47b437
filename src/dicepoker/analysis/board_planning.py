"""Exact planning of one five-dice turn (BD-4): which dice to re-roll to make the best of the rolls left.

A turn is a small Markov decision process over the 252 sorted rolls. Given the value of stopping with
each roll, :func:`turn_values` gives the value of each roll with 0, 1 or 2 re-rolls left under the best
re-roll plan, from the exact chance outcomes. Two versions share the tables: NumPy floats for bots, and
:class:`fractions.Fraction` for exact odds.

>>> target = [1.0 if len(set(d)) == 1 else 0.0 for d in ROLLS]   # five of a kind
>>> round(float(fresh_turn_value(turn_values(np.array(target)))), 5)
0.04603
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt

from dicepoker.dice.standard import FACES, ROLL_INDEX, ROLLS, Dice, outcomes
from dicepoker.games.dice_turn import DICE, MAX_ROLLS

FloatArray = npt.NDArray[np.float64]

KEEPS: tuple[Dice, ...] = tuple(keep for size in range(DICE) for keep in combinations_with_replacement(FACES, size))
"""Every sorted multiset of kept dice when at least one die is re-rolled (sizes 0 to 4): 210 of them."""
KEEP_INDEX = {keep: i for i, keep in enumerate(KEEPS)}
EMPTY_KEEP = KEEP_INDEX[()]
REROLLS_PER_TURN = MAX_ROLLS - 1


def _transitions() -> tuple[tuple[tuple[int, Fraction], ...], ...]:
    rows = []
    for keep in KEEPS:
        rows.append(
            tuple(
                (ROLL_INDEX[tuple(sorted(keep + rolled))], probability)
                for rolled, probability in outcomes(DICE - len(keep))
            )
        )
    return tuple(rows)


TRANSITIONS = _transitions()
"""For each kept multiset: (resulting roll index, exact probability) of every outcome of the re-roll."""
TRANSITION_MATRIX: FloatArray = np.zeros((len(KEEPS), len(ROLLS)))
for _k, _row in enumerate(TRANSITIONS):
    for _r, _p in _row:
        TRANSITION_MATRIX[_k, _r] += float(_p)

# For each sorted roll and each choice of 1-5 positions (of the sorted dice) to re-roll: the kept multiset.
_MASKS = tuple(combo for size in range(1, DICE + 1) for combo in combinations(range(DICE), size))
KEEP_CHOICES = np.array(
    [[KEEP_INDEX[tuple(d for i, d in enumerate(roll) if i not in mask)] for mask in _MASKS] for roll in ROLLS],
    dtype=np.int64,
)


def turn_values(stop: FloatArray) -> tuple[FloatArray, ...]:
    """Values of each roll with 0, 1, 2 re-rolls left, stopping with value ``stop[roll]`` at best."""
    values = [np.asarray(stop, dtype=np.float64)]
    for _ in range(REROLLS_PER_TURN):
        expected = TRANSITION_MATRIX @ values[-1]
        values.append(np.maximum(values[0], expected[KEEP_CHOICES].max(axis=1)))
    return tuple(values)


def fresh_turn_value(values: Sequence[FloatArray]) -> float:
    """The value of a turn before its first roll (all five dice rolled, then two re-rolls left)."""
    return float(TRANSITION_MATRIX[EMPTY_KEEP] @ values[REROLLS_PER_TURN])


def best_reroll(dice: Dice, rerolls_left: int, values: Sequence[FloatArray]) -> tuple[tuple[int, ...] | None, float]:
    """The positions (0-based, of ``dice`` as they lie) to re-roll, or ``None`` to stop; and the value.

    Ties go to stopping, then to re-rolling fewer dice.
    """
    roll = ROLL_INDEX[tuple(sorted(dice))]
    stop_value = float(values[0][roll])
    if rerolls_left <= 0:
        return None, stop_value
    expected = TRANSITION_MATRIX @ values[rerolls_left - 1]
    order = sorted(range(DICE), key=lambda i: dice[i])
    best_mask: tuple[int, ...] | None = None
    best_value = stop_value
    for column, mask in enumerate(_MASKS):
        value = float(expected[KEEP_CHOICES[roll, column]])
        if value > best_value + 1e-12:
            best_mask, best_value = mask, value
    if best_mask is None:
        return None, stop_value
    return tuple(sorted(order[i] for i in best_mask)), best_value


# -- exact ------------------------------------------------------------------------------------------
def exact_turn_values(stop: Sequence[Fraction]) -> tuple[tuple[Fraction, ...], ...]:
    """:func:`turn_values` in exact arithmetic (slower: for odds, not for bots)."""
    values = [tuple(stop)]
    for _ in range(REROLLS_PER_TURN):
        last = values[-1]
        expected = [sum((p * last[r] for r, p in row), Fraction(0)) for row in TRANSITIONS]
        values.append(
            tuple(max(values[0][r], max(expected[k] for k in KEEP_CHOICES[r].tolist())) for r in range(len(ROLLS)))
        )
    return tuple(values)


@cache
def reach_probability(target: frozenset[int]) -> tuple[Fraction, Fraction]:
    """Exact chance that a roll index in ``target`` shows in one roll, and within a turn of three rolls
    under the best re-roll plan for that target."""
    indicator = [Fraction(1) if r in target else Fraction(0) for r in range(len(ROLLS))]
    values = exact_turn_values(indicator)
    first = TRANSITIONS[EMPTY_KEEP]
    one_roll = sum((p * indicator[r] for r, p in first), Fraction(0))
    in_turn = sum((p * values[REROLLS_PER_TURN][r] for r, p in first), Fraction(0))
    return one_roll, in_turn
