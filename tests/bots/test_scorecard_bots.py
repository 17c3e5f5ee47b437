"""Scorecard bots: legality, and small seeded versions of the statistical claims (see README)."""

from __future__ import annotations

import math
import statistics
from random import Random

import pytest

from dicepoker.bots import bot_names, create_bot
from dicepoker.core import ConfigError, Match
from dicepoker.games.registry import create

EXACT_OPTIMUM = 245.870775


def solo_scores(bot_name: str, games: int, seed: int = 0) -> list[int]:
    bot = create_bot("scorecard", bot_name)
    game = create("scorecard", players=1)
    scores = []
    for index in range(games):
        match = Match(game, seed=seed * 1_000_003 + index)
        rng = Random(index)
        while not match.state.is_terminal:
            seat = match.state.current_seat
            assert seat is not None
            match.act(bot.choose(match.state.view(seat), match.state.legal_actions(), rng))
        scores.append(match.state.result().scores[0])
    return scores


def test_bot_registry() -> None:
    assert bot_names("scorecard") == ["random", "greedy", "optimal"]
    with pytest.raises(ConfigError, match="choose one of"):
        create_bot("scorecard", "clever")


@pytest.mark.parametrize("name", ["random", "greedy", "optimal"])
def test_bots_play_legal_full_games(name: str) -> None:
    assert len(solo_scores(name, 3)) == 3


def test_optimal_mean_lies_within_its_ci_of_the_exact_value() -> None:
    """Small seeded version of `dicepoker simulate scorecard --bots optimal --games 20000 --seed 0`."""
    scores = solo_scores("optimal", 300)
    mean = statistics.fmean(scores)
    half_width = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))
    assert abs(mean - EXACT_OPTIMUM) <= half_width


def test_optimal_outscores_greedy_and_greedy_outscores_random() -> None:
    assert statistics.fmean(solo_scores("optimal", 60)) > statistics.fmean(solo_scores("greedy", 60))
    assert statistics.fmean(solo_scores("greedy", 60)) > statistics.fmean(solo_scores("random", 60)) + 50


def test_bots_share_one_read_only_strategy_per_kind() -> None:
    """Issue 19 §1: one copy per process, which no bot can change for the others."""
    import numpy as np

    from dicepoker.bots.scorecard import GreedyBot, OptimalBot, shared_strategy

    assert OptimalBot().strategy is OptimalBot().strategy is shared_strategy("optimal")
    assert GreedyBot().strategy is shared_strategy("greedy") is not shared_strategy("optimal")
    values = shared_strategy("optimal").values
    assert not values.flags.writeable
    with pytest.raises(ValueError):
        values[0, 0] = 0.0
    assert isinstance(values, np.memmap) or values.base is None  # mapped from the cache, else one copy
