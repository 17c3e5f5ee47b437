"""Dice Hold'em bots. Each decides from its view and the legal actions only (DESIGN §11).

* ``equity``: estimates its chance to win at showdown against random hidden dice (Monte Carlo over the
  dice still unseen), calls when that beats the pot odds it is offered, bets or raises strong hands.
* ``expert``: the same estimate, played better: it bets any hand above its fair share (the equity bot
  folds too much to bets), raises for value more often, and discounts its equity when an opponent has
  shown strength this round (the equity bot only raises strong hands).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

import numpy as np

from dicepoker.bots.base import Bot
from dicepoker.core.types import Action, View
from dicepoker.dice.suited import BAG, best_values, code
from dicepoker.games.betting import Bet, Call, Check, Fold, Raise
from dicepoker.games.holdem import HoldemView


def estimate_equity(view: HoldemView, samples: int, rng: Random) -> float:
    """Share of the pot this seat's dice win on average against random hidden dice of every opponent still in."""
    if view.seat is None:
        raise ValueError("a spectator has no equity")
    opponents = sum(1 for s, flag in enumerate(view.in_hand) if flag and s != view.seat)
    if opponents == 0:
        return 1.0
    known = [*view.pocket, *view.board]
    left = list(BAG)
    for _, suit in known:
        left[suit] -= 1
    suits_left = np.repeat(np.arange(4), left)
    needed = 5 - len(view.board) + 2 * opponents
    generator = np.random.default_rng(rng.getrandbits(64))
    order = np.argsort(generator.random((samples, len(suits_left))), axis=1)[:, :needed]
    drawn = suits_left[order] + 4 * generator.integers(0, 6, size=(samples, needed))
    board_known = np.array([code(d) for d in view.board], dtype=np.int64)
    board_fill = drawn[:, : 5 - len(view.board)]
    board = np.concatenate([np.broadcast_to(board_known, (samples, len(view.board))), board_fill], axis=1)
    mine = best_values(np.concatenate([np.broadcast_to([code(d) for d in view.pocket], (samples, 2)), board], 1))
    best_other = np.zeros(samples, dtype=np.int32)
    ties = np.zeros(samples, dtype=np.int32)
    for k in range(opponents):
        start = 5 - len(view.board) + 2 * k
        theirs = best_values(np.concatenate([drawn[:, start : start + 2], board], axis=1))
        ties = np.where(theirs > best_other, 1, ties + (theirs == best_other))
        best_other = np.maximum(best_other, theirs)
    win = mine > best_other
    tie = mine == best_other
    share = np.where(win, 1.0, np.where(tie, 1.0 / (ties + 1), 0.0))
    return float(share.mean())


class EquityBot:
    """Bets by hand equity against the pot odds it is offered."""

    name = "equity"
    samples = 200
    value_margin = 0.45
    """Bet or raise when equity exceeds the fair share by this fraction of what is above it."""
    bluff_margin = 1.0
    """Bet without a bet to face when equity exceeds the fair share by this fraction (1.0: never)."""
    respect = 0.0
    """How much an opponent's bet or raise this round lowers the equity estimate."""

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        assert isinstance(view, HoldemView) and view.seat is not None
        equity = estimate_equity(view, self.samples, rng)
        me = view.seat
        to_call = max(view.bets) - view.bets[me]
        if to_call > 0:
            equity *= 1.0 - self.respect * min(1, view.raise_count)
        opponents = sum(1 for s, flag in enumerate(view.in_hand) if flag and s != me)
        fair = 1.0 / (opponents + 1)
        increases = [a for a in legal if isinstance(a, (Bet, Raise))]
        if increases and equity > fair + (1 - fair) * self.value_margin:
            return max(increases, key=lambda a: a.to)
        if to_call == 0:
            if increases and equity > fair + (1 - fair) * self.bluff_margin:
                return min(increases, key=lambda a: a.to)
            return Check()
        pot_odds = to_call / (view.pot_total + to_call)
        return Call() if equity >= pot_odds else Fold()


class ExpertBot(EquityBot):
    """Equity play with more aggression and respect for opponents' raises: beats ``equity`` head-up."""

    name = "expert"
    samples = 300
    value_margin = 0.3
    bluff_margin = 0.0
    respect = 0.15


def duel(first: Bot, second: Bot, hands: int, seed: int) -> tuple[float, float]:
    """Chips per hand ``first`` wins from ``second`` over independent heads-up hands (stacks 1,000 each).

    The mean and the half-width of its 95% confidence interval; see :func:`dicepoker.analysis.duel.duel`,
    which plays the hands (seats alternate, hand ``i`` seeded by ``(seed, i)``).
    """
    from dicepoker.analysis.duel import duel as heads_up

    report = heads_up("holdem", first, second, hands, seed)
    return report.mean, report.half_width
