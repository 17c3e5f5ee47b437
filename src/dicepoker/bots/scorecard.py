"""Scorecard bots: ``greedy`` (best points this turn) and ``optimal`` (best expected final total).

Both plan the whole three-roll turn exactly with the solver's turn machinery; they differ only in what
a filled box is worth afterwards: nothing for ``greedy``, the solved value of the card for ``optimal``.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

import numpy as np

from dicepoker.analysis.scorecard_solver import Strategy, load_strategy
from dicepoker.analysis.scorecard_tables import FULL_MASK, UPPER_CAP
from dicepoker.core.types import Action, View
from dicepoker.games.dice_turn import Roll
from dicepoker.games.scorecard import ScorecardView


class _PlanningBot:
    name = "planning"

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        if not isinstance(view, ScorecardView):
            raise TypeError(f"{self.name} plays scorecard only, got {type(view).__name__}")
        if not view.dice or view.rolling:
            return next(a for a in legal if isinstance(a, Roll))
        card = view.cards[view.to_play]
        ranked = self.strategy.action_values(card, view.dice, view.rolls_used)
        allowed = {str(a) for a in legal}
        return next(action for action, _ in ranked if str(action) in allowed)


class GreedyBot(_PlanningBot):
    """Maximises the expected points scored this turn (upper bonus included), ignoring later turns."""

    name = "greedy"

    def __init__(self) -> None:
        super().__init__(Strategy(np.zeros((FULL_MASK + 1, UPPER_CAP + 1))))


class OptimalBot(_PlanningBot):
    """Maximises the expected final total of its own card: provably optimal for solitaire play."""

    name = "optimal"

    def __init__(self, strategy: Strategy | None = None) -> None:
        super().__init__(strategy or load_strategy().strategy)
