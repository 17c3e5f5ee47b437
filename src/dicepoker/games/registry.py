"""Name -> game and its facts, so every client lists and creates games the same way.

Each game declares its facts once, in its own package (a :class:`~dicepoker.core.info.GameInfo`); this is the
only table keyed by the games' names. Games are imported lazily: listing names or creating one game does not
import the others.
"""

from __future__ import annotations

import importlib
from typing import Any

from dicepoker.core.errors import ConfigError, CorruptLog
from dicepoker.core.game import Game
from dicepoker.core.info import GameInfo
from dicepoker.core.log import EventLog, replay_states
from dicepoker.core.state import State

AnyGame = Game[Any, Any]

_GAMES: dict[str, str] = {
    "scorecard": "dicepoker.games.scorecard.info:INFO",
    "holdem": "dicepoker.games.holdem.info:INFO",
    "peekpoker": "dicepoker.games.peekpoker.info:INFO",
    "zepherin": "dicepoker.games.board.info:ZEPHERIN",
    "classic-board": "dicepoker.games.board.info:CLASSIC_BOARD",
}


def names() -> list[str]:
    """Registered game names, in a stable order.

    >>> "scorecard" in names()
    True
    """
    return list(_GAMES)


def info(name: str) -> GameInfo:
    """The facts a game declares about itself; raises :class:`ConfigError` naming the known games.

    >>> info("zepherin").short_title
    'Zepherin'
    """
    try:
        target = _GAMES[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(_GAMES)}") from None
    module_name, attribute = target.split(":")
    found: GameInfo = getattr(importlib.import_module(module_name), attribute)
    return found


def infos() -> list[GameInfo]:
    """Every game's facts, in the order of :func:`names` (this imports every game)."""
    return [info(name) for name in _GAMES]


def game_class(name: str) -> type[AnyGame]:
    cls: type[AnyGame] = info(name).game_class
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
