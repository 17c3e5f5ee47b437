"""The range an opponent's betting implies, for the ``equity`` bots of the betting games.

A player who bets or raises is, on the whole, stronger than a random hand: the ``equity`` bots weigh
their dice against the opponent's hands cut to the best ``KEEP ** k`` of them (by strength among all
hands on the board), ``k`` the bets and raises the bot has faced so far in the hand. Without memory
across hands this is no opponent model, only the assumption every sound player starts from: bets mean
strength, more bets more strength. Against a player whose bets mean nothing (a maniac) it folds too
much, which is the price of not paying off every value bet.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicepoker.bots.opponent import FloatArray, quantiles

KEEP = 0.5
"""Share of the opponent's range kept after each bet or raise the bot faces."""


@dataclass(slots=True)
class _Hand:
    key: tuple[object, ...]
    pot: int
    faced: int


class BetsFaced:
    """Counts, per seat, the bets and raises faced in the current hand: one for each decision with a
    wager to call beyond ``free`` chips (blinds and forced bets are no sign of strength). Heads-up,
    that is each bet or raise of the opponent (they act once between two of the bot's decisions).

    A hand is told apart by ``key`` (hand number, own dice) and by a pot that never shrinks within it, so
    one bot may play several seats and many games in turn (the simulator shares bots).
    """

    def __init__(self) -> None:
        self._hands: dict[int, _Hand] = {}

    def update(self, seat: int, key: tuple[object, ...], pot: int, facing: bool) -> int:
        """Record one decision of ``seat``; the bets and raises it has faced this hand, this one included."""
        hand = self._hands.get(seat)
        if hand is None or hand.key != key or pot < hand.pot:
            hand = self._hands[seat] = _Hand(key, pot, 0)
        hand.pot = pot
        hand.faced += facing
        return hand.faced


def tightened(prior: FloatArray, strength: FloatArray, faced: int) -> FloatArray:
    """``prior`` (chances of the opponent's hands) cut to the best ``KEEP ** faced`` of it by
    ``strength``, normalised. Never empty: the strongest hands are always kept.

    >>> import numpy as np
    >>> tightened(np.full(4, 0.25), np.array([0.1, 0.4, 0.3, 0.9]), 1).tolist()
    [0.0, 0.5, 0.0, 0.5]
    """
    q = quantiles(strength, prior)
    keep = q >= min(1.0 - KEEP**faced, float(q.max()))
    weights: FloatArray = np.where(keep, prior, 0.0)
    result: FloatArray = weights / weights.sum()
    return result
