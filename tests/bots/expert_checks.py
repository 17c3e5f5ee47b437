"""Checks the expert bots of both betting games share: they decide from views only, and they learn."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from dicepoker.arena.duel import DuelReport, duel
from dicepoker.bots.base import Bot, RandomBot
from dicepoker.bots.registry import create_bot
from dicepoker.core import Match


def assert_decides_from_views_only(match: Match, make_bot: Callable[[], Bot], players: int) -> None:
    """Two bots follow one game; one is shown views of a copy where everybody else's hidden dice (and
    pending choices) were redrawn. Anything hidden that leaked into a decision would split them."""
    sighted, blind = make_bot(), make_bot()
    for step in range(300):
        state = match.state
        if state.is_terminal:
            break
        seat = state.to_act[0]  # type: ignore[index]
        redrawn = state
        for other in range(players):
            if other != seat:
                redrawn = redrawn.with_other_secret(other, Random(step * 10 + other))
        legal = state.legal_actions(seat)
        action = sighted.choose(state.view(seat), legal, Random(step))
        assert action in legal
        assert blind.choose(redrawn.view(seat), legal, Random(step)) == action
        match.act(action, seat)


def learning_session(game: str, expert: Bot, opponent: str, hands: int) -> DuelReport:
    """A short seeded heads-up session of ``expert`` against the ``random`` or ``equity`` bot of ``game``."""
    rival = RandomBot() if opponent == "random" else create_bot(game, "equity")
    return duel(game, expert, rival, hands=hands, seed=1)
