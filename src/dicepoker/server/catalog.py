"""What the server offers: every registered game with its config fields, defaults, bots and clock."""

from __future__ import annotations

import dataclasses
import functools
import inspect

from dicepoker.bots.registry import bot_names
from dicepoker.core.errors import ConfigError
from dicepoker.core.types import JSON
from dicepoker.games.registry import create, game_class, names
from dicepoker.server.errors import Invalid

CLOCK_DEFAULTS = {"scorecard": 30.0}
"""CM-6: 30 s for the scorecard game, 60 s for the others."""
OTHER_CLOCK = 60.0
TIME_BANK_GAMES = ("holdem", "peekpoker")
"""The betting games, whose tables may have a per-player time bank (``POST /api/tables`` ``time_bank``)."""
MAX_PLAYERS_PROBED = 12
AUTOFILL_BOTS = {"scorecard": "greedy", "zepherin": "greedy", "classic-board": "greedy"}
"""The bot that takes a play-now table's empty seats (``random`` for games not named here)."""

_TYPES = {"int": "int", "bool": "bool", "str": "str", "tuple[str, ...]": "list[str]"}


def clock_default(game: str) -> float:
    return CLOCK_DEFAULTS.get(game, OTHER_CLOCK)


def autofill_bot(game: str) -> str:
    wanted = AUTOFILL_BOTS.get(game, "random")
    return wanted if wanted in bot_names(game) else "random"


@functools.cache
def player_range(game: str) -> tuple[int, int, int]:
    """(min, max, default) player counts of a game, found by asking its config."""
    allowed = []
    for players in range(1, MAX_PLAYERS_PROBED + 1):
        try:
            create(game, players=players)
        except ConfigError:
            continue
        allowed.append(players)
    default = create(game).num_players
    return min(allowed), max(allowed), default


def _field(game: str, field: dataclasses.Field[object]) -> dict[str, JSON]:
    annotation = str(field.type)
    nullable = annotation.endswith("| None")
    base = annotation.removesuffix("| None").strip()
    default = field.default if field.default is not dataclasses.MISSING else None
    entry: dict[str, JSON] = {
        "name": field.name,
        "type": _TYPES.get(base, base),
        "default": list(default) if isinstance(default, tuple) else default,
    }
    if nullable:
        entry["nullable"] = True
    if field.name == "players":
        low, high, _ = player_range(game)
        entry["min"], entry["max"] = low, high
    return entry


@functools.cache
def _games() -> tuple[dict[str, JSON], ...]:
    found = []
    for name in names():
        cls = game_class(name)
        doc = inspect.getdoc(cls) or cls.title
        low, high, default = player_range(name)
        found.append(
            {
                "name": name,
                "title": cls.title,
                "summary": doc.splitlines()[0],
                "players": {"min": low, "max": high, "default": default},
                "config": [_field(name, f) for f in dataclasses.fields(cls.config_type)],
                "bots": bot_names(name),
                "clock_default": clock_default(name),
                "time_bank": name in TIME_BANK_GAMES,
            }
        )
    return tuple(found)


def games() -> list[dict[str, JSON]]:
    """``GET /api/games``: every game, its config fields and defaults, its bots and its CM-6 clock."""
    return [dict(g) for g in _games()]


def parse_seat(game: str, spec: str) -> tuple[str, str | None]:
    """``"open"``, ``"bot"`` (the game's default bot) or ``"bot:NAME"`` -> (kind, bot name)."""
    if spec == "open":
        return "open", None
    if spec == "bot" or spec.startswith("bot:"):
        name = spec[4:] if spec.startswith("bot:") else autofill_bot(game)
        if name not in bot_names(game):
            raise Invalid(f"no bot {name!r} for {game}; choose one of: {', '.join(bot_names(game))}")
        return "bot", name
    raise Invalid(f"a seat is 'open', 'bot' or 'bot:NAME', got {spec[:40]!r}")
