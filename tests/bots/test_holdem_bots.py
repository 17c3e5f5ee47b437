"""Dice Hold'em bots: they decide from views only, the expert learns how its opponent bets, and small
seeded duels keep the strength ladder from rotting. The full figures come from
``dicepoker simulate holdem --bots expert,equity --hands 20000 --seed 2026`` (and ``expert,random``,
``equity,random``)."""

from __future__ import annotations

from functools import cache
from random import Random

from dicepoker.arena.duel import DuelReport, duel
from dicepoker.bots.base import RandomBot
from dicepoker.bots.holdem import EquityBot, ExpertBot, estimate_equity
from dicepoker.bots.registry import create_bot
from dicepoker.core import Match
from dicepoker.dice.suited import parse_suited
from dicepoker.games.betting import Call, Fold, Raise
from dicepoker.games.holdem import HoldemGame, HoldemView, Phase
from tests.bots.expert_checks import assert_decides_from_views_only, learning_session


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
    mean = duel("holdem", EquityBot(), RandomBot(), hands=150, seed=3).mean
    assert mean > 0


def river_view(pocket: str, board: str) -> HoldemView:
    """Seat 1 (the dealer) faces a bet of 20 into 80 on the river, after checks on every earlier street."""
    return HoldemView(
        seat=1, players=2, phase=Phase.HAND, hand=1, dealer=1, street="river", stacks=(950, 970), bets=(20, 0),
        pots=((100, (0, 1)),), in_hand=(True, True), pocket=parse_suited(pocket), pocket_counts=(2, 2),
        board=parse_suited(board), to_act=(1,), rolling=False, raise_count=1, last_showdown=None,
        resigned=frozenset(), over=False,
    )  # fmt: skip


def test_equity_folds_to_a_bet_what_the_old_rule_called() -> None:
    """The old rule called whenever its equity against a random pocket beat the pot odds (here 20%), so it
    paid off every value bet; a bet leaves the opponent's stronger pockets, and this one is behind them."""
    view, legal = river_view("5y 4b", "2b 5y 6r 6r 2r"), [Fold(), Call(), Raise(40)]
    assert estimate_equity(view, 4000, Random(1)) > 0.2 + 0.05  # the old rule called
    assert EquityBot().choose(view, legal, Random(0)) == Fold()
    assert EquityBot().choose(river_view("6b 6w", "2b 5y 6r 6r 2r"), legal, Random(0)) == Raise(40)


def test_expert_decides_from_views_only() -> None:
    """Two experts follow one 3-player game; one is shown views of a copy where everybody else's pocket
    dice were redrawn. Anything hidden that leaked into a decision would split them."""
    match = Match(HoldemGame(players=3, stack=200), seed=4)
    assert_decides_from_views_only(match, ExpertBot, 3)


@cache
def session(opponent: str) -> tuple[ExpertBot, DuelReport]:
    """An expert after a short seeded heads-up session, and the session's result."""
    expert = ExpertBot()
    return expert, learning_session("holdem", expert, opponent, hands=200 if opponent == "random" else 300)


def test_expert_beats_random_and_reads_its_bets_as_noise() -> None:
    expert, report = session("random")
    low, _ = report.interval
    assert low > 0, report.summary()
    assert expert.model.informativeness < 0.3


def test_expert_beats_equity_and_reads_it_as_a_value_bettor() -> None:
    expert, report = session("equity")
    assert report.mean > 0, report.summary()
    assert expert.model.informativeness > 0.6
