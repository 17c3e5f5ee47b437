"""The opponent styles of the betting games: registered, deterministic, and each playing as named."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

import pytest

from dicepoker.bots import holdem, peekpoker
from dicepoker.bots.registry import bot_names, create_bot
from dicepoker.bots.styles import STYLES, Style, decide
from dicepoker.core import Match
from dicepoker.core.types import Action, View
from dicepoker.games.betting import Bet, Call, Check, Fold, Raise
from dicepoker.games.holdem import HoldemGame, HoldemView
from dicepoker.games.peekpoker import PeekPokerGame, RerollAces, Stand

GAMES = ("holdem", "peekpoker")
Decision = tuple[View, list[Action], Action]


def decisions(game: str, name: str, players: int, seed: int, steps: int) -> Iterator[Decision]:
    """The style's first ``steps`` decisions in seeded games where it holds every seat (it meets itself)."""
    bot, rng = create_bot(game, name), Random(seed)
    for number in range(1000):
        new = HoldemGame(players=players) if game == "holdem" else PeekPokerGame(players=players)
        match = Match(new, seed=seed * 1000 + number)
        while not match.state.is_terminal:
            seat = match.state.to_act[0]  # type: ignore[index]
            view, legal = match.state.view(seat), list(match.state.legal_actions(seat))
            action = bot.choose(view, legal, rng)
            assert action in legal
            yield view, legal, action
            steps -= 1
            if steps == 0:
                return
            match.act(action, seat)


def betting(found: Iterator[Decision]) -> list[Decision]:
    return [d for d in found if not any(isinstance(a, (Stand, RerollAces)) for a in d[1])]


def strength(view: View) -> float:
    if isinstance(view, HoldemView):
        return holdem.strength_quantile(view)
    return peekpoker.strength_quantile(view)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES)
def test_registry_lists_every_style(game: str) -> None:
    assert bot_names(game) == ["random", "equity", "expert", "station", "maniac", "tight", "lag"]
    for name in STYLES:
        assert create_bot(game, name).name == name


@pytest.mark.parametrize("game", GAMES)
def test_station_calls_anything_and_never_bets(game: str) -> None:
    seen = betting(decisions(game, "station", 2, 1, 400))
    assert len(seen) > 50
    for _, legal, action in seen:
        assert not isinstance(action, (Fold, Bet, Raise))
        assert action == (Check() if Check() in legal else Call())


@pytest.mark.parametrize("game", GAMES)
def test_maniac_bets_or_raises_whenever_it_may(game: str) -> None:
    seen = betting(decisions(game, "maniac", 2, 2, 400))
    assert len(seen) > 50
    for _, legal, action in seen:
        may = any(isinstance(a, (Bet, Raise)) for a in legal)
        assert isinstance(action, (Bet, Raise)) == may
        assert not isinstance(action, Fold)


@pytest.mark.parametrize("game", GAMES)
def test_tight_bets_only_strong_hands_and_folds_the_rest(game: str) -> None:
    seen = betting(decisions(game, "tight", 2, 3, 800))
    kinds = {type(action) for _, _, action in seen}
    assert Fold in kinds or Check in kinds
    for view, legal, action in seen:
        strong = strength(view) >= STYLES["tight"].raise_at
        if isinstance(action, (Bet, Raise, Call)):
            assert strong
        elif strong:
            # A strong hand only checks or calls where no bet or raise is left.
            assert not any(isinstance(a, (Bet, Raise)) for a in legal)
        if Fold() in legal and not strong:
            assert action == Fold()


@pytest.mark.parametrize("game", GAMES)
def test_lag_bets_good_hands_and_bluffs_some_of_the_rest(game: str) -> None:
    style = STYLES["lag"]
    seen = betting(decisions(game, "lag", 2, 4, 800))
    may = [(view, action) for view, legal, action in seen if any(isinstance(a, (Bet, Raise)) for a in legal)]
    good = [action for view, action in may if strength(view) >= style.raise_at]
    weak = [action for view, action in may if strength(view) < style.raise_at]
    assert good and all(isinstance(a, (Bet, Raise)) for a in good)
    bluffs = sum(isinstance(a, (Bet, Raise)) for a in weak) / len(weak)
    assert 0.15 < bluffs < 0.5


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", sorted(STYLES))
def test_a_style_is_deterministic_given_its_rng(game: str, name: str) -> None:
    first = [action for _, _, action in decisions(game, name, 3, 5, 150)]
    again = [action for _, _, action in decisions(game, name, 3, 5, 150)]
    assert first == again and first


def test_decide_draws_one_number_per_decision() -> None:
    """The rng stream does not depend on the dice: a bluff draw is made whether or not it is used."""
    style = Style("test", 0.5, 0.5, 0.0, "")
    legal: list[Action] = [Fold(), Call(), Raise(20)]
    for strength_value in (0.1, 0.9):
        rng = Random(7)
        decide(style, strength_value, legal, Raise(20), rng)
        assert rng.random() == _second(7)


def _second(seed: int) -> float:
    rng = Random(seed)
    rng.random()
    return rng.random()
