"""Board bots: legal choices from views only, exact turn planning, and small seeded strength checks.

The full statistic (2,000 games) is documented in the report of the board issue:
``dicepoker simulate zepherin --bots expert,greedy --games 1000 --seed 2024`` (and swapped seats).
"""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from dicepoker.arena.simulate import simulate
from dicepoker.bots.board import ExpertBot, GreedyBot
from dicepoker.bots.registry import bot_names, create_bot
from dicepoker.core.match import Match
from dicepoker.games.board.actions import Claim
from dicepoker.games.board.rules import ZepherinGame
from dicepoker.games.dice_turn import DiceTurn, Reroll


@pytest.mark.parametrize("game", ["zepherin", "classic-board"])
def test_registered(game: str) -> None:
    assert bot_names(game) == ["random", "greedy", "expert"]


@pytest.mark.parametrize("bot", [GreedyBot(), ExpertBot(), ExpertBot(lookahead=False)])
def test_bots_choose_legal_actions_from_views(bot: GreedyBot | ExpertBot) -> None:
    match = Match(ZepherinGame(), seed=5)
    rng = Random(5)
    for _ in range(300):
        if match.state.is_terminal:
            break
        seat = match.state.current_seat
        assert seat is not None
        legal = match.state.legal_actions(seat)
        action = bot.choose(match.state.view(seat), legal, rng)
        assert action in legal
        match.act(action, seat)


def test_expert_completes_a_winning_run_and_blocks_a_winning_threat() -> None:
    game = ZepherinGame(runs_to_win=1)
    state = replace(game.initial_state(), opening=None)
    position = state.position
    for col in range(4):
        position = position.place(col, 0)  # row 1, columns 1-4: team 0 needs row 1, col 5 (P2)
    wild = replace(state, position=position, turn=DiceTurn((6, 6, 6, 6, 6), 1, ()))
    assert ExpertBot().choose(wild.view(0), wild.legal_actions(), Random(0)) == Claim(0, 4)
    block = replace(wild, seat=1)
    assert ExpertBot().choose(block.view(1), block.legal_actions(), Random(0)) == Claim(0, 4)


def test_expert_rerolls_towards_what_it_needs() -> None:
    state = replace(ZepherinGame().initial_state(), opening=None, turn=DiceTurn((1, 2, 3, 4, 6), 1, ()))
    action = ExpertBot().choose(state.view(0), state.legal_actions(), Random(0))
    assert isinstance(action, Reroll)


def test_greedy_beats_random_seeded() -> None:
    report = simulate("zepherin", ["greedy", "random"], games=20, seed=3)
    assert report.seats[0].wins.count >= 18


def test_expert_beats_greedy_seeded() -> None:
    report = simulate("zepherin", ["expert", "greedy"], games=8, seed=3)
    swapped = simulate("zepherin", ["greedy", "expert"], games=8, seed=4)
    assert report.seats[0].wins.count + swapped.seats[1].wins.count >= 11


def test_create_bot_by_name() -> None:
    assert isinstance(create_bot("classic-board", "expert"), ExpertBot)
