"""The range the equity bots read into betting: bets keep the strongest hands, checks the weakest."""

from __future__ import annotations

import itertools

import numpy as np

from dicepoker.bots import ranges
from dicepoker.bots.ranges import BetsFaced, implied


def test_bets_are_counted_per_event_and_reset_with_each_hand() -> None:
    faced = BetsFaced()
    assert faced.update(0, (1, "a"), 20, 0, facing=False, checked_to=True) == (0, 1)
    # A check-raise: the round counts as a bet, not as a check.
    assert faced.update(0, (1, "a"), 40, 0, facing=True, checked_to=False) == (1, 0)
    assert faced.update(0, (1, "a"), 80, 0, facing=True, checked_to=False) == (1, 0)  # a re-raise, same round
    assert faced.update(0, (1, "a"), 90, 1, facing=True, checked_to=False) == (2, 0)
    assert faced.update(1, (1, "b"), 90, 1, facing=False, checked_to=False) == (0, 0)  # another seat
    assert faced.update(0, (2, "c"), 20, 0, facing=True, checked_to=False) == (1, 0)  # a new hand
    assert faced.update(0, (2, "c"), 20, 0, facing=True, checked_to=False) == (1, 0)
    # The same key again (another game's first hand, same dice): the pot went down, so a new hand.
    assert faced.update(0, (2, "c"), 10, 0, facing=False, checked_to=False) == (0, 0)


def test_each_bet_keeps_a_stronger_share_down_to_the_floor() -> None:
    prior = np.full(1000, 1 / 1000)
    strength = np.linspace(0, 1, 1000)
    shares = [float((implied(prior, strength, bets) > 0).mean()) for bets in range(6)]
    assert shares[0] > 0.99
    assert shares[1] == share_of(ranges.KEEP)
    assert all(a >= b for a, b in itertools.pairwise(shares))
    assert shares[-1] == share_of(ranges.FLOOR)
    kept = implied(prior, strength, 2) > 0
    assert kept[-1] and not kept[0]  # the strongest stay, the weakest go


def test_a_check_keeps_the_weaker_hands() -> None:
    prior = np.full(100, 0.01)
    strength = np.linspace(0, 1, 100)
    kept = implied(prior, strength, 0, 1) > 0
    assert kept[0] and not kept[-1]
    assert kept.mean() == share_of(ranges.CHECK_KEEP, 2)


def share_of(share: float, digits: int = 3) -> float:
    return round(share, digits)
