"""Dice Hold'em bots decide from views, and equity beats random (small seeded run; full figures: the
command ``python -c "from dicepoker.bots.holdem import *; ..."`` in the issue note)."""

from __future__ import annotations

from random import Random

from dicepoker.bots.base import RandomBot
from dicepoker.bots.holdem import EquityBot, ExpertBot, duel, estimate_equity
from dicepoker.bots.registry import create_bot
from dicepoker.dice.suited import parse_suited
from dicepoker.games.holdem import HoldemGame


def test_bots_are_registered() -> None:
    assert isinstance(create_bot("holdem", "equity"), EquityBot)
    assert isinstance(create_bot("holdem", "expert"), ExpertBot)


def test_equity_estimate_is_sane() -> None:
    game = HoldemGame(players=2, stack=100)
    state = game.initial_state()
    for text in ("highroll 6", "highroll 1", "draw 6r", "draw 6b", "draw 1w", "draw 2y"):
        state = state.apply(game.parse_action(text))
    strong = estimate_equity(state.view(1), 2000, Random(1))
    weak = estimate_equity(state.view(0), 2000, Random(1))
    assert strong > 0.55 > weak
    assert parse_suited("6r 6b") == state.view(1).pocket


def test_equity_beats_random_in_a_small_seeded_run() -> None:
    mean, _ = duel(EquityBot(), RandomBot(), hands=150, seed=3)
    assert mean > 0
