"""The range an opponent's betting implies, for the ``equity`` bots of the betting games.

A player who bets or raises is, on the whole, stronger than a random hand: the ``equity`` bots weigh
their dice against the opponent's hands cut to the best ``KEEP ** k`` of them (by strength among all
hands on the board), ``k`` the bets and raises the bot has faced so far in the hand. Without memory
across hands this is no opponent model, only the assumption every sound player starts from: bets mean
strength, more bets more strength. Against a player whose bets mean nothing (a maniac) it folds too
much, which is the price of not paying off every value bet.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np

from dicepoker.bots.opponent import FloatArray, quantiles

KEEP = 0.7
"""Share of the opponent's range kept (the strongest) after each bet or raise the bot faces."""
FLOOR = 0.45
"""The smallest share of the opponent's range bets leave: the bot stops tightening there, so that a
player who bets every round does not push it off the hands it has called with."""
CHECK_KEEP = 0.6
"""Share of the opponent's range kept (the weakest) after each check to the bot, before any bet."""


@dataclass(slots=True)
class _Hand:
    key: tuple[object, ...]
    pot: int
    bets: set[Hashable]
    checks: set[Hashable]


class BetsFaced:
    """Counts, per seat, the betting rounds of the current hand in which the bot faced a bet or raise
    (a decision with a wager to call; the caller leaves out blinds and forced bets, no sign of strength)
    and those in which it was checked to.

    A hand is told apart by ``key`` (hand number, own dice) and by a pot that never shrinks within it, so
    one bot may play several seats and many games in turn (the simulator shares bots).
    """

    def __init__(self) -> None:
        self._hands: dict[int, _Hand] = {}

    def update(
        self, seat: int, key: tuple[object, ...], pot: int, event: Hashable, *, facing: bool, checked_to: bool
    ) -> tuple[int, int]:
        """Record one decision of ``seat``: facing a bet, or checked to. ``event`` names what counts once:
        the betting round, where re-raises within a round count once (in limit games, otherwise an
        opponent who raises whatever they hold makes the bot fold its best hands after paying the most),
        or the round and the wager faced, where each raise counts. Returns how many events faced a bet
        or raise this hand, and how many more were checks to the bot."""
        hand = self._hands.get(seat)
        if hand is None or hand.key != key or pot < hand.pot:
            hand = self._hands[seat] = _Hand(key, pot, set(), set())
        hand.pot = pot
        if facing:
            hand.bets.add(event)
        if checked_to:
            hand.checks.add(event)
        return len(hand.bets), len(hand.checks - hand.bets)


def implied(prior: FloatArray, strength: FloatArray, bets: int, checks: int = 0) -> FloatArray:
    """``prior`` (chances of the opponent's hands) cut by ``strength`` to the best ``KEEP ** bets`` of it
    if they bet, else to the weakest ``CHECK_KEEP ** checks``; normalised. Never empty.

    >>> import numpy as np
    >>> prior, strength = np.full(10, 0.1), np.arange(10.0)  # ten equally likely hands, the last the best
    >>> np.flatnonzero(implied(prior, strength, 1)).tolist()  # a bet: the best 70% are left
    [3, 4, 5, 6, 7, 8, 9]
    >>> np.flatnonzero(implied(prior, strength, 0, 1)).tolist()  # a check: the weakest 60%
    [0, 1, 2, 3, 4, 5]
    """
    q = quantiles(strength, prior)
    if bets:
        keep = q >= min(1.0 - max(KEEP**bets, FLOOR), float(q.max()))
    else:
        keep = q <= max(CHECK_KEEP**checks, float(q.min()))
    weights: FloatArray = np.where(keep, prior, 0.0)
    result: FloatArray = weights / weights.sum()
    return result
