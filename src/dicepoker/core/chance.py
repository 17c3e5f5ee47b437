"""Exact chance outcomes and sampling from an injected RNG.

Probabilities are :class:`fractions.Fraction` so that tests can check they sum to exactly one and
analysis code can enumerate them without rounding. Sampling uses integer weights on a common
denominator, so a seed gives the same outcome on every platform.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm
from random import Random
from typing import TypeVar

T = TypeVar("T")


def sample_exact(outcomes: Sequence[tuple[T, Fraction]], rng: Random) -> T:
    """Draw one outcome with exactly its probability.

    >>> from random import Random
    >>> sample_exact([("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))], Random(1))
    'heads'
    """
    if not outcomes:
        raise ValueError("no outcomes to sample from")
    denominator = lcm(*(p.denominator for _, p in outcomes))
    ticket = rng.randrange(denominator)
    for outcome, probability in outcomes:
        ticket -= probability.numerator * (denominator // probability.denominator)
        if ticket < 0:
            return outcome
    raise ValueError("outcome probabilities sum to less than one")
