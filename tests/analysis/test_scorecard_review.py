"""The scorecard review of :mod:`dicepoker.analysis.scorecard_review` (issue 18 §3): one for terminal and browser."""

from __future__ import annotations

from random import Random

import pytest

from dicepoker.analysis.scorecard_review import Decision, describe, review_decisions
from dicepoker.analysis.scorecard_solver import Strategy, load_strategy
from dicepoker.core.log import EventLog
from dicepoker.core.types import Timeout
from dicepoker.dice.scoring import Category
from dicepoker.games.dice_turn import Reroll
from dicepoker.games.scorecard import Score, ScorecardGame, default_category


@pytest.fixture(scope="module")
def strategy() -> Strategy:
    return load_strategy().strategy


def _log(actions: list[tuple[int | None, str]]) -> EventLog:
    log = EventLog("scorecard", {"players": 1}, None)
    game = ScorecardGame(players=1)
    for seat, text in actions:
        log = log.append(seat, game.parse_action(text))
    return log


def test_describe_in_slugs_for_the_terminal_and_labels_for_the_browser() -> None:
    assert describe(Reroll((0, 2)), (6, 3, 1, 6, 6)) == "keep 3 6 6"
    assert describe(Reroll((0, 1, 2, 3, 4)), (6, 3, 1, 6, 6)) == "re-roll all five"
    assert describe(Score(Category.FULL_HOUSE), (2, 2, 3, 3, 3)) == "score full-house (25)"
    assert describe(Score(Category.FULL_HOUSE), (2, 2, 3, 3, 3), labels=True) == "score Full house (25)"


def test_a_timeout_counts_as_the_box_the_engine_filled_SC_14(strategy: Strategy) -> None:
    dice = (2, 2, 6, 6, 6)  # the rules keep a roll sorted
    log = _log([(0, "roll"), (None, "rolled 6 6 6 2 2"), (0, "timeout")])
    (decision,) = review_decisions(log, strategy)
    card = ScorecardGame(players=1).initial_state().cards[0]
    assert decision.timed_out and decision.dice == dice and decision.rolls_used == 1 and decision.round == 1
    assert decision.chosen == Score(default_category(card, dice))
    assert decision.loss >= 0
    assert decision.to_json()["timed_out"] is True


def test_an_optimal_game_loses_nothing(strategy: Strategy) -> None:
    game, rng = ScorecardGame(players=1), Random(4)
    state, log = game.initial_state(), EventLog("scorecard", {"players": 1}, None)
    while not state.is_terminal:
        if state.is_chance:
            action, seat = state.sample_chance(rng), None
        else:
            seat = 0
            legal = list(state.legal_actions(0))
            action = legal[0]
            if state.turn.has_rolled:
                action = strategy.action_values(state.cards[0], state.turn.dice, state.turn.rolls)[0][0]
        log, state = log.append(seat, action), state.apply(action, seat)
    decisions = review_decisions(log, strategy)
    assert len(decisions) >= 13 and all(isinstance(d, Decision) for d in decisions)
    assert sum(d.loss for d in decisions) < 1e-6
    assert not any(isinstance(d.chosen, Timeout) for d in decisions)
