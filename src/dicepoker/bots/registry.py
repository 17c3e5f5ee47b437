"""(game, bot name) -> bot factory, so every client creates bots the same way.

Bots are imported lazily so that listing them does not build an optimal-strategy table.
"""

from __future__ import annotations

import importlib

from dicepoker.bots.base import Bot
from dicepoker.core.errors import ConfigError
from dicepoker.games.registry import info

_BOTS: dict[str, dict[str, str]] = {
    "holdem": {
        "random": "dicepoker.bots.base:RandomBot",
        "equity": "dicepoker.bots.holdem:EquityBot",
        "expert": "dicepoker.bots.holdem:ExpertBot",
        "station": "dicepoker.bots.styles:HoldemStation",
        "maniac": "dicepoker.bots.styles:HoldemManiac",
        "tight": "dicepoker.bots.styles:HoldemTight",
        "lag": "dicepoker.bots.styles:HoldemLag",
    },
    "peekpoker": {
        "random": "dicepoker.bots.base:RandomBot",
        "equity": "dicepoker.bots.peekpoker:EquityBot",
        "expert": "dicepoker.bots.peekpoker:ExpertBot",
        "station": "dicepoker.bots.styles:PeekPokerStation",
        "maniac": "dicepoker.bots.styles:PeekPokerManiac",
        "tight": "dicepoker.bots.styles:PeekPokerTight",
        "lag": "dicepoker.bots.styles:PeekPokerLag",
    },
    "scorecard": {
        "random": "dicepoker.bots.base:RandomBot",
        "greedy": "dicepoker.bots.scorecard:GreedyBot",
        "optimal": "dicepoker.bots.scorecard:OptimalBot",
    },
    "zepherin": {
        "random": "dicepoker.bots.base:RandomBot",
        "greedy": "dicepoker.bots.board:GreedyBot",
        "expert": "dicepoker.bots.board:ExpertBot",
    },
    "classic-board": {
        "random": "dicepoker.bots.base:RandomBot",
        "greedy": "dicepoker.bots.board:GreedyBot",
        "expert": "dicepoker.bots.board:ExpertBot",
    },
}


def bot_names(game: str) -> list[str]:
    """Example:

    >>> bot_names("scorecard")
    ['random', 'greedy', 'optimal']
    """
    return list(_BOTS.get(game, {"random": ""}))


def create_bot(game: str, name: str) -> Bot:
    """A fresh bot for ``game``; raises :class:`ConfigError` naming the bots that exist."""
    table = _BOTS.get(game, {"random": "dicepoker.bots.base:RandomBot"})
    if name not in table:
        raise ConfigError(f"no bot {name!r} for {game}; choose one of: {', '.join(table)}")
    module_name, class_name = table[name].split(":")
    bot: Bot = getattr(importlib.import_module(module_name), class_name)()
    return bot


STRENGTHS = ("easy", "normal", "strong")
"""The steps of every game's bot ladder (``GameInfo.bots``), weakest first."""


def ladder_bot_name(game: str, strength: str) -> str:
    """The bot a game names for a strength of its ladder (the game declares it by name, as games sit below bots);
    :class:`ConfigError` for an unknown strength.

    >>> ladder_bot_name("scorecard", "strong")
    'optimal'
    """
    if strength not in STRENGTHS:
        raise ConfigError(f"a bot strength is one of {', '.join(STRENGTHS)}, got {strength!r}")
    ladder = info(game).bots
    name: str = getattr(ladder, strength)
    return name


def create_ladder_bot(game: str, strength: str) -> Bot:
    """A fresh bot of ``game`` at ``strength`` (``easy``, ``normal`` or ``strong``)."""
    return create_bot(game, ladder_bot_name(game, strength))
