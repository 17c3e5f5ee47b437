"""The scorecard review: every decision of a logged game judged against optimal play (SC-14 timeouts included).

One review for every client: the terminal prints it after a game, the browser asks ``/api/web/review`` for it.
A decision's cost is the expected final total it gives up against the optimal strategy's best choice
(:mod:`dicepoker.analysis.scorecard_solver`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dicepoker.analysis.scorecard_solver import Strategy
from dicepoker.core.log import EventLog
from dicepoker.core.steps import replay_steps
from dicepoker.core.types import JSON, Action, Seat, Timeout
from dicepoker.dice.scoring import scores
from dicepoker.games.dice_turn import Reroll, Rolled
from dicepoker.games.scorecard import Card, Score, ScorecardGame, ScorecardState, default_category


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision after a roll, judged against optimal play (expected final totals of the card)."""

    seat: Seat
    round: int
    dice: tuple[int, ...]
    rolls_used: int
    chosen: Action
    best: Action
    loss: float
    timed_out: bool

    def to_json(self) -> dict[str, JSON]:
        """The browser's form: actions in words with box labels (``score Full house (25)``), loss to 0.001."""
        return {
            "seat": self.seat,
            "round": self.round,
            "dice": list(self.dice),
            "rolls_used": self.rolls_used,
            "chosen": describe(self.chosen, self.dice, labels=True),
            "best": describe(self.best, self.dice, labels=True),
            "loss": round(self.loss, 3),
            "timed_out": self.timed_out,
        }


def judge(strategy: Strategy, card: Card, dice: Sequence[int], rolls_used: int, chosen: Action) -> tuple[Action, float]:
    """The optimal action here and how many expected points ``chosen`` gives up against it."""
    values = strategy.action_values(card, tuple(dice), rolls_used)
    best_action, best_value = values[0]
    return best_action, best_value - dict(values)[chosen]


def review_decisions(log: EventLog, strategy: Strategy) -> list[Decision]:
    """Every decision made after a roll in a logged scorecard game, with its cost against optimal play.

    A timeout counts as the decision the engine made for the player (SC-14): the box it filled. Raises
    :class:`~dicepoker.core.errors.DicePokerError` (a bad config, an unreadable or illegal event).
    """
    decisions = []
    for step in replay_steps(ScorecardGame(**log.config), log.events):
        event, action, state = step.event, step.action, step.before
        assert isinstance(state, ScorecardState)
        seat = state.seat
        card = state.cards[seat]
        judged: tuple[tuple[int, ...], int, Action, bool] | None = None
        if event.seat is not None and state.turn.has_rolled and isinstance(action, (Reroll, Score, Timeout)):
            dice = state.turn.dice
            chosen: Action = Score(default_category(card, dice)) if isinstance(action, Timeout) else action
            judged = (dice, state.turn.rolls, chosen, isinstance(action, Timeout))
        elif isinstance(action, Rolled) and state.auto_complete and not state.turn.has_rolled:
            # A timeout before the first roll: the engine rolled once and scored what landed.
            judged = (action.dice, 1, Score(default_category(card, action.dice)), True)
        if judged is not None:
            dice, rolls_used, chosen, timed_out = judged
            best, loss = judge(strategy, card, dice, rolls_used, chosen)
            round_number = sum(box is not None for box in card) + 1
            decisions.append(Decision(seat, round_number, dice, rolls_used, chosen, best, loss, timed_out))
    return decisions


def describe(action: Action, dice: Sequence[int], *, labels: bool = False) -> str:
    """An action in words of dice values (never positions): ``keep 6 6``, ``score full-house (25)``.

    ``labels``: name a box by its label (``score Full house (25)``, the browser's form), not its slug.

    >>> from dicepoker.dice.scoring import Category
    >>> describe(Reroll((0, 2)), (6, 3, 1, 6, 6)), describe(Score(Category.FULL_HOUSE), (2, 2, 3, 3, 3))
    ('keep 3 6 6', 'score full-house (25)')
    """
    if isinstance(action, Reroll):
        kept = sorted(d for i, d in enumerate(dice) if i not in action.positions)
        return f"keep {' '.join(map(str, kept))}" if kept else "re-roll all five"
    if isinstance(action, Score):
        name = f"score {action.category.label}" if labels else str(action)
        return f"{name} ({scores(tuple(dice))[action.category]})"
    return str(action)
