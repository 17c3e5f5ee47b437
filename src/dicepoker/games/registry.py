"""Name -> game, so every client lists and creates games the same way.

Games are imported lazily: listing names or creating one game does not import the others.
"""

from __future__ import annotations

import importlib
from typing import Any

from dicepoker.core.errors import ConfigError, CorruptLog
from dicepoker.core.game import Game
from dicepoker.core.log import EventLog, replay_states
from dicepoker.core.state import State

AnyGame = Game[Any, Any]

_GAMES: dict[str, str] = {
    "scorecard": "dicepoker.games.scorecard:ScorecardGame",
    "holdem": "dicepoker.games.holdem:HoldemGame",
    "peekpoker": "dicepoker.games.peekpoker:PeekPokerGame",
    "zepherin": "dicepoker.games.board.rules:ZepherinGame",
    "classic-board": "dicepoker.games.board.rules:ClassicBoardGame",
}


def names() -> list[str]:
    """Registered game names, in a stable order.

    >>> "scorecard" in names()
    True
    """
    return list(_GAMES)


def game_class(name: str) -> type[AnyGame]:
    try:
        target = _GAMES[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(_GAMES)}") from None
    module_name, class_name = target.split(":")
    cls: type[AnyGame] = getattr(importlib.import_module(module_name), class_name)
    return cls


def create(name: str, **options: Any) -> AnyGame:
    """A game by name with keyword options, validated.

    >>> create("scorecard", players=1).num_players
    1
    """
    return game_class(name)(**options)


def replay(log: EventLog) -> list[State]:
    """Every state of a logged game; raises :class:`CorruptLog` for a log this package cannot replay."""
    if log.game not in _GAMES:
        raise CorruptLog(f"log is for unknown game {log.game!r}; known games: {', '.join(_GAMES)}")
    try:
        game = create(log.game, **log.config)
    except ConfigError as exc:
        raise CorruptLog(f"log header has a bad config: {exc}") from exc
    return replay_states(game, log.events)
