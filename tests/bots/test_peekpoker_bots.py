"""PeekPoker bots: legal choices from views only, sensible ace decisions, and a seeded strength ladder."""

from __future__ import annotations

import copy
from functools import cache
from random import Random

import pytest

from dicepoker.analysis.peekpoker_equity import hand_equity
from dicepoker.arena.duel import DuelReport
from dicepoker.bots.peekpoker import EquityBot, ExpertBot
from dicepoker.bots.registry import bot_names, create_bot
from dicepoker.core import CHANCE, Match
from dicepoker.dice.poker import parse_dice
from dicepoker.games.betting import Call, Fold
from dicepoker.games.peekpoker import PeekPokerGame, PeekPokerState, RerollAces, Stand
from tests.bots.expert_checks import assert_decides_from_views_only, learning_session
from tests.games.peekpoker.test_rules import run


def test_registered() -> None:
    assert bot_names("peekpoker")[:3] == ["random", "equity", "expert"]  # then the styles (test_styles)


@pytest.mark.parametrize("name", ["random", "equity", "expert"])
def test_bots_play_legal_actions_from_views(name: str) -> None:
    """Each bot gets a view and the legal actions only, and always returns one of them (2-4 players)."""
    for players in (2, 3, 4):
        match = Match(PeekPokerGame(players=players, forced_bet=players == 3), seed=players)
        bot, rng = create_bot("peekpoker", name), Random(players)
        for _ in range(300):
            if match.state.is_terminal:
                break
            to_act = match.state.to_act
            assert to_act is not CHANCE
            seat = to_act[0]
            legal = match.state.legal_actions(seat)
            action = bot.choose(match.state.view(seat), legal, rng)
            assert action in legal
            match.act(action, seat)


def aces_decision(mine: str, theirs: str, board: str) -> PeekPokerState:
    game = PeekPokerGame(players=2)
    return run(
        game.initial_state(),
        "high-roll 6 1",
        f"rolled {mine}",
        f"rolled {theirs}",
        "check",
        "check",
        f"rolled {board}",
        "check",
        "check",
    )


@pytest.mark.parametrize("bot", [EquityBot(), ExpertBot()])
def test_PK_8_bots_keep_or_break_a_straight(bot: EquityBot | ExpertBot) -> None:
    """PK-8: the aces of a straight are kept against a weaker hand; behind a large straight one ace is
    kept for the straight and the other re-rolled to chase the 9 (a tie)."""
    ahead = aces_decision("A A K", "9 9 J", "T J Q")  # seat 1: straight; seat 0: two pairs
    assert ahead.to_act == (1,)
    assert bot.choose(ahead.view(1), ahead.legal_actions(1), Random(0)) == Stand()
    behind = aces_decision("A A K", "9 A K", "T J Q")  # seat 0 holds 9 T J Q K A: a large straight
    assert behind.to_act == (1, 0)
    assert bot.choose(behind.view(1), behind.legal_actions(1), Random(0)) == RerollAces(1)
    assert bot.choose(behind.view(0), behind.legal_actions(0), Random(0)) == Stand()


def test_equity_tables() -> None:
    assert hand_equity(parse_dice("A A A"), (), rerolls=False) > 0.85
    # A large straight only ties another: 6 of the 216 opponent rolls.
    assert hand_equity(parse_dice("9 T J"), parse_dice("Q K A"), rerolls=False) == pytest.approx(1 - 3 / 216)
    assert (
        abs(hand_equity(parse_dice("9 9 9"), (), rerolls=False) - hand_equity(parse_dice("9 9 9"), (), rerolls=True))
        < 0.2
    )


def _chips_per_hand(strong: str, weak: str, hands: int, seed: int) -> float:
    bots = {strong: create_bot("peekpoker", strong), weak: create_bot("peekpoker", weak)}
    total, played, game = 0, 0, 0
    while played < hands:
        names = (strong, weak) if game % 2 == 0 else (weak, strong)
        me = names.index(strong)
        match, rng = Match(PeekPokerGame(players=2), seed=seed + game), Random(seed + game)
        start = match.state.hand
        while not match.state.is_terminal and match.state.hand - start < hands - played:
            seat = match.state.to_act[0]  # type: ignore[index]
            match.act(bots[names[seat]].choose(match.state.view(seat), match.state.legal_actions(seat), rng), seat)
        state = match.state
        assert isinstance(state, PeekPokerState)
        total += state.chips()[me] - 48
        played += max(1, state.hand - start + (1 if state.is_terminal else 0))
        game += 1
    return total / played


def test_strength_ladder_smoke() -> None:
    """A short seeded check of the ladder over games of many hands (the duels of one hand each are in
    the README). Expert against the sounder equity bot is close over so few hands: see
    test_expert_beats_equity_and_reads_it_as_a_value_bettor for a longer session."""
    assert _chips_per_hand("equity", "random", 300, 1) > 0
    assert _chips_per_hand("expert", "random", 300, 1) > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_expert_decides_from_views_only(players: int) -> None:
    """Two experts follow one game; one is shown views of a copy where everybody else's hidden dice
    (and pending ace choices) were redrawn. Anything hidden that leaked into a decision would split them."""
    match = Match(PeekPokerGame(players=players, forced_bet=players == 3), seed=players)
    assert_decides_from_views_only(match, ExpertBot, players)


@cache
def session(opponent: str) -> tuple[ExpertBot, DuelReport]:
    """An expert after a short seeded heads-up session, and the session's result."""
    expert = ExpertBot()
    return expert, learning_session("peekpoker", expert, opponent, hands=300 if opponent == "random" else 600)


def test_expert_beats_random_and_reads_its_bets_as_noise() -> None:
    expert, report = session("random")
    low, _ = report.interval
    assert low > 0, report.summary()
    assert expert.model.informativeness < 0.3


def test_expert_beats_equity_and_reads_it_as_a_value_bettor() -> None:
    expert, report = session("equity")
    assert report.mean > 0, report.summary()
    assert expert.model.informativeness > 0.6


def test_equity_reads_a_shove_as_strength_where_the_old_rule_called() -> None:
    """Q Q 9 has 55% against a random hand: the old rule (equity against a random hand above one half)
    called any shove with it, paying off every value bet. A shove leaves the opponent's better hands."""
    state = run(PeekPokerGame(players=2).initial_state(), "high-roll 6 1", "rolled 9 T Q", "rolled 9 Q Q", "bet 47")
    view, legal = state.view(0), state.legal_actions(0)
    assert hand_equity(view.own, view.community, rerolls=False) > 0.5  # the old rule called
    assert EquityBot().choose(view, legal, Random(0)) == Fold()
    # With A A K it still calls: ahead of the hands that shove.
    strong = run(PeekPokerGame(players=2).initial_state(), "high-roll 6 1", "rolled 9 T Q", "rolled A A K", "bet 47")
    assert EquityBot().choose(strong.view(0), strong.legal_actions(0), Random(0)) == Call()


def test_a_shove_is_called_from_a_random_bettor_and_folded_to_a_tight_one() -> None:
    """K K 9 wins about 58% against a random hand; calling 47 into 49 needs 49%. Against a bot whose
    bets carry no information that is a call; against one that never shoves without a monster, a fold."""
    state = run(PeekPokerGame(players=2).initial_state(), "high-roll 6 1", "rolled 9 T Q", "rolled 9 K K", "bet 47")
    assert state.to_act == (0,)
    view, legal = state.view(0), state.legal_actions(0)
    assert copy.deepcopy(session("random")[0]).choose(view, legal, Random(0)) == Call()
    assert copy.deepcopy(session("equity")[0]).choose(view, legal, Random(0)) == Fold()
