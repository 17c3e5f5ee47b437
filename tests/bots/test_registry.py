"""The bots registry resolves each game's declared strength ladder (issue 18: bots named by the game)."""

from __future__ import annotations

import pytest

from dicepoker.bots.registry import STRENGTHS, bot_names, create_ladder_bot, ladder_bot_name
from dicepoker.core.errors import ConfigError
from dicepoker.games.registry import info, names


@pytest.mark.parametrize("game", names())
def test_every_step_of_a_games_ladder_is_a_bot_of_that_game(game: str) -> None:
    for strength in STRENGTHS:
        name = ladder_bot_name(game, strength)
        assert name == getattr(info(game).bots, strength) and name in bot_names(game)
    assert create_ladder_bot(game, "easy").name


def test_an_unknown_strength_is_refused_with_the_choices() -> None:
    with pytest.raises(ConfigError, match="easy, normal, strong"):
        ladder_bot_name("holdem", "brutal")
